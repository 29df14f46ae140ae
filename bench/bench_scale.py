"""Scale-out benchmark: the same load on one process with SQLite and on two processes (one
shard each) sharing PostgreSQL, side by side in one run.

Run: ``.venv/bin/python bench/bench_scale.py [--steps 100,500,1000,2000] [--clicks 200]``.
Prints figures; never fails on time. Needs PostgreSQL's server binaries (Debian's
``postgresql`` package), which it starts itself on 127.0.0.1 from a temporary directory.

For each setup the bots are real subprocesses (``python -m bot``) against one loopback
Discord that recommends two shards. Quantum dice games (two people each) are opened through
the loopback up to each step; at each step people click a die on random tables (the person
whose move it is), interleaved with a no-op command (``/about``), and we time each click from
sending it to its answer: p50, p95 and p99, with the games in progress on each process.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import percentile
from bot.sandbox.loopback import Channel, Guild, LoopbackDiscord, Message, User
from tests.postgres import TempPostgres
from tests.support.processes import BotProcess

SHARDS = 2
SERVERS_PER_SHARD = 2


def figures(values: list[float]) -> str:
    return " ".join(
        f"{name} {percentile(values, q) * 1000:7.1f}"
        for name, q in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99))
    )


@dataclass
class Load:
    fake: LoopbackDiscord
    alice: User
    bob: User
    guilds: list[Guild]
    tables: list[tuple[Guild, Channel, Message]] = field(default_factory=list)

    def person(self, name: str) -> User:
        return self.alice if name == "alice" else self.bob


def servers(fake: LoopbackDiscord) -> list[Guild]:
    """``SERVERS_PER_SHARD`` servers on each shard."""
    found: dict[int, list[Guild]] = {s: [] for s in range(SHARDS)}
    while any(len(v) < SERVERS_PER_SHARD for v in found.values()):
        guild = fake.add_guild(f"Bench {len(fake.world.guilds) + 1}")
        shard = (guild.id >> 22) % SHARDS
        if len(found[shard]) < SERVERS_PER_SHARD:
            found[shard].append(guild)
        time.sleep(0.001)
    return [g for gs in found.values() for g in gs]


async def open_game(load: Load, index: int) -> None:
    guild = load.guilds[index % len(load.guilds)]
    room = load.fake.add_channel(guild, f"bench-{index}")
    lobby = (await load.fake.slash(load.alice, "qdice start", channel=room, wait=False)).message
    assert lobby is not None, "no lobby"
    for _ in range(500):  # acknowledged first in a burst, the lobby comes a moment later
        if not lobby.refresh().loading:
            break
        await asyncio.sleep(0.02)
    await load.fake.click(load.bob, lobby, label="Join", wait=False)
    await load.fake.click(load.alice, lobby, label="Start", wait=False)
    load.tables.append((guild, room, lobby))


async def grow_to(load: Load, games: int, batch: int = 16) -> None:
    while len(load.tables) < games:
        start = len(load.tables)
        await asyncio.gather(
            *(open_game(load, start + i) for i in range(min(batch, games - start)))
        )
    await load.fake.wait_idle(timeout=120)


def to_act(message: Message) -> str | None:
    footer = (message.embeds[0].get("footer") or {}).get("text", "") if message.embeds else ""
    return footer.removeprefix("To act: ").strip() or None


async def click_once(load: Load, table: tuple[Guild, Channel, Message]) -> float | None:
    """One die click by the person whose move it is; seconds to Discord's answer, or None."""
    _guild, _room, message = table
    name = to_act(message.refresh())
    if name not in ("alice", "bob"):
        return None  # between turns
    die = next((b for b in message.buttons if (b.custom_id or "").endswith(":t0")), None)
    if die is None or die.disabled:
        return None
    start = time.perf_counter()
    await load.fake.click(load.person(name), message, custom_id=die.custom_id, wait=False)
    return time.perf_counter() - start


async def about_once(load: Load, table: tuple[Guild, Channel, Message]) -> float:
    start = time.perf_counter()
    await load.fake.slash(load.alice, "about", channel=table[1], wait=False)
    return time.perf_counter() - start


async def measure(
    load: Load, clicks: int, concurrency: int, rng: random.Random
) -> tuple[list[float], list[float]]:
    """``clicks`` clicks in bursts of ``concurrency`` at once on different tables, each
    burst with as many ``/about`` commands beside it."""
    answer: list[float] = []
    noop: list[float] = []
    while len(answer) < clicks:
        tables = rng.sample(load.tables, min(concurrency, len(load.tables)))
        timed = await asyncio.gather(
            *(click_once(load, t) for t in tables), *(about_once(load, t) for t in tables)
        )
        answer.extend(t for t in timed[: len(tables)] if t is not None)
        noop.extend(t for t in timed[len(tables) :] if t is not None)
        await load.fake.wait_idle(timeout=60)
    return answer, noop


async def run_setup(
    name: str,
    steps: list[int],
    clicks: int,
    concurrency: int,
    database: dict[str, list[dict[str, str]]],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with LoopbackDiscord(shards=SHARDS) as fake:
            fake.ack_deadline = 30.0  # measure slow answers instead of failing them
            guilds = servers(fake)
            alice, bob = fake.add_user("alice"), fake.add_user("bob")
            for guild in guilds:
                fake.add_member(guild, alice)
                fake.add_member(guild, bob)
            processes = [
                BotProcess(
                    f"{name}-{i}",
                    fake.url,
                    fake.token,
                    {**env, "DATABASE_PATH": f"{folder}/bot{i}.db"},
                )
                for i, env in enumerate(database[name])
            ]
            owned = [
                {int(x) for x in env["SHARD_IDS"].split(",")} if "SHARD_IDS" in env else None
                for env in database[name]
            ]
            await asyncio.gather(*(p.start(cwd=Path(folder)) for p in processes))
            load = Load(fake, alice, bob, guilds)
            rng = random.Random(7)
            for games in steps:
                await grow_to(load, games)
                answer, noop = await measure(load, clicks, concurrency, rng)
                hosted = [
                    sum(
                        1
                        for guild, _, _ in load.tables
                        if shards is None or (guild.id >> 22) % SHARDS in shards
                    )
                    for shards in owned
                ]
                print(
                    f"{name:<24} {games:>5} games, in progress per process "
                    f"{'/'.join(map(str, hosted)):>9}  click ms {figures(answer)}  "
                    f"/about ms {figures(noop)}  (n={len(answer)})",
                    flush=True,
                )
            for process in processes:
                await process.stop()
            errors = [line for p in processes for line in p.errors()]
            if errors:
                print(f"  {len(errors)} error line(s) in the bot logs, first: {errors[0]}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", default="100,500,1000,2000")
    parser.add_argument("--clicks", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=8, help="clicks at once")
    args = parser.parse_args()
    steps = [int(s) for s in args.steps.split(",")]
    async with TempPostgres() as server:
        url = await server.create_database()
        setups: dict[str, list[dict[str, str]]] = {
            "1 process, SQLite": [{}],
            "2 processes, PostgreSQL": [
                {"DATABASE_URL": url, "SHARD_COUNT": str(SHARDS), "SHARD_IDS": str(i)}
                for i in range(SHARDS)
            ],
        }
        print(
            f"loopback Discord with {SHARDS} shards; {args.clicks} clicks per step, "
            f"{args.concurrency} at once, each beside an /about"
        )
        for name in setups:
            await run_setup(name, steps, args.clicks, args.concurrency, setups)


if __name__ == "__main__":
    asyncio.run(main())
