"""The hosting core: lobbies, seats, turns across people and AI, saving, deadlines, restore.

It knows games only through :class:`~bot.engines.base.Engine` and
:class:`~bot.tables.protocols.GameUI`, and Discord only through a
:class:`~bot.tables.protocols.Presenter`. Every change of a table runs under that table's
lock and is saved (snapshot plus action log, one transaction) before the caller answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.engines.base import ConfigError, GameError
from bot.storage.db import Database
from bot.storage.models import ActionRecord, SeatRecord, SeatResult
from bot.tables.protocols import (
    GameSpec,
    NotAllowed,
    NotSeated,
    NotYourTurn,
    Presenter,
    StaleAction,
    TableNotFound,
)
from bot.tables.table import Table
from bot.tables.views import (
    ADD_AI,
    CANCEL,
    HAND,
    JOIN,
    LEAVE,
    REMOVE_AI,
    START,
    Control,
    Field,
    Panel,
)

log = logging.getLogger(__name__)

AI_NAMES = ("Ada", "Babbage", "Curie", "Dirac", "Euler", "Fermi", "Gauss", "Hopper", "Noether")


@dataclass(frozen=True)
class Person:
    """A Discord user as the core sees one: an id and a display name."""

    id: int
    name: str


def _readable(error: ValidationError) -> str:
    parts = []
    for item in error.errors():
        where = ".".join(str(p) for p in item["loc"]) or "option"
        parts.append(f"{where}: {item['msg']}")
    return "Those table options don't work: " + "; ".join(parts) + "."


class TableManager:
    """Owns every live table and moves them along."""

    def __init__(
        self,
        db: Database,
        games: Mapping[str, GameSpec],
        presenter: Presenter,
        *,
        ai_delay: float = 1.2,
        turn_timeout: float = 300,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.db = db
        self.games = dict(games)
        self.presenter = presenter
        self.ai_delay = ai_delay
        self.turn_timeout = turn_timeout
        self.clock = clock
        self._tables: dict[int, Table] = {}
        self._closing = False

    # --- lookup ------------------------------------------------------------------------

    def get(self, game_id: int) -> Table:
        table = self._tables.get(game_id)
        if table is None or not table.record.is_live:
            raise TableNotFound("That game has ended or no longer exists.")
        return table

    def in_location(self, location_id: int) -> Table | None:
        """The live table whose message is in this channel or thread, if any."""
        for table in self._tables.values():
            if table.record.is_live and table.location_id == location_id:
                return table
        return None

    def tables(self) -> list[Table]:
        return [t for t in self._tables.values() if t.record.is_live]

    def timeout_for(self, table: Table) -> float:
        return float(table.record.config.get("turn_timeout") or self.turn_timeout)

    # --- lobby -------------------------------------------------------------------------

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
    ) -> Table:
        spec = self.games[game]
        location = thread_id or channel_id
        if (busy := self.in_location(location)) is not None:
            raise GameError(
                f"A game of {busy.spec.title} is already running here (game #{busy.id})."
            )
        try:
            config = spec.engine.parse_config(options)
        except ValidationError as error:
            raise ConfigError(_readable(error)) from None
        stored: dict[str, Any] = {"options": config.model_dump(mode="json")}
        if turn_timeout is not None:
            stored["turn_timeout"] = turn_timeout
        record = await self.db.create_game(
            guild_id=guild_id,
            channel_id=channel_id,
            game=game,
            host_id=host.id,
            config=stored,
            seed=seed if seed is not None else secrets.randbits(62),
            seats=[SeatRecord(seat=0, user_id=host.id, name=host.name, is_ai=False)],
            thread_id=thread_id,
        )
        table = Table(record=record, spec=spec)
        self._tables[record.id] = table
        return table

    async def attach_message(self, table: Table, message_id: int) -> None:
        """Remember which message shows the table, so later changes edit it in place."""
        table.record.message_id = message_id
        await self.db.update_game(table.id, message_id=message_id)

    async def join(self, game_id: int, person: Person) -> Table:
        table = self.get(game_id)
        async with table.lock:
            self._require_lobby(table)
            if table.seat_of(person.id) is not None:
                raise GameError("You already have a seat at this table.")
            if len(table.seats) >= table.spec.engine.max_players:
                raise GameError(
                    f"The table is full ({table.spec.engine.max_players} seats). "
                    "Ask the host to remove an AI player."
                )
            seat = SeatRecord(
                seat=len(table.seats), user_id=person.id, name=person.name, is_ai=False
            )
            await self._set_seats(table, [*table.seats, seat])
        return table

    async def add_ai(self, game_id: int, actor: Person) -> Table:
        table = self.get(game_id)
        async with table.lock:
            self._require_lobby(table)
            self._require_host(table, actor.id, is_admin=False, what="add AI players")
            if len(table.seats) >= table.spec.engine.max_players:
                raise GameError(f"The table is full ({table.spec.engine.max_players} seats).")
            taken = {seat.name for seat in table.seats}
            name = next(
                (f"{n} (AI)" for n in AI_NAMES if f"{n} (AI)" not in taken),
                f"AI {len(table.seats) + 1}",
            )
            seat = SeatRecord(seat=len(table.seats), user_id=None, name=name, is_ai=True)
            await self._set_seats(table, [*table.seats, seat])
        return table

    async def remove_ai(self, game_id: int, actor: Person) -> Table:
        """Take the most recently added AI player away from a lobby."""
        table = self.get(game_id)
        async with table.lock:
            self._require_lobby(table)
            self._require_host(table, actor.id, is_admin=False, what="remove AI players")
            last_ai = next((s for s in reversed(table.seats) if s.is_ai), None)
            if last_ai is None:
                raise GameError("There is no AI player to remove.")
            await self._set_seats(table, [s for s in table.seats if s.seat != last_ai.seat])
        return table

    async def start(self, game_id: int, actor: Person) -> Table:
        table = self.get(game_id)
        async with table.lock:
            self._require_lobby(table)
            self._require_host(table, actor.id, is_admin=False, what="start the game")
            engine = table.spec.engine
            if len(table.seats) < engine.min_players:
                missing = engine.min_players - len(table.seats)
                raise GameError(
                    f"{engine.title} needs at least {engine.min_players} players: "
                    f"{missing} more must Join, or press Add AI."
                )
            state = engine.new_game(table.config, len(table.seats), table.record.seed)
            lines = [f"The game begins with {len(table.seats)} players."]
            version = table.record.version + 1
            deadline = self._deadline(table, state)
            await self.db.save_progress(
                table.id,
                version=version,
                state_json=table.snapshot_json(state, lines, []),
                actions=[],
                status="active",
                deadline_at=deadline,
            )
            table.state, table.log = state, lines
            log.info(
                "Game %s (%s) started with %d seats", table.id, table.record.game, len(table.seats)
            )
            table.record.version = version
            table.record.status = "active"
            table.record.deadline_at = deadline
            table.changed.set()
        self._ensure_runner(table)
        return table

    async def leave(self, game_id: int, person: Person) -> Table:
        """Leave a lobby (seat freed), or a game in progress (an AI takes the seat)."""
        table = self.get(game_id)
        seat = table.seat_of(person.id)
        if seat is None:
            raise NotSeated("You don't have a seat at this table.")
        await self._remove(table, seat, reason=f"{person.name} left the table")
        return table

    async def kick(self, game_id: int, actor: Person, target_id: int, *, is_admin: bool) -> Table:
        table = self.get(game_id)
        self._require_host(table, actor.id, is_admin=is_admin, what="remove a player")
        seat = table.seat_of(target_id)
        if seat is None:
            raise GameError("That person has no seat at this table.")
        if target_id == actor.id:
            raise GameError("Use Leave to give up your own seat.")
        name = table.seats[seat].name
        await self._remove(table, seat, reason=f"{name} was removed by {actor.name}")
        return table

    async def cancel(self, game_id: int, actor: Person, *, is_admin: bool) -> Table:
        table = self.get(game_id)
        async with table.lock:
            self._require_host(table, actor.id, is_admin=is_admin, what="cancel the game")
            await self._close(table, f"Cancelled by {actor.name}.")
        return table

    # --- play --------------------------------------------------------------------------

    async def act(self, game_id: int, user_id: int, action: str, version: int | None) -> Table:
        """Apply a person's move. ``version`` is the table version their controls showed."""
        table = self.get(game_id)
        async with table.lock:
            if table.record.status != "active" or table.state is None:
                raise GameError("The game hasn't started yet.")
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotSeated("You're not playing at this table, so you can't make moves here.")
            await self._come_back(table, seat)
            to_act = table.spec.engine.to_act(table.state)
            if seat not in to_act:
                waiting = ", ".join(table.names[s] for s in sorted(to_act)) or "nobody"
                raise NotYourTurn(f"It's not your move: waiting for {waiting}.")
            if version is not None and table.acted_since(seat, version):
                raise StaleAction("Those controls are out of date: use the ones on the table now.")
            await self._apply(table, seat, action, user_id)
        return table

    async def private_panel(self, game_id: int, user_id: int) -> Panel:
        """A seated player's own view of the table, with the moves open to them."""
        table = self.get(game_id)
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotSeated("You're not playing at this table, so there is no hand to show.")
            if table.record.status != "active" or table.state is None:
                raise GameError("The game hasn't started yet: your view appears once it does.")
            await self._come_back(table, seat)
            engine = table.spec.engine
            obs = engine.observe(table.state, seat)
            legal = (
                engine.legal_actions(table.state, seat)
                if seat in engine.to_act(table.state)
                else []
            )
            panel = await asyncio.to_thread(table.spec.ui.private_panel, obs, legal, table.names)
            panel.version = table.record.version
        panel.footer = f"{table.spec.title} · game #{table.id} · only you can see this"
        return panel

    # --- what the table shows ----------------------------------------------------------

    def public_panel(self, table: Table) -> Panel:
        """The public message: pure function of the table (rendering happens here)."""
        panel = self._public_panel(table)
        panel.version = table.record.version
        return panel

    def _public_panel(self, table: Table) -> Panel:
        spec, record = table.spec, table.record
        title = f"{spec.emoji} {spec.title} · game #{table.id}"
        if record.status == "lobby":
            seats = "\n".join(
                f"{i + 1}. {s.name}{' (host)' if s.user_id == record.host_id else ''}"
                for i, s in enumerate(table.seats)
            )
            minutes = self.timeout_for(table) / 60
            options = spec.ui.options_text(table.config)
            return Panel(
                title=f"{title} · lobby",
                description=(
                    f"Press **Join** to take a seat. The host adds AI players for empty seats "
                    f"and presses **Start** ({spec.engine.min_players} to "
                    f"{spec.engine.max_players} players)."
                ),
                fields=[
                    Field("Seats", seats or "(empty)", inline=False),
                    Field("Options", f"{options}\nTurn timer: {minutes:g} min", inline=False),
                ],
                controls=[
                    Control(JOIN, "Join", "success", row=0),
                    Control(LEAVE, "Leave", row=0),
                    Control(START, "Start", "primary", row=0),
                    Control(ADD_AI, "Add AI", emoji="🤖", row=1),
                    Control(
                        REMOVE_AI,
                        "Remove AI",
                        row=1,
                        disabled=not any(s.is_ai for s in table.seats),
                    ),
                    Control(CANCEL, "Cancel", "danger", row=1),
                ],
            )
        if record.status == "cancelled":
            return Panel(
                title=title,
                description=table.log[-1] if table.log else "Cancelled.",
                colour=0x99AAB5,
            )
        assert table.state is not None
        engine = spec.engine
        obs = engine.observe(table.state, None)
        image = spec.ui.table_png(obs, table.names, table.log)
        events = "\n".join(f"• {line}" for line in table.log[-4:])
        if record.status == "finished":
            outcome = engine.outcome(table.state)
            order = sorted(range(len(table.seats)), key=lambda s: outcome.ranks[s])
            standings = "\n".join(
                f"{outcome.ranks[s] + 1}. {table.names[s]}: {outcome.scores[s]:g}" for s in order
            )
            winners = ", ".join(table.names[w] for w in outcome.winners) or "nobody (a draw)"
            return Panel(
                title=f"{title} · finished",
                description=f"🏆 **{winners}** won.\n\n{events}",
                fields=[Field("Final standings", standings, inline=False)],
                colour=0xF1C40F,
                image_png=image,
            )
        to_act = sorted(engine.to_act(table.state))
        controls: list[Control] = []
        if len(to_act) == 1 and not table.is_bot_seat(to_act[0]):
            legal = engine.legal_actions(table.state, to_act[0])
            controls = spec.ui.public_controls(obs, legal)
        controls += [
            Control(HAND, "My hand", "primary", row=4, emoji="🂠"),
            Control(LEAVE, "Leave", row=4),
        ]
        waiting = ", ".join(
            table.names[s] + (" (AI)" if table.seats[s].autopilot else "") for s in to_act
        )
        return Panel(
            title=title,
            description=f"{spec.ui.turn_text(obs, table.names)}\n\n{events}".strip(),
            footer=f"To act: {waiting}",
            image_png=image,
            controls=controls,
        )

    async def refresh(
        self,
        table: Table,
        *,
        force: bool = False,
        respond: Callable[[Panel], Awaitable[None]] | None = None,
    ) -> None:
        """Bring the public message up to date; serialised so edits land in order.

        ``respond`` shows the panel by answering a click on the table message itself (one
        request instead of an answer plus an edit); it is always called, even when the
        message is already current, because the click needs its answer.
        """
        async with table.refresh_lock:
            revision = self._revision(table)
            if respond is None and not force and table.shown_version == revision:
                return
            panel = await asyncio.to_thread(self.public_panel, table)
            if respond is not None:
                await respond(panel)
            else:
                try:
                    moved = await self.presenter.show(table, panel)
                except Exception:
                    log.exception("Could not update the table message of game %s", table.id)
                    return
                if moved is not None:
                    await self.attach_message(table, moved)
            table.shown_version = revision

    # --- start-up and shutdown ---------------------------------------------------------

    async def restore(self) -> int:
        """Load every live game after a restart, refresh its message, resume its turns."""
        count = 0
        for record in await self.db.active_games():
            spec = self.games.get(record.game)
            if spec is None:
                log.warning("Game %s is of an unknown kind %r; left alone", record.id, record.game)
                continue
            table = Table(record=record, spec=spec)
            if record.state_json:
                table.load_snapshot(record.state_json)
            self._tables[record.id] = table
            count += 1
            await self._forgive_downtime(table)
            if record.message_id is not None:
                await self.refresh(table, force=True)
            if record.status == "active":
                self._ensure_runner(table)
        return count

    async def _forgive_downtime(self, table: Table) -> None:
        """Time the bot was away is not the players' fault: leave them half a turn at least."""
        deadline = table.record.deadline_at
        if table.record.status != "active" or deadline is None:
            return
        floor = self.clock() + self.timeout_for(table) / 2
        if deadline < floor:
            table.record.deadline_at = floor
            await self.db.update_game(table.id, deadline_at=floor)

    async def close(self) -> None:
        self._closing = True
        runners = [t.runner for t in self._tables.values() if t.runner and not t.runner.done()]
        for runner in runners:
            runner.cancel()
        for runner in runners:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await runner

    # --- internals ---------------------------------------------------------------------

    @staticmethod
    def _revision(table: Table) -> int:
        return hash((table.record.version, table.record.status, tuple(map(repr, table.seats))))

    def _require_lobby(self, table: Table) -> None:
        if table.record.status != "lobby":
            raise GameError("The game has already started.")

    def _require_host(self, table: Table, user_id: int, *, is_admin: bool, what: str) -> None:
        if user_id != table.record.host_id and not is_admin:
            raise NotAllowed(f"Only the host or someone with Manage Server can {what}.")

    async def _set_seats(self, table: Table, seats: list[SeatRecord]) -> None:
        renumbered = [seat.model_copy(update={"seat": i}) for i, seat in enumerate(seats)]
        await self.db.update_game(table.id, seats=renumbered)
        table.record.seats = renumbered

    async def _remove(self, table: Table, seat: int, *, reason: str) -> None:
        async with table.lock:
            if table.record.status == "lobby":
                leaving = table.seats[seat]
                rest = [s for s in table.seats if s.seat != seat]
                if leaving.user_id == table.record.host_id and not await self._pass_host(
                    table, rest
                ):
                    await self._close(table, f"{reason}; the lobby closed.")
                    return
                await self._set_seats(table, rest)
                return
            old = table.seats[seat]
            seats = list(table.seats)
            seats[seat] = SeatRecord(seat=seat, user_id=None, name=f"{old.name} (AI)", is_ai=True)
            if all(s.is_ai for s in seats):
                await self._close(table, f"{reason}; with no players left the game was cancelled.")
                return
            if old.user_id == table.record.host_id:
                await self._pass_host(table, seats)
            await self._set_seats(table, seats)
            table.note(f"{reason}; an AI plays their seat now.")
            table.changed.set()
        await self.presenter.announce(table, f"{reason}; an AI plays their seat now.")

    async def _pass_host(self, table: Table, seats: list[SeatRecord]) -> bool:
        """Make the first remaining person the host; False if nobody is left to take it."""
        heir = next((s for s in seats if not s.is_ai and s.user_id is not None), None)
        if heir is None or heir.user_id is None:
            return False
        table.record.host_id = heir.user_id
        await self.db.update_game(table.id, host_id=heir.user_id)
        return True

    async def _close(self, table: Table, message: str) -> None:
        log.info("Game %s (%s) closed: %s", table.id, table.record.game, message)
        table.record.status = "cancelled"
        table.note(message)
        table.record.ended_at = self.clock()
        await self.db.cancel_game(table.id, ended_at=table.record.ended_at)
        table.changed.set()

    async def _come_back(self, table: Table, seat: int) -> None:
        """A person on autopilot acted: hand their seat back to them."""
        record = table.seats[seat]
        if not record.autopilot:
            return
        seats = list(table.seats)
        seats[seat] = record.model_copy(update={"autopilot": False})
        await self._set_seats(table, seats)
        table.changed.set()
        await self.presenter.announce(
            table, f"{record.name} is back and plays their own seat again."
        )

    def _deadline(self, table: Table, state: BaseModel | None = None) -> float | None:
        """When the people to act now run out of time (None if only AI is to act)."""
        state = state if state is not None else table.state
        if state is None:
            return None
        to_act = table.spec.engine.to_act(state)
        if not any(not table.is_bot_seat(s) for s in to_act):
            return None
        return self.clock() + self.timeout_for(table)

    async def _apply(self, table: Table, seat: int, action: str, user_id: int | None) -> None:
        """Apply to a copy, save it, and only then swap it in (lock held).

        An illegal move or a failed save leaves the table exactly as it was, and no one
        (a renderer included) ever sees a state that was not saved.
        """
        engine = table.spec.engine
        assert table.state is not None
        trial = table.state.model_copy(deep=True)
        events = engine.apply(trial, seat, action)
        version = table.record.version + 1
        finished = engine.is_over(trial)
        lines, history = table.with_move(version, seat, [e.render(table.names) for e in events])
        deadline = None if finished else self._deadline(table, trial)
        await self.db.save_progress(
            table.id,
            version=version,
            state_json=table.snapshot_json(trial, lines, history),
            actions=[
                ActionRecord(
                    version=version, seat=seat, action=action, user_id=user_id, at=self.clock()
                )
            ],
            status="finished" if finished else None,
            deadline_at=deadline,
        )
        table.state, table.log, table.history = trial, lines, history
        table.record.version = version
        table.record.deadline_at = deadline
        table.changed.set()
        if finished:
            await self._finish(table)

    async def _finish(self, table: Table) -> None:
        assert table.state is not None
        outcome = table.spec.engine.outcome(table.state)
        results = [
            SeatResult(
                seat=s.seat,
                user_id=s.user_id,
                name=s.name,
                is_ai=s.is_ai,
                rank=outcome.ranks[s.seat] + 1,
                score=outcome.scores[s.seat],
                won=s.seat in outcome.winners,
            )
            for s in table.seats
        ]
        table.record.status = "finished"
        table.record.ended_at = self.clock()
        log.info("Game %s (%s) finished; winners %s", table.id, table.record.game, outcome.winners)
        await self.db.finish_game(
            table.id,
            guild_id=table.record.guild_id,
            game=table.record.game,
            results=results,
            ended_at=table.record.ended_at,
        )

    def _ensure_runner(self, table: Table) -> None:
        if self._closing or (table.runner and not table.runner.done()):
            return
        table.runner = asyncio.create_task(self._drive(table), name=f"table-{table.id}")
        table.runner.add_done_callback(self._runner_done)

    @staticmethod
    def _runner_done(task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("Table runner %s stopped", task.get_name(), exc_info=task.exception())

    async def _drive(self, table: Table) -> None:
        """Move AI seats, remind and then cover for slow players, until the game ends."""
        engine = table.spec.engine
        while not self._closing and table.record.status == "active" and table.state is not None:
            table.changed.clear()
            to_act = engine.to_act(table.state)
            bots = sorted(s for s in to_act if table.is_bot_seat(s))
            if bots:
                await asyncio.sleep(self.ai_delay)
                await self._bot_move(table, bots[0])
                await self.refresh(table)
                continue
            deadline = table.record.deadline_at
            if deadline is None:
                await table.changed.wait()
                continue
            remind_at = deadline - self.timeout_for(table) / 2
            now = self.clock()
            if table.reminded_version != table.record.version and now < deadline:
                if await self._wait_change(table, remind_at - now):
                    continue
                table.reminded_version = table.record.version
                for seat in sorted(to_act):
                    user = table.seats[seat].user_id
                    left = max(0, round(deadline - self.clock()))
                    await self.presenter.announce(
                        table,
                        f"⏰ It's your move at {table.spec.title} (game #{table.id}): "
                        f"an AI takes over in {left} seconds.",
                        mention=user,
                    )
                continue
            if await self._wait_change(table, deadline - self.clock()):
                continue
            await self._autopilot(table, to_act)
        await self.refresh(table)

    async def _wait_change(self, table: Table, seconds: float) -> bool:
        """Wait up to ``seconds`` for the table to change; True if it did."""
        if seconds <= 0:
            return False
        try:
            await asyncio.wait_for(table.changed.wait(), seconds)
        except TimeoutError:
            return False
        return True

    async def _autopilot(self, table: Table, seats: frozenset[int]) -> None:
        async with table.lock:
            if table.state is None or table.record.status != "active":
                return
            pending = [s for s in sorted(seats) if s in table.spec.engine.to_act(table.state)]
            updated = list(table.seats)
            for seat in pending:
                updated[seat] = updated[seat].model_copy(update={"autopilot": True})
            await self._set_seats(table, updated)
            names = ", ".join(table.names[s] for s in pending)
            table.note(f"{names} ran out of time; an AI plays for them until they return.")
        await self.presenter.announce(
            table, f"⌛ {names} ran out of time. An AI plays their seat until they act again."
        )
        await self.refresh(table)

    async def _bot_move(self, table: Table, seat: int) -> None:
        engine = table.spec.engine
        async with table.lock:
            if table.state is None or table.record.status != "active":
                return
            if seat not in engine.to_act(table.state) or not table.is_bot_seat(seat):
                return
            observation = engine.observe(table.state, seat)
            rng = random.Random(f"{table.record.seed}:ai:{table.record.version}:{seat}")
            action = engine.ai_action(observation, rng)
            try:
                await self._apply(table, seat, action, None)
            except GameError:
                log.exception("The AI chose an illegal move %r in game %s", action, table.id)
                fallback = engine.legal_actions(table.state, seat)[0]
                await self._apply(table, seat, fallback, None)
