"""A person's rating over time as one chart image: a line per game kind, games on the x axis.

Pure: :func:`render_rating_chart` takes plain :class:`RatingSeries` (the rating before the
first game, then after each game) and returns a fixed-size ``PIL.Image``. Where a point lands
is :func:`chart_axes`'s business, so tests can look for the line where it should be.

The plot is drawn three times larger and scaled down, so lines and dots are smooth; text is
drawn at full size on top.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.common import (
    PALETTE,
    RGB,
    display_name,
    draw_text,
    fmt_int,
    font,
    panel,
    table_canvas,
    to_png,
)

WIDTH, HEIGHT = 960, 540
SIZE = (WIDTH, HEIGHT)
MARGIN = 16
HEADER_H = 64

CHART = (MARGIN, HEADER_H + 14, 684, HEIGHT - MARGIN)  # the chart's panel
PLOT = (CHART[0] + 78, CHART[1] + 24, CHART[2] - 24, CHART[3] - 62)  # inside the axes
LEGEND = (CHART[2] + 14, CHART[1], WIDTH - MARGIN, CHART[3])
LEGEND_ROW_H = 86
MAX_LEGEND_ROWS = 5

SERIES_COLOURS: tuple[RGB, ...] = (
    PALETTE.accent,
    (96, 165, 250),
    PALETTE.good,
    (240, 110, 160),
    (178, 140, 250),
    PALETTE.warn,
)
GRID: RGB = (52, 58, 72)
PROVISIONAL_TINT: RGB = (40, 46, 62)
TAG: RGB = (132, 168, 222)  # as on the leaderboard
SS = 3  # supersampling of the plot


@dataclass(frozen=True)
class RatingSeries:
    """One game kind's line: ``ratings[0]`` before the first game, ``ratings[i]`` after game
    ``i``. ``shown`` is the current rating as the board shows it (default: the last value
    rounded); ``provisional`` marks a player with too few games to be ranked yet."""

    title: str
    ratings: Sequence[float]
    shown: int | None = None
    provisional: bool = False

    @property
    def games(self) -> int:
        return max(0, len(self.ratings) - 1)

    @property
    def current(self) -> int:
        return self.shown if self.shown is not None else round(self.ratings[-1])


def colour_of(index: int) -> RGB:
    """The line colour of the ``index``-th series."""
    return SERIES_COLOURS[index % len(SERIES_COLOURS)]


def _nice_step(span: float, ticks: int) -> float:
    """A round step (1, 2, 2.5 or 5 times a power of ten) giving about ``ticks`` intervals."""
    raw = max(span, 1e-9) / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if factor * power >= raw:
            return factor * power
    return 10 * power  # pragma: no cover - the loop always returns


@dataclass(frozen=True)
class Axes:
    """The chart's ranges and ticks, and where a (game number, rating) point is drawn."""

    games: int
    low: float
    high: float
    y_step: float
    x_step: int

    def point(self, game: float, rating: float) -> tuple[float, float]:
        """Pixel position of ``rating`` after ``game`` games (0: before the first game)."""
        x0, y0, x1, y1 = PLOT
        x = x0 + (x1 - x0) * game / self.games
        y = y1 - (y1 - y0) * (rating - self.low) / (self.high - self.low)
        return x, y

    @property
    def y_ticks(self) -> list[float]:
        count = round((self.high - self.low) / self.y_step)
        return [self.low + i * self.y_step for i in range(count + 1)]

    @property
    def x_ticks(self) -> list[int]:
        return list(range(0, self.games + 1, self.x_step))


def chart_axes(series: Sequence[RatingSeries], min_games: int = 5) -> Axes:
    """Ranges that hold every point with a little room, on round numbers. The x axis spans
    at least ``min_games`` games, so a short history starts on the left with room to grow."""
    values = [v for s in series for v in s.ratings] or [1000.0]
    low, high = min(values), max(values)
    if high - low < 40:  # a flat line sits in the middle of a modest range
        middle = (low + high) / 2
        low, high = middle - 20, middle + 20
    step = _nice_step(high - low, 4)
    low = math.floor((low - 0.05 * (high - low)) / step) * step
    high = math.ceil((high + 0.05 * (high - low)) / step) * step
    games = max([s.games for s in series] + [min_games, 1])
    x_step = max(1, math.ceil(_nice_step(games, 6)))
    return Axes(games=games, low=low, high=high, y_step=step, x_step=x_step)


def _fmt_tick(value: float) -> str:
    return fmt_int(round(value)) if abs(value - round(value)) < 1e-6 else f"{value:,.1f}"


def _plot(series: Sequence[RatingSeries], axes: Axes, provisional_games: int) -> Image.Image:
    """The plot area (grid, provisional stretch, start line, lines, dots), supersampled."""
    x0, y0, x1, y1 = PLOT
    width, height = int(x1 - x0), int(y1 - y0)
    pad = 10  # room for dots on the edges
    img = Image.new("RGB", ((width + 2 * pad) * SS, (height + 2 * pad) * SS), PALETTE.panel)
    draw = ImageDraw.Draw(img)

    def at(game: float, rating: float) -> tuple[float, float]:
        px, py = axes.point(game, rating)
        return (px - x0 + pad) * SS, (py - y0 + pad) * SS

    left, top = at(0, axes.high)
    right, bottom = at(axes.games, axes.low)
    if provisional_games > 0:  # the first games, while a rating is still settling
        edge = at(min(provisional_games, axes.games), axes.low)[0]
        draw.rectangle((left, top, edge, bottom), fill=PROVISIONAL_TINT)
    for tick in axes.y_ticks:
        y = at(0, tick)[1]
        draw.line((left, y, right, y), fill=GRID, width=SS)
    for tick in axes.x_ticks:
        x = at(tick, 0)[0]
        draw.line((x, bottom, x, bottom + 6 * SS), fill=PALETTE.panel_edge, width=SS)
    if axes.low < 1000 < axes.high:  # where every rating started: a dashed line
        y = at(0, 1000)[1]
        dash = 8 * SS
        for x in range(int(left), int(right), 2 * dash):
            draw.line((x, y, min(x + dash, right), y), fill=PALETTE.text_faint, width=SS)
    draw.line((left, bottom, right, bottom), fill=PALETTE.panel_edge, width=SS)

    dots = max(s.games for s in series) <= 40
    for index in reversed(range(len(series))):  # the first series on top
        s, colour = series[index], colour_of(index)
        points = [at(i, r) for i, r in enumerate(s.ratings)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=3 * SS, joint="curve")
        radius = 4 * SS
        for i, (px, py) in enumerate(points):
            last = i == len(points) - 1
            if last:
                r = radius + 2 * SS
                draw.ellipse((px - r, py - r, px + r, py + r), fill=PALETTE.panel)
                draw.ellipse((px - radius, py - radius, px + radius, py + radius), fill=colour)
            elif dots:
                r = radius - SS
                draw.ellipse((px - r, py - r, px + r, py + r), fill=colour)
    return img.resize((width + 2 * pad, height + 2 * pad), Image.Resampling.LANCZOS)


def _tag(draw: ImageDraw.ImageDraw, x: float, cy: float) -> None:
    width = font(11, True).getlength("PROVISIONAL") + 12
    panel(draw, (x, cy - 9, x + width, cy + 9), PALETTE.panel, radius=9, outline=TAG, width=1)
    draw_text(draw, (x + width / 2, cy + 1), "PROVISIONAL", 11, TAG, anchor="mm", bold=True)


def _legend(
    draw: ImageDraw.ImageDraw, series: Sequence[RatingSeries], provisional_games: int
) -> None:
    """The right-hand panel: per game its colour, current rating and games, then a key to
    the dashed line and the shaded stretch of the chart."""
    x0, y0, x1, y1 = LEGEND
    panel(draw, LEGEND, PALETTE.panel, radius=14, outline=PALETTE.panel_edge, width=1)
    shown = series[:MAX_LEGEND_ROWS]
    top = y0 + 10
    for index, s in enumerate(shown):
        colour = colour_of(index)
        box = (x0 + 10, top, x1 - 10, top + LEGEND_ROW_H - 8)
        panel(draw, box, PALETTE.panel_alt, radius=10)
        draw.rounded_rectangle((box[0], box[1] + 8, box[0] + 5, box[3] - 8), radius=2, fill=colour)
        left = box[0] + 16
        draw_text(
            draw,
            (left, box[1] + 15),
            s.title,
            16,
            PALETTE.text_dim,
            anchor="lm",
            max_width=box[2] - left - 8,
        )
        draw_text(draw, (left, box[1] + 40), fmt_int(s.current), 26, colour, anchor="lm", bold=True)
        if s.provisional:
            _tag(draw, box[2] - 10 - font(11, True).getlength("PROVISIONAL") - 12, box[1] + 41)
        games = f"{fmt_int(s.games)} {'game' if s.games == 1 else 'games'}"
        if s.games:
            games += f" · best {fmt_int(round(max(s.ratings[1:])))}"
        draw_text(draw, (left, box[1] + 64), games, 14, PALETTE.text_faint, anchor="lm")
        top += LEGEND_ROW_H
    if len(series) > len(shown):
        more = len(series) - len(shown)
        draw_text(
            draw,
            ((x0 + x1) / 2, top + 4),
            f"and {more} more",
            14,
            PALETTE.text_faint,
            anchor="mm",
        )
    if top > y1 - 70:
        return  # no room for the key under five games
    key_x = x0 + 16
    cy = y1 - 48
    for dx in range(0, 28, 10):
        draw.line((key_x + dx, cy, key_x + dx + 5, cy), fill=PALETTE.text_faint, width=1)
    draw_text(draw, (key_x + 36, cy), "where ratings start", 14, PALETTE.text_faint, anchor="lm")
    if provisional_games > 0:
        cy = y1 - 22
        draw.rectangle((key_x, cy - 8, key_x + 26, cy + 8), fill=PROVISIONAL_TINT, outline=GRID)
        draw_text(
            draw,
            (key_x + 36, cy),
            f"first {provisional_games} games: provisional",
            14,
            PALETTE.text_faint,
            anchor="lm",
        )


def render_rating_chart(
    name: str, series: Sequence[RatingSeries], *, provisional_games: int = 5
) -> Image.Image:
    """Draw ``name``'s ratings (one line per series, at least one) as a 960×540 RGB image.

    Only the first five series get a line and a legend entry; the legend counts the rest.
    """
    every = [s for s in series if s.ratings]
    series = every[:MAX_LEGEND_ROWS]
    if not series:
        raise ValueError("a rating chart needs at least one series with a rating")
    img = table_canvas("", size=SIZE, header_h=HEADER_H)
    draw = ImageDraw.Draw(img)
    who = display_name(name, "Player")
    draw_text(
        draw,
        (MARGIN + 8, HEADER_H // 2),
        f"{who} · rating over time",
        28,
        PALETTE.text,
        anchor="lm",
        max_width=WIDTH - 2 * MARGIN - 200,
        bold=True,
    )
    total = sum(s.games for s in every)
    draw_text(
        draw,
        (WIDTH - MARGIN - 8, HEADER_H // 2),
        f"{fmt_int(total)} {'game' if total == 1 else 'games'}",
        20,
        PALETTE.text_dim,
        anchor="rm",
    )

    panel(draw, CHART, PALETTE.panel, radius=14, outline=PALETTE.panel_edge, width=1)
    axes = chart_axes(series, provisional_games)
    plot = _plot(series, axes, provisional_games)
    img.paste(plot, (int(PLOT[0]) - 10, int(PLOT[1]) - 10))
    draw = ImageDraw.Draw(img)
    for tick in axes.y_ticks:
        y = axes.point(0, tick)[1]
        draw_text(draw, (PLOT[0] - 12, y), _fmt_tick(tick), 15, PALETTE.text_dim, anchor="rm")
    for tick in axes.x_ticks:
        x = axes.point(tick, axes.low)[0]
        draw_text(draw, (x, PLOT[3] + 20), fmt_int(tick), 15, PALETTE.text_dim, anchor="mm")
    draw_text(
        draw,
        ((PLOT[0] + PLOT[2]) / 2, PLOT[3] + 44),
        "games played",
        15,
        PALETTE.text_faint,
        anchor="mm",
    )
    edge = axes.point(min(provisional_games, axes.games), axes.high)[0]
    if provisional_games > 0 and edge - PLOT[0] > 90:  # the shaded stretch, named
        draw_text(draw, (PLOT[0] + 8, PLOT[1] + 12), "PROVISIONAL", 11, TAG, anchor="lm", bold=True)
    _legend(draw, every, provisional_games)
    return img


def render_rating_chart_png(
    name: str, series: Sequence[RatingSeries], *, provisional_games: int = 5
) -> bytes:
    """:func:`render_rating_chart` encoded as PNG bytes."""
    return to_png(render_rating_chart(name, series, provisional_games=provisional_games))


__all__ = [
    "SIZE",
    "Axes",
    "RatingSeries",
    "chart_axes",
    "colour_of",
    "render_rating_chart",
    "render_rating_chart_png",
]
