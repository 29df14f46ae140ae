"""Benchmark the Flume AI against two baselines over seeded whole games.

Four-handed: an AI team (two AI seats, partners opposite) against a team of two baseline
seats, in whole games to 21, the AI team alternating between seats 0/2 and 1/3 so that the
first deal favours neither. The baselines (see :mod:`bot.engines.flume.ai`):

* ``random``: a uniformly random legal move (a random subset of non-trumps when discarding);
* ``greedy``: bids one less than its longest trump suit's length (four trumps bid 3), names
  that suit, discards every non-trump, and always plays its highest legal card.

Five-handed (extra figures): one AI seat among four baseline seats; a seat's fair share of
wins is 20%.

Prints win counts and rates with a 95% Wilson interval; nothing here asserts on anything.

Run: ``.venv/bin/python bench/bench_flume.py [games]`` (default 1,000 per match-up).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import wilson
from bot.engines.flume.ai import choose_action, greedy_action, random_action
from bot.engines.flume.engine import FlumeConfig, FlumeEngine, FlumeObservation

Player = Callable[[FlumeObservation, random.Random], str]
ENGINE = FlumeEngine()


def play(seed: int, players: list[Player]) -> tuple[list[int], int]:
    """One seeded whole game; (winning seats, hands played)."""
    state = ENGINE.new_game(FlumeConfig(), len(players), seed)
    rng = random.Random(seed)
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_act(state)
        ENGINE.apply(state, seat, players[seat](ENGINE.observe(state, seat), rng))
    return state.winners, state.hand_no


def team_match(baseline: Player, games: int) -> tuple[int, int]:
    wins = hands = 0
    for game in range(games):
        ai_team = game % 2
        players = [choose_action if s % 2 == ai_team else baseline for s in range(4)]
        winners, played = play(10_000 + game, players)
        wins += winners[0] % 2 == ai_team
        hands += played
    return wins, hands


def five_match(baseline: Player, games: int) -> tuple[int, int]:
    wins = hands = 0
    for game in range(games):
        ai_seat = game % 5
        players = [choose_action if s == ai_seat else baseline for s in range(5)]
        winners, played = play(20_000 + game, players)
        wins += ai_seat in winners
        hands += played
    return wins, hands


def report(title: str, wins: int, games: int, hands: int, seconds: float) -> None:
    low, high = wilson(wins, games)
    print(
        f"{title}: {wins}/{games} won = {wins / games:.1%} "
        f"(95% CI {low:.1%}-{high:.1%}); {hands / games:.1f} hands a game; {seconds:.1f} s"
    )


def main(games: int = 1000) -> None:
    for name, baseline in (("random", random_action), ("greedy", greedy_action)):
        start = time.perf_counter()
        wins, hands = team_match(baseline, games)
        report(
            f"4 players, AI team vs {name} team", wins, games, hands, time.perf_counter() - start
        )
    for name, baseline in (("random", random_action), ("greedy", greedy_action)):
        start = time.perf_counter()
        wins, hands = five_match(baseline, games)
        report(f"5 players, one AI vs four {name}", wins, games, hands, time.perf_counter() - start)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
