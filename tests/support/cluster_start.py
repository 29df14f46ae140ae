"""Several bot processes started at once on one loopback Discord and one PostgreSQL, for the
IDENTIFY-limit test and the cluster benchmark: how long until every shard is READY, and how
many sessions Discord refused on the way."""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass
from pathlib import Path

from bot.sandbox.loopback import LoopbackDiscord
from tests.support.processes import BotProcess


@dataclass(frozen=True)
class StartUp:
    processes: int
    shards: int
    max_concurrency: int
    seconds: float
    """From starting the processes until the last shard was READY."""
    rate_limited: int
    """IDENTIFYs refused (op 9) for coming too soon in their bucket."""
    invalid_sessions: int
    """Every op 9 the gateway sent."""


async def start_cluster(
    url: str, folder: Path, *, processes: int, shards: int, max_concurrency: int
) -> StartUp:
    """Start ``processes`` bots at once (``SHARD_IDS=auto``, shards spread evenly) and wait
    until every shard is READY; every process is stopped again before returning."""
    async with LoopbackDiscord(shards=shards, max_concurrency=max_concurrency) as fake:
        fake.add_guild("Start-up")
        bots = [
            BotProcess(
                f"bot-{i}",
                fake.url,
                fake.token,
                {
                    "DATABASE_URL": url,
                    "DATABASE_PATH": str(folder / f"start-{i}.db"),
                    "SHARD_COUNT": str(shards),
                    "SHARD_IDS": "auto",
                    "SHARDS_PER_PROCESS": str(math.ceil(shards / processes)),
                    "AI_WORKERS": "0",
                },
            )
            for i in range(processes)
        ]
        started = time.monotonic()
        try:
            await asyncio.gather(*(bot.start(cwd=folder, timeout=180) for bot in bots))
            ready = fake.gateway.ready_times()
            assert len(ready) == shards, f"READY for {sorted(ready)} only"
            last = max(times[0] for times in ready.values())
            return StartUp(
                processes,
                shards,
                max_concurrency,
                last - started,
                fake.gateway.rate_limited_identifies,
                fake.gateway.invalid_sessions,
            )
        finally:
            await asyncio.gather(*(bot.stop() for bot in bots))
