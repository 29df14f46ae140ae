"""Boards: a server's standings per game, a person's stats and rating history."""

from __future__ import annotations

from typing import Any, Final

from .base import Store
from .errors import InvalidArgument
from .models import (
    PROVISIONAL_GAMES,
    LeaderboardRow,
    RatingPoint,
    UserStats,
)


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


class BoardStore(Store):
    """Leaderboards and a person's standing."""

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
