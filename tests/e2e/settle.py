"""Waiting for a table to be a person's to play: the loopback going quiet is not enough, since
AI seats think in worker processes, sending nothing while they do."""

from __future__ import annotations

import asyncio

from bot.sandbox.loopback import LoopbackDiscord
from bot.tables.table import Table


async def settled(
    fake: LoopbackDiscord, table: Table, *, timeout: float = 30, quiet: float | None = None
) -> None:
    """Wait until the loopback is quiet and no AI (or autopilot) seat of ``table`` is to move,
    nor a person whose only move the table makes for them (or the game is over)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        if quiet is None:
            await fake.wait_idle()
        else:
            await fake.wait_idle(quiet=quiet)
        if table.record.status != "active" or table.state is None:
            return
        to_act = table.spec.engine.to_act(table.state)
        if not to_act or any(not table.moves_itself(s) for s in to_act):
            return
        if loop.time() > deadline:
            raise AssertionError(f"the AI of game {table.id} never moved")
        await asyncio.sleep(0.02)
