"""A bare gateway client (no discord.py) for tests that speak the protocol frame by frame."""

from __future__ import annotations

import json
import zlib
from typing import Any

import aiohttp

from bot.sandbox.loopback import LoopbackDiscord


class Client:
    """A bare gateway client that inflates a zlib stream like discord.py does."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, compressed: bool) -> None:
        self.ws = ws
        self.inflator = zlib.decompressobj() if compressed else None
        self.binary_frames = 0

    async def recv(self, timeout: float = 5) -> dict[str, Any]:
        msg = await self.ws.receive(timeout=timeout)
        if msg.type is aiohttp.WSMsgType.BINARY:
            assert self.inflator is not None, "binary frame without compression"
            assert msg.data.endswith(b"\x00\x00\xff\xff"), "each frame must end in a sync flush"
            self.binary_frames += 1
            return json.loads(self.inflator.decompress(msg.data))
        assert msg.type is aiohttp.WSMsgType.TEXT, msg
        assert self.inflator is None, "text frame on a compressed stream"
        return json.loads(msg.data)

    async def send(self, op: int, d: Any) -> None:
        await self.ws.send_str(json.dumps({"op": op, "d": d}))

    async def identify(self, fake: LoopbackDiscord, shard: list[int] | None = None) -> None:
        d: dict[str, Any] = {"token": fake.token, "intents": 1, "properties": {}}
        if shard is not None:
            d["shard"] = shard
        await self.send(2, d)

    async def until(self, event: str, timeout: float = 5) -> dict[str, Any]:
        """Frames up to the first dispatch of ``event`` (returned); fails on an op 9."""
        while True:
            frame = await self.recv(timeout)
            assert frame["op"] != 9, f"invalid session while waiting for {event}"
            if frame.get("t") == event:
                return frame


async def connect(
    session: aiohttp.ClientSession, fake: LoopbackDiscord, compress: bool = False
) -> Client:
    """A new connection (its HELLO not read yet)."""
    query = "?v=10&encoding=json" + ("&compress=zlib-stream" if compress else "")
    ws = await session.ws_connect(fake.ws_url + query)
    return Client(ws, compress)
