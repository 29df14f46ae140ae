"""Quantum Fingers hard level: legal, reads only the observation, stops at its deadline or
work count, predicts the others with the normal AI, and finds the wins normal play misses.

Seeded and without deadlines (the search is bounded by its work count), so every decision is
the same on every machine; the deadline tests use a fake clock.
"""

from __future__ import annotations

import random

import pytest

from bot.engines.base import Rng
from bot.engines.fingers import ai as fingers_ai
from bot.engines.fingers import search as fingers_search
from bot.engines.fingers.engine import FingersConfig, FingersEngine, FingersState
from bot.engines.fingers.search import Planner, hard_action, position

ENGINE = FingersEngine()


@pytest.fixture(autouse=True)
def small_work(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fingers_search, "WORK", 600)


def midgame(n: int, seed: int, moves: int) -> FingersState:
    state = ENGINE.new_game(FingersConfig(), n, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        (seat,) = ENGINE.to_act(state)
        ENGINE.apply(state, seat, fingers_ai.choose_action(ENGINE.observe(state, seat), rng))
        if ENGINE.is_over(state):
            break
    assert not ENGINE.is_over(state)
    return state


@pytest.mark.parametrize("n", [3, 4, 5])
def test_hard_plays_legal_moves_in_whole_games(n: int) -> None:
    for seed in range(2 if n < 5 else 1):
        state = ENGINE.new_game(FingersConfig(), n, seed)
        rng = random.Random(seed)
        levels = ["hard" if s % 2 == seed % 2 else "normal" for s in range(n)]
        while not ENGINE.is_over(state):
            (seat,) = ENGINE.to_act(state)
            move = fingers_ai.decide(ENGINE.observe(state, seat), levels[seat], rng)
            assert move in ENGINE.legal_actions(state, seat), (levels[seat], move)
            ENGINE.apply(state, seat, move)


def test_hard_decides_from_the_observation_alone() -> None:
    """What the observation leaves out (the random source, the record of past positions) and
    what earlier decisions left behind (caches) change nothing."""
    state = midgame(4, 3, 4)
    (seat,) = ENGINE.to_act(state)
    other = state.model_copy(deep=True)
    other.rng = Rng(seed=12, calls=5)
    other.seen = []
    obs = ENGINE.observe(state, seat)
    assert ENGINE.observe(other, seat) == obs
    first = hard_action(obs, random.Random(5))
    hard_action(ENGINE.observe(midgame(4, 8, 3), 0), random.Random(1))  # something else between
    assert hard_action(ENGINE.observe(other, seat), random.Random(5)) == first


def test_the_model_is_the_normal_ai() -> None:
    state = midgame(5, 2, 3)
    (seat,) = ENGINE.to_act(state)
    planner = Planner(me=(seat + 1) % 5, work=10, deadline=None)
    expected = fingers_ai.choose_action(
        ENGINE.observe(state, seat), random.Random(fingers_search.MODEL_SEED)
    )
    assert planner.predict(state) == expected
    assert planner.left == 9
    assert planner.predict(state) == expected  # remembered: no more work
    assert planner.left == 9


def test_advance_stops_when_i_decide_again() -> None:
    state = midgame(4, 1, 2)
    (seat,) = ENGINE.to_act(state)
    me = (seat + 2) % 4
    planner = Planner(me=me, work=200, deadline=None)
    reached, moves = planner.advance(state)
    assert moves > 0
    assert ENGINE.is_over(reached) or ENGINE.to_act(reached) == {me}
    assert position(state) != position(reached)


class FakeClock:
    """A ``time.monotonic`` that moves on 10 ms at every look."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        self.now += 0.01
        return self.now


def test_hard_stops_at_its_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fingers_search, "WORK", 10**6)
    clock = FakeClock()
    monkeypatch.setattr(fingers_search, "monotonic", clock)
    state = midgame(5, 4, 2)
    (seat,) = ENGINE.to_act(state)
    obs = ENGINE.observe(state, seat)
    made: list[int] = []
    original = Planner.predict

    def counted(self: Planner, *args: object) -> str:
        made.append(1)
        return original(self, *args)

    monkeypatch.setattr(Planner, "predict", counted)
    move = hard_action(obs, random.Random(0), deadline=clock.now + 0.2)
    assert move in ENGINE.legal_actions(state, seat)
    assert 0 < len(made) <= 25  # about one look at the clock per prediction
    # A deadline already past: the normal move at once, nothing predicted.
    made.clear()
    move = hard_action(obs, random.Random(0), deadline=clock.now - 1)
    assert move == fingers_ai.choose_action(obs, random.Random(random.Random(0).random()))
    assert not made


def test_hard_stops_at_its_work_count(monkeypatch: pytest.MonkeyPatch) -> None:
    state = midgame(5, 4, 2)
    (seat,) = ENGINE.to_act(state)
    spent: list[float] = []
    original = Planner.choose

    def recorded(self: Planner, *args: object) -> str:
        try:
            return original(self, *args)
        finally:
            spent.append(fingers_search.work_for(5) - self.left)

    monkeypatch.setattr(Planner, "choose", recorded)
    hard_action(ENGINE.observe(state, seat), random.Random(0))
    assert spent and 0 < spent[0] <= fingers_search.work_for(5) + 1


def test_hard_wins_where_normal_play_loses() -> None:
    """Among normal players at three seats the second player wins nearly every game; a hard
    first player looks ahead at what they will do and wins instead."""
    for seed in range(3):
        results = {}
        for first in ("normal", "hard"):
            state = ENGINE.new_game(FingersConfig(), 3, seed)
            rng = random.Random(seed)
            levels = [first, "normal", "normal"]
            while not ENGINE.is_over(state):
                (seat,) = ENGINE.to_act(state)
                move = fingers_ai.decide(ENGINE.observe(state, seat), levels[seat], rng)
                ENGINE.apply(state, seat, move)
            results[first] = state.winner
        assert results["normal"] != 0
        assert results["hard"] == 0
