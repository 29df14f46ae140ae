"""Cluster benchmark: how long a standby takes to carry on after the active process dies
(kill -9) or is stopped (SIGTERM), how long the cluster takes to carry on after a database
outage and after a process dies with no standby running (the survivor adopts its shards),
and how long several processes starting together take to bring every shard up under
Discord's IDENTIFY limit.

Run: ``.venv/bin/python bench/bench_cluster.py [--lease 15] [--repeat 3]``. Prints figures;
never fails on time. Starts its own PostgreSQL (Debian's ``postgresql`` package) and real
``python -m bot`` processes against the loopback Discord, which enforces the IDENTIFY limit
(``max_concurrency`` sessions per 5 s) and answers any IDENTIFY over it with op 9.

Take-over, for each way the active process ends: one active process holds all 4 shards
(``SHARD_IDS=auto``), one standby waits; the active one ends; we time until the standby
has claimed the shards, and until it has connected them and restored their tables (a table
of each kind is live). "Another machine" gives the two processes different ``HOST_NAME``s,
so a kill -9 is noticed only when the lease runs out; on one machine the standby sees at
once that the holder's process is gone.

Outage: one active process and a standby, five live tables; PostgreSQL stopped
(``-m fast``) for three lease periods and started again: seconds from its return until the
active process renewed its leases, and until its ``/healthz`` said ready (every shard valid,
every table playable). Rebalance: two processes of two shards each on "different machines",
no standby; kill -9 one: seconds until the survivor held every shard, and until its
``/healthz`` said ready (every shard connected, its tables restored).

Start-up: 8 shards over 2 and 3 processes started at once, ``max_concurrency`` 1 and 4:
seconds until the last shard is READY, and sessions Discord refused (goal 0).

Measured on 2026-11-27 (2-core machine shared with other test runs, ``--repeat 2``, lease
15 s; take-over with 4 shards at ``max_concurrency`` 4, five live tables):

    SIGTERM  (one machine    ): shards claimed mean 0.8 s, max 1.1 s; tables restored mean 4.8 s, max 5.2 s
    kill -9  (one machine    ): shards claimed mean 0.4 s, max 0.6 s; tables restored mean 5.9 s, max 6.7 s
    kill -9  (another machine): shards claimed mean 12.5 s, max 12.6 s; tables restored mean 20.9 s, max 25.5 s
    8 shards, 2 processes, max_concurrency 1: every shard READY in 38.8 s; invalid sessions 0
    8 shards, 2 processes, max_concurrency 4: every shard READY in 11.6 s; invalid sessions 0
    8 shards, 3 processes, max_concurrency 1: every shard READY in 39.6 s; invalid sessions 0
    8 shards, 3 processes, max_concurrency 4: every shard READY in 13.7 s; invalid sessions 0

At ``max_concurrency`` 1 the eight sessions start 5.25 s apart (Discord's 5 s and a margin),
so 7 x 5.25 = 36.75 s of the 38.8 s is Discord's limit; the rest is the processes starting.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.sandbox.loopback import LoopbackDiscord
from tests.postgres import TempPostgres
from tests.support.cluster_start import start_cluster
from tests.support.processes import READY_LINE, STANDBY_LINE, BotProcess

CLAIMED = re.compile(r"Standby over: took shard\(s\)")
SHARDS = 4


async def take_over(
    pg: TempPostgres, folder: Path, *, how: str, lease: float, hosts: bool
) -> tuple[float, float]:
    """(seconds until the standby claimed the shards, until it restored their tables)."""
    url = await pg.create_database()
    folder = Path(tempfile.mkdtemp(dir=folder))  # its own command-sync marker for each run
    async with LoopbackDiscord(shards=SHARDS, max_concurrency=SHARDS) as fake:
        guild = fake.add_guild("Bench")
        alice = fake.add_user("alice")
        fake.add_member(guild, alice)

        def process(name: str) -> BotProcess:
            env = {
                "DATABASE_URL": url,
                "DATABASE_PATH": str(folder / f"{name}.db"),
                "SHARD_COUNT": str(SHARDS),
                "SHARD_IDS": "auto",
                "LEASE_SECONDS": str(lease),
                "AI_WORKERS": "1",
            }
            if hosts:
                env["HOST_NAME"] = f"machine-{name}"
            return BotProcess(name, fake.url, fake.token, env)

        active, standby = process("active"), process("standby")
        try:
            await active.start(cwd=folder)
            await standby.start(cwd=folder, ready=STANDBY_LINE)
            for kind, options in (
                ("qdice", {"target": 1000}),
                ("flume", {"target": 5}),
                ("flux", {}),
                ("fingers", {"fingers": 3}),
                ("qpoker", {}),
            ):
                room = fake.add_channel(guild, kind)
                lobby = (
                    await fake.slash(alice, f"{kind} start", channel=room, options=options)
                ).message
                assert lobby is not None
                for _ in range(3 if kind == "flume" else 1):
                    await fake.click(alice, lobby, label="Add AI")
                await fake.click(alice, lobby, label="Start")
            await asyncio.sleep(lease / 3 + 0.5)  # at least one renewal behind us
            mark, since = len(standby.lines), time.monotonic()
            if how == "kill -9":
                await active.kill()
            else:
                await active.stop()
            await standby.wait_for(CLAIMED, timeout=lease * 3 + 60, after=mark)
            claimed = time.monotonic() - since
            await standby.wait_for(READY_LINE, timeout=120, after=mark)
            return claimed, time.monotonic() - since
        finally:
            await active.stop()
            await standby.stop()


async def healthy(url: str, timeout: float, shards: int | None = None) -> float:
    """Seconds until ``/healthz`` answers 200 (holding ``shards`` leases, if given)."""
    import aiohttp

    started = time.monotonic()
    async with aiohttp.ClientSession() as http:
        while time.monotonic() - started < timeout:
            try:
                async with http.get(url) as response:
                    body = await response.json()
                    if response.status == 200 and (shards is None or len(body["leases"]) == shards):
                        return time.monotonic() - started
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.1)
    raise TimeoutError(f"{url} never said ready")


async def live_tables(fake: LoopbackDiscord, guild: object, alice: object) -> None:
    for kind, options in (
        ("qdice", {"target": 1000}),
        ("flume", {"target": 5}),
        ("flux", {}),
        ("fingers", {"fingers": 3}),
        ("qpoker", {}),
    ):
        room = fake.add_channel(guild, kind)  # type: ignore[arg-type]
        lobby = (await fake.slash(alice, f"{kind} start", channel=room, options=options)).message  # type: ignore[arg-type]
        assert lobby is not None
        for _ in range(3 if kind == "flume" else 1):
            await fake.click(alice, lobby, label="Add AI")  # type: ignore[arg-type]
        await fake.click(alice, lobby, label="Start")  # type: ignore[arg-type]


async def outage(pg: TempPostgres, folder: Path, *, lease: float) -> tuple[float, float]:
    """The database stopped (``-m fast``) for three lease periods with an active process
    and a standby: (seconds from its return until the active renewed its leases, until its
    ``/healthz`` said ready again: every shard valid, every table playable)."""
    url = await pg.create_database()
    folder = Path(tempfile.mkdtemp(dir=folder))
    async with LoopbackDiscord(shards=SHARDS, max_concurrency=SHARDS) as fake:
        guild = fake.add_guild("Bench")
        alice = fake.add_user("alice")
        fake.add_member(guild, alice)
        env = {
            "DATABASE_URL": url,
            "SHARD_COUNT": str(SHARDS),
            "SHARD_IDS": "auto",
            "LEASE_SECONDS": str(lease),
            "AI_WORKERS": "1",
        }
        active = BotProcess("active", fake.url, fake.token, {**env, "METRICS_PORT": "0"})
        standby = BotProcess("standby", fake.url, fake.token, env)
        try:
            await active.start(cwd=folder)
            await standby.start(cwd=folder, ready=STANDBY_LINE)
            line = await active.wait_for(r"Health and metrics at (http://\S+)", timeout=10)
            health = line.split("Health and metrics at ", 1)[1].split()[0]
            await live_tables(fake, guild, alice)
            mark = len(active.lines)
            await asyncio.to_thread(pg.halt)
            await asyncio.sleep(3 * lease)
            await asyncio.to_thread(pg.resume)
            since = time.monotonic()
            await active.wait_for("The database is back", timeout=lease * 3 + 60, after=mark)
            renewed = time.monotonic() - since
            await healthy(health, 120)
            ready = time.monotonic() - since
            assert active.running and standby.running
            assert not any("Standby over" in line for line in standby.lines)
            return renewed, ready
        finally:
            await active.stop()
            await standby.stop()


async def rebalance(pg: TempPostgres, folder: Path, *, lease: float) -> tuple[float, float]:
    """Two active processes of two shards each and no standby; kill -9 one: (seconds until
    the survivor held every shard, until its ``/healthz`` said ready: every shard connected
    and every table restored)."""
    url = await pg.create_database()
    folder = Path(tempfile.mkdtemp(dir=folder))
    async with LoopbackDiscord(shards=SHARDS, max_concurrency=SHARDS) as fake:
        guild = fake.add_guild("Bench")
        alice = fake.add_user("alice")
        fake.add_member(guild, alice)
        env = {
            "DATABASE_URL": url,
            "SHARD_COUNT": str(SHARDS),
            "SHARD_IDS": "auto",
            "SHARDS_PER_PROCESS": str(SHARDS // 2),
            "LEASE_SECONDS": str(lease),
            "AI_WORKERS": "1",
        }
        one = BotProcess(
            "one", fake.url, fake.token, {**env, "METRICS_PORT": "0", "HOST_NAME": "machine-one"}
        )
        two = BotProcess("two", fake.url, fake.token, {**env, "HOST_NAME": "machine-two"})
        try:
            await one.start(cwd=folder)
            await two.start(cwd=folder)
            line = await one.wait_for(r"Health and metrics at (http://\S+)", timeout=10)
            health = line.split("Health and metrics at ", 1)[1].split()[0]
            await healthy(health, 120, shards=SHARDS // 2)
            await live_tables(fake, guild, alice)
            await asyncio.sleep(lease / 3 + 0.5)
            mark, since = len(one.lines), time.monotonic()
            await two.kill()
            await one.wait_for("no process held them", timeout=lease * 4 + 30, after=mark)
            owned = time.monotonic() - since
            await healthy(health, 120, shards=SHARDS)
            return owned, time.monotonic() - since
        finally:
            await one.stop()
            await two.stop()


def summary(values: list[float]) -> str:
    return f"mean {statistics.mean(values):5.1f} s, max {max(values):5.1f} s"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lease", type=float, default=15.0, help="LEASE_SECONDS (default 15)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each take-over")
    parser.add_argument("--skip-start", action="store_true", help="only the take-over figures")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="qt-bench-cluster-") as tmp:
        folder = Path(tmp)
        async with TempPostgres() as pg:
            print(
                f"Take-over with a standby ({SHARDS} shards, max_concurrency {SHARDS},"
                f" lease {args.lease:.0f} s, {args.repeat} runs each):"
            )
            for how, hosts in (("SIGTERM", False), ("kill -9", False), ("kill -9", True)):
                runs = [
                    await take_over(pg, folder, how=how, lease=args.lease, hosts=hosts)
                    for _ in range(args.repeat)
                ]
                where = "another machine" if hosts else "one machine"
                print(
                    f"  {how:8} ({where:15}): shards claimed {summary([r[0] for r in runs])};"
                    f" tables restored {summary([r[1] for r in runs])}"
                )
            outages = [await outage(pg, folder, lease=args.lease) for _ in range(args.repeat)]
            print(
                f"Database stopped for {3 * args.lease:.0f} s (3 leases), active + standby:"
                f" leases renewed {summary([r[0] for r in outages])} after it returned;"
                f" every table playable {summary([r[1] for r in outages])}"
            )
            moved = [await rebalance(pg, folder, lease=args.lease) for _ in range(args.repeat)]
            print(
                f"kill -9 of one of 2 processes ({SHARDS // 2} shards each, no standby,"
                f" machines apart): every shard owned {summary([r[0] for r in moved])};"
                f" every table playable {summary([r[1] for r in moved])}"
            )
            if args.skip_start:
                return
            print("Start-up of 8 shards, processes started at once:")
            for processes in (2, 3):
                for concurrency in (1, 4):
                    url = await pg.create_database()
                    result = await start_cluster(
                        url, folder, processes=processes, shards=8, max_concurrency=concurrency
                    )
                    print(
                        f"  {processes} processes, max_concurrency {concurrency}:"
                        f" every shard READY in {result.seconds:5.1f} s;"
                        f" invalid sessions {result.invalid_sessions},"
                        f" IDENTIFYs refused {result.rate_limited}"
                    )


if __name__ == "__main__":
    asyncio.run(main())
