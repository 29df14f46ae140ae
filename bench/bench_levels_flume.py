"""Benchmark the Flume AI levels (easy, normal, hard) against each other over seeded games.

Match-ups, whole games to 21:

* **hard vs normal**, four-handed: two hard seats (partners) against two normal seats, the
  hard team on seats 0/2 in even games and 1/3 in odd ones, so neither side always has the
  first deal. The hard level runs at a fixed effort (``--play`` deals per card played,
  ``--bid`` deals per bid or trump call, no deadline), which keeps the run to a few minutes
  on one core.
* **easy vs normal** and **easy vs random-legal**, four-handed, sides swapped the same way.
* **hard among normals**, five-handed (extra): one hard seat among four normal ones, the
  hard seat going round the table; its fair share of wins is 20%.

Each prints the win count and rate with a 95% Wilson interval. Then the time one decision
takes per level (mean, 95th percentile and max, over every decision of the match-ups; the
hard level split into card play, bidding (bids and the trump call) and the rest), and the
hard level at the bot's default budget (a deadline of about 1 s): time and deals per
decision over a sample of positions.
Nothing here asserts on anything, least of all on time.

Last full run (1,000 games, 16/32 deals, one core of a busy two-core machine, ~10 min):
hard team vs normal 79.7% (77.1-82.1%); easy vs normal 23.2% (20.7-25.9%); easy vs
random-legal 100% (99.6-100%); five-handed, one hard seat among four normal 66.8% of 250
(60.7-72.3%, fair share 20%). Hard decisions 5.5 ms mean, 16 ms p95 (play 4.2 ms, bidding
13 ms); at a 1 s deadline the 400-deal cap ends a search in 0.1 s on average, 0.26 s at most.

Run: ``.venv/bin/python bench/bench_levels_flume.py [games] [--play N] [--bid N]``
(default 1,000 games, and the hard level's own fixed effort: 16 and 32 deals).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import wilson
from bot.engines.flume import search as flume_search
from bot.engines.flume.ai import decide, random_action
from bot.engines.flume.engine import FlumeConfig, FlumeEngine, FlumeObservation, FlumeState

ENGINE = FlumeEngine()
DEFAULT_BUDGET = 1.0  # seconds: the bot's deadline for one AI move
Player = Callable[[FlumeObservation, random.Random], str]
TIMES: dict[str, list[float]] = defaultdict(list)
KINDS = {"play": "play", "bid": "bid", "trump": "bid"}  # discards and calls: "other"


def level(name: str) -> Player:
    """A seat at ``name`` (or "random"), timing every decision it makes."""

    def player(obs: FlumeObservation, rng: random.Random) -> str:
        start = time.perf_counter()
        action = random_action(obs, rng) if name == "random" else decide(obs, name, rng)
        elapsed = time.perf_counter() - start
        if len(obs.legal) > 1:  # forced moves are not decisions
            TIMES[name].append(elapsed)
            TIMES[f"{name} {KINDS.get(obs.phase, 'other')}"].append(elapsed)
        return action

    return player


def play(seed: int, players: list[Player], positions: list[FlumeState] | None = None) -> list[int]:
    """One seeded whole game; its winning seats. ``positions`` collects a few states."""
    state = ENGINE.new_game(FlumeConfig(), len(players), seed)
    rng = random.Random(seed)
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_act(state)
        obs = ENGINE.observe(state, seat)
        if positions is not None and len(obs.legal) > 1 and rng.random() < 0.05:
            positions.append(state.model_copy(deep=True))
        ENGINE.apply(state, seat, players[seat](obs, rng))
    return state.winners


def team_match(ours: str, theirs: str, games: int, seed: int) -> int:
    """Games won by a team of two ``ours`` seats against two ``theirs`` seats."""
    wins = 0
    a, b = level(ours), level(theirs)
    for game in range(games):
        team = game % 2
        winners = play(seed + game, [a if s % 2 == team else b for s in range(4)])
        wins += winners[0] % 2 == team
    return wins


def five_match(ours: str, theirs: str, games: int, seed: int) -> int:
    wins = 0
    a, b = level(ours), level(theirs)
    for game in range(games):
        seat = game % 5
        wins += seat in play(seed + game, [a if s == seat else b for s in range(5)])
    return wins


def report(title: str, wins: int, games: int, seconds: float) -> None:
    low, high = wilson(wins, games)
    print(
        f"{title}: {wins}/{games} won = {wins / games:.1%} "
        f"(95% CI {low:.1%}-{high:.1%}); {seconds:.0f} s",
        flush=True,
    )


def times(title: str, samples: list[float]) -> None:
    if not samples:
        return
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    print(
        f"  {title:<12} {len(samples):>7} decisions: mean {statistics.fmean(samples) * 1e3:7.2f} ms,"
        f" p95 {p95 * 1e3:7.2f} ms, max {ordered[-1] * 1e3:7.2f} ms",
        flush=True,
    )


def at_default_budget(positions: list[FlumeState], count: int) -> None:
    """The hard level with the bot's deadline: time and deals per decision."""
    deals: list[int] = []
    searches = {
        name: getattr(flume_search, name) for name in ("search_play", "search_bid", "search_trump")
    }

    def counting(search):  # type: ignore[no-untyped-def]
        def wrapped(*args, **kwargs):  # type: ignore[no-untyped-def]
            result = search(*args, **kwargs)
            deals.append(result[2])
            return result

        return wrapped

    for name, search in searches.items():
        setattr(flume_search, name, counting(search))
    spent: dict[str, list[float]] = defaultdict(list)
    rng = random.Random(1)
    try:
        for state in rng.sample(positions, min(count, len(positions))):
            (seat,) = ENGINE.to_act(state)
            obs = ENGINE.observe(state, seat)
            start = time.perf_counter()
            decide(obs, "hard", rng, deadline=time.monotonic() + DEFAULT_BUDGET)
            elapsed = time.perf_counter() - start
            spent["hard"].append(elapsed)
            spent[f"hard {KINDS.get(obs.phase, 'other')}"].append(elapsed)
    finally:
        for name, search in searches.items():
            setattr(flume_search, name, search)
    print(
        f"hard at the bot's default budget (deadline {DEFAULT_BUDGET:.1f} s, at most "
        f"{flume_search.MAX_SAMPLES} deals), {len(spent['hard'])} positions:"
    )
    for title in ("hard", "hard play", "hard bid", "hard other"):
        times(title, spent[title])
    if deals:
        print(
            f"  deals per search: mean {statistics.fmean(deals):.0f}, "
            f"min {min(deals)}, max {max(deals)}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", type=int, nargs="?", default=1000)
    parser.add_argument("--play", type=int, default=flume_search.DEFAULT_SAMPLES)
    parser.add_argument("--bid", type=int, default=flume_search.BID_SAMPLES)
    parser.add_argument("--budget-positions", type=int, default=40)
    args = parser.parse_args()
    flume_search.DEFAULT_SAMPLES, flume_search.BID_SAMPLES = args.play, args.bid
    games = args.games
    print(
        f"Flume AI levels, {games} games per four-handed match-up; hard at {args.play} deals "
        f"per card played and {args.bid} per bid or trump call (no deadline)",
        flush=True,
    )
    start = time.perf_counter()
    wins = team_match("hard", "normal", games, seed=100_000)
    report("4 players, hard team vs normal team", wins, games, time.perf_counter() - start)
    for opponent, seed in (("normal", 200_000), ("random", 300_000)):
        start = time.perf_counter()
        wins = team_match("easy", opponent, games, seed=seed)
        report(f"4 players, easy team vs {opponent} team", wins, games, time.perf_counter() - start)
    five = max(1, games // 4)
    start = time.perf_counter()
    wins = five_match("hard", "normal", five, seed=400_000)
    report("5 players, one hard seat vs four normal", wins, five, time.perf_counter() - start)
    print("Time per decision (forced moves left out):")
    for title in ("easy", "normal", "hard", "hard play", "hard bid", "hard other", "random"):
        times(title, TIMES[title])
    positions: list[FlumeState] = []
    for game in range(20):
        play(500_000 + game, [level("normal")] * 4, positions)
    at_default_budget(positions, args.budget_positions)


if __name__ == "__main__":
    main()
