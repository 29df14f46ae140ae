"""Heartbeats: discord.py's keep-alive, run for several beats, sees each one acknowledged.

discord.py's keep-alive thread hands each heartbeat to the event loop, waits for the send,
then notes the time; the ACK's latency is measured from that note. An ACK that overtakes
the note is measured against the previous beat, a whole interval back, and discord.py warns
"Can't keep up, shard ID None websocket is 41.3s behind" (with Discord's 41.25 s interval).
On a busy machine the thread takes a few milliseconds to run again after the send; here it
is made to take ``THREAD_LAG`` every time, and the interval is shortened so that several
beats pass in a few seconds. Each latency must be that of its own beat.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from types import SimpleNamespace

import discord
import discord.gateway
import pytest
from discord.gateway import KeepAliveHandler

from bot.sandbox.loopback import LoopbackDiscord
from bot.sandbox.loopback.gateway import HEARTBEAT_ACK_DELAY
from bot.sandbox.loopback.testing import run_bot_against, stop_bot

INTERVAL_MS = 400
THREAD_LAG = 0.03  # how late the keep-alive thread reads the clock (scheduling on a busy box)
BEATS = 6  # acknowledged heartbeats to watch (the first is sent on HELLO, the rest by the thread)


def lagging_clock() -> float:
    if threading.current_thread().name.startswith("keep-alive-handler"):
        time.sleep(THREAD_LAG)
    return time.perf_counter()


async def test_each_heartbeat_is_acknowledged_after_its_own_send(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    assert THREAD_LAG < HEARTBEAT_ACK_DELAY < INTERVAL_MS / 1000 / 2
    latencies: list[float] = []
    enough = asyncio.Event()
    real_ack = KeepAliveHandler.ack

    def ack(self: KeepAliveHandler) -> None:  # discord.py's own ack (on the loop), watched
        real_ack(self)
        latencies.append(self.latency)
        if len(latencies) >= BEATS:
            enough.set()

    monkeypatch.setattr(KeepAliveHandler, "ack", ack)
    clock = {name: getattr(time, name) for name in dir(time) if not name.startswith("_")}
    clock["perf_counter"] = lagging_clock
    monkeypatch.setattr(discord.gateway, "time", SimpleNamespace(**clock))
    caplog.set_level(logging.WARNING, logger="discord.gateway")
    async with LoopbackDiscord() as fake:
        fake.gateway.heartbeat_interval_ms = INTERVAL_MS
        fake.add_guild("Heartbeats")
        client = discord.Client(intents=discord.Intents.none())
        task = await run_bot_against(fake, client)
        try:
            await asyncio.wait_for(enough.wait(), BEATS * INTERVAL_MS / 1000 + 20)
            assert client.latency == latencies[-1]
        finally:
            await stop_bot(client, task)
        assert fake.gateway.heartbeats >= BEATS
    behind = [r.getMessage() for r in caplog.records if "Can't keep up" in r.getMessage()]
    assert behind == []
    # Measured against the beat before, a latency is the whole interval (or more).
    interval = INTERVAL_MS / 1000
    assert all(latency < interval / 2 for latency in latencies), (latencies, interval)
