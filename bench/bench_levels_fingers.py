"""Benchmark the Quantum Fingers AI levels.

For each seat count:

1. one hard seat against normal seats (the hard seat rotates with the seed): hard's share of
   the wins with a 95% Wilson interval, next to its fair share 1/n, and its wins per seat;
2. one easy seat against normal seats (easy should be clearly below 1/n);
3. one easy seat against random-legal seats (easy should be above 1/n).

Draws count 0 to everyone. Hard decisions get ``--budget`` seconds each (a
``time.monotonic()`` deadline) on top of their fixed work count
(:func:`bot.engines.fingers.search.work_for` predicted moves), which ends nearly every search
first, so the games are reproducible; the output says how many hard decisions the deadline
cut short. ``--timing`` plays a few games at one seat count (8 by default) with a seat of
each level and prints the decision time per level (mean, p95, max). Figures only: nothing
here asserts.

Figures on the shared 2-core development machine, win share with its 95% interval, fair
share in brackets.

Hard against normal, ``--seats 3,4,5 --games 1000 --easy-games 0 --budget 3 --jobs 1``
(2,000 / seats² predictions per decision; the 3-second deadline is only a safety net here:
it ended 0 of 3,878, 0 of 5,974 and 4 of 4,775 hard decisions at 3, 4 and 5 seats, with
other benchmarks and the test suite sharing the machine, so the work count decided the
searches as it does in the bot, whose budget is 1 second; an earlier run with a 1-second
deadline on a crowded machine cut 355 and 745 decisions at 4 and 5 seats and gave 70.0% and
37.4% there):

 3 seats  hard vs normal        66.7%  (95% CI 63.7%-69.6%)  fair 33.3%  ratio 2.00x
          wins by seat: 334/334 from seat 1, 333/333 from seat 2, 0/333 from seat 3
          7 distinct games; hard had a move in 849 and won 667 of them
 4 seats  hard vs normal        82.4%  (95% CI 79.9%-84.6%)  fair 25.0%  ratio 3.30x
          wins by seat: 250/250, 161/250, 250/250, 163/250
          18 distinct games; hard had a move in 951 and won 824 of them
 5 seats  hard vs normal        42.5%  (95% CI 39.5%-45.6%)  fair 20.0%  ratio 2.12x
          wins by seat: 63/200, 63/200, 120/200, 121/200, 58/200

Nothing in Quantum Fingers is dealt: a game differs from another only where a seat breaks a
tie at random (the seed gives the normal seats their random source), so at 3 and 4 seats the
1,000 seeds hold only 7 and 18 distinct games, and the intervals above overstate how much
they show. Read them as exact results instead: at 3 seats hard wins every game from the
first and second seat and none from the third (the second seat wins nearly every game among
normal players, and from the third seat hard found no line that beats both normal seats, in
the 182 games where it had a move at all); at 4 seats it wins every game from the first and
third seat and about two in three from the others. Normal seats alone give 3, 7 and 166
distinct games over 300 seeds at 3, 4 and 5 seats; at 5 seats the games truly vary.

Easy (``--games 0 --easy-games 300``, unchanged since): against normal 18.3% (14.4-23.1),
8.3% (5.7-12.0) and 5.7% (3.6-8.9) at 3, 4 and 5 seats (0.55x, 0.33x, 0.28x); against
random-legal 52.3% (46.7-57.9), 49.3% (43.7-55.0) and 52.7% (47.0-58.2) (1.57x, 1.97x,
2.63x).

Decision time, ``--seats '' --timing 8 --timing-games 30 --budget 1`` (8 seats, the bot's
1-second budget, two Flux benchmark workers sharing the machine; 3 of 292 hard decisions
reached the deadline): easy mean 9.3 ms (p95 38.5, max 103); normal 14.4 ms (p95 48.5, max
73); hard 274 ms (p95 753, max 1,038).

Run: ``.venv/bin/python bench/bench_levels_fingers.py [--seats 3,4,5] [--games 200]
[--easy-games 400] [--budget 1.0] [--jobs 1] [--timing 8]``
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import percentile, wilson
from bot.engines.fingers import ai as fingers_ai
from bot.engines.fingers import search as fingers_search
from bot.engines.fingers.engine import FingersConfig, FingersEngine

ENGINE = FingersEngine()


@dataclass
class Result:
    seat: int  # the tested seat
    share: float = 0.0  # 1 if the tested seat won
    times: dict[str, list[float]] = field(default_factory=dict)  # level -> seconds
    late: int = 0  # hard decisions that reached the deadline
    moves: list[str] = field(default_factory=list)  # every move of the game, in order


def play(n: int, seed: int, levels: list[str], budget: float, tested: int) -> Result:
    """One seeded game with ``levels[seat]`` at each seat ("random": random-legal)."""
    state = ENGINE.new_game(FingersConfig(), n, seed)
    rng = random.Random(seed)
    result = Result(seat=tested)
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_act(state)
        obs = ENGINE.observe(state, seat)
        level = levels[seat]
        start = time.monotonic()
        if level == "random":
            move = fingers_ai.random_action(obs, rng)
        else:
            deadline = start + budget if level == "hard" else None
            move = fingers_ai.decide(obs, level, rng, deadline)
        spent = time.monotonic() - start
        result.times.setdefault(level, []).append(spent)
        if level == "hard" and spent >= budget:
            result.late += 1
        ENGINE.apply(state, seat, move)
        result.moves.append(f"{seat}:{move}")
    if state.winner == tested:
        result.share = 1.0
    return result


def _one_against(args: tuple[int, int, str, str, float]) -> Result:
    n, seed, tested, others, budget = args
    me = seed % n
    levels = [tested if s == me else others for s in range(n)]
    return play(n, seed, levels, budget, me)


def _pool_map(fn: Callable, tasks: list, jobs: int) -> list:
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            return pool.map(fn, tasks, chunksize=4)
    return [fn(t) for t in tasks]


def series(n: int, games: int, tested: str, others: str, budget: float, jobs: int) -> list[Result]:
    tasks = [(n, seed, tested, others, budget) for seed in range(games)]
    return _pool_map(_one_against, tasks, jobs)


def line(label: str, results: list[Result], n: int) -> str:
    games = len(results)
    wins = sum(r.share for r in results)
    low, high = wilson(round(wins), games)
    fair = 1 / n
    return (
        f"  {label:<22} {wins / games:6.1%}  (95% CI {low:5.1%}-{high:5.1%})  "
        f"fair share {fair:5.1%}  ratio {wins / games / fair:4.2f}x"
    )


def by_seat(results: list[Result], n: int) -> str:
    parts = []
    for seat in range(n):
        mine = [r for r in results if r.seat == seat]
        parts.append(f"seat {seat}: {sum(r.share for r in mine):.0f}/{len(mine)}")
    return "    wins by seat: " + ", ".join(parts)


def moved(results: list[Result]) -> str:
    """How hard fared in the games where it had a move to make (a game can end before the
    tested seat's first turn), and how many of the games differ at all (same seat, same
    moves: the same game)."""
    acted = [r for r in results if r.times.get("hard")]
    wins = sum(r.share for r in acted)
    share = f"{wins / len(acted):.1%}" if acted else "-"
    distinct = len({(r.seat, tuple(r.moves)) for r in results})
    return (
        f"    hard had a move in {len(acted)} of {len(results)} games and won {wins:.0f} "
        f"of them ({share}); {distinct} distinct games (nothing is dealt: games differ only "
        f"where a seat breaks a tie at random)"
    )


def timing(level: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (
        f"  {level:<7} {len(ms):6d} decisions  mean {statistics.mean(ms):7.1f} ms  "
        f"p95 {percentile(ms, 0.95):7.1f} ms  max {max(ms):7.1f} ms"
    )


def _timing_game(args: tuple[int, int, float]) -> Result:
    n, seed, budget = args
    levels = [("easy", "normal", "hard")[(s + seed) % 3] for s in range(n)]
    return play(n, seed, levels, budget, -1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", default="3,4,5")
    parser.add_argument("--games", type=int, default=200, help="hard-vs-normal games per count")
    parser.add_argument("--easy-games", type=int, default=400, help="easy games per count")
    parser.add_argument("--budget", type=float, default=1.0, help="deadline per hard decision")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--timing", type=int, default=0, help="seat count for decision times")
    parser.add_argument("--timing-games", type=int, default=30)
    args = parser.parse_args()
    seats = [int(x) for x in args.seats.split(",") if x]
    print(
        f"Quantum Fingers: {args.games} hard-vs-normal and {args.easy_games} easy games per "
        f"seat count; hard: {fingers_search.WORK} / seats² predicted moves, at most "
        f"{fingers_search.MAX_DEPTH} own decisions deep, deadline {args.budget:g} s; "
        f"{args.jobs} job(s)"
    )
    for n in seats:
        started = time.perf_counter()
        print(f" {n} seats")
        if args.games:
            hard = series(n, args.games, "hard", "normal", args.budget, args.jobs)
            print(line("hard vs normal", hard, n))
            print(by_seat(hard, n))
            decisions = sum(len(r.times.get("hard", [])) for r in hard)
            late = sum(r.late for r in hard)
            print(f"    hard decisions: {decisions}, {late} reached the deadline")
            print(moved(hard))
        if args.easy_games:
            easy = series(n, args.easy_games, "easy", "normal", args.budget, args.jobs)
            print(line("easy vs normal", easy, n))
            rand = series(n, args.easy_games, "easy", "random", args.budget, args.jobs)
            print(line("easy vs random-legal", rand, n))
        print(f"  ({time.perf_counter() - started:.0f} s)")
        sys.stdout.flush()
    if args.timing:
        n = args.timing
        tasks = [(n, seed, args.budget) for seed in range(args.timing_games)]
        results = _pool_map(_timing_game, tasks, args.jobs)
        times: dict[str, list[float]] = {}
        for r in results:
            for level, values in r.times.items():
                times.setdefault(level, []).extend(values)
        late = sum(r.late for r in results)
        print(
            f" decision time at {n} seats ({args.timing_games} games, a seat of each level "
            f"in turn; {late} hard decisions reached the deadline)"
        )
        for level in ("easy", "normal", "hard"):
            if times.get(level):
                print(timing(level, times[level]))


if __name__ == "__main__":
    main()
