"""Benchmark Quantum Fingers: the consistency engine's decision time and the AI's strength.

1. Decision time of the exact consistency engine for 3 to 10 players: seeded random games
   are played and every move is timed (each move adds a constraint and recomputes the exact
   bounds of every player-flavour cell by max-flow), together with one bare
   ``exact_bounds`` call on the position reached.
2. The AI's own decision time per move, for 3 to 8 players (one AI against random players).
3. The AI against two random-legal players in seeded three-player games (the AI's seat
   rotates), with a 95% Wilson interval.

Figures only: nothing here asserts on time.

Run: ``.venv/bin/python bench/bench_fingers.py [games]`` (default 1,000 games for part 3).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path
from typing import ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import wilson
from bot.engines.fingers.ai import choose_action, random_action
from bot.engines.fingers.engine import FingersConfig, FingersEngine
from bot.engines.fingers.logic import exact_bounds


class WideEngine(FingersEngine):
    """The same rules, allowing 10 seats so the consistency engine can be timed there."""

    max_players: ClassVar[int] = 10


def consistency_times(n: int, games: int) -> tuple[list[float], list[float]]:
    """Milliseconds per move (apply) and per bare exact-bounds computation."""
    engine = WideEngine()
    moves: list[float] = []
    bounds: list[float] = []
    for seed in range(games):
        state = engine.new_game(FingersConfig(), n, seed)
        rng = random.Random(seed)
        while not engine.is_over(state):
            (seat,) = engine.to_act(state)
            action = random_action(engine.observe(state, seat), rng)
            start = time.perf_counter()
            engine.apply(state, seat, action)
            moves.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            exact_bounds(state.lo, state.hi, state.counts, state.remaining)
            bounds.append((time.perf_counter() - start) * 1000)
    return moves, bounds


def ai_times(n: int, games: int) -> list[float]:
    engine = FingersEngine()
    times: list[float] = []
    for seed in range(games):
        state = engine.new_game(FingersConfig(), n, seed)
        rng = random.Random(seed)
        while not engine.is_over(state):
            (seat,) = engine.to_act(state)
            obs = engine.observe(state, seat)
            if seat == 0:
                start = time.perf_counter()
                action = choose_action(obs, rng)
                times.append((time.perf_counter() - start) * 1000)
            else:
                action = random_action(obs, rng)
            engine.apply(state, seat, action)
    return times


def ai_against_random(games: int) -> tuple[int, int, int]:
    engine = FingersEngine()
    wins = draws = 0
    for seed in range(games):
        state = engine.new_game(FingersConfig(), 3, seed)
        rng = random.Random(seed)
        ai = seed % 3
        while not engine.is_over(state):
            (seat,) = engine.to_act(state)
            obs = engine.observe(state, seat)
            policy = choose_action if seat == ai else random_action
            engine.apply(state, seat, policy(obs, rng))
        wins += state.winner == ai
        draws += state.draw
    return wins, draws, games


def describe(values: list[float]) -> str:
    values = sorted(values)
    p95 = values[int(0.95 * (len(values) - 1))]
    return (
        f"mean {statistics.fmean(values):7.2f} ms  median {statistics.median(values):7.2f} ms  "
        f"p95 {p95:7.2f} ms  max {values[-1]:7.2f} ms  ({len(values)} samples)"
    )


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    print("Consistency engine, per move (apply: constraint + exact bounds of every cell):")
    for n in range(3, 11):
        moves, bounds = consistency_times(n, 60 if n <= 6 else 25)
        print(f"  {n:2d} players  move: {describe(moves)}")
        print(f"              bounds only: {describe(bounds)}")
    print("AI decision time (one AI seat, random opponents):")
    for n in (3, 4, 5, 6, 8):
        print(f"  {n:2d} players  {describe(ai_times(n, 30 if n <= 5 else 10))}")
    start = time.perf_counter()
    wins, draws, total = ai_against_random(games)
    low, high = wilson(wins, total)
    print(
        f"AI vs two random-legal players, {total} seeded 3-player games: AI won {wins} "
        f"({wins / total:.1%}, 95% CI {low:.1%}-{high:.1%}), draws {draws}, "
        f"{time.perf_counter() - start:.1f} s"
    )


if __name__ == "__main__":
    main()
