"""The sandbox's Discord: the loopback fake, one server, a few people, and change notices.

The server, its channels and its people get the same ids on every run, so tables saved in
the database by an earlier sandbox session find their channel and players again.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

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
    """The loopback Discord, telling listeners (debounced) whenever something may have changed."""

    def __init__(self) -> None:
        super().__init__()
        self.revision = 0
        self.listeners: list[Callable[[int], None]] = []
        self._notice: asyncio.TimerHandle | None = None

    def touch(self) -> None:
        super().touch()
        self.revision += 1
        if self._notice is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._notice = loop.call_later(0.03, self._notify)

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
    """What the page shows: the server, its people (in switch order) and the bot."""

    fake: SandboxDiscord
    guild: Guild
    people: list[User]

    @property
    def bot(self) -> User:
        return self.fake.bot_user

    def person(self, user_id: int) -> User | None:
        return next((p for p in self.people if p.id == user_id), None)

    def channels(self) -> list[Channel]:
        """Text channels by position, each followed by its threads."""
        everything = list(self.guild.channels.values())
        top = sorted((c for c in everything if not c.is_thread), key=lambda c: c.position)
        ordered: list[Channel] = []
        for channel in top:
            ordered.append(channel)
            ordered.extend(
                sorted((t for t in everything if t.parent_id == channel.id), key=lambda t: t.id)
            )
        return ordered

    def channel(self, channel_id: int) -> Channel | None:
        """A channel or thread of the sandbox server."""
        return self.guild.channels.get(channel_id)


@contextlib.contextmanager
def fixed_ids(fake: LoopbackDiscord) -> Iterator[None]:
    """Within: the fake hands out the same ids, in order, on every run."""
    real = fake.world.snowflake
    counter = iter(range(1, 1 << 17))
    fake.world.snowflake = lambda: FIXED_ID_BASE + next(counter)  # type: ignore[assignment]
    try:
        yield
    finally:
        fake.world.snowflake = real


def build_world(fake: SandboxDiscord, people: tuple[str, ...] = PEOPLE) -> SandboxWorld:
    """One server owned by the first person, everyone a member, #general and #games."""
    fake.world.bot_user.name = BOT_NAME
    with fixed_ids(fake):
        users = [fake.add_user(name) for name in people]
        guild = fake.add_guild(SERVER_NAME, owner=users[0])
        for user in users[1:]:
            fake.add_member(guild, user)
        for name in CHANNELS:
            fake.add_channel(guild, name)
    return SandboxWorld(fake, guild, users)
