"""Holding shards: claim them at start (or wait as a standby), renew, notice a loss, let go.

The keeper owns this process's side of the shard leases (``bot.storage.leases``). Its
:attr:`fence` is what the database checks every table write against. Besides that hard
guarantee it keeps a local one: :meth:`valid` is true only while the last renewal is recent
enough that the lease cannot have ended, measured on this machine's monotonic clock. A
process that was paused (SIGSTOP, a stalled VM) or cut off from the database therefore
stops answering and talking for its shards the moment it wakes, before any renewal tells
it whether the shards are still its own.

A database that is away (stopped, failing over, unreachable) is not a lost lease: nobody can
take a shard over while nobody can reach the leases. The keeper keeps its shards, stops
acting for them (:meth:`valid` is false once the last renewal is too old), and tries again
with backoff and jitter; when the database answers, a renewal finds each lease still its own
(same epoch: nobody claimed it) or taken over, exactly as after a pause. A standby that saw
the database away waits one more lease period after it returns before claiming a lease that
ran out meanwhile, so that its holder, which is alive, renews it first.

Every shard is owned while any process lives. With ``SHARD_IDS=auto`` an active process
looks, at each renewal, for shards that have had no live lease for most of a lease period
(a process died and no standby took them: standbys look every second, so they come first)
and adopts them, up to its ceiling. A process holding more than its share
(``SHARDS_PER_PROCESS``) hands the extra shards back, one renewal at a time, while another
process waits for one: it stops acting for them, lets their tables go and releases their
leases, and the waiting process claims them with a new epoch, as Kafka's consumer groups
hand partitions over when members come and go. At no moment do two processes hold one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from bot.storage.backends import is_unavailable
from bot.storage.leases import Fence, Holder, LeaseStore, ShardCountMismatch, ShardsRefused

log = logging.getLogger(__name__)

LostHandler = Callable[[set[int], str], Coroutine[Any, Any, None]]
BackHandler = Callable[[float], Coroutine[Any, Any, None]]
ShardsHandler = Callable[[set[int]], Coroutine[Any, Any, None]]

RETRY_FIRST = 0.5
"""Seconds before the first retry once the database is found away; doubling up to the
renewal interval, each with jitter so that a cluster's processes don't retry in step."""


class LeaseKeeper:
    """This process's shard leases: ``await acquire()``, then ``start(on_lost)``."""

    def __init__(
        self,
        store: LeaseStore,
        *,
        shard_count: int,
        shard_ids: Sequence[int] | None,
        per_process: int | None = None,
        ceiling: int | None = None,
        ttl: float = 15.0,
        holder: Holder | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``shard_ids``: exactly these shards; ``None``: any free ones (``SHARD_IDS=auto``),
        at most ``per_process`` at the start, and up to ``ceiling`` (default: every shard)
        when adopting the shards of a process that died."""
        self.store = store
        self.shard_count = shard_count
        self.wanted = sorted(set(shard_ids)) if shard_ids is not None else None
        self.per_process = per_process
        self.ceiling = ceiling
        self.ttl = ttl
        self.holder = holder or Holder.here()
        self.clock = clock
        self.fence = Fence(self.holder.id, shard_count)
        self.standby = False
        """True while waiting for a shard to come free."""
        self._valid_until = float("-inf")
        self._stopping = asyncio.Event()
        self._renewer: asyncio.Task[None] | None = None
        self._on_lost: LostHandler | None = None
        self._on_back: BackHandler | None = None
        self._losing: set[asyncio.Task[None]] = set()
        self.away_since: float | None = None
        """When (this machine's monotonic clock) the database was first found away, while
        it is; None while it answers."""
        self._tries = 0
        self._back_at = float("-inf")
        """When a standby last saw the database return after an outage."""
        self._on_gained: ShardsHandler | None = None
        self._on_handover: ShardsHandler | None = None
        self.unowned: dict[int, float] = {}
        """Shards of the cluster without a live lease, and for how long (seconds), as last
        seen (for /metrics and the log)."""
        self._unowned_told: set[int] = set()
        self.on_outage: Callable[[], None] | None = None
        """Called once per outage of the database this keeper sees (for /metrics)."""

    @property
    def database_away(self) -> bool:
        """True while the database does not answer this process's lease renewals or claims."""
        return self.away_since is not None

    def riding_out(self, shard_id: int) -> bool:
        """Whether ``shard_id`` is held but not acted for only because the database is away
        (the shard is still this process's: nobody can take it over meanwhile)."""
        return self.database_away and shard_id in self.fence.epochs

    @property
    def epochs(self) -> dict[int, int]:
        """Shard id -> epoch of every shard held now."""
        return self.fence.epochs

    @property
    def shard_ids(self) -> list[int]:
        return sorted(self.fence.epochs)

    @property
    def interval(self) -> float:
        """Seconds between renewals: three tries before a lease can run out."""
        return self.ttl / 3

    def valid(self, shard_id: int) -> bool:
        """Whether this process may act for the shard now (held, and renewed recently)."""
        return shard_id in self.fence.epochs and self.clock() < self._valid_until

    async def acquire(self, *, wait: bool, poll: float = 1.0) -> dict[int, int]:
        """Claim the shards. With exact shard ids and ``wait`` false, a live holder is
        refused (:class:`ShardsRefused`); otherwise wait as a standby until shards come free
        (or :meth:`stop`: then nothing is claimed). Another shard count is always refused."""
        while not self._stopping.is_set():
            started = self.clock()
            if wait and started - self._back_at < self.ttl:
                # the database just came back: the holders of leases that ran out while it
                # was away renew them first (they are alive); a standby waits its turn
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stopping.wait(), poll)
                continue
            if self.database_away:
                # Back yet? Ask before claiming anything: leases that ran out while the
                # database was away are not free until their holders had their chance.
                try:
                    await self.store.now()
                except Exception as error:
                    if not is_unavailable(error):
                        raise
                    self._away(error, "waiting for shards")
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._stopping.wait(), self._retry_delay())
                    continue
                self._back(grace=wait)
                continue
            try:
                claimed = await self.store.claim(
                    self.holder,
                    self.shard_count,
                    shard_ids=self.wanted,
                    want=self.per_process,
                    ttl=self.ttl,
                )
            except ShardCountMismatch:
                raise  # a re-shard is a full stop and start: waiting would never end well
            except ShardsRefused as refused:
                if not wait:
                    raise
                reason = str(refused)
                claimed = {}
            except Exception as error:
                if not is_unavailable(error):
                    raise
                self._away(error, "claiming shards")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stopping.wait(), self._retry_delay())
                continue
            else:
                reason = f"all {self.shard_count} shard(s) are held by live processes"
            if claimed and self._stopping.is_set():  # stopped while the claim committed
                with contextlib.suppress(Exception):
                    await self.store.release(self.holder, claimed)
                return {}
            if claimed:
                if self.standby:
                    with contextlib.suppress(Exception):
                        await self.store.stop_waiting(self.holder)
                self.fence.epochs.update(claimed)
                self._valid_until = started + self._margin()
                if self.standby:
                    log.info("Standby over: took shard(s) %s", _ids(claimed))
                self.standby = False
                log.info(
                    "Holding shard(s) %s of %d (epochs %s; lease %.0f s, renewed every %.1f s)",
                    _ids(claimed),
                    self.shard_count,
                    ",".join(str(claimed[i]) for i in sorted(claimed)),
                    self.ttl,
                    self.interval,
                )
                return claimed
            if not self.standby:
                log.info("Standby: %s; taking over the moment a lease ends", reason)
                self.standby = True
            if wait and self.wanted is None:
                with contextlib.suppress(Exception):  # only a hint for the holders
                    await self.store.wait_for_shards(self.holder, self.shard_count, self.ttl)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), poll)
        return {}

    def _margin(self) -> float:
        """How long after a renewal began the lease is surely still ours: its length, less
        a little for clocks that run at slightly different rates."""
        return self.ttl - min(1.0, self.ttl / 10)

    def _away(self, error: BaseException, doing: str) -> None:
        """The database did not answer: note it, and say so once per outage."""
        if self.away_since is None:
            self.away_since = self.clock()
            if self.on_outage is not None:
                self.on_outage()
            log.warning(
                "The database is away (%s while %s): this process keeps its Discord sessions"
                " and %s; retrying with backoff",
                _reason(error),
                doing,
                "its shards but acts for none until it is back" if self.fence.epochs else "waits",
            )
        else:
            log.debug("The database is still away (%s)", _reason(error))
        self._tries += 1

    def _back(self, *, grace: bool = False) -> float:
        """The database answered again after an outage; how long it was away."""
        assert self.away_since is not None
        away = self.clock() - self.away_since
        self.away_since = None
        self._tries = 0
        if grace:
            self._back_at = self.clock()
        log.warning("The database is back after %.1f s", away)
        return away

    def _retry_delay(self) -> float:
        """Backoff with jitter while the database is away, never longer than a renewal
        interval (so a lease is renewed well within its length once it is back)."""
        base = min(self.interval, RETRY_FIRST * 2 ** max(0, self._tries - 1))
        return base * random.uniform(0.5, 1.0)

    def start(
        self,
        on_lost: LostHandler,
        on_back: BackHandler | None = None,
        *,
        on_gained: ShardsHandler | None = None,
        on_handover: ShardsHandler | None = None,
    ) -> None:
        """Renew in the background; ``on_lost(shards, reason)`` when shards are gone,
        ``on_back(seconds_away)`` when the database answers again after an outage with
        shards still held; ``on_gained(shards)`` after adopting shards nobody held,
        ``on_handover(shards)`` before handing shards over (the process lets them go)."""
        self._on_lost = on_lost
        self._on_back = on_back
        self._on_gained = on_gained
        self._on_handover = on_handover
        self.fence.on_lost = self._write_refused
        self._renewer = asyncio.create_task(self._renew_forever(), name="shard-leases")

    def _write_refused(self, shard_id: int, reason: str) -> None:
        """A table write found the shard gone: act at once, not at the next renewal."""
        if shard_id in self.fence.epochs:
            self._lose({shard_id}, f"a write was refused: {reason}")

    def _lose(self, shards: set[int], reason: str) -> None:
        shards &= set(self.fence.epochs)
        if not shards:
            return
        for shard_id in shards:
            del self.fence.epochs[shard_id]
        log.warning("Lost shard(s) %s: %s", _ids(shards), reason)
        if self._on_lost is not None:
            task = asyncio.get_running_loop().create_task(self._on_lost(shards, reason))
            self._losing.add(task)
            task.add_done_callback(self._losing.discard)

    async def renew_once(self) -> None:
        """One renewal: extend every lease held, and give up those that are gone."""
        held = dict(self.fence.epochs)
        if not held:
            return
        started = self.clock()
        try:
            # A database that does not answer is waited on no longer than until the next try.
            lost = await asyncio.wait_for(
                self.store.renew(self.holder, held, self.ttl), self.interval
            )
        except Exception as error:
            if is_unavailable(error) or isinstance(error, TimeoutError):
                # Nobody can take a shard over while nobody reaches the leases: keep them,
                # act for none once the lease may have run out (valid() says), try again.
                if self.database_away or self.clock() >= self._valid_until:
                    self._away(error, "renewing the shard leases")
                else:
                    log.warning("Could not renew the shard leases (will retry): %s", _reason(error))
            elif self.clock() >= self._valid_until:
                self._lose(set(held), f"could not renew the leases in time ({error!r})")
            else:
                log.warning("Could not renew the shard leases (will retry): %r", error)
            return
        away = self._back() if self.database_away else None
        if lost:
            self._lose(lost, "another process took the shard over")
        if self.clock() - started > self.interval:
            log.warning("Renewing the shard leases took %.1f s", self.clock() - started)
        self._valid_until = started + self._margin()
        if away is not None and self.fence.epochs and self._on_back is not None:
            task = asyncio.get_running_loop().create_task(self._on_back(away))
            self._losing.add(task)
            task.add_done_callback(self._losing.discard)

    async def _renew_forever(self) -> None:
        while not self._stopping.is_set():
            pause = self._retry_delay() if self.database_away else self.interval
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), pause)
            if self._stopping.is_set():
                return
            await self.renew_once()
            if not self.database_away and not self._stopping.is_set():
                try:
                    await self.rebalance()
                except Exception as error:  # the next renewal looks again
                    if not is_unavailable(error):
                        log.warning("Could not look for unowned shards", exc_info=True)

    @property
    def room(self) -> int:
        """How many more shards this process may hold (its ceiling less what it holds)."""
        return (self.ceiling or self.shard_count) - len(self.fence.epochs)

    async def rebalance(self) -> None:
        """Note the cluster's unowned shards; with ``SHARD_IDS=auto``, adopt those nobody has
        held for most of a lease period and hand one extra shard back while a process waits
        for one. Only while every lease held is valid."""
        if not self.fence.epochs or not all(self.valid(i) for i in self.fence.epochs):
            return
        self.unowned = await self.store.unowned(self.shard_count)
        for shard_id, seconds in sorted(self.unowned.items()):
            if seconds >= self._adopt_after and shard_id not in self._unowned_told:
                self._unowned_told.add(shard_id)
                log.warning("Shard %d has had no owner for %.0f s", shard_id, seconds)
        self._unowned_told &= set(self.unowned)
        if self.wanted is not None:
            return  # fixed shards (SHARD_IDS=0,1): the operator places them
        share = self.per_process or self.shard_count
        held = len(self.fence.epochs)
        if held < share:
            # Below its share (it took over as a standby while another held extra shards):
            # claim what is free now, and say it waits for the rest.
            gained = await self._claim(want=share - held, unowned_for=0.0)
            if held + len(gained) < share:
                await self.store.wait_for_shards(self.holder, self.shard_count, self.ttl)
            else:
                await self.store.stop_waiting(self.holder)
            if gained:
                return
        elif (
            self.room > 0
            and any(s >= self._adopt_after for s in self.unowned.values())
            and await self._claim(want=self.room, unowned_for=self._adopt_after)
        ):
            return
        if held <= share or not await self.store.waiting(self.shard_count):
            return
        extra = {max(self.fence.epochs)}  # one a renewal: the waiting process claims it
        for shard_id in extra:
            del self.fence.epochs[shard_id]  # this process acts for it no more, from now
        if self._on_handover is not None:
            await self._on_handover(extra)
        await self.store.release(self.holder, extra)
        log.info(
            "Handed shard(s) %s over: a process waits, and this one holds more than its share",
            _ids(extra),
        )

    async def _claim(self, *, want: int, unowned_for: float) -> dict[int, int]:
        """Claim up to ``want`` free shards while active; tell the process it has them."""
        started = self.clock()
        claimed = await self.store.claim(
            self.holder,
            self.shard_count,
            shard_ids=None,
            want=want,
            ttl=self.ttl,
            unowned_for=unowned_for,
        )
        if not claimed:
            return claimed
        self.fence.epochs.update(claimed)
        self._valid_until = min(self._valid_until, started + self._margin())
        for shard_id in claimed:
            self.unowned.pop(shard_id, None)
        log.warning(
            "Took over shard(s) %s (epochs %s): %s",
            _ids(claimed),
            ",".join(str(claimed[i]) for i in sorted(claimed)),
            "handed over by a process with more than its share"
            if unowned_for == 0
            else "no process held them",
        )
        if self._on_gained is not None:
            # in the background: connecting the shards waits on Discord's start limit, and
            # the renewals must go on meanwhile
            self._background(self._on_gained(set(claimed)))
        return claimed

    def _background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._losing.add(task)
        task.add_done_callback(self._losing.discard)

    @property
    def _adopt_after(self) -> float:
        """Seconds a shard must have gone without a live lease before an active process
        adopts it: standbys (which look every second) come first, and the shard is owned
        again within two lease periods of its holder's last renewal."""
        return self.ttl - self.interval

    def stop(self) -> None:
        """Stop renewing (and waiting as a standby); the leases stay until released."""
        self._stopping.set()

    async def release(self) -> None:
        """Stop renewing and let every shard go at once, for a standby to take."""
        self.stop()
        if self._renewer is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._renewer
        held = list(self.fence.epochs)
        self._valid_until = float("-inf")
        self.fence.on_lost = None  # from here on a refused write is expected, not news
        if not held:
            return
        try:
            await self.store.release(self.holder, held)
        except Exception:
            log.warning("Could not release shard(s) %s; they end by themselves", _ids(held))
            return
        self.fence.epochs.clear()
        log.info("Released shard(s) %s", _ids(held))


def _reason(error: BaseException) -> str:
    """An error in a few words for a log line (no traceback for an expected outage)."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _ids(shards: object) -> str:
    return ",".join(str(i) for i in sorted(shards))  # type: ignore[call-overload]
