"""A presenter that stays silent for shards this process may not act for.

Writes are fenced in the database; what a table says on Discord is not a write, so a process
that lost its shard (or cannot be sure it still holds it: just woken from a pause) must not
edit a table message or post in its channel either. Every message about a table goes
through the presenter, which makes this the one place to hold them back.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from bot.tables.protocols import Presenter
from bot.tables.table import Table
from bot.tables.views import Panel

log = logging.getLogger(__name__)


class ShardPresenter:
    """Passes calls to ``inner`` only while ``may_speak(guild_id)`` holds."""

    def __init__(self, inner: Presenter, may_speak: Callable[[int | None], bool]) -> None:
        self.inner = inner
        self.may_speak = may_speak

    def _allowed(self, table: Table, what: str) -> bool:
        if self.may_speak(table.record.guild_id):
            return True
        log.info("Game %s: not %s (this process does not hold its shard now)", table.id, what)
        return False

    async def show(self, table: Table, panel: Panel) -> int | None:
        if not self._allowed(table, "updating the table message"):
            return None
        return await self.inner.show(table, panel)

    async def announce(self, table: Table, text: str, mention: int | None = None) -> None:
        if self._allowed(table, "posting in its channel"):
            await self.inner.announce(table, text, mention)

    async def ping(self, table: Table, user_id: int, text: str) -> int | None:
        if not self._allowed(table, "pinging a player"):
            return None
        return await self.inner.ping(table, user_id, text)

    async def unping(self, table: Table, message_id: int) -> None:
        if self._allowed(table, "removing a ping"):
            await self.inner.unping(table, message_id)

    def private_changed(self, table: Table) -> None:
        if self.may_speak(table.record.guild_id):
            self.inner.private_changed(table)

    def remember(self, table: Table, *args: Any) -> None:
        """Keep a person's private view up to date from now on (see ``bot.ui.presenter``)."""
        remember = getattr(self.inner, "remember", None)
        if remember is not None:
            remember(table, *args)
