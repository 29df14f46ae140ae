"""Results: a finished game's placings, stats and ratings in one transaction, and what
/history and /stats read back from them."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from .backends import (
    Conn,
    Row,
)
from .base import Store, _chunks
from .errors import GameClosed, InvalidArgument
from .models import (
    AI_PLAYER_NAME,
    AI_USER_ID,
    AIRecord,
    FinishedGame,
    PastGame,
    RatingChange,
    SeatResult,
)
from .ratings import Skill, rate_match, split_results


class ResultStore(Store):
    """Finished games' results and ratings."""

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
            AIRecord(level=names[int(r["strength"])], games=int(r["games"]), wins=int(r["wins"]))
            for r in rows
        ]


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
