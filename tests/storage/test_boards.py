"""Board order (the shown rating, provisional players last) and a person's rating history."""

from __future__ import annotations

import itertools

import pytest

from bot.storage import PROVISIONAL_GAMES, Database, display_rating
from bot.storage.ratings import DEFAULT_MU, DEFAULT_SIGMA

from .helpers import GUILD, ai, human, new_game, play_out, result

NEWCOMER = display_rating(DEFAULT_MU, DEFAULT_SIGMA)


async def _player(
    db: Database, user_id: int, *, games: int, wins: int, rating: float, game: str = "qdice"
) -> None:
    """A board line written directly, to pin ratings and counts exactly."""
    await db._run(
        "INSERT INTO players (guild_id, game, user_id, name, games, wins, points, mu, sigma,"
        " rating, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, 25, 8, ?, 0)",
        (GUILD, game, user_id, f"user{user_id}", games, wins, rating),
    )


async def test_the_board_sorts_by_the_rating_it_shows(db: Database) -> None:
    # 1200.4 and 1199.6 both show as 1,200: the one with more wins comes first, although its
    # unrounded rating is lower. 1200.6 shows as 1,201 and leads.
    await _player(db, 1, games=9, wins=2, rating=1200.4)
    await _player(db, 2, games=9, wins=5, rating=1199.6)
    await _player(db, 3, games=9, wins=0, rating=1200.6)
    await _player(db, 4, games=9, wins=2, rating=1199.8)  # shows 1,200 with 2 wins, like 1
    rows, total = await db.leaderboard(GUILD, "qdice")
    assert total == 4
    assert [(r.user_id, r.shown_rating) for r in rows] == [
        (3, 1201),
        (2, 1200),
        (1, 1200),
        (4, 1200),
    ]
    # Equal shown rating, wins and games share a place, whatever the decimals say.
    assert [r.position for r in rows] == [1, 2, 3, 3]
    assert isinstance(rows[0].shown_rating, int)


async def test_provisional_players_come_after_established_ones(db: Database) -> None:
    few = PROVISIONAL_GAMES - 1
    await _player(db, 1, games=few, wins=few, rating=1400.0)  # hot start, few games
    await _player(db, 2, games=PROVISIONAL_GAMES, wins=1, rating=1010.0)
    await _player(db, 3, games=40, wins=20, rating=1300.0)
    await _player(db, 4, games=1, wins=0, rating=900.0)
    rows, _ = await db.leaderboard(GUILD, "qdice")
    assert [r.user_id for r in rows] == [3, 2, 1, 4]
    assert [r.provisional for r in rows] == [False, False, True, True]
    assert [r.position for r in rows] == [1, 2, 3, 4]
    page2, _ = await db.leaderboard(GUILD, "qdice", offset=2, limit=2)
    assert [(r.user_id, r.position) for r in page2] == [(1, 3), (4, 4)]
    stats = {s.user_id: s for s in [*await db.user_stats(GUILD, 1), *await db.user_stats(GUILD, 3)]}
    assert (stats[1].position, stats[1].board_size, stats[1].shown_rating) == (3, 4, 1400)
    assert stats[1].provisional and not stats[3].provisional
    assert stats[3].position == 1


async def test_a_player_becomes_established_after_enough_games(db: Database) -> None:
    for _ in range(PROVISIONAL_GAMES - 1):
        await play_out(db, [[human(0, 1)], [ai(1)]])
    await play_out(db, [[human(0, 2)], [ai(1)]])
    rows, _ = await db.leaderboard(GUILD, "qdice")
    assert all(r.provisional for r in rows)
    await play_out(db, [[human(0, 3)], [human(1, 1)]])  # user 1 loses their fifth game
    rows, _ = await db.leaderboard(GUILD, "qdice")
    first = rows[0]
    assert first.user_id == 1 and not first.provisional and first.games == PROVISIONAL_GAMES
    assert all(r.provisional for r in rows[1:])


async def test_rating_history_follows_each_game(db: Database) -> None:
    ann, bo, cy = human(0, 1), human(1, 2), human(2, 3)
    first = await play_out(db, [[ann], [bo]], ended_at=10.0)
    second = await play_out(db, [[bo], [cy], [ann]], ended_at=20.0)
    flume = await play_out(db, [[ann], [ai(1)]], game="flume", ended_at=15.0)
    third = await play_out(db, [[ann], [cy]], ended_at=30.0)
    await play_out(db, [[ann], [bo]], guild_id=GUILD + 1, ended_at=40.0)  # another server

    history = await db.rating_history(GUILD, 1)
    assert [(p.game, p.game_id) for p in history] == [
        ("flume", flume),
        ("qdice", first),
        ("qdice", second),
        ("qdice", third),
    ]
    qdice = [p for p in history if p.game == "qdice"]
    assert qdice[0].rating_before == pytest.approx(NEWCOMER)
    assert qdice[0].rating_after > qdice[0].rating_before  # won
    assert qdice[1].rating_after < qdice[1].rating_before  # last of three
    for earlier, later in itertools.pairwise(qdice):
        assert later.rating_before == pytest.approx(earlier.rating_after)
    board = {r.user_id: r for r in (await db.leaderboard(GUILD, "qdice"))[0]}
    assert qdice[-1].rating_after == pytest.approx(board[1].rating)
    assert [p.ended_at for p in qdice] == [10.0, 20.0, 30.0]

    assert [p.game_id for p in await db.rating_history(GUILD, 1, "flume")] == [flume]
    assert [p.game_id for p in await db.rating_history(GUILD, 3)] == [second, third]
    assert await db.rating_history(GUILD, 999) == []
    assert len(await db.rating_history(GUILD + 1, 1)) == 1


async def test_rating_history_has_one_point_per_game_for_two_seats(db: Database) -> None:
    a1, b, a2 = human(0, 1), human(1, 2), human(2, 1)
    record = await new_game(db, [a1, b, a2])
    await db.finish_game(
        record.id,
        guild_id=GUILD,
        game="qdice",
        results=[result(a1, 3), result(b, 2), result(a2, 1)],
    )
    history = await db.rating_history(GUILD, 1)
    assert len(history) == 1 and history[0].game_id == record.id
    assert history[0].rating_after > history[0].rating_before


async def test_rating_history_leaves_out_unfinished_and_ai_seats(db: Database) -> None:
    live = await new_game(db, [human(0, 1), ai(1)])
    await db.cancel_game(live.id)
    await new_game(db, [human(0, 1), ai(1)])  # still in its lobby
    assert await db.rating_history(GUILD, 1) == []
    await play_out(db, [[ai(0)], [human(1, 1)]])
    history = await db.rating_history(GUILD, 1)
    assert len(history) == 1 and history[0].rating_after < NEWCOMER
