"""The sandbox page's server: one static page, a JSON API acting as people, live notices.

Every read is made as one person (``viewer``): the API never hands the page an ephemeral
message or attachment that this person could not see in Discord. Every action goes through
the loopback driver, so Discord's client rules apply, and its refusals reach the person.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from pathlib import Path
from typing import Any, Protocol

from aiohttp import WSMsgType, web

from ..loopback import InteractionRefused, InteractionResult, Modal, User
from .serialize import commands_json, mentions_json, message_json, state_json
from .world import SandboxWorld

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
ASSETS = {"app.js": "text/javascript", "app.css": "text/css"}
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
OPTION_KINDS = {6: "user", 7: "channel", 8: "role", 9: "mentionable"}
MESSAGE_LIMIT = 100  # the newest messages of a channel the page shows, as Discord loads them

WORLD = web.AppKey("world", SandboxWorld)
SOCKETS: web.AppKey[set[web.WebSocketResponse]] = web.AppKey("sockets", set)
MODALS = web.AppKey("modals", dict)
TASKS = web.AppKey("tasks", set)


class ClusterControl(Protocol):
    """The bot processes of a sandbox cluster, as the page's Cluster panel sees them."""

    async def snapshot(self) -> dict[str, Any]:
        """Every shard with its holder, every process with its state."""
        ...

    async def act(self, process: str, action: str) -> str | None:
        """Do ``action`` to ``process``; None, or why it cannot be done."""
        ...


CLUSTER = web.AppKey("cluster", ClusterControl)


class BadRequest(Exception):
    """Something the page sent that makes no sense; told back to the person."""


def _world(request: web.Request) -> SandboxWorld:
    return request.app[WORLD]


def _error(text: str, status: int = 200) -> web.Response:
    """A refusal the person reads (200: the page worked; ``ok`` false), or a bad request."""
    return web.json_response({"ok": False, "error": text}, status=status)


@web.middleware
async def guard(request: web.Request, handler: Any) -> web.StreamResponse:
    """Local pages only (no DNS rebinding), JSON bodies only (no cross-site forms)."""
    host = (request.host or "").rsplit(":", 1)[0].strip("[]")
    if host not in LOCAL_HOSTS:
        return web.Response(status=403, text="The sandbox answers on 127.0.0.1 only.")
    if request.method == "POST" and request.content_type != "application/json":
        return _error("send JSON", 415)
    try:
        response = await handler(request)
    except BadRequest as problem:
        return _error(str(problem), 400)
    except InteractionRefused as refusal:
        return _error(str(refusal))
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    return response


# --- reading the request ------------------------------------------------------------------


def _id(value: Any, what: str) -> int:
    try:
        return int(str(value))
    except ValueError:
        raise BadRequest(f"{what} must be an id, not {value!r}") from None


def _viewer(world: SandboxWorld, value: Any) -> User:
    person = world.person(_id(value, "viewer"))
    if person is None:
        raise BadRequest("choose one of the sandbox's people to act as")
    return person


def _channel_id(world: SandboxWorld, value: Any) -> int:
    channel = world.channel(_id(value, "channel"))
    if channel is None:
        raise BadRequest("no such channel in the sandbox's servers")
    return channel.id


async def _body(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except json.JSONDecodeError:
        raise BadRequest("the request body is not JSON") from None
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    return body


# --- slash command options ----------------------------------------------------------------


def _commands(world: SandboxWorld, channel_id: int) -> list[dict[str, Any]]:
    """The commands usable in a channel: global ones, overridden by the server's own."""
    channel = world.channel(channel_id)
    named = {c["name"]: c for c in world.fake.commands()}
    if channel is not None and channel.guild_id is not None:
        named.update({c["name"]: c for c in world.fake.commands(channel.guild_id)})
    return list(named.values())


def _leaf(world: SandboxWorld, channel_id: int, path: str) -> dict[str, Any] | None:
    """The synced schema of a runnable command path such as ``qdice start``."""
    flat = {c["path"]: c for c in commands_json(_commands(world, channel_id))}
    return flat.get(" ".join(path.strip().lstrip("/").split()))


def _typed(option: dict[str, Any], value: Any) -> Any:
    """A value the page typed, as the option's type (Discord's client converts the same)."""
    kind, name = option["type"], option["name"]
    try:
        if kind == 4:
            return value if isinstance(value, int) else int(str(value).strip())
        if kind == 10:
            number = float(str(value).strip())
            return int(number) if number.is_integer() and "." not in str(value) else number
        if kind == 5:
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("true", "false"):
                return text == "true"
            raise ValueError
        if kind in OPTION_KINDS:
            return int(str(value).strip().lstrip("<@&#!").rstrip(">"))
    except ValueError:
        wanted = {4: "a whole number", 10: "a number", 5: "true or false"}
        raise InteractionRefused(
            f"option {name!r} takes {wanted.get(kind, 'a ' + OPTION_KINDS.get(kind, 'value'))}"
        ) from None
    return value if isinstance(value, str) else str(value)


def _options(schema: dict[str, Any] | None, raw: Any, focused: str | None = None) -> dict[str, Any]:
    """Options with blanks dropped and values converted to their declared types."""
    if not isinstance(raw, dict):
        raise BadRequest("options must be an object")
    given = {str(k): v for k, v in raw.items() if v is not None and (v != "" or k == focused)}
    if schema is None:
        return given
    declared = {o["name"]: o for o in schema["options"]}
    out: dict[str, Any] = {}
    for name, value in given.items():
        option = declared.get(name)
        if option is None or name == focused:
            out[name] = value  # the driver refuses unknown options as Discord would
        else:
            out[name] = _typed(option, value)
    return out


# --- results ------------------------------------------------------------------------------


def modal_json(modal_id: str, modal: Modal) -> dict[str, Any]:
    return {"id": modal_id, "title": modal.title, "fields": modal.fields}


def _result(request: web.Request, person: User, result: InteractionResult) -> web.Response:
    it = result.interaction
    if it.expired:
        return _error("The application did not respond (this interaction failed).")
    body: dict[str, Any] = {"ok": True, "type": result.type}
    if result.modal is not None:
        modals: dict[str, tuple[int, Modal]] = request.app[MODALS]
        for key in [k for k, (_, m) in modals.items() if m.submitted]:
            del modals[key]
        modals[str(it.id)] = (person.id, result.modal)
        body["modal"] = modal_json(str(it.id), result.modal)
    if result.choices is not None:
        body["choices"] = result.choices
    return web.json_response(body)


async def _act(request: web.Request, person: User, action: Any) -> web.Response:
    """Run one driver action; Discord-client refusals and failures go back as errors."""
    try:
        result = await action
    except InteractionRefused as refusal:
        return _error(str(refusal))
    except (TimeoutError, RuntimeError) as failure:
        log.warning("sandbox action failed: %s", failure)
        return _error(f"The application did not respond: {failure}")
    return _result(request, person, result)


# --- handlers -----------------------------------------------------------------------------


async def index(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})


async def asset(request: web.Request) -> web.StreamResponse:
    name = request.match_info["name"]
    if name not in ASSETS:
        raise web.HTTPNotFound()
    return web.FileResponse(
        STATIC / name, headers={"Content-Type": ASSETS[name], "Cache-Control": "no-store"}
    )


async def get_state(request: web.Request) -> web.Response:
    world = _world(request)
    guild = world.guild  # also for a server of an earlier run that this one does not have
    if request.query.get("server"):
        guild = world.server(_id(request.query["server"], "server")) or world.guild
    return web.json_response(state_json(world, guild, cluster=CLUSTER in request.app))


async def get_messages(request: web.Request) -> web.Response:
    world = _world(request)
    person = _viewer(world, request.query.get("viewer"))
    channel_id = _channel_id(world, request.query.get("channel"))
    messages = world.fake.messages(channel_id, viewer=person)[-MESSAGE_LIMIT:]
    channel = world.fake.world.channels.get(channel_id)
    guild = (
        world.server(channel.guild_id) if channel and channel.guild_id else None
    ) or world.guild
    return web.json_response(
        {
            "viewer": str(person.id),
            "channel": str(channel_id),
            "revision": world.fake.revision,
            "messages": [message_json(world, m, person.id) for m in messages],
            "mentions": mentions_json(world, guild),
        }
    )


async def get_commands(request: web.Request) -> web.Response:
    world = _world(request)
    channel_id = _channel_id(world, request.query.get("channel"))
    return web.json_response({"commands": commands_json(_commands(world, channel_id))})


async def post_slash(request: web.Request) -> web.Response:
    world, body = _world(request), await _body(request)
    person = _viewer(world, body.get("viewer"))
    channel_id = _channel_id(world, body.get("channel"))
    command = str(body.get("command", "")).strip().lstrip("/")
    if not command:
        raise InteractionRefused("type a command after the /")
    options = _options(_leaf(world, channel_id, command), body.get("options") or {})
    action = world.fake.slash(person, command, channel=channel_id, options=options, wait=False)
    return await _act(request, person, action)


async def post_autocomplete(request: web.Request) -> web.Response:
    world, body = _world(request), await _body(request)
    person = _viewer(world, body.get("viewer"))
    channel_id = _channel_id(world, body.get("channel"))
    command = str(body.get("command", "")).strip().lstrip("/")
    focused = str(body.get("focused", ""))
    options = _options(
        _leaf(world, channel_id, command), body.get("options") or {}, focused=focused
    )
    value = options.pop(focused, "")
    try:
        choices = await world.fake.autocomplete(
            person, command, focused=focused, value=value, channel=channel_id, options=options
        )
    except InteractionRefused as refusal:
        return _error(str(refusal))
    except (TimeoutError, RuntimeError) as failure:
        return _error(f"The application did not respond: {failure}")
    return web.json_response({"ok": True, "choices": choices})


async def post_click(request: web.Request) -> web.Response:
    world, body = _world(request), await _body(request)
    person = _viewer(world, body.get("viewer"))
    message_id = _id(body.get("message"), "message")
    custom_id = str(body.get("custom_id", ""))
    action = world.fake.click(person, message_id, custom_id=custom_id, wait=False)
    return await _act(request, person, action)


async def post_select(request: web.Request) -> web.Response:
    world, body = _world(request), await _body(request)
    person = _viewer(world, body.get("viewer"))
    message_id = _id(body.get("message"), "message")
    values = body.get("values")
    if not isinstance(values, list):
        raise BadRequest("values must be a list")
    message = world.fake.world.messages.get(message_id)
    menus = message.selects if message is not None else []
    menu = next((m for m in menus if m.custom_id == body.get("custom_id")), None)
    if menu is not None and menu.type != 3:
        values = [_id(v, "value") for v in values]  # user, role or channel ids
    action = world.fake.select(
        person, message_id, values, custom_id=str(body.get("custom_id", "")), wait=False
    )
    return await _act(request, person, action)


async def post_modal(request: web.Request) -> web.Response:
    world, body = _world(request), await _body(request)
    person = _viewer(world, body.get("viewer"))
    modals: dict[str, tuple[int, Modal]] = request.app[MODALS]
    entry = modals.get(str(body.get("modal")))
    values = body.get("values")
    if entry is None:
        return _error("That form is no longer open.")
    if not isinstance(values, dict):
        raise BadRequest("values must be an object")
    owner, modal = entry
    if owner != person.id:
        return _error("Only the person the form was shown to can submit it.")
    opened = InteractionResult(world.fake, modal.interaction)
    action = world.fake.submit_modal(person, opened, values, wait=False)
    return await _act(request, person, action)


async def get_attachment(request: web.Request) -> web.Response:
    world = _world(request)
    person = _viewer(world, request.query.get("viewer"))
    message = world.fake.world.messages.get(_id(request.match_info["message"], "message"))
    if message is None or not message.visible_to(person):
        raise web.HTTPNotFound()
    wanted = _id(request.match_info["attachment"], "attachment")
    found = next((a for a in message.attachments if a.id == wanted), None)
    if found is None:
        raise web.HTTPNotFound()
    return web.Response(
        body=found.data,
        content_type=found.content_type or "application/octet-stream",
        headers={"Cache-Control": "private, max-age=3600"},
    )


async def events(request: web.Request) -> web.WebSocketResponse:
    """A websocket that says "changed" whenever the fake saw activity; the page re-reads."""
    ws = web.WebSocketResponse(heartbeat=20)
    await ws.prepare(request)
    sockets: set[web.WebSocketResponse] = request.app[SOCKETS]
    sockets.add(ws)
    try:
        await ws.send_json({"type": "hello", "revision": _world(request).fake.revision})
        async for msg in ws:
            if msg.type == WSMsgType.ERROR:
                break
    finally:
        sockets.discard(ws)
    return ws


# --- the cluster panel (only when several bot processes run) ----------------------------


async def get_cluster(request: web.Request) -> web.Response:
    return web.json_response(await request.app[CLUSTER].snapshot())


async def post_cluster(request: web.Request) -> web.Response:
    body = await _body(request)
    problem = await request.app[CLUSTER].act(
        str(body.get("process", "")), str(body.get("action", ""))
    )
    if problem is not None:
        return _error(problem)
    return web.json_response({"ok": True})


# --- the application ----------------------------------------------------------------------


def _broadcaster(app: web.Application) -> Any:
    def changed(revision: int) -> None:
        sockets: set[web.WebSocketResponse] = app[SOCKETS]
        tasks: set[asyncio.Task[None]] = app[TASKS]
        for ws in list(sockets):
            if ws.closed:
                sockets.discard(ws)
                continue
            task = asyncio.create_task(_send(ws, {"type": "changed", "revision": revision}))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    return changed


async def _send(ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
    with contextlib.suppress(ConnectionError, RuntimeError):
        await ws.send_json(data)


def create_app(world: SandboxWorld, cluster: ClusterControl | None = None) -> web.Application:
    """The page and its API for this sandbox world; with ``cluster``, the Cluster panel's."""
    app = web.Application(middlewares=[guard])
    app[WORLD] = world
    app[SOCKETS] = set()
    app[MODALS] = {}
    app[TASKS] = set()
    listener = _broadcaster(app)

    async def listen(app: web.Application) -> None:
        world.fake.listeners.append(listener)

    async def close_sockets(app: web.Application) -> None:
        if listener in world.fake.listeners:
            world.fake.listeners.remove(listener)
        sockets: set[web.WebSocketResponse] = app[SOCKETS]
        for ws in list(sockets):
            await ws.close(code=1001, message=b"sandbox stopping")

    app.on_startup.append(listen)
    app.on_shutdown.append(close_sockets)
    app.router.add_get("/", index)
    app.router.add_get("/static/{name}", asset)
    app.router.add_get("/api/state", get_state)
    app.router.add_get("/api/messages", get_messages)
    app.router.add_get("/api/commands", get_commands)
    app.router.add_get("/api/events", events)
    app.router.add_get("/api/attachments/{message}/{attachment}/{filename}", get_attachment)
    app.router.add_post("/api/slash", post_slash)
    app.router.add_post("/api/autocomplete", post_autocomplete)
    app.router.add_post("/api/click", post_click)
    app.router.add_post("/api/select", post_select)
    app.router.add_post("/api/modal", post_modal)
    if cluster is not None:
        app[CLUSTER] = cluster
        app.router.add_get("/api/cluster", get_cluster)
        app.router.add_post("/api/cluster", post_cluster)
    return app
