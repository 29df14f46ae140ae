"""The lease keeper: a standby that takes over, a holder that notices it lost its shards (by
its renewal, by a refused write, or by not reaching the database in time), and the local
clock that keeps a woken process quiet until a renewal says the shards are still its own."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.cluster.keeper import LeaseKeeper
from bot.storage import Database
from bot.storage.leases import Holder, LeaseLost, LeaseStore
from tests.storage.helpers import new_game

COUNT = 2


@pytest.fixture
async def two(tmp_path: Path) -> AsyncIterator[tuple[Database, Database]]:
    a = await Database.open(tmp_path / "keeper.db")
    b = await Database.open(tmp_path / "keeper.db")
    try:
        yield a, b
    finally:
        await a.close()
        await b.close()


class Losses:
    def __init__(self) -> None:
        self.seen: list[tuple[set[int], str]] = []
        self.event = asyncio.Event()

    async def __call__(self, shards: set[int], reason: str) -> None:
        self.seen.append((shards, reason))
        self.event.set()


def keeper(db: Database, name: str, ttl: float, **kwargs: object) -> LeaseKeeper:
    return LeaseKeeper(
        LeaseStore(db),
        shard_count=COUNT,
        shard_ids=None,
        ttl=ttl,
        holder=Holder(f"{name}:1:x", f"host-{name}", 1),
        **kwargs,  # type: ignore[arg-type]
    )


async def test_a_standby_takes_over_and_the_old_holder_notices(
    two: tuple[Database, Database],
) -> None:
    a, b = two
    active, standby = keeper(a, "active", 0.6), keeper(b, "standby", 0.6)
    assert await active.acquire(wait=True) == {0: 1, 1: 1}
    lost = Losses()
    active.start(lost)
    waiting = asyncio.create_task(standby.acquire(wait=True, poll=0.05))
    await asyncio.sleep(0.5)
    assert not waiting.done() and standby.standby  # renewed leases are not taken
    active.stop()  # the active process stops renewing (a pause, a hang)
    assert await asyncio.wait_for(waiting, 5) == {0: 2, 1: 2}
    assert not standby.standby
    assert active.valid(0) is False  # its local clock already says so
    await active.renew_once()
    await asyncio.wait_for(lost.event.wait(), 2)
    assert lost.seen == [({0, 1}, "another process took the shard over")]
    assert active.shard_ids == [] and standby.shard_ids == [0, 1]


async def test_a_refused_write_is_noticed_at_once(two: tuple[Database, Database]) -> None:
    a, b = two
    active, standby = keeper(a, "active", 0.3), keeper(b, "standby", 30)
    await active.acquire(wait=False)
    lost = Losses()
    active.start(lost)
    active.stop()
    a.fence = active.fence
    guild = (0 << 22) | 5
    await asyncio.sleep(0.4)
    assert await standby.acquire(wait=False) == {0: 2, 1: 2}
    with pytest.raises(LeaseLost):
        await new_game(a, guild_id=guild)
    await asyncio.wait_for(lost.event.wait(), 2)  # no renewal ran: the write told it
    assert lost.seen[0][0] == {0} and "a write was refused" in lost.seen[0][1]


async def test_a_holder_cut_off_from_the_database_keeps_its_shards_and_acts_for_none(
    two: tuple[Database, Database],
) -> None:
    """Nobody can take a shard over while nobody reaches the leases: a database that is
    away is ridden out, not taken for a lost lease."""
    a, _ = two
    now = [100.0]
    active = keeper(a, "active", 10.0, clock=lambda: now[0])
    await active.acquire(wait=False)
    lost, back = Losses(), []
    outages: list[int] = []
    active.on_outage = lambda: outages.append(1)

    async def returned(away: float) -> None:
        back.append(away)

    active.start(lost, returned)
    active.stop()
    renew = active.store.renew

    async def unreachable(*args: object) -> set[int]:
        raise OSError("connection refused")

    active.store.renew = unreachable  # type: ignore[method-assign]
    now[0] += 5  # within the lease: keep trying, keep acting
    await active.renew_once()
    assert active.valid(0) and not active.database_away and not lost.seen
    now[0] += 5  # past what the last renewal guaranteed
    assert not active.valid(0)  # quiet at once, before any renewal
    for _ in range(3):  # away for three lease periods
        await active.renew_once()
        now[0] += 10
    assert active.database_away and outages == [1]
    assert active.riding_out(0) and active.riding_out(1) and not active.valid(0)
    assert active.shard_ids == [0, 1] and not lost.seen
    active.store.renew = renew  # type: ignore[method-assign]
    await active.renew_once()  # back: nobody claimed the leases, so they are still ours
    await asyncio.sleep(0)
    assert active.valid(0) and not active.database_away and not active.riding_out(0)
    assert active.epochs == {0: 1, 1: 1} and not lost.seen
    assert back == [pytest.approx(30.0)]


async def test_after_an_outage_a_standby_leaves_the_holders_a_lease_period_to_renew(
    two: tuple[Database, Database],
) -> None:
    a, b = two
    now = [0.0]
    active = keeper(a, "active", 4.0, clock=lambda: now[0])
    standby = keeper(b, "standby", 4.0, clock=lambda: now[0])
    await active.acquire(wait=False)
    claim, clock = standby.store.claim, standby.store.now
    calls = [0]

    async def unreachable(*args: object, **kwargs: object) -> dict[int, int]:
        calls[0] += 1
        if calls[0] >= 3:  # back: the next call reaches it
            standby.store.claim = claim  # type: ignore[method-assign]
            standby.store.now = clock  # type: ignore[method-assign]
        raise OSError("connection refused")

    standby.store.claim = unreachable  # type: ignore[method-assign]
    standby.store.now = unreachable  # type: ignore[method-assign,assignment]
    now[0] += 30  # the leases ran out while the database was away
    waiting = asyncio.create_task(standby.acquire(wait=True, poll=0.01))
    await asyncio.sleep(3)  # the claims fail (backoff), then the database is back
    assert calls[0] >= 3 and not waiting.done() and not standby.database_away
    await active.renew_once()  # the holder renews within the standby's grace
    assert active.valid(0) and active.epochs == {0: 1, 1: 1}
    now[0] += 5  # grace over; the leases are live: the standby keeps waiting
    await asyncio.sleep(0.1)
    assert not waiting.done() and standby.standby
    standby.stop()
    assert await asyncio.wait_for(waiting, 2) == {}


async def test_a_woken_process_is_quiet_until_a_renewal_confirms(
    two: tuple[Database, Database],
) -> None:
    a, _ = two
    now = [0.0]
    active = keeper(a, "active", 3.0, clock=lambda: now[0])
    await active.acquire(wait=False)
    assert active.valid(0)
    now[0] += 60  # SIGSTOP for a minute, nobody took the shards
    assert not active.valid(0)
    await active.renew_once()  # the lease ran out, but it is still ours: renewed
    assert active.valid(0) and active.epochs == {0: 1, 1: 1}


async def test_release_lets_a_standby_in_at_once(two: tuple[Database, Database]) -> None:
    a, b = two
    active, standby = keeper(a, "active", 60), keeper(b, "standby", 60)
    await active.acquire(wait=False)
    active.start(Losses())
    await active.release()
    assert active.shard_ids == [] and not active.valid(0)
    assert await standby.acquire(wait=False) == {0: 2, 1: 2}
