"""What an operator watches, in Prometheus' terms: one :class:`Metrics` per bot.

Each bot keeps its own :class:`~prometheus_client.CollectorRegistry` (tests run several bots
in one process). The numbers come from hooks: the bot's HTTP session reports every answer
Discord gives (interaction responses, 429s) through an aiohttp trace, the table core reports
storage failures, the AI thinker its decisions, the loop monitor its stalls; gauges that
describe the bot's state (shards, tables) are read when /metrics is scraped.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import aiohttp
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector

if TYPE_CHECKING:
    import discord

    from bot.client import QuantumTableBot

PREFIX = "quantum_table_"

ANSWER_BUCKETS = (0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0)
"""Seconds to answer an interaction: Discord gives up on one at three."""
DECISION_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 30.0)
STALL_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

INTERACTION_TYPES = ("application_command", "component", "modal_submit", "autocomplete")
STORAGE_KINDS = (
    "unavailable",
    "version_conflict",
    "game_closed",
    "not_found",
    "invalid_argument",
    "migration",
    "other",
)
RATE_LIMIT_SCOPES = ("global", "bucket")

FORGET_AFTER = 60.0
"""Seconds after which an interaction never answered is no longer waited for."""
_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")


class Metrics:
    """The metric objects of one bot and the hooks that feed them."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        GCCollector(registry=registry)
        self.shards_connected = Gauge(
            PREFIX + "shards_connected",
            "Shards of this process whose gateway connection is open.",
            registry=registry,
        )
        self.shards_expected = Gauge(
            PREFIX + "shards_expected",
            "Shards this process runs (0 until Discord's recommendation is known).",
            registry=registry,
        )
        self.leases_held = Gauge(
            PREFIX + "shard_leases_held",
            "Shard leases this process holds.",
            registry=registry,
        )
        self.lease_epoch = Gauge(
            PREFIX + "shard_epoch",
            "Epoch of the lease this process holds on a shard.",
            ["shard"],
            registry=registry,
        )
        self.database_away = Gauge(
            PREFIX + "database_away_seconds",
            "Seconds the database has been away (not answering lease renewals); 0 while it answers.",
            registry=registry,
        )
        self.database_outages = Counter(
            PREFIX + "database_outages_total",
            "Times the database was found away by this process (each outage once).",
            registry=registry,
        )
        self.shards_unowned = Gauge(
            PREFIX + "shards_unowned",
            "Shards of the cluster with no live lease, as this process last looked.",
            registry=registry,
        )
        self.shard_unowned_seconds = Gauge(
            PREFIX + "shard_unowned_seconds",
            "Seconds the longest-unowned shard of the cluster has had no live lease.",
            registry=registry,
        )
        self.live_tables = Gauge(
            PREFIX + "live_tables",
            "Live tables (open or being played) this process hosts.",
            registry=registry,
        )
        self.answer_seconds = Histogram(
            PREFIX + "interaction_answer_seconds",
            "Seconds from receiving an interaction (a click, a command) to its first response.",
            ["type"],
            buckets=ANSWER_BUCKETS,
            registry=registry,
        )
        self.decision_seconds = Histogram(
            PREFIX + "ai_decision_seconds",
            "Seconds an AI decision took, from asking to having a move.",
            ["game", "level"],
            buckets=DECISION_BUCKETS,
            registry=registry,
        )
        self.loop_stall_seconds = Histogram(
            PREFIX + "event_loop_stall_seconds",
            "How much later than asked the event loop woke up (sampled every few ms).",
            buckets=STALL_BUCKETS,
            registry=registry,
        )
        self.loop_worst_stall = Gauge(
            PREFIX + "event_loop_worst_stall_seconds",
            "The event loop's worst stall in the last complete monitoring window.",
            registry=registry,
        )
        self.storage_errors = Counter(
            PREFIX + "storage_errors",
            "Storage failures the bot caught, by kind.",
            ["kind"],
            registry=registry,
        )
        self.rate_limits = Counter(
            PREFIX + "discord_rate_limits",
            "429 answers from Discord, by scope (global, or a route's bucket).",
            ["scope"],
            registry=registry,
        )
        for kind in STORAGE_KINDS:
            self.storage_errors.labels(kind)
        for scope in RATE_LIMIT_SCOPES:
            self.rate_limits.labels(scope)
        for kind in INTERACTION_TYPES:
            self.answer_seconds.labels(kind)
        self.worker_memory = Gauge(
            PREFIX + "ai_worker_memory_bytes",
            "Memory of each AI worker process: resident (rss), its share of the pages it"
            " shares with the other workers (pss), and its own (private).",
            ["worker", "kind"],
            registry=registry,
        )
        self._leased: set[int] = set()
        self._received: dict[int, tuple[float, str]] = {}
        """Interactions not answered yet: id -> (when received, type)."""
        self.http_trace = aiohttp.TraceConfig()
        """Give this to the bot's HTTP client (discord.py's ``http_trace``)."""
        self.http_trace.on_request_end.append(self._on_request_end)

    # --- what the bot is doing, read at each scrape -------------------------------------

    def watch(self, bot: QuantumTableBot) -> None:
        """Read the bot's shards and tables at each scrape; count its interactions."""

        def connected() -> int:
            return sum(1 for shard in bot.shards.values() if not shard.is_closed())

        def expected() -> int:
            if bot.shard_ids is not None:
                return len(bot.shard_ids)
            return bot.shard_count or 0

        def tables() -> int:
            manager = getattr(bot, "tables", None)
            return len(manager.tables()) if manager is not None else 0

        def away() -> float:
            keeper = bot.keeper
            if keeper is None or keeper.away_since is None:
                return 0.0
            return max(0.0, keeper.clock() - keeper.away_since)

        def unowned() -> float:
            return float(len(bot.keeper.unowned)) if bot.keeper is not None else 0.0

        def unowned_for() -> float:
            keeper = bot.keeper
            return max(keeper.unowned.values(), default=0.0) if keeper is not None else 0.0

        self.database_away.set_function(away)
        self.shards_unowned.set_function(unowned)
        self.shard_unowned_seconds.set_function(unowned_for)
        self.shards_connected.set_function(connected)
        self.shards_expected.set_function(expected)
        self.live_tables.set_function(tables)
        bot.add_listener(self.interaction_received, "on_interaction")

    def watch_workers(self, memory: Callable[[], dict[int, dict[str, int]]]) -> None:
        """Read each AI worker's memory (``memory()``: per process id) at each scrape."""
        self._worker_memory = memory

    def render(self) -> bytes:
        """The registry in Prometheus' text format."""
        memory = getattr(self, "_worker_memory", None)
        if memory is not None:
            self.worker_memory.clear()
            for number, (_pid, kinds) in enumerate(sorted(memory().items())):
                for kind, size in kinds.items():
                    self.worker_memory.labels(str(number), kind).set(size)
        return generate_latest(self.registry)

    # --- leases (set by the process that takes and renews them) -------------------------

    def set_leases_held(self, count: int) -> None:
        self.leases_held.set(count)

    def set_lease(self, shard_id: int, epoch: int) -> None:
        """This process holds ``shard_id``'s lease at ``epoch`` (leases held follows)."""
        self.lease_epoch.labels(str(shard_id)).set(epoch)
        self._leased.add(shard_id)
        self.leases_held.set(len(self._leased))

    def clear_lease(self, shard_id: int) -> None:
        """This process no longer holds ``shard_id``'s lease."""
        if shard_id in self._leased:
            self._leased.discard(shard_id)
            self.lease_epoch.remove(str(shard_id))
        self.leases_held.set(len(self._leased))

    # --- hooks --------------------------------------------------------------------------

    async def interaction_received(self, interaction: discord.Interaction) -> None:
        """Note when an interaction arrived; its answer is timed when Discord accepts it."""
        now = time.perf_counter()
        received = self._received
        while received:  # forget the oldest ones nothing answered
            oldest = next(iter(received))
            if now - received[oldest][0] < FORGET_AFTER:
                break
            del received[oldest]
        received[interaction.id] = (now, interaction.type.name)

    def interaction_answered(self, interaction_id: int) -> None:
        noted = self._received.pop(interaction_id, None)
        if noted is not None:
            at, kind = noted
            self.answer_seconds.labels(kind).observe(time.perf_counter() - at)

    def ai_decided(self, game: str, level: str, seconds: float) -> None:
        self.decision_seconds.labels(game, level).observe(seconds)

    def storage_failed(self, kind: str) -> None:
        self.storage_errors.labels(kind if kind in STORAGE_KINDS else "other").inc()

    def rate_limited(self, scope: str) -> None:
        self.rate_limits.labels(scope if scope in RATE_LIMIT_SCOPES else "bucket").inc()

    def loop_stalled(self, seconds: float) -> None:
        self.loop_stall_seconds.observe(seconds)

    def loop_window(self, worst: float) -> None:
        self.loop_worst_stall.set(worst)

    async def _on_request_end(
        self,
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        """Every HTTP answer the bot gets: count 429s, time interaction responses."""
        response = params.response
        if response.status == 429:
            self.rate_limited(rate_limit_scope(response.headers))
            return
        if 200 <= response.status < 300:
            found = _CALLBACK.search(params.url.path)
            if found is not None:
                self.interaction_answered(int(found.group(1)))


def rate_limit_scope(headers: Any) -> str:
    """``global`` for a 429 of the bot's global limit, else ``bucket`` (a route's limit, the
    bot's own or one shared with others)."""
    if headers.get("X-RateLimit-Global", "").lower() == "true":
        return "global"
    return "global" if headers.get("X-RateLimit-Scope", "").lower() == "global" else "bucket"
