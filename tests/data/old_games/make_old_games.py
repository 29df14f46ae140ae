"""Make the stored games of the previous release, and what that release showed of them.

Issue 40 asks that every game stored before the wording moved into catalogues "replays and
reviews exactly as before". This script makes the evidence for that check with the OLD code
(release ``d945eca``, the last before the change): a SQLite database of games of all five
kinds, played through that release's own table core (``TableManager``: lobby, seats, AI
seats moved by its turn driver, every move saved as the bot saves one, reviews worked out by
its hard AI after each finished game), and a JSON file of the texts that release showed of
them:

- finished games: every replay step (seat, mover, the step's lines) and its caption, the
  Show hands panel, the text drawn on the pictures of Show hands and of the last step, the
  finished table message, and each person's review panel;
- games in progress: the table's recent log lines, its public message (title, description,
  footer, fields, buttons) and the text drawn on its picture.

``tests/storage/test_old_games.py`` opens a copy of the database with the CURRENT code
(which runs the migrations since) and checks that it shows the same texts.

To make the files again (from the repository root)::

    git worktree add /work/old-release d945eca       # anywhere outside this checkout
    PYTHONPATH=/work/old-release .venv/bin/python tests/data/old_games/make_old_games.py

``PYTHONPATH`` puts the old ``bot`` package ahead of this checkout's editable install (the
old release needs no package this one lacks); the script refuses to run unless every
``bot`` module it loaded comes from there, and records the release's commit. It writes
``games.db`` and ``expected.json`` next to itself (``--out`` elsewhere).

Reproducible: seats, seeds, options and the people's moves (their game's easy or normal AI
with a seeded random source, now and then a random legal move) are fixed, AI seats play
the easy and normal levels (no time budget), and the clock is a constant, so the same games
are played every time. Only the reviews' findings may differ from one run to the next: the
hard AI behind them searches within a time budget. The expected texts are always those of
the reviews stored in this run's database.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import sqlite3
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import bot
from bot.games import all_games
from bot.render.common import recording_text
from bot.storage.db import Database
from bot.tables import panels
from bot.tables.manager import Person, TableManager
from bot.tables.replay import Replays
from bot.tables.table import Table
from bot.tables.views import Panel

GUILD = 4242
"""The server every game was played on."""
CLOCK = 1_751_000_000.0
"""The constant clock (2025-06-27): timestamps, deadlines and ends are all this."""
TURN_TIMEOUT = 86_400.0
"""A day: no person ever runs out of time by the wall clock while the script plays."""
REVIEW_BUDGET = 0.05
"""Seconds of the hard AI per reviewed position (short: the texts, not their wisdom)."""

PEOPLE = [
    Person(1001, "Ada"),
    Person(1002, "Björn"),
    Person(1003, "Chidi"),
    Person(1004, "Dana"),
]


@dataclass
class Plan:
    """One game to play: who sits, what options, and where it stops."""

    label: str
    game: str
    people: int
    ai: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 1
    stop_after: int | None = None
    """Stop (the game stays in progress) at the first person's turn after this many moves."""
    autopilot_after: int | None = None
    """After this many moves, the last person runs out of time: an AI plays for them."""
    leave_after: int | None = None
    """After this many moves, the last person leaves: an AI takes their seat."""


PLANS = [
    Plan("qdice-finished", "qdice", 2, ["normal"], {"target": 3000}, seed=11),
    Plan("qdice-in-progress", "qdice", 2, ["easy"], {"target": 5000}, seed=12, stop_after=14),
    Plan("qpoker-finished", "qpoker", 2, ["normal"], {"rounds": 2}, seed=21),
    Plan(
        "qpoker-per-player",
        "qpoker",
        2,
        ["easy", "normal"],
        {"rounds": 2, "community": "per_player"},
        seed=22,
    ),
    Plan("qpoker-in-progress", "qpoker", 2, ["normal"], {"rounds": 3}, seed=23, stop_after=9),
    Plan("flume-finished", "flume", 2, ["normal", "easy"], {"target": 5}, seed=31),
    Plan("flume-five", "flume", 2, ["normal", "normal", "easy"], {"target": 5}, seed=32),
    Plan(
        "flume-in-progress", "flume", 2, ["normal", "normal"], {"target": 9}, seed=33, stop_after=25
    ),
    Plan("flux-finished", "flux", 2, ["normal"], {}, seed=41, autopilot_after=30),
    Plan("flux-variants", "flux", 1, ["normal", "easy"], {"variants": "5,9,11,16"}, seed=42),
    Plan("flux-in-progress", "flux", 2, ["normal"], {}, seed=43, stop_after=20),
    Plan("fingers-finished", "fingers", 3, ["normal"], {"per_flavour": 3}, seed=51),
    Plan(
        "fingers-in-progress",
        "fingers",
        3,
        ["easy"],
        {"per_flavour": 6},
        seed=52,
        stop_after=8,
        leave_after=4,
    ),
]


class Recorder:
    """A presenter that shows nothing (the script reads the panels itself)."""

    async def show(self, table: Table, panel: Panel) -> None:
        return None

    async def announce(self, table: Table, text: str, mention: int | None = None) -> None:
        return None

    async def ping(self, table: Table, user_id: int, text: str) -> int | None:
        return None

    async def unping(self, table: Table, message_id: int) -> None:
        return None

    def private_changed(self, table: Table) -> None:
        return None


def panel_texts(panel: Panel) -> dict[str, Any]:
    """Every text of a panel a person reads."""
    return {
        "title": panel.title,
        "description": panel.description,
        "content": panel.content,
        "footer": panel.footer,
        "fields": [[f.name, f.value, f.inline] for f in panel.fields],
        "controls": [
            {
                "label": c.label,
                "emoji": c.emoji,
                "placeholder": c.placeholder,
                "options": [[o.label, o.description] for o in c.options],
            }
            for c in panel.controls
        ],
    }


def drawn(draw: Any) -> list[str]:
    """The text a picture shows (each piece as drawn, cut or not), in a stable order."""
    with recording_text() as texts:
        draw()
    return sorted(item.shown for item in texts)


async def play(core: TableManager, plan: Plan) -> Table:
    """Seat, start and play one planned game through the core; return its table."""
    spec = core.games[plan.game]
    engine, ai = spec.engine, spec.ai
    assert ai is not None
    people = PEOPLE[: plan.people]
    table = await core.create(
        plan.game, guild_id=GUILD, channel_id=9000 + plan.seed, host=people[0],
        options=plan.options, seed=plan.seed,
    )  # fmt: skip
    await core.attach_message(table, 80_000 + plan.seed)
    for person in people[1:]:
        await core.join(table.id, person)
    for level in plan.ai:
        await core.add_ai(table.id, people[0], level)
    await core.start(table.id, people[0])
    rng = random.Random(plan.seed)
    by_seat = {table.seat_of(p.id): p for p in people}
    moves = 0
    while table.record.status == "active":
        assert table.state is not None
        to_act = sorted(engine.to_act(table.state))
        waiting = not to_act or any(
            table.moves_itself(s) for s in to_act
        )  # the turn driver moves AI seats and people's only moves
        if waiting:
            await asyncio.sleep(0.002)
            continue
        moves = table.record.version - 1
        if plan.stop_after is not None and moves >= plan.stop_after:
            break
        last = people[-1]
        if plan.autopilot_after is not None and moves >= plan.autopilot_after:
            seat = table.seat_of(last.id)
            if seat in to_act and not table.seats[seat].autopilot:
                # what the turn driver does when a person's time runs out
                await core.driver._autopilot(table, frozenset({seat}))  # type: ignore[arg-type]
                table.changed.set()  # (the driver itself would look again at once)
                continue
        leaves = plan.leave_after is not None and moves >= plan.leave_after
        if leaves and table.seat_of(last.id) is not None:
            await core.leave(table.id, last)
            continue
        seat = to_act[0]
        person = by_seat[seat]
        observation = engine.observe(table.state, seat)
        legal = engine.legal_actions(table.state, seat)
        if rng.random() < 0.25:
            action = rng.choice(legal)
        else:
            level = "easy" if rng.random() < 0.5 else "normal"
            action = ai.decide(observation, level, rng, None)
        await core.act(table.id, person.id, action, table.record.version)
    return table


async def record_finished(core: TableManager, replays: Replays, game_id: int) -> dict[str, Any]:
    """What the old release showed of a finished game."""
    record = await core.db.load_game(game_id)
    assert record is not None and record.status == "finished", game_id
    spec = core.games[record.game]
    replay = await replays.open(game_id, GUILD)
    steps = [{"seat": s.seat, "user_id": s.user_id, "lines": list(s.lines)} for s in replay.steps]
    captions = [replay._caption(i) for i in range(len(replay.steps))]
    hands = replay.panel(replay.hands_step(), hands=True)
    table = Table(record=record, spec=spec)
    table.load_snapshot(record.state_json or "{}")
    finished, draw = panels.public_panel_parts(table, TURN_TIMEOUT)
    reviews = []
    for seat in record.seats:
        if seat.is_ai or seat.user_id is None:
            continue
        shown = await core.reviews.show(game_id, seat.user_id, GUILD)
        reviews.append({"seat": seat.seat, "user_id": seat.user_id, "panel": panel_texts(shown)})
    return {
        "replay": {
            "steps": steps,
            "captions": captions,
            "hands_step": replay.hands_step(),
            "hands": panel_texts(hands),
            "hands_picture": drawn(lambda: replay.panel(replay.hands_step(), hands=True)),
            "last_picture": drawn(lambda: replay.panel(replay.last)),
        },
        "log": list(table.log),
        "panel": panel_texts(finished),
        "picture": drawn(draw) if draw is not None else [],
        "reviews": reviews,
    }


async def record_in_progress(core: TableManager, game_id: int) -> dict[str, Any]:
    """What the old release showed of a game in progress (as restored from storage)."""
    record = await core.db.load_game(game_id)
    assert record is not None and record.status == "active", game_id
    table = Table(record=record, spec=core.games[record.game])
    table.load_snapshot(record.state_json or "{}")
    panel, draw = panels.public_panel_parts(table, TURN_TIMEOUT)
    return {
        "log": list(table.log),
        "panel": panel_texts(panel),
        "picture": drawn(draw) if draw is not None else [],
    }


def old_release(root: Path) -> str:
    """The commit of the release the ``bot`` package was loaded from (refuses any other)."""
    loaded = [
        m.__file__ for name, m in sys.modules.items() if name.split(".")[0] == "bot" and m.__file__
    ]
    stray = [f for f in loaded if not Path(f).resolve().is_relative_to(root)]
    if stray:
        sys.exit(f"bot modules loaded from outside {root}: {stray[:3]}")
    commit = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    return commit


def prepare(out: Path) -> Path:
    """The old release's root (refusing this checkout's code); ``out`` emptied of a
    database made before."""
    root = Path(bot.__file__).resolve().parents[1]
    here = Path(__file__).resolve().parents[3]
    if root == here:
        sys.exit("this imports the current code: run it with PYTHONPATH=<old release worktree>")
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob("games.db*"):
        stale.unlink()
    return root


async def main(out: Path, root: Path) -> None:
    path = out / "games.db"
    games = all_games()
    db = await Database.open(path)
    core = TableManager(
        db, games, Recorder(), ai_delay=0, turn_timeout=TURN_TIMEOUT, clock=lambda: CLOCK
    )
    core.reviews.budget = REVIEW_BUDGET
    played: list[tuple[Plan, int]] = []
    for plan in PLANS:
        table = await play(core, plan)
        if table.record.status != "active" and table.runner is not None:
            await table.runner  # its last move's work is done (the review is under way)
        await core.reviews.wait(table.id)
        print(f"{plan.label}: game #{table.id} {table.record.status} at version "
              f"{table.record.version}", flush=True)  # fmt: skip
        assert (table.record.status == "active") == (plan.stop_after is not None), plan.label
        played.append((plan, table.id))
    await core.close()

    replays = Replays(db, games)
    recorded = []
    for plan, game_id in played:
        record = await db.load_game(game_id)
        assert record is not None
        entry: dict[str, Any] = {
            "label": plan.label,
            "id": game_id,
            "game": plan.game,
            "status": record.status,
            "seats": [
                {"name": s.name, "user_id": s.user_id, "is_ai": s.is_ai} for s in record.seats
            ],
        }
        if record.status == "finished":
            entry.update(await record_finished(core, replays, game_id))
        else:
            entry.update(await record_in_progress(core, game_id))
        recorded.append(entry)
    await db.close()
    with sqlite3.connect(path) as conn:  # one small file, no WAL beside it
        conn.execute("PRAGMA journal_mode = DELETE")
    with sqlite3.connect(path) as conn:
        conn.execute("VACUUM")
    expected = {
        "release": old_release(root),
        "guild": GUILD,
        "turn_timeout": TURN_TIMEOUT,
        "games": recorded,
    }
    (out / "expected.json").write_text(
        json.dumps(expected, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    print(f"{len(recorded)} games in {path} ({path.stat().st_size:,} bytes)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    logging.basicConfig(level=logging.WARNING)
    target = parser.parse_args().out
    asyncio.run(main(target, prepare(target)))
