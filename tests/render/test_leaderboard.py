"""The leaderboard page image."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from bot.render.common import PALETTE
from bot.render.leaderboard import (
    ROWS_TOP,
    SIZE,
    TABLE,
    LeaderboardRow,
    render_leaderboard,
    render_leaderboard_png,
)


def rows(count: int) -> list[LeaderboardRow]:
    return [
        LeaderboardRow(
            rank=i + 1,
            name=f"Player {i + 1}",
            games=30 - i,
            wins=15 - i,
            points=40_000 - 3_000 * i,
            rating=30.5 - i,
        )
        for i in range(count)
    ]


def test_ten_rows() -> None:
    image = render_leaderboard("Quantum Dice", rows(10), 1, 2)
    assert image.size == SIZE
    assert image.mode == "RGB"


def test_empty_state_message() -> None:
    image = render_leaderboard("Quantum Dice", [], 1, 1)
    assert image.size == SIZE
    # Something (the message) is drawn in the middle of the otherwise empty table.
    middle = image.crop((TABLE[0] + 100, ROWS_TOP + 100, TABLE[2] - 100, TABLE[3] - 100))
    blank = Image.new("RGB", middle.size, PALETTE.panel)
    assert ImageChops.difference(middle, blank).getbbox() is not None
    assert image.tobytes() != render_leaderboard("Quantum Dice", rows(1), 1, 1).tobytes()


def test_png_and_deterministic() -> None:
    first = render_leaderboard_png("Top players", rows(10), 2, 3)
    assert first == render_leaderboard_png("Top players", rows(10), 2, 3)
    decoded = Image.open(io.BytesIO(first))
    assert decoded.format == "PNG"
    assert decoded.size == SIZE


def test_dicts_and_objects_render_like_dataclasses() -> None:
    as_dicts = [row.__dict__.copy() for row in rows(5)]
    expected = render_leaderboard("T", rows(5), 1, 1).tobytes()
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
            "rating": 1234.5678,
        },
        LeaderboardRow(rank=3, name="", games=1, wins=1, points=-50, rating=-3.0),
    ]
    image = render_leaderboard("🏆 Leaderboard — " + "x" * 100, odd, 7, 3)
    assert image.size == SIZE


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
