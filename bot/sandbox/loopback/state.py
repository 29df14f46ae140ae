"""The world the fake serves: who exists, who may see what, and the messages.

Every mutation that the bot would learn about over the gateway goes through `dispatch`, so
changes made by a test after the bot connected reach the bot live (GUILD_CREATE, CHANNEL_*).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from .models import (
    Channel,
    ChannelType,
    Guild,
    Member,
    Message,
    Overwrite,
    P,
    Role,
    Snowflakes,
    User,
)

Dispatch = Callable[[str, dict[str, Any]], None]

GUILD_MEMBERS_INTENT = 1 << 1


def ident(obj: Any) -> int:
    """Accept an entity or a raw id wherever the driver takes one."""
    if isinstance(obj, int):
        return obj
    if isinstance(obj, Member):
        return obj.user.id
    return int(obj.id)


class World:
    """Users, guilds, channels and messages, plus Discord's permission arithmetic."""

    def __init__(self, dispatch: Dispatch) -> None:
        self.snowflake = Snowflakes()
        self.dispatch = dispatch
        self.base_url = ""
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.bot_user = self.add_user("Quantum Loopback Bot", bot=True)
        self.application_id = self.bot_user.id
        self.intents = 0

    # -- building the world ---------------------------------------------------------------

    def add_user(self, name: str, *, bot: bool = False) -> User:
        user = User(self.snowflake(), name, bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(
        self, name: str, owner: User | None = None, *, bot_permissions: int = P.BOT_DEFAULT
    ) -> Guild:
        """A guild with @everyone (id == guild id), its owner, the bot and one #general."""
        owner = owner or self.add_user(f"{name} owner")
        guild = Guild(self.snowflake(), name, owner.id)
        guild.roles[guild.id] = Role(guild.id, guild.id, "@everyone", P.EVERYONE_DEFAULT)
        bot_role = Role(
            self.snowflake(), guild.id, self.bot_user.name, bot_permissions, 1, managed=True
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[owner.id] = Member(owner, guild.id)
        guild.members[self.bot_user.id] = Member(self.bot_user, guild.id, [bot_role.id])
        self.guilds[guild.id] = guild
        channel = Channel(self.snowflake(), guild.id, "general")
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        self.dispatch("GUILD_CREATE", self.guild_create_payload(guild))
        return guild

    def add_role(self, guild: Guild | int, name: str, permissions: int = 0) -> Role:
        g = self.guilds[ident(guild)]
        role = Role(self.snowflake(), g.id, name, permissions, len(g.roles))
        g.roles[role.id] = role
        self.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(g.id), "role": role.payload()})
        return role

    def add_member(
        self, guild: Guild | int, user: User | int, roles: Iterable[Role | int] = ()
    ) -> Member:
        g = self.guilds[ident(guild)]
        member = Member(self.users[ident(user)], g.id, [ident(r) for r in roles])
        g.members[member.user.id] = member
        if self.intents & GUILD_MEMBERS_INTENT:
            self.dispatch("GUILD_MEMBER_ADD", {**member.payload(), "guild_id": str(g.id)})
        return member

    def add_channel(self, guild: Guild | int, name: str) -> Channel:
        g = self.guilds[ident(guild)]
        channel = Channel(self.snowflake(), g.id, name, position=len(g.channels))
        g.channels[channel.id] = channel
        self.channels[channel.id] = channel
        self.dispatch("CHANNEL_CREATE", channel.payload())
        return channel

    def add_thread(
        self,
        parent: Channel,
        name: str,
        owner: User,
        *,
        type: int = ChannelType.PUBLIC_THREAD,
        thread_id: int | None = None,
    ) -> Channel:
        thread = Channel(
            thread_id or self.snowflake(),
            parent.guild_id,
            name,
            type=type,
            parent_id=parent.id,
            owner_id=owner.id,
        )
        self.channels[thread.id] = thread
        self.guilds[ident(parent.guild_id)].channels[thread.id] = thread
        self.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        return thread

    def set_overwrite(
        self, channel: Channel | int, target: Role | User | Member | int, allow: int, deny: int
    ) -> None:
        """Per-channel permission overwrite for a role or a member (as Discord's UI sets)."""
        ch = self.channels[ident(channel)]
        tid = ident(target)
        assert ch.guild_id is not None, "a direct message has no overwrites"
        kind = 0 if isinstance(target, Role) or tid in self.guilds[ch.guild_id].roles else 1
        ch.overwrites[tid] = Overwrite(tid, kind, allow, deny)
        self.dispatch("CHANNEL_UPDATE", ch.payload())

    def dm_channel(self, user: User) -> Channel:
        for ch in self.channels.values():
            if ch.type == ChannelType.DM and ch.recipients == [user]:
                return ch
        ch = Channel(self.snowflake(), None, "", type=ChannelType.DM, recipients=[user])
        self.channels[ch.id] = ch
        return ch

    # -- permissions ----------------------------------------------------------------------

    def guild_permissions(self, guild: Guild, user_id: int) -> int:
        if guild.owner_id == user_id:
            return P.ALL
        member = guild.members.get(user_id)
        if member is None:
            return 0
        perms = guild.everyone.permissions
        for rid in member.roles:
            if rid in guild.roles:
                perms |= guild.roles[rid].permissions
        return P.ALL if perms & P.ADMINISTRATOR else perms

    def permissions(self, user_id: int, channel: Channel | int) -> int:
        """Discord's algorithm: base, then @everyone, role and member overwrites."""
        ch = self.channels[ident(channel)]
        if ch.guild_id is None:
            return P.EVERYONE_DEFAULT if any(u.id == user_id for u in ch.recipients) else 0
        if ch.is_thread and ch.parent_id is not None:
            return self.permissions(user_id, ch.parent_id)
        guild = self.guilds[ch.guild_id]
        member = guild.members.get(user_id)
        perms = self.guild_permissions(guild, user_id)
        if member is None or perms == P.ALL:
            return perms
        if (ow := ch.overwrites.get(guild.id)) is not None:
            perms = (perms & ~ow.deny) | ow.allow
        allow = deny = 0
        for rid in member.roles:
            if (ow := ch.overwrites.get(rid)) is not None:
                allow |= ow.allow
                deny |= ow.deny
        perms = (perms & ~deny) | allow
        if (ow := ch.overwrites.get(user_id)) is not None:
            perms = (perms & ~ow.deny) | ow.allow
        if not perms & P.VIEW_CHANNEL:
            return 0
        return perms

    def can_view(self, user_id: int, channel_id: int) -> bool:
        return channel_id in self.channels and bool(
            self.permissions(user_id, channel_id) & P.VIEW_CHANNEL
        )

    # -- messages -------------------------------------------------------------------------

    def new_message(self, channel: Channel, author: User, **fields: Any) -> Message:
        return self.register(Message(0, channel.id, channel.guild_id, author, **fields))

    def register(self, msg: Message) -> Message:
        """Give a drafted message its id and put it in its channel."""
        msg.id = self.snowflake()
        msg.visibility = self.can_view
        self.messages[msg.id] = msg
        channel = self.channels[msg.channel_id]
        channel.last_message_id = msg.id
        channel.message_count += 1
        return msg

    def touch(self, msg: Message) -> None:
        """Mark an edit the way Discord does (edited_timestamp, edit count)."""
        msg.edited = time.time()
        msg.edits += 1

    def channel_messages(self, channel_id: int) -> list[Message]:
        return sorted(
            (m for m in self.messages.values() if m.channel_id == channel_id and not m.deleted),
            key=lambda m: m.id,
        )

    # -- payloads -------------------------------------------------------------------------

    def guild_create_payload(self, guild: Guild) -> dict[str, Any]:
        """GUILD_CREATE: full members only with the GUILD_MEMBERS intent, like Discord."""
        if self.intents & GUILD_MEMBERS_INTENT:
            members = list(guild.members.values())
        else:
            members = [guild.members[self.bot_user.id]]
        channels = [c for c in guild.channels.values() if not c.is_thread]
        threads = [c for c in guild.channels.values() if c.is_thread]
        return {
            **guild.base_payload(),
            "joined_at": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(guild.created)),
            "large": False,
            "unavailable": False,
            "member_count": len(guild.members),
            "members": [m.payload() for m in members],
            "channels": [c.payload() for c in channels],
            "threads": [t.payload() for t in threads],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def member_payload(self, guild: Guild, user_id: int, channel: Channel) -> dict[str, Any]:
        """The `member` of an interaction: with the invoker's permissions in that channel."""
        member = guild.members[user_id]
        return {**member.payload(), "permissions": str(self.permissions(user_id, channel))}

    def channel_payload(self, channel: Channel, user_id: int) -> dict[str, Any]:
        return {**channel.payload(), "permissions": str(self.permissions(user_id, channel))}
