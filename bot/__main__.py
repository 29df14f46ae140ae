"""``python -m bot``: read the settings, then run the bot until SIGINT or SIGTERM."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

import discord

from bot.config import TOKEN_HELP, ConfigurationError, Settings, load_settings

log = logging.getLogger("bot")


async def run(settings: Settings) -> int:
    from bot.client import QuantumTableBot

    bot = QuantumTableBot(settings)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    closing: set[asyncio.Task[None]] = set()

    def stop(signame: str) -> None:
        if not stopping.is_set():
            log.info("Received %s; shutting down cleanly", signame)
            stopping.set()
            task = loop.create_task(bot.close())
            closing.add(task)
            task.add_done_callback(closing.discard)

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop, sig.name)
    try:
        async with bot:
            await bot.start(settings.token or "")
    except discord.LoginFailure:
        print("Discord refused the token: check DISCORD_TOKEN in your .env.", file=sys.stderr)
        return 1
    return 0


def main() -> int:
    try:
        settings = load_settings()
    except ConfigurationError as error:
        print(error, file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=getattr(logging, settings.log_level), root=True)
    if not settings.token:
        print(TOKEN_HELP, file=sys.stderr)
        return 2
    return asyncio.run(run(settings))


if __name__ == "__main__":
    sys.exit(main())
