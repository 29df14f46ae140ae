"""Time the table renderers against the cost of PNG encoding an image of the same size.

Run: ``.venv/bin/python bench/bench_render.py [repeats]``. Prints, for each representative
observation, the mean/median time to draw the table, and next to it the time to PNG-encode
(a) the drawn table, (b) a flat single-colour image of identical size, together with the
PNG sizes. Informational only: nothing here asserts on time.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from bot.engines.qdice.engine import QDiceObservation
from bot.render.common import to_png
from bot.render.leaderboard import LeaderboardRow, render_leaderboard
from bot.render.qdice import render_qdice
from bot.render.stats import RatingSeries, render_rating_chart
from tests.render.builders import dice as _dice
from tests.render.builders import make_obs as _obs

NAMES = ["Alice", "Bartholomew the Magnificent", "Zoë 🎲", "Dana", "Evan", "Fiona", "Gus", "Hana"]
EVENTS = ["Alice banked 1,450 points.", "Bob rolled six dice.", "Bob keeps 1, 3, 3, 3 for 400."]

SCENES: dict[str, QDiceObservation] = {
    "start, 2 players": _obs(2, current=0, scores=[0, 0], on_board=[False, False]),
    "selection, 4 players": _obs(4, selected=[0, 2, 3, 4], selection_score=400),
    "kept + 3 dice, 6 players": _obs(
        6,
        dice=_dice("2A 4B 5A"),
        kept=_dice("1A 1B 1A"),
        selected=[2],
        selection_score=50,
        turn_total=1000,
        rolled_six=False,
    ),
    "final round, 8 players": _obs(
        8,
        final_round=True,
        contingent_winner=0,
        current=3,
        scores=[10_250, *[7_000] * 7],
        finished_last_turn=[True, True, True] + [False] * 5,
    ),
    "game over, 3 players": _obs(
        3,
        current=None,
        winner=0,
        dice=[],
        rolled_six=False,
        scores=[10_450, 8_800, 3_000],
    ),
}


def _time(fn: Callable[[], object], repeats: int) -> list[float]:
    fn()  # warm caches (fonts, sprites, background)
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def _fmt(samples: list[float]) -> str:
    return f"{statistics.mean(samples):6.2f} / {statistics.median(samples):6.2f}"


def main(repeats: int = 30) -> None:
    print(f"repeats={repeats}; times in ms as mean / median; sizes in KiB\n")
    header = (
        f"{'scene':28} {'render':>15}  {'png(table)':>15} {'KiB':>6}  "
        f"{'png(flat)':>15} {'KiB':>5}  {'png rgb(table)':>15} {'KiB':>6}"
    )
    print(header)
    print("-" * len(header))
    flat_cache: dict[tuple[int, int], Image.Image] = {}
    for label, obs in SCENES.items():
        image = render_qdice(obs, NAMES, EVENTS)
        flat = flat_cache.setdefault(image.size, Image.new("RGB", image.size, (36, 40, 50)))
        render_t = _time(lambda obs=obs: render_qdice(obs, NAMES, EVENTS), repeats)
        png_t = _time(lambda image=image: to_png(image), repeats)
        flat_t = _time(lambda flat=flat: to_png(flat), repeats)
        rgb_t = _time(lambda image=image: to_png(image, palette=False), repeats)
        print(
            f"{label:28} {_fmt(render_t)}  {_fmt(png_t)} {len(to_png(image)) / 1024:6.1f}  "
            f"{_fmt(flat_t)} {len(to_png(flat)) / 1024:5.1f}  {_fmt(rgb_t)} "
            f"{len(to_png(image, palette=False)) / 1024:6.1f}"
        )
    size = render_qdice(next(iter(SCENES.values())), NAMES).size
    print(f"\nqdice image size: {size[0]}x{size[1]}")

    rows = [
        LeaderboardRow(
            i + 1, NAMES[i % len(NAMES)], 40 - i, 20 - i, 50_000 - 4_000 * i, 1_500 - 23 * i, i >= 7
        )
        for i in range(10)
    ]
    board = render_leaderboard("Quantum Dice leaderboard", rows, 1, 3)
    board_t = _time(lambda: render_leaderboard("Quantum Dice leaderboard", rows, 1, 3), repeats)
    board_png = _time(lambda: to_png(board), repeats)
    print(
        f"leaderboard (10 rows) {board.size[0]}x{board.size[1]}: render {_fmt(board_t)}  "
        f"png {_fmt(board_png)}  {len(to_png(board)) / 1024:.1f} KiB"
    )

    # /stats: three games' ratings, 200 games in the longest.
    series = [
        RatingSeries(title, [1000.0 + 3 * i * (k + 1) % 250 for i in range(n + 1)])
        for k, (title, n) in enumerate((("Quantum dice", 200), ("Flume", 40), ("Flux", 3)))
    ]
    chart = render_rating_chart("Alice", series)
    chart_t = _time(lambda: render_rating_chart("Alice", series), repeats)
    chart_png = _time(lambda: to_png(chart), repeats)
    print(
        f"rating chart (3 lines) {chart.size[0]}x{chart.size[1]}: render {_fmt(chart_t)}  "
        f"png {_fmt(chart_png)}  {len(to_png(chart)) / 1024:.1f} KiB"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
