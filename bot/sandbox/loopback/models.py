"""The fake Discord's world: snowflakes, users, guilds, roles, channels, members, messages.

Objects here are the single source of truth. The driver hands the same objects to tests, so a
`Message` a test holds is always the current version (edits mutate it in place).
"""

from __future__ import annotations

import io
import os
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL import Image

DISCORD_EPOCH_MS = 1420070400000


class Snowflakes:
    """Time-based snowflake generator, strictly increasing, like Discord's ids."""

    def __init__(self) -> None:
        self._last = 0
        self._worker = os.getpid() & 0x1F

    def __call__(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        candidate = (ms << 22) | (self._worker << 17)
        self._last = max(candidate, self._last + 1)
        return self._last


def iso(ts: float) -> str:
    """Discord's ISO 8601 timestamp for a POSIX time."""
    return datetime.fromtimestamp(ts, UTC).isoformat()


class P:
    """Permission bits (the ones the fake checks or hands out)."""

    CREATE_INSTANT_INVITE = 1 << 0
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    USE_EXTERNAL_EMOJIS = 1 << 18
    CONNECT = 1 << 20
    SPEAK = 1 << 21
    CHANGE_NICKNAME = 1 << 26
    MANAGE_ROLES = 1 << 28
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38
    ALL = (1 << 51) - 1

    EVERYONE_DEFAULT = (
        CREATE_INSTANT_INVITE
        | ADD_REACTIONS
        | VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | USE_EXTERNAL_EMOJIS
        | CONNECT
        | SPEAK
        | CHANGE_NICKNAME
        | USE_APPLICATION_COMMANDS
        | CREATE_PUBLIC_THREADS
        | CREATE_PRIVATE_THREADS
        | SEND_MESSAGES_IN_THREADS
    )
    BOT_DEFAULT = EVERYONE_DEFAULT | MANAGE_MESSAGES | MANAGE_THREADS


class ChannelType:
    GUILD_TEXT = 0
    DM = 1
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12
    THREADS = (PUBLIC_THREAD, PRIVATE_THREAD)


class MessageFlags:
    HAS_THREAD = 1 << 5
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    IS_COMPONENTS_V2 = 1 << 15


@dataclass(eq=False)
class User:
    """A Discord user (a person or the bot)."""

    id: int
    name: str
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"<User {self.name} {self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }

    def __repr__(self) -> str:
        return f"<Role {self.name} {self.id}>"


@dataclass(eq=False)
class Overwrite:
    id: int
    type: int  # 0 role, 1 member
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass(eq=False)
class Channel:
    """A text channel, a thread (parent_id set) or a DM (guild_id None)."""

    id: int
    guild_id: int | None
    name: str
    type: int = ChannelType.GUILD_TEXT
    parent_id: int | None = None
    owner_id: int | None = None
    position: int = 0
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    recipients: list[User] = field(default_factory=list)
    created: float = field(default_factory=time.time)
    last_message_id: int | None = None
    message_count: int = 0

    @property
    def is_thread(self) -> bool:
        return self.type in ChannelType.THREADS

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "last_message_id": str(self.last_message_id) if self.last_message_id else None,
            "flags": 0,
            "rate_limit_per_user": 0,
        }
        if self.type == ChannelType.DM:
            data.pop("name")
            data["recipients"] = [u.payload() for u in self.recipients]
            return data
        data["guild_id"] = str(self.guild_id)
        data["nsfw"] = False
        if self.is_thread:
            data.update(
                parent_id=str(self.parent_id),
                owner_id=str(self.owner_id),
                message_count=self.message_count,
                total_message_sent=self.message_count,
                member_count=1,
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": iso(self.created),
                    "locked": False,
                    "invitable": True,
                    "create_timestamp": iso(self.created),
                },
            )
        else:
            data.update(
                position=self.position,
                parent_id=None,
                topic=None,
                permission_overwrites=[o.payload() for o in self.overwrites.values()],
                default_thread_rate_limit_per_user=0,
            )
        return data

    def __repr__(self) -> str:
        return f"<Channel #{self.name} {self.id}>"


@dataclass(eq=False)
class Member:
    user: User
    guild_id: int
    roles: list[int] = field(default_factory=list)
    joined: float = field(default_factory=time.time)

    def payload(self, *, with_user: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.roles],
            "joined_at": iso(self.joined),
            "nick": None,
            "avatar": None,
            "banner": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        return data


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    created: float = field(default_factory=time.time)

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    def base_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "region": "",
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "max_members": 500000,
        }

    def __repr__(self) -> str:
        return f"<Guild {self.name} {self.id}>"


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    url: str = ""
    width: int | None = None
    height: int | None = None

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        if self.description:
            data["description"] = self.description
        if self.width is not None:
            data["width"], data["height"] = self.width, self.height
        return data

    def image(self) -> Image.Image:
        """Decode the attachment as an image (Pillow)."""
        from PIL import Image

        img = Image.open(io.BytesIO(self.data))
        img.load()
        return img


@dataclass(frozen=True)
class Button:
    """A button as a person sees it on a message."""

    label: str | None
    custom_id: str | None
    style: int
    disabled: bool
    emoji: str | None
    url: str | None
    raw: dict[str, Any]


@dataclass(frozen=True)
class Select:
    """A select menu as a person sees it on a message."""

    type: int
    custom_id: str
    placeholder: str | None
    options: list[dict[str, Any]]
    min_values: int
    max_values: int
    disabled: bool
    raw: dict[str, Any]


def walk_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Flatten rows, containers and sections into the interactive leaves, in order."""
    out: list[dict[str, Any]] = []
    for comp in components:
        out.append(comp)
        out.extend(walk_components(comp.get("components") or []))
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                out.extend(walk_components([comp[key]]))
    return out


def emoji_text(emoji: dict[str, Any] | None) -> str | None:
    if not emoji:
        return None
    return emoji.get("name") or (str(emoji["id"]) if emoji.get("id") else None)


@dataclass(eq=False)
class Message:
    """A message, always in its current version (edits mutate it; `.deleted` once deleted)."""

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    invoker_id: int | None = None
    timestamp: float = field(default_factory=time.time)
    edited: float | None = None
    edits: int = 0
    deleted: bool = False
    thread_id: int | None = None
    visibility: Any = None  # callable(user_id, channel_id) -> bool, set by the world

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MessageFlags.EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & MessageFlags.LOADING)

    def visible_to(self, user: User | int) -> bool:
        """Whether this person can see the message (ephemerals: only their invoker)."""
        uid = user if isinstance(user, int) else user.id
        if self.deleted:
            return False
        if self.ephemeral:
            return uid == self.invoker_id
        return self.visibility is None or self.visibility(uid, self.channel_id)

    def refresh(self) -> Message:
        """Messages are live; kept for symmetry with code that re-fetches."""
        return self

    @property
    def buttons(self) -> list[Button]:
        return [
            Button(
                label=c.get("label"),
                custom_id=c.get("custom_id"),
                style=c.get("style", 1),
                disabled=bool(c.get("disabled", False)),
                emoji=emoji_text(c.get("emoji")),
                url=c.get("url"),
                raw=c,
            )
            for c in walk_components(self.components)
            if c.get("type") == 2
        ]

    @property
    def selects(self) -> list[Select]:
        return [
            Select(
                type=c["type"],
                custom_id=c.get("custom_id", ""),
                placeholder=c.get("placeholder"),
                options=list(c.get("options") or []),
                min_values=c.get("min_values", 1),
                max_values=c.get("max_values", 1),
                disabled=bool(c.get("disabled", False)),
                raw=c,
            )
            for c in walk_components(self.components)
            if c.get("type") in (3, 5, 6, 7, 8)
        ]

    def image(self, i: int = 0) -> Image.Image:
        """The i-th attachment decoded as a PIL image."""
        return self.attachments[i].image()

    def text(self) -> str:
        """Content, embed texts and text displays joined: what a reader sees, for asserts."""
        parts = [self.content] if self.content else []
        for e in self.embeds:
            parts.extend(
                str(x)
                for x in (
                    (e.get("author") or {}).get("name"),
                    e.get("title"),
                    e.get("description"),
                )
                if x
            )
            for f in e.get("fields") or []:
                parts.extend((str(f.get("name", "")), str(f.get("value", ""))))
            if (e.get("footer") or {}).get("text"):
                parts.append(e["footer"]["text"])
        for c in walk_components(self.components):
            if c.get("type") == 10 and c.get("content"):
                parts.append(c["content"])
        return "\n".join(parts)

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.timestamp),
            "edited_timestamp": iso(self.edited) if self.edited else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        return data

    def __repr__(self) -> str:
        state = " deleted" if self.deleted else ""
        return f"<Message {self.id} in {self.channel_id}{state} {self.text()[:40]!r}>"
