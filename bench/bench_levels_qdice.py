"""Benchmark the Quantum dice AI levels in two-player games (default options).

* hard vs normal, alternating who starts: hard's win rate with a 95% Wilson interval, next to
  what the solved table predicts (the first player's chance from the start, ``V[0, 0]``, and
  the second's ``1 - V[0, 0]``; their average, 50%, is what optimal play guarantees against
  any opponent over alternating starts);
* easy vs normal (easy should lose clearly) and easy vs a random legal player (easy should win);
* decision time per level (mean, 95th percentile, max), with the tables warmed up first.

Seeded and repeatable; figures only: nothing here asserts on time.

Run: ``.venv/bin/python bench/bench_levels_qdice.py [hard_games] [easy_games]``
"""

from __future__ import annotations

import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import percentile, wilson
from bot.engines.qdice import QDiceConfig, QDiceEngine, QDiceObservation
from bot.engines.qdice_ai import decide, warm_up
from bot.engines.qdice_scoring import scoring_keeps
from bot.engines.qdice_winprob import default_table

ENGINE = QDiceEngine()
Player = Callable[[QDiceObservation, random.Random], str]


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


def match(
    a: str, b: str, games: int, base: int, times: dict[str, list[float]]
) -> tuple[list[int], list[int]]:
    """``a`` against ``b``, ``a`` moving first in even games; prints ``a``'s results and
    returns its wins and games, moving first and moving second."""
    wins = [0, 0]  # when a moves first, when a moves second
    played = [0, 0]
    started = time.perf_counter()
    for game in range(games):
        second = game % 2
        seats = (b, a) if second else (a, b)
        winner = play(seats, base + game, times)
        played[second] += 1
        wins[second] += winner == second
    elapsed = time.perf_counter() - started
    total = sum(wins)
    low, high = wilson(total, games)
    print(
        f"{a} vs {b}: {a} won {total}/{games} = {total / games:.1%} "
        f"(95% CI {low:.1%} to {high:.1%}); {elapsed:.0f} s"
    )
    for second, label in ((0, "moving first"), (1, "moving second")):
        lo, hi = wilson(wins[second], played[second])
        rate = wins[second] / max(played[second], 1)
        print(f"  {label}: {wins[second]}/{played[second]} = {rate:.1%} ({lo:.1%} to {hi:.1%})")
    return wins, played


def main(hard_games: int = 1000, easy_games: int = 1000) -> None:
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

    times: dict[str, list[float]] = defaultdict(list)
    wins, played = match("hard", "normal", hard_games, 100_000, times)
    predicted = (first, 1 - first)
    for second, label in ((0, "first"), (1, "second")):
        rate = wins[second] / max(played[second], 1)
        print(
            f"  moving {label}: the table predicts {predicted[second]:.1%} against optimal "
            f"play; observed - predicted = {100 * (rate - predicted[second]):+.1f} points"
        )
    overall = sum(wins) / max(sum(played), 1)
    print(
        f"  over alternating starts the table predicts 50.0% (what optimal play guarantees "
        f"against anyone); observed - predicted = {100 * (overall - 0.5):+.1f} points"
    )
    match("easy", "normal", easy_games, 200_000, times)
    match("easy", "random", easy_games, 300_000, times)

    print("decision time per level (ms):")
    for name in ("easy", "normal", "hard", "random"):
        ms = [1000 * t for t in times[name]]
        if ms:
            print(
                f"  {name:>6}: mean {sum(ms) / len(ms):.2f}, p95 {percentile(ms, 0.95):.2f}, "
                f"max {max(ms):.1f} over {len(ms)} decisions"
            )


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    main(*args)
