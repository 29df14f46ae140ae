"""Discord's limits across processes, enforced by the loopback Discord: the IDENTIFY rate limit
per max_concurrency bucket (op 9 for one too many), every session of a shard getting its
events, lost sessions expiring, zombie connections closed, and the global REST rate limit."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest_asyncio

from bot.sandbox.loopback import LoopbackDiscord
from bot.sandbox.loopback.testing import run_bot_against, stop_bot

from .conftest import World
from .rawgateway import Client, connect


@pytest_asyncio.fixture(loop_scope="session")
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def identified(http: aiohttp.ClientSession, fake: LoopbackDiscord, **shard: Any) -> Client:
    """A raw connection that has identified (``shard=[id, count]`` optional) and read HELLO."""
    client = await connect(http, fake)
    assert (await client.recv())["op"] == 10
    await client.identify(fake, shard.get("shard"))
    return client


async def invalid_session(client: Client) -> None:
    """The next frame is op 9 with d=false (not resumable), and no READY follows."""
    frame = await client.recv()
    assert (frame["op"], frame["d"]) == (9, False), frame
    try:
        late = await client.recv(timeout=0.3)
    except TimeoutError:
        return
    raise AssertionError(f"a frame after op 9: {late}")


# -- IDENTIFY rate limit ------------------------------------------------------------------


async def test_a_second_identify_in_the_same_bucket_within_5_s_is_invalid(
    http: aiohttp.ClientSession,
) -> None:
    async with LoopbackDiscord() as fake:
        fake.add_guild("Limits")
        assert fake.gateway.identify_window == 5.0 and fake.gateway.max_concurrency == 1
        first = await identified(http, fake)
        ready = await first.until("READY")
        second = await identified(http, fake)
        await invalid_session(second)
        assert fake.gateway.readies == 1 and fake.gateway.invalid_sessions == 1
        assert fake.gateway.rate_limited_identifies == 1
        assert [(r.shard, r.accepted) for r in fake.gateway.identifies] == [
            ((0, 1), True),
            ((0, 1), False),
        ]
        assert list(fake.gateway.ready_times()) == [(0, 1)]

        # A RESUME is not an IDENTIFY: it is never limited.
        await fake.drop_gateway("resume", wait=False)
        again = await connect(http, fake)
        await again.recv()
        await again.send(
            6, {"token": fake.token, "session_id": ready["d"]["session_id"], "seq": ready["s"]}
        )
        await again.until("RESUMED")
        assert fake.gateway.invalid_sessions == 1

        # Five seconds after the first IDENTIFY, the bucket takes another.
        first_at = fake.gateway.identifies[0].at
        await asyncio.sleep(max(0.0, first_at + 5.0 - time.monotonic()) + 0.05)
        third = await identified(http, fake)
        await third.until("READY")
        assert fake.gateway.readies == 2 and fake.gateway.invalid_sessions == 1
        (_, later) = fake.gateway.ready_times()[(0, 1)]
        assert later - first_at >= 5.0


async def test_buckets_of_max_concurrency_identify_at_once(http: aiohttp.ClientSession) -> None:
    async with LoopbackDiscord(shards=4, max_concurrency=4) as fake:
        async with http.get(
            f"{fake.url}/api/v10/gateway/bot", headers={"Authorization": f"Bot {fake.token}"}
        ) as response:
            limit = (await response.json())["session_start_limit"]
        assert limit["max_concurrency"] == 4
        assert limit["total"] == 1000 and limit["remaining"] == 1000
        assert 0 < limit["reset_after"] <= 24 * 3600 * 1000
        clients = [await identified(http, fake, shard=[i, 4]) for i in range(4)]
        await asyncio.gather(*(c.until("READY") for c in clients))
        assert fake.gateway.invalid_sessions == 0 and fake.gateway.readies == 4
        times = fake.gateway.ready_times()
        assert sorted(times) == [(i, 4) for i in range(4)]
        starts = [t for (t,) in times.values()]
        assert max(starts) - min(starts) < 5.0
        # Shard 4 of 8 shares bucket 0 (4 % 4) with shard 0: too soon.
        late = await identified(http, fake, shard=[4, 8])
        await invalid_session(late)
        async with http.get(
            f"{fake.url}/api/v10/gateway/bot", headers={"Authorization": f"Bot {fake.token}"}
        ) as response:
            assert (await response.json())["session_start_limit"]["remaining"] == 996


async def test_identify_limit_can_be_switched_off(http: aiohttp.ClientSession) -> None:
    async with LoopbackDiscord(identify_window=None) as fake:
        clients = [await identified(http, fake) for _ in range(3)]
        await asyncio.gather(*(c.until("READY") for c in clients))
        assert fake.gateway.invalid_sessions == 0 and fake.gateway.readies == 3


async def test_discord_py_waits_out_the_op_9_and_both_copies_hear_every_event() -> None:
    """Two discord.py clients for the same shard started together (a quick restart, or a
    second copy): one is READY at once; the other is told op 9, pauses 5 s as discord.py
    does before a new IDENTIFY, and is READY then. From there both get every event."""
    async with LoopbackDiscord() as fake:
        guild = fake.add_guild("Twins")
        one = discord.Client(intents=discord.Intents.default())
        two = discord.Client(intents=discord.Intents.default())
        tasks = await asyncio.gather(run_bot_against(fake, one), run_bot_against(fake, two))
        try:
            assert fake.gateway.rate_limited_identifies >= 1
            (first, *rest) = fake.gateway.ready_times()[(0, 1)]
            assert len(rest) == 1 and rest[0] - first >= 5.0
            assert len(fake.gateway.shards[(0, 1)]) == 2
            channel = fake.add_channel(guild, "both")
            for _ in range(250):
                if one.get_channel(channel.id) and two.get_channel(channel.id):
                    break
                await asyncio.sleep(0.02)
            assert one.get_channel(channel.id) is not None
            assert two.get_channel(channel.id) is not None
        finally:
            await stop_bot(one, tasks[0])
            await stop_bot(two, tasks[1])
        # discord.py's close reaches the gateway as 4000 (its reader closes first), so both
        # sessions stay resumable, disconnected, for the resume window.
        assert not fake.gateway.connected and len(fake.gateway.sessions) == 2
        assert all(s.connection is None for s in fake.gateway.shards[(0, 1)])


# -- delivery to every session of a shard -------------------------------------------------


async def test_every_session_of_a_shard_gets_each_dispatch_and_the_interaction(
    http: aiohttp.ClientSession,
) -> None:
    async with LoopbackDiscord(identify_window=None) as fake:
        guild = fake.add_guild("Shared")
        alice = fake.add_user("alice")
        fake.add_member(guild, alice)
        headers = {"Authorization": f"Bot {fake.token}"}
        async with http.put(
            f"{fake.url}/api/v10/applications/{fake.application_id}/commands",
            json=[{"name": "hello", "description": "Say hello", "type": 1}],
            headers=headers,
        ) as response:
            assert response.status == 200
        a = await identified(http, fake)
        b = await identified(http, fake)
        await asyncio.gather(a.until("READY"), b.until("READY"))
        assert fake.gateway.connected and len(fake.gateway.shards[(0, 1)]) == 2

        room = fake.add_channel(guild, "room")
        created = await asyncio.gather(a.until("CHANNEL_CREATE"), b.until("CHANNEL_CREATE"))
        assert [f["d"]["id"] for f in created] == [str(room.id)] * 2

        slash = asyncio.create_task(fake.slash(alice, "hello", channel=room))
        got = await asyncio.gather(a.until("INTERACTION_CREATE"), b.until("INTERACTION_CREATE"))
        assert got[0]["d"]["id"] == got[1]["d"]["id"]
        it = got[0]["d"]
        callback = f"{fake.url}/api/v10/interactions/{it['id']}/{it['token']}/callback"
        async with http.post(
            callback, json={"type": 4, "data": {"content": "hello from a"}}
        ) as response:
            assert response.status == 204
        with fake.expect_errors("40060"):
            async with http.post(
                callback, json={"type": 4, "data": {"content": "hello from b"}}
            ) as response:
                assert response.status == 400
                assert (await response.json())["code"] == 40060
        result = await slash
        assert result.message is not None and result.message.content == "hello from a"
        assert [m.content for m in fake.messages(room)] == ["hello from a"]


async def test_a_lost_session_buffers_until_its_resume_window_ends(
    http: aiohttp.ClientSession,
) -> None:
    async with LoopbackDiscord(identify_window=None, resume_window=2.0) as fake:
        guild = fake.add_guild("Window")
        a = await identified(http, fake)
        b = await identified(http, fake)
        ready_a, _ = await asyncio.gather(a.until("READY"), b.until("READY"))
        held = fake.gateway.shards[(0, 1)]
        lost = next(s for s in held if s.id == ready_a["d"]["session_id"])

        await a.ws.close(code=4000)  # not a clean close: resumable for the window
        for _ in range(100):
            if lost.connection is None:
                break
            await asyncio.sleep(0.01)
        assert lost.connection is None and lost.id in fake.gateway.sessions
        assert fake.gateway.connected  # the other session still holds the shard
        buffered = lost.seq
        fake.add_channel(guild, "while-one-is-away")
        await b.until("CHANNEL_CREATE")
        assert lost.seq == buffered + 1

        for _ in range(500):  # the window is two seconds
            if lost.id not in fake.gateway.sessions:
                break
            await asyncio.sleep(0.01)
        assert lost.id not in fake.gateway.sessions and lost not in held
        assert fake.gateway.expired == 1 and fake.gateway.connected
        fake.add_channel(guild, "after-expiry")
        await b.until("CHANNEL_CREATE")
        assert lost.seq == buffered + 1  # an expired session buffers nothing more
        resume = await connect(http, fake)
        await resume.recv()
        await resume.send(6, {"token": fake.token, "session_id": lost.id, "seq": 1})
        assert (await resume.recv())["op"] == 9

        # The last session's clean close ends it at once: nobody holds the shard any more.
        await b.ws.close(code=1000)
        for _ in range(100):
            if not fake.gateway.shards:
                break
            await asyncio.sleep(0.01)
        assert fake.gateway.shards == {} and not fake.gateway.connected


async def test_a_held_shard_without_a_live_session_is_not_connected(
    http: aiohttp.ClientSession,
) -> None:
    async with LoopbackDiscord(identify_window=None) as fake:
        a = await identified(http, fake)
        await a.until("READY")
        await a.ws.close(code=4000)
        for _ in range(100):
            if not fake.gateway.connected:
                break
            await asyncio.sleep(0.01)
        assert not fake.gateway.connected and list(fake.gateway.shards) == [(0, 1)]


# -- zombie connections -------------------------------------------------------------------


async def test_a_connection_without_heartbeats_is_closed_as_a_zombie(
    http: aiohttp.ClientSession,
) -> None:
    async with LoopbackDiscord() as fake:
        fake.gateway.heartbeat_interval_ms = 200  # a deadline of max(1.5 x 0.2, 0.2 + 1) s
        silent = await identified(http, fake)
        beating = await connect(http, fake)
        assert (await beating.recv())["op"] == 10
        started = time.monotonic()
        await silent.until("READY")
        while time.monotonic() - started < 2.0:
            await beating.send(1, None)
            await asyncio.sleep(0.15)
        closing = await silent.ws.receive(timeout=5)
        assert (closing.type, closing.data) == (aiohttp.WSMsgType.CLOSE, 4009)
        assert not beating.ws.closed
        assert fake.gateway.zombies == 1 and fake.gateway.sessions == {}


# -- the global REST rate limit -----------------------------------------------------------


async def test_a_burst_of_edits_is_rate_limited_and_every_edit_lands(w: World) -> None:
    """Over 50 edits in one go from a real discord.py client: some are told 429 (global),
    discord.py waits and retries them, and every message ends up with its own edit."""
    fake, burst = w.fake, 80
    assert fake.rest.global_rate_limit == 50
    room = fake.add_channel(w.guild, "burst")
    drafts = [
        fake.world.new_message(room, fake.bot_user, content=f"draft {i}") for i in range(burst)
    ]
    channel = w.bot.get_channel(room.id) or await w.bot.fetch_channel(room.id)
    assert isinstance(channel, discord.TextChannel)
    before, seen = fake.rest.global_429s, len(fake.requests)
    started = time.monotonic()
    await asyncio.gather(
        *(channel.get_partial_message(m.id).edit(content=f"edit {i}") for i, m in enumerate(drafts))
    )
    assert time.monotonic() - started < 10
    limited = fake.rest.global_429s - before
    assert limited > 0
    edits = [r for r in fake.requests[seen:] if r.method == "PATCH"]
    assert sum(r.status == 429 for r in edits) == limited
    assert sum(r.status == 200 for r in edits) == burst
    assert [m.content for m in drafts] == [f"edit {i}" for i in range(burst)]
    assert all(m.edits == 1 for m in drafts)


async def test_the_global_limit_answers_as_discord_and_spares_interactions(w: World) -> None:
    fake = w.fake
    limit = fake.rest.global_limit
    limit.limit, limit.window = 2, 30.0  # a long window: the limit holds for the whole test
    limit.reset()
    try:
        headers = {"Authorization": f"Bot {fake.token}"}
        async with aiohttp.ClientSession() as http:
            for _ in range(2):
                async with http.get(f"{fake.url}/api/v10/users/@me", headers=headers) as r:
                    assert r.status == 200
            async with http.get(f"{fake.url}/api/v10/users/@me", headers=headers) as r:
                assert r.status == 429
                body = await r.json()
                assert body["message"] == "You are being rate limited."
                assert body["global"] is True and isinstance(body["retry_after"], float)
                assert 0 < body["retry_after"] <= 30.0
                assert r.headers["X-RateLimit-Global"] == "true"
                assert r.headers["X-RateLimit-Scope"] == "global"
                assert r.headers["Via"] and int(r.headers["Retry-After"]) >= 1
            async with http.get(f"{fake.url}/api/v10/gateway") as r:  # no bot token: not counted
                assert r.status == 200
        assert fake.rest.global_429s >= 1
        seen = len(fake.requests)
        # Interaction callbacks and the interaction's webhook are not bound by it.
        result = await fake.slash(w.alice, "slowly", channel=w.channel)
        assert [m.content for m in result.followups] == ["and one more"]
        assert result.message is not None and result.message.content == "done thinking"
        answers = fake.requests[seen:]
        assert {r.status for r in answers} <= {200, 204}, answers
        assert any(r.path.endswith("/callback") for r in answers)
        assert sum(r.path.startswith("/webhooks/") for r in answers) == 2
    finally:
        limit.limit, limit.window = 50, 1.0
        limit.reset()
