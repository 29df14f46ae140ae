"""The consistency engine against a brute-force enumeration of every classical deal.

For 3 players there are 87 deals and for 4 players 8,515 (every matrix with rows and columns
summing to 4 and no entry of 4). Random games are played with random consistent choices; after
every ask, answer, book and declined book the deals that contradict it are struck off, and the
engine must agree exactly: the least and greatest holding of every player in every flavour,
which asks it allows, and which answers and books it treats as forced.
"""

from __future__ import annotations

import itertools
import random
from functools import cache
from operator import itemgetter

import pytest

from bot.engines.base import IllegalAction
from bot.engines.fingers.ai import random_action
from bot.engines.fingers.engine import FingersConfig, FingersEngine, FingersState
from bot.engines.fingers.logic import exact_bounds, feasible

ENGINE = FingersEngine()
Deal = tuple[int, ...]  # the initial matrix, row by row


@cache
def all_deals(n: int, k: int = 4) -> list[Deal]:
    """Every initial deal: rows and columns sum to k, nobody holds k of one flavour."""
    rows = [r for r in itertools.product(range(k), repeat=n) if sum(r) == k]
    deals: list[Deal] = []

    def extend(prefix: list[tuple[int, ...]], columns: list[int]) -> None:
        if len(prefix) == n:
            if all(c == k for c in columns):
                deals.append(tuple(x for row in prefix for x in row))
            return
        for row in rows:
            total = [a + b for a, b in zip(columns, row, strict=True)]
            if all(c <= k for c in total):
                extend([*prefix, row], total)

    extend([], [0] * n)
    return deals


def test_deal_counts() -> None:
    assert len(all_deals(3)) == 87
    assert len(all_deals(4)) == 8_515


class BruteForce:
    """The deals still consistent, and the public transfers so far."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.deals = list(all_deals(n))
        self.moved = [0] * (n * n)  # net transfers: holding = initial + moved
        self.pending: tuple[int, int, int] | None = None  # asker, target, flavour

    def values(self, p: int, f: int) -> set[int]:
        i = p * self.n + f
        return {x + self.moved[i] for x in set(map(itemgetter(i), self.deals))}

    def keep(self, p: int, f: int, low: int, high: int) -> None:
        i = p * self.n + f
        low, high = low - self.moved[i], high - self.moved[i]
        self.deals = [d for d in self.deals if low <= d[i] <= high]
        assert self.deals, "the engine allowed a move no deal is consistent with"

    def shift(self, p: int, f: int, amount: int) -> None:
        self.moved[p * self.n + f] += amount

    def bounds(self) -> tuple[list[list[int]], list[list[int]]]:
        n = self.n
        columns = list(zip(*self.deals, strict=True))
        lo = [[min(columns[p * n + f]) + self.moved[p * n + f] for f in range(n)] for p in range(n)]
        hi = [[max(columns[p * n + f]) + self.moved[p * n + f] for f in range(n)] for p in range(n)]
        return lo, hi


def check_asks(state: FingersState, brute: BruteForce) -> None:
    """The engine offers exactly the asks of flavours the asker could hold."""
    seat = state.current
    assert seat is not None
    legal = set(ENGINE.legal_actions(state, seat))
    unnamed = [f for f, name in enumerate(state.names) if name is None]
    for f in range(state.n_players):
        could = max(brute.values(seat, f)) >= 1
        for q in range(state.n_players):
            if q == seat or state.counts[q] == 0:
                continue
            if state.names[f] is not None:
                assert (f"ask:{q}:{f}" in legal) == (could and state.remaining[f] > 0)
            elif f == unnamed[0]:
                assert (f"new:{q}" in legal) == could
    if legal:
        return
    assert state.phase == "over"


def replay_events(state: FingersState, brute: BruteForce, events: list) -> None:  # type: ignore[type-arg]
    """Strike off the deals each event rules out, checking forced claims on the way."""
    k = state.config.per_flavour
    for event in events:
        kind, data = event.kind, event.data
        if kind == "ask":
            asker, target, flavour = event.seat, data["target"], data["flavour"]
            brute.pending = (asker, target, flavour)
            assert max(brute.values(asker, flavour)) >= 1
            brute.keep(asker, flavour, 1, k)
            options = brute.values(target, flavour)
            both = 0 in options and max(options) >= 1
            forced_next = events[events.index(event) + 1 :][:1]
            if forced_next:
                assert forced_next[0].data.get("forced") is (not both)
            else:
                assert both and state.phase == "answer"
        elif kind in ("yes", "no"):
            assert brute.pending is not None
            asker, target, flavour = brute.pending
            options = brute.values(target, flavour)
            if kind == "yes":
                assert max(options) >= 1
                brute.keep(target, flavour, 1, k)
                brute.shift(target, flavour, -1)
                brute.shift(asker, flavour, +1)
                after = brute.values(asker, flavour)
                later = [e for e in events[events.index(event) + 1 :] if e.kind == "book"]
                forced_book = after == {k}
                if forced_book:
                    assert later and later[0].data["forced"] is True
                elif k in after:  # a choice
                    assert not later and state.phase == "book"
                else:
                    assert not later
            else:
                assert 0 in options
                brute.keep(target, flavour, 0, 0)
        elif kind == "book":
            p, f = event.seat, data["flavour"]
            assert k in brute.values(p, f)
            brute.keep(p, f, k, k)
            brute.shift(p, f, -k)
        elif kind == "keep":
            p, f = event.seat, data["flavour"]
            assert min(brute.values(p, f)) <= k - 1
            brute.keep(p, f, 0, k - 1)


def play_and_compare(n: int, seed: int) -> int:
    """One random game checked move by move; returns the number of moves."""
    state = ENGINE.new_game(FingersConfig(), n, seed)
    brute = BruteForce(n)
    rng = random.Random(seed)
    moves = 0
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_act(state)
        if state.phase == "ask":
            check_asks(state, brute)
        action = random_action(ENGINE.observe(state, seat), rng)
        events = ENGINE.apply(state, seat, action)
        replay_events(state, brute, events)
        lo, hi = brute.bounds()
        assert (state.lo, state.hi) == (lo, hi), f"seed {seed}, move {moves}: {action}"
        moves += 1
    return moves


def test_three_players_thousands_of_games() -> None:
    moves = sum(play_and_compare(3, seed) for seed in range(2000))
    assert moves > 2000 * 8


def test_four_players_many_games() -> None:
    moves = sum(play_and_compare(4, seed) for seed in range(150))
    assert moves > 150 * 10


def test_refused_ask_names_the_reason() -> None:
    state = ENGINE.new_game(FingersConfig(), 3, 0)
    ENGINE.apply(state, 0, "new:2:éclairs")
    ENGINE.apply(state, 2, "no")  # C has no éclairs, so C may never ask for them
    ENGINE.apply(state, 1, "ask:2:0")  # forced no: the turn passes to C
    assert state.current == 2 and state.phase == "ask"
    with pytest.raises(IllegalAction) as refusal:
        ENGINE.apply(state, 2, "ask:0:0")
    assert refusal.value.code == "fingers-error-cannot-hold"
    assert refusal.value.params == {"name": "éclairs"}


@pytest.mark.parametrize("seed", range(200))
def test_flow_bounds_match_enumeration_on_random_boxes(seed: int) -> None:
    """Random per-cell boxes (not only those games reach) for 3 and 4 players."""
    rng = random.Random(seed)
    n = 3 if seed % 2 else 4
    lo = [[rng.choice((0, 0, 0, 1, 2)) for _ in range(n)] for _ in range(n)]
    hi = [[min(3, lo[p][f] + rng.choice((0, 1, 2, 3, 3))) for f in range(n)] for p in range(n)]
    inside = [
        d
        for d in all_deals(n)
        if all(lo[p][f] <= d[p * n + f] <= hi[p][f] for p in range(n) for f in range(n))
    ]
    bounds = exact_bounds(lo, hi, [4] * n, [4] * n)
    if not inside:
        assert bounds is None and feasible(lo, hi, [4] * n, [4] * n) is None
        return
    assert bounds is not None
    columns = list(zip(*inside, strict=True))
    assert bounds.lo == [[min(columns[p * n + f]) for f in range(n)] for p in range(n)]
    assert bounds.hi == [[max(columns[p * n + f]) for f in range(n)] for p in range(n)]
