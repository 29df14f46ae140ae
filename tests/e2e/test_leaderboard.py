"""/leaderboard pages and /stats, over results written straight into the bot's database."""

from __future__ import annotations

import io

from PIL import Image

from bot.render.leaderboard import ROW_H, TAG, render_leaderboard_png, row_top
from bot.render.stats import SIZE as CHART_SIZE
from bot.render.stats import RatingSeries, chart_axes, colour_of
from bot.storage import PROVISIONAL_GAMES
from bot.storage.models import SeatRecord, SeatResult
from tests.e2e.conftest import World


async def _finished_game(w: World, winner: int, loser: int, game: str = "qdice") -> None:
    seats = [
        SeatRecord(seat=0, user_id=winner, name=f"player{winner % 1000}", is_ai=False),
        SeatRecord(seat=1, user_id=loser, name=f"player{loser % 1000}", is_ai=False),
    ]
    record = await w.bot.db.create_game(
        guild_id=w.guild.id,
        channel_id=1,
        game=game,
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
    await w.bot.db.finish_game(record.id, guild_id=w.guild.id, game=game, results=results)


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


async def test_board_order_follows_the_shown_rating_provisional_players_last(w: World) -> None:
    ace, steady, lucky, unlucky = (20_000_000 + i for i in range(1, 5))
    for i in range(PROVISIONAL_GAMES):  # two regulars: ace wins four of five
        await _finished_game(w, *((steady, ace) if i == 2 else (ace, steady)), game="fingers")
    await _finished_game(w, lucky, unlucky, game="fingers")  # one game each, lucky won

    db = w.bot.db
    records = {
        uid: (await db.user_stats(w.guild.id, uid))[0] for uid in (ace, steady, lucky, unlucky)
    }
    shown = {uid: round(r.rating) for uid, r in records.items()}
    # The case the rule is for: a one-game winner shows more than a regular with five games.
    assert shown[lucky] > shown[steady] > shown[unlucky]
    expected_order = sorted(
        records,
        key=lambda uid: (records[uid].games < PROVISIONAL_GAMES, -shown[uid], -records[uid].wins),
    )
    assert expected_order == [ace, steady, lucky, unlucky]

    room = w.channel()
    board = (
        await w.fake.slash(w.bob, "leaderboard", channel=room, options={"game": "fingers"})
    ).message
    text = board.text()
    assert "4 players ranked by **rating**" in text
    assert f"fewer than {PROVISIONAL_GAMES} games is **provisional**" in text
    assert "starts at 1,000" in text
    # The picture is exactly the board drawn in that order, with those whole-number ratings.
    expected_rows = [
        {
            "rank": place,
            "name": f"player{uid % 1000}",
            "games": records[uid].games,
            "wins": records[uid].wins,
            "points": round(records[uid].points),
            "rating": shown[uid],
            "provisional": records[uid].games < PROVISIONAL_GAMES,
        }
        for place, uid in enumerate(expected_order, start=1)
    ]
    expected_png = render_leaderboard_png(
        "Quantum Fingers leaderboard", expected_rows, 1, 1, provisional_games=PROVISIONAL_GAMES
    )
    picture = board.image().convert("RGB")
    assert picture.tobytes() == Image.open(io.BytesIO(expected_png)).convert("RGB").tobytes()
    # The provisional tag (its blue, give or take the PNG palette) is on the last two rows only.
    for i, row in enumerate(expected_rows):
        top = row_top(i, expected_rows)  # type: ignore[arg-type]
        crop = picture.crop((90, top, 440, top + ROW_H))
        colours = [c for _, c in crop.getcolors(crop.width * crop.height) or []]
        tagged = any(all(abs(a - b) <= 12 for a, b in zip(c, TAG, strict=True)) for c in colours)
        assert tagged == row["provisional"], row


async def test_stats_for_someone_without_games(w: World) -> None:
    result = await w.fake.slash(w.dave, "stats", channel=w.channel())
    message = result.message
    assert message.ephemeral and "No finished games" in message.text()
    assert "You have no record" in message.text()
    assert not message.attachments and not message.embeds


async def test_stats_chart_follows_the_stored_ratings(w: World) -> None:
    carol, other = w.carol.id, 30_000_001
    await _finished_game(w, carol, other, game="flux")
    room = w.channel()
    first = (await w.fake.slash(w.carol, "stats", channel=room)).message
    assert first.ephemeral and first.embeds[0]["image"]["url"] == "attachment://rating.png"
    assert first.image().size == CHART_SIZE  # one game: a chart all the same
    await _finished_game(w, other, carol, game="flux")

    stats = (await w.fake.slash(w.carol, "stats", channel=room)).message
    record = (await w.bot.db.user_stats(w.guild.id, carol))[0]
    text = stats.text()
    assert f"rating **{round(record.rating):,}**" in text
    assert f"provisional (2 of {PROVISIONAL_GAMES} games)" in text
    assert "2 played · 1 won · 14,050 points" in text
    # The line runs through the stored ratings: before the first game, after each game.
    history = await w.bot.db.rating_history(w.guild.id, carol)
    ratings = [history[0].rating_before, *(p.rating_after for p in history)]
    assert len(ratings) == 3 and ratings[1] > ratings[0] and ratings[2] < ratings[1]
    axes = chart_axes([RatingSeries("Flux", ratings)])
    chart = stats.image().convert("RGB")
    for i in (0, 1):
        (ax, ay), (bx, by) = axes.point(i, ratings[i]), axes.point(i + 1, ratings[i + 1])
        pixel = chart.getpixel((round((ax + bx) / 2), round((ay + by) / 2)))
        assert all(abs(a - b) <= 40 for a, b in zip(pixel, colour_of(0), strict=True)), pixel

    # Anyone may look up someone else's record; the answer is theirs alone to see.
    asked = (await w.fake.slash(w.bob, "stats", channel=room, options={"player": w.carol})).message
    assert asked.ephemeral and asked.visible_to(w.bob) and not asked.visible_to(w.carol)
    assert "carol's record" in asked.text()
    assert asked.image().tobytes() == stats.image().tobytes()
    nobody = (await w.fake.slash(w.bob, "stats", channel=room, options={"player": w.dave})).message
    assert "dave has no record" in nobody.text() and not nobody.attachments


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
    assert stats.image().size == CHART_SIZE  # a finished game played through: a chart
