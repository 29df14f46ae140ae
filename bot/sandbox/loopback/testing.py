"""Run a real discord.py bot against a `LoopbackDiscord` (for end-to-end tests)."""

from __future__ import annotations

import asyncio
import contextlib
import time

import discord

from ..redirect import patch_discord
from .server import LoopbackDiscord


async def run_bot_against(
    fake: LoopbackDiscord, bot: discord.Client, *, timeout: float = 20
) -> asyncio.Task[None]:
    """Redirect discord.py to `fake`, start `bot` in a task and wait until it is ready.

    discord.py's on_ready comes about 2 s after the last GUILD_CREATE, so start one bot per
    test module or session. Raises the bot's own exception if it dies while starting.
    """
    patch_discord(fake.url)
    task = asyncio.create_task(bot.start(fake.token), name="loopback-bot")
    deadline = time.monotonic() + timeout
    while not (bot.is_ready() and fake.gateway.connected):
        if task.done():
            task.result()  # re-raise why the bot stopped
            raise RuntimeError("the bot stopped before it was ready")
        if time.monotonic() > deadline:
            await stop_bot(bot, task)
            raise TimeoutError("the bot did not become ready against the loopback Discord")
        await asyncio.sleep(0.05)
    return task


async def stop_bot(bot: discord.Client, task: asyncio.Task[None], *, timeout: float = 10) -> None:
    """Close the bot cleanly and wait for its task, re-raising a crash that is not a close."""
    await bot.close()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(task, timeout)
