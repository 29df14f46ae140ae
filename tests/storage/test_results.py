"""finish_game, stats, ratings through the database, leaderboards and user stats."""

from __future__ import annotations

import pytest

from bot.storage import (
    AI_USER_ID,
    Database,
    GameClosed,
    InvalidArgument,
    SeatRecord,
    display_rating,
)
from bot.storage.ratings import DEFAULT_MU, DEFAULT_SIGMA, MODEL

from .helpers import GUILD, ai, human, new_game, play_out, result

NEWCOMER = display_rating(DEFAULT_MU, DEFAULT_SIGMA)


async def board(db: Database, game: str = "qdice", guild_id: int = GUILD) -> dict[int, float]:
    rows, _ = await db.leaderboard(guild_id, game, limit=100)
    return {r.user_id: r.rating for r in rows}


async def test_finish_records_results_stats_and_status(db: Database) -> None:
    a, b = human(0, 1, "Ann"), human(1, 2, "Bo")
    record = await new_game(db, [a, b])
    await db.update_game(record.id, status="active", deadline_at=99.0)
    changes = await db.finish_game(
        record.id,
        guild_id=GUILD,
        game="qdice",
        results=[result(a, 1, score=30), result(b, 2, score=12)],
        ended_at=500.0,
    )
    assert {c.user_id: c.delta > 0 for c in changes} == {1: True, 2: False}
    assert all(c.rating_before == pytest.approx(NEWCOMER) for c in changes)
    loaded = await db.load_game(record.id)
    assert loaded is not None
    assert (loaded.status, loaded.ended_at, loaded.deadline_at) == ("finished", 500.0, None)
    stored = await db.results(record.id)
    assert [(r.user_id, r.rank, r.score, r.won) for r in stored] == [
        (1, 1, 30.0, True),
        (2, 2, 12.0, False),
    ]
    rows, total = await db.leaderboard(GUILD, "qdice")
    assert total == 2
    assert [(r.user_id, r.name, r.games, r.wins, r.points, r.position) for r in rows] == [
        (1, "Ann", 1, 1, 30.0, 1),
        (2, "Bo", 1, 0, 12.0, 2),
    ]


async def test_ratings_match_openskill(db: Database) -> None:
    a, b, c = human(0, 1), human(1, 2), human(2, 3)
    await play_out(db, [[a], [b], [c]])
    expected = MODEL.rate([[MODEL.rating()], [MODEL.rating()], [MODEL.rating()]], ranks=[1, 2, 3])
    rows, _ = await db.leaderboard(GUILD, "qdice")
    by_user = {r.user_id: r for r in rows}
    for user_id, team in zip((1, 2, 3), expected, strict=True):
        assert by_user[user_id].mu == pytest.approx(team[0].mu)
        assert by_user[user_id].sigma == pytest.approx(team[0].sigma)
        assert by_user[user_id].rating == pytest.approx(
            1000 + 40 * (team[0].mu - 3 * team[0].sigma)
        )


async def test_winner_goes_up_loser_goes_down_over_games(db: Database) -> None:
    a, b = human(0, 1), human(1, 2)
    await play_out(db, [[a], [b]])
    first = await board(db)
    assert first[1] > NEWCOMER > first[2]
    await play_out(db, [[a], [b]])
    second = await board(db)
    assert second[1] > first[1]
    assert second[2] < first[2]
    # An upset moves them back towards each other.
    await play_out(db, [[b], [a]])
    third = await board(db)
    assert third[2] > second[2]
    assert third[1] < second[1]


async def test_finish_is_idempotent(db: Database) -> None:
    a, b = human(0, 1), human(1, 2)
    record = await new_game(db, [a, b])
    results = [result(a, 1, 5), result(b, 2, 1)]
    first = await db.finish_game(
        record.id, guild_id=GUILD, game="qdice", results=results, ended_at=10.0
    )
    before = await db.leaderboard(GUILD, "qdice")
    again = await db.finish_game(
        record.id,
        guild_id=GUILD,
        game="qdice",
        results=[result(a, 2), result(b, 1)],  # ignored: already recorded
        ended_at=20.0,
    )
    assert again == first
    assert await db.leaderboard(GUILD, "qdice") == before
    loaded = await db.load_game(record.id)
    assert loaded is not None and loaded.ended_at == 10.0
    assert [r.rank for r in await db.results(record.id)] == [1, 2]


async def test_finish_after_status_already_finished(db: Database) -> None:
    a, b = human(0, 1), human(1, 2)
    record = await new_game(db, [a, b])
    await db.save_progress(record.id, version=1, state_json="end", actions=[], status="finished")
    await db.finish_game(
        record.id, guild_id=GUILD, game="qdice", results=[result(a, 1), result(b, 2)]
    )
    rows, total = await db.leaderboard(GUILD, "qdice")
    assert total == 2 and rows[0].user_id == 1


async def test_finish_refusals(db: Database) -> None:
    a, b = human(0, 1), human(1, 2)
    record = await new_game(db, [a, b])
    good = [result(a, 1), result(b, 2)]
    with pytest.raises(InvalidArgument):
        await db.finish_game(record.id, guild_id=GUILD + 1, game="qdice", results=good)
    with pytest.raises(InvalidArgument):
        await db.finish_game(record.id, guild_id=GUILD, game="flume", results=good)
    with pytest.raises(InvalidArgument):
        await db.finish_game(record.id, guild_id=GUILD, game="qdice", results=[])
    with pytest.raises(InvalidArgument):
        await db.finish_game(
            record.id, guild_id=GUILD, game="qdice", results=[result(a, 1), result(a, 2)]
        )
    nobody = result(b, 2).model_copy(update={"user_id": None})
    with pytest.raises(InvalidArgument):
        await db.finish_game(
            record.id, guild_id=GUILD, game="qdice", results=[result(a, 1), nobody]
        )
    await db.cancel_game(record.id)
    with pytest.raises(GameClosed):
        await db.finish_game(record.id, guild_id=GUILD, game="qdice", results=good)
    assert await db.leaderboard(GUILD, "qdice") == ([], 0)


async def test_ai_pseudo_player_is_rated_but_never_listed(db: Database) -> None:
    a = human(0, 1)
    await play_out(db, [[ai(1)], [a]])  # the AI beats the human
    rows, total = await db.leaderboard(GUILD, "qdice")
    assert total == 1 and [r.user_id for r in rows] == [1]
    assert rows[0].rating < NEWCOMER
    raw = await db._query(
        "SELECT name, games, wins, rating FROM players WHERE user_id = ?", (AI_USER_ID,)
    )
    ((name, games, wins, rating),) = [tuple(r) for r in raw]
    assert (name, games, wins) == ("AI players", 1, 1)
    assert rating > NEWCOMER
    assert await db.user_stats(GUILD, AI_USER_ID) == []


async def test_beating_a_strong_ai_pays_more(db: Database) -> None:
    # Make the AI strong on one server, leave it fresh on another.
    for user_id in range(10, 16):
        await play_out(db, [[ai(0)], [human(1, user_id)]], guild_id=1)
    await play_out(db, [[human(0, 1)], [ai(1)]], guild_id=1)
    await play_out(db, [[human(0, 1)], [ai(1)]], guild_id=2)
    strong = (await board(db, guild_id=1))[1]
    weak = (await board(db, guild_id=2))[1]
    assert strong > weak > NEWCOMER


async def test_two_ai_seats_average_into_one_pseudo_player(db: Database) -> None:
    a = human(0, 1)
    await play_out(db, [[a], [ai(1)], [ai(2)]])
    raw = await db._query("SELECT games, wins, mu, sigma FROM players WHERE user_id = 0")
    ((games, wins, mu, sigma),) = [tuple(r) for r in raw]
    assert (games, wins) == (1, 0)
    start = MODEL.rating()
    rated = MODEL.rate(
        [[start], [MODEL.rating()], [MODEL.rating()]],
        ranks=[1, 2, 3],
    )
    assert mu == pytest.approx((rated[1][0].mu + rated[2][0].mu) / 2)
    assert sigma == pytest.approx((rated[1][0].sigma + rated[2][0].sigma) / 2)
    # Every stored AI seat shows the pseudo-player's before/after.
    assert {r.seat for r in await db.results((await db.recent_results(GUILD))[0].game_id)} == {
        0,
        1,
        2,
    }


async def test_user_in_two_seats_counts_once_with_the_better_result(db: Database) -> None:
    a1, b, a2 = human(0, 1), human(1, 2), human(2, 1)
    record = await new_game(db, [a1, b, a2])
    changes = await db.finish_game(
        record.id,
        guild_id=GUILD,
        game="qdice",
        results=[result(a1, 3, score=1), result(b, 2, score=2), result(a2, 1, score=9)],
    )
    assert [c.user_id for c in changes] == [1, 2]
    rows, total = await db.leaderboard(GUILD, "qdice")
    assert total == 2
    me = next(r for r in rows if r.user_id == 1)
    assert (me.games, me.wins, me.points) == (1, 1, 9.0)
    assert rows[0].user_id == 1
    assert len(await db.results(record.id)) == 3
    repeat = await db.finish_game(
        record.id, guild_id=GUILD, game="qdice", results=[result(a1, 1), result(b, 2)]
    )
    assert repeat == changes


async def test_ties_share_rank(db: Database) -> None:
    a, b, c = human(0, 1), human(1, 2), human(2, 3)
    await play_out(db, [[a, b], [c]])
    ratings = await board(db)
    assert ratings[1] == pytest.approx(ratings[2])
    assert ratings[1] > ratings[3]
    rows, _ = await db.leaderboard(GUILD, "qdice")
    assert [r.position for r in rows] == [1, 1, 3]


async def test_leaderboard_ordering_and_pagination(db: Database) -> None:
    # Seven players in a ladder: user 1 beats everyone, 2 beats 3..7, and so on.
    players = [human(i, i + 1) for i in range(7)]
    await play_out(db, [[p] for p in players])
    await play_out(db, [[p] for p in players])
    await play_out(db, [[human(0, 5)], [ai(1)]], game="other")
    rows, total = await db.leaderboard(GUILD, "qdice", limit=100)
    assert total == 7
    assert [r.user_id for r in rows] == [1, 2, 3, 4, 5, 6, 7]
    ratings = [r.rating for r in rows]
    assert ratings == sorted(ratings, reverse=True)
    assert [r.position for r in rows] == list(range(1, 8))

    page1, t1 = await db.leaderboard(GUILD, "qdice", offset=0, limit=3)
    page2, t2 = await db.leaderboard(GUILD, "qdice", offset=3, limit=3)
    page3, t3 = await db.leaderboard(GUILD, "qdice", offset=6, limit=3)
    page4, t4 = await db.leaderboard(GUILD, "qdice", offset=9, limit=3)
    assert (t1, t2, t3, t4) == (7, 7, 7, 7)
    assert [r.user_id for r in page1 + page2 + page3] == [1, 2, 3, 4, 5, 6, 7]
    assert page4 == []
    assert [r.position for r in page2] == [4, 5, 6]
    other, total_other = await db.leaderboard(GUILD, "other")
    assert total_other == 1 and other[0].user_id == 5
    assert await db.leaderboard(GUILD + 1, "qdice") == ([], 0)
    with pytest.raises(InvalidArgument):
        await db.leaderboard(GUILD, "qdice", offset=-1)


async def test_equal_ratings_break_ties_by_wins_then_games(db: Database) -> None:
    await play_out(db, [[human(0, 1)], [human(1, 2)]])
    # Force equal ratings to check the secondary keys.
    await db._run("UPDATE players SET rating = 1000 WHERE user_id IN (1, 2, 3)")
    await db._run(
        "INSERT INTO players (guild_id, game, user_id, name, games, wins, points, mu, sigma,"
        " rating, updated_at) VALUES (?, 'qdice', 3, 'c', 4, 0, 0, 25, 8, 1000, 0)",
        (GUILD,),
    )
    rows, _ = await db.leaderboard(GUILD, "qdice")
    assert [r.user_id for r in rows] == [1, 3, 2]
    assert [r.position for r in rows] == [1, 2, 3]


async def test_user_stats(db: Database) -> None:
    await play_out(db, [[human(0, 1)], [human(1, 2)], [human(2, 3)]])
    await play_out(db, [[human(0, 3)], [human(1, 2)]], game="flume")
    await play_out(db, [[human(0, 2)], [ai(1)]], game="zeta", guild_id=GUILD + 1)
    stats = await db.user_stats(GUILD, 2)
    assert [(s.game, s.position, s.board_size, s.games) for s in stats] == [
        ("flume", 2, 2, 1),
        ("qdice", 2, 3, 1),
    ]
    assert stats[1].rating == (await board(db))[2]
    assert await db.user_stats(GUILD, 999) == []
    other = await db.user_stats(GUILD + 1, 2)
    assert [(s.game, s.position, s.board_size, s.wins) for s in other] == [("zeta", 1, 1, 1)]


async def test_recent_results(db: Database) -> None:
    first = await play_out(db, [[human(0, 1)], [human(1, 2)]], ended_at=10.0)
    second = await play_out(db, [[human(0, 3)], [ai(1)]], ended_at=20.0)
    third = await play_out(db, [[human(0, 1)], [ai(1)]], game="flume", ended_at=30.0)
    unfinished = await new_game(db)
    await db.cancel_game(unfinished.id)
    assert [g.game_id for g in await db.recent_results(GUILD)] == [third, second, first]
    assert [g.game_id for g in await db.recent_results(GUILD, "qdice")] == [second, first]
    assert [g.game_id for g in await db.recent_results(GUILD, user_id=1)] == [third, first]
    assert [g.game_id for g in await db.recent_results(GUILD, limit=1)] == [third]
    latest = (await db.recent_results(GUILD, "qdice"))[0]
    assert [(r.rank, r.is_ai) for r in latest.results] == [(1, False), (2, True)]


async def test_results_against_ai_by_the_strongest_level_at_the_table(db: Database) -> None:
    def bot(seat: int, level: str | None) -> SeatRecord:
        return SeatRecord(seat=seat, user_id=None, name=f"AI {seat}", is_ai=True, level=level)  # type: ignore[arg-type]

    alice, carol = human(0, 1, "alice"), human(1, 3, "carol")
    await play_out(db, [[alice], [bot(1, "easy")]])  # beats an easy AI
    await play_out(db, [[bot(1, "hard")], [alice], [bot(2, "easy")]])  # hard is strongest
    await play_out(db, [[bot(1, "hard")], [alice]])
    await play_out(db, [[alice], [bot(1, None)]])  # no level: normal
    await play_out(db, [[alice], [carol]])  # no AI at all: not counted
    await play_out(db, [[bot(2, "hard")], [carol]])  # someone else's game
    record = await db.load_game(await play_out(db, [[alice], [bot(1, "hard")], [bot(2, "normal")]]))
    assert record is not None and [s.level for s in record.seats] == [None, "hard", "normal"]
    rows = await db.results_against_ai(GUILD, 1)
    assert [(r.level, r.games, r.wins) for r in rows] == [
        ("easy", 1, 1),
        ("normal", 1, 1),
        ("hard", 3, 1),
    ]
    assert await db.results_against_ai(GUILD + 1, 1) == []


async def test_turn_pings_are_on_until_a_person_turns_them_off(db: Database) -> None:
    assert await db.turn_pings(GUILD, [1, 2]) == {1: True, 2: True}
    await db.set_turn_pings(GUILD, 1, False)
    assert await db.turn_pings(GUILD, [1, 2]) == {1: False, 2: True}
    assert await db.turn_pings(GUILD + 1, [1]) == {1: True}  # per server
    await db.set_turn_pings(GUILD, 1, True)
    assert await db.turn_pings(GUILD, [1]) == {1: True}
    assert await db.turn_pings(GUILD, []) == {}
