"""Sharding on the loopback Discord, as on Discord: `/gateway/bot` recommends a shard count,
IDENTIFY carries [shard_id, shard_count], and a server's events and interactions reach only
the connections of its shard. Two real auto-sharded discord.py bots split four shards here,
on a fake whose ``max_concurrency`` lets every shard identify at once (a bucket each)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import discord
import pytest
import pytest_asyncio
from discord.ext import commands

from bot.sandbox.loopback import Guild, LoopbackDiscord, User
from bot.sandbox.loopback.testing import run_bot_against, stop_bot

SHARDS = 4


class ShardBot(commands.AutoShardedBot):
    """Answers /where with the shards it runs; identifies without discord.py's 5 s pause
    (each shard is in its own IDENTIFY bucket: ``max_concurrency`` is the shard count)."""

    def __init__(self, shard_ids: list[int] | None, shard_count: int | None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.none() | discord.Intents(guilds=True),
            shard_ids=shard_ids,
            shard_count=shard_count,
            guild_ready_timeout=0.2,
        )
        self.answered: list[int] = []

        @self.tree.command(name="where", description="Which shard answers")
        async def where(interaction: discord.Interaction) -> None:
            assert interaction.guild_id is not None
            self.answered.append(interaction.guild_id)
            await interaction.response.send_message(f"shard {interaction.guild.shard_id}")  # type: ignore[union-attr]

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None  # max_concurrency buckets: every shard may identify at once


def servers_on_every_shard(fake: LoopbackDiscord, count: int = SHARDS) -> dict[int, Guild]:
    found: dict[int, Guild] = {}
    while len(found) < count:
        guild = fake.add_guild(f"Server {len(fake.world.guilds) + 1}")
        found.setdefault((guild.id >> 22) % count, guild)
        time.sleep(0.001)  # the next id's timestamp bits, hence its shard, move on
    return found


@dataclass
class Split:
    fake: LoopbackDiscord
    guilds: dict[int, Guild]
    alice: User
    low: ShardBot
    high: ShardBot


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def split() -> AsyncIterator[Split]:
    fake = LoopbackDiscord(shards=SHARDS, max_concurrency=SHARDS)
    await fake.start()
    guilds = servers_on_every_shard(fake)
    alice = fake.add_user("alice")
    for guild in guilds.values():
        fake.add_member(guild, alice)
    low, high = ShardBot([0, 1], SHARDS), ShardBot([2, 3], SHARDS)
    low_task = await run_bot_against(fake, low)
    await low.tree.sync()  # commands are global: one process syncs them
    high_task = await run_bot_against(fake, high)
    try:
        yield Split(fake, guilds, alice, low, high)
    finally:
        await stop_bot(high, high_task)
        await stop_bot(low, low_task)
        await fake.stop()


async def test_gateway_bot_recommends_the_shard_count(split: Split) -> None:
    async with (
        aiohttp.ClientSession() as http,
        http.get(
            f"{split.fake.url}/api/v10/gateway/bot",
            headers={"Authorization": f"Bot {split.fake.token}"},
        ) as response,
    ):
        body = await response.json()
    assert body["shards"] == SHARDS and body["url"].startswith("ws://127.0.0.1:")
    assert body["session_start_limit"]["max_concurrency"] == SHARDS
    # Four shards identified at once, each in its own bucket: none was told op 9.
    assert split.fake.gateway.invalid_sessions == 0


async def test_each_bot_sees_only_its_shards_servers(split: Split) -> None:
    assert sorted(split.low.shards) == [0, 1] and sorted(split.high.shards) == [2, 3]
    every = {g.id for g in split.fake.world.guilds.values()}
    low_ids = {g.id for g in split.low.guilds}
    high_ids = {g.id for g in split.high.guilds}
    # Each bot hears of exactly the servers of its shards (finding a server for every shard
    # may have made a few more than four).
    assert low_ids == {g for g in every if (g >> 22) % SHARDS in (0, 1)}
    assert high_ids == {g for g in every if (g >> 22) % SHARDS in (2, 3)}
    assert {split.guilds[0].id, split.guilds[1].id} <= low_ids
    assert {split.guilds[2].id, split.guilds[3].id} <= high_ids
    keys = sorted(split.fake.gateway.shards)
    assert keys == [(shard, SHARDS) for shard in range(SHARDS)]


async def test_interactions_reach_only_the_servers_shard(split: Split) -> None:
    for shard, guild in sorted(split.guilds.items()):
        channel = next(iter(guild.channels.values()))
        result = await split.fake.slash(split.alice, "where", channel=channel)
        assert result.message is not None and result.message.content == f"shard {shard}"
    assert split.low.answered == [split.guilds[0].id, split.guilds[1].id]
    assert split.high.answered == [split.guilds[2].id, split.guilds[3].id]


async def test_a_server_added_later_reaches_only_its_shard(split: Split) -> None:
    before_low, before_high = len(split.low.guilds), len(split.high.guilds)
    guild = split.fake.add_guild("Late server")
    owner = split.low if (guild.id >> 22) % SHARDS < 2 else split.high
    other = split.high if owner is split.low else split.low
    await split.fake.wait_idle()
    for _ in range(250):  # GUILD_CREATE reaches the bot a moment after wait_idle
        if owner.get_guild(guild.id) is not None:
            break
        await asyncio.sleep(0.02)
    assert owner.get_guild(guild.id) is not None and other.get_guild(guild.id) is None
    assert len(split.low.guilds) + len(split.high.guilds) == before_low + before_high + 1


async def test_a_dropped_shard_resumes_and_the_others_go_on(split: Split) -> None:
    resumes = split.fake.gateway.resumes
    await split.fake.drop_gateway("resume", shard=(2, SHARDS))
    assert split.fake.gateway.resumes == resumes + 1
    for shard in (0, 2):
        channel = next(iter(split.guilds[shard].channels.values()))
        result = await split.fake.slash(split.alice, "where", channel=channel)
        assert result.message is not None and result.message.content == f"shard {shard}"


@pytest.mark.parametrize("shard", [[4, 4], [0, 0], [-1, 2], "nonsense"])
async def test_an_impossible_shard_is_closed_with_4010(split: Split, shard: object) -> None:
    async with aiohttp.ClientSession() as http, http.ws_connect(split.fake.ws_url) as ws:
        hello = await ws.receive_json()
        assert hello["op"] == 10
        await ws.send_str(
            json.dumps(
                {
                    "op": 2,
                    "d": {
                        "token": split.fake.token,
                        "intents": 1,
                        "shard": shard,
                        "properties": {},
                    },
                }
            )
        )
        closing = await ws.receive()
        assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        assert ws.close_code == 4010


async def test_without_shard_settings_a_bot_runs_every_recommended_shard() -> None:
    """As discord.py does by itself: it asks `/gateway/bot` and connects all of them."""
    async with LoopbackDiscord(shards=2, max_concurrency=2) as fake:
        guilds = servers_on_every_shard(fake, 2)
        bot = ShardBot(None, None)  # asks /gateway/bot: two shards, both in this process
        task = await run_bot_against(fake, bot)
        try:
            assert bot.shard_count == 2 and sorted(bot.shards) == [0, 1]
            assert fake.gateway.invalid_sessions == 0
            # Every server (finding one per shard may have made more than two), on both shards.
            assert {g.id for g in bot.guilds} == set(fake.world.guilds)
            assert {g.id for g in guilds.values()} <= {g.id for g in bot.guilds}
        finally:
            await stop_bot(bot, task)
