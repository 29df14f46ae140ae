"""Benchmark the Quantum dice AI.

Prints the expected single-turn value from six dice under the optimal policy (the DP), how
long the tables take to build, and the AI's win rate against a "bank at 300 or more once on
the board (entry first)" player over seeded two-player games, alternating who starts, with a
95% Wilson interval. Figures only: nothing here asserts on time.

Run: ``.venv/bin/python bench/bench_qdice_ai.py [games]``
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import wilson
from bot.engines.qdice.ai import (
    FRESH,
    choose_action,
    expected_turn_value,
    levels_needed,
    reach_table,
    roll_groups,
    threshold_action,
)
from bot.engines.qdice.engine import QDiceConfig, QDiceEngine


def play(engine: QDiceEngine, seed: int, ai_seat: int) -> tuple[int, int]:
    """One seeded game, AI in ``ai_seat`` against the threshold player; (winner, turns)."""
    state = engine.new_game(QDiceConfig(), 2, seed)
    rng = random.Random(seed)
    while not engine.is_over(state):
        (seat,) = engine.to_act(state)
        obs = engine.observe(state, seat)
        move = choose_action(obs, rng) if seat == ai_seat else threshold_action(obs, 300)
        engine.apply(state, seat, move)
    return engine.outcome(state).winners[0], state.turns


def main(games: int = 2000) -> None:
    start = time.perf_counter()
    groups = sum(len(roll_groups(s)) for s in [(a, b) for a in range(4) for b in range(4) if a + b])
    enumerated = time.perf_counter()
    value = expected_turn_value(on_board=True)
    built = time.perf_counter()
    entry_value = expected_turn_value(on_board=False, entry=1000)
    entry_built = time.perf_counter()
    reach = reach_table(True)
    p1000 = reach.prob(FRESH, levels_needed(1000))
    p10000 = reach.prob(FRESH, levels_needed(10_000))
    reach_built = time.perf_counter()
    print(f"roll outcomes enumerated and merged: {groups} groups in {enumerated - start:.2f} s")
    print(f"expected single-turn value from six dice (optimal, on the board): {value:.1f}")
    print(f"  expected-score table built in {built - enumerated:.2f} s")
    print(f"expected first turn off the board (1,000 entry, 0 if missed): {entry_value:.1f}")
    print(f"  entry table built in {entry_built - built:.2f} s")
    print(f"P(turn reaches 1,000) = {p1000:.3f}, P(turn reaches 10,000) = {p10000:.5f}")
    print(f"  reach table grown to 10,000 in {reach_built - entry_built:.2f} s")
    print(f"total DP build: {reach_built - start:.2f} s")

    engine = QDiceEngine()
    wins = 0
    turns = 0
    first_wins = 0
    t0 = time.perf_counter()
    for game in range(games):
        ai_seat = game % 2
        winner, n_turns = play(engine, 10_000 + game, ai_seat)
        wins += winner == ai_seat
        first_wins += winner == 0
        turns += n_turns
    elapsed = time.perf_counter() - t0
    low, high = wilson(wins, games)
    print(
        f"AI vs bank-at-300: {wins}/{games} = {wins / games:.1%} "
        f"(95% CI {low:.1%} to {high:.1%}); required >= 60%"
    )
    print(f"  first seat won {first_wins / games:.1%}; {turns / games:.1f} turns a game")
    print(f"  {games} games in {elapsed:.1f} s ({1000 * elapsed / games:.1f} ms a game)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
