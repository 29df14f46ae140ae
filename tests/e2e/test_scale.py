"""Scale out, end to end: two real bot processes split four shards of one loopback Discord
and share one PostgreSQL. Games of all five kinds run in servers on every shard; one process
is killed with SIGKILL mid-game and started again. Its games go on from where they were, the
other process's games never stall, no move is applied twice (each game's seed and action log
rebuild its stored state exactly), and every leaderboard equals the sum of the finished games.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest_asyncio

from bot.sandbox.loopback import Guild, LoopbackDiscord, User
from bot.storage import Database
from tests.support import hosted
from tests.support.hosted import (
    GAMES,
    TABLES,
    Hosted,
    open_table,
    people_everywhere,
    servers_on_every_shard,
)
from tests.support.processes import BotProcess
from tests.support.remote_play import play_one

SHARDS = 4
SPLIT = {"low": "0,1", "high": "2,3"}


@dataclass
class Cluster:
    fake: LoopbackDiscord
    db: Database
    processes: dict[str, BotProcess]
    people: dict[int, User]
    guilds: dict[int, Guild]  # shard -> a server on it
    tables: list[Hosted] = field(default_factory=list)

    def owner(self, table: Hosted) -> str:
        return "low" if table.shard(SHARDS) in (0, 1) else "high"


@pytest_asyncio.fixture(loop_scope="session")
async def cluster(postgres, tmp_path: Path) -> AsyncIterator[Cluster]:  # type: ignore[no-untyped-def]
    url = await postgres.create_database()
    fake = LoopbackDiscord(shards=SHARDS)
    await fake.start()
    guilds = servers_on_every_shard(fake, SHARDS)
    people = people_everywhere(fake, ("alice", "bob", "carol", "dave", "erin"))
    db = await Database.open(url)
    processes = {
        name: BotProcess(
            f"bot-{name}",
            fake.url,
            fake.token,
            {
                "DATABASE_URL": url,
                "DATABASE_PATH": str(tmp_path / f"{name}.db"),
                "SHARD_COUNT": str(SHARDS),
                "SHARD_IDS": ids,
            },
        )
        for name, ids in SPLIT.items()
    }
    cluster = Cluster(fake, db, processes, people, guilds)
    try:
        await asyncio.gather(*(p.start(cwd=tmp_path) for p in processes.values()))
        yield cluster
    finally:
        for process in processes.values():
            await process.stop()
        await db.close()
        await fake.stop()


async def open_tables(c: Cluster) -> None:
    """Five tables, one of each game, in a server on every shard; each has one person."""
    hosts = list(c.people.values())
    for shard, guild in sorted(c.guilds.items()):
        for i, (kind, _, _) in enumerate(TABLES):
            host = hosts[(shard + i) % len(hosts)]
            c.tables.append(await open_table(c.fake, c.db, guild, host, kind, f"{kind}-{shard}"))


async def play_round(c: Cluster, *, skip: str | None = None) -> int:
    """Every person whose move it is makes one decision (tables of ``skip`` are left alone)."""
    made = 0
    for table in c.tables:
        if c.owner(table) == skip:
            continue
        if await play_one(c.fake, c.db, GAMES, table.game_id, table.message, c.people):
            made += 1
    return made


async def versions(c: Cluster) -> dict[int, int]:
    return await hosted.versions(c.db, c.tables)


async def test_two_processes_survive_a_sigkill(cluster: Cluster) -> None:
    c = cluster
    await open_tables(c)
    assert {t.shard(SHARDS) for t in c.tables} == set(range(SHARDS))
    for _ in range(3):
        await play_round(c)
    before_kill = await versions(c)

    # A hard kill of one process, in the middle of its games (AI seats mid-move included).
    await c.processes["low"].kill()
    killed_at = await versions(c)
    assert all(killed_at[g] >= before_kill[g] for g in killed_at)
    for _ in range(3):
        await play_round(c, skip="low")
    during = await versions(c)
    for table in c.tables:
        if c.owner(table) != "high":
            continue
        record = await c.db.load_game(table.game_id)
        assert record is not None
        moved = during[table.game_id] > killed_at[table.game_id]
        assert moved or record.status != "active", (
            f"game {table.game_id} stalled while the other process was down"
        )

    # The low shards' games waited where they were: nothing moved them while their host was down.
    for table in c.tables:
        if c.owner(table) == "low":
            assert during[table.game_id] == killed_at[table.game_id]

    await c.processes["low"].start(cwd=Path(c.processes["low"].env["DATABASE_PATH"]).parent)
    live: list[Hosted] = list(c.tables)
    for _ in range(400):
        live = [t for t in live if (await c.db.load_game(t.game_id)).status == "active"]  # type: ignore[union-attr]
        if not live:
            break
        if not await play_round(c):
            await asyncio.sleep(0.2)  # AI seats are moving
    assert not live, f"games never finished: {[(t.kind, t.shard) for t in live]}"
    after = await versions(c)
    for table in c.tables:
        if c.owner(table) == "low":
            assert after[table.game_id] >= killed_at[table.game_id]

    await hosted.assert_logs_replay(c.db, c.tables)
    done = await hosted.stored(c.db, c.tables)
    assert any(r.status == "finished" for r in done.values()), "no game finished"

    # Every leaderboard equals the sum of its finished games.
    expected: dict[tuple[int, str, int], list[float]] = defaultdict(lambda: [0, 0, 0.0])
    for table in c.tables:
        for result in await c.db.results(table.game_id):
            if result.is_ai or result.user_id is None:
                continue
            row = expected[(table.guild.id, table.kind, result.user_id)]
            row[0] += 1
            row[1] += int(result.won)
            row[2] += result.score
    boards: dict[tuple[int, str, int], list[float]] = {}
    for guild in c.guilds.values():
        for kind, _, _ in TABLES:
            rows, _total = await c.db.leaderboard(guild.id, kind, limit=100)
            for r in rows:
                boards[(guild.id, kind, r.user_id)] = [r.games, r.wins, r.points]
    assert boards == {k: v for k, v in expected.items()}

    for process in c.processes.values():
        assert not process.errors(), process.log_tail()
    assert c.processes["low"].starts == 2
