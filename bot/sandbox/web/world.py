"""The sandbox's Discord: the loopback fake, its servers, a few people, and change notices.

One server, or with several shards (``python -m bot --processes N``) one server on each
shard, so that every process of the cluster hosts some of them. The servers, their
channels and the people get the same ids on every run, so tables saved in the database by
an earlier sandbox session find their channel and players again.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from bot.cluster.sharding import shard_of

from ..loopback import Channel, Guild, LoopbackDiscord, User
from ..loopback.models import DISCORD_EPOCH_MS

PEOPLE = ("Alice", "Bob", "Carol", "Dave")
SERVER_NAME = "Quantum Table Sandbox"
CHANNELS = ("games",)  # besides the #general every server starts with
BOT_NAME = "Quantum Table"

# 2025-01-01T00:00:00Z: the fixed ids are older than any message of this run.
FIXED_ID_BASE = (1735689600000 - DISCORD_EPOCH_MS) << 22
KEEP_RECORDS = 1000  # the fake's request and event logs are trimmed to this many


class SandboxDiscord(LoopbackDiscord):
    """The loopback Discord, telling listeners (debounced) whenever something may have changed.

    ``shards`` and ``max_concurrency`` are the loopback's own (see :class:`LoopbackDiscord`).
    """

    def __init__(self, *, shards: int = 1, max_concurrency: int = 1) -> None:
        super().__init__(shards=shards, max_concurrency=max_concurrency)
        self.revision = 0
        self.listeners: list[Callable[[int], None]] = []
        self.command_copies: tuple[int, list[int]] | None = None
        """(server, other servers): the commands synced to the first are the others' too."""
        self._copied: list[str] = []
        self._notice: asyncio.TimerHandle | None = None

    def touch(self) -> None:
        super().touch()
        self.revision += 1
        self._copy_commands()
        if self._notice is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._notice = loop.call_later(0.03, self._notify)

    def _copy_commands(self) -> None:
        """The bot syncs its commands to the sandbox's first server (``DEV_GUILD_ID``); the
        other servers get the same, as if synced to each, so people can play there too."""
        if self.command_copies is None:
            return
        source_id, others = self.command_copies
        source = self.guild_commands.get(source_id, {})
        versions = [c.get("version", "") for c in source.values()]
        if versions == self._copied:
            return
        self._copied = versions
        for guild_id in others:
            self.guild_commands[guild_id] = {
                name: {**command, "guild_id": str(guild_id)} for name, command in source.items()
            }

    def _notify(self) -> None:
        self._notice = None
        del self.requests[:-KEEP_RECORDS]
        del self.gateway.events[:-KEEP_RECORDS]
        for listener in list(self.listeners):
            listener(self.revision)

    async def stop(self) -> None:
        if self._notice is not None:
            self._notice.cancel()
            self._notice = None
        await super().stop()


@dataclass
class SandboxWorld:
    """What the page shows: the servers (the first is the sandbox's own), the people (in
    switch order) and the bot."""

    fake: SandboxDiscord
    guild: Guild
    people: list[User]
    servers: list[Guild] = field(default_factory=list)
    """Every server of the sandbox, the first one (``guild``) first."""

    def __post_init__(self) -> None:
        if not self.servers:
            self.servers = [self.guild]

    @property
    def bot(self) -> User:
        return self.fake.bot_user

    def person(self, user_id: int) -> User | None:
        return next((p for p in self.people if p.id == user_id), None)

    def server(self, guild_id: int) -> Guild | None:
        return next((g for g in self.servers if g.id == guild_id), None)

    def shard(self, guild: Guild) -> int:
        """The shard a server is on (Discord's rule)."""
        return shard_of(guild.id, self.fake.shard_count)

    def channels(self, guild: Guild | None = None) -> list[Channel]:
        """A server's (default: the first one's) text channels by position, each followed by
        its threads."""
        everything = list((guild or self.guild).channels.values())
        top = sorted((c for c in everything if not c.is_thread), key=lambda c: c.position)
        ordered: list[Channel] = []
        for channel in top:
            ordered.append(channel)
            ordered.extend(
                sorted((t for t in everything if t.parent_id == channel.id), key=lambda t: t.id)
            )
        return ordered

    def channel(self, channel_id: int) -> Channel | None:
        """A channel or thread of one of the sandbox's servers."""
        for guild in self.servers:
            found = guild.channels.get(channel_id)
            if found is not None:
                return found
        return None


@contextlib.contextmanager
def fixed_ids(fake: LoopbackDiscord, millisecond: int = 0) -> Iterator[None]:
    """Within: the fake hands out the same ids, in order, on every run; their time is
    ``millisecond`` ms after the base (the time decides a server's shard)."""
    real = fake.world.snowflake
    counter = iter(range(1, 1 << 17))
    base = FIXED_ID_BASE + (millisecond << 22)
    fake.world.snowflake = lambda: base + next(counter)  # type: ignore[assignment]
    try:
        yield
    finally:
        fake.world.snowflake = real


def build_world(fake: SandboxDiscord, people: tuple[str, ...] = PEOPLE) -> SandboxWorld:
    """One server on each of the fake's shards, each owned by the first person, everyone a
    member, #general and #games; the first server is the sandbox's own.

    Server ``k`` has ids ``k`` ms after the first's: ``shard_count`` consecutive
    milliseconds fall on every shard once, and each server keeps its ids whatever the
    shard count."""
    fake.world.bot_user.name = BOT_NAME
    with fixed_ids(fake):
        users = [fake.add_user(name) for name in people]
        servers = [_server(fake, SERVER_NAME, users)]
    for k in range(1, fake.shard_count):
        with fixed_ids(fake, millisecond=k):
            servers.append(_server(fake, f"{SERVER_NAME} {k + 1}", users))
    if len(servers) > 1:
        fake.command_copies = (servers[0].id, [g.id for g in servers[1:]])
    return SandboxWorld(fake, servers[0], users, servers)


def _server(fake: SandboxDiscord, name: str, users: list[User]) -> Guild:
    guild = fake.add_guild(name, owner=users[0])
    for user in users[1:]:
        fake.add_member(guild, user)
    for channel in CHANNELS:
        fake.add_channel(guild, channel)
    return guild
