"""Reviews of finished games: one per game and seat of a person, kept as JSON (what is in it
is the core's business: :mod:`bot.tables.review`)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .db import Database


@dataclass(frozen=True)
class StoredReview:
    game_id: int
    seat: int
    user_id: int
    body_json: str
    computed_at: float


_OLD: Final = "SELECT id FROM games WHERE status IN ('finished', 'cancelled') AND ended_at < ?"


class ReviewStore:
    """The SQL of reviews."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def save(
        self, game_id: int, seat: int, user_id: int, body_json: str, *, at: float | None = None
    ) -> None:
        """Keep ``seat``'s review of ``game_id`` (replacing one worked out before)."""
        async with self._db._write() as conn:
            await conn.execute(
                "INSERT INTO reviews (game_id, seat, user_id, body_json, computed_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET"
                " user_id = excluded.user_id, body_json = excluded.body_json,"
                " computed_at = excluded.computed_at",
                (game_id, seat, user_id, body_json, time.time() if at is None else at),
            )

    async def get(self, game_id: int, seat: int) -> StoredReview | None:
        """``seat``'s review of ``game_id``, if one was worked out."""
        async with self._db._read() as conn:
            row = await conn.fetchone(
                "SELECT game_id, seat, user_id, body_json, computed_at FROM reviews"
                " WHERE game_id = ? AND seat = ?",
                (game_id, seat),
            )
        if row is None:
            return None
        return StoredReview(
            game_id=int(row["game_id"]),
            seat=int(row["seat"]),
            user_id=int(row["user_id"]),
            body_json=str(row["body_json"]),
            computed_at=float(row["computed_at"]),
        )

    async def seats(self, game_id: int) -> list[int]:
        """The seats of ``game_id`` with a review kept."""
        async with self._db._read() as conn:
            rows = await conn.fetchall(
                "SELECT seat FROM reviews WHERE game_id = ? ORDER BY seat", (game_id,)
            )
        return [int(r["seat"]) for r in rows]

    async def prune(self, *, older_than_days: float = 30.0, now: float | None = None) -> int:
        """Drop the reviews of games that ended long ago (their moves are pruned alike, and a
        review without its replay is not shown); how many were dropped."""
        cutoff = (time.time() if now is None else now) - older_than_days * 86400.0
        async with self._db._write() as conn:
            return await conn.execute(f"DELETE FROM reviews WHERE game_id IN ({_OLD})", (cutoff,))
