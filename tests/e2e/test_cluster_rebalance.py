"""No shard is left without an owner while any process lives: real bot processes on a real
PostgreSQL and a loopback Discord, ``SHARD_IDS=auto`` with two shards each and no standby.

SIGKILL one: the survivor adopts its shards within two lease periods, restores their tables
and plays them on. A process started later gets shards handed back, one at a time, until no
process holds more than its share. Every table moves on, every log replays, nobody is
put on autopilot, and the leases never name two holders for one shard.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import Counter

from bot.storage.leases import LeaseStore
from tests.e2e.test_cluster import (
    SHARDS,
    Cluster,
    cluster,  # noqa: F401 - the fixture
    fetch_json,
    moves_on,
    open_tables,
)
from tests.support import hosted
from tests.support.processes import READY_LINE, STANDBY_LINE

LEASE = 3.0
ADOPTED = re.compile(r"Took over shard\(s\) [\d,]+ \(epochs [\d,]+\): no process held them")
HANDED = re.compile(r"Handed shard\(s\) \d+ over")


async def live_holders(c: Cluster) -> Counter[int]:
    """Live leases per holding pid."""
    store = LeaseStore(c.db)
    now = await store.now()
    return Counter(lease.pid for lease in await store.all() if lease.live(now))


async def even(c: Cluster, wanted: Counter[int]) -> None:
    """Wait until the live leases are shared as ``wanted`` (hand-overs go one a renewal)."""
    deadline = time.monotonic() + 8 * LEASE
    while (held := await live_holders(c)) != wanted:
        logs = "\n".join(f"{p.name}:\n{p.log_tail(30)}" for p in c.processes)
        assert time.monotonic() < deadline, f"{held}\n{logs}"
        await asyncio.sleep(0.2)


async def shards_of(c: Cluster, pid: int | None) -> set[int]:
    store = LeaseStore(c.db)
    now = await store.now()
    return {lease.shard_id for lease in await store.all() if lease.live(now) and lease.pid == pid}


async def test_every_shard_is_owned_while_any_process_lives(cluster: Cluster) -> None:  # noqa: F811
    c = cluster
    share = {"SHARDS_PER_PROCESS": "2", "LEASE_SECONDS": str(LEASE), "TURN_TIMEOUT": "60"}
    one = c.process("one", METRICS_PORT="0", **share)
    two = c.process("two", **share)
    await one.start(cwd=c.folder)
    await two.start(cwd=c.folder)
    # Alone at first, one adopted the shards nobody held; it hands them to two, one at a time.
    await even(c, Counter({one.pid: 2, two.pid: 2}))
    for shard_id in range(SHARDS):
        await (one if shard_id in await shards_of(c, one.pid) else two).wait_for(
            f"Shard ID {shard_id} has connected", timeout=30
        )
    await open_tables(c)
    await moves_on(c)

    # SIGKILL: no standby is running; the survivor takes the dead process's shards.
    mark, since = len(one.lines), time.monotonic()
    await two.kill()
    adopted = await one.wait_for(ADOPTED, timeout=4 * LEASE, after=mark)
    owned = time.monotonic() - since
    shards = re.search(r"shard\(s\) ([\d,]+)", adopted).group(1).split(",")  # type: ignore[union-attr]
    for shard_id in shards:  # their sessions (Discord's start limit lies between)
        await one.wait_for(f"Shard ID {shard_id} has connected", timeout=30, after=mark)
    assert owned < 2 * LEASE + 1.5, f"owned again after {owned:.1f} s (lease {LEASE:.0f} s)"
    assert any("Shard " in line and "has had no owner" in line for line in one.lines[mark:])
    assert await live_holders(c) == Counter({one.pid: SHARDS})
    await moves_on(c)
    playable = time.monotonic() - since
    line = await one.wait_for(r"Health and metrics at (http://\S+)", timeout=10)
    health = line.split("Health and metrics at ", 1)[1].split()[0]
    status, body = await fetch_json(health)
    assert status == 200 and body["leases"] == {str(i): e for i, e in body["leases"].items()}, body  # type: ignore[union-attr]
    assert sorted(body["leases"]) == [str(i) for i in range(SHARDS)], body  # type: ignore[arg-type]

    # A process started later: shards flow back until nobody holds more than their share.
    three = c.process("three", **share)
    mark, since = len(one.lines), time.monotonic()
    await three.start(cwd=c.folder, ready=STANDBY_LINE)
    handed = []
    for _ in range(2):
        line = await one.wait_for(HANDED, timeout=6 * LEASE, after=mark)
        handed.append(re.search(r"shard\(s\) (\d+)", line).group(1))  # type: ignore[union-attr]
        mark = len(one.lines)
    await three.wait_for(READY_LINE, timeout=60)
    for shard_id in handed:
        await three.wait_for(f"Shard ID {shard_id} has connected", timeout=30)
    await even(c, Counter({one.pid: 2, three.pid: 2}))
    balanced = time.monotonic() - since
    await moves_on(c)

    await moves_on(c)
    await hosted.assert_logs_replay(c.db, c.tables)
    for table in c.tables:
        stored = await c.db.load_game(table.game_id)
        assert stored is not None, table.kind
        assert not any(s.autopilot for s in stored.seats), (table.kind, stored.seats)
    c.fake.assert_no_errors()
    for process in (one, three):
        assert not process.errors(), process.log_tail(80)
    print(
        f"\nrebalance (lease {LEASE:.0f} s): every shard owned {owned:.1f} s after the kill,"
        f" every table playable after {playable:.1f} s; shares even {balanced:.1f} s after a"
        " new process started"
    )
