"""Shard leases: which process holds which Discord shard, and the fence on its writes.

Every process of a bot claims its shards in the shared database before it connects them. A
lease names its holder (host, pid and a token of that run), has an expiry the holder pushes
forward every few seconds, and an epoch that goes up by one whenever another process takes
the shard over. Every write a process makes for a table checks, inside the same transaction,
that it still holds that table's shard at the epoch it claimed (:meth:`LeaseStore.check`);
on PostgreSQL the check holds a share lock on the lease row, so a take-over waits for writes
in flight and every write after it is refused. A process that lost its shard (paused past
its lease, cut off from the database) can therefore never overwrite the new holder's tables.

Times are the database's own clock, so processes on machines whose clocks differ agree on
when a lease ends. The cluster's shard count is kept with the leases: a process that counts
differently is refused while any lease of the other count is live.
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from bot.cluster.sharding import shard_of

from .backends import Conn
from .errors import StorageError

if TYPE_CHECKING:
    from .db import Database

_LOCK: Final = "quantum-table:shard-leases"
_NOW: Final = {
    "sqlite": "SELECT (julianday('now') - 2440587.5) * 86400.0",
    "postgresql": "SELECT EXTRACT(EPOCH FROM clock_timestamp())::float8",
}
_COLUMNS: Final = (
    "shard_id, shard_count, holder, host, pid, epoch, acquired_at, renewed_at, expires_at, released"
)


class ShardsRefused(StorageError):
    """The shards asked for cannot be had now; the message is one line for the operator."""


class ShardCountMismatch(ShardsRefused):
    """The cluster runs another number of shards; refused even for a standby."""


class LeaseLost(StorageError):
    """A write for a table of a shard this process no longer holds (or never held)."""

    def __init__(self, shard_id: int, reason: str) -> None:
        super().__init__(f"shard {shard_id}: {reason}")
        self.shard_id = shard_id
        self.reason = reason


@dataclass(frozen=True)
class Holder:
    """One run of one process: what a lease says about who holds it."""

    id: str
    host: str
    pid: int

    @classmethod
    def here(cls, host: str | None = None) -> Holder:
        """This process; ``host`` names the machine (default: its host name)."""
        host, pid = host or socket.gethostname(), os.getpid()
        return cls(f"{host}:{pid}:{secrets.token_hex(4)}", host, pid)


@dataclass(frozen=True)
class Lease:
    """A lease row as stored."""

    shard_id: int
    shard_count: int
    holder: str
    host: str
    pid: int
    epoch: int
    acquired_at: float
    renewed_at: float
    expires_at: float
    released: bool

    def live(self, now: float) -> bool:
        """Held by a process that has not let it go and whose time has not run out."""
        return not self.released and self.expires_at > now

    def who(self) -> str:
        return f"{self.host} pid {self.pid}"


@dataclass
class Fence:
    """What this process holds: checked inside every table write (see :meth:`check`)."""

    holder: str
    shard_count: int
    epochs: dict[int, int] = field(default_factory=dict)
    """shard id -> the epoch this process claimed it at."""
    on_lost: Callable[[int, str], None] | None = None
    """Told at once (by the store, on the event loop) when a write finds a shard gone,
    before the error reaches the caller."""


def _process_gone(lease: Lease, me: Holder) -> bool:
    """The lease's holder ran on this machine and that process no longer exists (a crash or
    kill -9 here): its lease may be taken over without waiting for it to run out."""
    if lease.host != me.host or lease.pid == me.pid or lease.pid <= 0:
        return False
    try:
        os.kill(lease.pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def _count_mismatch(shard_count: int, lease: Lease, now: float) -> ShardCountMismatch:
    return ShardCountMismatch(
        f"SHARD_COUNT is {shard_count}, but the cluster runs {lease.shard_count}"
        f" shards: shard {lease.shard_id} is held by {lease.who()} for"
        f" {lease.expires_at - now:.0f} s more. Changing the shard count needs"
        " every process stopped first (README: 'Running at scale')."
    )


def _lease(row: Any) -> Lease:
    return Lease(
        shard_id=int(row["shard_id"]),
        shard_count=int(row["shard_count"]),
        holder=str(row["holder"]),
        host=str(row["host"]),
        pid=int(row["pid"]),
        epoch=int(row["epoch"]),
        acquired_at=float(row["acquired_at"]),
        renewed_at=float(row["renewed_at"]),
        expires_at=float(row["expires_at"]),
        released=bool(row["released"]),
    )


class LeaseStore:
    """The SQL of shard leases and of the shared IDENTIFY schedule."""

    def __init__(self, db: Database) -> None:
        self._db = db

    @staticmethod
    async def _now(conn: Conn) -> float:
        row = await conn.fetchone(_NOW[conn.dialect])
        assert row is not None
        return float(row[0])

    async def now(self) -> float:
        """The database's clock, in seconds since the epoch."""
        async with self._db._read() as conn:
            return await self._now(conn)

    async def all(self) -> list[Lease]:
        """Every lease row, by shard."""
        async with self._db._read() as conn:
            rows = await conn.fetchall(f"SELECT {_COLUMNS} FROM shard_leases ORDER BY shard_id")
        return [_lease(r) for r in rows]

    async def claim(
        self,
        me: Holder,
        shard_count: int,
        *,
        shard_ids: Sequence[int] | None,
        want: int | None = None,
        ttl: float,
        unowned_for: float = 0.0,
    ) -> dict[int, int]:
        """Claim shards; returns shard id -> epoch.

        ``shard_ids``: exactly these, or :class:`ShardsRefused` naming a live holder (all or
        nothing). ``None``: up to ``want`` shards that are free (never held, let go, run
        out, or held by a process gone from this machine), lowest first; possibly none;
        with ``unowned_for``, only shards without a live lease for that many seconds (an
        active process adopting a dead one's shards leaves standbys the first chance), and
        a lease period more for a shard that was let go.
        Either way, a live lease of another shard count refuses the claim.
        """
        async with self._db._write() as conn:
            await conn.lock_key(_LOCK)
            now = await self._now(conn)
            leases = {
                lease.shard_id: lease
                for lease in map(
                    _lease, await conn.fetchall(f"SELECT {_COLUMNS} FROM shard_leases")
                )
            }

            def taken(lease: Lease | None) -> bool:
                return (
                    lease is not None
                    and lease.holder != me.id
                    and lease.live(now)
                    and not _process_gone(lease, me)
                )

            other_count = [
                lease
                for lease in leases.values()
                if lease.shard_count != shard_count and taken(lease)
            ]
            if other_count:
                raise _count_mismatch(shard_count, other_count[0], now)
            if shard_ids is not None:
                busy = [leases[i] for i in sorted(set(shard_ids)) if taken(leases.get(i))]
                if busy:
                    lease = busy[0]
                    raise ShardsRefused(
                        f"Shard {lease.shard_id} is held by {lease.who()} (lease renewed"
                        f" {now - lease.renewed_at:.0f} s ago, ends in"
                        f" {lease.expires_at - now:.0f} s): refusing to run it twice. Stop"
                        " that process, wait for its lease to end, or use SHARD_IDS=auto."
                    )
                chosen = sorted(set(shard_ids))
            else:

                def unowned(lease: Lease | None) -> bool:
                    if lease is not None and lease.holder == me.id and lease.live(now):
                        return False  # ours already
                    if lease is None or unowned_for <= 0:
                        return not taken(lease)
                    # a shard let go (handed over, SIGTERM) is left a lease period longer
                    # for the process it was meant for
                    wait = unowned_for + (ttl if lease.released else 0.0)
                    return not taken(lease) and now - lease.expires_at >= wait

                free = [i for i in range(shard_count) if unowned(leases.get(i))]
                chosen = free if want is None else free[:want]
            # Rows of a shard count that is no longer run (a re-shard) go once nobody holds them.
            stale = [i for i, lease in leases.items() if i >= shard_count and not taken(lease)]
            for shard_id in stale:
                await conn.execute("DELETE FROM shard_leases WHERE shard_id = ?", (shard_id,))
            claimed: dict[int, int] = {}
            for shard_id in chosen:
                old = leases.get(shard_id)
                epoch = (old.epoch if old is not None else 0) + 1
                await conn.execute(
                    f"INSERT INTO shard_leases ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)"
                    " ON CONFLICT (shard_id) DO UPDATE SET shard_count = excluded.shard_count,"
                    " holder = excluded.holder, host = excluded.host, pid = excluded.pid,"
                    " epoch = excluded.epoch, acquired_at = excluded.acquired_at,"
                    " renewed_at = excluded.renewed_at, expires_at = excluded.expires_at,"
                    " released = 0",
                    (shard_id, shard_count, me.id, me.host, me.pid, epoch, now, now, now + ttl),
                )
                claimed[shard_id] = epoch
        return claimed

    async def renew(self, me: Holder, epochs: Mapping[int, int], ttl: float) -> set[int]:
        """Push the leases' expiry forward; the shards among ``epochs`` no longer ours.

        A lease that ran out but that nobody took over is still ours (its epoch is)."""
        if not epochs:
            return set()
        marks = ", ".join("?" * len(epochs))
        async with self._db._write() as conn:
            now = await self._now(conn)
            rows = await conn.fetchall(
                f"UPDATE shard_leases SET renewed_at = ?, expires_at = ?"
                f" WHERE holder = ? AND released = 0 AND shard_id IN ({marks})"
                " RETURNING shard_id, epoch",
                (now, now + ttl, me.id, *epochs),
            )
        kept = {int(r["shard_id"]) for r in rows if epochs.get(int(r["shard_id"])) == r["epoch"]}
        return set(epochs) - kept

    async def check_count(self, me: Holder, shard_count: int) -> None:
        """:class:`ShardCountMismatch` if another process runs another shard count now (a
        look before claiming anything; :meth:`claim` checks again)."""
        async with self._db._read() as conn:
            now = await self._now(conn)
            rows = await conn.fetchall(f"SELECT {_COLUMNS} FROM shard_leases")
        for lease in map(_lease, rows):
            if (
                lease.shard_count != shard_count
                and lease.holder != me.id
                and lease.live(now)
                and not _process_gone(lease, me)
            ):
                raise _count_mismatch(shard_count, lease, now)

    async def unowned(self, shard_count: int) -> dict[int, float]:
        """Shards of the cluster with no live lease: seconds since each lease ended (a
        shard never held counts from when the first lease of the cluster began)."""
        async with self._db._read() as conn:
            now = await self._now(conn)
            rows = await conn.fetchall(
                "SELECT shard_id, acquired_at, expires_at FROM shard_leases WHERE shard_count = ?",
                (shard_count,),
            )
        ended = {int(r["shard_id"]): float(r["expires_at"]) for r in rows}
        first = min((float(r["acquired_at"]) for r in rows), default=now)
        return {
            shard_id: now - ended.get(shard_id, first)
            for shard_id in range(shard_count)
            if ended.get(shard_id, first) <= now
        }

    async def wait_for_shards(self, me: Holder, shard_count: int, ttl: float) -> None:
        """Say that ``me`` waits for a shard (renewed at each look while it waits)."""
        async with self._db._write() as conn:
            now = await self._now(conn)
            await conn.execute(
                "INSERT INTO shard_waiters (holder, shard_count, host, pid, expires_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (holder) DO UPDATE SET"
                " shard_count = excluded.shard_count, expires_at = excluded.expires_at",
                (me.id, shard_count, me.host, me.pid, now + ttl),
            )
            await conn.execute("DELETE FROM shard_waiters WHERE expires_at < ?", (now - ttl,))

    async def stop_waiting(self, me: Holder) -> None:
        async with self._db._write() as conn:
            await conn.execute("DELETE FROM shard_waiters WHERE holder = ?", (me.id,))

    async def waiting(self, shard_count: int) -> int:
        """How many live processes wait for a shard of this shard count."""
        async with self._db._read() as conn:
            now = await self._now(conn)
            row = await conn.fetchone(
                "SELECT COUNT(*) FROM shard_waiters WHERE shard_count = ? AND expires_at > ?",
                (shard_count, now),
            )
        return int(row[0]) if row is not None else 0

    async def release(self, me: Holder, shard_ids: Iterable[int]) -> None:
        """Let the shards go now, so a standby takes them over without waiting."""
        ids = sorted(set(shard_ids))
        if not ids:
            return
        marks = ", ".join("?" * len(ids))
        async with self._db._write() as conn:
            now = await self._now(conn)
            await conn.execute(
                f"UPDATE shard_leases SET released = 1, expires_at = ?"
                f" WHERE holder = ? AND shard_id IN ({marks})",
                (now, me.id, *ids),
            )

    async def reserve_identify(self, shard_id: int, max_concurrency: int, window: float) -> float:
        """Book the next IDENTIFY slot of the shard's bucket; seconds to wait before sending.

        Discord lets ``max_concurrency`` sessions start per ``window`` seconds, one per
        bucket ``shard_id % max_concurrency``, across every process of the bot."""
        bucket = shard_id % max(1, max_concurrency)
        async with self._db._write() as conn:
            await conn.lock_key(f"quantum-table:identify:{max_concurrency}:{bucket}")
            now = await self._now(conn)
            row = await conn.fetchone(
                "SELECT next_at FROM identify_slots WHERE max_concurrency = ? AND bucket = ?",
                (max_concurrency, bucket),
            )
            slot = max(now, float(row["next_at"])) if row is not None else now
            await conn.execute(
                "INSERT INTO identify_slots (max_concurrency, bucket, next_at) VALUES (?, ?, ?)"
                " ON CONFLICT (max_concurrency, bucket) DO UPDATE SET next_at = excluded.next_at",
                (max_concurrency, bucket, slot + window),
            )
        return slot - now

    @staticmethod
    async def check(conn: Conn, fence: Fence, guild_id: int | None) -> None:
        """Inside a write: refuse it unless this process still holds the server's shard at
        the epoch it claimed. On PostgreSQL the lease row stays share-locked until the
        write commits, so a take-over waits for it."""
        shard_id = shard_of(guild_id, fence.shard_count)
        epoch = fence.epochs.get(shard_id)
        reason = "not held by this process"
        if epoch is not None:
            row = await conn.fetchone(
                "SELECT epoch FROM shard_leases WHERE shard_id = ? AND holder = ? AND epoch = ?"
                " AND shard_count = ? AND released = 0"
                + (" FOR SHARE" if conn.dialect == "postgresql" else ""),
                (shard_id, fence.holder, epoch, fence.shard_count),
            )
            if row is not None:
                return
            reason = f"taken over by another process (this one held epoch {epoch})"
        raise LeaseLost(shard_id, reason)  # the store tells fence.on_lost, on the event loop
