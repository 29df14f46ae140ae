"""Remembering what each table message shows, so a restart edits only what changed.

Every time a table message is edited (or a click is answered with the table), the digest of
the content it now shows (:func:`bot.tables.panels.public_panel`'s ``digest``) is noted here
and written to storage (:mod:`bot.storage.shown`) a moment later, many tables in one
transaction: a click never waits on that write. After a restart,
:meth:`bot.tables.restore.Restorer.restore` compares each table's content as it would be
shown now with the stored digest and edits only the messages that differ.

A digest reaches storage only after its edit went through; one not written yet (the process
was killed in between) leaves the older digest, which differs from the content, so that
table is edited after the restart: one edit more, never one fewer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.storage.shown import ShownPanels

log = logging.getLogger(__name__)

WRITE_EVERY = 1.0
"""Seconds between two writes of the digests noted meanwhile."""


class ShownLog:
    """Digests of shown table messages, written to storage in batches."""

    def __init__(self, store: ShownPanels, every: float = WRITE_EVERY) -> None:
        self.store = store
        self.every = every
        self._pending: dict[int, str | None] = {}
        self._writer: asyncio.Task[None] | None = None
        self._closed = False

    def note(self, game_id: int, digest: str | None) -> None:
        """The game's message now shows content with this digest (None: the game ended;
        its digest is no longer needed)."""
        self._pending[game_id] = digest
        if self._writer is None and not self._closed:
            self._writer = asyncio.create_task(self._write_soon(), name="shown-digests")

    async def digests(self, game_ids: list[int]) -> dict[int, str]:
        """The stored digests of these games (those noted and not written yet included)."""
        found = await self.store.digests(game_ids)
        for game_id in game_ids:
            if game_id in self._pending:
                noted = self._pending[game_id]
                if noted:
                    found[game_id] = noted
                else:
                    found.pop(game_id, None)
        return found

    async def _write_soon(self) -> None:
        try:
            await asyncio.sleep(self.every)
        finally:
            self._writer = None
            await self.flush()

    async def flush(self) -> None:
        """Write what was noted so far (a failed write is given up: those tables are edited
        once more after a restart)."""
        if not self._pending:
            return
        batch, self._pending = self._pending, {}
        try:
            await self.store.save(batch)
        except Exception as error:
            log.warning("Could not store what %d table message(s) show: %s", len(batch), error)

    async def close(self) -> None:
        """Write what is noted and stop writing."""
        self._closed = True
        writer = self._writer
        if writer is not None:
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer
        await self.flush()
