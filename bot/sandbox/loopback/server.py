"""`LoopbackDiscord`: the aiohttp server tying world, REST, gateway, faults and driver together."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from aiohttp import web

from .driver import Driver
from .faults import Faults
from .gateway import (
    HEARTBEAT_TIMEOUT,
    IDENTIFY_WINDOW,
    RESUME_WINDOW,
    DropMode,
    Gateway,
)
from .interactions import PendingInteraction
from .models import Attachment, Channel, Guild, Member, Role, User
from .rest import ApiError, RestApi, json_response, rate_limited
from .spec import ApiSpec
from .state import World

log = logging.getLogger(__name__)


@dataclass
class RequestRecord:
    """One REST call the bot made: method, path after /api/v10, status answered."""

    method: str
    path: str
    status: int
    query: dict[str, str] = field(default_factory=dict)


@dataclass
class Expectation:
    patterns: tuple[str, ...]
    seen: list[str] = field(default_factory=list)

    def matches(self, text: str) -> bool:
        return any(re.search(p, text) for p in self.patterns)


class LoopbackDiscord(Driver):
    """A fake Discord on 127.0.0.1 that an unmodified discord.py bot connects to."""

    def __init__(
        self,
        *,
        spec: Path | None = None,
        shards: int = 1,
        max_concurrency: int = 1,
        identify_window: float | None = IDENTIFY_WINDOW,
        resume_window: float | None = RESUME_WINDOW,
        heartbeat_timeout: float | None = HEARTBEAT_TIMEOUT,
        global_rate_limit: int | None = 50,
    ) -> None:
        """`spec`: Discord's openapi.json; when given, every JSON answer is checked against it.

        `shards`: how many shards `/gateway/bot` recommends; bots that identify with shards
        hear only about their shards' servers, as on Discord.

        Discord's limits across processes (each also an attribute, adjustable later):
        `max_concurrency`: IDENTIFY buckets (``shard_id % max_concurrency``), reported in
        `/gateway/bot`'s ``session_start_limit``; `identify_window`: seconds between two
        IDENTIFYs of one bucket, the next one too soon is answered op 9 (None: no limit);
        `resume_window`: seconds a lost session stays resumable (None: for ever);
        `heartbeat_timeout`: heartbeat intervals of silence before a connection is closed
        with 4009 (None: never); `global_rate_limit`: REST requests per second per bot token,
        interaction callbacks and webhooks aside (None: no limit).
        """
        self.spec = ApiSpec(spec) if spec is not None else None
        self.world = World(self.dispatch)
        self.token = f"loopback.{secrets.token_urlsafe(24)}"
        self.app_owner = self.world.add_user("Application Owner")
        self.faults = Faults()
        self.gateway = Gateway(
            self.world,
            self.token,
            lambda: self.ws_url,
            self.touch,
            self._frame_written,
            shard_count=shards,
            max_concurrency=max_concurrency,
            identify_window=identify_window,
            resume_window=resume_window,
            heartbeat_timeout=heartbeat_timeout,
        )
        self.rest = RestApi(self, global_rate_limit=global_rate_limit)
        self.errors: list[str] = []
        self.expected_errors: list[str] = []
        self.requests: list[RequestRecord] = []
        self.outbox: list[tuple[str, dict[str, Any]]] | None = None
        """Set to a list to keep every message body ("message": created or edited) and modal
        ("modal") the bot sends, as sent; None (the default) keeps none."""
        self.global_commands: dict[str, dict[str, Any]] = {}
        self.guild_commands: dict[int, dict[str, dict[str, Any]]] = {}
        self.commands_synced = asyncio.Event()
        self.interactions: dict[int, PendingInteraction] = {}
        self.by_token: dict[str, PendingInteraction] = {}
        self.attachment_store: dict[int, Attachment] = {}
        self.ack_deadline = 3.0
        self.token_lifetime = 15 * 60.0
        self.url = ""
        self._expectations: list[Expectation] = []
        self._inflight = 0
        self._last_activity = time.monotonic()
        self._runner: web.AppRunner | None = None

    # -- lifecycle ------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self.gateway.handle)
        app.router.add_get("/attachments/{channel}/{id}/{filename}", self._serve_attachment)
        app.router.add_route("*", "/api/{tail:.*}", self._api)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        sockets = site._server.sockets  # type: ignore[union-attr]
        bound = sockets[0].getsockname()[1]
        self.url = f"http://{host}:{bound}"
        self.world.base_url = self.url

    async def stop(self) -> None:
        for it in self.interactions.values():
            if it.timer is not None:
                it.timer.cancel()
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://", 1) + "/"

    @property
    def shard_count(self) -> int:
        return self.gateway.shard_count

    @property
    def application_id(self) -> int:
        return self.world.application_id

    @property
    def bot_user(self) -> User:
        return self.world.bot_user

    # -- the world, for tests -------------------------------------------------------------

    def add_user(self, name: str) -> User:
        return self.world.add_user(name)

    def add_guild(self, name: str, owner: User | None = None, **kwargs: Any) -> Guild:
        """A guild (dispatched live as GUILD_CREATE if the bot is already connected)."""
        return self.world.add_guild(name, owner, **kwargs)

    def add_role(self, guild: Guild | int, name: str, permissions: int = 0) -> Role:
        return self.world.add_role(guild, name, permissions)

    def add_member(
        self, guild: Guild | int, user: User | int, roles: Iterable[Role | int] = ()
    ) -> Member:
        return self.world.add_member(guild, user, roles)

    def add_channel(self, guild: Guild | int, name: str) -> Channel:
        return self.world.add_channel(guild, name)

    def set_permissions(
        self,
        channel: Channel | int,
        target: Role | User | Member | int,
        *,
        allow: int = 0,
        deny: int = 0,
    ) -> None:
        """A channel permission overwrite for a role or a member."""
        self.world.set_overwrite(channel, target, allow, deny)

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self.gateway.dispatch(event, data)

    async def drop_gateway(
        self, mode: DropMode = "resume", *, wait: bool = True, shard: tuple[int, int] | None = None
    ) -> None:
        """Drop the bot's gateway connection; by default wait until it is back.

        ``shard`` (shard_id, shard_count) picks a shard; default the last one to connect.
        """
        await self.gateway.drop(mode, wait=wait, shard=shard)

    async def wait_connected(self, timeout: float = 10) -> None:
        """Until the bot is connected to the gateway again (after a drop with wait=False)."""
        await self.gateway.wait_connected(timeout)

    # -- errors ---------------------------------------------------------------------------

    def record_error(self, text: str) -> None:
        """A Discord rule the bot broke; fails the test unless inside `expect_errors`."""
        for exp in reversed(self._expectations):
            if exp.matches(text):
                exp.seen.append(text)
                self.expected_errors.append(text)
                return
        log.warning("loopback: %s", text)
        self.errors.append(text)

    @contextlib.contextmanager
    def expect_errors(self, *patterns: str) -> Iterator[Expectation]:
        """Errors matching these regexes are expected here, and each must occur."""
        exp = Expectation(patterns)
        self._expectations.append(exp)
        try:
            yield exp
        finally:
            self._expectations.remove(exp)
        missing = [p for p in patterns if not any(re.search(p, e) for e in exp.seen)]
        if missing:
            raise AssertionError(f"expected loopback errors did not occur: {missing}")

    def take_errors(self) -> list[str]:
        errors, self.errors = self.errors, []
        return errors

    def assert_no_errors(self) -> None:
        """Raise (and clear) if the bot broke any rule since the last check."""
        errors = self.take_errors()
        if errors:
            raise AssertionError("loopback Discord recorded errors:\n" + "\n".join(errors))

    # -- idleness -------------------------------------------------------------------------

    def _frame_written(self, frame: dict[str, Any]) -> None:
        """An interaction's frame is on its way to the bot: note when (the first copy)."""
        if frame.get("t") == "INTERACTION_CREATE":
            it = self.interactions.get(int(frame["d"]["id"]))
            if it is not None and it.sent is None:
                it.sent = time.perf_counter()

    def touch(self) -> None:
        self._last_activity = time.monotonic()

    def busy_reasons(self) -> list[str]:
        reasons = [f"{self._inflight} REST request(s) in flight"] if self._inflight else []
        for it in self.interactions.values():
            if it.response_type is None and not it.expired:
                reasons.append(f"{it.describe()} awaits its initial response")
            elif it.response_type == 5 and not it.token_dead:
                msg = self.world.messages.get(it.original_id or 0)
                if msg is not None and msg.loading and not msg.deleted:
                    reasons.append(f"{it.describe()} was deferred and is still thinking")
        if not self.gateway.idle:
            reasons.append("gateway frames not yet written")
        return reasons

    async def wait_idle(self, quiet: float = 0.15, timeout: float = 10) -> None:
        """Until nothing awaits a response, no request is in flight and `quiet` s passed."""
        deadline = time.monotonic() + timeout
        while True:
            reasons = self.busy_reasons()
            if not reasons and time.monotonic() - self._last_activity >= quiet:
                return
            if time.monotonic() > deadline:
                raise TimeoutError("loopback never went idle: " + "; ".join(reasons or ["busy"]))
            await asyncio.sleep(0.02)

    # -- HTTP -----------------------------------------------------------------------------

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        att = self.attachment_store.get(int(request.match_info["id"]))
        if att is None or att.filename != request.match_info["filename"]:
            return web.Response(status=404)
        return web.Response(
            body=att.data, content_type=att.content_type or "application/octet-stream"
        )

    async def _api(self, request: web.Request) -> web.Response:
        full = request.path
        if not full.startswith("/api/v10/"):
            self.record_error(f"request outside /api/v10: {request.method} {full}")
            return json_response({"code": 0, "message": "404: Not Found"}, 404)
        path = full[len("/api/v10") :]
        self._inflight += 1
        self.touch()
        try:
            response = await self._handle(request, path)
        finally:
            self._inflight -= 1
            self.touch()
        self.requests.append(
            RequestRecord(request.method, path, response.status, dict(request.query))
        )
        return response

    async def _handle(self, request: web.Request, path: str) -> web.Response:
        fault = self.faults.take(request.method, path)
        if fault is not None:
            await request.read()
            if fault.status == 429:
                return rate_limited(fault.retry_after, global_=fault.global_)
            return json_response(
                {"code": 0, "message": f"{fault.status}: Server Error"}, fault.status
            )
        found = self.rest.match(request.method, path)
        limited = self.rest.over_global_limit(request, found[0] if found else None)
        if limited is not None:
            await request.read()
            return limited
        if found is None:
            self.record_error(f"unhandled route {request.method} {path}")
            return json_response({"code": 0, "message": "404: Not Found"}, 404)
        route, params = found
        if route.auth and request.headers.get("Authorization") != f"Bot {self.token}":
            self.record_error(f"401 unauthorized {request.method} {path}")
            return json_response({"code": 0, "message": "401: Unauthorized"}, 401)
        try:
            response = await route.handler(request, **params)
        except ApiError as err:
            if err.record:
                self.record_error(f"{request.method} {path} -> {err.status} {err}")
            return err.response()
        if self.spec is not None and response.content_type == "application/json":
            body = json.loads(response.body)  # type: ignore[arg-type]
            for problem in self.spec.response_problems(
                request.method, route.template, response.status, body
            ):
                self.record_error(f"spec: {request.method} {route.template}: {problem}")
        return response
