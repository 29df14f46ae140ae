"""What the page receives: messages as one person sees them, channels, people and commands.

Nothing here knows any game: messages carry whatever content, embeds, images and
components the bot sent, and the page draws them. Text goes out as data, never as HTML.
"""

from __future__ import annotations

import copy
from typing import Any
from urllib.parse import quote

from ..loopback import Attachment, Channel, Guild, Message, User
from .world import SandboxWorld


def attachment_url(message: Message, attachment: Attachment, viewer: int) -> str:
    """The page's address of an attachment, checked against the viewer when served."""
    name = quote(attachment.filename)
    return f"/api/attachments/{message.id}/{attachment.id}/{name}?viewer={viewer}"


def user_json(user: User) -> dict[str, Any]:
    return {"id": str(user.id), "name": user.name, "bot": user.bot}


def channel_json(channel: Channel) -> dict[str, Any]:
    return {
        "id": str(channel.id),
        "name": channel.name,
        "thread": channel.is_thread,
        "parent_id": str(channel.parent_id) if channel.parent_id else None,
    }


def _embeds(message: Message, urls: dict[str, str]) -> list[dict[str, Any]]:
    """Embeds with ``attachment://name`` images pointing at the page's attachment route, with
    the picture's size as Discord gives it (so the page makes room before it loads)."""
    embeds = copy.deepcopy(message.embeds)
    files = {a.filename: a for a in message.attachments}
    for embed in embeds:
        for key in ("image", "thumbnail"):
            media = embed.get(key)
            if isinstance(media, dict) and str(media.get("url", "")).startswith("attachment://"):
                name = media["url"][len("attachment://") :]
                media["url"] = urls.get(name, "")
                found = files.get(name)
                if found is not None and found.width is not None:
                    media["width"], media["height"] = found.width, found.height
    return embeds


def message_json(world: SandboxWorld, message: Message, viewer: int) -> dict[str, Any]:
    """One message as ``viewer`` sees it."""
    urls = {a.filename: attachment_url(message, a, viewer) for a in message.attachments}
    embedded = {
        str((e.get(key) or {}).get("url", ""))[len("attachment://") :]
        for e in message.embeds
        for key in ("image", "thumbnail")
    }
    meta = message.interaction_metadata or {}
    invoker = world.fake.world.users.get(message.invoker_id or 0)
    return {
        "id": str(message.id),
        "author": user_json(message.author),
        "content": message.content,
        "embeds": _embeds(message, urls),
        "attachments": [
            {
                "id": str(a.id),
                "filename": a.filename,
                "url": urls[a.filename],
                "content_type": a.content_type,
                "width": a.width,
                "height": a.height,
                "description": a.description,
                "in_embed": a.filename in embedded,
            }
            for a in message.attachments
        ],
        "components": message.components,
        "ephemeral": message.ephemeral,
        "loading": message.loading,
        "timestamp": message.timestamp,
        "edited": message.edited is not None,
        "command": meta.get("name"),
        "invoker": user_json(invoker) if invoker is not None and meta else None,
    }


def mentions_json(world: SandboxWorld, guild: Guild) -> dict[str, dict[str, str]]:
    """Names for ``<@id>``, ``<@&id>`` and ``<#id>`` in message text (the server's roles;
    the channels of every server)."""
    return {
        "users": {str(u.id): u.name for u in world.fake.world.users.values()},
        "roles": {str(r.id): r.name for r in guild.roles.values()},
        "channels": {str(c.id): c.name for g in world.servers for c in g.channels.values()},
    }


def server_json(world: SandboxWorld, guild: Guild) -> dict[str, Any]:
    return {"id": str(guild.id), "name": guild.name, "shard": world.shard(guild)}


def state_json(
    world: SandboxWorld, guild: Guild | None = None, *, cluster: bool = False
) -> dict[str, Any]:
    """A server (default: the first), its channels, the people one can act as, the bot,
    mention names, every server (to switch to), and whether a cluster runs the bot."""
    guild = guild or world.guild
    return {
        "server": {"id": str(guild.id), "name": guild.name},
        "servers": [server_json(world, g) for g in world.servers],
        "channels": [channel_json(c) for c in world.channels(guild)],
        "people": [{**user_json(p), "owner": p.id == guild.owner_id} for p in world.people],
        "bot": user_json(world.bot),
        "mentions": mentions_json(world, guild),
        "revision": world.fake.revision,
        "cluster": cluster,
    }


def commands_json(commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Chat-input commands flattened to their runnable paths, each with its options."""
    out: list[dict[str, Any]] = []
    for command in sorted(commands, key=lambda c: c["name"]):
        if command.get("type", 1) == 1:
            _flatten(command["name"], command, out)
    return out


def _flatten(path: str, node: dict[str, Any], out: list[dict[str, Any]]) -> None:
    options = node.get("options") or []
    subs = [o for o in options if o.get("type") in (1, 2)]
    if not subs:
        out.append(
            {
                "path": path,
                "description": node.get("description", ""),
                "options": [_option(o) for o in options],
            }
        )
        return
    for sub in subs:
        _flatten(f"{path} {sub['name']}", sub, out)


def _option(option: dict[str, Any]) -> dict[str, Any]:
    keys = (
        "name",
        "description",
        "type",
        "required",
        "choices",
        "autocomplete",
        "min_value",
        "max_value",
        "min_length",
        "max_length",
        "channel_types",
    )
    return {k: option[k] for k in keys if k in option}
