"""The operator's view of a bot process: health and metrics (see :mod:`bot.ops.metrics`
for what is measured and :mod:`bot.ops.server` for the HTTP endpoints)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.ops.metrics import Metrics
from bot.ops.server import OpsServer

if TYPE_CHECKING:
    from bot.client import QuantumTableBot

__all__ = ["Metrics", "OpsServer", "start"]


async def start(bot: QuantumTableBot) -> OpsServer | None:
    """Feed ``bot.metrics`` from the bot's shards, tables, AI and interactions, and serve
    ``/healthz`` and ``/metrics`` when ``METRICS_PORT`` is set (None: not served)."""
    metrics = bot.metrics
    metrics.watch(bot)
    bot.tables.on_storage_error = metrics.storage_failed
    bot.tables.thinker.on_decision = metrics.ai_decided
    port = bot.settings.metrics_port
    if port is None:
        return None
    server = OpsServer(metrics, bot.health, bot.settings.metrics_host, port)
    await server.start()
    return server
