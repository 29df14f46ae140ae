"""``python -m bot``: read the settings, then run the bot until SIGINT or SIGTERM.

Without a token it opens the local sandbox instead (the same bot against the loopback
Discord, played from a page on 127.0.0.1) and prints the page's address.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

import discord

from bot import memory
from bot.config import ConfigurationError, Settings, load_settings
from bot.storage.errors import StorageError

log = logging.getLogger("bot")

SANDBOX_NOTE = (
    "No DISCORD_TOKEN set: opening the local sandbox. To run the real bot, create an application"
    " at https://discord.com/developers/applications, add a bot, and put DISCORD_TOKEN=<token>"
    " in .env (see .env.example and the README's 'Creating the Discord application')."
)


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
        except ShardsRefused as refused:
            print(refused, file=sys.stderr)
            return 2
        except StorageError as error:  # the database cannot be opened: one line, no password
            print(error, file=sys.stderr)
            return 1
        if not bot.lost_every_shard:
            break
        log.warning("Every shard of this process went to another one; waiting as a standby")
        rejoining = True
        current.clear()
    if closing:
        await asyncio.gather(*closing, return_exceptions=True)
    return 0


def main() -> int:
    memory.tune_allocator()  # before any thread starts
    try:
        settings = load_settings()
    except ConfigurationError as error:
        print(error, file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=getattr(logging, settings.log_level), root=True)
    if not settings.token:
        from bot.sandbox.web import run_sandbox

        print(SANDBOX_NOTE, file=sys.stderr)
        return asyncio.run(run_sandbox(settings))
    return asyncio.run(run(settings))


if __name__ == "__main__":
    sys.exit(main())
