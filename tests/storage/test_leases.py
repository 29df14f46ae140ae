"""Shard leases and the fence on table writes, with two "processes" (two database handles)
on one SQLite file or one PostgreSQL database."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.cluster.sharding import shard_of
from bot.storage import Database
from bot.storage.leases import Fence, Holder, LeaseLost, LeaseStore, ShardsRefused

from .helpers import ai, human, new_game, result

COUNT = 4
TTL = 30.0


def guild_on(shard: int, n: int = 0) -> int:
    return ((n * COUNT + shard) << 22) | 777


def holder(name: str, pid: int = 1) -> Holder:
    return Holder(f"{name}:{pid}:t", f"host-{name}", pid)


@pytest.fixture(params=["sqlite", "postgresql"])
async def pair(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[tuple[Database, Database]]:
    """Two handles on one database, as two processes would have."""
    if request.param == "sqlite":
        target: str = str(tmp_path / "leases.db")
    else:
        target = await request.getfixturevalue("postgres").create_database()
    first = await Database.open(target)
    second = await Database.open(target)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


def fenced(db: Database, me: Holder, epochs: dict[int, int], lost: list[int] | None = None) -> None:
    db.fence = Fence(me.id, COUNT, dict(epochs))
    if lost is not None:
        db.fence.on_lost = lambda shard, reason: lost.append(shard)


async def test_a_held_shard_is_refused_with_its_holder_named(
    pair: tuple[Database, Database],
) -> None:
    a, b = pair
    alpha, beta = holder("alpha", 101), holder("beta", 202)
    assert await LeaseStore(a).claim(alpha, COUNT, shard_ids=[0, 1], ttl=TTL) == {0: 1, 1: 1}
    with pytest.raises(ShardsRefused) as refused:
        await LeaseStore(b).claim(beta, COUNT, shard_ids=[1, 2], ttl=TTL)
    message = str(refused.value)
    assert "Shard 1 is held by host-alpha pid 101" in message and "\n" not in message
    # All or nothing: shard 2 was not taken either.
    leases = {lease.shard_id: lease for lease in await LeaseStore(b).all()}
    assert set(leases) == {0, 1} and leases[1].holder == alpha.id
    # Free shards can be had beside them.
    assert await LeaseStore(b).claim(beta, COUNT, shard_ids=[2, 3], ttl=TTL) == {2: 1, 3: 1}


async def test_auto_takes_free_shards_and_a_standby_gets_none(
    pair: tuple[Database, Database],
) -> None:
    a, b = pair
    store = LeaseStore(a)
    assert await store.claim(holder("one"), COUNT, shard_ids=None, want=3, ttl=TTL) == {
        0: 1,
        1: 1,
        2: 1,
    }
    assert await LeaseStore(b).claim(holder("two"), COUNT, shard_ids=None, ttl=TTL) == {3: 1}
    assert await store.claim(holder("three"), COUNT, shard_ids=None, ttl=TTL) == {}


async def test_a_holder_looking_for_more_never_claims_its_own_shards_again(
    pair: tuple[Database, Database],
) -> None:
    a, _ = pair
    store, me = LeaseStore(a), holder("one")
    assert await store.claim(me, COUNT, shard_ids=None, want=1, ttl=TTL) == {0: 1}
    # below its share, it asks for more: the free ones, not shard 0 again at a new epoch
    assert await store.claim(me, COUNT, shard_ids=None, want=1, ttl=TTL) == {1: 1}
    assert await store.renew(me, {0: 1, 1: 1}, TTL) == set()


async def test_an_expired_lease_is_taken_over_and_the_old_holder_is_fenced(
    pair: tuple[Database, Database],
) -> None:
    a, b = pair
    old, new = holder("old", 11), holder("new", 22)
    guild = guild_on(2)
    assert await LeaseStore(a).claim(old, COUNT, shard_ids=[2], ttl=0.3) == {2: 1}
    lost: list[int] = []
    fenced(a, old, {2: 1}, lost)
    game = await new_game(a, guild_id=guild)  # the holder writes
    await a.save_progress(game.id, version=1, expected_version=0, state_json="{}", actions=[])

    await asyncio.sleep(0.5)  # the old holder stalls past its lease
    assert await LeaseStore(b).claim(new, COUNT, shard_ids=None, ttl=TTL) == {
        0: 1,
        1: 1,
        2: 2,
        3: 1,
    }
    fenced(b, new, {0: 1, 1: 1, 2: 2, 3: 1})

    # Every kind of table write from the old holder is refused, and it is told at once.
    with pytest.raises(LeaseLost):
        await a.save_progress(game.id, version=2, expected_version=1, state_json="{}", actions=[])
    with pytest.raises(LeaseLost):
        await a.update_game(game.id, deadline_at=1.0)
    with pytest.raises(LeaseLost):
        await a.update_game(game.id, seats=[human(0, 1), ai(1)])
    with pytest.raises(LeaseLost):
        await a.cancel_game(game.id)
    with pytest.raises(LeaseLost):
        await new_game(a, guild_id=guild)
    with pytest.raises(LeaseLost):
        await a.finish_game(
            game.id,
            guild_id=guild,
            game="qdice",
            results=[result(human(0, 1), 1), result(ai(1), 2)],
        )
    assert lost and set(lost) == {2}
    stored = await b.load_game(game.id)
    assert stored is not None and stored.version == 1 and stored.status == "lobby"
    assert stored.deadline_at is None
    # Its renewal reports the shard gone; the new holder's renewal keeps it.
    assert await LeaseStore(a).renew(old, {2: 1}, TTL) == {2}
    assert await LeaseStore(b).renew(new, {2: 2}, TTL) == set()
    # The new holder writes on.
    await b.save_progress(game.id, version=2, expected_version=1, state_json="{}", actions=[])


async def test_a_lapsed_lease_nobody_took_is_renewed(pair: tuple[Database, Database]) -> None:
    a, _ = pair
    me = holder("sleepy")
    await LeaseStore(a).claim(me, COUNT, shard_ids=[0], ttl=0.2)
    await asyncio.sleep(0.3)
    assert await LeaseStore(a).renew(me, {0: 1}, TTL) == set()
    (lease,) = await LeaseStore(a).all()
    assert lease.epoch == 1 and lease.live(await LeaseStore(a).now())


async def test_a_released_shard_is_free_at_once_and_writes_stop(
    pair: tuple[Database, Database],
) -> None:
    a, b = pair
    leaving, standby = holder("leaving"), holder("standby")
    await LeaseStore(a).claim(leaving, COUNT, shard_ids=[0, 1, 2, 3], ttl=TTL)
    fenced(a, leaving, {0: 1, 1: 1, 2: 1, 3: 1})
    game = await new_game(a, guild_id=guild_on(0))
    assert await LeaseStore(b).claim(standby, COUNT, shard_ids=None, ttl=TTL) == {}
    await LeaseStore(a).release(leaving, [0, 1, 2, 3])
    with pytest.raises(LeaseLost):
        await a.update_game(game.id, message_id=5)
    assert await LeaseStore(b).claim(standby, COUNT, shard_ids=None, ttl=TTL) == {
        0: 2,
        1: 2,
        2: 2,
        3: 2,
    }


async def test_another_shard_count_is_refused_while_the_old_one_is_live(
    pair: tuple[Database, Database],
) -> None:
    a, b = pair
    eight = holder("eight")
    await LeaseStore(a).claim(eight, 8, shard_ids=[6], ttl=TTL)
    with pytest.raises(ShardsRefused) as refused:
        await LeaseStore(b).claim(holder("four"), 4, shard_ids=None, ttl=TTL)
    assert "SHARD_COUNT is 4, but the cluster runs 8 shards" in str(refused.value)
    await LeaseStore(a).release(eight, [6])
    # Once nothing of the old count is live, the new count starts afresh; the row of a
    # shard beyond the new count goes.
    assert await LeaseStore(b).claim(holder("four"), 4, shard_ids=None, ttl=TTL) == {
        0: 1,
        1: 1,
        2: 1,
        3: 1,
    }
    assert [lease.shard_id for lease in await LeaseStore(b).all()] == [0, 1, 2, 3]


async def test_a_lease_of_a_process_gone_from_this_machine_is_taken_at_once(
    pair: tuple[Database, Database],
) -> None:
    a, b = pair
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", "import os; print(os.getpid())", stdout=asyncio.subprocess.PIPE
    )
    out, _ = await child.communicate()
    dead_pid = int(out)
    here = Holder.here()
    crashed = Holder(f"{here.host}:{dead_pid}:x", here.host, dead_pid)
    await LeaseStore(a).claim(crashed, COUNT, shard_ids=[0], ttl=TTL)
    assert await LeaseStore(b).claim(here, COUNT, shard_ids=[0], ttl=TTL) == {0: 2}
    # A live process elsewhere (or here) is not second-guessed.
    alive = Holder(f"{here.host}:1:y", here.host, 1)  # pid 1 always exists
    await LeaseStore(a).claim(alive, COUNT, shard_ids=[1], ttl=TTL)
    with pytest.raises(ShardsRefused):
        await LeaseStore(b).claim(Holder.here(), COUNT, shard_ids=[1], ttl=TTL)
    # An active process adopting unowned shards waits until the lease is long over ...
    await LeaseStore(a).claim(crashed, COUNT, shard_ids=[2], ttl=TTL)
    adopted = await LeaseStore(b).claim(
        Holder.here(), COUNT, shard_ids=None, ttl=TTL, unowned_for=TTL
    )
    assert 2 not in adopted
    # ... while a standby (SHARD_IDS=auto) takes it at once, though it has not run out.
    assert 2 in await LeaseStore(b).claim(Holder.here(), COUNT, shard_ids=None, ttl=TTL)


async def test_identify_slots_are_shared_per_bucket(pair: tuple[Database, Database]) -> None:
    a, b = pair
    window = 5.0
    first = await LeaseStore(a).reserve_identify(0, 2, window)
    second = await LeaseStore(b).reserve_identify(2, 2, window)  # same bucket (0), other process
    other = await LeaseStore(b).reserve_identify(1, 2, window)  # bucket 1: at once
    third = await LeaseStore(a).reserve_identify(4, 2, window)
    assert first == pytest.approx(0, abs=0.2) and other == pytest.approx(0, abs=0.2)
    assert second == pytest.approx(window, abs=0.3)
    assert third == pytest.approx(2 * window, abs=0.3)


async def test_a_takeover_waits_for_a_write_in_flight(postgres) -> None:  # type: ignore[no-untyped-def]
    """On PostgreSQL the fence share-locks the lease row: a take-over cannot slip between
    a write's check and its commit."""
    url = await postgres.create_database()
    async with Database.open(url) as a, Database.open(url) as b:
        old, new = holder("old"), holder("new")
        await LeaseStore(a).claim(old, COUNT, shard_ids=[0], ttl=0.2)
        fenced(a, old, {0: 1})
        game = await new_game(a, guild_id=guild_on(0))
        await asyncio.sleep(0.3)  # lapsed, so a standby may take it
        checked, finish = asyncio.Event(), asyncio.Event()

        async def slow_write() -> None:
            async with a._write() as conn:
                assert a.fence is not None
                await LeaseStore.check(conn, a.fence, guild_on(0))
                await conn.execute("UPDATE games SET message_id = 99 WHERE id = ?", (game.id,))
                checked.set()
                await finish.wait()

        writer = asyncio.create_task(slow_write())
        await checked.wait()
        takeover = asyncio.create_task(LeaseStore(b).claim(new, COUNT, shard_ids=[0], ttl=TTL))
        await asyncio.sleep(0.5)
        assert not takeover.done(), "the take-over went ahead of a write in flight"
        finish.set()
        await writer
        assert await takeover == {0: 2}
        stored = await b.load_game(game.id)
        assert stored is not None and stored.message_id == 99
        with pytest.raises(LeaseLost):
            await a.update_game(game.id, message_id=100)


def test_shard_of_matches_the_fence() -> None:
    assert shard_of(guild_on(3, 5), COUNT) == 3


async def test_a_standby_stopped_while_its_claim_is_in_flight_keeps_nothing(
    tmp_path: Path,
) -> None:
    """SIGTERM reaches a standby while it claims a shard just let go: it must not go on to
    connect the shard (its database and session are closing), and the shard stays free."""
    from bot.cluster.keeper import LeaseKeeper

    class StoppedMeanwhile(LeaseStore):
        async def claim(self, *args: object, **kwargs: object) -> dict[int, int]:
            claimed = await super().claim(*args, **kwargs)  # type: ignore[arg-type]
            keeper.stop()  # the signal arrives while the claim commits
            return claimed

    async with Database.open(tmp_path / "leases.db") as db:
        keeper = LeaseKeeper(
            StoppedMeanwhile(db), shard_count=COUNT, shard_ids=None, ttl=TTL, holder=holder("a")
        )
        assert await keeper.acquire(wait=True) == {}
        assert keeper.shard_ids == []
        leases = await LeaseStore(db).all()
        now = await LeaseStore(db).now()
        assert leases and not any(lease.live(now) for lease in leases)
