"""A server's and a person's finished games, page by page, with whether each can be replayed."""

from __future__ import annotations

import pytest

from bot.storage import ActionRecord, Database, InvalidArgument

from .helpers import GUILD, ai, human, new_game, play_out, result


async def _played(
    db: Database, ended_at: float, *, game: str = "qdice", players: tuple[int, ...] = (1, 2)
) -> int:
    """A finished game with an action log (it was played move by move)."""
    seats = [human(i, uid, f"user{uid}") for i, uid in enumerate(players)] + [ai(len(players))]
    record = await new_game(db, seats, game=game)
    await db.save_progress(
        record.id,
        version=2,
        state_json="{}",
        actions=[
            ActionRecord(version=1, seat=0, action="roll", user_id=players[0], at=1.0),
            ActionRecord(version=2, seat=1, action="bank", user_id=None, at=2.0),
        ],
        status="finished",
    )
    ranks = {seat.seat: rank for rank, seat in enumerate(reversed(seats), start=1)}
    await db.finish_game(
        record.id,
        guild_id=GUILD,
        game=game,
        results=[result(seat, ranks[seat.seat]) for seat in seats],
        ended_at=ended_at,
    )
    return record.id


async def test_newest_first_with_results_and_a_total(db: Database) -> None:
    first = await _played(db, 10.0)
    second = await _played(db, 30.0, game="flume", players=(3, 1))
    third = await _played(db, 20.0, players=(4, 5))
    games, total = await db.history(GUILD)
    assert total == 3
    assert [g.game_id for g in games] == [second, third, first]
    newest = games[0]
    assert newest.game == "flume" and newest.ended_at == 30.0 and newest.replayable
    # Results in finishing order: the AI seat (added last) won each of these games.
    assert [(r.rank, r.name, r.is_ai, r.won) for r in newest.results] == [
        (1, "Bot 2", True, True),
        (2, "user1", False, False),
        (3, "user3", False, False),
    ]


async def test_pages_filters_and_other_servers(db: Database) -> None:
    ids = [await _played(db, float(t)) for t in range(1, 8)]  # seven qdice games
    flume = await _played(db, 100.0, game="flume", players=(9, 2))
    await play_out(db, [[human(0, 1)], [ai(1)]], guild_id=GUILD + 1, ended_at=500.0)
    live = await new_game(db, [human(0, 1), ai(1)])
    cancelled = await new_game(db, [human(0, 1), ai(1)])
    await db.cancel_game(cancelled.id)

    page, total = await db.history(GUILD, offset=0, limit=3)
    assert total == 8 and [g.game_id for g in page] == [flume, ids[6], ids[5]]
    page, total = await db.history(GUILD, offset=6, limit=3)
    assert total == 8 and [g.game_id for g in page] == [ids[1], ids[0]]
    assert (await db.history(GUILD, offset=30))[0] == []

    only_qdice, total = await db.history(GUILD, game="qdice", limit=20)
    assert total == 7 and flume not in [g.game_id for g in only_qdice]
    nines, total = await db.history(GUILD, user_id=9)
    assert total == 1 and [g.game_id for g in nines] == [flume]
    twos_flume, total = await db.history(GUILD, user_id=2, game="flume")
    assert total == 1 and [g.game_id for g in twos_flume] == [flume]
    assert await db.history(GUILD, user_id=12345) == ([], 0)
    everything = [g.game_id for g in (await db.history(GUILD, limit=50))[0]]
    assert live.id not in everything and cancelled.id not in everything
    elsewhere, total = await db.history(GUILD + 1)
    assert total == 1 and not elsewhere[0].replayable  # finished without an action log

    with pytest.raises(InvalidArgument):
        await db.history(GUILD, offset=-1)


async def test_a_pruned_game_is_listed_but_cannot_be_replayed(db: Database) -> None:
    old = await _played(db, 1000.0)
    recent = await _played(db, 1000.0 + 40 * 86400)
    assert await db.prune(older_than_days=30, now=1000.0 + 45 * 86400) == 1
    games, total = await db.history(GUILD)
    assert total == 2
    assert [(g.game_id, g.replayable) for g in games] == [(recent, True), (old, False)]
    assert len(games[1].results) == 3  # the result is kept
