"""/leaderboard pages and /stats, over results written straight into the bot's database."""

from __future__ import annotations

from bot.storage.models import SeatRecord, SeatResult
from tests.e2e.conftest import World


async def _finished_game(w: World, winner: int, loser: int) -> None:
    seats = [
        SeatRecord(seat=0, user_id=winner, name=f"player{winner % 1000}", is_ai=False),
        SeatRecord(seat=1, user_id=loser, name=f"player{loser % 1000}", is_ai=False),
    ]
    record = await w.bot.db.create_game(
        guild_id=w.guild.id,
        channel_id=1,
        game="qdice",
        host_id=winner,
        config={},
        seed=1,
        seats=seats,
    )
    results = [
        SeatResult(
            seat=0, user_id=winner, name=seats[0].name, is_ai=False, rank=1, score=10_050, won=True
        ),
        SeatResult(
            seat=1, user_id=loser, name=seats[1].name, is_ai=False, rank=2, score=4_000, won=False
        ),
    ]
    await w.bot.db.finish_game(record.id, guild_id=w.guild.id, game="qdice", results=results)


async def test_pages_move_with_the_buttons(w: World) -> None:
    base = 10_000_000
    for i in range(12):  # 13 players: two pages
        await _finished_game(w, base + i, base + i + 1)
    _, total = await w.bot.db.leaderboard(w.guild.id, "qdice")
    pages = -(-total // 10)
    assert pages >= 2

    room = w.channel()
    board = (
        await w.fake.slash(w.alice, "leaderboard", channel=room, options={"game": "qdice"})
    ).message
    assert f"Page 1 of {pages}" in board.text()
    assert [b.disabled for b in board.buttons] == [True, False]
    first_picture = board.image().tobytes()

    await w.fake.click(w.bob, board, label="Next ▶")
    assert f"Page 2 of {pages}" in board.refresh().text()
    assert board.image().tobytes() != first_picture
    await w.fake.click(w.bob, board, label="◀ Previous")
    assert f"Page 1 of {pages}" in board.refresh().text()

    far = await w.fake.slash(
        w.alice, "leaderboard", channel=room, options={"game": "qdice", "page": 99}
    )
    assert f"Page {pages} of {pages}" in far.message.text()  # past the end shows the last page


async def test_stats_for_someone_without_games(w: World) -> None:
    result = await w.fake.slash(w.dave, "stats", channel=w.channel())
    assert result.message.ephemeral and "No finished games" in result.message.text()


async def test_stats_show_results_against_each_ai_level(w: World) -> None:
    from tests.e2e.qdice_play import play_to_the_end

    room = w.channel()
    lobby = (
        await w.fake.slash(w.alice, "qdice start", channel=room, options={"target": 1000})
    ).message
    await w.fake.click(w.alice, lobby, label="Add hard AI")
    assert "(AI, hard)" in lobby.refresh().text()
    await w.fake.click(w.alice, lobby, label="Start")
    table = w.bot.tables.in_location(room.id)
    assert table is not None and table.seats[1].level == "hard"
    await play_to_the_end(w.fake, w.bot.tables, table, lobby, {w.alice.id: w.alice})
    assert table.record.status == "finished"
    won = table.record.seats[0].user_id in [
        table.seats[s].user_id for s in table.spec.engine.outcome(table.state).winners
    ]
    stats = (await w.fake.slash(w.alice, "stats", channel=room)).message
    assert "Against AI players" in stats.text()
    assert f"Hard: {int(won)} won of 1" in stats.text()
