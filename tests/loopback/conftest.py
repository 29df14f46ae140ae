"""Fixtures: one loopback Discord and one minimal discord.py bot per test module."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest_asyncio
from discord.ext import commands

from bot.sandbox.loopback import Channel, Guild, LoopbackDiscord, User
from bot.sandbox.loopback.testing import run_bot_against, stop_bot

from .minibot import build_bot

SPEC = Path(__file__).parents[3] / "shared" / "discord-api-spec" / "openapi.json"


@dataclass
class World:
    """The people and places every loopback test uses."""

    fake: LoopbackDiscord
    guild: Guild
    channel: Channel
    alice: User
    bob: User
    stranger: User
    bot: commands.Bot


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def world() -> AsyncIterator[World]:
    """A started fake with a guild, two members and an outsider, and the bot connected."""
    fake = LoopbackDiscord(spec=SPEC if SPEC.exists() else None)
    await fake.start()
    guild = fake.add_guild("Loopback Table")
    alice, bob, stranger = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("stranger")
    fake.add_member(guild, alice)
    fake.add_member(guild, bob)
    channel = fake.add_channel(guild, "games")
    bot = build_bot(guild.id)
    task = await run_bot_against(fake, bot)
    try:
        yield World(fake, guild, channel, alice, bob, stranger, bot)
    finally:
        await stop_bot(bot, task)
        await fake.stop()


@pytest_asyncio.fixture(loop_scope="session")
async def w(world: World) -> AsyncIterator[World]:
    """The module's world, checked after each test: no unexpected rule violations."""
    world.fake.faults.clear()
    yield world
    await world.fake.wait_idle()
    world.fake.assert_no_errors()
