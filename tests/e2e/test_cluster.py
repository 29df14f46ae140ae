"""A cluster left to run itself: real bot processes on one PostgreSQL and one loopback
Discord, with shard leases. Real signals only (SIGTERM, SIGSTOP/SIGCONT, SIGKILL).

One story, in the order an operator meets it:

1. ``SHARD_IDS=auto`` takes every shard; a second process waits as a standby.
2. A process started for a shard that is held, or with another ``SHARD_COUNT``, is refused
   with one line and writes nothing.
3. SIGTERM: the active process saves, releases its leases and the standby carries on.
4. SIGSTOP past the lease: the standby takes over; after SIGCONT the paused process writes
   nothing, answers nothing, lets its tables go and becomes a standby itself; nobody who
   was playing is put on autopilot.
5. SIGKILL of the active process: the standby takes over and every game of all five kinds
   plays to its end. Every game's log replays exactly to its stored state.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import pytest_asyncio

from bot.sandbox.loopback import Guild, LoopbackDiscord, User
from bot.storage import Database
from bot.storage.leases import LeaseStore
from tests.support import hosted
from tests.support.cluster_start import start_cluster
from tests.support.hosted import (
    GAMES,
    TABLES,
    Hosted,
    open_table,
    people_everywhere,
    servers_on_every_shard,
)
from tests.support.processes import READY_LINE, STANDBY_LINE, BotProcess
from tests.support.remote_play import play_one

SHARDS = 4
LEASE = 6.0
CLAIMED = re.compile(r"Standby over: took shard\(s\)")
TAKEN_OVER = re.compile(r"Lost shard\(s\) [\d,]+: another process took the shard over")


@dataclass
class Cluster:
    fake: LoopbackDiscord
    db: Database
    url: str
    folder: Path
    people: dict[int, User]
    guilds: list[Guild]
    tables: list[Hosted] = field(default_factory=list)
    processes: list[BotProcess] = field(default_factory=list)

    def process(self, name: str, **settings: str) -> BotProcess:
        env = {
            "DATABASE_URL": self.url,
            "DATABASE_PATH": str(self.folder / f"{name}.db"),
            "SHARD_COUNT": str(SHARDS),
            "SHARD_IDS": "auto",
            "LEASE_SECONDS": str(LEASE),
            "TURN_TIMEOUT": "30",
            "AI_WORKERS": "1",
        }
        env.update(settings)
        process = BotProcess(f"bot-{name}", self.fake.url, self.fake.token, env)
        self.processes.append(process)
        return process


@pytest_asyncio.fixture(loop_scope="session")
async def cluster(postgres, tmp_path: Path) -> AsyncIterator[Cluster]:  # type: ignore[no-untyped-def]
    url = await postgres.create_database()
    fake = LoopbackDiscord(shards=SHARDS)
    await fake.start()
    guilds = servers_on_every_shard(fake, SHARDS)
    people = people_everywhere(fake, ("alice", "bob", "carol", "dave", "erin"))
    db = await Database.open(url)
    c = Cluster(fake, db, url, tmp_path, people, [guilds[s] for s in sorted(guilds)])
    try:
        yield c
    finally:
        for process in c.processes:
            if process.running:
                process.resume()
            await process.stop()
        await db.close()
        await fake.stop()


async def open_tables(c: Cluster) -> None:
    """One table of each game, spread over the shards' servers; one person each."""
    hosts = list(c.people.values())
    for i, (kind, _, _) in enumerate(TABLES):
        guild, host = c.guilds[i % SHARDS], hosts[i % len(hosts)]
        c.tables.append(await open_table(c.fake, c.db, guild, host, kind, f"{kind}-table"))


async def play_round(c: Cluster) -> int:
    made = 0
    for table in c.tables:
        if await play_one(c.fake, c.db, GAMES, table.game_id, table.message, c.people):
            made += 1
    return made


async def versions(c: Cluster) -> dict[int, int]:
    return await hosted.versions(c.db, c.tables)


async def holders(c: Cluster) -> set[int]:
    """The pids holding a live lease."""
    store = LeaseStore(c.db)
    now = await store.now()
    return {lease.pid for lease in await store.all() if lease.live(now)}


async def owners(c: Cluster) -> list[tuple[int, int, str, int]]:
    """Each lease's shard, count, holder and epoch (what a refused process must not touch)."""
    return [(x.shard_id, x.shard_count, x.holder, x.epoch) for x in await LeaseStore(c.db).all()]


async def fetch_json(url: str) -> tuple[int, dict[str, object]]:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, await response.json()


async def took_over(standby: BotProcess, mark: int, since: float) -> tuple[float, float]:
    """Seconds from ``since`` until ``standby`` claimed the shards, and until it had
    connected them and restored their tables (Discord's IDENTIFY limit lies between)."""
    await standby.wait_for(CLAIMED, timeout=60, after=mark)
    claimed = time.monotonic() - since
    await standby.wait_for(READY_LINE, timeout=90, after=mark)
    return claimed, time.monotonic() - since


async def moves_on(c: Cluster, rounds: int = 2) -> None:
    """Every live table moves on under the current holder (people play, AIs answer)."""
    before = await versions(c)
    for _ in range(rounds):
        await play_round(c)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        after = await versions(c)
        stuck = []
        for table in c.tables:
            record = await c.db.load_game(table.game_id)
            assert record is not None
            if record.status == "active" and after[table.game_id] <= before[table.game_id]:
                stuck.append(table.kind)
        if not stuck:
            return
        await play_round(c)
        await asyncio.sleep(0.2)
    raise AssertionError(f"tables did not move on: {stuck}")


async def test_leases_refusals_and_failover(cluster: Cluster) -> None:
    c = cluster
    one, two = c.process("one"), c.process("two", METRICS_PORT="0")
    await one.start(cwd=c.folder)
    await two.start(cwd=c.folder, ready=STANDBY_LINE)
    assert await holders(c) == {one.pid}
    line = await two.wait_for(r"Health and metrics at (http://\S+)", timeout=10)
    health = line.split("Health and metrics at ", 1)[1].split()[0]  # .../healthz
    status, body = await fetch_json(health)
    assert status == 503 and body["standby"] is True and body["leases"] == {}, body
    await open_tables(c)
    await moves_on(c)

    # Refusals: a held shard, another shard count. One line each; nothing written.
    before = await versions(c)
    leases_before = await owners(c)
    twin = c.process("twin", SHARD_IDS="1,2", METRICS_PORT="0")
    await twin.spawn(cwd=c.folder)
    assert await twin.exit_code() == 2
    assert any(re.search(r"Shard 1 is held by \S+ pid \d+", line) for line in twin.lines), (
        twin.log_tail()
    )
    resharded = c.process("resharded", SHARD_COUNT="8", METRICS_PORT="0")
    await resharded.spawn(cwd=c.folder)
    assert await resharded.exit_code() == 2
    assert any(
        "SHARD_COUNT is 8, but the cluster runs 4 shards" in line for line in resharded.lines
    )
    for refused in (twin, resharded):
        assert not any("Traceback" in line for line in refused.lines), refused.log_tail()
        # refused before logging in to Discord or opening a port
        assert not any("logging in" in line for line in refused.lines), refused.log_tail()
        assert not any("Health and metrics" in line for line in refused.lines)
    assert await owners(c) == leases_before
    assert await versions(c) == before

    # SIGTERM: a rolling restart hands over in seconds.
    mark, since = len(two.lines), time.monotonic()
    assert await one.stop() == 0
    handover = await took_over(two, mark, since)
    assert any("Released shard(s) 0,1,2,3" in line for line in one.lines), one.log_tail()
    # Its last renewal was at most a third of a lease before SIGTERM: without the release the
    # standby could not have claimed the shards before two thirds of a lease had passed.
    assert handover[0] < LEASE * 2 / 3 - 0.5, f"SIGTERM: shards claimed after {handover[0]:.1f} s"
    assert await holders(c) == {two.pid}
    status, body = await fetch_json(health)
    assert status == 200 and body["standby"] is False, body
    assert body["leases"] == {str(i): 2 for i in range(SHARDS)}, body
    await moves_on(c)

    # SIGSTOP past the lease: the standby takes over; the paused one, woken, writes nothing.
    await one.start(cwd=c.folder, ready=STANDBY_LINE)
    mark, since = len(one.lines), time.monotonic()
    two.pause()
    paused_takeover = await took_over(one, mark, since)
    assert paused_takeover[0] >= LEASE * 0.5, "taken over before the lease could have ended"
    await moves_on(c, rounds=3)
    await asyncio.sleep(LEASE)  # the paused process's turn timers and AI moves fall due meanwhile
    woken = len(two.lines)
    two.resume()
    await two.wait_for(TAKEN_OVER, timeout=30, after=woken)
    await two.wait_for(STANDBY_LINE, timeout=30, after=woken)
    # Discord gave the woken process the clicks of its old shards too: it let them be.
    ignored = [line for line in two.lines[woken:] if "Ignored an interaction" in line]
    assert ignored, "the woken process heard no click (the check proves nothing)"
    assert await holders(c) == {one.pid}
    await moves_on(c)

    # SIGKILL of the active process: the standby (the one that was paused) takes over.
    mark, since = len(two.lines), time.monotonic()
    await one.kill()
    killed_takeover = await took_over(two, mark, since)
    live = list(c.tables)
    for _ in range(400):
        live = [t for t in live if (await c.db.load_game(t.game_id)).status == "active"]  # type: ignore[union-attr]
        if not live:
            break
        if not await play_round(c):
            await asyncio.sleep(0.2)
    assert not live, f"games never finished: {[t.kind for t in live]}"

    # Every log is gap-free and replays to the stored state; nobody was put on autopilot.
    await hosted.assert_logs_replay(c.db, c.tables)
    for table in c.tables:
        stored = await c.db.load_game(table.game_id)
        assert stored is not None and stored.status == "finished", table.kind
        assert not any(s.autopilot for s in stored.seats), (table.kind, stored.seats)
    c.fake.assert_no_errors()
    assert c.fake.gateway.rate_limited_identifies == 0  # IDENTIFYs booked across processes
    for process in (one, two):
        assert not process.errors(), process.log_tail()
    print(
        "\ntake-over (shards claimed, tables restored):"
        f" SIGTERM {handover[0]:.1f} / {handover[1]:.1f} s,"
        f" SIGSTOP {paused_takeover[0]:.1f} / {paused_takeover[1]:.1f} s (lease {LEASE:.0f} s),"
        f" SIGKILL {killed_takeover[0]:.1f} / {killed_takeover[1]:.1f} s"
    )


async def test_processes_starting_together_respect_discords_identify_limit(
    postgres,  # type: ignore[no-untyped-def]
    tmp_path: Path,
) -> None:
    """Two processes, eight shards, four IDENTIFY buckets: the processes book their
    IDENTIFYs in the shared database, so Discord refuses none, and shards of different
    buckets start together (two rounds of four, not eight one after another)."""
    url = await postgres.create_database()
    result = await start_cluster(url, tmp_path, processes=2, shards=8, max_concurrency=4)
    assert result.rate_limited == 0 and result.invalid_sessions == 0, result
    # Two rounds (5.25 s apart), far from the eight rounds one bucket would need.
    assert result.seconds < 4 * 5.25, result
