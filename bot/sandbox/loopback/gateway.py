"""The gateway websocket: HELLO, heartbeats, IDENTIFY/READY, RESUME with replay, the three
ways Discord drops a bot (close, op 7 RECONNECT, op 9 INVALID_SESSION), and sharding.

Sharding is Discord's: IDENTIFY may carry ``shard: [shard_id, shard_count]``; that session then
hears only about servers with ``(guild_id >> 22) % shard_count == shard_id`` (direct messages go
to shard 0). A shard id outside its count is closed with 4010 (Invalid shard). A newer IDENTIFY
for the same shard takes the shard over from the older session.

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
HEARTBEAT_ACK_DELAY = 0.1
"""Seconds from a HEARTBEAT to its ACK, like a network round trip.

discord.py's keep-alive thread hands each heartbeat to the event loop and notes the time
only once it has the GIL back after the send. An ACK read within a few loop passes (what a
gateway in the same process answering at once gives, with the loop busy) overtakes that
note, is measured against the previous heartbeat, and discord.py warns "Can't keep up ...
websocket is 41.3s behind". Real Discord answers after the round trip, once the note is taken.
"""
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
        return self.queue.empty() or self.writer.done()

    async def close(self, code: int) -> None:
        self.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.writer, 1)
        await self.ws.close(code=code)


ShardKey = tuple[int, int]  # (shard_id, shard_count)


def guild_of(event: str, data: dict[str, Any]) -> int | None:
    """The server a dispatch is about (None: not about a server, e.g. a direct message)."""
    raw = data.get("id") if event.startswith("GUILD_") and "guild_id" not in data else None
    raw = raw if raw is not None else data.get("guild_id")
    return int(raw) if raw is not None else None


def on_shard(guild_id: int | None, key: ShardKey) -> bool:
    shard_id, shard_count = key
    return (0 if guild_id is None else (guild_id >> 22) % shard_count) == shard_id


class Session:
    """A gateway session: its shard, sequence, replay buffer and current connection."""

    def __init__(self, intents: int, shard: ShardKey = (0, 1)) -> None:
        self.id = secrets.token_hex(16)
        self.intents = intents
        self.shard = shard
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
    """Sessions of the bot(s) connected to the fake; per shard, the newest one gets events."""

    def __init__(
        self,
        world: World,
        token: str,
        ws_url: Callable[[], str],
        on_activity: Callable[[], None],
        *,
        shard_count: int = 1,
    ) -> None:
        if shard_count < 1:
            raise ValueError("shard_count must be at least 1")
        self.world = world
        self.token = token
        self.ws_url = ws_url
        self.on_activity = on_activity
        self.shard_count = shard_count
        """How many shards `/gateway/bot` recommends."""
        self.sessions: dict[str, Session] = {}
        self.shards: dict[ShardKey, Session] = {}
        """The session that holds each shard now (the newest IDENTIFY or RESUME for it)."""
        self.current: Session | None = None
        """The session identified or resumed last."""
        self.connections: set[Connection] = set()
        self.heartbeat_interval_ms = HEARTBEAT_INTERVAL_MS
        """The interval HELLO asks for (a test may shorten it before the bot connects)."""
        self.heartbeats = 0
        """HEARTBEATs received; each is acknowledged ``HEARTBEAT_ACK_DELAY`` later."""
        self.ready = asyncio.Event()
        self.readies = 0
        self.resumes = 0
        self.replayed = 0
        self.events: list[tuple[str, dict[str, Any]]] = []

    # -- dispatch -------------------------------------------------------------------------

    def sessions_for(self, guild_id: int | None) -> list[Session]:
        """The sessions that hear about this server (its shard's), or about DMs if None."""
        return [s for key, s in self.shards.items() if on_shard(guild_id, key)]

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to the shard(s) of its server (buffered for RESUME if disconnected)."""
        targets = self.sessions_for(guild_of(event, data))
        if not targets:
            return
        self.events.append((event, data))
        self.on_activity()
        for session in targets:
            session.dispatch(event, data)

    @property
    def connected(self) -> bool:
        """True when some bot holds a shard and every held shard has a live connection."""
        return bool(self.shards) and all(s.connection is not None for s in self.shards.values())

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
            {
                "op": 10,
                "s": None,
                "t": None,
                "d": {"heartbeat_interval": self.heartbeat_interval_ms},
            }
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
            self.heartbeats += 1
            asyncio.get_running_loop().call_later(HEARTBEAT_ACK_DELAY, self._ack, conn)
        elif op == 2:
            await self._identify(conn, d or {})
        elif op == 6:
            await self._resume(conn, d or {})
        elif op == 8:
            guild = self.world.guilds.get(int(d["guild_id"]))
            session = next((s for s in self.sessions.values() if s.connection is conn), None)
            if guild is not None and session is not None:
                session.dispatch(
                    "GUILD_MEMBERS_CHUNK",
                    {
                        "guild_id": str(guild.id),
                        "members": [m.payload() for m in guild.members.values()],
                        "chunk_index": 0,
                        "chunk_count": 1,
                        "nonce": d.get("nonce"),
                    },
                )

    def _ack(self, conn: Connection) -> None:
        if not conn.writer.done():
            conn.send({"op": 11, "s": None, "t": None, "d": None})

    async def _identify(self, conn: Connection, d: dict[str, Any]) -> None:
        if d.get("token") != self.token:
            await conn.close(4004)  # Authentication failed
            return
        raw_shard = d.get("shard", [0, 1])
        try:
            shard_id, shard_count = (int(raw_shard[0]), int(raw_shard[1]))
        except (TypeError, ValueError, IndexError):
            shard_id, shard_count = -1, 0
        if shard_count < 1 or not 0 <= shard_id < shard_count:
            await conn.close(4010)  # Invalid shard
            return
        key = (shard_id, shard_count)
        session = Session(int(d.get("intents", 0)), key)
        self.sessions[session.id] = session
        old = self.shards.get(key)
        if old is not None and old.connection is not None and old.connection is not conn:
            old.connection.queue.put_nowait(None)  # the shard moved to the newer session
            old.connection = None
        self.shards[key] = session
        self.current = session
        session.connection = conn
        self.world.intents = session.intents
        world = self.world
        guilds = [g for g in list(world.guilds.values()) if on_shard(g.id, key)]
        ready: dict[str, Any] = {
            "v": 10,
            "user": {**world.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
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
            ready["shard"] = [shard_id, shard_count]
        self._send(session, "READY", ready)
        for guild in guilds:
            self._send(session, "GUILD_CREATE", world.guild_create_payload(guild))
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
        self.shards[session.shard] = session
        self.current = session
        self._send(session, "RESUMED", {})
        self.resumes += 1

    def _send(self, session: Session, event: str, data: dict[str, Any]) -> None:
        """A dispatch for one session only (its READY, its servers, RESUMED)."""
        self.events.append((event, data))
        self.on_activity()
        session.dispatch(event, data)

    # -- faults ---------------------------------------------------------------------------

    async def drop(
        self,
        mode: DropMode,
        *,
        wait: bool = True,
        timeout: float = 10,
        shard: ShardKey | None = None,
    ) -> None:
        """Drop a connection the way Discord does; optionally wait for the bot's return.

        ``shard`` picks which shard's session (default: the one identified or resumed last).
        From here until the bot is back, that shard's dispatches are only buffered (replayed
        on RESUME).
        """
        session = self.current if shard is None else self.shards.get(shard)
        if session is None or session.connection is None:
            raise RuntimeError("no bot is connected to the gateway")
        conn, session.connection = session.connection, None
        if mode == "resume":
            await conn.close(4000)  # unknown error: the client resumes
        elif mode == "reconnect":
            conn.send({"op": 7, "s": None, "t": None, "d": None})
        elif mode == "invalid_session":
            self.sessions.pop(session.id, None)  # the shard waits for a new IDENTIFY
            conn.send({"op": 9, "s": None, "t": None, "d": False})
        else:
            raise ValueError(f"unknown drop mode {mode!r}")
        if wait:
            await self.wait_connected(timeout)

    async def wait_connected(self, timeout: float = 10) -> None:
        """Until every held shard has a live connection (after READY or RESUMED)."""
        deadline = time.monotonic() + timeout
        while not self.connected:
            if time.monotonic() > deadline:
                raise TimeoutError("the bot did not (re)connect to the gateway")
            await asyncio.sleep(0.02)

    async def close(self) -> None:
        for conn in list(self.connections):
            await conn.close(1001)
