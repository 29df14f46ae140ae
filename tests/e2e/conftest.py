"""End-to-end fixtures: the real Quantum Table bot against the loopback Discord.

One bot per test module (discord.py's on_ready takes about 2 s). Each test gets a fresh
channel so tables never collide, and fails on any rule violation the fake recorded or any
error the bot logged.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import pytest_asyncio

from bot.client import QuantumTableBot
from bot.config import Settings
from bot.sandbox.loopback import Channel, Guild, LoopbackDiscord, Message, User
from bot.sandbox.loopback.testing import run_bot_against, stop_bot

MANAGE_GUILD = 1 << 5
SPEC = Path(__file__).parents[3] / "shared" / "discord-api-spec" / "openapi.json"


class ErrorLog(logging.Handler):
    """Collects ERROR records from the bot and discord.py: each is a failure."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith(("bot", "discord")):
            self.records.append(record)


@dataclass
class World:
    fake: LoopbackDiscord
    guild: Guild
    alice: User
    bob: User
    carol: User
    dave: User  # a member of the server who never sits down
    admin: User  # has Manage Server
    bot: QuantumTableBot
    db_path: Path
    errors: ErrorLog
    channels: list[Channel] = field(default_factory=list)

    def channel(self) -> Channel:
        room = self.fake.add_channel(self.guild, f"table-{len(self.channels) + 1}")
        self.channels.append(room)
        return room

    def table_message(self, channel: Channel, viewer: User | None = None) -> Message:
        """The newest public message from the bot in the channel (the table)."""
        public = [
            m
            for m in self.fake.messages(channel, viewer=viewer or self.dave)
            if not m.ephemeral and "your turn at" not in m.text()  # turn messages are not it
        ]
        assert public, "no public message in the channel"
        return public[-1].refresh()


def make_settings(db_path: Path, **overrides: object) -> Settings:
    values: dict[str, object] = {"database_path": db_path, "ai_delay": 0.0, "turn_timeout": 300}
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


async def start_bot(
    fake: LoopbackDiscord, db_path: Path, **overrides: object
) -> tuple[QuantumTableBot, object]:
    settings = make_settings(db_path, discord_token=fake.token, **overrides)
    bot = QuantumTableBot(settings)
    task = await run_bot_against(fake, bot)
    await bot.restored.wait()
    return bot, task


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    errors = ErrorLog()
    logging.getLogger().addHandler(errors)
    fake = LoopbackDiscord(spec=SPEC if SPEC.exists() else None)
    await fake.start()
    guild = fake.add_guild("Quantum Test Server")
    people = {name: fake.add_user(name) for name in ("alice", "bob", "carol", "dave", "admin")}
    managers = fake.add_role(guild, "managers", MANAGE_GUILD)
    for name, user in people.items():
        fake.add_member(guild, user, roles=[managers] if name == "admin" else [])
    db_path = tmp_path_factory.mktemp("e2e") / "bot.db"
    bot, task = await start_bot(fake, db_path)
    world = World(fake, guild, *people.values(), bot=bot, db_path=db_path, errors=errors)
    try:
        yield world
    finally:
        await stop_bot(world.bot, task)  # type: ignore[arg-type]
        await fake.stop()
        logging.getLogger().removeHandler(errors)


@pytest_asyncio.fixture(loop_scope="session")
async def w(world: World) -> AsyncIterator[World]:
    world.fake.faults.clear()
    world.errors.records.clear()
    yield world
    await world.fake.wait_idle()
    world.fake.assert_no_errors()
    assert not world.errors.records, [r.getMessage() for r in world.errors.records]


Check = Callable[[], bool]


async def until(check: Check, timeout: float = 10.0) -> None:
    """Wait for ``check()`` to hold: for work the bot does after its reply (no fixed sleeps)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("the bot never got there")
        await asyncio.sleep(0.02)


async def cancel_table(fake: LoopbackDiscord, user: User, channel: Channel, game: str) -> Message:
    """``/<game> cancel`` and its confirmation, as a person cancels a table; their reply
    (a test's clearing up: a game that ended meanwhile is left as it is)."""
    table = (await fake.slash(user, f"{game} cancel", channel=channel)).message
    assert table is not None
    if "There is no game" in table.text():
        return table  # it ended meanwhile: nothing to clear up
    label = "Cancel the lobby" if "the lobby" in table.text() else "Cancel the game"
    return await confirm(fake, user, table, label)


async def confirm(fake: LoopbackDiscord, user: User, asked: Message | None, label: str) -> Message:
    """Press ``label`` in a question the bot asked only ``user``; the reply, as edited."""
    assert asked is not None and asked.ephemeral, asked.text() if asked else None
    yes = [b for b in asked.buttons if b.label == label]
    assert len(yes) == 1, (label, asked.text(), [b.label for b in asked.buttons])
    await fake.click(user, asked, custom_id=yes[0].custom_id)
    return asked.refresh()


async def leave_table(fake: LoopbackDiscord, user: User, channel: Channel, game: str) -> Message:
    """``/<game> leave`` during a game, and its confirmation; the person's reply."""
    asked = (await fake.slash(user, f"{game} leave", channel=channel)).message
    return await confirm(fake, user, asked, "Leave")


async def kick_player(
    fake: LoopbackDiscord, user: User, channel: Channel, game: str, player: User
) -> Message:
    """``/<game> kick``, and its confirmation; the reply, which says what happened."""
    options = {"player": player.id}
    asked = (await fake.slash(user, f"{game} kick", channel=channel, options=options)).message
    return await confirm(fake, user, asked, f"Remove {player.name}")
