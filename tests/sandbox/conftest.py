"""Sandbox fixtures: the web sandbox with the real bot, and with the loopback's minimal bot.

Each fixture fails its tests on any rule the bot broke against the loopback Discord and on
any error the bot or discord.py logged.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio
from aiohttp.test_utils import TestClient, TestServer

from bot.config import Settings
from bot.sandbox.loopback.testing import run_bot_against, stop_bot
from bot.sandbox.web import Sandbox, SandboxDiscord, SandboxWorld, build_world, create_app
from tests.loopback.minibot import build_bot


class ErrorLog(logging.Handler):
    """ERROR records from the bot, discord.py and aiohttp: each is a failure."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith(("bot", "discord", "aiohttp")):
            self.records.append(record)

    def check(self) -> None:
        found, self.records = self.records, []
        assert not found, [r.getMessage() for r in found]


def sandbox_settings(db_path: Path) -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None, database_path=db_path, ai_delay=0.0, sandbox_port=0
    )


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def sandbox(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Sandbox]:
    """The whole sandbox as ``python -m bot`` runs it: the real bot, the page on a free port."""
    errors = ErrorLog()
    logging.getLogger().addHandler(errors)
    db_path = tmp_path_factory.mktemp("sandbox") / "sandbox.db"
    try:
        async with Sandbox(sandbox_settings(db_path)) as running:
            yield running
            await running.fake.wait_idle()
            running.fake.assert_no_errors()
        errors.check()
    finally:
        logging.getLogger().removeHandler(errors)


@dataclass
class Mini:
    """The page's API served in process for a sandbox world driven by the minimal test bot."""

    world: SandboxWorld
    client: TestClient

    @property
    def fake(self) -> SandboxDiscord:
        return self.world.fake

    def person(self, name: str) -> str:
        return next(str(p.id) for p in self.world.people if p.name == name)

    def channel(self, name: str) -> str:
        return next(str(c.id) for c in self.world.channels() if c.name == name)


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def mini() -> AsyncIterator[Mini]:
    errors = ErrorLog()
    logging.getLogger().addHandler(errors)
    fake = SandboxDiscord()
    await fake.start()
    world = build_world(fake)
    bot = build_bot(world.guild.id)
    task = await run_bot_against(fake, bot)
    client = TestClient(TestServer(create_app(world), host="127.0.0.1"))
    await client.start_server()
    try:
        yield Mini(world, client)
    finally:
        await client.close()
        await stop_bot(bot, task)
        await fake.stop()
        logging.getLogger().removeHandler(errors)
    errors.check()
