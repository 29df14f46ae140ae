"""The Quantum Fingers AI: legal, finds forced wins, avoids handing them out, beats random."""

from __future__ import annotations

import random

import pytest

from bot.engines.fingers.ai import (
    _after,
    choose_action,
    forced_win,
    random_action,
    state_of,
    threatened,
)
from bot.engines.fingers.engine import FingersConfig, FingersEngine, FingersState

ENGINE = FingersEngine()


def seed_example_before_the_win() -> FingersState:
    state = ENGINE.new_game(FingersConfig(), 3, seed=1)
    for seat, action in [
        (0, "new:2:éclairs"),
        (2, "no"),
        (1, "ask:0:0"),
        (1, "book"),
        (1, "new:2:bauxite"),
        (1, "ask:2:1"),
        (2, "no"),
    ]:
        ENGINE.apply(state, seat, action)
    return state


def test_finds_the_forced_win_of_the_seed_example() -> None:
    state = seed_example_before_the_win()
    obs = ENGINE.observe(state, 2)
    assert forced_win(state_of(obs)) is not None
    action = choose_action(obs, random.Random(0))
    ENGINE.apply(state, 2, action)
    assert state.winner == 2


def test_observation_rebuilds_the_position() -> None:
    state = seed_example_before_the_win()
    rebuilt = state_of(ENGINE.observe(state, 0))
    for field in ("names", "counts", "remaining", "lo", "hi", "books", "current", "phase"):
        assert getattr(rebuilt, field) == getattr(state, field)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_always_legal_and_never_hands_out_an_avoidable_win(n: int) -> None:
    checked = 0
    for seed in range(25 if n == 3 else 8):
        state = ENGINE.new_game(FingersConfig(), n, seed)
        rng = random.Random(seed)
        while not ENGINE.is_over(state):
            (seat,) = ENGINE.to_act(state)
            obs = ENGINE.observe(state, seat)
            action = choose_action(obs, rng) if seat == seed % n else random_action(obs, rng)
            assert action.split(":")[0] in {"ask", "new", "yes", "no", "book", "keep"}
            if seat == seed % n and state.phase == "answer":
                options = {w: threatened(_after(state, seat, w), seat) for w in ("yes", "no")}
                if not all(options.values()):
                    assert not options[action]
                    checked += 1
            ENGINE.apply(state, seat, action)  # raises if the AI chose an illegal move
    assert checked > 0


def test_beats_random_players() -> None:
    wins = 0
    games = 150
    for seed in range(games):
        state = ENGINE.new_game(FingersConfig(), 3, seed)
        rng = random.Random(seed)
        ai = seed % 3
        while not ENGINE.is_over(state):
            (seat,) = ENGINE.to_act(state)
            obs = ENGINE.observe(state, seat)
            policy = choose_action if seat == ai else random_action
            ENGINE.apply(state, seat, policy(obs, rng))
        wins += state.winner == ai
    assert wins / games >= 0.6  # the benchmark measures about 0.76 over 1,000 games
