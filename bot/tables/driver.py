"""The turn driver: one runner task per game in progress that moves AI seats, reminds slow
players, and lets an AI cover for them when their time is up.

Like a trivia session in Red, each table gets its own long-lived task; a done-callback logs
why a runner stopped. The runner only acts through the core (under the table's lock), so a
person's click and an AI move can never interleave.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

from bot.engines.base import GameError, plural
from bot.storage.backends import is_unavailable
from bot.storage.leases import LeaseLost
from bot.tables.panels import take_back_hint
from bot.tables.protocols import TableMovedOn
from bot.tables.table import Table

if TYPE_CHECKING:
    from bot.tables.manager import TableManager

log = logging.getLogger(__name__)

PAUSED = (
    "⚠️ I can't save this table's moves right now, so it is paused. Nothing is lost: "
    "it carries on by itself as soon as I can save again."
)
RESUMED = "✅ Saving works again: the table carries on."
AI_EDIT_GAP = 1.0
"""Seconds the table message may wait to show AI moves while only AIs are to move:
Discord allows a channel about five message sends or edits in five seconds, so moves
quicker than this (a short ``AI_DELAY``) are shown together with a later one, and none is
drawn that nobody would have seen. A person's turn, or the game's end, shows at once."""


class TurnDriver:
    """Runs each active table's non-human turns and deadlines."""

    def __init__(
        self,
        core: TableManager,
        *,
        ai_delay: float,
        retry_after: float = 1.0,
        retry_max: float = 30.0,
    ) -> None:
        self.core = core
        self.ai_delay = ai_delay
        self.retry_after = retry_after
        """Seconds before the first retry of a failed step; doubles up to ``retry_max``."""
        self.retry_max = retry_max
        self._closing = False

    def ensure_runner(self, table: Table) -> None:
        """Start the table's runner unless it is already running (or we are shutting down)."""
        if self._closing or (table.runner and not table.runner.done()):
            return
        table.runner = asyncio.create_task(self._drive(table), name=f"table-{table.id}")
        table.runner.add_done_callback(_runner_done)

    async def close(self, tables: list[Table]) -> None:
        """Stop every runner and wait for them."""
        self._closing = True
        runners = [t.runner for t in tables if t.runner and not t.runner.done()]
        for runner in runners:
            runner.cancel()
        for runner in runners:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await runner

    async def _drive(self, table: Table) -> None:
        """Move AI seats, remind and then cover for slow players, until the game ends.

        No error of one step stops the runner: it is logged, the runner backs off and tries
        again, and the table is told once, in plain words, while its moves cannot be saved
        (and again when it carries on).
        """
        failures = 0
        while not self._closing and table.record.status == "active" and table.state is not None:
            try:
                await self._step(table)
            except LeaseLost as lost:
                # Another process runs this table's shard now: stop, say nothing.
                log.warning("Game %s: no longer ours (%s); its runner stops", table.id, lost)
                return
            except Exception as error:
                self.core.storage_failed(error)
                failures += 1
                delay = min(self.retry_max, self.retry_after * 2 ** (failures - 1))
                # The first failure with its traceback; the retries after it briefly. Storage
                # that is away (an outage the shard keeper reports) is expected: one line.
                expected = is_unavailable(error)
                log.log(
                    logging.ERROR if failures == 1 and not expected else logging.WARNING,
                    "Game %s: a turn step failed (%d in a row%s); retrying in %.1f s",
                    table.id,
                    failures,
                    f": {type(error).__name__}" if expected else "",
                    delay,
                    exc_info=failures == 1 and not expected,
                )
                if failures == 1:
                    await self._tell(table, PAUSED)
                await asyncio.sleep(delay)
                continue
            if failures:
                failures = 0
                log.info("Game %s: turn steps work again", table.id)
                await self._tell(table, RESUMED)
        with contextlib.suppress(Exception):
            await self.core.refresh(table)

    async def _tell(self, table: Table, text: str) -> None:
        try:
            await self.core.presenter.announce(table, text)
        except Exception:
            log.warning("Could not tell game %s: %s", table.id, text, exc_info=True)

    async def _step(self, table: Table) -> None:
        """One thing the table waits for: an AI move, a reminder, a deadline, or a change."""
        core = self.core
        engine = table.spec.engine
        assert table.state is not None
        if not core.may_act(table.record.guild_id):
            await asyncio.sleep(0.25)  # the shard's lease is being confirmed (or was lost)
            return
        table.changed.clear()
        to_act = engine.to_act(table.state)
        forced = {s: move for s in sorted(to_act) if (move := table.forced_move(s)) is not None}
        if forced:
            await asyncio.sleep(self.ai_delay)  # a pause people can see, as for an AI's move
            await self._forced_moves(table, forced)
            await core.refresh(table)
            return
        bots = sorted(s for s in to_act if table.is_bot_seat(s))
        if bots:
            await asyncio.sleep(self.ai_delay)
            await self._bot_move(table, bots[0])
            table.ai_moves_unshown = self._shown_soon_enough(table)
            if not table.ai_moves_unshown:
                await core.refresh(table)
            return
        if table.ai_moves_unshown:  # (a person is to move after all: show the table now)
            table.ai_moves_unshown = False
            await core.refresh(table)
        deadline = table.record.deadline_at
        if deadline is None:
            await table.changed.wait()
            return
        remind_at = deadline - core.timeout_for(table) / 2
        now = core.clock()
        if table.reminded_version != table.record.version and now < deadline:
            if await _wait_change(table, remind_at - now):
                return
            table.reminded_version = table.record.version
            for seat in sorted(to_act):
                user = table.seats[seat].user_id
                left = max(0, round(deadline - core.clock()))
                await core.presenter.announce(
                    table,
                    f"⏰ It's your move at {table.spec.title} (game #{table.id}): "
                    f"an AI takes over in {plural(left, 'second')}.",
                    mention=user,
                )
            return
        if await _wait_change(table, deadline - core.clock()):
            return
        await self._autopilot(table, to_act)

    @staticmethod
    def _shown_soon_enough(table: Table) -> bool:
        """Whether the table message may wait to show an AI's move: only AIs are to move
        next and it was brought up to date less than :data:`AI_EDIT_GAP` ago. It shows the
        moves together with a later one, or at once when a person is to move."""
        if table.state is None or table.record.status != "active":
            return False
        to_act = table.spec.engine.to_act(table.state)
        if not to_act or not all(table.is_bot_seat(s) for s in to_act):
            return False
        return time.monotonic() - table.shown_at < AI_EDIT_GAP

    async def _autopilot(self, table: Table, seats: frozenset[int]) -> None:
        core = self.core
        if not core.may_act(table.record.guild_id):
            return  # woken from a pause, perhaps: the runner looks again once it may act
        async with table.lock:
            if table.state is None or table.record.status != "active":
                return
            pending = [s for s in sorted(seats) if s in table.spec.engine.to_act(table.state)]
            updated = list(table.seats)
            for seat in pending:
                updated[seat] = updated[seat].model_copy(update={"autopilot": True})
            await core.set_seats(table, updated)
            names = ", ".join(table.names[s] for s in pending)
            table.note(f"{names} ran out of time; an AI plays for them until they return.")
        await core.presenter.announce(
            table,
            f"⌛ {names} ran out of time, so an AI plays for them for now. To take your seat "
            f"back: {take_back_hint(table)}, or press **My hand**.",
        )
        await core.refresh(table)

    async def _forced_moves(self, table: Table, forced: dict[int, str]) -> None:
        """Make each person's only move for them (their own move: it carries their id), if
        it is still their only one (they may have made it themselves meanwhile)."""
        async with table.lock:
            for seat, move in forced.items():
                if table.record.status != "active" or table.forced_move(seat) != move:
                    continue
                try:
                    await self.core.apply(table, seat, move, table.seats[seat].user_id)
                except TableMovedOn:
                    return  # another process moved this table on; core.apply reloaded it

    async def _bot_move(self, table: Table, seat: int) -> None:
        """One AI move: decided off the event loop from the seat's observation, with the
        table unlocked meanwhile, then applied only if the table is still where it was."""
        core = self.core
        engine = table.spec.engine
        async with table.lock:
            if table.state is None or table.record.status != "active":
                return
            if seat not in engine.to_act(table.state) or not table.is_bot_seat(seat):
                return
            version = table.record.version
            observation = engine.observe(table.state, seat)
            legal = engine.legal_actions(table.state, seat)
            level = table.ai_level(seat)
        seed = table.ai_seed(version, seat)
        action = await core.thinker.decide(table.spec, observation, level, seed, legal)
        await core.calm()  # people's clicks are saved and answered first
        async with table.lock:
            if table.state is None or table.record.status != "active":
                return
            if table.record.version != version or not table.is_bot_seat(seat):
                return  # someone moved meanwhile (a person came back): look again
            try:
                await core.apply(table, seat, action, None)
            except TableMovedOn:
                # Another process moved this table on; core.apply reloaded it. Look again.
                return
            except GameError:
                log.exception("The AI chose an illegal move %r in game %s", action, table.id)
                await core.apply(table, seat, legal[0], None)


async def _wait_change(table: Table, seconds: float) -> bool:
    """Wait up to ``seconds`` for the table to change; True if it did."""
    if seconds <= 0:
        return False
    try:
        await asyncio.wait_for(table.changed.wait(), seconds)
    except TimeoutError:
        return False
    return True


def _runner_done(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("Table runner %s stopped", task.get_name(), exc_info=task.exception())
