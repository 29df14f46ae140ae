"""The gateway websocket: HELLO, heartbeats, IDENTIFY/READY, RESUME with replay, the three
ways Discord drops a bot (close, op 7 RECONNECT, op 9 INVALID_SESSION), and sharding.

Sharding is Discord's: IDENTIFY may carry ``shard: [shard_id, shard_count]``; that session then
hears only about servers with ``(guild_id >> 22) % shard_count == shard_id`` (direct messages go
to shard 0). A shard id outside its count is closed with 4010 (Invalid shard). Every session
connected for a shard (the key ``(shard_id, shard_count)``) gets each of its dispatches, as on
Discord: two processes running the same shard both hear every event and interaction (the
fake accepts only the first initial response to an interaction, 40060 for the next).

Discord's limits across processes are enforced:

* IDENTIFY: identifies are bucketed by ``shard_id % max_concurrency``, each bucket allowing one
  per ``identify_window`` seconds (5); one more is answered op 9 INVALID_SESSION (d=false) and
  gets no READY. RESUME is free. Every IDENTIFY is kept in `Gateway.identifies`.
* Sessions: a session whose connection went away without a clean close (1000/1001, which ends
  it at once) stays resumable for ``resume_window`` seconds, buffering its dispatches; then it
  is dropped.
* Zombies: a connection that sends no heartbeat for ``heartbeat_timeout`` times the interval
  is closed with 4009 (Session timed out) and its session ends.

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
from dataclasses import dataclass
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
IDENTIFY_WINDOW = 5.0
"""Seconds per IDENTIFY in each ``shard_id % max_concurrency`` bucket (Discord's 5 s)."""
RESUME_WINDOW = 60.0
"""Seconds a session whose connection was lost stays resumable (then it is dropped)."""
HEARTBEAT_TIMEOUT = 1.5
"""A connection silent for this many heartbeat intervals is a zombie and is closed."""

DropMode = Literal["resume", "reconnect", "invalid_session"]


class Connection:
    """One websocket; writes frames in order through a single (optionally zlib) stream."""

    def __init__(
        self,
        ws: web.WebSocketResponse,
        compress: str | None,
        written: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.ws = ws
        self.written = written
        """Told of each dispatch frame as its bytes go to the socket (encoded, compressed)."""
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
        self.last_heartbeat = time.monotonic()
        self.closed_by_server = False

    def send(self, frame: dict[str, Any]) -> None:
        self.queue.put_nowait(frame)

    async def _write(self) -> None:
        while (frame := await self.queue.get()) is not None:
            data = json.dumps(frame)
            try:
                packed = self._compress(data.encode()) if self._compress is not None else None
                if self.written is not None and frame.get("op") == 0:
                    self.written(frame)
                if packed is not None:
                    await self.ws.send_bytes(packed)
                else:
                    await self.ws.send_str(data)
            except (ConnectionError, RuntimeError):
                return

    @property
    def idle(self) -> bool:
        return self.queue.empty() or self.writer.done()

    async def close(self, code: int) -> None:
        self.closed_by_server = True
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


@dataclass
class IdentifyRecord:
    """One IDENTIFY the gateway received (with a valid token and shard)."""

    shard: ShardKey
    at: float
    """`time.monotonic()` when it arrived; for an accepted one, when READY was sent."""
    accepted: bool
    """False: it came too soon after another in its bucket and was answered op 9."""
    session_id: str | None = None


class Session:
    """A gateway session: its shard, sequence, replay buffer and current connection."""

    def __init__(self, intents: int, shard: ShardKey = (0, 1)) -> None:
        self.id = secrets.token_hex(16)
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.buffer: list[dict[str, Any]] = []
        self.connection: Connection | None = None
        self.attached = 0
        """The gateway's count of attachments when this session last (re)connected."""
        self.expiry: asyncio.TimerHandle | None = None

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self.seq += 1
        frame = {"op": 0, "t": event, "s": self.seq, "d": data}
        self.buffer.append(frame)
        del self.buffer[:-BUFFER_LIMIT]
        if self.connection is not None:
            self.connection.send(frame)


class Gateway:
    """Sessions of the bot(s) connected to the fake; every session of a shard gets its events."""

    def __init__(
        self,
        world: World,
        token: str,
        ws_url: Callable[[], str],
        on_activity: Callable[[], None],
        written: Callable[[dict[str, Any]], None] | None = None,
        *,
        shard_count: int = 1,
        max_concurrency: int = 1,
        identify_window: float | None = IDENTIFY_WINDOW,
        resume_window: float | None = RESUME_WINDOW,
        heartbeat_timeout: float | None = HEARTBEAT_TIMEOUT,
    ) -> None:
        if shard_count < 1:
            raise ValueError("shard_count must be at least 1")
        if max_concurrency < 1:
            raise ValueError("max_concurrency must be at least 1")
        self.world = world
        self.token = token
        self.ws_url = ws_url
        self.on_activity = on_activity
        self.shard_count = shard_count
        """How many shards `/gateway/bot` recommends."""
        self.max_concurrency = max_concurrency
        """IDENTIFY buckets (``shard_id % max_concurrency``), as `/gateway/bot` reports."""
        self.identify_window = identify_window
        """Seconds between two IDENTIFYs of one bucket (None: no IDENTIFY limit)."""
        self.resume_window = resume_window
        """Seconds a disconnected session stays resumable (None: for ever)."""
        self.heartbeat_timeout = heartbeat_timeout
        """Heartbeat intervals of silence after which a connection is closed (None: never)."""
        self.sessions: dict[str, Session] = {}
        """Sessions that can still be resumed (connected, or lost within the resume window)."""
        self.shards: dict[ShardKey, list[Session]] = {}
        """Each held shard's sessions, oldest first; every one of them gets its dispatches. A
        shard whose session was invalidated (op 9) stays held, empty, until the next IDENTIFY."""
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
        self.identifies: list[IdentifyRecord] = []
        """Every IDENTIFY with a valid token and shard, accepted (READY) or not (op 9)."""
        self.invalid_sessions = 0
        """Op 9 INVALID_SESSION frames sent: IDENTIFYs over the limit, RESUMEs of unknown or
        expired sessions, and `drop("invalid_session")`."""
        self.expired = 0
        """Sessions dropped because they were not resumed within ``resume_window``."""
        self.zombies = 0
        """Connections closed (4009) for missing their heartbeats."""
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.written = written
        """Told of each dispatch frame as it goes to a bot's socket (for timing)."""
        self._last_identify: dict[int, float] = {}
        self._attachments = 0
        self._closed = False

    # -- dispatch -------------------------------------------------------------------------

    def sessions_for(self, guild_id: int | None) -> list[Session]:
        """The sessions that hear about this server (its shard's), or about DMs if None."""
        return [s for key, held in self.shards.items() if on_shard(guild_id, key) for s in held]

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to every session of its server's shard (buffered for RESUME while
        a session is disconnected)."""
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
        return bool(self.shards) and all(
            any(s.connection is not None for s in held) for held in self.shards.values()
        )

    @property
    def idle(self) -> bool:
        return all(c.idle for c in self.connections)

    def ready_times(self) -> dict[ShardKey, list[float]]:
        """For each shard, the `time.monotonic()` of every READY sent for it, in order."""
        out: dict[ShardKey, list[float]] = {}
        for record in self.identifies:
            if record.accepted:
                out.setdefault(record.shard, []).append(record.at)
        return out

    @property
    def rate_limited_identifies(self) -> int:
        """IDENTIFYs answered op 9 because their bucket had one within ``identify_window``."""
        return sum(not r.accepted for r in self.identifies)

    def session_start_limit(self) -> dict[str, int]:
        """`/gateway/bot`'s ``session_start_limit``: 1000 starts a day, as for most bots."""
        day = 24 * 3600.0
        now = time.monotonic()
        recent = [r.at for r in self.identifies if r.accepted and now - r.at < day]
        reset = (min(recent) + day - now) if recent else day
        return {
            "total": 1000,
            "remaining": max(0, 1000 - len(recent)),
            "reset_after": int(reset * 1000),
            "max_concurrency": self.max_concurrency,
        }

    # -- sessions -------------------------------------------------------------------------

    def _attach(self, session: Session, conn: Connection) -> None:
        if session.expiry is not None:
            session.expiry.cancel()
            session.expiry = None
        session.connection = conn
        self._attachments += 1
        session.attached = self._attachments
        self.current = session

    def _detach(self, session: Session) -> None:
        """The session lost its connection: resumable for ``resume_window`` seconds."""
        session.connection = None
        if session.expiry is None and self.resume_window is not None and not self._closed:
            loop = asyncio.get_running_loop()
            session.expiry = loop.call_later(self.resume_window, self._expire, session)

    def _expire(self, session: Session) -> None:
        session.expiry = None
        if session.connection is None and session.id in self.sessions:
            self.expired += 1
            self._forget(session)

    def _forget(self, session: Session, *, keep_shard: bool = False) -> None:
        """End a session: no more dispatches, no RESUME."""
        if session.expiry is not None:
            session.expiry.cancel()
            session.expiry = None
        session.connection = None
        self.sessions.pop(session.id, None)
        held = self.shards.get(session.shard)
        if held is not None:
            with contextlib.suppress(ValueError):
                held.remove(session)
            if not held and not keep_shard:
                del self.shards[session.shard]

    def _invalid_session(self, conn: Connection) -> None:
        self.invalid_sessions += 1
        conn.send({"op": 9, "s": None, "t": None, "d": False})

    # -- the websocket --------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = Connection(ws, request.query.get("compress"), self.written)
        self.connections.add(conn)
        conn.send(
            {
                "op": 10,
                "s": None,
                "t": None,
                "d": {"heartbeat_interval": self.heartbeat_interval_ms},
            }
        )
        watchdog = asyncio.create_task(self._watch(conn), name="loopback-gateway-watchdog")
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                await self._on_frame(conn, json.loads(msg.data))
        finally:
            watchdog.cancel()
            self.connections.discard(conn)
            clean = not conn.closed_by_server and ws.close_code in (1000, 1001)
            for session in list(self.sessions.values()):
                if session.connection is conn:
                    # A client's clean close ends its session on Discord; otherwise it waits.
                    if clean:
                        self._forget(session)
                    else:
                        self._detach(session)
            conn.queue.put_nowait(None)
        return ws

    def heartbeat_deadline(self) -> float | None:
        """Seconds without a heartbeat before a connection counts as a zombie (None: never).

        ``heartbeat_timeout`` intervals, and at least a second past one interval, so a test's
        shortened interval survives a busy machine.
        """
        if self.heartbeat_timeout is None:
            return None
        interval = self.heartbeat_interval_ms / 1000
        return max(self.heartbeat_timeout * interval, interval + 1.0)

    async def _watch(self, conn: Connection) -> None:
        """Close the connection with 4009 once it misses its heartbeats (Discord's zombie)."""
        while not conn.closed_by_server:
            deadline = self.heartbeat_deadline()
            if deadline is None:
                await asyncio.sleep(1.0)
                continue
            left = conn.last_heartbeat + deadline - time.monotonic()
            if left > 0:
                await asyncio.sleep(left)
                continue
            log.info("loopback gateway: no heartbeat for %.1f s, closing with 4009", deadline)
            self.zombies += 1
            for session in list(self.sessions.values()):
                if session.connection is conn:
                    self._forget(session)  # 4009: the session timed out, start a new one
            await conn.close(4009)
            return

    async def _on_frame(self, conn: Connection, frame: dict[str, Any]) -> None:
        op, d = frame.get("op"), frame.get("d")
        if op == 1:
            self.heartbeats += 1
            conn.last_heartbeat = time.monotonic()
            asyncio.get_running_loop().call_later(HEARTBEAT_ACK_DELAY, self._ack, conn)
        elif op == 2:
            await self._identify(conn, d or {})
        elif op == 6:
            await self._resume(conn, d or {})
        elif op == 8 and d is not None:
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

    def _identify_allowed(self, shard_id: int, now: float) -> bool:
        """Discord's rate limit: one IDENTIFY per window in each max_concurrency bucket."""
        if not self.identify_window:
            return True
        last = self._last_identify.get(shard_id % self.max_concurrency)
        return last is None or now - last >= self.identify_window

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
        now = time.monotonic()
        if not self._identify_allowed(shard_id, now):
            self.identifies.append(IdentifyRecord(key, now, False))
            log.info("loopback gateway: IDENTIFY of shard %s too soon, op 9", key)
            self._invalid_session(conn)
            return
        self._last_identify[shard_id % self.max_concurrency] = now
        session = Session(int(d.get("intents", 0)), key)
        self.identifies.append(IdentifyRecord(key, now, True, session.id))
        self.sessions[session.id] = session
        self.shards.setdefault(key, []).append(session)
        self._attach(session, conn)
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
            self._invalid_session(conn)
            return
        old = session.connection
        self._attach(session, conn)
        if old is not None and old is not conn:
            old.queue.put_nowait(None)  # a session has one connection: the newest
        seq = d.get("seq") or 0
        missed = [f for f in session.buffer if f["s"] > seq]
        self.replayed += len(missed)
        for frame in missed:
            conn.send(frame)
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

        ``shard`` picks which shard's session (its newest connected one; default: the
        session identified or resumed last). From here until the bot is back, that session's
        dispatches are only buffered (replayed on RESUME). ``wait``: until that shard has a
        session connected after the drop, and every held shard a live connection.
        """
        if shard is None:
            session = self.current
        else:
            live = [s for s in self.shards.get(shard, []) if s.connection is not None]
            session = live[-1] if live else None
        if session is None or session.connection is None:
            raise RuntimeError("no bot is connected to the gateway")
        conn = session.connection
        mark = self._attachments
        if mode == "resume":
            self._detach(session)
            await conn.close(4000)  # unknown error: the client resumes
        elif mode == "reconnect":
            self._detach(session)
            conn.send({"op": 7, "s": None, "t": None, "d": None})
        elif mode == "invalid_session":
            self._forget(session, keep_shard=True)  # the shard waits for a new IDENTIFY
            self._invalid_session(conn)
        else:
            raise ValueError(f"unknown drop mode {mode!r}")
        if wait:
            deadline = time.monotonic() + timeout
            key = session.shard
            while not any(
                s.connection is not None and s.attached > mark for s in self.shards.get(key, [])
            ):
                if time.monotonic() > deadline:
                    raise TimeoutError("the bot did not (re)connect to the gateway")
                await asyncio.sleep(0.02)
            await self.wait_connected(max(0.0, deadline - time.monotonic()))

    async def wait_connected(self, timeout: float = 10) -> None:
        """Until every held shard has a live connection (after READY or RESUMED)."""
        deadline = time.monotonic() + timeout
        while not self.connected:
            if time.monotonic() > deadline:
                raise TimeoutError("the bot did not (re)connect to the gateway")
            await asyncio.sleep(0.02)

    async def close(self) -> None:
        self._closed = True
        for session in list(self.sessions.values()):
            if session.expiry is not None:
                session.expiry.cancel()
                session.expiry = None
        for conn in list(self.connections):
            await conn.close(1001)
