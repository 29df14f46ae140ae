"""Benchmark the QuantumPoker AI against random-legal players.

Plays seeded three-player matches (default options: 20 chips, 5 rounds, five community cards,
calling allowed): one AI seat, rotating through seats 0, 1, 2, against two players that pick a
legal move at random. Two kinds of random player are measured: ``move`` picks uniformly among
all complete legal moves (call included), ``card`` first picks a card (or calling) uniformly,
then a target uniformly.

A match is won when the AI seat ends it with strictly more chips than every other seat; a
shared top is counted apart as a tie (not a win). Figures only: nothing here asserts on time.

Run: ``.venv/bin/python bench/bench_qpoker.py [matches]``
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import wilson
from bot.engines.qpoker.ai import choose_action, legal_moves, random_action
from bot.engines.qpoker.engine import QPokerConfig, QPokerEngine, QPokerObservation

Policy = Callable[[QPokerObservation, random.Random], str]


def random_card_action(obs: QPokerObservation, rng: random.Random) -> str:
    """Pick a card kind (or calling) uniformly, then one of its targets uniformly."""
    moves = legal_moves(obs)
    kinds = sorted({move.partition(":")[0] for move in moves})
    kind = rng.choice(kinds)
    return rng.choice([m for m in moves if m.partition(":")[0] == kind])


def play(engine: QPokerEngine, seed: int, ai_seat: int, rival: Policy) -> tuple[str, int, int]:
    """One seeded match; ("win" | "tie" | "loss", AI chips, decisions made by the AI)."""
    state = engine.new_game(QPokerConfig(), 3, seed)
    rng = random.Random(seed)
    decisions = 0
    while not engine.is_over(state):
        (seat,) = engine.to_act(state)
        obs = engine.observe(state, seat)
        if seat == ai_seat:
            move = choose_action(obs, rng)
            decisions += 1
        else:
            move = rival(obs, rng)
        engine.apply(state, seat, move)
    chips = state.chips
    best = max(chips)
    if chips[ai_seat] < best:
        return "loss", chips[ai_seat], decisions
    return ("win" if chips.count(best) == 1 else "tie"), chips[ai_seat], decisions


def run(name: str, rival: Policy, matches: int) -> None:
    engine = QPokerEngine()
    counts = {"win": 0, "tie": 0, "loss": 0}
    chips = 0
    decisions = 0
    start = time.perf_counter()
    for seed in range(matches):
        result, mine, made = play(engine, seed, seed % 3, rival)
        counts[result] += 1
        chips += mine
        decisions += made
    elapsed = time.perf_counter() - start
    low, high = wilson(counts["win"], matches)
    print(f"AI vs two random-legal players ({name}), {matches} seeded 3-player matches:")
    print(
        f"  wins {counts['win']} ({counts['win'] / matches:.1%}, 95% CI {low:.1%}-{high:.1%}), "
        f"ties for the most chips {counts['tie']}, losses {counts['loss']}"
    )
    print(
        f"  wins or ties {(counts['win'] + counts['tie']) / matches:.1%}; mean final chips "
        f"of the AI {chips / matches:.1f} (of 60 in play; start 20)"
    )
    print(
        f"  {elapsed:.1f} s in all; {1000 * elapsed / max(decisions, 1):.2f} ms per AI decision "
        f"with the rivals' moves and the engine included ({decisions} AI decisions)"
    )


def main(matches: int = 1000) -> None:
    run("uniform over moves", random_action, matches)
    run("uniform card, then target", random_card_action, matches)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
