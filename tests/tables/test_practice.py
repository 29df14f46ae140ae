"""Practice tables in the hosting core: one person against easy AIs, hints on, a lesson in
their own view for each new kind of moment (shown once, remembered across a restart), no
results recorded, and the suggestion of a real table at the end."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.engines.base import GameError
from bot.games import all_games
from bot.games.lessons import PATHS
from bot.storage.db import Database
from bot.tables import coaching, practice
from bot.tables.manager import Person, TableManager
from bot.tables.protocols import NotAllowed
from bot.tables.table import Table
from bot.tables.thinking import Thinker
from tests.tables.test_manager import CHANNEL, GUILD, Recorder

ALICE, BOB = Person(1, "Alice"), Person(2, "Bob")
GAMES = all_games()


@pytest.fixture
async def db(tmp_path: Path):
    database = await Database.open(tmp_path / "practice.db")
    yield database
    await database.close()


def _manager(db: Database) -> TableManager:
    thinker = Thinker(GAMES.values(), workers=0, budget=1.0)
    return TableManager(db, GAMES, Recorder(), ai_delay=0, turn_timeout=600, thinker=thinker)


def _ai(game: str):
    return __import__(f"bot.engines.{game}.ai", fromlist=["decide"])


def _lesson_names(panel) -> list[str]:
    return [f.name for f in panel.fields if f.name.startswith(practice.LESSON_FIELD)]


async def _my_move(table: Table) -> int | None:
    """Wait until it is the learner's move (their seat), or the game is over (None)."""
    for _ in range(3000):
        if table.record.status != "active" or table.state is None:
            return None
        seat = table.seat_of(ALICE.id)
        # (a lone move with nothing to decide, Flux's "Play on", the table makes for them)
        if seat in table.spec.engine.to_act(table.state) and not table.moves_itself(seat):
            return seat
        await asyncio.sleep(0.005)
    raise AssertionError("the AI seats never gave the learner a move")


@pytest.mark.parametrize("game", list(PATHS))
async def test_a_practice_table_end_to_end_in_the_core(db: Database, game: str) -> None:
    core = _manager(db)
    table = await practice.open_practice(
        core, game, guild_id=GUILD, channel_id=CHANNEL, person=ALICE, seed=7
    )
    await core.attach_message(table, 999)
    seats, _ = practice.SETUP[game]
    assert table.record.status == "active" and len(table.seats) == seats
    assert [s.level for s in table.seats[1:]] == ["easy"] * (seats - 1)
    assert table.seats[0].user_id == ALICE.id and coaching.hints_on(table)
    public = core.public_panel(table)
    assert practice.banner(table) in (public.description or "")
    assert "Practice — only Alice plays; not rated" in (public.description or "")
    assert not any(f.name.startswith(practice.LESSON_FIELD) for f in public.fields)
    with pytest.raises((GameError, NotAllowed)):
        await core.join(table.id, BOB)

    # Play the learner's moves with the normal AI; every view shows at most one lesson,
    # and a lesson once played through is never shown again.
    ai, engine = _ai(game), table.spec.engine
    seen: list[str] = []
    rng = random.Random(1)
    restarted = False
    while (seat := await _my_move(table)) is not None:
        panel = await core.private_panel(table.id, ALICE.id)
        names = _lesson_names(panel)
        assert len(names) <= 1
        if not seen:  # the learner's first moment always has its lesson
            assert names, panel.fields
        for name in names:
            assert name not in seen, f"{name} shown twice"
        state = table.state
        assert state is not None
        observation = engine.observe(state, seat)
        lesson = practice.lesson_at(table, observation, engine.legal_actions(state, seat))
        assert names == ([f"{practice.LESSON_FIELD}: {lesson.title}"] if lesson else [])
        move = ai.decide(observation, "normal", rng, None)
        await core.act(table.id, ALICE.id, move, None)
        if lesson is not None:
            seen.append(names[0])
            assert table.record.config[practice.SHOWN][-1] == lesson.key
            if not restarted and table.record.status == "active":
                # A restart keeps which lessons were shown.
                stored = await db.load_game(table.id)
                assert stored is not None and lesson.key in stored.config[practice.SHOWN]
                restarted = True
    assert table.record.status == "finished"
    assert seen, "no lesson came up in a whole game"
    assert await db.results(table.id) == []
    rows, total = await db.leaderboard(GUILD, game)
    assert rows == [] and total == 0
    final = core.public_panel(table)
    fields = {f.name: f.value for f in final.fields}
    assert fields["What next"].startswith(
        f"You finished your first game of {table.spec.title}: start a real one with `/{game} start`"
    )
    assert not [c for c in final.controls if c.label == "Rematch"]
    with pytest.raises(GameError, match=r"^error-rematch-practice\b"):
        await core.rematch(table.id, ALICE)
    await core.close()


async def test_a_normal_table_shows_no_lesson(db: Database) -> None:
    core = _manager(db)
    table = await core.create("qdice", guild_id=GUILD, channel_id=CHANNEL, host=ALICE, seed=3)
    await core.attach_message(table, 999)
    await core.join(table.id, BOB)
    await core.start(table.id, ALICE)
    assert table.state is not None
    (seat,) = table.spec.engine.to_act(table.state)
    panel = await core.private_panel(table.id, (ALICE, BOB)[seat].id)
    assert not _lesson_names(panel)
    assert "Practice" not in (core.public_panel(table).description or "")
    await core.close()


async def test_a_restart_keeps_the_lessons_shown(db: Database) -> None:
    core = _manager(db)
    table = await practice.open_practice(
        core, "qdice", guild_id=GUILD, channel_id=CHANNEL, person=ALICE, seed=11
    )
    await core.attach_message(table, 999)
    seat = await _my_move(table)
    assert seat is not None
    panel = await core.private_panel(table.id, ALICE.id)
    assert _lesson_names(panel) == [f"{practice.LESSON_FIELD}: Your first throw"]
    await core.act(table.id, ALICE.id, "t0", None)  # select a die: the moment is played
    await core.close()

    again = _manager(db)
    assert await again.restore() >= 1
    table = await again.fetch(table.id)
    assert practice.shown(table) == {"throw"}
    panel = await again.private_panel(table.id, ALICE.id)
    names = _lesson_names(panel)
    assert f"{practice.LESSON_FIELD}: Your first throw" not in names
    assert names == [f"{practice.LESSON_FIELD}: Getting on the board"]
    await again.close()
