"""Turn messages: a person hears when their turn starts after others have moved.

The message mentions them (so Discord notifies them) and is taken away once they have acted,
or their turn has passed; a turn that follows straight on from their own move needs none.
Each person can turn these off per server (``/settings``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.tables.manager import TableManager
    from bot.tables.table import Table

log = logging.getLogger(__name__)


class TurnPings:
    """Sends and removes each table's turn messages."""

    def __init__(self, core: TableManager) -> None:
        self.core = core
        self.sent: dict[int, dict[int, int]] = {}
        """Per table: seat -> the id of the turn message waiting for that seat."""

    async def after_change(self, table: Table) -> None:
        """The table moved on (lock not held): remove messages whose turn is over, send the
        ones for turns that have just begun."""
        try:
            await self._after_change(table)
        except Exception:  # a turn message is a courtesy: it never stops the table
            log.exception("Turn messages of game %s failed", table.id)

    async def _after_change(self, table: Table) -> None:
        core = self.core
        sent = self.sent.setdefault(table.id, {})
        live = table.record.status == "active" and table.state is not None
        to_act: set[int] = set()
        if live:
            assert table.state is not None
            # (not for a move the table makes for them: there is nothing to decide)
            to_act = {s for s in table.spec.engine.to_act(table.state) if not table.moves_itself(s)}
        for seat, message_id in list(sent.items()):
            if seat not in to_act:
                del sent[seat]
                await core.presenter.unping(table, message_id)
        if not live:
            self.sent.pop(table.id, None)
            return
        last = table.history[-1][1] if table.history else None
        new = [s for s in sorted(to_act) if s not in sent and s != last]
        if not new:
            return
        users = {s: table.seats[s].user_id for s in new}
        wanted = await core.db.turn_pings(
            table.record.guild_id, [u for u in users.values() if u is not None]
        )
        for seat, user in users.items():
            if user is None or not wanted.get(user, True):
                continue
            pinged = await core.presenter.ping(
                table, user, f"🔔 your turn at {table.spec.title} (game #{table.id})."
            )
            if pinged is not None:
                sent[seat] = pinged
