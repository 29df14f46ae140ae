"""Bringing tables back: every live game this process hosts after a start, and one table
whose stored copy moved on (another process saved it) or that was not in memory yet.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from bot.storage.models import GameRecord
from bot.tables import panels
from bot.tables.table import Table

if TYPE_CHECKING:
    from bot.tables.manager import TableManager
    from bot.tables.protocols import Shards

log = logging.getLogger(__name__)

REFRESH_AT_ONCE = 8
"""Table messages refreshed at the same time after a start."""
COMPARE_AT_ONCE = 64
"""Tables whose content is compared with what their message shows in one go, off the event
loop (about 0.3 ms each)."""


class Restorer:
    """Loads tables from storage into the core."""

    def __init__(self, core: TableManager) -> None:
        self.core = core

    async def restore(self, only: Shards | None = None) -> int:
        """Load every live game this process hosts, resume its turns, and edit the messages
        whose content changed while no process showed them.

        Every table is in memory (clicks on it work) before any message is looked at. What
        each message shows is known by the digest stored when it was last edited
        (:mod:`bot.tables.shown`): a table whose content as it would be shown now has the
        same digest is left alone (a restart of quiet tables sends nothing), the others are
        edited :data:`REFRESH_AT_ONCE` at a time (discord.py keeps each within Discord's rate
        limits), and the log says how many.

        ``only``: the tables of these shards (just taken over from a process that died).
        """
        core = self.core
        shards = only if only is not None else core.shards
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
        shown = [t for t in tables if t.record.message_id is not None]
        stale = await self._changed(shown)
        for table in tables:
            if table.record.status == "active":
                core.driver.ensure_runner(table)
        log.info(
            "%d table(s) loaded and playable in %.1f s; editing the %d of %d table message(s)"
            " whose content changed meanwhile (the others show the table as it is)",
            len(tables),
            time.perf_counter() - started,
            len(stale),
            len(shown),
        )
        gate = asyncio.Semaphore(REFRESH_AT_ONCE)

        async def refresh(table: Table) -> None:
            async with gate:
                try:
                    await core.refresh(table, force=True)
                except Exception:  # one broken table must not keep the others away
                    log.exception("Could not show game %s after the start", table.id)

        await asyncio.gather(*map(refresh, stale))
        return len(tables)

    async def _changed(self, tables: list[Table]) -> list[Table]:
        """The tables whose message shows other content than they would show now (a move
        saved but not shown, a new version of the bot); the others are marked as shown.

        The content is compared by digest, without drawing any picture, in batches off the
        event loop."""
        core = self.core
        stored = await core.shown.digests([t.id for t in tables])
        stale: list[Table] = []
        for start in range(0, len(tables), COMPARE_AT_ONCE):
            batch = tables[start : start + COMPARE_AT_ONCE]
            revisions = [core.revision(t) for t in batch]
            digests = await asyncio.to_thread(self._digests, batch)
            for table, revision, digest in zip(batch, revisions, digests, strict=True):
                if stored.get(table.id) == digest and table.shown_version == -1:
                    table.shown_version = revision  # as if just shown: nothing to edit
                else:
                    stale.append(table)
        return stale

    def _digests(self, batch: list[Table]) -> list[str]:
        """What each table's message would show now, as a digest (off the event loop)."""
        return [panels.public_digest(t, self.core.timeout_for(t)) for t in batch]

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

    async def forgive_outage(self) -> int:
        """After the database was away: its time is not the players' fault either. Every
        live table's deadline leaves at least half a turn, and its runner looks again."""
        forgiven = 0
        for table in self.core.tables():
            async with table.lock:
                before = table.record.deadline_at
                try:
                    await self._forgive_downtime(table)
                except Exception as error:  # the runner's deadline check tries again
                    self.core.storage_failed(error)
                    continue
                forgiven += before != table.record.deadline_at
            table.changed.set()
        return forgiven

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
