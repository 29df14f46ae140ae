"""The store: games, seats, snapshots, the action log, results and ratings.

Why it looks like this:

* One :class:`Database` for both backends (``backends.py``): an SQLite file by default, or
  PostgreSQL shared by several bot processes. Every SQL statement is written once.
* Every write method is exactly one transaction. On SQLite one lock serialises the one
  connection (``BEGIN IMMEDIATE`` holds the file's write lock); on PostgreSQL each
  transaction has its own pooled connection and locks what two processes could race on:
  the game's row (``FOR UPDATE``) for progress, and a per-board advisory lock for ratings.
* WAL mode and a short busy timeout on SQLite, so a second process (a backup, a shell) can
  read meanwhile and a locked file is reported before Discord's 3-second deadline.
* Cancelling a task that awaits a write leaves the write wholly applied or wholly absent
  (a cancel that lands during COMMIT may still see it applied): reload to know which.
* Parameterised SQL only; the few column names put into SQL text come from fixed
  whitelists in this module, never from callers.
"""

from __future__ import annotations

import enum
import itertools
import json
import time
from collections.abc import Generator, Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Self

from .backends import (
    Backend,
    Conn,
    PostgresBackend,
    Row,
    SqliteBackend,
    is_postgres_url,
    open_failure,
)
from .errors import GameClosed, GameNotFound, InvalidArgument, StorageError, VersionConflict
from .leases import Fence, LeaseStore
from .migrations import MIGRATIONS, Migration, current_version, migrate
from .models import (
    AI_PLAYER_NAME,
    AI_USER_ID,
    CLOSED_STATUSES,
    PROVISIONAL_GAMES,
    ActionRecord,
    AIRecord,
    FinishedGame,
    GameRecord,
    GameStatus,
    LeaderboardRow,
    PastGame,
    RatingChange,
    RatingPoint,
    SeatRecord,
    SeatResult,
    UserStats,
)
from .ratings import Skill, rate_match, split_results

_VALID_STATUSES: Final = frozenset({"lobby", "active", "finished", "cancelled"})
_SQLITE_MAX_VARS: Final = 500  # chunk size for IN (...) lists, well under SQLite's limit


class Unchanged(enum.Enum):
    """Type of :data:`UNCHANGED`, the "leave this column alone" default."""

    UNCHANGED = enum.auto()


UNCHANGED: Final = Unchanged.UNCHANGED
"""Default for :meth:`Database.save_progress` ``deadline_at``: keep the stored deadline."""

# update_game field -> column. The column names are the only identifiers ever put into SQL.
_UPDATABLE: Final[dict[str, str]] = {
    "status": "status",
    "host_id": "host_id",
    "message_id": "message_id",
    "thread_id": "thread_id",
    "channel_id": "channel_id",
    "config": "config_json",
    "deadline_at": "deadline_at",
    "ended_at": "ended_at",
}

_GAME_SELECT: Final = """
    SELECT g.id, g.guild_id, g.channel_id, g.thread_id, g.message_id, g.game, g.host_id,
           g.status, g.config_json, g.seed, g.version, s.state_json, g.deadline_at,
           g.created_at, g.ended_at
    FROM games AS g LEFT JOIN snapshots AS s ON s.game_id = g.id
"""


def _board_key(t: str) -> tuple[str, ...]:
    """A board's sort key for the players row aliased ``t``, best first when descending:
    established (enough games) before provisional, then the rating as shown (rounded here,
    so what is shown and what is sorted are the same number), then wins, then games."""
    return (
        f"CASE WHEN {t}.games >= {PROVISIONAL_GAMES} THEN 1 ELSE 0 END",
        f"ROUND({t}.rating)",
        f"{t}.wins",
        f"{t}.games",
    )


# Competition ranking: 1 + the number of real players strictly ahead on the board's key.
# Equal records share a place.
_POSITION_SQL: Final = f"""
    1 + (SELECT COUNT(*) FROM players AS q
         WHERE q.guild_id = p.guild_id AND q.game = p.game AND q.user_id != 0
           AND ({", ".join(_board_key("q"))}) > ({", ".join(_board_key("p"))}))
"""
_BOARD_ORDER: Final = ", ".join(f"{part} DESC" for part in _board_key("p"))
_BOARD_SELECT: Final = f"SELECT p.*, ROUND(p.rating) AS shown_rating, {_POSITION_SQL} AS position"


def _check_status(status: str) -> GameStatus:
    if status not in _VALID_STATUSES:
        raise InvalidArgument(f"unknown game status {status!r}")
    return status  # type: ignore[return-value]


def _check_seats(seats: Sequence[SeatRecord]) -> None:
    numbers = [seat.seat for seat in seats]
    if len(set(numbers)) != len(numbers):
        raise InvalidArgument(f"duplicate seat numbers in {numbers}")


def _seat_rows(game_id: int, seats: Iterable[SeatRecord]) -> list[tuple[Any, ...]]:
    return [
        (
            game_id,
            s.seat,
            s.user_id,
            s.name,
            int(s.is_ai),
            int(s.autopilot),
            s.level,
            s.left_user_id,
            int(s.invited),
        )
        for s in seats
    ]


def _chunks(values: Sequence[int]) -> Generator[Sequence[int], None, None]:
    for start in range(0, len(values), _SQLITE_MAX_VARS):
        yield values[start : start + _SQLITE_MAX_VARS]


class _Opener:
    """What :meth:`Database.open` returns: awaitable, and usable as ``async with``."""

    def __init__(
        self, target: str | Path, migrations: Sequence[Migration], setting: str | None
    ) -> None:
        self._path = target
        self._migrations = migrations
        self._setting = setting
        self._db: Database | None = None

    def __await__(self) -> Generator[Any, None, Database]:
        return Database._open(self._path, self._migrations, self._setting).__await__()

    async def __aenter__(self) -> Database:
        self._db = await Database._open(self._path, self._migrations, self._setting)
        return self._db

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._db is not None:
            await self._db.close()


class Database:
    """Async access to the bot's storage. Create with :meth:`open`, never directly."""

    def __init__(self, backend: Backend) -> None:
        self._backend = backend
        self._closed = False
        self.fence: Fence | None = None
        """The shards this process holds: with one set, every write for a table checks in
        its own transaction that the table's shard is still ours (see ``leases.py``)."""

    # ------------------------------------------------------------------ lifecycle

    @staticmethod
    def open(
        target: str | Path,
        *,
        migrations: Sequence[Migration] = MIGRATIONS,
        setting: str | None = None,
    ) -> _Opener:
        """Open (creating if needed) and migrate the database at ``target``.

        ``target`` is a ``postgresql://`` URL, or else an SQLite file path (``":memory:"``
        gives a private in-memory database for tests). ``db = await Database.open(t)`` or
        ``async with Database.open(t) as db``. ``migrations`` exists for tests of the
        migration runner.

        A database that cannot be reached or opened (refused password, missing database,
        unreachable server, unwritable file) raises :class:`DatabaseUnavailable`, one line
        that names ``setting`` as the thing to fix (default ``DATABASE_URL`` or
        ``DATABASE_PATH``) and never shows the password.
        """
        return _Opener(target, migrations, setting)

    @classmethod
    async def _open(
        cls, target: str | Path, migrations: Sequence[Migration], setting: str | None = None
    ) -> Database:
        backend: Backend
        try:
            if is_postgres_url(target):
                backend = await PostgresBackend.open(str(target))
            else:
                backend = await SqliteBackend.open(target)
        except Exception as error:
            failure = open_failure(target, error, setting)
            if failure is None:
                raise
            raise failure from error
        try:
            await migrate(backend, migrations)
        except BaseException as error:
            await backend.close()
            failure = None
            if isinstance(error, Exception) and not isinstance(error, StorageError):
                # e.g. a read-only file, a role that may not create tables
                failure = open_failure(target, error, setting, connected=True)
            if failure is None:
                raise
            raise failure from error
        return cls(backend)

    async def close(self) -> None:
        """Close the connection(s) (safe to call twice)."""
        if self._closed:
            return
        self._closed = True
        await self._backend.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def path(self) -> str:
        """The SQLite path or PostgreSQL URL this database was opened from."""
        return self._backend.target

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._backend.dialect

    async def schema_version(self) -> int:
        """The highest applied migration number."""
        async with self._read() as conn:
            return await current_version(conn)

    async def journal_mode(self) -> str:
        """SQLite's journal mode (``"wal"`` for files, ``"memory"`` for ``:memory:``)."""
        if self.dialect != "sqlite":
            return self.dialect
        async with self._read() as conn:
            row = await conn.fetchone("PRAGMA journal_mode")
            return str(row[0]).lower() if row is not None else ""

    # ------------------------------------------------------------------ plumbing

    def _read(self) -> Any:
        """A connection to read with (``async with``)."""
        return self._backend.read()

    def _write(self) -> Any:
        """One transaction (``async with``): commit on success, roll back on any error."""
        return self._backend.write()

    async def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Rows of one read-only statement (for tests and maintenance tools)."""
        async with self._read() as conn:
            return await conn.fetchall(sql, params)

    async def _run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement in its own transaction (for tests and maintenance tools)."""
        async with self._write() as conn:
            return await conn.execute(sql, params)

    async def _games(self, conn: Conn, where: str, params: Sequence[Any]) -> list[GameRecord]:
        """Load games matching a fixed ``where`` clause, with their seats, in two queries."""
        rows = await conn.fetchall(f"{_GAME_SELECT} {where}", params)
        ids = [int(row["id"]) for row in rows]
        seats: dict[int, list[SeatRecord]] = {game_id: [] for game_id in ids}
        for chunk in _chunks(ids):
            marks = ", ".join("?" * len(chunk))
            for seat in await conn.fetchall(
                "SELECT game_id, seat, user_id, name, is_ai, autopilot, level, left_user_id, invited"
                " FROM seats"
                f" WHERE game_id IN ({marks}) ORDER BY game_id, seat",
                chunk,
            ):
                seats[int(seat["game_id"])].append(
                    SeatRecord(
                        seat=seat["seat"],
                        user_id=seat["user_id"],
                        name=seat["name"],
                        is_ai=bool(seat["is_ai"]),
                        autopilot=bool(seat["autopilot"]),
                        level=seat["level"],
                        left_user_id=seat["left_user_id"],
                        invited=bool(seat["invited"]),
                    )
                )
        return [
            GameRecord(
                id=row["id"],
                guild_id=row["guild_id"],
                channel_id=row["channel_id"],
                thread_id=row["thread_id"],
                message_id=row["message_id"],
                game=row["game"],
                host_id=row["host_id"],
                status=row["status"],
                config=json.loads(row["config_json"]),
                seed=int(row["seed"]),
                seats=seats[int(row["id"])],
                version=row["version"],
                state_json=row["state_json"],
                deadline_at=row["deadline_at"],
                created_at=row["created_at"],
                ended_at=row["ended_at"],
            )
            for row in rows
        ]

    async def _load(self, conn: Conn, game_id: int) -> GameRecord | None:
        games = await self._games(conn, "WHERE g.id = ?", (game_id,))
        return games[0] if games else None

    async def _fenced(self, conn: Conn, guild_id: int | None) -> None:
        """Refuse a table write unless this process still holds the server's shard."""
        if self.fence is not None:
            await LeaseStore.check(conn, self.fence, guild_id)

    async def _require(self, conn: Conn, game_id: int, *, lock: bool = False) -> Row:
        """The game's row, or :class:`GameNotFound`. ``lock``: hold its row lock until the
        transaction ends (PostgreSQL; SQLite's write transaction already excludes others)."""
        row = await conn.fetchone(
            "SELECT id, guild_id, game, status, version, results_recorded FROM games WHERE id = ?"
            + (" FOR UPDATE" if lock and conn.dialect == "postgresql" else ""),
            (game_id,),
        )
        if row is None:
            raise GameNotFound(game_id)
        return row

    @staticmethod
    async def _replace_seats(conn: Conn, game_id: int, seats: Sequence[SeatRecord]) -> None:
        await conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await conn.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, is_ai, autopilot, level,"
            " left_user_id, invited) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            _seat_rows(game_id, seats),
        )

    # ------------------------------------------------------------------ games

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        host_id: int,
        config: dict[str, Any],
        seed: int,
        seats: Sequence[SeatRecord],
        thread_id: int | None = None,
        created_at: float | None = None,
    ) -> GameRecord:
        """Insert a new game in the lobby (version 0) with its seats."""
        _check_seats(seats)
        config_json = json.dumps(config)
        async with self._write() as conn:
            await self._fenced(conn, guild_id)
            inserted = await conn.fetchone(
                "INSERT INTO games (guild_id, channel_id, thread_id, game, host_id, status,"
                " config_json, seed, version, created_at)"
                " VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, 0, ?) RETURNING id",
                (
                    guild_id,
                    channel_id,
                    thread_id,
                    game,
                    host_id,
                    config_json,
                    str(int(seed)),
                    time.time() if created_at is None else created_at,
                ),
            )
            assert inserted is not None
            game_id = int(inserted[0])
            await self._replace_seats(conn, game_id, seats)
            record = await self._load(conn, game_id)
        assert record is not None
        return record

    async def update_game(self, game_id: int, **fields: Any) -> GameRecord:
        """Change lobby/bookkeeping fields of a game; returns the updated record.

        Accepted fields: status, host_id, message_id, thread_id, channel_id, config, seats,
        deadline_at, ended_at. ``seats`` replaces the seat list wholesale. Progress
        (version and state) goes through :meth:`save_progress` instead.
        """
        unknown = set(fields) - set(_UPDATABLE) - {"seats"}
        if unknown:
            raise InvalidArgument(f"update_game cannot change {sorted(unknown)}")
        assignments: list[str] = []
        params: list[Any] = []
        for field, column in _UPDATABLE.items():
            if field not in fields:
                continue
            value = fields[field]
            if field == "status":
                value = _check_status(value)
            elif field == "config":
                value = json.dumps(value)
            elif field in ("channel_id", "host_id") and value is None:
                raise InvalidArgument(f"{field} cannot be None")
            assignments.append(f"{column} = ?")
            params.append(value)
        seats: Sequence[SeatRecord] | None = fields.get("seats")
        if seats is not None:
            seats = [SeatRecord.model_validate(seat) for seat in seats]
            _check_seats(seats)
        async with self._write() as conn:
            row = await self._require(conn, game_id, lock=True)
            await self._fenced(conn, row["guild_id"])
            if assignments:
                await conn.execute(
                    f"UPDATE games SET {', '.join(assignments)} WHERE id = ?",
                    (*params, game_id),
                )
            if seats is not None:
                await self._replace_seats(conn, game_id, seats)
            record = await self._load(conn, game_id)
        assert record is not None
        return record

    async def save_progress(
        self,
        game_id: int,
        *,
        version: int,
        state_json: str,
        actions: Sequence[ActionRecord],
        status: GameStatus | None = None,
        seats: Sequence[SeatRecord] | None = None,
        deadline_at: float | Unchanged | None = UNCHANGED,
        saved_at: float | None = None,
        expected_version: int | None = None,
    ) -> None:
        """Persist one step of play atomically: snapshot, new action rows, games row.

        Raises :class:`VersionConflict` unless ``version`` is greater than the stored one
        (the optimistic guard against two writers) and, when ``expected_version`` is given,
        unless the stored version is exactly that (the version the move was made from), and
        :class:`GameClosed` once the game is finished or cancelled. Action versions must
        increase, be newer than the stored version and not exceed ``version``. On any error
        nothing is written.
        """
        if status is not None:
            _check_status(status)
        if seats is not None:
            _check_seats(seats)
        action_versions = [action.version for action in actions]
        if any(b <= a for a, b in itertools.pairwise(action_versions)):
            raise InvalidArgument(f"action versions must increase: {action_versions}")
        if action_versions and action_versions[-1] > version:
            raise InvalidArgument(
                f"action version {action_versions[-1]} is beyond the saved version {version}"
            )
        async with self._write() as conn:
            row = await self._require(conn, game_id, lock=True)
            await self._fenced(conn, row["guild_id"])
            if row["status"] in CLOSED_STATUSES:
                raise GameClosed(game_id, row["status"])
            stored = int(row["version"])
            if version <= stored or (expected_version is not None and stored != expected_version):
                raise VersionConflict(game_id, stored, version)
            if action_versions and action_versions[0] <= stored:
                raise VersionConflict(game_id, stored, action_versions[0])
            now = time.time() if saved_at is None else saved_at
            await conn.execute(
                "INSERT INTO snapshots (game_id, version, state_json, saved_at)"
                " VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version,"
                " state_json = excluded.state_json, saved_at = excluded.saved_at",
                (game_id, version, state_json, now),
            )
            await conn.executemany(
                "INSERT INTO actions (game_id, version, seat, action, user_id, at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, a.version, a.seat, a.action, a.user_id, a.at) for a in actions],
            )
            assignments = ["version = ?"]
            params: list[Any] = [version]
            if status is not None:
                assignments.append("status = ?")
                params.append(status)
            if deadline_at is not UNCHANGED:
                assignments.append("deadline_at = ?")
                params.append(deadline_at)
            # The version condition repeats the guard inside the statement itself.
            changed = await conn.execute(
                f"UPDATE games SET {', '.join(assignments)} WHERE id = ? AND version < ?",
                (*params, game_id, version),
            )
            if changed != 1:
                raise VersionConflict(game_id, stored, version)
            if seats is not None:
                await self._replace_seats(conn, game_id, seats)

    async def load_game(self, game_id: int) -> GameRecord | None:
        """The game with its seats and latest snapshot, or None."""
        async with self._read() as conn:
            return await self._load(conn, game_id)

    async def active_games(
        self,
        guild_id: int | None = None,
        *,
        shard_ids: Sequence[int] | None = None,
        shard_count: int | None = None,
    ) -> list[GameRecord]:
        """Games in the lobby or being played (what to restore after a restart), oldest first.

        With ``shard_ids`` and ``shard_count``, only games of servers on those shards
        (Discord's ``(guild_id >> 22) % shard_count``).
        """
        where = "WHERE g.status IN ('lobby', 'active')"
        params: tuple[Any, ...] = ()
        if guild_id is not None:
            where += " AND g.guild_id = ?"
            params = (guild_id,)
        if shard_ids is not None or shard_count is not None:
            if shard_ids is None or not shard_count or shard_count < 1:
                raise InvalidArgument("shard_ids and a positive shard_count go together")
            ids = sorted({int(i) for i in shard_ids})
            if not ids:
                return []
            marks = ", ".join("?" * len(ids))
            where += f" AND ((g.guild_id >> 22) % ?) IN ({marks})"
            params = (*params, int(shard_count), *ids)
        async with self._read() as conn:
            return await self._games(conn, f"{where} ORDER BY g.id", params)

    async def active_game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The newest live game whose channel or thread is ``channel_id``."""
        async with self._read() as conn:
            games = await self._games(
                conn,
                "WHERE g.status IN ('lobby', 'active')"
                " AND (g.channel_id = ? OR g.thread_id = ?) ORDER BY g.id DESC LIMIT 1",
                (channel_id, channel_id),
            )
        return games[0] if games else None

    async def actions(self, game_id: int, *, after_version: int = 0) -> list[ActionRecord]:
        """The game's action log in order (optionally only entries after a version)."""
        async with self._read() as conn:
            rows = await conn.fetchall(
                "SELECT version, seat, action, user_id, at FROM actions"
                " WHERE game_id = ? AND version > ? ORDER BY version",
                (game_id, after_version),
            )
        return [ActionRecord.model_validate(dict(r)) for r in rows]

    async def cancel_game(self, game_id: int, ended_at: float | None = None) -> bool:
        """Cancel a live game. True if it was cancelled now, False if it had already ended."""
        async with self._write() as conn:
            row = await self._require(conn, game_id, lock=True)
            await self._fenced(conn, row["guild_id"])
            changed = await conn.execute(
                "UPDATE games SET status = 'cancelled', ended_at = ?, deadline_at = NULL"
                " WHERE id = ? AND status IN ('lobby', 'active')",
                (time.time() if ended_at is None else ended_at, game_id),
            )
            return changed == 1

    # ------------------------------------------------------------------ results

    async def finish_game(
        self,
        game_id: int,
        *,
        guild_id: int,
        game: str,
        results: Sequence[SeatResult],
        ended_at: float | None = None,
    ) -> list[RatingChange]:
        """Record a finished game in one transaction: status, results, stats and ratings.

        Idempotent: once a game's results are recorded, later calls change nothing and
        return the stored rating changes (the new ``results`` are ignored). The game may
        already have status "finished" (set by :meth:`save_progress`); a cancelled game is
        refused with :class:`GameClosed`. Returns one :class:`RatingChange` per human.
        """
        if not results:
            raise InvalidArgument("finish_game needs at least one seat result")
        seat_numbers = [r.seat for r in results]
        if len(set(seat_numbers)) != len(seat_numbers):
            raise InvalidArgument(f"duplicate seats in results: {seat_numbers}")
        humans, ais = split_results(results)
        now = time.time() if ended_at is None else ended_at

        async with self._write() as conn:
            row = await self._require(conn, game_id, lock=True)
            if row["guild_id"] != guild_id or row["game"] != game:
                raise InvalidArgument(
                    f"game {game_id} belongs to guild {row['guild_id']} / {row['game']!r},"
                    f" not {guild_id} / {game!r}"
                )
            await self._fenced(conn, guild_id)
            if row["results_recorded"]:
                return await self._rating_changes(conn, game_id)
            if row["status"] == "cancelled":
                raise GameClosed(game_id, "cancelled")
            # Two games sharing a player may end at once in two processes: rate them one
            # after the other, each from the ratings the other left.
            await conn.lock_key(f"board:{guild_id}:{game}")

            keys = [*humans, *([AI_USER_ID] if ais else [])]
            current: dict[int, Skill] = {}
            for chunk in _chunks(keys):
                marks = ", ".join("?" * len(chunk))
                for p in await conn.fetchall(
                    "SELECT user_id, mu, sigma FROM players"
                    f" WHERE guild_id = ? AND game = ? AND user_id IN ({marks})",
                    (guild_id, game, *chunk),
                ):
                    current[int(p["user_id"])] = Skill(mu=p["mu"], sigma=p["sigma"])
            participants = [(uid, r.rank) for uid, r in humans.items()]
            participants += [(AI_USER_ID, r.rank) for r in ais]
            updated = rate_match(participants, current)

            def before_after(result: SeatResult) -> tuple[float, float]:
                key = AI_USER_ID if result.is_ai else result.user_id
                assert key is not None
                return current.get(key, Skill()).display, updated[key].display

            await conn.executemany(
                "INSERT INTO results (game_id, seat, user_id, name, is_ai, rank, score, won,"
                " rating_before, rating_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
                        r.seat,
                        r.user_id,
                        r.name,
                        int(r.is_ai),
                        r.rank,
                        r.score,
                        int(r.won),
                        *before_after(r),
                    )
                    for r in results
                ],
            )
            # (user_id, name, won, points) per rated player; the AI counts once per game.
            tallies = [(uid, r.name, r.won, r.score) for uid, r in humans.items()]
            if ais:
                best_ai = max(ais, key=lambda r: (-r.rank, r.won, r.score))
                tallies.append((AI_USER_ID, AI_PLAYER_NAME, any(r.won for r in ais), best_ai.score))
            await conn.executemany(
                "INSERT INTO players (guild_id, game, user_id, name, games, wins, points,"
                " mu, sigma, rating, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, game, user_id) DO UPDATE SET"
                " name = excluded.name, games = players.games + 1,"
                " wins = players.wins + excluded.wins,"
                " points = players.points + excluded.points, mu = excluded.mu,"
                " sigma = excluded.sigma, rating = excluded.rating,"
                " updated_at = excluded.updated_at",
                [
                    (
                        guild_id,
                        game,
                        uid,
                        name,
                        int(won),
                        points,
                        updated[uid].mu,
                        updated[uid].sigma,
                        updated[uid].display,
                        now,
                    )
                    for uid, name, won, points in tallies
                ],
            )
            await conn.execute(
                "UPDATE games SET status = 'finished', ended_at = COALESCE(ended_at, ?),"
                " deadline_at = NULL, results_recorded = 1 WHERE id = ?",
                (now, game_id),
            )
            return [
                RatingChange(
                    user_id=uid,
                    name=r.name,
                    rating_before=current.get(uid, Skill()).display,
                    rating_after=updated[uid].display,
                )
                for uid, r in sorted(humans.items(), key=lambda item: (item[1].rank, item[1].seat))
            ]

    async def _rating_changes(self, conn: Conn, game_id: int) -> list[RatingChange]:
        """Rating changes as recorded by an earlier :meth:`finish_game`."""
        rows = await conn.fetchall(
            "SELECT user_id, name, rating_before, rating_after FROM results"
            " WHERE game_id = ? AND is_ai = 0 ORDER BY rank, seat",
            (game_id,),
        )
        changes: dict[int, RatingChange] = {}
        for r in rows:
            if r["user_id"] in changes:
                continue
            changes[r["user_id"]] = RatingChange(
                user_id=r["user_id"],
                name=r["name"],
                rating_before=r["rating_before"],
                rating_after=r["rating_after"],
            )
        return list(changes.values())

    async def results(self, game_id: int) -> list[SeatResult]:
        """Per-seat results of a finished game (empty if none were recorded)."""
        async with self._read() as conn:
            rows = await conn.fetchall(
                "SELECT seat, user_id, name, is_ai, rank, score, won FROM results"
                " WHERE game_id = ? ORDER BY rank, seat",
                (game_id,),
            )
        return [_seat_result(r) for r in rows]

    async def recent_results(
        self,
        guild_id: int,
        game: str | None = None,
        *,
        user_id: int | None = None,
        limit: int = 10,
    ) -> list[FinishedGame]:
        """The latest finished games on a server, newest first, optionally for one user."""
        page, _total = await self.history(guild_id, user_id=user_id, game=game, limit=limit)
        return list(page)

    async def history(
        self,
        guild_id: int,
        *,
        user_id: int | None = None,
        game: str | None = None,
        offset: int = 0,
        limit: int = 10,
    ) -> tuple[list[PastGame], int]:
        """One page of a server's finished games, newest first, and how many there are in
        all; optionally only one person's games, or one kind of game. Each says whether its
        action log is still kept (it can be replayed)."""
        if offset < 0 or limit < 0:
            raise InvalidArgument("offset and limit must not be negative")
        where = ["g.guild_id = ?", "g.status = 'finished'", "g.results_recorded = 1"]
        params: list[Any] = [guild_id]
        if game is not None:
            where.append("g.game = ?")
            params.append(game)
        if user_id is not None:
            where.append(
                "EXISTS (SELECT 1 FROM results AS u WHERE u.game_id = g.id AND u.user_id = ?)"
            )
            params.append(user_id)
        clause = " AND ".join(where)
        async with self._read() as conn:
            count = await conn.fetchone(f"SELECT COUNT(*) FROM games AS g WHERE {clause}", params)
            games = await conn.fetchall(
                "SELECT g.id, g.game, g.ended_at, CASE WHEN EXISTS"
                " (SELECT 1 FROM actions AS a WHERE a.game_id = g.id) THEN 1 ELSE 0 END"
                f" AS logged FROM games AS g WHERE {clause}"
                " ORDER BY g.ended_at DESC, g.id DESC LIMIT ? OFFSET ?",
                (*params, limit, offset),
            )
            ids = [int(g["id"]) for g in games]
            results: dict[int, list[SeatResult]] = {game_id: [] for game_id in ids}
            for chunk in _chunks(ids):
                marks = ", ".join("?" * len(chunk))
                for r in await conn.fetchall(
                    "SELECT game_id, seat, user_id, name, is_ai, rank, score, won FROM results"
                    f" WHERE game_id IN ({marks}) ORDER BY game_id, rank, seat",
                    chunk,
                ):
                    results[int(r["game_id"])].append(_seat_result(r))
        page = [
            PastGame(
                game_id=g["id"],
                game=g["game"],
                ended_at=g["ended_at"],
                results=results[int(g["id"])],
                replayable=bool(g["logged"]),
            )
            for g in games
        ]
        return page, int(count[0]) if count is not None else 0

    # ------------------------------------------------------------------ boards

    async def leaderboard(
        self, guild_id: int, game: str, *, offset: int = 0, limit: int = 10
    ) -> tuple[list[LeaderboardRow], int]:
        """One page of a server's board for a game, and how many players the board has.

        Players with at least :data:`PROVISIONAL_GAMES` games come first; within each group
        the order is by the rating as shown (a whole number), then wins, then games (then
        user id, for stable pages). The AI pseudo-player is never listed.
        """
        if offset < 0 or limit < 0:
            raise InvalidArgument("offset and limit must not be negative")
        async with self._read() as conn:
            total_row = await conn.fetchone(
                "SELECT COUNT(*) FROM players WHERE guild_id = ? AND game = ? AND user_id != 0",
                (guild_id, game),
            )
            rows = await conn.fetchall(
                f"{_BOARD_SELECT} FROM players AS p"
                " WHERE p.guild_id = ? AND p.game = ? AND p.user_id != 0"
                f" ORDER BY {_BOARD_ORDER}, p.user_id LIMIT ? OFFSET ?",
                (guild_id, game, limit, offset),
            )
        total = int(total_row[0]) if total_row is not None else 0
        return [LeaderboardRow.model_validate(dict(r)) for r in rows], total

    async def user_stats(self, guild_id: int, user_id: int) -> list[UserStats]:
        """A user's record in every game they have finished on a server, by game name."""
        async with self._read() as conn:
            rows = await conn.fetchall(
                f"{_BOARD_SELECT},"
                " (SELECT COUNT(*) FROM players AS b WHERE b.guild_id = p.guild_id"
                "  AND b.game = p.game AND b.user_id != 0) AS board_size"
                " FROM players AS p WHERE p.guild_id = ? AND p.user_id = ? AND p.user_id != 0"
                " ORDER BY p.game",
                (guild_id, user_id),
            )
        return [UserStats.model_validate(dict(r)) for r in rows]

    async def rating_history(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> list[RatingPoint]:
        """A person's rating before and after each finished game on a server, by game name
        and then in the order the games ended (optionally for one game only)."""
        where = "g.guild_id = ? AND r.user_id = ? AND r.is_ai = 0 AND r.rating_after IS NOT NULL"
        params: list[Any] = [guild_id, user_id]
        if game is not None:
            where += " AND g.game = ?"
            params.append(game)
        async with self._read() as conn:
            # One row per game even if the person held two seats (both carry the same change).
            rows = await conn.fetchall(
                "SELECT g.game, g.id AS game_id, g.ended_at, MIN(r.rating_before) AS rating_before,"
                " MIN(r.rating_after) AS rating_after"
                f" FROM results AS r JOIN games AS g ON g.id = r.game_id WHERE {where}"
                " GROUP BY g.game, g.id, g.ended_at ORDER BY g.game, g.ended_at, g.id",
                params,
            )
        return [RatingPoint.model_validate(dict(r)) for r in rows]

    async def moves_by_seat(self, game_id: int) -> dict[int, tuple[int, int]]:
        """Per seat of a game: moves its person made, and moves an AI made for it."""
        async with self._read() as conn:
            rows = await conn.fetchall(
                "SELECT seat, SUM(CASE WHEN user_id IS NULL THEN 0 ELSE 1 END) AS own,"
                " SUM(CASE WHEN user_id IS NULL THEN 1 ELSE 0 END) AS covered"
                " FROM actions WHERE game_id = ? GROUP BY seat",
                (game_id,),
            )
        return {int(r["seat"]): (int(r["own"]), int(r["covered"])) for r in rows}

    async def turn_pings(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, bool]:
        """Whether each person wants a message when their turn starts (yes unless they said
        no on this server)."""
        wanted = {user_id: True for user_id in user_ids}
        if not wanted:
            return wanted
        marks = ", ".join("?" * len(wanted))
        async with self._read() as conn:
            rows = await conn.fetchall(
                "SELECT user_id, turn_pings FROM person_settings"
                f" WHERE guild_id = ? AND user_id IN ({marks})",
                (guild_id, *wanted),
            )
        wanted.update({int(r["user_id"]): bool(r["turn_pings"]) for r in rows})
        return wanted

    async def set_turn_pings(self, guild_id: int, user_id: int, on: bool) -> None:
        """Remember a person's choice about turn messages on a server."""
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO person_settings (guild_id, user_id, turn_pings, updated_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
                " turn_pings = excluded.turn_pings, updated_at = excluded.updated_at",
                (guild_id, user_id, int(on), time.time()),
            )

    async def results_against_ai(self, guild_id: int, user_id: int) -> list[AIRecord]:
        """A person's finished games on a server that had AI players, grouped by the
        strongest AI level at the table (a seat with no level played at normal)."""
        async with self._read() as conn:
            rows = await conn.fetchall(
                "SELECT lv.strength AS strength, COUNT(*) AS games, SUM(r.won) AS wins"
                " FROM results AS r JOIN games AS g ON g.id = r.game_id"
                " JOIN (SELECT game_id, MAX(CASE COALESCE(level, 'normal')"
                "   WHEN 'easy' THEN 1 WHEN 'normal' THEN 2 ELSE 3 END) AS strength"
                "   FROM seats WHERE is_ai = 1 GROUP BY game_id) AS lv ON lv.game_id = r.game_id"
                " WHERE g.guild_id = ? AND r.user_id = ? AND r.is_ai = 0"
                " GROUP BY lv.strength ORDER BY lv.strength",
                (guild_id, user_id),
            )
        names = {1: "easy", 2: "normal", 3: "hard"}
        return [
            AIRecord(level=names[int(r["strength"])], games=int(r["games"]), wins=int(r["wins"]))  # type: ignore[arg-type]
            for r in rows
        ]

    # ------------------------------------------------------------------ housekeeping

    async def prune(self, *, older_than_days: float = 30.0, now: float | None = None) -> int:
        """Drop snapshots and action logs of games that ended long ago; keep results.

        Returns how many games lost data. Live games are never touched.
        """
        cutoff = (time.time() if now is None else now) - older_than_days * 86400.0
        old = "SELECT id FROM games WHERE status IN ('finished', 'cancelled') AND ended_at < ?"
        async with self._write() as conn:
            row = await conn.fetchone(
                f"SELECT COUNT(*) FROM ({old}) AS o WHERE"
                " EXISTS (SELECT 1 FROM snapshots AS s WHERE s.game_id = o.id)"
                " OR EXISTS (SELECT 1 FROM actions AS a WHERE a.game_id = o.id)",
                (cutoff,),
            )
            await conn.execute(f"DELETE FROM snapshots WHERE game_id IN ({old})", (cutoff,))
            await conn.execute(f"DELETE FROM actions WHERE game_id IN ({old})", (cutoff,))
        return int(row[0]) if row is not None else 0


def _seat_result(r: Row) -> SeatResult:
    return SeatResult(
        seat=r["seat"],
        user_id=r["user_id"],
        name=r["name"],
        is_ai=bool(r["is_ai"]),
        rank=r["rank"],
        score=r["score"],
        won=bool(r["won"]),
    )
