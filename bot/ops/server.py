"""``/healthz`` and ``/metrics`` over HTTP, served by aiohttp inside the bot's event loop."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot.ops.metrics import Metrics

log = logging.getLogger(__name__)


class OpsServer:
    """The operator's endpoints of one bot.

    ``/healthz``: 200 and the bot's health as JSON when it is ready, 503 and the same JSON
    (its ``missing`` says what is not) otherwise. ``/metrics``: the Prometheus text format.
    """

    def __init__(
        self, metrics: Metrics, health: Callable[[], dict[str, Any]], host: str, port: int
    ) -> None:
        self.metrics = metrics
        self.health = health
        self.host = host
        self.port = port
        """The port asked for; once started, the one listened on (``0`` picks a free one)."""
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None)  # a scrape every few s: no log

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    async def start(self) -> None:
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        log.info("Health and metrics at %s/healthz and %s/metrics", self.url, self.url)

    async def stop(self) -> None:
        await self._runner.cleanup()

    async def _healthz(self, request: web.Request) -> web.Response:
        health = self.health()
        return web.json_response(health, status=200 if health.get("ready") else 503)

    async def _metrics(self, request: web.Request) -> web.Response:
        return web.Response(
            body=self.metrics.render(), headers={"Content-Type": CONTENT_TYPE_LATEST}
        )
