"""The operator's view of a bot process: health and metrics (see :mod:`bot.ops.metrics`
for what is measured and :mod:`bot.ops.server` for the HTTP endpoints)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.ops.metrics import Metrics
from bot.ops.server import OpsServer

if TYPE_CHECKING:
    from bot.client import QuantumTableBot

__all__ = ["Metrics", "OpsServer", "serve", "wire"]


async def serve(bot: QuantumTableBot) -> OpsServer | None:
    """Serve ``/healthz`` and ``/metrics`` when ``METRICS_PORT`` is set (None: not served).
    Started before the process holds any shard, so a standby answers too."""
    port = bot.settings.metrics_port
    if port is None:
        return None
    server = OpsServer(bot.metrics, bot.health, bot.settings.metrics_host, port)
    await server.start()
    return server


def wire(bot: QuantumTableBot) -> None:
    """Feed ``bot.metrics`` from the bot's shards, tables, AI and interactions."""
    metrics = bot.metrics
    metrics.watch(bot)
    bot.tables.on_storage_error = metrics.storage_failed
    bot.tables.thinker.on_decision = metrics.ai_decided
    metrics.watch_workers(bot.tables.thinker.memory)
