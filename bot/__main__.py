"""``python -m bot``: read the settings, then run the bot until SIGINT or SIGTERM.

Without a token it opens the local sandbox instead (the same bot against the loopback
Discord, played from a page on 127.0.0.1) and prints the page's address. In the sandbox,
``--processes N [--shards M]`` runs a cluster on this machine: N bot processes sharing M
shards (default N) through one PostgreSQL database.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys

import aiohttp
import discord

from bot.config import ConfigurationError, Settings, load_settings
from bot.ops import memory
from bot.storage.errors import StorageError

log = logging.getLogger("bot")

SANDBOX_NOTE = (
    "No DISCORD_TOKEN set: opening the local sandbox. To run the real bot, create an application"
    " at https://discord.com/developers/applications, add a bot, and put DISCORD_TOKEN=<token>"
    " in .env (see .env.example and the README's 'Creating the Discord application')."
)
CLUSTER_NEEDS_SANDBOX = (
    "--processes and --shards run a cluster in the local sandbox only: with a DISCORD_TOKEN,"
    " start one `python -m bot` per machine or unit instead (see the Procfile and the"
    " README's 'Running at scale')."
)
CLUSTER_NEEDS_POSTGRES = (
    "Several processes need PostgreSQL: set DATABASE_URL (README: 'Running at scale');"
    " SQLite is one process's database."
)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run Quantum Table; without DISCORD_TOKEN, the local sandbox.",
    )
    parser.add_argument(
        "--processes",
        type=_at_least_one,
        metavar="N",
        help="sandbox only: run N bot processes on one loopback Discord and one database",
    )
    parser.add_argument(
        "--shards",
        type=_at_least_one,
        metavar="M",
        help="sandbox only: the shards those processes share (default: N)",
    )
    return parser.parse_args(argv)


def _at_least_one(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= number <= 64:
        raise argparse.ArgumentTypeError(f"{number} is not between 1 and 64")
    return number


async def run(settings: Settings) -> int:
    """Run the bot until SIGINT or SIGTERM. A bot whose every shard was taken over by
    another process (it was paused past its leases, or cut off from the database) closes;
    a fresh one then waits as a standby for shards to come free."""
    from bot.client import QuantumTableBot
    from bot.storage.leases import ShardsRefused

    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    closing: set[asyncio.Task[None]] = set()
    current: list[QuantumTableBot] = []

    def stop(signame: str) -> None:
        if not stopping.is_set():
            log.info("Received %s; shutting down cleanly", signame)
            stopping.set()
            if current:
                task = loop.create_task(current[-1].close())
                closing.add(task)
                task.add_done_callback(closing.discard)

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop, sig.name)
    rejoining = False
    while not stopping.is_set():
        bot = QuantumTableBot(settings)
        bot.wait_for_shards = rejoining
        current.append(bot)
        try:
            async with bot:
                await bot.start(settings.token or "")
        except discord.LoginFailure:
            print("Discord refused the token: check DISCORD_TOKEN in your .env.", file=sys.stderr)
            return 1
        except aiohttp.ClientConnectionError as error:  # refused, DNS, TLS: before any session
            print(
                f"Cannot reach Discord ({type(error).__name__}: {error}): check this machine's"
                " network, DNS and proxy.",
                file=sys.stderr,
            )
            return 1
        except ShardsRefused as refused:
            print(refused, file=sys.stderr)
            return 2
        except StorageError as error:  # the database cannot be opened: one line, no password
            if not bot.lost_every_shard:
                print(error, file=sys.stderr)
                return 1
        except Exception as error:
            # Losing every shard while still starting (paused right after a take-over) can
            # break the start half-way: that process simply waits as a standby again.
            if not bot.lost_every_shard:
                raise
            log.warning("Lost every shard while starting (%r)", error)
        if not bot.lost_every_shard:
            break
        log.warning("Every shard of this process went to another one; waiting as a standby")
        rejoining = True
        current.clear()
    if closing:
        await asyncio.gather(*closing, return_exceptions=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    if not os.environ.get("QT_NO_TUNE"):
        memory.tune_allocator()  # before any thread starts
    args = parse_args(argv)
    try:
        settings = load_settings()
    except ConfigurationError as error:
        print(error, file=sys.stderr)
        return 2
    clustered = args.processes is not None or args.shards is not None
    processes = args.processes or 1
    if clustered and settings.token:
        print(CLUSTER_NEEDS_SANDBOX, file=sys.stderr)
        return 2
    if processes > 1 and not settings.database_url:
        print(CLUSTER_NEEDS_POSTGRES, file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=getattr(logging, settings.log_level), root=True)
    if not settings.token:
        print(SANDBOX_NOTE, file=sys.stderr)
        shards = args.shards or processes
        if processes > 1 or shards > 1:
            from bot.sandbox.web.cluster import run_cluster

            return asyncio.run(run_cluster(settings, processes=processes, shards=shards))
        from bot.sandbox.web import run_sandbox

        return asyncio.run(run_sandbox(settings))
    return asyncio.run(run(settings))


if __name__ == "__main__":
    sys.exit(main())
