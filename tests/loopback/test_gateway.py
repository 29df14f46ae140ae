"""The gateway protocol itself, spoken by a raw websocket client (no discord.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest
import pytest_asyncio

from bot.sandbox.loopback import LoopbackDiscord

from .rawgateway import connect


@pytest_asyncio.fixture(loop_scope="session")
async def fake() -> AsyncIterator[LoopbackDiscord]:
    async with LoopbackDiscord() as fake:
        fake.add_guild("One")
        fake.add_guild("Two")
        yield fake


@pytest.mark.parametrize("compress", [False, True], ids=["plain", "zlib-stream"])
async def test_handshake(fake: LoopbackDiscord, compress: bool) -> None:
    async with aiohttp.ClientSession() as session:
        client = await connect(session, fake, compress)
        hello = await client.recv()
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
        await client.send(1, None)
        assert (await client.recv())["op"] == 11
        await client.send(2, {"token": fake.token, "intents": 1, "properties": {}})
        ready = await client.recv()
        await fake.wait_ready(timeout=1)
        assert ready["t"] == "READY" and ready["s"] == 1
        assert ready["d"]["user"]["id"] == str(fake.bot_user.id)
        assert ready["d"]["application"]["id"] == str(fake.application_id)
        assert ready["d"]["resume_gateway_url"] == fake.ws_url
        assert all(g["unavailable"] for g in ready["d"]["guilds"])
        creates = [await client.recv() for _ in range(2)]
        assert [c["t"] for c in creates] == ["GUILD_CREATE", "GUILD_CREATE"]
        assert [c["s"] for c in creates] == [2, 3]
        guild = creates[0]["d"]
        everyone = [r for r in guild["roles"] if r["name"] == "@everyone"]
        assert everyone[0]["id"] == guild["id"]
        assert [m["user"]["id"] for m in guild["members"]] == [str(fake.bot_user.id)]
        assert guild["member_count"] == 2
        live = fake.add_guild("Three")
        created = await client.recv()
        assert created["t"] == "GUILD_CREATE" and created["d"]["id"] == str(live.id)
        assert client.binary_frames == (6 if compress else 0)
        await client.ws.close()


async def test_bad_token_closes_4004(fake: LoopbackDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        client = await connect(session, fake, False)
        await client.recv()
        await client.send(2, {"token": "wrong", "intents": 1, "properties": {}})
        msg = await client.ws.receive(timeout=5)
        assert msg.type is aiohttp.WSMsgType.CLOSE and msg.data == 4004


async def test_resume_replays_missed_events(fake: LoopbackDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        client = await connect(session, fake, True)
        await client.recv()
        await client.send(2, {"token": fake.token, "intents": 1, "properties": {}})
        ready = await client.recv()
        seen = ready["s"]
        session_id = ready["d"]["session_id"]
        await fake.drop_gateway("resume", wait=False)
        guild = next(iter(fake.world.guilds.values()))
        missed = fake.add_channel(guild, "while-away")
        again = await connect(session, fake, True)
        await again.recv()
        await again.send(6, {"token": fake.token, "session_id": session_id, "seq": seen})
        frames = []
        while not frames or frames[-1]["t"] != "RESUMED":
            frames.append(await again.recv())
        events = [f["t"] for f in frames]
        assert events[-1] == "RESUMED"
        assert events.count("GUILD_CREATE") == len(fake.world.guilds)
        assert any(f["t"] == "CHANNEL_CREATE" and f["d"]["id"] == str(missed.id) for f in frames)
        seqs = [f["s"] for f in frames]
        assert seqs == list(range(seen + 1, seen + 1 + len(frames)))
        await again.ws.close()
        bad = await connect(session, fake, False)
        await bad.recv()
        await bad.send(6, {"token": fake.token, "session_id": "nope", "seq": 1})
        invalid = await bad.recv()
        assert invalid["op"] == 9 and invalid["d"] is False
        await bad.ws.close()


async def test_unknown_route_is_recorded(fake: LoopbackDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        headers = {"Authorization": f"Bot {fake.token}"}
        async with session.get(f"{fake.url}/api/v10/users/@me", headers=headers) as resp:
            assert resp.status == 200
            assert resp.headers["Content-Type"] == "application/json"
        async with session.get(f"{fake.url}/api/v10/users/@me") as resp:
            assert resp.status == 401
        async with session.get(f"{fake.url}/api/v10/nowhere", headers=headers) as resp:
            assert resp.status == 404
            assert (await resp.json())["code"] == 0
    assert fake.take_errors() == ["401 unauthorized GET /users/@me", "unhandled route GET /nowhere"]
    assert [(r.method, r.path, r.status) for r in fake.requests] == [
        ("GET", "/users/@me", 200),
        ("GET", "/users/@me", 401),
        ("GET", "/nowhere", 404),
    ]
