"""Run the sandbox: the loopback Discord, the real bot against it, and the page, in one process."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from types import TracebackType
from typing import TYPE_CHECKING, Self

from aiohttp import web

from bot.storage.errors import StorageError

from ..loopback.testing import run_bot_against, stop_bot
from .app import create_app
from .world import SandboxDiscord, SandboxWorld, build_world

if TYPE_CHECKING:
    from bot.client import QuantumTableBot
    from bot.config import Settings

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
READY_TIMEOUT = 60.0


class PageUnavailable(Exception):
    """The sandbox page's port cannot be opened (taken, or not allowed)."""


async def serve_page(app: web.Application, port: int) -> tuple[web.AppRunner, str]:
    """Serve the page's application on 127.0.0.1:``port``; its runner and address."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, HOST, port)
    try:
        await site.start()
    except OSError as error:
        await runner.cleanup()
        raise PageUnavailable(
            f"Cannot open the sandbox on {HOST}:{port} ({error.strerror or error})."
            " Set SANDBOX_PORT to a free port, or 0 for any."
        ) from error
    bound = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    return runner, f"http://{HOST}:{bound}/"


class Sandbox:
    """The whole sandbox; ``async with Sandbox(settings) as sandbox:`` then open ``sandbox.url``.

    The bot is the real ``QuantumTableBot`` built from ``settings`` (same cogs, same database),
    with two differences that only concern where it connects: the loopback's token, and
    commands synced to the sandbox server (so the real deployment's sync marker is untouched).
    """

    def __init__(self, settings: Settings, *, port: int | None = None) -> None:
        self.settings = settings
        self.port = settings.sandbox_port if port is None else port
        self.fake = SandboxDiscord()
        self.world: SandboxWorld
        self.bot: QuantumTableBot
        self.url = ""
        self._runner: web.AppRunner | None = None
        self._bot_task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        from bot.client import QuantumTableBot

        await self.fake.start(HOST, 0)
        self.world = build_world(self.fake)
        try:
            await self._serve_page()
            settings = self.settings.model_copy(
                update={"discord_token": self.fake.token, "dev_guild_id": self.world.guild.id}
            )
            self.bot = QuantumTableBot(settings, log_invite=False)
            self._bot_task = await run_bot_against(self.fake, self.bot, timeout=READY_TIMEOUT)
            await asyncio.wait_for(self.bot.restored.wait(), READY_TIMEOUT)
        except BaseException:
            await self.stop()
            raise

    async def _serve_page(self) -> None:
        self._runner, self.url = await serve_page(create_app(self.world), self.port)

    async def stop(self) -> None:
        """Close the page, then the bot (which saves and closes the database), then the fake."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._bot_task is not None:
            await stop_bot(self.bot, self._bot_task)
            self._bot_task = None
        elif hasattr(self, "bot") and not self.bot.is_closed():  # it failed while starting
            await self.bot.close()
        await self.fake.stop()

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()


async def run_sandbox(settings: Settings) -> int:
    """``python -m bot`` without a token: serve the sandbox until SIGINT or SIGTERM."""
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()

    def stop(signame: str) -> None:
        if not stopping.is_set():
            log.info("Received %s; shutting down cleanly", signame)
            stopping.set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop, sig.name)
    sandbox = Sandbox(settings)
    try:
        await sandbox.start()
    except (PageUnavailable, StorageError) as error:  # the port, or the database: one line
        print(error, file=sys.stderr)
        return 1
    print(f"Quantum Table sandbox: {sandbox.url}", flush=True)
    try:
        await stopping.wait()
    finally:
        await sandbox.stop()
    return 0
