"""The cluster outlives its database: real bot processes, a real PostgreSQL stopped as
``pg_ctl -m fast stop`` stops it (for three lease periods, then twice in a row), and a
loopback Discord. No process exits, the standby stays a standby, every table goes on where
it was, every answered move is in its log once, and nobody is put on autopilot for the
time the database was away.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest_asyncio

from bot.sandbox.loopback import LoopbackDiscord
from bot.storage import Database
from tests.e2e.qdice_play import button
from tests.e2e.test_cluster import (
    CLAIMED,
    SHARDS,
    Cluster,
    fetch_json,
    holders,
    moves_on,
    open_tables,
    versions,
)
from tests.postgres import TempPostgres
from tests.support import hosted
from tests.support.hosted import GAMES, people_everywhere, servers_on_every_shard
from tests.support.processes import STANDBY_LINE
from tests.support.remote_play import load_table, person_to_act

LEASE = 3.0
AWAY = "The database is away"
BACK = "The database is back"


@pytest_asyncio.fixture(loop_scope="session")
async def outage(tmp_path: Path) -> AsyncIterator[tuple[Cluster, TempPostgres]]:
    """A cluster on a PostgreSQL server of its own, which the test stops and starts."""
    async with TempPostgres() as server:
        url = await server.create_database()
        fake = LoopbackDiscord(shards=SHARDS)
        await fake.start()
        guilds = servers_on_every_shard(fake, SHARDS)
        people = people_everywhere(fake, ("alice", "bob", "carol", "dave", "erin"))
        db = await Database.open(url)
        c = Cluster(fake, db, url, tmp_path, people, [guilds[s] for s in sorted(guilds)])
        try:
            yield c, server
        finally:
            for process in c.processes:
                await process.stop()
            await db.close()
            await fake.stop()


async def reachable(db: Database, timeout: float = 30) -> None:
    """Wait until the test's own connection pool reaches the database again."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            await db.active_games()
            return
        except Exception:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)


async def a_person_to_move(c: Cluster) -> tuple[hosted.Hosted, int]:
    """A Quantum dice table long enough to last, once its person is to move at it."""
    guild, host = c.guilds[0], next(iter(c.people.values()))
    room = c.fake.add_channel(guild, "long-qdice")
    lobby = await c.fake.slash(host, "qdice start", channel=room, options={"target": 3000})
    assert lobby.message is not None
    await c.fake.click(host, lobby.message, label="Add AI")
    await c.fake.click(host, lobby.message, label="Start")
    (record,) = [g for g in await c.db.active_games(guild_id=guild.id) if g.channel_id == room.id]
    table = hosted.Hosted(record.id, "qdice", guild, lobby.message.refresh())
    c.tables.append(table)
    for _ in range(200):
        stored = await load_table(c.db, GAMES, table.game_id)
        user = person_to_act(stored, c.people)
        if user is not None:
            return table, user.id
        await asyncio.sleep(0.1)
    raise AssertionError("nobody came to move at the Quantum dice table")


async def test_the_cluster_rides_out_database_outages(
    outage: tuple[Cluster, TempPostgres],
) -> None:
    c, server = outage
    one = c.process("one", LEASE_SECONDS=str(LEASE), METRICS_PORT="0", TURN_TIMEOUT="60")
    two = c.process("two", LEASE_SECONDS=str(LEASE), TURN_TIMEOUT="60")
    await one.start(cwd=c.folder)
    await two.start(cwd=c.folder, ready=STANDBY_LINE)
    line = await one.wait_for(r"Health and metrics at (http://\S+)", timeout=10)
    health = line.split("Health and metrics at ", 1)[1].split()[0]
    metrics = health.replace("/healthz", "/metrics")
    await open_tables(c)
    await moves_on(c)
    qdice, user_id = await a_person_to_move(c)
    before = await versions(c)

    # Away for three lease periods.
    marks = len(one.lines), len(two.lines)
    await asyncio.to_thread(server.halt)
    stopped = time.monotonic()
    await one.wait_for(AWAY, timeout=3 * LEASE, after=marks[0])
    # A move meanwhile is answered, politely, and changes nothing.
    message = qdice.message.refresh()
    die = button(message, "t0")
    if die.disabled:
        die = button(message, "t1")
    result = await c.fake.click(c.people[user_id], message, custom_id=die.custom_id)
    reply = result.message
    assert reply is not None and reply.ephemeral and "couldn't be saved" in reply.text(), reply
    status, body = await fetch_json(health)
    assert status == 503 and any("database away" in m for m in body["missing"]), body  # type: ignore[union-attr]
    await asyncio.sleep(max(0.0, stopped + 3 * LEASE - time.monotonic()))
    assert one.running and two.running, one.log_tail() + "\n" + two.log_tail()
    await asyncio.to_thread(server.resume)
    back = time.monotonic()
    await one.wait_for(BACK, timeout=30, after=marks[0])
    await reachable(c.db)
    assert await versions(c) == before  # nothing was applied while the database was away
    await moves_on(c)
    playable = time.monotonic() - back
    assert await holders(c) == {one.pid}
    status, body = await fetch_json(health)
    assert status == 200, body
    async with aiohttp.ClientSession() as http, http.get(metrics) as response:
        text = await response.text()
    assert "quantum_table_database_outages_total 1.0" in text, text[:2000]

    # Restarted twice in a row (a fail-over, a minor upgrade).
    for _ in range(2):
        await asyncio.to_thread(server.halt)
        await asyncio.sleep(LEASE / 2)
        await asyncio.to_thread(server.resume)
    await reachable(c.db)
    await moves_on(c)

    # Every game: nothing lost, nothing applied twice, nobody on autopilot.
    await moves_on(c)
    await hosted.assert_logs_replay(c.db, c.tables)
    for table in c.tables:
        stored = await c.db.load_game(table.game_id)
        assert stored is not None, table.kind
        assert not any(s.autopilot for s in stored.seats), (table.kind, stored.seats)
    assert one.running and two.running
    assert not any(CLAIMED.search(line) for line in two.lines), two.log_tail()
    assert any("Standby: " in line for line in two.lines)
    c.fake.assert_no_errors()
    for process in (one, two):
        assert not process.errors(), process.log_tail(80)
        noisy = [line for line in process.lines if "pool connection floor" in line]
        assert len(noisy) <= 3, noisy  # one line an outage at most, no tracebacks
    print(
        f"\ndatabase outage ({3 * LEASE:.0f} s): every table playable {playable:.1f} s after it returned"
    )
