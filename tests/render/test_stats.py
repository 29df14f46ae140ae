"""The rating-over-time chart of /stats."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image

from bot.render.common import PALETTE
from bot.render.stats import (
    PLOT,
    SIZE,
    RatingSeries,
    chart_axes,
    colour_of,
    render_rating_chart,
    render_rating_chart_png,
)


def close(pixel: object, colour: tuple[int, int, int], tolerance: int = 40) -> bool:
    assert isinstance(pixel, tuple)
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], colour, strict=True))


def on_line(image: Image.Image, a: tuple[float, float], b: tuple[float, float], t: float) -> object:
    x = a[0] + (b[0] - a[0]) * t
    y = a[1] + (b[1] - a[1]) * t
    return image.getpixel((round(x), round(y)))


def test_the_line_is_drawn_where_the_ratings_are() -> None:
    dice = RatingSeries("Quantum dice", [1000.0, 1120.0, 1060.0, 1180.0, 1150.0, 1210.0, 1190.0])
    image = render_rating_chart("Alice", [dice])
    assert image.size == SIZE and image.mode == "RGB"
    axes = chart_axes([dice])
    points = [axes.point(i, r) for i, r in enumerate(dice.ratings)]
    for a, b in itertools.pairwise(points):
        for t in (0.3, 0.5, 0.7):  # along every segment, away from the dots
            assert close(on_line(image, a, b, t), colour_of(0)), (a, b, t)
    # Well above the line (the best rating is far below the top of the plot there) is empty.
    x, y = points[1]
    top = axes.point(1, axes.high)[1]
    assert y - top > 60
    assert not close(image.getpixel((round(x), round(top + 20))), colour_of(0))


def test_each_game_has_its_own_colour_and_a_flat_line_sits_in_the_middle() -> None:
    flat = RatingSeries("Flume", [1000.0, 1000.0, 1000.0])
    rising = RatingSeries("Flux", [1000.0, 1100.0, 1200.0])
    image = render_rating_chart("Bob", [rising, flat])
    axes = chart_axes([rising, flat])
    a, b = axes.point(1, 1100.0), axes.point(2, 1200.0)
    assert close(on_line(image, a, b, 0.5), colour_of(0))
    c, d = axes.point(0.5, 1000.0), axes.point(1.5, 1000.0)
    assert close(on_line(image, c, d, 0.5), colour_of(1))
    assert colour_of(0) != colour_of(1)

    alone = chart_axes([flat])
    assert alone.low < 1000 < alone.high  # a flat rating is not glued to an edge
    y = alone.point(0, 1000.0)[1]
    assert PLOT[1] + 40 < y < PLOT[3] - 40


def test_one_game_is_a_short_line_from_the_start() -> None:
    one = RatingSeries("Quantum dice", [1000.0, 1137.5], provisional=True)
    image = render_rating_chart("Carol", [one])
    axes = chart_axes([one])
    assert axes.games == 5  # the x axis leaves room for the first games to come
    start, end = axes.point(0, 1000.0), axes.point(1, 1137.5)
    assert end[0] - start[0] == pytest.approx((PLOT[2] - PLOT[0]) / 5)
    assert close(on_line(image, start, end, 0.5), colour_of(0))
    assert close(image.getpixel((round(end[0]), round(end[1]))), colour_of(0))  # the end dot
    # Nothing is drawn beyond the last game.
    later = axes.point(3, 1137.5)
    assert not close(image.getpixel((round(later[0]), round(later[1]))), colour_of(0))


def test_axes_hold_every_point_on_round_ticks() -> None:
    series = [RatingSeries("A", [1000.0, 870.2, 1333.3]), RatingSeries("B", [1000.0, 1412.9])]
    axes = chart_axes(series)
    assert axes.low <= 870.2 and axes.high >= 1412.9
    assert all(tick % axes.y_step == 0 for tick in axes.y_ticks)
    assert axes.y_ticks[0] == axes.low and axes.y_ticks[-1] == axes.high
    assert 3 <= len(axes.y_ticks) <= 8
    long = chart_axes([RatingSeries("A", [1000.0 + i for i in range(401)])])
    assert long.games == 400 and long.x_ticks[-1] == 400 and len(long.x_ticks) <= 9


def test_the_legend_shows_the_current_rating_per_game() -> None:
    def chart(shown: int) -> bytes:
        s = RatingSeries("Quantum dice", [1000.0, 1100.0], shown=shown)
        return render_rating_chart("Ann", [s]).tobytes()

    assert chart(1100) == chart(1100)
    assert chart(1100) != chart(1101)
    legend = render_rating_chart("Ann", [RatingSeries("Q", [1000.0, 1100.0])])
    # The legend's colour stripe for the first game, in the right-hand panel.
    stripe = legend.crop((SIZE[0] - 250, 80, SIZE[0] - 200, 200))
    assert any(c == colour_of(0) for _, c in stripe.getcolors(stripe.width * stripe.height) or [])


def test_png_deterministic_and_odd_input() -> None:
    series = [RatingSeries(f"Game {i}", [1000.0, 990.0 + i]) for i in range(7)]
    first = render_rating_chart_png("Zoë 🎲 " * 20, series)
    assert first == render_rating_chart_png("Zoë 🎲 " * 20, series)
    decoded = Image.open(io.BytesIO(first))
    assert decoded.format == "PNG" and decoded.size == SIZE
    with pytest.raises(ValueError):
        render_rating_chart("Nobody", [])
    background = render_rating_chart("A", [RatingSeries("Q", [1000.0])])  # no games yet
    assert background.getpixel((PLOT[0] + 5, PLOT[3] - 5)) != PALETTE.accent
