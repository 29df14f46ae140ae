"""Games: their rows, seats, the latest snapshot, the action log, and pruning old logs.

Progress is saved only from the version a move was made from, and every write for a table
is fenced by this process's shard lease (``Store._fenced``).
"""

from __future__ import annotations

import enum
import itertools
import json
import time
from collections.abc import Iterable, Sequence
from typing import Any, Final

from .backends import (
    Conn,
)
from .base import Store, _check_seats, _check_status, _chunks
from .errors import GameClosed, InvalidArgument, VersionConflict
from .models import (
    CLOSED_STATUSES,
    ActionRecord,
    GameRecord,
    GameStatus,
    SeatRecord,
)


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


class GameStore(Store):
    """Games, seats, snapshots and the action log."""

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

    @staticmethod
    async def _replace_seats(conn: Conn, game_id: int, seats: Sequence[SeatRecord]) -> None:
        await conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await conn.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, is_ai, autopilot, level,"
            " left_user_id, invited) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            _seat_rows(game_id, seats),
        )

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

        async def body(conn: Conn) -> GameRecord | None:
            row = await self._require(conn, game_id, lock=True)
            await self._fenced(conn, row["guild_id"])
            if assignments:
                await conn.execute(
                    f"UPDATE games SET {', '.join(assignments)} WHERE id = ?",
                    (*params, game_id),
                )
            if seats is not None:
                await self._replace_seats(conn, game_id, seats)
            return await self._load(conn, game_id)

        record = await self._transact(body)
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

        async def body(conn: Conn) -> None:
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

        await self._transact(body)

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
