"""Benchmark the shared poker hand ranking against treys and pokerkit.

Prints evaluations per second of five-card ranking and of best-five-of-seven on the same seeded
single-deck hands (each evaluator gets the cards already in its own format, so only evaluation
is timed), plus our ranking on three-deck hands. ``bot.engines.poker`` fills its tables lazily,
so its figures are given cold (empty tables, as after a restart), warm (the same hands
again), and for seven cards also "new hands" (other seeded hands once the tables have been
filled by the first set, partly hitting the cache, as in a long-running bot).
Figures only: nothing here asserts on time.

Run: ``.venv/bin/python bench/bench_poker.py [--hands N] [--seed S]``
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pokerkit import StandardHighHand
from treys import Card as TreysCard
from treys import Evaluator

from bot.engines import poker
from bot.engines.cards import standard_deck


def rate(evaluate: Callable[[object], object], hands: Sequence[object]) -> float:
    """Evaluations per second of ``evaluate`` over ``hands``."""
    start = time.perf_counter()
    for h in hands:
        evaluate(h)
    return len(hands) / (time.perf_counter() - start)


def clear_tables() -> None:
    poker._TABLE.clear()
    poker._BEST_BY_RANKS.clear()


def report(label: str, figures: dict[str, float]) -> None:
    print(label)
    base = figures["ours (warm)"]
    for name, value in figures.items():
        print(f"  {name:<17} {value:>12,.0f} /s  ({value / base:5.2f}x ours warm)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000, help="seeded hands per test")
    parser.add_argument("--pokerkit-hands", type=int, default=2_000, help="pokerkit is slow")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    deck = standard_deck()
    sevens = [rng.sample(deck, 7) for _ in range(args.hands)]
    fives = [s[:5] for s in sevens]
    treys7 = [[TreysCard.new(c[0] + c[1].lower()) for c in s] for s in sevens]
    kit7 = [
        ("".join(c[0] + c[1].lower() for c in s[:2]), "".join(c[0] + c[1].lower() for c in s[2:]))
        for s in sevens[: args.pokerkit_hands]
    ]
    kit5 = ["".join(c[0] + c[1].lower() for c in f) for f in fives[: args.pokerkit_hands]]
    evaluator = Evaluator()

    clear_tables()
    cold5 = rate(poker.rank_five, fives)
    report(
        f"rank_five: {args.hands:,} seeded five-card hands (one deck)",
        {
            "ours (cold)": cold5,
            "ours (warm)": rate(poker.rank_five, fives),
            "treys": rate(lambda t: evaluator.evaluate(t[:2], t[2:5]), treys7),
            "pokerkit": rate(StandardHighHand, kit5),
        },
    )

    clear_tables()
    cold7 = rate(poker.best_five, sevens)
    fresh = [rng.sample(deck, 7) for _ in range(args.hands)]
    report(
        f"best_five: {args.hands:,} seeded seven-card hands (one deck)",
        {
            "ours (cold)": cold7,
            "ours (new hands)": rate(poker.best_five, fresh),
            "ours (warm)": rate(poker.best_five, sevens),
            "treys": rate(lambda t: evaluator.evaluate(t[:2], t[2:]), treys7),
            "pokerkit": rate(lambda p: StandardHighHand.from_game(*p), kit7),
        },
    )

    shoe = deck * 3
    shoe7 = [rng.sample(shoe, 7) for _ in range(args.hands)]
    clear_tables()
    cold = rate(poker.best_five, shoe7)
    warm = rate(poker.best_five, shoe7)
    print(f"best_five: {args.hands:,} seeded seven-card hands from a three-deck shoe (ours only)")
    print(f"  ours (cold)      {cold:>12,.0f} /s")
    print(f"  ours (warm)      {warm:>12,.0f} /s")
    print(
        f"  table sizes: {len(poker._TABLE):,} five-card keys, {len(poker._BEST_BY_RANKS):,} rank sets"
    )
    print(f"  (pokerkit timed on the first {min(args.pokerkit_hands, args.hands):,} hands)")


if __name__ == "__main__":
    main()
