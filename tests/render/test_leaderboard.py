"""The leaderboard page image."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from bot.render.common import PALETTE
from bot.render.leaderboard import (
    BAND_H,
    NAME_END,
    NAME_X,
    RANK_X,
    RATING_BOX,
    ROW_H,
    ROWS_TOP,
    TABLE_X0,
    TABLE_X1,
    TAG,
    WIDTH,
    LeaderboardRow,
    board_height,
    fmt_rating,
    render_leaderboard,
    render_leaderboard_png,
    row_top,
)


def rows(count: int, provisional_from: int | None = None) -> list[LeaderboardRow]:
    return [
        LeaderboardRow(
            rank=i + 1,
            name=f"Player {i + 1}",
            games=30 - i,
            wins=15 - i,
            points=40_000 - 3_000 * i,
            rating=1_300.5 - 20 * i,
            provisional=provisional_from is not None and i >= provisional_from,
        )
        for i in range(count)
    ]


def has_colour(image: Image.Image, box: tuple[float, float, float, float], colour: object) -> bool:
    crop = image.crop(tuple(int(v) for v in box))  # type: ignore[arg-type]
    return any(c == colour for _, c in crop.getcolors(crop.width * crop.height) or [])


def row_box(i: int, entries: list[LeaderboardRow], x0: float, x1: float) -> tuple[float, ...]:
    top = row_top(i, entries)
    return (x0, top, x1, top + ROW_H)


def test_the_picture_is_as_tall_as_its_rows() -> None:
    ten = render_leaderboard("Quantum Dice", rows(10), 1, 2)
    assert ten.size == (WIDTH, board_height(10)) and ten.mode == "RGB"
    one = render_leaderboard("Quantum Dice", rows(1), 1, 1)
    assert one.size == (WIDTH, board_height(1))
    assert board_height(10) - board_height(1) == 9 * ROW_H
    mixed = render_leaderboard("Quantum Dice", rows(4, provisional_from=2), 1, 1)
    assert mixed.size == (WIDTH, board_height(4) + BAND_H)
    # The last row ends just above the bottom of the table: no empty stretch under it.
    last = row_top(9, rows(10)) + ROW_H
    assert ten.size[1] - last < 80
    assert ten.getpixel((WIDTH // 2, last + 4)) == PALETTE.panel


def test_empty_state_message() -> None:
    image = render_leaderboard("Quantum Dice", [], 1, 1)
    assert image.size == (WIDTH, board_height(0))
    middle = image.crop((TABLE_X0 + 100, ROWS_TOP + 20, TABLE_X1 - 100, ROWS_TOP + 130))
    blank = Image.new("RGB", middle.size, PALETTE.panel)
    assert ImageChops.difference(middle, blank).getbbox() is not None


def test_medals_go_to_the_first_three_ranked_players() -> None:
    entries = rows(5)
    image = render_leaderboard("T", entries, 1, 1)
    for i, medal in enumerate((PALETTE.gold, PALETTE.silver, PALETTE.bronze)):
        top = row_top(i, entries)
        assert image.getpixel((RANK_X, top + ROW_H // 2 - 10)) == medal  # above the digit
    fourth = row_top(3, entries)
    assert not has_colour(image, (RANK_X - 16, fourth, RANK_X + 16, fourth + ROW_H), PALETTE.gold)
    # A provisional player in first place gets no medal.
    alone = rows(1, provisional_from=0)
    image = render_leaderboard("T", alone, 1, 1)
    assert not has_colour(image, row_box(0, alone, RANK_X - 16, RANK_X + 16), PALETTE.gold)


def test_provisional_players_are_tagged_after_a_band() -> None:
    entries = rows(5, provisional_from=3)
    image = render_leaderboard("T", entries, 1, 1)
    for i, row in enumerate(entries):
        tagged = has_colour(image, row_box(i, entries, NAME_X, NAME_END), TAG)
        outlined = has_colour(image, row_box(i, entries, RATING_BOX[0], RATING_BOX[1] + 1), TAG)
        assert tagged == outlined == row.provisional, i
    assert row_top(3, entries) == row_top(2, entries) + ROW_H + BAND_H
    band = (TABLE_X0, row_top(3, entries) - BAND_H, TABLE_X1, row_top(3, entries))
    assert has_colour(image, band, TAG)
    # The legend under the table explains the tag only when the page shows one.
    legend = (TABLE_X0, image.size[1] - 44, WIDTH // 2, image.size[1])
    assert has_colour(image, legend, TAG)
    plain = render_leaderboard("T", rows(5), 1, 1)
    assert not has_colour(plain, (TABLE_X0, plain.size[1] - 44, WIDTH // 2, plain.size[1]), TAG)
    assert plain.size[1] == image.size[1] - BAND_H


def test_all_provisional_page_has_no_band() -> None:
    entries = rows(3, provisional_from=0)
    image = render_leaderboard("T", entries, 1, 1)
    assert image.size == (WIDTH, board_height(3))
    assert row_top(0, entries) == ROWS_TOP


def test_ratings_are_whole_numbers_with_separators() -> None:
    assert fmt_rating(1187.4) == "1,187"
    assert fmt_rating(1187.6) == "1,188"
    assert fmt_rating(None) == "-"

    def board(rating: float) -> bytes:
        row = LeaderboardRow(rank=1, name="A", games=9, wins=3, points=5, rating=rating)
        return render_leaderboard("T", [row], 1, 1).tobytes()

    assert board(1187.4) == board(1187.0)
    assert board(1187.6) != board(1187.0)


def test_png_and_deterministic() -> None:
    first = render_leaderboard_png("Top players", rows(10), 2, 3)
    assert first == render_leaderboard_png("Top players", rows(10), 2, 3)
    decoded = Image.open(io.BytesIO(first))
    assert decoded.format == "PNG"
    assert decoded.size == (WIDTH, board_height(10))


def test_dicts_and_objects_render_like_dataclasses() -> None:
    as_dicts = [row.__dict__.copy() for row in rows(5, provisional_from=3)]
    expected = render_leaderboard("T", rows(5, provisional_from=3), 1, 1).tobytes()
    assert render_leaderboard("T", as_dicts, 1, 1).tobytes() == expected


def test_only_ten_rows_are_drawn() -> None:
    ten = render_leaderboard("T", rows(10), 1, 1).tobytes()
    assert render_leaderboard("T", rows(14), 1, 1).tobytes() == ten


def test_odd_values_do_not_crash() -> None:
    odd = [
        {"rank": 1, "name": "Zoë 🎲 " * 20, "games": 0, "wins": 0, "points": 0, "rating": None},
        {
            "rank": 2,
            "name": "世界",
            "games": 10**6,
            "wins": 10**5,
            "points": 10**9,
            "rating": 12345.5678,
            "provisional": True,
        },
        LeaderboardRow(rank=3, name="", games=1, wins=1, points=-50, rating=-3.0),
    ]
    image = render_leaderboard("🏆 Leaderboard — " + "x" * 100, odd, 7, 3)
    assert image.size[0] == WIDTH


def test_names_are_drawn_as_written_or_fall_back() -> None:
    def board(*names: str) -> bytes:
        named = [
            LeaderboardRow(rank=r.rank, name=n, games=r.games, wins=r.wins, points=r.points)
            for r, n in zip(rows(len(names)), names, strict=True)
        ]
        return render_leaderboard("Ἑλληνικά — Русский", named, 1, 1).tobytes()

    written = board("Ἀθηνᾶ", "Zoë", "Ольга")
    assert written == board("Ἀθηνᾶ", "Zoë", "Ольга")
    assert written != board("Athena", "Zoë", "Ольга")
    assert written != board("Ἀθηνᾶ", "Zoe", "Ольга")
    assert written != board("Ἀθηνᾶ", "Zoë", "Olga")
    assert board("李小龙", "🎲🎲") == board("Unknown player", "Unknown player")
