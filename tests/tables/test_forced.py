"""A person's only move, made by the table after a pause (Flux's lone "Play on"), in the
hosting core on its own: a toy game whose second seat never has anything to decide."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from bot.storage.db import Database
from bot.tables.manager import TableManager
from bot.tables.protocols import GameSpec
from tests.tables.test_manager import ALICE, BOB, Recorder, _game, db
from tests.tables.toy import ToyEngine, ToyUI

__all__ = ["db"]


class OneChoiceUI(ToyUI):
    """Bob (seat 1) always adds 1: the table adds it for him."""

    def forced_move(self, observation: Any, legal: list[str]) -> str | None:
        return "add1" if observation.seat == 1 and legal else None


FORCED = GameSpec(engine=ToyEngine(), ui=OneChoiceUI(), emoji="🧸", blurb="A toy")


async def _until(check: Callable[[], bool], what: str) -> None:
    for _ in range(500):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


async def test_the_only_move_is_made_for_the_person_as_their_own(db: Database) -> None:
    presenter = Recorder()
    manager = TableManager(db, {"toy": FORCED}, presenter, ai_delay=0, turn_timeout=60)
    table = await _game(manager, ALICE, BOB)
    await manager.start(table.id, ALICE)
    await manager.act(table.id, ALICE.id, "add2", None)
    await _until(lambda: table.state.totals == [2, 1], "bob's add1")  # type: ignore[union-attr]
    assert table.state.current == 0  # type: ignore[union-attr]
    last = (await db.actions(table.id))[-1]
    assert (last.seat, last.action, last.user_id) == (1, "add1", BOB.id)  # his own move
    assert not [p for p in getattr(presenter, "pings", []) if p[1] == BOB.id]  # no "your turn"
    assert not table.moves_itself(0) and table.forced_move(0) is None  # alice still chooses
    await manager.close()


async def test_a_pending_move_survives_a_restart(db: Database) -> None:
    first = TableManager(db, {"toy": FORCED}, Recorder(), ai_delay=60, turn_timeout=60)
    table = await _game(first, ALICE, BOB)
    await first.start(table.id, ALICE)
    await first.act(table.id, ALICE.id, "add2", None)
    await asyncio.sleep(0.05)  # the table waits its pause before Bob's move...
    assert table.state.totals == [2, 0] and table.moves_itself(1)  # type: ignore[union-attr]
    await first.close()  # ...and the bot stops meanwhile

    second = TableManager(db, {"toy": FORCED}, Recorder(), ai_delay=0, turn_timeout=60)
    assert await second.restore() == 1
    again = second.get(table.id)
    await _until(lambda: again.state.totals == [2, 1], "bob's add1 after the restart")  # type: ignore[union-attr]
    await second.close()
