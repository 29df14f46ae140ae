"""The bot drops old games' moves on its own, keeps their results, and survives a failed try."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

import pytest

from bot.storage import ActionRecord, Database
from bot.storage.housekeeping import keep_replays

from .helpers import new_game, result


def _act(version: int) -> ActionRecord:
    return ActionRecord(version=version, seat=0, action="roll", user_id=1, at=100.0)


async def _finished(db: Database, ended_at: float) -> int:
    game = await new_game(db)
    await db.save_progress(game.id, version=1, state_json="x", actions=[_act(1)])
    await db.finish_game(
        game.id,
        guild_id=game.guild_id,
        game=game.game,
        results=[result(game.seats[0], 1), result(game.seats[1], 2)],
        ended_at=ended_at,
    )
    return game.id


async def _until(check: Callable[[], Awaitable[bool]], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < deadline, "housekeeping did not prune in time"
        await asyncio.sleep(0.01)


async def test_old_games_lose_their_moves_and_keep_their_results(db: Database) -> None:
    old = await _finished(db, ended_at=time.time() - 31 * 86400)
    recent = await _finished(db, ended_at=time.time() - 29 * 86400)
    live = await new_game(db)
    await db.save_progress(live.id, version=1, state_json="z", actions=[_act(1)])

    task = asyncio.create_task(keep_replays(db, days=30, every=0.01))
    try:

        async def pruned() -> bool:
            return await db.actions(old) == []

        await _until(pruned)
    finally:
        task.cancel()
    assert len(await db.results(old)) == 2
    assert (await db.load_game(old)).status == "finished"  # type: ignore[union-attr]
    for kept in (recent, live.id):
        assert len(await db.actions(kept)) == 1


async def test_zero_days_keeps_every_game(db: Database) -> None:
    old = await _finished(db, ended_at=1000.0)
    await asyncio.wait_for(keep_replays(db, days=0, every=0.01), timeout=1)
    assert len(await db.actions(old)) == 1


async def test_a_failed_prune_is_logged_and_tried_again(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    old = await _finished(db, ended_at=1000.0)
    calls = 0

    class Flaky:
        async def prune(self, *, older_than_days: float = 30.0, now: float | None = None) -> int:
            nonlocal calls
            calls += 1
            if calls == 1:
                raise ConnectionError("database restarting")
            return await db.prune(older_than_days=older_than_days, now=now)

    with caplog.at_level(logging.INFO, logger="bot.storage.housekeeping"):
        task = asyncio.create_task(keep_replays(Flaky(), days=30, every=0.01))
        try:

            async def pruned() -> bool:
                return await db.actions(old) == []

            await _until(pruned)
        finally:
            task.cancel()
    assert calls >= 2
    assert "Pruning old games' moves failed" in caplog.text
    assert "Dropped the moves of 1 game(s)" in caplog.text
