"""Sandbox fixtures: the web sandbox with the real bot, and with the loopback's minimal bot;
Debian's Chromium (headless, through Playwright) and a tab in it.

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
from playwright.async_api import BrowserContext, Page, async_playwright

from bot.config import Settings
from bot.sandbox.loopback.testing import run_bot_against, stop_bot
from bot.sandbox.web import Sandbox, SandboxDiscord, SandboxWorld, build_world, create_app
from tests.loopback.minibot import build_bot
from tests.sandbox.browsing import CHROMIUM, CHROMIUM_ARGS, WAIT_MS, chromium_installed


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


# --- the browser -------------------------------------------------------------------------------


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def browser(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BrowserContext]:
    assert chromium_installed(), "Debian's chromium is missing: .ci/run installs it (apt-get)"
    profile = tmp_path_factory.mktemp("chromium-profile")
    async with async_playwright() as playwright:
        context = await playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_ARGS,
            timeout=60_000,
        )
        context.set_default_timeout(WAIT_MS)
        try:
            yield context
        finally:
            await context.close()


@pytest_asyncio.fixture(loop_scope="session")
async def page(browser: BrowserContext) -> AsyncIterator[Page]:
    tab = await browser.new_page()
    problems: list[str] = []
    tab.on("pageerror", lambda error: problems.append(str(error)))
    tab.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    tab.on(
        "response",
        lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None,
    )
    try:
        yield tab
    finally:
        await tab.close()
    assert not problems, problems
