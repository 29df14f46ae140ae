"""Reviews in storage (SQLite and PostgreSQL): kept per game and seat, replaced when worked
out again, gone with their game."""

from __future__ import annotations

import asyncio
import time

from bot.storage import Database
from bot.storage.housekeeping import keep_replays
from bot.storage.reviews import ReviewStore

from .helpers import ai, human, new_game


async def test_a_review_is_kept_per_seat_and_replaced(db: Database) -> None:
    game = await new_game(db, [human(0, 7), ai(1), human(2, 8)])
    other = await new_game(db)
    store = ReviewStore(db)
    assert await store.get(game.id, 0) is None and await store.seats(game.id) == []
    await store.save(game.id, 2, 8, '{"entries": []}', at=10.0)
    await store.save(game.id, 0, 7, '{"entries": [1]}', at=11.0)
    await store.save(other.id, 0, 1, "{}", at=12.0)
    assert await store.seats(game.id) == [0, 2]
    kept = await store.get(game.id, 0)
    assert kept is not None and (kept.user_id, kept.body_json, kept.computed_at) == (
        7, '{"entries": [1]}', 11.0,
    )  # fmt: skip
    await store.save(game.id, 0, 7, '{"entries": [2]}', at=13.0)
    again = await store.get(game.id, 0)
    assert again is not None and again.body_json == '{"entries": [2]}'
    assert again.computed_at == 13.0
    await db._run("DELETE FROM games WHERE id = ?", (game.id,))
    assert await store.seats(game.id) == [] and await store.seats(other.id) == [0]


async def test_housekeeping_drops_the_reviews_of_games_whose_moves_it_drops(db: Database) -> None:
    old = await new_game(db)
    recent = await new_game(db)
    now = time.time()
    for game, ended in ((old, now - 40 * 86400), (recent, now - 86400)):
        await db.update_game(game.id, status="finished", ended_at=ended)
    store = ReviewStore(db)
    await store.save(old.id, 0, 1, "{}")
    await store.save(recent.id, 0, 1, "{}")
    task = asyncio.create_task(keep_replays(db, days=30, every=0.01, also=[store]))
    try:
        for _ in range(200):
            if not await store.seats(old.id):
                break
            await asyncio.sleep(0.01)
    finally:
        task.cancel()
    assert await store.seats(old.id) == []
    assert await store.seats(recent.id) == [0]  # a day old: kept
