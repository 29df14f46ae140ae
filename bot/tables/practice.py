"""Practice tables: a guided first game (``/<game> learn``).

One person plays against easy AI players at a normal table marked as practice (Discord
gives bots no private channels to create here): nobody else may join, hints are always on,
and the finished game records no results, so no rating or leaderboard row. Each time a new
kind of moment comes up, the person's own view explains it (a lesson of the game's path,
:mod:`bot.games.lessons`); a lesson is shown until the person makes their move in that
moment, and then never again at that table (which were shown is kept in the table's config,
so a restart keeps it). The finished table suggests a real one.

Pure functions of a table, plus :func:`open_practice`, which opens and starts one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.games import lessons
from bot.tables.table import Table
from bot.tables.views import Field

if TYPE_CHECKING:
    from bot.tables.manager import Person, TableManager

PRACTICE = "practice"
"""Stored config key: the table is a practice table (True)."""
SHOWN = "lessons_shown"
"""Stored config key: the keys of the lessons already shown, in order."""
LESSON_FIELD = "📘 Lesson"

SETUP: dict[str, tuple[int, dict[str, Any]]] = {
    # game: (seats in all, options): short games, the fewest seats each game allows
    "qdice": (2, {"target": 3000}),
    "qpoker": (2, {"rounds": 3}),
    "flume": (4, {"target": 11}),
    "flux": (2, {"variants": "15", "deals": 1}),
    "fingers": (3, {"per_flavour": 3}),
}


def is_practice(table: Table) -> bool:
    return bool(table.record.config.get(PRACTICE))


def learner(table: Table) -> str:
    """The name of the one person playing a practice table."""
    host = table.record.host_id
    return next(
        (s.name.partition(" (")[0] for s in table.seats if host in (s.user_id, s.left_user_id)),
        "you",
    )


def banner(table: Table) -> str:
    """How a practice table says what it is, on its message."""
    return f"🎓 Practice — only {learner(table)} plays; not rated."


def shown(table: Table) -> set[str]:
    return set(table.record.config.get(SHOWN) or [])


def lesson_at(table: Table, observation: Any, legal: list[str]) -> lessons.Lesson | None:
    """The lesson for a seat's moment at a practice table (None: not practice, or nothing
    new)."""
    if not is_practice(table):
        return None
    return lessons.lesson_for(table.record.game, observation, legal, shown(table))


def lesson_field(lesson: lessons.Lesson) -> Field:
    return Field(f"{LESSON_FIELD}: {lesson.title}", lesson.text[:1024], inline=False)


def with_shown(config: dict[str, Any], key: str) -> dict[str, Any]:
    """``config`` with lesson ``key`` remembered as shown (a new dict)."""
    return {**config, SHOWN: [*(config.get(SHOWN) or []), key]}


def finished_field(table: Table) -> Field:
    """The finished practice table's suggestion of a real one."""
    game, title = table.record.game, table.spec.title
    return Field(
        "What next",
        f"You finished your first game of {title}: start a real one with `/{game} start` "
        f"(or practise again with `/{game} learn`). This game was practice, so it is not "
        "rated.",
        inline=False,
    )


async def open_practice(
    core: TableManager,
    game: str,
    *,
    guild_id: int,
    channel_id: int,
    person: Person,
    thread_id: int | None = None,
    seed: int | None = None,
) -> Table:
    """Open a practice table of ``game`` for ``person`` with easy AI players, and start it."""
    seats, options = SETUP[game]
    table = await core.lobby.create(
        game,
        guild_id=guild_id,
        channel_id=channel_id,
        host=person,
        options=options,
        thread_id=thread_id,
        seed=seed,
        hints=True,
        practice=True,
    )
    for _ in range(seats - 1):
        await core.lobby.add_ai(table.id, person, "easy")
    return await core.lobby.start(table.id, person)
