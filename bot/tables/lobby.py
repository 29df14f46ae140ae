"""Seating: opening a table, joining, AI seats, starting, leaving, taking a seat back,
kicking and cancelling.

A lobby is a table whose status is ``lobby``; once started, leaving hands the seat to an AI,
and the person who left may take it back (:meth:`Lobby.rejoin`) while the game runs; a
person the host removed may not. A rematch lobby (see :mod:`bot.tables.rematch`) keeps seats
for the players invited to it until they press Join; Start leaves out those who did not.
Every change runs under the table's lock and is saved before the caller answers.
"""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from bot.engines.base import ConfigError, GameError
from bot.storage.models import SeatRecord
from bot.tables.coaching import HINTS
from bot.tables.panels import take_back_hint
from bot.tables.practice import PRACTICE, banner
from bot.tables.protocols import LEVELS, NotAllowed, NotSeated
from bot.tables.table import LogEntry, Table

if TYPE_CHECKING:
    from bot.tables.manager import Person, TableManager

log = logging.getLogger(__name__)

AI_NAMES = ("Ada", "Babbage", "Curie", "Dirac", "Euler", "Fermi", "Gauss", "Hopper", "Noether")


def _readable(error: ValidationError) -> ConfigError:
    """Pydantic's own account of what is wrong, as the refusal's argument."""
    parts = []
    for item in error.errors():
        where = ".".join(str(p) for p in item["loc"]) or "option"
        parts.append(f"{where}: {item['msg']}")
    return ConfigError("error-bad-options", problems="; ".join(parts))


class Lobby:
    """Seats people and AI players at a table, and takes them away again."""

    def __init__(self, core: TableManager) -> None:
        self.core = core

    async def create(
        self,
        game: str,
        *,
        guild_id: int,
        channel_id: int,
        host: Person,
        options: dict[str, Any] | None = None,
        turn_timeout: float | None = None,
        thread_id: int | None = None,
        seed: int | None = None,
        hints: bool = False,
        practice: bool = False,
    ) -> Table:
        core = self.core
        spec = core.games[game]
        location = thread_id or channel_id
        if (busy := core.in_location(location)) is not None:
            raise GameError("error-table-busy", title=busy.spec.title, id=str(busy.id))
        try:
            config = spec.engine.parse_config(options)
        except ValidationError as error:
            raise _readable(error) from None
        stored: dict[str, Any] = {"options": config.model_dump(mode="json")}
        if turn_timeout is not None:
            stored["turn_timeout"] = turn_timeout
        if hints:
            stored[HINTS] = True
        if practice:
            stored[PRACTICE] = True
        record = await core.db.create_game(
            guild_id=guild_id,
            channel_id=channel_id,
            game=game,
            host_id=host.id,
            config=stored,
            seed=seed if seed is not None else secrets.randbits(62),
            seats=[SeatRecord(seat=0, user_id=host.id, name=host.name, is_ai=False)],
            thread_id=thread_id,
        )
        return core.adopt(Table(record=record, spec=spec))

    async def join(self, game_id: int, person: Person) -> Table:
        table = await self.core.fetch(game_id)
        async with table.lock:
            self._require_lobby(table)
            if table.record.config.get(PRACTICE) and person.id != table.record.host_id:
                raise NotAllowed("error-practice-own", banner=banner(table))
            mine = table.seat_of(person.id)
            if mine is not None and table.seats[mine].invited:
                # A rematch kept this seat for them: joining confirms it.
                seats = list(table.seats)
                seats[mine] = seats[mine].model_copy(update={"invited": False, "name": person.name})
                await self.core.set_seats(table, seats)
                return table
            if mine is not None:
                raise GameError("error-already-seated")
            if len(table.seats) >= table.spec.engine.max_players:
                raise GameError(
                    "error-table-full",
                    seats=table.spec.engine.max_players,
                    kept=any(s.invited for s in table.seats),
                )
            seat = SeatRecord(
                seat=len(table.seats), user_id=person.id, name=person.name, is_ai=False
            )
            await self.core.set_seats(table, [*table.seats, seat])
        return table

    async def add_ai(self, game_id: int, actor: Person, level: str = "normal") -> Table:
        """Seat an AI player of ``level`` ("easy", "normal" or "hard"); its name says which."""
        if level not in LEVELS:
            raise GameError("error-no-ai-level", level=repr(level[:20]))
        table = await self.core.fetch(game_id)
        async with table.lock:
            self._require_lobby(table)
            require_host(table, actor.id, is_admin=False, what="add-ai")
            if len(table.seats) >= table.spec.engine.max_players:
                raise GameError("error-table-full-short", seats=table.spec.engine.max_players)
            taken = {seat.name.partition(" (")[0] for seat in table.seats}
            first = next((n for n in AI_NAMES if n not in taken), f"AI {len(table.seats) + 1}")
            name = f"{first} (AI)" if level == "normal" else f"{first} (AI, {level})"
            seat = SeatRecord(
                seat=len(table.seats), user_id=None, name=name, is_ai=True, level=level
            )
            await self.core.set_seats(table, [*table.seats, seat])
        return table

    async def remove_ai(self, game_id: int, actor: Person) -> Table:
        """Take the most recently added AI player away from a lobby."""
        table = await self.core.fetch(game_id)
        async with table.lock:
            self._require_lobby(table)
            require_host(table, actor.id, is_admin=False, what="remove-ai")
            last_ai = next((s for s in reversed(table.seats) if s.is_ai), None)
            if last_ai is None:
                raise GameError("error-no-ai-to-remove")
            await self.core.set_seats(table, [s for s in table.seats if s.seat != last_ai.seat])
        return table

    async def start(self, game_id: int, actor: Person) -> Table:
        core = self.core
        table = await core.fetch(game_id)
        async with table.lock:
            self._require_lobby(table)
            require_host(table, actor.id, is_admin=False, what="start")
            engine = table.spec.engine
            # Seats a rematch kept for people who have not pressed Join are empty seats now.
            absent = [s for s in table.seats if s.invited]
            present = [s for s in table.seats if not s.invited]
            if len(present) < engine.min_players:
                missing = engine.min_players - len(present)
                raise GameError(
                    "error-too-few-players",
                    title=engine.title,
                    min=engine.min_players,
                    missing=missing,
                    absent=bool(absent),
                    waiting=_names(absent),
                )
            if absent:
                await core.set_seats(table, present)
            state = engine.new_game(table.config, len(table.seats), table.record.seed)
            lines: list[LogEntry] = [f"The game begins with {len(table.seats)} players."]
            if absent:
                lines.append(f"{_names(absent)} didn't join, so the game starts without them.")
            await core.save_step(table, state, lines, [], [], status="active")
            log.info(
                "Game %s (%s) started with %d seats", table.id, table.record.game, len(table.seats)
            )
        core.driver.ensure_runner(table)
        return table

    async def leave(self, game_id: int, person: Person) -> Table:
        """Leave a lobby (seat freed; a rematch invitation declined), or a game in progress
        (an AI takes the seat, and the person may take it back while the game runs)."""
        table = await self.core.fetch(game_id)
        seat = table.seat_of(person.id)
        if seat is None:
            if table.left_seat_of(person.id) is not None:
                raise NotSeated("error-left-already")
            raise NotSeated("error-no-seat")
        await self._remove(table, seat, reason=f"{person.name} left the table", may_return=True)
        return table

    async def rejoin(self, game_id: int, person: Person) -> Table:
        """Take back one's own seat from the AI playing it: after leaving the game, or after
        running out of time. A seat the host removed someone from stays with the AI."""
        core = self.core
        table = await core.fetch(game_id)
        async with table.lock:
            if table.record.status == "lobby":
                raise GameError("error-not-started-join")
            seat = table.seat_of(person.id)
            if seat is not None:
                if not table.seats[seat].autopilot:
                    raise GameError("error-already-playing")
                await core.come_back(table, seat)
                return table
            seat = table.left_seat_of(person.id)
            if seat is None:
                raise NotSeated("error-nothing-to-take-back")
            seats = list(table.seats)
            seats[seat] = SeatRecord(seat=seat, user_id=person.id, name=person.name, is_ai=False)
            await core.hand_back(
                table, seats, f"{person.name} took their seat back and plays it again."
            )
        return table

    async def kick(self, game_id: int, actor: Person, target_id: int, *, is_admin: bool) -> str:
        """Remove a player; the one public sentence saying so, for the command's own reply
        (nothing else is posted)."""
        table = await self.core.fetch(game_id)
        require_host(table, actor.id, is_admin=is_admin, what="kick")
        seat = table.seat_of(target_id)
        if seat is None:
            raise GameError("error-target-not-seated")
        if target_id == actor.id:
            raise GameError("error-kick-self")
        name = table.seats[seat].name
        # Removed on purpose: unlike a person who left, they can't take the seat back.
        return await self._remove(
            table, seat, reason=f"{name} was removed by {actor.name}", announce=False
        )

    async def cancel(self, game_id: int, actor: Person, *, is_admin: bool) -> Table:
        table = await self.core.fetch(game_id)
        async with table.lock:
            require_host(table, actor.id, is_admin=is_admin, what="cancel")
            await self.core.close_table(table, f"Cancelled by {actor.name}.")
        return table

    # --- internals ---------------------------------------------------------------------

    @staticmethod
    def _require_lobby(table: Table) -> None:
        if table.record.status != "lobby":
            raise GameError("error-already-started")

    async def _remove(
        self,
        table: Table,
        seat: int,
        *,
        reason: str,
        may_return: bool = False,
        announce: bool = True,
    ) -> str:
        """Free a lobby seat, or give a running game's seat to an AI (``may_return``: the
        person may take it back while the game runs). Returns the sentence that says what
        happened, also posted in the channel during a game when ``announce``."""
        core = self.core
        async with table.lock:
            if table.record.status == "lobby":
                leaving = table.seats[seat]
                rest = [s for s in table.seats if s.seat != seat]
                if leaving.user_id == table.record.host_id and not await self._pass_host(
                    table, rest
                ):
                    await core.close_table(table, f"{reason}; the lobby closed.")
                    return f"{reason}; the lobby closed."
                await core.set_seats(table, rest)
                return f"{reason}."
            old = table.seats[seat]
            seats = list(table.seats)
            seats[seat] = SeatRecord(
                seat=seat,
                user_id=None,
                name=f"{old.name} (AI)",
                is_ai=True,
                left_user_id=old.user_id if may_return else None,
            )
            if all(s.is_ai for s in seats):
                ended = f"{reason}; with no players left the game was cancelled."
                await core.close_table(table, ended)
                return ended
            if old.user_id == table.record.host_id:
                await self._pass_host(table, seats)
            await core.set_seats(table, seats)
            sentence = f"{reason}; an AI plays their seat now."
            table.note(sentence)
            table.changed.set()
        if may_return:
            sentence += f" To take it back while the game runs: {take_back_hint(table)}."
        if announce:
            await core.presenter.announce(table, sentence)
        return sentence

    async def _pass_host(self, table: Table, seats: list[SeatRecord]) -> bool:
        """Make the first remaining person the host; False if nobody is left to take it."""
        heir = next(
            (s for s in seats if not s.is_ai and not s.invited and s.user_id is not None), None
        )
        if heir is None or heir.user_id is None:
            return False
        table.record.host_id = heir.user_id
        await self.core.db.update_game(table.id, host_id=heir.user_id)
        return True


def _names(seats: list[SeatRecord]) -> str:
    return ", ".join(s.name for s in seats)


def require_host(table: Table, user_id: int, *, is_admin: bool, what: str) -> None:
    """Refused unless the host or a server manager: ``what`` is "cancel", "kick", "add-ai",
    "remove-ai" or "start" (the refusal's ``error-host-only`` words it)."""
    if user_id != table.record.host_id and not is_admin:
        raise NotAllowed("error-host-only", what=what)
