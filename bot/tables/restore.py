"""Bringing tables back: every live game this process hosts after a start, and one table
whose stored copy moved on (another process saved it) or that was not in memory yet.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from bot.storage.models import GameRecord
from bot.tables.table import Table

if TYPE_CHECKING:
    from bot.tables.manager import TableManager

log = logging.getLogger(__name__)

REFRESH_AT_ONCE = 8
"""Table messages refreshed at the same time after a start."""


class Restorer:
    """Loads tables from storage into the core."""

    def __init__(self, core: TableManager) -> None:
        self.core = core

    async def restore(self) -> int:
        """Load every live game this process hosts, resume its turns, refresh its message.

        Every table is in memory (clicks on it work) before any message is refreshed; the
        refreshes then run :data:`REFRESH_AT_ONCE` at a time (discord.py keeps each within
        Discord's rate limits), so a thousand tables come back in seconds, not minutes.
        """
        core = self.core
        shards = core.shards
        if shards is None:
            records = await core.db.active_games()
        else:
            records = await core.db.active_games(
                shard_ids=list(shards.shard_ids), shard_count=shards.shard_count
            )
        started = time.perf_counter()
        tables = [table for table in map(self.load, records) if table is not None]
        for table in tables:
            await self._forgive_downtime(table)
            if table.record.status == "active":
                core.driver.ensure_runner(table)
        log.info(
            "%d table(s) loaded and playable in %.1f s; refreshing their messages",
            len(tables),
            time.perf_counter() - started,
        )
        gate = asyncio.Semaphore(REFRESH_AT_ONCE)

        async def refresh(table: Table) -> None:
            async with gate:
                try:
                    await core.refresh(table, force=True)
                except Exception:  # one broken table must not keep the others away
                    log.exception("Could not show game %s after the start", table.id)

        await asyncio.gather(*(refresh(t) for t in tables if t.record.message_id is not None))
        return len(tables)

    def load(self, record: GameRecord) -> Table | None:
        """A table for a stored live game, registered with the core (None: unknown game)."""
        spec = self.core.games.get(record.game)
        if spec is None:
            log.warning("Game %s is of an unknown kind %r; left alone", record.id, record.game)
            return None
        table = Table(record=record, spec=spec)
        if record.state_json:
            table.load_snapshot(record.state_json)
        return self.core.adopt(table)

    async def reload(self, table: Table) -> None:
        """Replace a table's record and play with the stored ones (lock held).

        For a table another process saved since we loaded it: the stored copy is the truth.
        """
        record = await self.core.db.load_game(table.id)
        if record is None:
            table.record.status = "cancelled"
        else:
            table.record = record
            if record.state_json:
                table.load_snapshot(record.state_json)
        table.changed.set()
        self.core.refresh_soon(table)

    async def _forgive_downtime(self, table: Table) -> None:
        """Time the bot was away is not the players' fault: leave them half a turn at least."""
        core = self.core
        deadline = table.record.deadline_at
        if table.record.status != "active" or deadline is None:
            return
        floor = core.clock() + core.timeout_for(table) / 2
        if deadline < floor:
            table.record.deadline_at = floor
            await core.db.update_game(table.id, deadline_at=floor)
