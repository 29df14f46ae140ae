"""The gateway websocket: HELLO, heartbeats, IDENTIFY/READY, RESUME with replay, and the
three ways Discord drops a bot (close, op 7 RECONNECT, op 9 INVALID_SESSION).

Every dispatch is numbered and kept in its session's buffer; a connection only writes frames,
so a RESUME can replay exactly what the client missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
import zlib
from collections.abc import Callable
from typing import Any, Literal

from aiohttp import WSMsgType, web

from .state import World

log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL_MS = 41250
BUFFER_LIMIT = 10_000

DropMode = Literal["resume", "reconnect", "invalid_session"]


class Connection:
    """One websocket; writes frames in order through a single (optionally zlib) stream."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self._compress: Callable[[bytes], bytes] | None = None
        if compress == "zlib-stream":
            deflate = zlib.compressobj()
            self._compress = lambda data: deflate.compress(data) + deflate.flush(zlib.Z_SYNC_FLUSH)
        elif compress == "zstd-stream":
            import zstandard  # discord.py only asks for zstd when it has zstandard itself

            zstd = zstandard.ZstdCompressor().compressobj()
            flush = zstandard.COMPRESSOBJ_FLUSH_BLOCK
            self._compress = lambda data: zstd.compress(data) + zstd.flush(flush)
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.writer = asyncio.create_task(self._write(), name="loopback-gateway-writer")

    def send(self, frame: dict[str, Any]) -> None:
        self.queue.put_nowait(frame)

    async def _write(self) -> None:
        while (frame := await self.queue.get()) is not None:
            data = json.dumps(frame)
            try:
                if self._compress is not None:
                    await self.ws.send_bytes(self._compress(data.encode()))
                else:
                    await self.ws.send_str(data)
            except (ConnectionError, RuntimeError):
                return

    @property
    def idle(self) -> bool:
        return self.queue.empty()

    async def close(self, code: int) -> None:
        self.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.writer, 1)
        await self.ws.close(code=code)


class Session:
    """A gateway session: its sequence, its replay buffer and its current connection."""

    def __init__(self, intents: int) -> None:
        self.id = secrets.token_hex(16)
        self.intents = intents
        self.seq = 0
        self.buffer: list[dict[str, Any]] = []
        self.connection: Connection | None = None

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self.seq += 1
        frame = {"op": 0, "t": event, "s": self.seq, "d": data}
        self.buffer.append(frame)
        del self.buffer[:-BUFFER_LIMIT]
        if self.connection is not None:
            self.connection.send(frame)


class Gateway:
    """Sessions of the bot(s) connected to the fake; the newest identified one gets events."""

    def __init__(
        self,
        world: World,
        token: str,
        ws_url: Callable[[], str],
        on_activity: Callable[[], None],
    ) -> None:
        self.world = world
        self.token = token
        self.ws_url = ws_url
        self.on_activity = on_activity
        self.sessions: dict[str, Session] = {}
        self.current: Session | None = None
        self.connections: set[Connection] = set()
        self.ready = asyncio.Event()
        self.readies = 0
        self.resumes = 0
        self.replayed = 0
        self.events: list[tuple[str, dict[str, Any]]] = []

    # -- dispatch -------------------------------------------------------------------------

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to the bot (buffered for RESUME if it is disconnected)."""
        if self.current is None:
            return
        self.events.append((event, data))
        self.on_activity()
        self.current.dispatch(event, data)

    @property
    def connected(self) -> bool:
        return self.current is not None and self.current.connection is not None

    @property
    def idle(self) -> bool:
        return all(c.idle for c in self.connections)

    # -- the websocket --------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = Connection(ws, request.query.get("compress"))
        self.connections.add(conn)
        conn.send(
            {"op": 10, "s": None, "t": None, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}}
        )
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                await self._on_frame(conn, json.loads(msg.data))
        finally:
            self.connections.discard(conn)
            for session in self.sessions.values():
                if session.connection is conn:
                    session.connection = None
            conn.queue.put_nowait(None)
        return ws

    async def _on_frame(self, conn: Connection, frame: dict[str, Any]) -> None:
        op, d = frame.get("op"), frame.get("d")
        if op == 1:
            conn.send({"op": 11, "s": None, "t": None, "d": None})
        elif op == 2:
            await self._identify(conn, d or {})
        elif op == 6:
            await self._resume(conn, d or {})
        elif op == 8 and self.current is not None:
            guild = self.world.guilds.get(int(d["guild_id"]))
            if guild is not None:
                self.current.dispatch(
                    "GUILD_MEMBERS_CHUNK",
                    {
                        "guild_id": str(guild.id),
                        "members": [m.payload() for m in guild.members.values()],
                        "chunk_index": 0,
                        "chunk_count": 1,
                        "nonce": d.get("nonce"),
                    },
                )

    async def _identify(self, conn: Connection, d: dict[str, Any]) -> None:
        if d.get("token") != self.token:
            await conn.close(4004)  # Authentication failed
            return
        session = Session(int(d.get("intents", 0)))
        self.sessions[session.id] = session
        self.current = session
        session.connection = conn
        self.world.intents = session.intents
        world = self.world
        ready: dict[str, Any] = {
            "v": 10,
            "user": {**world.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g), "unavailable": True} for g in world.guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.ws_url(),
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "auth": {},
        }
        if "shard" in d:
            ready["shard"] = d["shard"]
        self.dispatch("READY", ready)
        for guild in list(world.guilds.values()):
            self.dispatch("GUILD_CREATE", world.guild_create_payload(guild))
        self.readies += 1
        self.ready.set()

    async def _resume(self, conn: Connection, d: dict[str, Any]) -> None:
        session = self.sessions.get(d.get("session_id", ""))
        if session is None or d.get("token") != self.token:
            conn.send({"op": 9, "s": None, "t": None, "d": False})
            return
        old = session.connection
        session.connection = conn
        if old is not None and old is not conn:
            old.queue.put_nowait(None)
        seq = d.get("seq") or 0
        missed = [f for f in session.buffer if f["s"] > seq]
        self.replayed += len(missed)
        for frame in missed:
            conn.send(frame)
        self.current = session
        self.dispatch("RESUMED", {})
        self.resumes += 1

    # -- faults ---------------------------------------------------------------------------

    async def drop(self, mode: DropMode, *, wait: bool = True, timeout: float = 10) -> None:
        """Drop the bot's connection the way Discord does; optionally wait for its return.

        From here until the bot is back, dispatches are only buffered (replayed on RESUME).
        """
        session = self.current
        if session is None or session.connection is None:
            raise RuntimeError("no bot is connected to the gateway")
        conn, session.connection = session.connection, None
        if mode == "resume":
            await conn.close(4000)  # unknown error: the client resumes
        elif mode == "reconnect":
            conn.send({"op": 7, "s": None, "t": None, "d": None})
        elif mode == "invalid_session":
            self.sessions.pop(session.id, None)
            conn.send({"op": 9, "s": None, "t": None, "d": False})
        else:
            raise ValueError(f"unknown drop mode {mode!r}")
        if wait:
            await self.wait_connected(timeout)

    async def wait_connected(self, timeout: float = 10) -> None:
        """Until the bot's current session has a live connection (after READY or RESUMED)."""
        deadline = time.monotonic() + timeout
        while not self.connected:
            if time.monotonic() > deadline:
                raise TimeoutError("the bot did not (re)connect to the gateway")
            await asyncio.sleep(0.02)

    async def close(self) -> None:
        for conn in list(self.connections):
            await conn.close(1001)
