"""A leaderboard page as one image: up to ten ranked rows with games, wins, points and rating.

Pure: :func:`render_leaderboard` takes plain rows (a :class:`LeaderboardRow`, a mapping with
the same keys, or any object with those attributes) and returns a fixed-size ``PIL.Image``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.render.common import (
    PALETTE,
    RGB,
    display_name,
    draw_text,
    fmt_int,
    panel,
    table_canvas,
    to_png,
)

WIDTH, HEIGHT = 960, 570
SIZE = (WIDTH, HEIGHT)
ROWS_PER_PAGE = 10

MARGIN = 16
HEADER_H = 72
TABLE = (MARGIN, 86, WIDTH - MARGIN, HEIGHT - MARGIN)
COLS_Y = TABLE[1] + 22
ROWS_TOP = TABLE[1] + 46
ROW_H = 41

# Column anchors: rank centre, name left edge, then right edges of the numeric columns.
RANK_X = 58
NAME_X = 96
NUMERIC: tuple[tuple[str, int], ...] = (
    ("GAMES", 560),
    ("WINS", 640),
    ("WIN %", 730),
    ("POINTS", 834),
    ("RATING", 920),
)
MEDALS: dict[int, RGB] = {1: PALETTE.gold, 2: PALETTE.silver, 3: PALETTE.bronze}


@dataclass(frozen=True)
class LeaderboardRow:
    """One player's line on the leaderboard."""

    rank: int
    name: str
    games: int
    wins: int
    points: int
    rating: float | None = None


RowLike = LeaderboardRow | Mapping[str, Any] | Any


def _coerce(row: RowLike) -> LeaderboardRow:
    """Accept a dataclass, a mapping or any object with the row's attributes."""
    if isinstance(row, LeaderboardRow):
        return row
    get = (
        row.get
        if isinstance(row, Mapping)
        else lambda key, default=None: getattr(row, key, default)
    )
    return LeaderboardRow(
        rank=int(get("rank", 0) or 0),
        name=str(get("name", "") or ""),
        games=int(get("games", 0) or 0),
        wins=int(get("wins", 0) or 0),
        points=int(get("points", 0) or 0),
        rating=None if get("rating", None) is None else float(get("rating")),
    )


def _fmt_rating(rating: float | None) -> str:
    if rating is None:
        return "-"
    return f"{rating:,.1f}"


@lru_cache(maxsize=1)
def _background() -> Image.Image:
    """Frame, table panel and column headings, drawn once per process."""
    img = table_canvas("", size=SIZE, header_h=HEADER_H)  # the title is drawn per page
    draw = ImageDraw.Draw(img)
    panel(draw, TABLE, PALETTE.panel, radius=16, outline=PALETTE.panel_edge, width=1)
    draw_text(draw, (RANK_X, COLS_Y), "#", 16, PALETTE.text_dim, anchor="mm")
    draw_text(draw, (NAME_X, COLS_Y), "PLAYER", 16, PALETTE.text_dim, anchor="lm")
    for label, right in NUMERIC:
        draw_text(draw, (right, COLS_Y), label, 16, PALETTE.text_dim, anchor="rm")
    draw.line(
        (TABLE[0] + 16, COLS_Y + 16, TABLE[2] - 16, COLS_Y + 16), fill=PALETTE.panel_edge, width=1
    )
    return img


def _draw_rank(draw: ImageDraw.ImageDraw, rank: int, cy: float) -> None:
    medal = MEDALS.get(rank)
    if medal is not None:
        r = 15
        draw.ellipse((RANK_X - r, cy - r, RANK_X + r, cy + r), fill=medal)
        draw_text(draw, (RANK_X, cy + 1), str(rank), 18, (32, 26, 12), anchor="mm", bold=True)
    else:
        draw_text(draw, (RANK_X, cy + 1), str(rank), 18, PALETTE.text_dim, anchor="mm")


def render_leaderboard(title: str, rows: Sequence[RowLike], page: int, pages: int) -> Image.Image:
    """Draw one leaderboard page (``page`` is 1-based) as a 960×570 RGB image.

    Only the first ten rows are drawn; an empty ``rows`` shows an empty-state message.
    """
    img = _background().copy()
    draw = ImageDraw.Draw(img)
    draw_text(
        draw,
        (MARGIN + 8, HEADER_H // 2),
        title,
        30,
        PALETTE.text,
        anchor="lm",
        max_width=WIDTH - 2 * MARGIN - 180,
        bold=True,
    )
    pages = max(1, pages)
    page = min(max(1, page), pages)
    draw_text(
        draw,
        (WIDTH - MARGIN - 8, HEADER_H // 2),
        f"Page {page} / {pages}",
        20,
        PALETTE.text_dim,
        anchor="rm",
    )

    entries = [_coerce(row) for row in rows[:ROWS_PER_PAGE]]
    if not entries:
        cx, cy = (TABLE[0] + TABLE[2]) / 2, (ROWS_TOP + TABLE[3]) / 2
        draw_text(
            draw, (cx, cy - 18), "No games played yet", 26, PALETTE.text_dim, anchor="mm", bold=True
        )
        draw_text(
            draw,
            (cx, cy + 18),
            "Finish a game to get on the board.",
            18,
            PALETTE.text_faint,
            anchor="mm",
        )
    for i, row in enumerate(entries):
        top = ROWS_TOP + i * ROW_H
        cy = top + ROW_H / 2
        if i % 2 == 0:
            panel(
                draw,
                (TABLE[0] + 10, top + 2, TABLE[2] - 10, top + ROW_H - 2),
                PALETTE.panel_alt,
                radius=8,
            )
        _draw_rank(draw, row.rank, cy)
        name = display_name(row.name, "Unknown player")
        colour = PALETTE.accent if row.rank == 1 else PALETTE.text
        draw_text(
            draw,
            (NAME_X, cy),
            name,
            20,
            colour,
            anchor="lm",
            max_width=NUMERIC[0][1] - NAME_X - 70,
            bold=row.rank == 1,
        )
        win_rate = f"{100 * row.wins / row.games:.0f}%" if row.games else "-"
        values = (
            fmt_int(row.games),
            fmt_int(row.wins),
            win_rate,
            fmt_int(row.points),
            _fmt_rating(row.rating),
        )
        for (label, right), value in zip(NUMERIC, values, strict=True):
            strong = label in ("POINTS", "RATING")
            draw_text(
                draw,
                (right, cy),
                value,
                20,
                PALETTE.text if strong else PALETTE.text_dim,
                anchor="rm",
                bold=strong and label == "RATING",
            )

    return img


def render_leaderboard_png(title: str, rows: Sequence[RowLike], page: int, pages: int) -> bytes:
    """:func:`render_leaderboard` encoded as PNG bytes."""
    return to_png(render_leaderboard(title, rows, page, pages))


__all__ = ["SIZE", "LeaderboardRow", "render_leaderboard", "render_leaderboard_png"]
