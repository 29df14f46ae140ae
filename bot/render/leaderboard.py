"""A leaderboard page as one image: up to ten ranked rows with games, wins, win rate, points
and rating, as tall as its rows.

Pure: :func:`render_leaderboard` takes plain rows (a :class:`LeaderboardRow`, a mapping with
the same keys, or any object with those attributes) and returns a ``PIL.Image`` 960 pixels
wide whose height follows the number of rows (see :func:`board_height`).

The rows come in board order: players with enough games first, then provisional ones (fewer
than ``provisional_games``), each group by rating. Provisional players carry a tag after
their name and a dim, outlined rating; a band separates them from the ranked players and a
legend under the table says what the tag means. Medals go to the first three ranked players.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from bot.render.common import (
    PALETTE,
    RGB,
    display_name,
    draw_text,
    fit_font,
    fmt_int,
    font,
    panel,
    progress_bar,
    table_canvas,
    to_png,
)

WIDTH = 960
ROWS_PER_PAGE = 10

MARGIN = 16
HEADER_H = 72
TABLE_TOP = 86
TABLE_X0, TABLE_X1 = MARGIN, WIDTH - MARGIN
COLS_Y = TABLE_TOP + 24
ROWS_TOP = TABLE_TOP + 48
ROW_H = 46
BAND_H = 34  # the "provisional" band between ranked and provisional rows
TABLE_PAD = 10  # under the last row, inside the table panel
EMPTY_H = 150  # the table body when nobody is on the board
LEGEND_H = 44  # under the table panel

# Column anchors: rank centre, name left edge, then right edges of the numeric columns.
RANK_X = 56
NAME_X = 96
NAME_END = 460  # a 32-character name fits (at 18 px when not at 20)
GAMES_R = 530
WINS_R = 588
WIN_BAR = (600, 652)  # the win-rate bar's left and right ends
WIN_R = 716
POINTS_R = 826
RATING_BOX = (844, 924)  # the rating pill's left and right ends, clear of the row's edge
RATING_X = (RATING_BOX[0] + RATING_BOX[1]) / 2
RATING_PAD = 8  # between the rating and the pill's ends

MEDALS: dict[int, RGB] = {1: PALETTE.gold, 2: PALETTE.silver, 3: PALETTE.bronze}
MEDAL_INK: RGB = (32, 26, 12)
RATING_PILL: RGB = (64, 54, 26)
TAG: RGB = (132, 168, 222)  # the provisional tag and band: a calm blue, apart from the gold
TAG_TEXT = "PROVISIONAL"


@dataclass(frozen=True)
class LeaderboardRow:
    """One player's line on the leaderboard. ``rating`` is drawn rounded to a whole number."""

    rank: int
    name: str
    games: int
    wins: int
    points: int
    rating: float | None = None
    provisional: bool = False


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
        rating=None if (rating := get("rating", None)) is None else float(rating),
        provisional=bool(get("provisional", False)),
    )


def fmt_rating(rating: float | None) -> str:
    """``1187.4`` → ``1,187``; a missing rating is a dash."""
    if rating is None:
        return "-"
    return fmt_int(round(rating))


def _has_band(entries: Sequence[LeaderboardRow]) -> bool:
    """A band goes between ranked and provisional rows when a page has both."""
    return any(r.provisional for r in entries) and not entries[0].provisional


def board_height(rows: int, band: bool = False) -> int:
    """The image height for a page of ``rows`` rows (0: the empty board), with or without
    the band before the provisional rows."""
    body = EMPTY_H if rows == 0 else rows * ROW_H + (BAND_H if band else 0)
    return ROWS_TOP + body + TABLE_PAD + LEGEND_H + MARGIN // 2


def row_top(index: int, entries: Sequence[RowLike]) -> int:
    """Top edge of row ``index`` of a page (rows after the band are pushed down)."""
    coerced = [_coerce(row) for row in entries[:ROWS_PER_PAGE]]
    top = ROWS_TOP + index * ROW_H
    if _has_band(coerced) and coerced[index].provisional:
        top += BAND_H
    return top


def _draw_headings(draw: ImageDraw.ImageDraw) -> None:
    dim, size = PALETTE.text_dim, 15
    draw_text(draw, (RANK_X, COLS_Y), "#", size, dim, anchor="mm")
    draw_text(draw, (NAME_X, COLS_Y), "PLAYER", size, dim, anchor="lm")
    draw_text(draw, (GAMES_R, COLS_Y), "GAMES", size, dim, anchor="rm")
    draw_text(draw, (WINS_R, COLS_Y), "WINS", size, dim, anchor="rm")
    draw_text(draw, (WIN_R, COLS_Y), "WIN RATE", size, dim, anchor="rm")
    draw_text(draw, (POINTS_R, COLS_Y), "POINTS", size, dim, anchor="rm")
    # The board is sorted by rating: its heading is the bright one, with the sort arrow.
    draw_text(
        draw, (RATING_BOX[1], COLS_Y), "RATING ▼", size, PALETTE.accent, anchor="rm", bold=True
    )
    draw.line(
        (TABLE_X0 + 16, COLS_Y + 15, TABLE_X1 - 16, COLS_Y + 15), fill=PALETTE.panel_edge, width=1
    )


def _tag(draw: ImageDraw.ImageDraw, x: float, cy: float) -> float:
    """The provisional tag with its left edge at ``x``; returns its width."""
    width = font(12, True).getlength(TAG_TEXT) + 14
    panel(draw, (x, cy - 10, x + width, cy + 10), PALETTE.panel, radius=10, outline=TAG, width=1)
    draw_text(draw, (x + width / 2, cy + 1), TAG_TEXT, 12, TAG, anchor="mm", bold=True)
    return width


def _draw_rank(draw: ImageDraw.ImageDraw, row: LeaderboardRow, cy: float) -> None:
    medal = None if row.provisional else MEDALS.get(row.rank)
    if medal is not None:
        r = 16
        draw.ellipse((RANK_X - r, cy - r, RANK_X + r, cy + r), fill=medal)
        draw.ellipse(
            (RANK_X - r + 3, cy - r + 3, RANK_X + r - 3, cy + r - 3), outline=MEDAL_INK, width=1
        )
        draw_text(draw, (RANK_X, cy + 1), str(row.rank), 17, MEDAL_INK, anchor="mm", bold=True)
    else:
        colour = PALETTE.text_faint if row.provisional else PALETTE.text_dim
        draw_text(draw, (RANK_X, cy + 1), fmt_int(row.rank), 18, colour, anchor="mm")


def _draw_row(draw: ImageDraw.ImageDraw, row: LeaderboardRow, top: int, shaded: bool) -> None:
    cy = top + ROW_H / 2
    box = (TABLE_X0 + 10, top + 3, TABLE_X1 - 10, top + ROW_H - 3)
    if shaded:
        panel(draw, box, PALETTE.panel_alt, radius=9)
    medal = None if row.provisional else MEDALS.get(row.rank)
    if medal is not None:  # a medal-coloured edge on the podium rows
        draw.rounded_rectangle((box[0], box[1] + 4, box[0] + 4, box[3] - 4), radius=2, fill=medal)
    _draw_rank(draw, row, cy)

    tag_w = font(12, True).getlength(TAG_TEXT) + 14 if row.provisional else 0
    leader = row.rank == 1 and not row.provisional
    name = display_name(row.name, "Unknown player")
    room = NAME_END - NAME_X - (tag_w + 10 if tag_w else 0)
    width = draw_text(
        draw,
        (NAME_X, cy),
        name,
        int(fit_font(name, (20, 19, 18), room, bold=leader).size),
        PALETTE.accent if leader else PALETTE.text,
        anchor="lm",
        max_width=room,
        bold=leader,
    )
    if row.provisional:
        _tag(draw, NAME_X + width + 10, cy)

    dim = PALETTE.text_dim
    draw_text(draw, (GAMES_R, cy), fmt_int(row.games), 20, dim, anchor="rm")
    draw_text(draw, (WINS_R, cy), fmt_int(row.wins), 20, dim, anchor="rm")
    if row.games:
        rate = row.wins / row.games
        progress_bar(draw, (WIN_BAR[0], cy - 4, WIN_BAR[1], cy + 4), rate, PALETTE.good)
        draw_text(draw, (WIN_R, cy), f"{100 * rate:.0f}%", 20, dim, anchor="rm")
    else:
        draw_text(draw, (WIN_R, cy), "-", 20, dim, anchor="rm")
    points = fmt_int(row.points)
    size = fit_font(points, (20, 18, 16, 14), POINTS_R - WIN_R - 14).size
    draw_text(
        draw,
        (POINTS_R, cy),
        points,
        int(size),
        PALETTE.text,
        anchor="rm",
        max_width=POINTS_R - WIN_R - 14,
    )

    pill = (RATING_BOX[0], cy - 15, RATING_BOX[1], cy + 15)
    if row.provisional:
        panel(draw, pill, PALETTE.panel, radius=15, outline=TAG, width=1)
        colour = PALETTE.text_dim
    else:
        panel(draw, pill, RATING_PILL, radius=15)
        colour = PALETTE.accent
    rating = fmt_rating(row.rating)
    room = RATING_BOX[1] - RATING_BOX[0] - 2 * RATING_PAD
    size = int(fit_font(rating, (20, 18, 16), room, bold=True).size)
    draw_text(
        draw, (RATING_X, cy + 1), rating, size, colour, anchor="mm", max_width=room, bold=True
    )


def _draw_band(draw: ImageDraw.ImageDraw, top: int, provisional_games: int) -> None:
    cy = top + BAND_H / 2 + 2
    label = f"PROVISIONAL · FEWER THAN {provisional_games} GAMES"
    width = font(13, True).getlength(label)
    mid = (TABLE_X0 + TABLE_X1) / 2
    draw_text(draw, (mid, cy), label, 13, TAG, anchor="mm", bold=True)
    for x0, x1 in ((TABLE_X0 + 26, mid - width / 2 - 14), (mid + width / 2 + 14, TABLE_X1 - 26)):
        draw.line((x0, cy, x1, cy), fill=PALETTE.panel_edge, width=1)


def _draw_legend(
    draw: ImageDraw.ImageDraw, top: float, provisional_games: int, provisional: bool
) -> None:
    """Under the table: what the provisional tag means (when the page shows one) and where
    ratings start."""
    cy = top + LEGEND_H / 2
    if provisional:
        x: float = TABLE_X0 + 8
        x += _tag(draw, x, cy) + 10
        draw_text(
            draw,
            (x, cy),
            f"fewer than {provisional_games} games: rating still settling,"
            " listed after ranked players",
            15,
            PALETTE.text_dim,
            anchor="lm",
        )
    draw_text(
        draw, (TABLE_X1 - 8, cy), "Ratings start at 1,000", 15, PALETTE.text_faint, anchor="rm"
    )


def render_leaderboard(
    title: str,
    rows: Sequence[RowLike],
    page: int,
    pages: int,
    *,
    provisional_games: int = 5,
) -> Image.Image:
    """Draw one leaderboard page (``page`` is 1-based) as an RGB image ``WIDTH`` wide and
    :func:`board_height` tall.

    Only the first ten rows are drawn, in the order given; an empty ``rows`` shows an
    empty-state message.
    """
    entries = [_coerce(row) for row in rows[:ROWS_PER_PAGE]]
    band = bool(entries) and _has_band(entries)
    height = board_height(len(entries), band)
    img = table_canvas("", size=(WIDTH, height), header_h=HEADER_H)
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
        f"Page {fmt_int(page)} / {fmt_int(pages)}",
        20,
        PALETTE.text_dim,
        anchor="rm",
    )

    table_bottom = height - LEGEND_H - MARGIN // 2
    panel(
        draw,
        (TABLE_X0, TABLE_TOP, TABLE_X1, table_bottom),
        PALETTE.panel,
        radius=16,
        outline=PALETTE.panel_edge,
        width=1,
    )
    _draw_headings(draw)
    if not entries:
        cy = ROWS_TOP + EMPTY_H / 2
        mid = (TABLE_X0 + TABLE_X1) / 2
        draw_text(
            draw,
            (mid, cy - 16),
            "No games played yet",
            26,
            PALETTE.text_dim,
            anchor="mm",
            bold=True,
        )
        draw_text(
            draw,
            (mid, cy + 20),
            "Finish a game to get on the board.",
            18,
            PALETTE.text_faint,
            anchor="mm",
        )
    for i, row in enumerate(entries):
        top = row_top(i, entries)
        if band and row.provisional and not entries[i - 1].provisional:
            _draw_band(draw, top - BAND_H, provisional_games)
        _draw_row(draw, row, top, shaded=i % 2 == 0)
    _draw_legend(draw, table_bottom, provisional_games, any(r.provisional for r in entries))
    return img


def render_leaderboard_png(
    title: str, rows: Sequence[RowLike], page: int, pages: int, *, provisional_games: int = 5
) -> bytes:
    """:func:`render_leaderboard` encoded as PNG bytes."""
    return to_png(render_leaderboard(title, rows, page, pages, provisional_games=provisional_games))


__all__ = [
    "WIDTH",
    "LeaderboardRow",
    "board_height",
    "fmt_rating",
    "render_leaderboard",
    "render_leaderboard_png",
    "row_top",
]
