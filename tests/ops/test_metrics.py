"""The metric objects and the hooks that feed them, without a bot (the whole bot process is
in tests/e2e/test_ops.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from multidict import CIMultiDict

from bot.ops.metrics import Metrics, rate_limit_scope
from bot.storage.backends import failure_kind
from bot.storage.db import Database
from bot.storage.errors import (
    GameClosed,
    GameNotFound,
    InvalidArgument,
    SchemaTooNew,
    StorageError,
    VersionConflict,
)
from bot.tables.manager import Person, TableManager
from bot.tables.protocols import TableMovedOn
from bot.tables.thinking import Thinker
from tests.tables.test_manager import Recorder
from tests.tables.test_thinking import OBS, toy_with
from tests.tables.toy import TOY, broken_ai, pid_ai

ALICE, BOB = Person(1, "Alice"), Person(2, "Bob")


def value(metrics: Metrics, name: str, **labels: str) -> float | None:
    return metrics.registry.get_sample_value(name, labels)


@pytest.mark.parametrize(
    ("headers", "scope"),
    [
        ({"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}, "global"),
        ({"X-RateLimit-Scope": "global"}, "global"),
        ({"X-RateLimit-Scope": "user"}, "bucket"),
        ({"X-RateLimit-Scope": "shared"}, "bucket"),
        ({}, "bucket"),
    ],
)
def test_a_429_is_global_or_a_bucket(headers: dict[str, str], scope: str) -> None:
    assert rate_limit_scope(CIMultiDict(headers)) == scope


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (VersionConflict(1, 3, 3), "version_conflict"),
        (GameClosed(1, "finished"), "game_closed"),
        (GameNotFound(1), "not_found"),
        (InvalidArgument("no"), "invalid_argument"),
        (SchemaTooNew("newer"), "migration"),
        (StorageError("odd"), "other"),
        (sqlite3.OperationalError("database or disk is full"), "unavailable"),
        (ConnectionRefusedError(), "unavailable"),
        (ValueError("a bug, not storage"), None),
    ],
)
def test_storage_failures_have_a_kind(error: BaseException, kind: str | None) -> None:
    assert failure_kind(error) == kind


def test_leases_held_follow_the_leases() -> None:
    metrics = Metrics()
    assert value(metrics, "quantum_table_shard_leases_held") == 0
    metrics.set_lease(0, 3)
    metrics.set_lease(2, 5)
    metrics.set_lease(2, 6)  # renewed at a new epoch
    metrics.clear_lease(0)
    metrics.clear_lease(7)  # never held: nothing to clear
    assert value(metrics, "quantum_table_shard_leases_held") == 1
    assert value(metrics, "quantum_table_shard_epoch", shard="2") == 6
    assert value(metrics, "quantum_table_shard_epoch", shard="0") is None
    metrics.set_leases_held(4)
    assert value(metrics, "quantum_table_shard_leases_held") == 4


def test_each_bot_counts_on_its_own() -> None:
    one, two = Metrics(), Metrics()
    one.rate_limited("global")
    one.storage_failed("unavailable")
    one.storage_failed("something new")
    total = "quantum_table_discord_rate_limits_total"
    assert value(one, total, scope="global") == 1
    assert value(two, total, scope="global") == 0
    errors = "quantum_table_storage_errors_total"
    assert value(one, errors, kind="unavailable") == 1
    assert value(one, errors, kind="other") == 1


async def test_a_refused_save_is_counted(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "shared.db")
    metrics = Metrics()
    first = TableManager(db, {"toy": TOY}, Recorder(), ai_delay=0)  # type: ignore[arg-type]
    second = TableManager(db, {"toy": TOY}, Recorder(), ai_delay=0)  # type: ignore[arg-type]
    second.on_storage_error = metrics.storage_failed
    try:
        table = await first.create("toy", guild_id=5, channel_id=6, host=ALICE, seed=3)
        await first.join(table.id, BOB)
        await first.start(table.id, ALICE)
        await second.fetch(table.id)
        await first.act(table.id, ALICE.id, "add1", None)
        with pytest.raises(TableMovedOn):
            await second.act(table.id, ALICE.id, "add2", None)
        assert value(metrics, "quantum_table_storage_errors_total", kind="version_conflict") == 1
        assert value(metrics, "quantum_table_storage_errors_total", kind="unavailable") == 0
    finally:
        await first.close()
        await second.close()
        await db.close()


async def test_ai_decisions_are_timed_by_game_and_level() -> None:
    metrics = Metrics()
    thinker = Thinker([TOY], workers=0)
    thinker.on_decision = metrics.ai_decided
    await thinker.decide(toy_with(pid_ai), OBS, "hard", "s", ["add1"])  # type: ignore[arg-type]
    await thinker.decide(toy_with(broken_ai), OBS, "hard", "s", ["add1"])  # type: ignore[arg-type]
    await thinker.decide(toy_with(pid_ai), OBS, "easy", "s", ["add1"])  # type: ignore[arg-type]
    count = "quantum_table_ai_decision_seconds_count"
    assert value(metrics, count, game="toy", level="hard") == 2  # the fallback too
    assert value(metrics, count, game="toy", level="easy") == 1


async def test_each_ai_workers_memory_is_reported() -> None:
    metrics = Metrics()
    thinker = Thinker([TOY], workers=1)
    metrics.watch_workers(thinker.memory)
    await thinker.ready()
    text = metrics.render().decode()
    for kind in ("rss", "pss", "private"):
        size = value(metrics, "quantum_table_ai_worker_memory_bytes", worker="0", kind=kind)
        assert size is not None and size > 0, text
