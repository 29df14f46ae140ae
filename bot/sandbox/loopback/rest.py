"""The REST API under /api/v10: routes, bodies (JSON or multipart) and Discord's answers.

Rule violations answer as Discord would (status + {"code", "message"}) and are recorded in
`fake.errors` through `ApiError(record=True)`.
"""

from __future__ import annotations

import io
import json
import math
import mimetypes
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from aiohttp import web

from .interactions import (
    ALLOWED_CALLBACKS,
    CallbackType,
    InteractionType,
    Modal,
    PendingInteraction,
)
from .models import Attachment, Channel, ChannelType, Message, MessageFlags, P, walk_components
from .validation import command_problems, message_problems, modal_problems

if TYPE_CHECKING:
    from .server import LoopbackDiscord

Handler = Callable[..., Awaitable[web.Response]]

GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12
SENDABLE_FLAGS = 4 | MessageFlags.EPHEMERAL | 4096 | MessageFlags.IS_COMPONENTS_V2


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """JSON with Content-Type exactly application/json (a charset breaks discord.py's login)."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def no_content() -> web.Response:
    return web.Response(status=204)


class ApiError(Exception):
    """An error answer in Discord's shape; `record` puts it in fake.errors (a bot mistake)."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        detail: str = "",
        *,
        record: bool = True,
    ) -> None:
        super().__init__(f"{code} {message}{': ' + detail if detail else ''}")
        self.status, self.code, self.message, self.detail, self.record = (
            status,
            code,
            message,
            detail,
            record,
        )

    def response(self) -> web.Response:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.detail:
            body["errors"] = {"_errors": [{"code": "BASE_TYPE_INVALID", "message": self.detail}]}
        return json_response(body, self.status)


def number_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give every component without one a numeric `id`, in tree order, as Discord does."""
    taken = {c["id"] for c in walk_components(components) if isinstance(c.get("id"), int)}
    counter = 0
    for comp in walk_components(components):
        if not comp.get("id"):
            counter += 1
            while counter in taken:
                counter += 1
            comp["id"] = counter
    return components


def unknown(what: str, code: int) -> ApiError:
    return ApiError(404, code, f"Unknown {what}")


@dataclass
class Route:
    method: str
    pattern: re.Pattern[str]
    handler: Handler
    auth: bool
    template: str


@dataclass
class Body:
    """A request body: the JSON payload and the uploaded files by index."""

    payload: dict[str, Any]
    files: dict[int, tuple[str, bytes]]


_BOUNDARY = re.compile(r'boundary="?([^";]+)"?')
_PART_NAME = re.compile(rb'[;\s]name="([^"]*)"')
_FILE_NAME = re.compile(rb'[;\s]filename(\*?)="?([^";]*)"?')


def _filename(head: bytes) -> str | None:
    """A part's file name (``filename*=utf-8''…`` preferred, percent-escapes undone)."""
    names = {star: value.decode() for star, value in _FILE_NAME.findall(head)}
    if b"*" in names:
        return unquote(names[b"*"].partition("''")[2])
    return unquote(names[b""]) if b"" in names else None


async def read_body(request: web.Request) -> Body:
    """The request's JSON payload and files. Multipart bodies are split here by their
    boundary rather than by aiohttp's reader (which parses every part's headers with the
    email package, most of the fake's time per uploaded picture)."""
    content_type = request.headers.get("Content-Type", "")
    raw = await request.read()
    if not content_type.startswith("multipart/"):
        return Body(json.loads(raw) if raw else {}, {})
    found = _BOUNDARY.search(content_type)
    if found is None:
        raise ApiError(400, 50109, "The request body contains invalid JSON.", "no boundary")
    payload: dict[str, Any] = {}
    files: dict[int, tuple[str, bytes]] = {}
    for part in raw.split(b"--" + found.group(1).encode())[1:]:
        if part.startswith(b"--"):
            break  # the closing delimiter
        head, separator, data = part.partition(b"\r\n\r\n")
        named = _PART_NAME.search(head)
        if not separator or named is None:
            continue
        data = data.removesuffix(b"\r\n")
        name = named.group(1).decode()
        if name == "payload_json":
            payload = json.loads(data)
        elif m := re.fullmatch(r"files\[(\d+)\]", name):
            label = _filename(head) or f"file{m.group(1)}"
            files[int(m.group(1))] = (label, data)
    return Body(payload, files)


class GlobalRateLimit:
    """Discord's global limit: ``limit`` requests per ``window`` seconds per bot token, over
    all of the bot's processes. Counted in fixed windows, the first starting with the first
    request; a request over the limit is answered 429 until the window ends."""

    def __init__(self, limit: int | None, window: float = 1.0) -> None:
        self.limit = limit
        self.window = window
        self.rejected = 0
        self._start = -float("inf")
        self._count = 0

    def reset(self) -> None:
        """Start afresh: the next request opens a new window."""
        self._start, self._count = -float("inf"), 0

    def take(self, now: float) -> float | None:
        """Count a request; None if it may pass, else the seconds until the window ends."""
        if self.limit is None:
            return None
        if now - self._start >= self.window:
            self._start, self._count = now, 0
        if self._count >= self.limit:
            self.rejected += 1
            return self._start + self.window - now
        self._count += 1
        return None


EXEMPT_FROM_GLOBAL = ("/interactions/", "/webhooks/")
"""Interaction callbacks and interaction-token webhooks: not bound by the global limit."""


def rate_limited(retry_after: float, *, global_: bool) -> web.Response:
    """A 429 as Discord sends it; discord.py retries it only with ``Via`` and JSON retry_after."""
    return json_response(
        {
            "message": "You are being rate limited.",
            "retry_after": retry_after,
            "global": global_,
            "code": 0,
        },
        429,
        {
            "Via": "1.1 google",
            "Retry-After": str(max(1, math.ceil(retry_after))),
            "X-RateLimit-Scope": "global" if global_ else "user",
            **({"X-RateLimit-Global": "true"} if global_ else {}),
        },
    )


class RestApi:
    """Route table and handlers; state lives in the fake (`self.fake.world`, interactions)."""

    def __init__(self, fake: LoopbackDiscord, *, global_rate_limit: int | None = 50) -> None:
        self.fake = fake
        self.world = fake.world
        self.global_limit = GlobalRateLimit(global_rate_limit)
        self.routes: list[Route] = []
        r = self._route
        r("GET", "/users/@me", self.get_me)
        r("GET", "/users/{user_id}", self.get_user)
        r("POST", "/users/@me/channels", self.create_dm)
        r("GET", "/oauth2/applications/@me", self.get_application)
        r("GET", "/applications/@me", self.get_application)
        r("GET", "/gateway", self.get_gateway, auth=False)
        r("GET", "/gateway/bot", self.get_gateway)
        for prefix in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            r("GET", prefix + "/commands", self.list_commands)
            r("PUT", prefix + "/commands", self.put_commands)
            r("POST", prefix + "/commands", self.post_command)
            r("GET", prefix + "/commands/{command_id}", self.get_command)
            r("PATCH", prefix + "/commands/{command_id}", self.patch_command)
            r("DELETE", prefix + "/commands/{command_id}", self.delete_command)
        r("GET", "/applications/{app_id}/guilds/{guild_id}/commands/permissions", self.empty_list)
        r(
            "POST",
            "/interactions/{interaction_id}/{token}/callback",
            self.interaction_callback,
            auth=False,
        )
        r("POST", "/webhooks/{app_id}/{token}", self.followup_create, auth=False)
        for method, handler in (
            ("GET", self.webhook_message_get),
            ("PATCH", self.webhook_message_edit),
            ("DELETE", self.webhook_message_delete),
        ):
            r(method, "/webhooks/{app_id}/{token}/messages/{message_id}", handler, auth=False)
        r("GET", "/channels/{channel_id}", self.get_channel)
        r("GET", "/channels/{channel_id}/messages", self.list_messages)
        r("POST", "/channels/{channel_id}/messages", self.create_message)
        r("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message)
        r("POST", "/channels/{channel_id}/typing", self.typing)
        r("POST", "/channels/{channel_id}/threads", self.create_thread)
        r("POST", "/channels/{channel_id}/messages/{message_id}/threads", self.create_thread)
        r("GET", "/guilds/{guild_id}", self.get_guild)
        r("GET", "/guilds/{guild_id}/channels", self.guild_channels)
        r("GET", "/guilds/{guild_id}/roles", self.guild_roles)
        r("GET", "/guilds/{guild_id}/members", self.guild_members)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self.guild_member)
        r("GET", "/guilds/{guild_id}/threads/active", self.active_threads)

    def _route(self, method: str, template: str, handler: Handler, *, auth: bool = True) -> None:
        regex = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template)
        self.routes.append(Route(method, re.compile(f"^{regex}$"), handler, auth, template))

    @property
    def global_rate_limit(self) -> int | None:
        """Requests per second allowed per bot token (None: no global limit)."""
        return self.global_limit.limit

    @global_rate_limit.setter
    def global_rate_limit(self, limit: int | None) -> None:
        self.global_limit.limit = limit

    @property
    def global_429s(self) -> int:
        """429s answered for the global limit."""
        return self.global_limit.rejected

    def over_global_limit(self, request: web.Request, route: Route | None) -> web.Response | None:
        """The 429 for a bot request over the global limit (None: it may go on)."""
        if request.headers.get("Authorization") != f"Bot {self.fake.token}":
            return None
        if route is not None and route.template.startswith(EXEMPT_FROM_GLOBAL):
            return None
        wait = self.global_limit.take(time.monotonic())
        if wait is None:
            return None
        return rate_limited(round(wait, 3), global_=True)

    def match(self, method: str, path: str) -> tuple[Route, dict[str, str]] | None:
        for route in self.routes:
            if route.method == method and (m := route.pattern.match(path)):
                return route, m.groupdict()
        return None

    # -- lookups --------------------------------------------------------------------------

    def channel(self, channel_id: str) -> Channel:
        ch = self.world.channels.get(int(channel_id)) if channel_id.isdigit() else None
        if ch is None:
            raise unknown("Channel", 10003)
        return ch

    def guild(self, guild_id: str) -> Any:
        g = self.world.guilds.get(int(guild_id)) if guild_id.isdigit() else None
        if g is None:
            raise unknown("Guild", 10004)
        return g

    def message(self, channel: Channel, message_id: str) -> Message:
        msg = self.world.messages.get(int(message_id)) if message_id.isdigit() else None
        if msg is None or msg.deleted or msg.channel_id != channel.id or msg.ephemeral:
            raise unknown("Message", 10008)
        return msg

    def require(self, channel: Channel, *perms: int) -> None:
        """The bot's own channel permissions, as Discord checks them (50001 / 50013)."""
        have = self.world.permissions(self.world.bot_user.id, channel)
        if not have & P.VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access", f"channel {channel.name}")
        missing = [p for p in perms if not have & p]
        if missing:
            raise ApiError(403, 50013, "Missing Permissions", f"channel {channel.name}")

    # -- identity -------------------------------------------------------------------------

    async def get_me(self, request: web.Request) -> web.Response:
        return json_response(
            {
                **self.world.bot_user.payload(),
                "verified": True,
                "mfa_enabled": False,
                "locale": "en-US",
                "premium_type": 0,
                "email": None,
            }
        )

    async def get_user(self, request: web.Request, user_id: str) -> web.Response:
        user = self.world.users.get(int(user_id)) if user_id.isdigit() else None
        if user is None:
            raise unknown("User", 10013)
        return json_response(user.payload())

    async def create_dm(self, request: web.Request) -> web.Response:
        body = await read_body(request)
        user = self.world.users.get(int(body.payload.get("recipient_id", 0)))
        if user is None:
            raise unknown("User", 10013)
        return json_response(self.world.dm_channel(user).payload())

    async def get_application(self, request: web.Request) -> web.Response:
        world = self.world
        return json_response(
            {
                "id": str(world.application_id),
                "name": world.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "flags_new": "0",
                "role_connections_verification_url": None,
                "approximate_guild_count": len(world.guilds),
                "approximate_user_install_count": 0,
                "approximate_user_authorization_count": 0,
                "explicit_content_filter": 0,
                "eligible_oauth2_scopes": [],
                "owner": self.fake.app_owner.payload(),
                "team": None,
                "bot": world.bot_user.payload(),
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "tags": [],
            }
        )

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": self.fake.ws_url.rstrip("/"),
                "shards": self.fake.shard_count,
                "session_start_limit": self.fake.gateway.session_start_limit(),
            }
        )

    async def empty_list(self, request: web.Request, **_: str) -> web.Response:
        return json_response([])

    # -- application commands -------------------------------------------------------------

    def _scope(self, app_id: str, guild_id: str | None) -> dict[str, dict[str, Any]]:
        if app_id != str(self.world.application_id):
            raise unknown("Application", 10002)
        if guild_id is None:
            return self.fake.global_commands
        self.guild(guild_id)
        return self.fake.guild_commands.setdefault(int(guild_id), {})

    def _stored_command(
        self, cmd: dict[str, Any], guild_id: str | None, old: dict[str, Any] | None
    ) -> dict[str, Any]:
        problems = command_problems(cmd)
        if problems:
            raise ApiError(400, 50035, "Invalid Form Body", "; ".join(problems))
        stored = {
            "type": 1,
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            "contexts": None,
            "integration_types": [0],
            "name_localizations": None,
            "description_localizations": None,
            **cmd,
            "id": old["id"] if old else str(self.world.snowflake()),
            "application_id": str(self.world.application_id),
            "version": str(self.world.snowflake()),
        }
        if stored["type"] != 1:
            stored["description"] = ""
        if guild_id is not None:
            stored["guild_id"] = guild_id
        return stored

    async def list_commands(
        self, request: web.Request, app_id: str, guild_id: str | None = None
    ) -> web.Response:
        return json_response(list(self._scope(app_id, guild_id).values()))

    async def put_commands(
        self, request: web.Request, app_id: str, guild_id: str | None = None
    ) -> web.Response:
        scope = self._scope(app_id, guild_id)
        body = (await read_body(request)).payload
        if not isinstance(body, list) or len(body) > 100:
            raise ApiError(400, 50035, "Invalid Form Body", "expected a list of up to 100 commands")
        new = {
            cmd["name"]: self._stored_command(cmd, guild_id, scope.get(cmd.get("name", "")))
            for cmd in body
        }
        scope.clear()
        scope.update(new)
        self.fake.commands_synced.set()
        return json_response(list(new.values()))

    async def post_command(
        self, request: web.Request, app_id: str, guild_id: str | None = None
    ) -> web.Response:
        scope = self._scope(app_id, guild_id)
        cmd = (await read_body(request)).payload
        old = scope.get(cmd.get("name", ""))
        scope[cmd["name"]] = stored = self._stored_command(cmd, guild_id, old)
        return json_response(stored, 200 if old else 201)

    def _command(self, scope: dict[str, dict[str, Any]], command_id: str) -> dict[str, Any]:
        for cmd in scope.values():
            if cmd["id"] == command_id:
                return cmd
        raise unknown("application command", 10063)

    async def get_command(
        self, request: web.Request, app_id: str, command_id: str, guild_id: str | None = None
    ) -> web.Response:
        return json_response(self._command(self._scope(app_id, guild_id), command_id))

    async def patch_command(
        self, request: web.Request, app_id: str, command_id: str, guild_id: str | None = None
    ) -> web.Response:
        scope = self._scope(app_id, guild_id)
        old = self._command(scope, command_id)
        changes = (await read_body(request)).payload
        del scope[old["name"]]
        merged = {k: v for k, v in old.items() if k not in ("id", "application_id", "version")}
        stored = self._stored_command({**merged, **changes}, guild_id, old)
        scope[stored["name"]] = stored
        return json_response(stored)

    async def delete_command(
        self, request: web.Request, app_id: str, command_id: str, guild_id: str | None = None
    ) -> web.Response:
        scope = self._scope(app_id, guild_id)
        del scope[self._command(scope, command_id)["name"]]
        return no_content()

    # -- message bodies -------------------------------------------------------------------

    def _attachment(self, channel: Channel, filename: str, data: bytes) -> Attachment:
        att = Attachment(
            self.world.snowflake(),
            filename,
            data,
            content_type=mimetypes.guess_type(filename)[0],
        )
        att.url = f"{self.fake.url}/attachments/{channel.id}/{att.id}/{filename}"
        if (att.content_type or "").startswith("image/"):
            from PIL import Image

            try:  # the size is in the header: no need to decode the pixels
                with Image.open(io.BytesIO(data)) as probe:
                    att.width, att.height = probe.size
            except Exception:  # not an image it can read: Discord just omits the size
                att.width = att.height = None
        self.fake.attachment_store[att.id] = att
        return att

    def apply_body(self, msg: Message, body: Body, *, create: bool, channel: Channel) -> None:
        """Validate a create/edit body and apply it to `msg` (content, embeds, files...)."""
        payload = body.payload
        if self.fake.outbox is not None:
            self.fake.outbox.append(("message", payload))
        problems = message_problems(payload)
        if "flags" in payload and int(payload["flags"] or 0) & ~SENDABLE_FLAGS:
            problems.append(f"flags {payload['flags']} include flags a bot cannot set")
        if problems:
            raise ApiError(400, 50035, "Invalid Form Body", "; ".join(problems))
        attachments = list(msg.attachments)
        if "attachments" in payload:
            keep_ids = {str(a.get("id")) for a in payload["attachments"] or []}
            attachments = [a for a in attachments if str(a.id) in keep_ids]
            described = {
                int(a["id"]): a.get("description")
                for a in payload["attachments"] or []
                if str(a.get("id", "")).isdigit() and int(a["id"]) in body.files
            }
        else:
            described = {}
        for index, (filename, data) in sorted(body.files.items()):
            att = self._attachment(channel, filename, data)
            att.description = described.get(index)
            attachments.append(att)
        if len(attachments) > 10:
            raise ApiError(400, 50035, "Invalid Form Body", "at most 10 attachments")
        content = payload.get("content", None if not create else "")
        embeds = payload.get("embeds")
        components = payload.get("components")
        if create and not (content or embeds or components or attachments):
            raise ApiError(400, 50006, "Cannot send an empty message")
        if content is not None:
            msg.content = str(content)
        if embeds is not None:
            msg.embeds = embeds
        if components is not None:
            msg.components = number_components(components)
        msg.attachments = attachments
        if "flags" in payload and payload["flags"] is not None:
            keep = msg.flags & (MessageFlags.EPHEMERAL | MessageFlags.HAS_THREAD)
            msg.flags = keep | (int(payload["flags"]) & ~MessageFlags.EPHEMERAL)
            if create:
                msg.flags |= int(payload["flags"]) & MessageFlags.EPHEMERAL
        names = {a.filename for a in msg.attachments}
        for e in msg.embeds:
            for key in ("image", "thumbnail"):
                url = (e.get(key) or {}).get("url", "")
                if url.startswith("attachment://") and url[13:] not in names:
                    self.fake.record_error(
                        f"message {msg.id}: embed {key} {url} names no attachment of the message"
                    )

    def announce(self, msg: Message, event: str) -> None:
        """MESSAGE_CREATE/UPDATE for what the bot may see (never ephemerals)."""
        if msg.ephemeral:
            return
        intent = GUILD_MESSAGES_INTENT if msg.guild_id else DIRECT_MESSAGES_INTENT
        if not self.world.intents & intent:
            return
        data = msg.payload()
        if msg.guild_id is not None:
            guild = self.world.guilds[msg.guild_id]
            if msg.author.id in guild.members:
                data["member"] = guild.members[msg.author.id].payload(with_user=False)
        self.fake.dispatch(event, data)

    def delete(self, msg: Message) -> None:
        msg.deleted = True
        if not msg.ephemeral:
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id:
                data["guild_id"] = str(msg.guild_id)
            self.fake.dispatch("MESSAGE_DELETE", data)

    # -- channels and messages ------------------------------------------------------------

    async def get_channel(self, request: web.Request, channel_id: str) -> web.Response:
        ch = self.channel(channel_id)
        self.require(ch)
        return json_response(ch.payload())

    async def list_messages(self, request: web.Request, channel_id: str) -> web.Response:
        ch = self.channel(channel_id)
        self.require(ch, P.READ_MESSAGE_HISTORY)
        q = request.query
        limit = max(1, min(100, int(q.get("limit", 50))))
        msgs = [m for m in self.world.channel_messages(ch.id) if not m.ephemeral]
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])][-limit:]
        elif "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])][:limit]
        elif "around" in q:
            around = int(q["around"])
            older = [m for m in msgs if m.id <= around][-((limit + 1) // 2) :]
            newer = [m for m in msgs if m.id > around][: limit // 2]
            msgs = older + newer
        else:
            msgs = msgs[-limit:]
        return json_response([m.payload() for m in reversed(msgs)])

    def _send_perms(self, ch: Channel, body: Body) -> list[int]:
        perms = [P.SEND_MESSAGES_IN_THREADS if ch.is_thread else P.SEND_MESSAGES]
        if body.files:
            perms.append(P.ATTACH_FILES)
        return perms

    async def create_message(self, request: web.Request, channel_id: str) -> web.Response:
        ch = self.channel(channel_id)
        body = await read_body(request)
        if ch.type != ChannelType.DM:
            self.require(ch, *self._send_perms(ch, body))
        if int(body.payload.get("flags") or 0) & MessageFlags.EPHEMERAL:
            raise ApiError(
                400, 50035, "Invalid Form Body", "only interaction replies can be ephemeral"
            )
        msg = Message(0, ch.id, ch.guild_id, self.world.bot_user)
        self.apply_body(msg, body, create=True, channel=ch)
        self.world.register(msg)
        self.announce(msg, "MESSAGE_CREATE")
        return json_response(msg.payload())

    async def get_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> web.Response:
        ch = self.channel(channel_id)
        self.require(ch, P.READ_MESSAGE_HISTORY)
        return json_response(self.message(ch, message_id).payload())

    async def edit_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> web.Response:
        ch = self.channel(channel_id)
        msg = self.message(ch, message_id)
        if msg.author.id != self.world.bot_user.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        body = await read_body(request)
        if body.files and ch.type != ChannelType.DM:
            self.require(ch, P.ATTACH_FILES)
        self.apply_body(msg, body, create=False, channel=ch)
        self.world.touch(msg)
        self.announce(msg, "MESSAGE_UPDATE")
        return json_response(msg.payload())

    async def delete_message(
        self, request: web.Request, channel_id: str, message_id: str
    ) -> web.Response:
        ch = self.channel(channel_id)
        msg = self.message(ch, message_id)
        if msg.author.id != self.world.bot_user.id:
            self.require(ch, P.MANAGE_MESSAGES)
        self.delete(msg)
        return no_content()

    async def typing(self, request: web.Request, channel_id: str) -> web.Response:
        ch = self.channel(channel_id)
        if ch.type != ChannelType.DM:
            self.require(ch, P.SEND_MESSAGES_IN_THREADS if ch.is_thread else P.SEND_MESSAGES)
        return no_content()

    async def create_thread(
        self, request: web.Request, channel_id: str, message_id: str | None = None
    ) -> web.Response:
        """A thread from a message (its id is the message's, as on Discord) or standalone."""
        ch = self.channel(channel_id)
        if ch.guild_id is None or ch.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        payload = (await read_body(request)).payload
        name = str(payload.get("name", ""))
        if not 1 <= len(name) <= 100:
            raise ApiError(400, 50035, "Invalid Form Body", "thread name must be 1..100 characters")
        kind = ChannelType.PUBLIC_THREAD
        source = None
        if message_id is not None:
            source = self.message(ch, message_id)
            if source.thread_id is not None:
                raise ApiError(400, 160004, "A thread has already been created for this message")
        else:
            kind = int(payload.get("type", ChannelType.PRIVATE_THREAD))
        self.require(
            ch,
            P.CREATE_PUBLIC_THREADS
            if kind == ChannelType.PUBLIC_THREAD
            else P.CREATE_PRIVATE_THREADS,
        )
        thread = self.world.add_thread(
            ch,
            name,
            self.world.bot_user,
            type=kind,
            thread_id=source.id if source else None,
        )
        if source is not None:
            source.thread_id = thread.id
            source.flags |= MessageFlags.HAS_THREAD
        return json_response(thread.payload(), 201)

    # -- guilds ---------------------------------------------------------------------------

    async def get_guild(self, request: web.Request, guild_id: str) -> web.Response:
        g = self.guild(guild_id)
        return json_response(
            {
                **g.base_payload(),
                "approximate_member_count": len(g.members),
                "approximate_presence_count": 0,
            }
        )

    async def guild_channels(self, request: web.Request, guild_id: str) -> web.Response:
        g = self.guild(guild_id)
        return json_response([c.payload() for c in g.channels.values() if not c.is_thread])

    async def guild_roles(self, request: web.Request, guild_id: str) -> web.Response:
        return json_response([r.payload() for r in self.guild(guild_id).roles.values()])

    async def guild_members(self, request: web.Request, guild_id: str) -> web.Response:
        g = self.guild(guild_id)
        limit = int(request.query.get("limit", 1))
        after = int(request.query.get("after", 0))
        members = sorted(
            (m for uid, m in g.members.items() if uid > after), key=lambda m: m.user.id
        )
        return json_response([m.payload() for m in members[:limit]])

    async def guild_member(self, request: web.Request, guild_id: str, user_id: str) -> web.Response:
        g = self.guild(guild_id)
        member = g.members.get(int(user_id)) if user_id.isdigit() else None
        if member is None:
            raise ApiError(404, 10007, "Unknown Member", record=False)
        return json_response(member.payload())

    async def active_threads(self, request: web.Request, guild_id: str) -> web.Response:
        g = self.guild(guild_id)
        threads = [c.payload() for c in g.channels.values() if c.is_thread]
        return json_response({"threads": threads, "members": []})

    # -- interactions ---------------------------------------------------------------------

    def _interaction_message(
        self, it: PendingInteraction, *, flags: int = 0, followup_of: int | None = None
    ) -> Message:
        """A draft reply to an interaction (register it once its body validated)."""
        world = self.world
        meta: dict[str, Any] = {
            "id": str(it.id),
            "type": it.type,
            "user": it.user.payload(),
            "authorizing_integration_owners": (
                {"0": str(it.channel.guild_id)} if it.channel.guild_id else {"1": str(it.user.id)}
            ),
        }
        if it.type == InteractionType.APPLICATION_COMMAND:
            meta["name"] = it.name
        if it.source is not None:
            meta["interacted_message_id"] = str(it.source.id)
        if followup_of is not None:
            meta["original_response_message_id"] = str(followup_of)
        return Message(
            0,
            it.channel.id,
            it.channel.guild_id,
            world.bot_user,
            flags=flags,
            type=20 if it.type == InteractionType.APPLICATION_COMMAND else 0,
            webhook_id=world.application_id,
            application_id=world.application_id,
            interaction_metadata=meta,
            invoker_id=it.user.id,
        )

    async def interaction_callback(
        self, request: web.Request, interaction_id: str, token: str
    ) -> web.Response:
        arrived = time.perf_counter()
        fake = self.fake
        it = fake.interactions.get(int(interaction_id)) if interaction_id.isdigit() else None
        body = await read_body(request)
        if it is None or it.token != token or it.expired:
            late = f" ({it.describe()} answered after the 3 s deadline)" if it else ""
            raise ApiError(404, 10062, "Unknown interaction", late.strip(" ()"))
        if it.response_type is not None:
            raise ApiError(
                400,
                40060,
                "Interaction has already been acknowledged.",
                it.describe(),
            )
        cb_type = int(body.payload.get("type", 0))
        data = body.payload.get("data") or {}
        allowed = ALLOWED_CALLBACKS.get(it.type, set())
        if it.type == InteractionType.MODAL_SUBMIT and it.source is None:
            allowed = allowed - {6, 7}
        if cb_type not in allowed:
            raise ApiError(
                400, 50035, "Invalid Form Body", f"callback type {cb_type} for {it.describe()}"
            )
        msg: Message | None = None
        if cb_type == CallbackType.CHANNEL_MESSAGE:
            msg = self._interaction_message(it)
            self.apply_body(msg, Body(data, body.files), create=True, channel=it.channel)
            self.world.register(msg)
        elif cb_type == CallbackType.DEFERRED_CHANNEL_MESSAGE:
            ephemeral = int(data.get("flags") or 0) & MessageFlags.EPHEMERAL
            msg = self.world.register(
                self._interaction_message(it, flags=MessageFlags.LOADING | ephemeral)
            )
        elif cb_type in (CallbackType.DEFERRED_UPDATE_MESSAGE, CallbackType.UPDATE_MESSAGE):
            assert it.source is not None
            msg = it.source
            if cb_type == CallbackType.UPDATE_MESSAGE:
                self.apply_body(msg, Body(data, body.files), create=False, channel=it.channel)
                self.world.touch(msg)
                self.announce(msg, "MESSAGE_UPDATE")
        elif cb_type == CallbackType.AUTOCOMPLETE_RESULT:
            choices = data.get("choices") or []
            if len(choices) > 25:
                raise ApiError(400, 50035, "Invalid Form Body", "at most 25 choices")
            it.choices = choices
        elif cb_type == CallbackType.MODAL:
            if fake.outbox is not None:
                fake.outbox.append(("modal", data))
            problems = modal_problems(data)
            if problems:
                raise ApiError(400, 50035, "Invalid Form Body", "; ".join(problems))
            it.modal = Modal(data["title"], data["custom_id"], data["components"], it)
        if msg is not None:
            it.original_id = msg.id
            if cb_type in (CallbackType.CHANNEL_MESSAGE, CallbackType.DEFERRED_CHANNEL_MESSAGE):
                self.announce(msg, "MESSAGE_CREATE")
        it.arrived = arrived
        fake.acknowledge(it, cb_type)
        it.echoed = request.query.get("with_response") in ("1", "true", "True")
        if not it.echoed:
            return no_content()
        result: dict[str, Any] = {
            "interaction": {
                "id": str(it.id),
                "type": it.type,
                "response_message_id": str(msg.id) if msg else None,
                "response_message_loading": bool(msg and msg.loading),
                "response_message_ephemeral": bool(msg and msg.ephemeral),
            },
        }
        if msg is not None:  # the spec has a resource only for message (or activity) answers
            result["resource"] = {"type": cb_type, "message": msg.payload()}
        return json_response(result)

    def _webhook_interaction(self, app_id: str, token: str) -> PendingInteraction:
        it = self.fake.by_token.get(token)
        if it is None or app_id != str(self.world.application_id) or it.response_type is None:
            raise unknown("Webhook", 10015)
        if time.monotonic() - it.created > self.fake.token_lifetime:
            it.token_dead = True
            raise ApiError(401, 50027, "Invalid Webhook Token", it.describe())
        return it

    async def followup_create(self, request: web.Request, app_id: str, token: str) -> web.Response:
        it = self._webhook_interaction(app_id, token)
        body = await read_body(request)
        original = self.world.messages.get(it.original_id or 0)
        if original is not None and original.loading:
            # The first followup after a deferral fills the "thinking" message.
            self.apply_body(original, body, create=False, channel=it.channel)
            original.flags &= ~MessageFlags.LOADING
            self.announce(original, "MESSAGE_UPDATE")
            msg = original
        else:
            ephemeral = int(body.payload.get("flags") or 0) & MessageFlags.EPHEMERAL
            msg = self._interaction_message(it, flags=ephemeral, followup_of=it.original_id)
            self.apply_body(msg, body, create=True, channel=it.channel)
            self.world.register(msg)
            it.followup_ids.append(msg.id)
            self.announce(msg, "MESSAGE_CREATE")
        self.fake.touch()
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(msg.payload())
        return no_content()

    def _webhook_message(self, it: PendingInteraction, message_id: str) -> Message:
        mid = (
            it.original_id
            if message_id == "@original"
            else (int(message_id) if message_id.isdigit() else None)
        )
        ours = {it.original_id, *it.followup_ids}
        msg = self.world.messages.get(mid or 0)
        if msg is None or msg.deleted or mid not in ours:
            raise unknown("Message", 10008)
        return msg

    async def webhook_message_get(
        self, request: web.Request, app_id: str, token: str, message_id: str
    ) -> web.Response:
        it = self._webhook_interaction(app_id, token)
        return json_response(self._webhook_message(it, message_id).payload())

    async def webhook_message_edit(
        self, request: web.Request, app_id: str, token: str, message_id: str
    ) -> web.Response:
        it = self._webhook_interaction(app_id, token)
        msg = self._webhook_message(it, message_id)
        body = await read_body(request)
        self.apply_body(msg, body, create=False, channel=it.channel)
        if msg.loading:
            msg.flags &= ~MessageFlags.LOADING
        else:
            self.world.touch(msg)
        self.announce(msg, "MESSAGE_UPDATE")
        self.fake.touch()
        return json_response(msg.payload())

    async def webhook_message_delete(
        self, request: web.Request, app_id: str, token: str, message_id: str
    ) -> web.Response:
        it = self._webhook_interaction(app_id, token)
        self.delete(self._webhook_message(it, message_id))
        return no_content()
