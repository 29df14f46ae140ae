"""Benchmark the AI levels of Flux, QuantumPoker and Quantum Fingers.

For each game and each seat count:

1. one hard seat against normal seats (the hard seat rotates with the seed): hard's share of
   the wins with a 95% Wilson interval, next to its fair share 1/n;
2. one easy seat against normal seats (easy should be clearly below 1/n);
3. one easy seat against random-legal seats (easy should be above 1/n).

A game won jointly by k seats counts 1/k to each (QuantumPoker ties on chips; Quantum Fingers
draws count 0 to everyone); the interval is taken on the rounded total. At the largest seat
count it also prints the decision time of each level (mean, p95, max, in milliseconds) from
those games. Hard decisions get ``--budget`` seconds each (a ``time.monotonic()`` deadline),
so the hard figures depend on the machine's speed; the games themselves are seeded. Figures
only: nothing here asserts.

Figures on the shared 2-core development machine (one job, another benchmark beside it),
win share with its 95% interval, fair share in brackets:

=========== ======= ======================= =================== ==========================
game        seats   hard vs normal          easy vs normal      easy vs random-legal
=========== ======= ======================= =================== ==========================
Flux        3 (33%) 41.3% (33.8-49.3) 1.24x 20.0% (15.9-24.9)   78.0% (73.0-82.3)
            4 (25%) 32.7% (25.7-40.5) 1.31x 14.0% (10.5-18.4)   63.0% (57.4-68.3)
            5 (20%) 24.0% (17.9-31.4) 1.20x 12.0% (8.8-16.2)    46.7% (41.1-52.3)
QPoker      3 (33%) 51.8% (42.8-60.4) 1.55x 19.2% (15.3-24.2)   72.1% (66.7-76.8)
            4 (25%) 24.6% (18.1-33.4) 0.98x 15.2% (11.7-19.8)   59.1% (53.4-64.4)
            5 (20%) 24.2% (17.4-32.6) 1.21x  9.3% (6.5-13.2)    55.0% (49.3-60.5)
Fingers     3 (33%) 67.0% (57.3-75.4) 2.01x 18.7% (13.2-25.7)   54.0% (46.0-61.8)
            4 (25%) 38.0% (29.1-47.8) 1.52x  8.0% (4.6-13.5)    48.0% (40.2-55.9)
            5 (20%) 25.0% (17.5-34.3) 1.25x  5.3% (2.7-10.2)    53.3% (45.4-61.1)
=========== ======= ======================= =================== ==========================

Flux: 150 hard games and 300 easy games per count, 0.1 s per hard decision (452 s in all).
QuantumPoker: 120 and 300, 0.15 s (433 s). Quantum Fingers: 100 and 150, 0.4 s (414 s).
Decision times at 5 seats, mean / p95 / max in ms: Flux easy 0.1/0.4/6, normal 0.2/0.6/9,
hard 53/105/130; QuantumPoker easy 2/4/1387, normal 2/4/63, hard 156/158/1649 (the maxima
are stalls of the shared machine); Quantum Fingers easy 33/123/298, normal 40/126/402,
hard 200/491/678 (its search checks the deadline between asks, so it can overrun by one).

Run: ``.venv/bin/python bench/bench_levels_cards.py [--game flux] [--seats 3,4,5]
[--games 200] [--easy-games 400] [--budget 0.1] [--jobs 1]``
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import wilson
from bot.engines import fingers_ai, flux_ai, qpoker_ai
from bot.engines.fingers import FingersConfig, FingersEngine
from bot.engines.flux import FluxConfig, FluxEngine
from bot.engines.qpoker import QPokerConfig, QPokerEngine


@dataclass(frozen=True)
class Game:
    name: str
    engine: Any
    config: Any
    decide: Callable[..., str]
    random_move: Callable[[Any, Any, int, Any, random.Random], str]


def _flux_random(engine: FluxEngine, state: Any, seat: int, obs: Any, rng: random.Random) -> str:
    return rng.choice(engine.move_options(state, seat))


def _qpoker_random(engine: Any, state: Any, seat: int, obs: Any, rng: random.Random) -> str:
    return qpoker_ai.random_action(obs, rng)


def _fingers_random(engine: Any, state: Any, seat: int, obs: Any, rng: random.Random) -> str:
    return fingers_ai.random_action(obs, rng)


GAMES = {
    "flux": Game("Flux", FluxEngine(), FluxConfig(), flux_ai.decide, _flux_random),
    "qpoker": Game(
        "QuantumPoker", QPokerEngine(), QPokerConfig(), qpoker_ai.decide, _qpoker_random
    ),
    "fingers": Game(
        "Quantum Fingers", FingersEngine(), FingersConfig(), fingers_ai.decide, _fingers_random
    ),
}


@dataclass
class Result:
    share: float = 0.0  # the tested seat's wins (1/k for a k-way win)
    times: dict[str, list[float]] = field(default_factory=dict)  # level -> seconds


def play(key: str, n: int, seed: int, tested: str, others: str, budget: float) -> Result:
    """One seeded game: seat ``seed % n`` plays at ``tested``, the rest at ``others``
    ("random" for random-legal)."""
    game = GAMES[key]
    engine = game.engine
    state = engine.new_game(game.config, n, seed)
    rng = random.Random(seed)
    me = seed % n
    result = Result()
    while not engine.is_over(state):
        seat = sorted(engine.to_act(state))[0]
        obs = engine.observe(state, seat)
        level = tested if seat == me else others
        start = time.monotonic()
        if level == "random":
            move = game.random_move(engine, state, seat, obs, rng)
        else:
            deadline = start + budget if level == "hard" else None
            move = game.decide(obs, level, rng, deadline)
        result.times.setdefault(level, []).append(time.monotonic() - start)
        engine.apply(state, seat, move)
    winners = engine.outcome(state).winners
    if me in winners:
        result.share = 1 / len(winners)
    return result


def _play(args: tuple[str, int, int, str, str, float]) -> Result:
    return play(*args)


def series(
    key: str, n: int, games: int, tested: str, others: str, budget: float, jobs: int
) -> tuple[float, dict[str, list[float]]]:
    tasks = [(key, n, seed, tested, others, budget) for seed in range(games)]
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = pool.map(_play, tasks, chunksize=1)
    else:
        results = [_play(t) for t in tasks]
    times: dict[str, list[float]] = {}
    for r in results:
        for level, values in r.times.items():
            times.setdefault(level, []).extend(values)
    return sum(r.share for r in results), times


def line(label: str, share: float, games: int, n: int) -> str:
    low, high = wilson(round(share), games)
    fair = 1 / n
    return (
        f"  {label:<22} {share / games:6.1%}  (95% CI {low:5.1%}-{high:5.1%})  "
        f"fair share {fair:5.1%}  ratio {share / games / fair:4.2f}x"
    )


def timing(level: str, values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return (
        f"  {level:<7} {len(ms):6d} decisions  mean {statistics.mean(ms):7.1f} ms  "
        f"p95 {p95:7.1f} ms  max {ms[-1]:7.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=[*GAMES, "all"], default="all")
    parser.add_argument("--seats", default="3,4,5")
    parser.add_argument("--games", type=int, default=200, help="hard-vs-normal games per count")
    parser.add_argument("--easy-games", type=int, default=400, help="easy games per count")
    parser.add_argument("--budget", type=float, default=0.1, help="seconds per hard decision")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    seats = [int(x) for x in args.seats.split(",")]
    keys = list(GAMES) if args.game == "all" else [args.game]
    for key in keys:
        game = GAMES[key]
        print(
            f"{game.name}: {args.games} hard-vs-normal and {args.easy_games} easy games per "
            f"seat count, hard budget {args.budget:g} s per decision, {args.jobs} job(s)"
        )
        started = time.perf_counter()
        times: dict[str, list[float]] = {}
        for n in seats:
            print(f" {n} seats")
            hard, t_hard = series(key, n, args.games, "hard", "normal", args.budget, args.jobs)
            print(line("hard vs normal", hard, args.games, n))
            easy, t_easy = series(key, n, args.easy_games, "easy", "normal", 0, args.jobs)
            print(line("easy vs normal", easy, args.easy_games, n))
            rand, _ = series(key, n, args.easy_games, "easy", "random", 0, args.jobs)
            print(line("easy vs random-legal", rand, args.easy_games, n))
            if n == max(seats):
                for part in (t_hard, t_easy):
                    for level, values in part.items():
                        times.setdefault(level, []).extend(values)
        print(f" decision time at {max(seats)} seats")
        for level in ("easy", "normal", "hard"):
            if times.get(level):
                print(timing(level, times[level]))
        print(f" ({time.perf_counter() - started:.0f} s)")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
