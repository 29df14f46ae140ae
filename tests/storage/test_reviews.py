"""Reviews in storage (SQLite and PostgreSQL): kept per game and seat, replaced when worked
out again, gone with their game."""

from __future__ import annotations

from bot.storage import Database
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
