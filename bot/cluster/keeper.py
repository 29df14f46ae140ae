"""Holding shards: claim them at start (or wait as a standby), renew, notice a loss, let go.

The keeper owns this process's side of the shard leases (``bot.storage.leases``). Its
:attr:`fence` is what the database checks every table write against. Besides that hard
guarantee it keeps a local one: :meth:`valid` is true only while the last renewal is recent
enough that the lease cannot have ended, measured on this machine's monotonic clock. A
process that was paused (SIGSTOP, a stalled VM) or cut off from the database therefore
stops answering and talking for its shards the moment it wakes, before any renewal tells
it whether the shards are still its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from bot.storage.leases import Fence, Holder, LeaseStore, ShardCountMismatch, ShardsRefused

log = logging.getLogger(__name__)

LostHandler = Callable[[set[int], str], Coroutine[Any, Any, None]]


class LeaseKeeper:
    """This process's shard leases: ``await acquire()``, then ``start(on_lost)``."""

    def __init__(
        self,
        store: LeaseStore,
        *,
        shard_count: int,
        shard_ids: Sequence[int] | None,
        per_process: int | None = None,
        ttl: float = 15.0,
        holder: Holder | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``shard_ids``: exactly these shards; ``None``: any free ones (``SHARD_IDS=auto``),
        at most ``per_process``."""
        self.store = store
        self.shard_count = shard_count
        self.wanted = sorted(set(shard_ids)) if shard_ids is not None else None
        self.per_process = per_process
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
        self._losing: set[asyncio.Task[None]] = set()

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
            else:
                reason = f"all {self.shard_count} shard(s) are held by live processes"
            if claimed and self._stopping.is_set():  # stopped while the claim committed
                with contextlib.suppress(Exception):
                    await self.store.release(self.holder, claimed)
                return {}
            if claimed:
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
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), poll)
        return {}

    def _margin(self) -> float:
        """How long after a renewal began the lease is surely still ours: its length, less
        a little for clocks that run at slightly different rates."""
        return self.ttl - min(1.0, self.ttl / 10)

    def start(self, on_lost: LostHandler) -> None:
        """Renew in the background; ``on_lost(shards, reason)`` when shards are gone."""
        self._on_lost = on_lost
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
            if self.clock() >= self._valid_until:
                self._lose(set(held), f"could not renew the leases in time ({error!r})")
            else:
                log.warning("Could not renew the shard leases (will retry): %r", error)
            return
        if lost:
            self._lose(lost, "another process took the shard over")
        if self.clock() - started > self.interval:
            log.warning("Renewing the shard leases took %.1f s", self.clock() - started)
        self._valid_until = started + self._margin()

    async def _renew_forever(self) -> None:
        while not self._stopping.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), self.interval)
            if self._stopping.is_set():
                return
            await self.renew_once()

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


def _ids(shards: object) -> str:
    return ",".join(str(i) for i in sorted(shards))  # type: ignore[call-overload]
