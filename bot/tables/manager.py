"""The hosting core: the tables this process hosts, and the one way a table changes.

It knows games only through :class:`~bot.engines.base.Engine` and
:class:`~bot.tables.protocols.GameUI`, and Discord only through a
:class:`~bot.tables.protocols.Presenter`. Every change of a table runs under that table's
lock and is saved (snapshot plus action log, one transaction) before the caller answers.

The jobs around it have modules of their own: seating in :mod:`bot.tables.lobby`, rematches
in :mod:`bot.tables.rematch`, AI turns and deadlines in :mod:`bot.tables.driver`, loading
from storage in :mod:`bot.tables.restore`, and what a table shows in :mod:`bot.tables.panels`. :class:`TableManager` is the one object
the Discord layer talks to.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from bot.engines.base import GameError
from bot.storage.backends import failure_kind
from bot.storage.db import Database
from bot.storage.errors import GameClosed, VersionConflict
from bot.storage.models import ActionRecord, GameStatus, SeatRecord, SeatResult
from bot.storage.shown import ShownPanels
from bot.tables import coaching, panels, practice
from bot.tables.driver import TurnDriver
from bot.tables.lobby import Lobby
from bot.tables.pings import TurnPings
from bot.tables.protocols import (
    GameSpec,
    NotSeated,
    NotYourTurn,
    Presenter,
    Shards,
    StaleAction,
    TableMovedOn,
    TableNotFound,
)
from bot.tables.rematch import Rematches
from bot.tables.restore import Restorer
from bot.tables.review import Reviews
from bot.tables.shown import ShownLog
from bot.tables.table import LogEntry, Table
from bot.tables.thinking import Thinker
from bot.tables.views import Panel

log = logging.getLogger(__name__)

ANSWERS_FIRST = 0.1
"""Seconds work nobody waits on (an AI's move, a redraw) holds back while people's clicks are
being answered."""
ENDED_KEPT = 300.0
"""Seconds a finished or cancelled table stays in memory before the next new table lets it
go (its last redraws find it there; afterwards it is read from storage like any old game)."""
SWEEP_EVERY = 60.0
"""Seconds between two looks for such tables."""


@dataclass(frozen=True)
class Person:
    """A Discord user as the core sees one: an id and a display name."""

    id: int
    name: str


class TableManager:
    """Owns every live table of this process and moves them along."""

    def __init__(
        self,
        db: Database,
        games: Mapping[str, GameSpec],
        presenter: Presenter,
        *,
        ai_delay: float = 1.2,
        turn_timeout: float = 300,
        clock: Callable[[], float] = time.time,
        shards: Shards | None = None,
        thinker: Thinker | None = None,
    ) -> None:
        self.db = db
        self.shards = shards
        """The shards this process runs (None: every server); set once the bot knows."""
        self.games = dict(games)
        self.presenter = presenter
        self.turn_timeout = turn_timeout
        self.clock = clock
        self.thinker = thinker or Thinker(self.games.values(), workers=0)
        """Where AI decisions run (threads by default; the bot uses worker processes)."""
        self.may_act: Callable[[int | None], bool] = lambda guild_id: True
        """Whether this process may move a server's tables now (it holds the shard's lease
        and has renewed it lately); runners wait while it may not."""
        self.lobby = Lobby(self)
        self.rematches = Rematches(self)
        self.pings = TurnPings(self)
        self.driver = TurnDriver(self, ai_delay=ai_delay)
        self.restorer = Restorer(self)
        self.reviews = Reviews(db, self.games, self.thinker)
        """Reviews of finished games, worked out in the AI workers after each one ends."""
        self.shown = ShownLog(ShownPanels(db))
        """What each table message shows, remembered so a restart edits only what changed."""
        self._tables: dict[int, Table] = {}
        self._swept_at = float("-inf")
        """When :meth:`_forget_ended` last looked (by :attr:`clock`)."""
        self._loading = asyncio.Lock()
        self._answering = 0
        self._calm = asyncio.Event()
        self._calm.set()
        self._background: set[asyncio.Task[None]] = set()
        self.on_storage_error: Callable[[str], None] | None = None
        """Told the kind of each storage failure the core catches (the bot counts them)."""

    # --- lookup ------------------------------------------------------------------------

    def get(self, game_id: int) -> Table:
        """A live table held in memory, or :class:`TableNotFound`."""
        table = self._tables.get(game_id)
        if table is None or not table.record.is_live:
            raise TableNotFound("error-table-gone")
        return table

    async def fetch(self, game_id: int) -> Table:
        """Like :meth:`get`; a live table of ours not in memory yet is loaded from storage.

        That happens when a click arrives before start-up has restored every table, or after
        this process took over a shard from another one.
        """
        table = self._tables.get(game_id)
        if table is not None:
            return self.get(game_id)
        async with self._loading:
            if game_id not in self._tables:
                record = await self.db.load_game(game_id)
                if record is None or not record.is_live or not self.owns(record.guild_id):
                    raise TableNotFound("error-table-gone")
                loaded = self.restorer.load(record)
                if loaded is None:
                    raise TableNotFound("error-table-gone")
                if loaded.record.status == "active":
                    self.driver.ensure_runner(loaded)
        return self.get(game_id)

    def owns(self, guild_id: int | None) -> bool:
        """True if this process hosts the tables of that server (its shard is ours)."""
        return self.shards is None or self.shards.owns(guild_id)

    def adopt(self, table: Table) -> Table:
        """Register a table with this process (the one in memory wins if already held)."""
        self._forget_ended()
        return self._tables.setdefault(table.id, table)

    def holds(self, game_id: int) -> bool:
        """True if the table is in this process's memory (live, or ended only lately)."""
        return game_id in self._tables

    def _forget_ended(self) -> None:
        """Drop the tables that ended more than :data:`ENDED_KEPT` seconds ago and whose
        runner is done: storage keeps them, and rematch, replay and history read them from
        there, so a long-running bot does not hold every game it ever hosted."""
        now = self.clock()
        if now - self._swept_at < SWEEP_EVERY:
            return  # at most once a minute: restoring a thousand tables stays linear
        self._swept_at = now
        cutoff = now - ENDED_KEPT
        ended = [
            game_id
            for game_id, table in self._tables.items()
            if not table.record.is_live
            and (table.record.ended_at or 0.0) < cutoff
            and (table.runner is None or table.runner.done())
        ]
        for game_id in ended:
            del self._tables[game_id]

    async def drop_shards(self, shards: Shards | None) -> int:
        """This process no longer runs some shards: let their tables go at once, without a
        write or a message (another process holds them now). ``shards``: what it still
        runs. Returns how many tables it let go."""
        self.shards = shards
        gone = [t for t in self._tables.values() if not self.owns(t.record.guild_id)]
        for table in gone:
            del self._tables[table.id]
        runners = [t.runner for t in gone if t.runner is not None and not t.runner.done()]
        for runner in runners:
            runner.cancel()
        for runner in runners:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await runner
        return len(gone)

    async def settle(self, timeout: float = 10.0) -> None:
        """Wait until no table is in the middle of a change (its lock is free), so that
        every move already under way is saved; for a clean shutdown."""

        async def quiet(table: Table) -> None:
            async with table.lock:
                pass

        tables = list(self._tables.values())
        if tables:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*map(quiet, tables)), timeout)

    def in_location(self, location_id: int) -> Table | None:
        """The live table whose message is in this channel or thread, if any."""
        for table in self._tables.values():
            if table.record.is_live and table.location_id == location_id:
                return table
        return None

    def tables(self) -> list[Table]:
        return [t for t in self._tables.values() if t.record.is_live]

    def storage_failed(self, error: BaseException) -> None:
        """Report ``error`` to :attr:`on_storage_error` if it is a storage failure."""
        kind = failure_kind(error)
        if kind is not None and self.on_storage_error is not None:
            self.on_storage_error(kind)

    def timeout_for(self, table: Table) -> float:
        return float(table.record.config.get("turn_timeout") or self.turn_timeout)

    # --- seating (see bot.tables.lobby) ------------------------------------------------

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
    ) -> Table:
        return await self.lobby.create(
            game,
            guild_id=guild_id,
            channel_id=channel_id,
            host=host,
            options=options,
            turn_timeout=turn_timeout,
            thread_id=thread_id,
            seed=seed,
            hints=hints,
        )

    async def join(self, game_id: int, person: Person) -> Table:
        return await self.lobby.join(game_id, person)

    async def add_ai(self, game_id: int, actor: Person, level: str = "normal") -> Table:
        return await self.lobby.add_ai(game_id, actor, level)

    async def remove_ai(self, game_id: int, actor: Person) -> Table:
        return await self.lobby.remove_ai(game_id, actor)

    async def start(self, game_id: int, actor: Person) -> Table:
        return await self.lobby.start(game_id, actor)

    async def leave(self, game_id: int, person: Person) -> Table:
        return await self.lobby.leave(game_id, person)

    async def rejoin(self, game_id: int, person: Person) -> Table:
        return await self.lobby.rejoin(game_id, person)

    async def rematch(self, game_id: int, person: Person) -> tuple[Table, bool]:
        """A finished game's rematch lobby, and whether this call opened it."""
        return await self.rematches.open(game_id, person)

    async def kick(self, game_id: int, actor: Person, target_id: int, *, is_admin: bool) -> str:
        return await self.lobby.kick(game_id, actor, target_id, is_admin=is_admin)

    async def cancel(self, game_id: int, actor: Person, *, is_admin: bool) -> Table:
        return await self.lobby.cancel(game_id, actor, is_admin=is_admin)

    async def attach_message(self, table: Table, message_id: int) -> None:
        """Remember which message shows the table, so later changes edit it in place."""
        table.record.message_id = message_id
        await self.db.update_game(table.id, message_id=message_id)

    # --- play --------------------------------------------------------------------------

    async def act(self, game_id: int, user_id: int, action: str, version: int | None) -> Table:
        """Apply a person's move. ``version`` is the table version their controls showed."""
        table = await self.fetch(game_id)
        async with table.lock:
            if table.record.status != "active" or table.state is None:
                raise GameError("error-not-started")
            seat = table.seat_of(user_id)
            if seat is None:
                raise self._left_hint(table, user_id) or NotSeated("error-not-playing-moves")
            await self.come_back(table, seat)
            to_act = table.spec.engine.to_act(table.state)
            if seat not in to_act:
                waiting = ", ".join(table.names[s] for s in sorted(to_act)) or "nobody"
                raise NotYourTurn("error-not-your-move", waiting=waiting)
            if version is not None and (
                version > table.record.version or table.acted_since(seat, version)
            ):
                # A version the table has not reached is not a real click on our controls.
                raise StaleAction("error-stale-controls")
            await self.apply(table, seat, action, user_id)
        return table

    def _seat_in_play(self, table: Table, user_id: int, not_seated: str, not_started: str) -> int:
        """``user_id``'s seat at ``table``, a game in play; refused in words otherwise."""
        seat = table.seat_of(user_id)
        if seat is None:
            raise self._left_hint(table, user_id) or NotSeated(not_seated)
        if table.record.status != "active" or table.state is None:
            raise GameError(not_started)
        return seat

    async def private_panel(self, game_id: int, user_id: int, *, returning: bool = True) -> Panel:
        """A seated player's own view of the table, with the moves open to them.

        ``returning``: the person asked for it, so a seat an AI covers is theirs again (not
        so when their open view is only being kept up to date)."""
        table = await self.fetch(game_id)
        seat = self._seat_in_play(
            table,
            user_id,
            "error-not-playing-hand",
            "error-not-started-view",
        )
        if returning and table.seats[seat].autopilot:
            async with table.lock:
                await self.come_back(table, seat)
        # The table as last saved, drawn outside the lock: a burst of "My hand" never waits
        # behind a move, nor a move behind them. A view is drawn once per seat and version;
        # clicks that want the same one share it.
        view = panels.PrivateView.of(table, seat)
        key = (view.version, tuple(view.names))
        drawn = table.private_views.get(seat)
        task: asyncio.Future[Panel]
        if drawn is None or drawn[0] != key:
            task = asyncio.ensure_future(asyncio.to_thread(panels.private_panel, view))
            table.private_views[seat] = (key, task)

            def forget_failure(done: asyncio.Future[Panel], seat: int = seat) -> None:
                failed = not done.cancelled() and done.exception() is not None
                if failed and table.private_views.get(seat, (None, None))[1] is done:
                    del table.private_views[seat]  # the next click draws it again

            task.add_done_callback(forget_failure)
        else:
            task = drawn[1]
        return await asyncio.shield(task)

    async def hint(self, game_id: int, user_id: int) -> Panel:
        """A person's own view with a hint for their move (see :mod:`bot.tables.coaching`):
        the hard AI's move from their observation, and why. Worked out once per seat and
        table version (in the AI workers, within the AI budget); clicks that want the same
        one share it. Only ever shown to the person who asked."""
        table = await self.fetch(game_id)
        seat = self._seat_in_play(
            table,
            user_id,
            "error-not-playing-hint",
            "error-not-started",
        )
        if not coaching.hints_on(table):
            raise GameError("error-hints-off", game=table.record.game)
        if seat not in table.spec.engine.to_act(table.state):
            raise NotYourTurn("error-hint-not-your-move")
        if table.seats[seat].autopilot:
            async with table.lock:
                await self.come_back(table, seat)
        view = panels.PrivateView.of(table, seat)
        observation = table.spec.engine.observe(view.state, seat)
        held = table.hints.get(seat)
        fresh = held is None or held[0] != view.version
        task: asyncio.Future[Any]
        if fresh:
            seed = table.ai_seed(view.version, seat)
            task = asyncio.ensure_future(self.thinker.analyse(table.spec, observation, seed))
            table.hints[seat] = (view.version, task)
        else:
            assert held is not None
            task = held[1]
        analysis = await asyncio.shield(task)
        if analysis is None:
            if table.hints.get(seat, (None, None))[1] is task:
                del table.hints[seat]  # the next click tries again
        elif fresh:
            await self._count_hint(table, seat)
        # The view the person has open is drawn already (shared, so it is copied): the hint
        # goes under it. Only if the table moved on meanwhile is the hint's own drawn.
        drawn = await self.private_panel(game_id, user_id, returning=False)
        return await asyncio.to_thread(self._hinted_view, table, view, drawn, observation, analysis)

    @staticmethod
    def _hinted_view(
        table: Table, view: panels.PrivateView, drawn: Panel, observation: Any, analysis: Any
    ) -> Panel:
        text = None if analysis is None else coaching.hint_text(table, observation, analysis)
        base = drawn if drawn.version == view.version else panels.private_panel(view)
        return coaching.with_hint(base, text)

    async def _count_hint(self, table: Table, seat: int) -> None:
        """One more hint for ``seat``, kept with the game's options (the results say it)."""
        async with table.lock:
            if not table.record.is_live:
                return
            config = coaching.count_used(table.record.config, seat)
            try:
                await self.db.update_game(table.id, config=config)
            except Exception as error:  # the hint still stands; only the count is lost
                self.storage_failed(error)
                log.warning("Could not count a hint in game %s", table.id, exc_info=True)
                return
            table.record.config = config

    async def apply(self, table: Table, seat: int, action: str, user_id: int | None) -> None:
        """Apply a move to a copy, save it, and only then swap it in (lock held).

        An illegal move or a failed save leaves the table exactly as it was, and no one
        (a renderer included) ever sees a state that was not saved.
        """
        engine = table.spec.engine
        assert table.state is not None
        lesson = None
        if practice.is_practice(table) and not table.moves_itself(seat):
            # the lesson the learner's view showed for this move (not one the table made
            # for them, an AI's, or a lone "Play on" with nothing to decide)
            before = engine.observe(table.state, seat)
            lesson = practice.lesson_at(table, before, engine.legal_actions(table.state, seat))
        trial = engine.copy_state(table.state)
        events = engine.apply(trial, seat, action)
        version = table.record.version + 1
        lines, history = table.with_move(version, seat, [e.entry() for e in events])
        finished = engine.is_over(trial)
        record = ActionRecord(
            version=version, seat=seat, action=action, user_id=user_id, at=self.clock()
        )
        await self.save_step(
            table, trial, lines, history, [record], status="finished" if finished else None
        )
        if lesson is not None:
            await self._lesson_shown(table, lesson.key)
        if finished:
            await self._finish(table)

    async def _lesson_shown(self, table: Table, key: str) -> None:
        """Remember that a practice table's lesson was shown (its moment was played)."""
        config = practice.with_shown(table.record.config, key)
        try:
            await self.db.update_game(table.id, config=config)
        except Exception as error:  # the move stands; the lesson may be shown once more
            self.storage_failed(error)
            log.warning("Could not note a lesson in game %s", table.id, exc_info=True)
            return
        table.record.config = config

    async def save_step(
        self,
        table: Table,
        state: BaseModel,
        lines: list[LogEntry],
        history: list[tuple[int, int]],
        actions: Sequence[ActionRecord],
        *,
        status: GameStatus | None = None,
    ) -> None:
        """Save the table's next version and swap it in (lock held)."""
        version = table.record.version + 1
        finished = status == "finished"
        deadline = None if finished else self._deadline(table, state)
        try:
            await self.db.save_progress(
                table.id,
                version=version,
                expected_version=table.record.version,
                state_json=table.snapshot_json(state, lines, history),
                actions=actions,
                status=status,
                deadline_at=deadline,
            )
        except (VersionConflict, GameClosed) as error:
            # Another process saved this table since we loaded it: ours is out of date.
            self.storage_failed(error)
            log.warning("Game %s moved on elsewhere (%s); reloading it", table.id, error)
            await self.restorer.reload(table)
            raise TableMovedOn("error-moved-on") from None
        table.state, table.log, table.history = state, lines, history
        table.record.version = version
        table.record.deadline_at = deadline
        if status is not None:
            table.record.status = status
        table.changed.set()

    async def set_seats(self, table: Table, seats: list[SeatRecord]) -> None:
        renumbered = [seat.model_copy(update={"seat": i}) for i, seat in enumerate(seats)]
        await self.db.update_game(table.id, seats=renumbered)
        table.record.seats = renumbered

    async def close_table(self, table: Table, message: str) -> None:
        """Cancel a live table (lock held) with a line saying why."""
        log.info("Game %s (%s) closed: %s", table.id, table.record.game, message)
        table.record.status = "cancelled"
        table.note(message)
        table.record.ended_at = self.clock()
        await self.db.cancel_game(table.id, ended_at=table.record.ended_at)
        table.changed.set()

    async def come_back(self, table: Table, seat: int) -> None:
        """A person on autopilot acted: hand their seat back to them (lock held)."""
        record = table.seats[seat]
        if not record.autopilot:
            return
        seats = list(table.seats)
        seats[seat] = record.model_copy(update={"autopilot": False})
        await self.hand_back(table, seats, f"{record.name} is back and plays their own seat again.")

    async def hand_back(self, table: Table, seats: list[SeatRecord], news: str) -> None:
        """Save seats where a person takes over from the AI again, and say so (lock held).

        If it is now their move while only AI seats were to act (no timer, or the one that
        ran out), their turn timer starts afresh."""
        await self.set_seats(table, seats)
        running = table.record.deadline_at
        if (running is None or running <= self.clock()) and table.state is not None:
            deadline = self._deadline(table, table.state)
            if deadline is not None:
                await self.db.update_game(table.id, deadline_at=deadline)
                table.record.deadline_at = deadline
        table.note(news)
        table.changed.set()
        await self.presenter.announce(table, news)

    @staticmethod
    def _left_hint(table: Table, user_id: int) -> NotSeated | None:
        """The refusal for a person who left this game and clicks on it (None: they didn't)."""
        if table.left_seat_of(user_id) is None:
            return None
        return NotSeated("error-left-game", game=table.record.game)

    def _deadline(self, table: Table, state: BaseModel) -> float | None:
        """When the people to act in ``state`` run out of time (None if only AI is to act)."""
        to_act = table.spec.engine.to_act(state)
        if not any(not table.is_bot_seat(s) for s in to_act):
            return None
        return self.clock() + self.timeout_for(table)

    async def _finish(self, table: Table) -> None:
        assert table.state is not None
        if practice.is_practice(table):  # not rated: no results, ratings or leaderboard row
            table.record.ended_at = self.clock()
            await self.db.update_game(table.id, ended_at=table.record.ended_at)
            return
        outcome = table.spec.engine.outcome(table.state)
        moves = await self.db.moves_by_seat(table.id)
        # A person's seat that an AI played for most of its moves is abandoned: ranked last,
        # no win, so no rating gain (said on /help).
        abandoned = {
            s.seat
            for s in table.seats
            if not s.is_ai and (m := moves.get(s.seat, (0, 0)))[1] > m[0]
        }
        last = max(outcome.ranks, default=0) + 2
        results = [
            SeatResult(
                seat=s.seat,
                user_id=s.user_id,
                name=s.name,
                is_ai=s.is_ai,
                rank=last if s.seat in abandoned else outcome.ranks[s.seat] + 1,
                score=outcome.scores[s.seat],
                won=s.seat in outcome.winners and s.seat not in abandoned,
            )
            for s in table.seats
        ]
        table.record.ended_at = self.clock()
        log.info("Game %s (%s) finished; winners %s", table.id, table.record.game, outcome.winners)
        await self.db.finish_game(
            table.id,
            guild_id=table.record.guild_id,
            game=table.record.game,
            results=results,
            ended_at=table.record.ended_at,
        )
        if any(not s.is_ai for s in table.seats) and self.reviews.offered(table.spec):
            self.reviews.start(table.id)

    # --- what the table shows ----------------------------------------------------------

    def public_panel(self, table: Table, shown: str | None = None) -> Panel:
        """The public message: pure function of the table (rendering happens here; not of
        the ``shown`` picture, which the message carries already)."""
        return panels.public_panel(table, self.timeout_for(table), shown)

    @contextlib.asynccontextmanager
    async def answering(self) -> AsyncIterator[None]:
        """A person's click is being answered: redraws nobody waits on (an AI's move on
        another table) hold back meanwhile, up to :data:`ANSWERS_FIRST`, so the drawing
        for the click does not share the processor with them."""
        self._answering += 1
        self._calm.clear()
        try:
            yield
        finally:
            self._answering -= 1
            if not self._answering:
                self._calm.set()

    async def calm(self) -> None:
        """Wait while people's clicks are being answered, up to :data:`ANSWERS_FIRST`: for
        work nobody waits on (an AI's move or redraw on another table), so that it does not
        share the processor and the database with them."""
        if not self._calm.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._calm.wait(), ANSWERS_FIRST)

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
        message is already current, because the click needs its answer. A panel for it
        whose picture is the one the message carries (``table.shown_picture``, as a die
        picked leaves it) comes without the picture: the answer keeps the attachment.
        """
        if respond is None:
            await self.calm()  # (outside the table's lock: a click on it must not wait)
        async with table.refresh_lock:
            revision = self.revision(table)
            if respond is None and not force and table.shown_version == revision:
                return
            carried = table.shown_picture
            shown = None
            if respond is not None and carried and carried[0] == table.record.message_id:
                shown = carried[1]
            # The words and buttons here; the picture, if it changed, drawn off the loop.
            panel, draw = panels.public_panel_parts(table, self.timeout_for(table), shown)
            if draw is not None:
                panel.image_png = await asyncio.to_thread(draw)
            try:
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
            finally:
                # After the answer, not holding it up: bring open private views up to date.
                self.presenter.private_changed(table)
            table.shown_version = revision
            table.shown_at = time.monotonic()
            self.shown.note(table.id, panel.digest() if table.record.is_live else None)
            await self.pings.after_change(table)

    def refresh_soon(self, table: Table) -> None:
        """Refresh the table's message in the background (for callers holding its lock)."""
        task = asyncio.create_task(self.refresh(table), name=f"refresh-{table.id}")
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    @staticmethod
    def revision(table: Table) -> int:
        """What the table message shows changes only with this (its version, status, seats)."""
        seats = tuple(tuple(vars(seat).values()) for seat in table.seats)
        return hash((table.record.version, table.record.status, seats))

    # --- start-up and shutdown ---------------------------------------------------------

    async def restore(self) -> int:
        """Load every live game after a restart, refresh its message, resume its turns."""
        return await self.restorer.restore()

    async def close(self) -> None:
        await self.driver.close(list(self._tables.values()))
        self.reviews.close()
        for task in list(self._background):
            task.cancel()
        await self.shown.close()
