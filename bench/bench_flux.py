"""Benchmark the Flux AI against random-legal players.

Plays seeded three-player games of the basic game: one AI seat (rotating) against two players
that pick uniformly among the complete legal moves. Prints the AI's share of outright wins
(the seat that finishes first), games where the top score was tied away or drawn, a 95%
Wilson interval, and the time per game. Figures only: nothing here asserts on time.

Run: ``.venv/bin/python bench/bench_flux.py [games] [variants]``
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

from bot.engines.flux.ai import choose_action as flux_choose

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import wilson
from bot.engines.flux.engine import FluxConfig, FluxEngine


def play(engine: FluxEngine, seed: int, ai_seat: int, variants: str) -> tuple[str, int]:
    """One seeded game; ("win" | "tie" | "loss", hands played) for the AI seat."""
    state = engine.new_game(FluxConfig(variants=variants), 3, seed)
    rng = random.Random(seed)
    while not engine.is_over(state):
        seat = sorted(engine.to_act(state))[0]
        if seat == ai_seat:
            move = flux_choose(engine.observe(state, seat), rng)
        else:
            move = rng.choice(engine.move_options(state, seat))
        engine.apply(state, seat, move)
    outcome = engine.outcome(state)
    top = max(state.scores)
    if outcome.winners == [ai_seat]:
        return "win", state.hand_no
    if state.scores[ai_seat] == top:
        return "tie", state.hand_no  # tied for the top score (such scores cancel)
    return "loss", state.hand_no


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    variants = sys.argv[2] if len(sys.argv) > 2 else ""
    engine = FluxEngine()
    tally = {"win": 0, "tie": 0, "loss": 0}
    hands = 0
    start = time.perf_counter()
    for seed in range(games):
        result, played = play(engine, seed, seed % 3, variants)
        tally[result] += 1
        hands += played
    elapsed = time.perf_counter() - start
    low, high = wilson(tally["win"], games)
    print(f"Flux AI vs two random-legal players, {games} seeded 3-player games, variants "
          f"{variants or 'none'}")  # fmt: skip
    print(f"  AI finishes first: {tally['win']} ({tally['win'] / games:.1%}, 95% CI "
          f"{low:.1%}-{high:.1%})")  # fmt: skip
    print(f"  AI tied for the top score (cancelled): {tally['tie']}")
    print(f"  AI beaten: {tally['loss']}")
    print(f"  {hands / games:.1f} hands per game, {1000 * elapsed / games:.1f} ms per game")


if __name__ == "__main__":
    main()
