"""Numbered schema migrations and the runner that applies them.

Migrations are a Python list rather than ``.sql`` files so they ship inside the package
without package-data rules. Each one runs in its own transaction and is recorded in
``schema_migrations``; a database is never left half-migrated. Never edit a migration that
has been released: append a new one.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from .backends import Backend, Conn
from .errors import MigrationError, SchemaTooNew


@dataclass(frozen=True)
class Migration:
    """One schema step: ``version`` counts from 1 without gaps."""

    version: int
    name: str
    statements: tuple[str, ...]


M0001_INITIAL = Migration(
    1,
    "0001_initial",
    (
        # seed is TEXT so 64-bit unsigned seeds survive (SQLite INTEGER is signed 64-bit).
        # results_recorded makes finish_game idempotent independently of status.
        """
        CREATE TABLE games (
            id               INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id         INTEGER NOT NULL,
            channel_id       INTEGER NOT NULL,
            thread_id        INTEGER,
            message_id       INTEGER,
            game             TEXT    NOT NULL,
            host_id          INTEGER NOT NULL,
            status           TEXT    NOT NULL
                CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
            config_json      TEXT    NOT NULL,
            seed             TEXT    NOT NULL,
            version          INTEGER NOT NULL DEFAULT 0,
            deadline_at      REAL,
            created_at       REAL    NOT NULL,
            ended_at         REAL,
            results_recorded INTEGER NOT NULL DEFAULT 0 CHECK (results_recorded IN (0, 1))
        )
        """,
        # Live games are few, so this small partial index serves both the restart scan and
        # the "game in this channel or thread" lookup.
        "CREATE INDEX games_live ON games (status) WHERE status IN ('lobby', 'active')",
        "CREATE INDEX games_guild_ended ON games (guild_id, game, ended_at)",
        "CREATE INDEX games_ended ON games (status, ended_at)",
        """
        CREATE TABLE seats (
            game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat      INTEGER NOT NULL,
            user_id   INTEGER,
            name      TEXT    NOT NULL,
            is_ai     INTEGER NOT NULL CHECK (is_ai IN (0, 1)),
            autopilot INTEGER NOT NULL DEFAULT 0 CHECK (autopilot IN (0, 1)),
            PRIMARY KEY (game_id, seat)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX seats_user ON seats (user_id) WHERE user_id IS NOT NULL",
        # Only the latest snapshot per game is kept: the action log covers history.
        """
        CREATE TABLE snapshots (
            game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            version    INTEGER NOT NULL,
            state_json TEXT    NOT NULL,
            saved_at   REAL    NOT NULL
        )
        """,
        """
        CREATE TABLE actions (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            version INTEGER NOT NULL,
            seat    INTEGER NOT NULL,
            action  TEXT    NOT NULL,
            user_id INTEGER,
            at      REAL    NOT NULL,
            PRIMARY KEY (game_id, version)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE results (
            game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat          INTEGER NOT NULL,
            user_id       INTEGER,
            name          TEXT    NOT NULL,
            is_ai         INTEGER NOT NULL CHECK (is_ai IN (0, 1)),
            rank          INTEGER NOT NULL,
            score         REAL    NOT NULL,
            won           INTEGER NOT NULL CHECK (won IN (0, 1)),
            rating_before REAL,
            rating_after  REAL,
            PRIMARY KEY (game_id, seat)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX results_user ON results (user_id, game_id) WHERE user_id IS NOT NULL",
        # One row per (guild, game, user); user_id 0 is the AI pseudo-player.
        """
        CREATE TABLE players (
            guild_id   INTEGER NOT NULL,
            game       TEXT    NOT NULL,
            user_id    INTEGER NOT NULL,
            name       TEXT    NOT NULL,
            games      INTEGER NOT NULL DEFAULT 0,
            wins       INTEGER NOT NULL DEFAULT 0,
            points     REAL    NOT NULL DEFAULT 0,
            mu         REAL    NOT NULL,
            sigma      REAL    NOT NULL,
            rating     REAL    NOT NULL,
            updated_at REAL    NOT NULL,
            PRIMARY KEY (guild_id, game, user_id)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX players_board ON players "
        "(guild_id, game, rating DESC, wins DESC, games DESC, user_id)",
        "CREATE INDEX players_user ON players (guild_id, user_id)",
    ),
)

M0002_AI_LEVELS = Migration(
    2,
    "0002_ai_levels",
    # An AI seat's level ("easy", "normal", "hard"); NULL for people and older AI seats
    # (which played at normal).
    ("ALTER TABLE seats ADD COLUMN level TEXT",),
)

M0003_PERSON_SETTINGS = Migration(
    3,
    "0003_person_settings",
    (
        """
        CREATE TABLE person_settings (
            guild_id   INTEGER NOT NULL,
            user_id    INTEGER NOT NULL,
            turn_pings INTEGER NOT NULL DEFAULT 1 CHECK (turn_pings IN (0, 1)),
            updated_at REAL    NOT NULL,
            PRIMARY KEY (guild_id, user_id)
        ) WITHOUT ROWID
        """,
    ),
)

M0004_REJOIN_AND_REMATCH = Migration(
    4,
    "0004_rejoin_and_rematch",
    (
        # Who left an AI-played seat mid-game (and may take it back while the game runs).
        "ALTER TABLE seats ADD COLUMN left_user_id INTEGER",
        # A person's seat in a rematch lobby that waits for them to confirm it with Join.
        "ALTER TABLE seats ADD COLUMN invited INTEGER NOT NULL DEFAULT 0 CHECK (invited IN (0, 1))",
    ),
)

M0005_SHARD_LEASES = Migration(
    5,
    "0005_shard_leases",
    (
        # One row per Discord shard: which process holds it, until when, and the epoch that
        # fences its writes (a take-over adds one). See bot/storage/leases.py.
        """
        CREATE TABLE shard_leases (
            shard_id     INTEGER PRIMARY KEY,
            shard_count  INTEGER NOT NULL,
            holder       TEXT    NOT NULL,
            host         TEXT    NOT NULL,
            pid          INTEGER NOT NULL,
            epoch        INTEGER NOT NULL,
            acquired_at  REAL    NOT NULL,
            renewed_at   REAL    NOT NULL,
            expires_at   REAL    NOT NULL,
            released     INTEGER NOT NULL DEFAULT 0 CHECK (released IN (0, 1))
        )
        """,
        # Discord's IDENTIFY limit, shared by every process of the bot: per rate-limit bucket
        # (shard_id % max_concurrency), the earliest time the next IDENTIFY may go out.
        """
        CREATE TABLE identify_slots (
            max_concurrency INTEGER NOT NULL,
            bucket          INTEGER NOT NULL,
            next_at         REAL    NOT NULL,
            PRIMARY KEY (max_concurrency, bucket)
        )
        """,
    ),
)

M0006_REVIEWS = Migration(
    6,
    "0006_reviews",
    (
        # A person's review of a finished game (bot/storage/reviews.py): the moves where the
        # hard AI would have chosen differently, as JSON; one row per game and seat.
        """
        CREATE TABLE reviews (
            game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat        INTEGER NOT NULL,
            user_id     INTEGER NOT NULL,
            body_json   TEXT    NOT NULL,
            computed_at REAL    NOT NULL,
            PRIMARY KEY (game_id, seat)
        ) WITHOUT ROWID
        """,
    ),
)


M0007_SHOWN_PANELS = Migration(
    7,
    "0007_shown_panels",
    (
        # What each live table's message shows (a digest of its content), so that a restart
        # edits only the messages whose content changed meanwhile. See bot/storage/shown.py.
        """
        CREATE TABLE shown_panels (
            game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            digest   TEXT    NOT NULL,
            shown_at REAL    NOT NULL
        )
        """,
    ),
)

M0008_SHARD_WAITERS = Migration(
    8,
    "0008_shard_waiters",
    (
        # Standbys waiting for a shard, each renewing its row while it waits: a process that
        # took over more shards than its share (a process died and nobody else had room)
        # hands the extra ones back when one is waiting. See bot/cluster/keeper.py.
        """
        CREATE TABLE shard_waiters (
            holder      TEXT    PRIMARY KEY,
            shard_count INTEGER NOT NULL,
            host        TEXT    NOT NULL,
            pid         INTEGER NOT NULL,
            expires_at  REAL    NOT NULL
        )
        """,
    ),
)

MIGRATIONS: tuple[Migration, ...] = (
    M0001_INITIAL,
    M0002_AI_LEVELS,
    M0003_PERSON_SETTINGS,
    M0004_REJOIN_AND_REMATCH,
    M0005_SHARD_LEASES,
    M0006_REVIEWS,
    M0007_SHOWN_PANELS,
    M0008_SHARD_WAITERS,
)
"""Every migration, in order. Append only."""


def check_migrations(migrations: Sequence[Migration]) -> None:
    """Refuse a migration list with gaps, duplicates or disorder (a programming error)."""
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise MigrationError(
                f"migration {migration.name!r} has version {migration.version}, expected {expected}"
            )


async def current_version(conn: Conn) -> int:
    """The highest applied migration (0 for a fresh database)."""
    row = await conn.fetchone("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
    return int(row[0]) if row is not None else 0


async def migrate(backend: Backend, migrations: Sequence[Migration]) -> list[int]:
    """Apply the missing migrations, each in its own transaction; return the versions applied.

    The applied set is re-read inside each migration's transaction, and on PostgreSQL the
    whole run holds an advisory lock, so two processes starting at once never apply a step
    twice. Statements are written for SQLite; ``backend.ddl`` renders them for PostgreSQL.
    """
    check_migrations(migrations)
    async with backend.exclusive() as conn:
        await conn.execute(
            backend.ddl(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
            )
        )
        known = len(migrations)
        found = await current_version(conn)
    if found > known:
        raise SchemaTooNew(
            f"database schema is at version {found}, this build knows only up to {known}"
        )
    applied: list[int] = []
    async with backend.exclusive():
        for migration in migrations[found:]:
            try:
                async with backend.write() as tx:
                    if await current_version(tx) >= migration.version:
                        continue
                    for statement in migration.statements:
                        await tx.execute(backend.ddl(statement))
                    await tx.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at)"
                        " VALUES (?, ?, ?)",
                        (migration.version, migration.name, time.time()),
                    )
            except Exception as error:
                raise MigrationError(f"migration {migration.name!r} failed: {error}") from error
            applied.append(migration.version)
    return applied
