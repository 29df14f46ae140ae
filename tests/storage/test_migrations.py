"""Migration runner: numbering, idempotence, upgrades, refusal of newer schemas, pragmas."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage import MIGRATIONS, Database, Migration, MigrationError, SchemaTooNew
from bot.storage.migrations import check_migrations

from .helpers import new_game

EXTRA = Migration(
    len(MIGRATIONS) + 1,
    "9999_test_extra",
    (
        "CREATE TABLE test_notes (id INTEGER PRIMARY KEY, game_id INTEGER"
        " REFERENCES games (id) ON DELETE CASCADE, note TEXT NOT NULL)",
        "CREATE INDEX test_notes_game ON test_notes (game_id)",
    ),
)


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def applied(path: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(path) as conn:
        return list(conn.execute("SELECT version, name FROM schema_migrations ORDER BY version"))


async def test_fresh_database_is_fully_migrated(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "dir" / "bot.db"
    async with Database.open(path) as db:
        assert await db.schema_version() == len(MIGRATIONS)
    assert path.exists()
    assert {"games", "seats", "snapshots", "actions", "results", "players"} <= tables(path)
    assert applied(path) == [(m.version, m.name) for m in MIGRATIONS]


async def test_reopen_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    for _ in range(3):
        db = await Database.open(path)
        assert await db.schema_version() == len(MIGRATIONS)
        await db.close()
    assert applied(path) == [(m.version, m.name) for m in MIGRATIONS]


async def test_wal_mode_and_pragmas(tmp_path: Path) -> None:
    async with Database.open(tmp_path / "bot.db") as db:
        assert await db.journal_mode() == "wal"
        assert (await db._query("PRAGMA foreign_keys"))[0][0] == 1
        assert 1000 <= (await db._query("PRAGMA busy_timeout"))[0][0] < 3000
    with sqlite3.connect(tmp_path / "bot.db") as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_memory_database_works() -> None:
    async with Database.open(":memory:") as db:
        assert await db.journal_mode() == "memory"
        assert await db.schema_version() == len(MIGRATIONS)


async def test_ai_levels_migration_keeps_first_schema_seats(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    async with Database.open(path, migrations=MIGRATIONS[:1]) as db:
        assert await db.schema_version() == 1
        await db._run(
            "INSERT INTO games (id, guild_id, channel_id, game, host_id, status, config_json,"
            " seed, created_at) VALUES (1, 10, 20, 'qdice', 7, 'active', '{}', '1', 0)"
        )
        await db._run(
            "INSERT INTO seats (game_id, seat, user_id, name, is_ai) VALUES"
            " (1, 0, 7, 'alice', 0), (1, 1, NULL, 'Ada (AI)', 1)"
        )
    async with Database.open(path) as db:
        assert await db.schema_version() == len(MIGRATIONS)
        record = await db.load_game(1)
        assert record is not None
        assert [(s.name, s.is_ai, s.level) for s in record.seats] == [
            ("alice", False, None),
            ("Ada (AI)", True, None),  # an older AI seat: played, and plays on, at normal
        ]


async def test_upgrade_keeps_data(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    async with Database.open(path) as db:
        assert await db.schema_version() == len(MIGRATIONS)
        record = await new_game(db)
    async with Database.open(path, migrations=(*MIGRATIONS, EXTRA)) as db:
        assert await db.schema_version() == EXTRA.version
        assert await db.load_game(record.id) == record
        await db._run("INSERT INTO test_notes (game_id, note) VALUES (?, ?)", (record.id, "hello"))
    assert "test_notes" in tables(path)
    assert applied(path)[-1] == (EXTRA.version, EXTRA.name)
    # Reopening with the longer list again applies nothing new.
    async with Database.open(path, migrations=(*MIGRATIONS, EXTRA)) as db:
        assert await db.schema_version() == EXTRA.version


async def test_failed_migration_rolls_back_and_records_nothing(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    broken = Migration(
        len(MIGRATIONS) + 1,
        "9999_broken",
        ("CREATE TABLE half_done (id INTEGER PRIMARY KEY)", "THIS IS NOT SQL"),
    )
    with pytest.raises(MigrationError, match="9999_broken"):
        await Database.open(path, migrations=(*MIGRATIONS, broken))
    assert "half_done" not in tables(path)
    assert [v for v, _ in applied(path)] == [m.version for m in MIGRATIONS]
    async with Database.open(path) as db:
        assert await db.schema_version() == len(MIGRATIONS)


async def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    async with Database.open(path, migrations=(*MIGRATIONS, EXTRA)):
        pass
    with pytest.raises(SchemaTooNew):
        await Database.open(path)


def test_migration_list_is_numbered_without_gaps() -> None:
    check_migrations(MIGRATIONS)
    with pytest.raises(MigrationError):
        check_migrations((*MIGRATIONS, Migration(len(MIGRATIONS) + 2, "gap", ())))
    assert MIGRATIONS[0].name == "0001_initial"


async def test_hot_queries_use_indexes() -> None:
    """Guard against a schema change silently turning a hot query into a table scan."""
    from bot.storage.boards import _POSITION_SQL

    queries = [
        "SELECT * FROM games AS g WHERE g.status IN ('lobby', 'active')"
        " AND (g.channel_id = 1 OR g.thread_id = 1)",
        f"SELECT p.*, {_POSITION_SQL} FROM players AS p WHERE p.guild_id = 1 AND p.game = 'x'"
        " AND p.user_id != 0 ORDER BY p.rating DESC, p.wins DESC, p.games DESC, p.user_id"
        " LIMIT 10",
        f"SELECT p.*, {_POSITION_SQL} FROM players AS p WHERE p.guild_id = 1 AND p.user_id = 2",
        "SELECT id FROM games AS g WHERE g.guild_id = 1 AND g.game = 'x'"
        " AND g.results_recorded = 1 ORDER BY g.ended_at DESC LIMIT 10",
        "SELECT id FROM games WHERE status IN ('finished', 'cancelled') AND ended_at < 5",
        "SELECT * FROM actions WHERE game_id = 1 AND version > 0 ORDER BY version",
        "SELECT * FROM seats WHERE game_id IN (1, 2) ORDER BY game_id, seat",
    ]
    async with Database.open(":memory:") as db:
        for sql in queries:
            plan = [str(r[3]) for r in await db._query(f"EXPLAIN QUERY PLAN {sql}")]
            assert not any(step.startswith("SCAN") for step in plan), (sql, plan)
