"""Benchmark the Quantum dice AI levels in two-player games (default options).

* hard vs normal, alternating who starts: hard's win rate with a 95% Wilson interval, next to
  two exact figures: what the solved table predicts against *optimal* play (``V[0, 0]`` moving
  first, ``1 - V[0, 0]`` moving second, 50% over alternating starts) and hard's exact chance
  against *normal* (policy evaluation of the two fixed policies,
  :mod:`bot.engines.qdice.duel`; ``--exact`` recomputes it, about 40 minutes on one core,
  otherwise the recorded figures below are printed);
* easy vs normal (easy should lose clearly) and easy vs a random legal player (easy should win);
* decision time per level (mean, 95th percentile, max), with the tables warmed up first.

Seeded and repeatable (``--jobs`` splits the seeds into chunks, the results do not depend on
it); figures only: nothing here asserts on time.

Exact figure (policy evaluation): hard beats normal in 51.1% of two-player games over
alternating starts (54.0% moving first, 48.1% second). Sampled, ``--hard-games 20000
--easy-games 1000 --jobs 2`` (seeds 0-19,999): hard won 10,230 of 20,000 = 51.15% (95% CI
50.46%-51.84%, the whole interval above 50%), 0.07 points from the exact 51.08% (moving
first 53.89%, exact 54.05%; second 48.41%, exact 48.11%); easy against normal 25.1%
(22.5%-27.9%), easy against random-legal 98.9% (98.0%-99.4%). Decision times with the
tables warm, from a 1,000-game run on a quieter machine: easy mean 0.15 ms (p95 0.34, max
2.2), normal 0.09 ms (p95 0.26, max 6.6), hard 3.9 ms (p95 17.2, max 54.7); hard solves
each new pair of scores once (cached).

The edge over normal is small because normal already plays the end game for the win
(keeps that reach 10,000 are weighed by the chance the other player fails to beat them, and a
last turn rolls until it is ahead); what hard adds is mostly risk taken when far behind and
risk avoided when well ahead. An interval narrow enough to sit wholly above 50% needs tens of
thousands of games, which is why the exact figure is given too.

Run: ``.venv/bin/python bench/bench_levels_qdice.py [--hard-games 40000] [--easy-games 1000]
[--jobs 2] [--exact]``
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import percentile, wilson
from bot.engines.qdice.ai import decide, warm_up
from bot.engines.qdice.engine import QDiceConfig, QDiceEngine, QDiceObservation
from bot.engines.qdice.scoring import scoring_keeps
from bot.engines.qdice.winprob import default_table

ENGINE = QDiceEngine()
Player = Callable[[QDiceObservation, random.Random], str]

EXACT_HARD_VS_NORMAL = (0.540463, 0.481082)
"""Hard's exact chance against normal, moving first and moving second (``--exact``)."""
CHUNK = 250
"""Games per task handed to a worker process."""


def random_legal(obs: QDiceObservation, rng: random.Random) -> str:
    """Any legal keep at random, then bank or roll on at even odds (roll when it may not
    bank)."""
    me = obs.current
    assert me is not None
    indices, points = rng.choice(scoring_keeps(obs.dice))
    allowed = obs.on_board[me] or obs.turn_total + points >= obs.entry
    verb = "bank" if allowed and rng.random() < 0.5 else "roll"
    return f"{verb}:{''.join(map(str, indices))}"


def level(name: str) -> Player:
    return lambda obs, rng: decide(obs, name, rng)


def play(players: tuple[str, str], seed: int, times: dict[str, list[float]]) -> int:
    """One seeded game, ``players[0]`` in seat 0 (moves first); the winning seat."""
    state = ENGINE.new_game(QDiceConfig(), 2, seed)
    rng = random.Random(seed)
    movers: dict[str, Player] = {"random": random_legal}
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_act(state)
        name = players[seat]
        mover = movers.get(name) or level(name)
        obs = ENGINE.observe(state, seat)
        started = time.perf_counter()
        move = mover(obs, rng)
        times[name].append(time.perf_counter() - started)
        ENGINE.apply(state, seat, move)
    assert state.winner is not None
    return state.winner


def play_chunk(
    args: tuple[str, str, int, int],
) -> tuple[list[int], list[int], dict[str, list[float]]]:
    """Games ``first .. first + count - 1`` of ``a`` against ``b`` (``a`` moves first in even
    games): ``a``'s wins and games when moving first and second, and the decision times."""
    a, b, first, count = args
    warm_up()
    times: dict[str, list[float]] = defaultdict(list)
    wins, played = [0, 0], [0, 0]
    for game in range(first, first + count):
        second = game % 2
        seats = (b, a) if second else (a, b)
        winner = play(seats, game, times)
        played[second] += 1
        wins[second] += winner == second
    return wins, played, dict(times)


def match(
    a: str, b: str, games: int, base: int, times: dict[str, list[float]], jobs: int
) -> tuple[list[int], list[int]]:
    """``a`` against ``b``, ``a`` moving first in even games; prints ``a``'s results and
    returns its wins and games, moving first and moving second."""
    started = time.perf_counter()
    tasks = [
        (a, b, start, min(CHUNK, base + games - start))
        for start in range(base, base + games, CHUNK)
    ]
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = pool.map(play_chunk, tasks, chunksize=1)
    else:
        results = [play_chunk(task) for task in tasks]
    wins, played = [0, 0], [0, 0]
    for w, p, t in results:
        for k in (0, 1):
            wins[k] += w[k]
            played[k] += p[k]
        for name, values in t.items():
            times[name].extend(values)
    elapsed = time.perf_counter() - started
    total = sum(wins)
    low, high = wilson(total, games)
    print(
        f"{a} vs {b}: {a} won {total}/{games} = {total / games:.2%} "
        f"(95% CI {low:.2%} to {high:.2%}); {elapsed:.0f} s"
    )
    for second, label in ((0, "moving first"), (1, "moving second")):
        lo, hi = wilson(wins[second], played[second])
        rate = wins[second] / max(played[second], 1)
        print(f"  {label}: {wins[second]}/{played[second]} = {rate:.2%} ({lo:.2%} to {hi:.2%})")
    return wins, played


def exact_figures(recompute: bool) -> tuple[float, float]:
    if not recompute:
        return EXACT_HARD_VS_NORMAL
    from bot.engines.qdice.duel import HardPolicy, NormalPolicy, evaluate

    table = default_table()
    assert table is not None
    normal = NormalPolicy(table.game, 1_000)
    normal.guess = table.V
    duel = evaluate(HardPolicy(table.V), normal, table.game, passes=1, progress=print)
    print(f"exact evaluation took {duel.seconds:.0f} s")
    return duel.moving_first, duel.moving_second


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hard-games", type=int, default=40_000)
    parser.add_argument("--easy-games", type=int, default=1_000)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--exact", action="store_true", help="recompute the exact figures")
    args = parser.parse_args()
    started = time.perf_counter()
    warm_up()
    print(
        f"warm_up (normal's tables, hard's table loaded and one turn solved): "
        f"{time.perf_counter() - started:.2f} s"
    )
    table = default_table()
    if table is None:
        print("no solved table in data/: run scripts/build_qdice_winprob.py first")
        return
    first = table.win_chance(0, 0)
    print(
        f"solved table: value iteration took {table.seconds:.0f} s when built; "
        f"V[0, 0] = {first:.4f} (first player), {1 - first:.4f} (second)"
    )
    exact = exact_figures(args.exact)
    print(
        f"exact (policy evaluation): hard beats normal {exact[0]:.2%} moving first, "
        f"{exact[1]:.2%} moving second, {sum(exact) / 2:.2%} over alternating starts"
    )

    times: dict[str, list[float]] = defaultdict(list)
    if args.hard_games:
        wins, played = match("hard", "normal", args.hard_games, 100_000, times, args.jobs)
        predicted = (first, 1 - first)
        for second, label in ((0, "first"), (1, "second")):
            rate = wins[second] / max(played[second], 1)
            print(
                f"  moving {label}: the table predicts {predicted[second]:.2%} against optimal "
                f"play, {exact[second]:.2%} exactly against normal; observed - exact = "
                f"{100 * (rate - exact[second]):+.2f} points"
            )
        overall = sum(wins) / max(sum(played), 1)
        print(
            f"  over alternating starts: the table predicts 50.00% against optimal play "
            f"(observed {100 * (overall - 0.5):+.2f} points), {sum(exact) / 2:.2%} exactly "
            f"against normal (observed - exact = {100 * (overall - sum(exact) / 2):+.2f} points)"
        )
    if args.easy_games:
        match("easy", "normal", args.easy_games, 200_000, times, args.jobs)
        match("easy", "random", args.easy_games, 300_000, times, args.jobs)

    print("decision time per level (ms):")
    for name in ("easy", "normal", "hard", "random"):
        ms = [1000 * t for t in times[name]]
        if ms:
            print(
                f"  {name:>6}: mean {sum(ms) / len(ms):.2f}, p95 {percentile(ms, 0.95):.2f}, "
                f"max {max(ms):.1f} over {len(ms)} decisions"
            )


if __name__ == "__main__":
    main()
