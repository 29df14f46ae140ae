"""Rematch: a finished table's players meet again at a new lobby.

Pressing **Rematch** on a finished table opens a lobby in the same channel (or thread) with
the same game and options and the same seats: AI seats stay at their level, the people are
invited (their seats are kept until they press Join), and whoever pressed Rematch is the
host, already seated. Seats an AI took over mid-game from a person who left or was removed
are left empty. Start then leaves out the invited people who did not join, and the usual
rules for empty seats apply.

Everything needed is stored: the finished game is read back from storage (so the button
works after a restart), and the two games point at each other through their config
(``rematch`` on the finished one, ``rematch_of`` on the new one). Pressing Rematch again
while that lobby or its game runs points to it; after a rematch lobby was cancelled, it
opens another.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import TYPE_CHECKING

from bot.engines.base import GameError
from bot.storage.models import GameRecord, SeatRecord
from bot.tables import coaching, practice
from bot.tables.protocols import NotAllowed, TableNotFound
from bot.tables.table import Table

if TYPE_CHECKING:
    from bot.tables.manager import Person, TableManager

log = logging.getLogger(__name__)


class Rematches:
    """Opens rematch lobbies, one per finished game at a time."""

    def __init__(self, core: TableManager) -> None:
        self.core = core
        self._lock = asyncio.Lock()
        """Held while a rematch is looked up and opened, so two presses open one lobby."""

    async def open(self, game_id: int, person: Person) -> tuple[Table, bool]:
        """The rematch lobby of finished game ``game_id``, and whether this call opened it
        (False: it was open already). Only a person who played that game may open one."""
        core = self.core
        async with self._lock:
            old = await core.db.load_game(game_id)
            if old is None or not core.owns(old.guild_id) or old.game not in core.games:
                raise TableNotFound("error-game-gone")
            if old.status != "finished":
                raise GameError("error-rematch-unfinished")
            if old.config.get(practice.PRACTICE):
                raise GameError("error-rematch-practice", game=old.game)
            if not any(s.user_id == person.id and not s.is_ai for s in old.seats):
                raise NotAllowed("error-rematch-players-only", id=str(old.id), game=old.game)
            earlier = await self._earlier(old)
            if earlier is not None:
                return earlier, False
            location = old.thread_id or old.channel_id
            busy = core.in_location(location)
            if busy is not None:
                raise GameError("error-rematch-busy", title=busy.spec.title, id=str(busy.id))
            table = await self._create(old, person)
            await core.db.update_game(old.id, config={**old.config, "rematch": table.id})
            log.info("Game %s: rematch opened as game %s by %s", old.id, table.id, person.id)
        return table, True

    async def withdraw(self, table: Table) -> None:
        """Close a rematch lobby that could not be shown."""
        async with table.lock:
            if table.record.status == "lobby":
                await self.core.close_table(table, "The rematch lobby could not be shown.")

    async def _earlier(self, old: GameRecord) -> Table | None:
        """The rematch of ``old`` opened before, if it is still there to join or watch."""
        earlier_id = old.config.get("rematch")
        if earlier_id is None:
            return None
        earlier = await self.core.db.load_game(int(earlier_id))
        if earlier is None or earlier.status == "cancelled":
            return None  # that lobby closed unplayed: open another
        if earlier.status == "finished":
            raise GameError("error-rematch-done", id=str(old.id), other=str(earlier.id))
        return await self.core.fetch(earlier.id)

    async def _create(self, old: GameRecord, host: Person) -> Table:
        spec = self.core.games[old.game]
        seats: list[SeatRecord] = []
        for seat in old.seats:
            if seat.is_ai and seat.level is None:
                continue  # an AI that took over from a person mid-game: the seat is free
            if seat.is_ai:
                seats.append(
                    SeatRecord(
                        seat=len(seats), user_id=None, name=seat.name, is_ai=True, level=seat.level
                    )
                )
            elif seat.user_id is not None:
                mine = seat.user_id == host.id
                seats.append(
                    SeatRecord(
                        seat=len(seats),
                        user_id=seat.user_id,
                        name=host.name if mine else seat.name,
                        is_ai=False,
                        invited=not mine,
                    )
                )
        # the same options (hints included), not the old game's own bookkeeping
        config = {k: v for k, v in old.config.items() if k not in ("rematch", coaching.USED)}
        record = await self.core.db.create_game(
            guild_id=old.guild_id,
            channel_id=old.channel_id,
            thread_id=old.thread_id,
            game=old.game,
            host_id=host.id,
            config={**config, "rematch_of": old.id},
            seed=secrets.randbits(62),
            seats=seats,
        )
        return self.core.adopt(Table(record=record, spec=spec))
