"""The QuantumPoker AI: sensible choices in hand-made positions, and beating random play."""

from __future__ import annotations

import random

from bot.engines.qpoker.ai import (
    beliefs,
    choose_action,
    distribution,
    expected_gain,
    legal_moves,
    random_action,
)
from bot.engines.qpoker.engine import QPokerConfig, QPokerObservation
from tests.engines.test_qpoker import ENGINE, make_state


def ai(rows: list[str], cards_up: str, seat: int = 0, **fields: object) -> str:
    state = make_state(rows, cards_up, current=seat, **fields)  # type: ignore[arg-type]
    return choose_action(ENGINE.observe(state, seat), random.Random(0))


def test_belief_uses_only_what_the_seat_sees() -> None:
    state = make_state(["1 0 ~ 1d", "1s 1 0 0"])
    table = beliefs(ENGINE.observe(state, 0))
    assert [q.p for q in table[0]] == [1.0, 0.0, 0.5, 1.0]
    assert [q.chips for q in table[0]] == [1, 1, 1, 2]
    assert [q.p for q in table[1]] == [1.0, 0.5, 0.5, 0.5]  # hidden cards are a coin to us


def test_distribution_and_expected_gain() -> None:
    state = make_state(["1 1 0 0", "1s 0s 0s 0s"])
    table = beliefs(ENGINE.observe(state, 0))
    assert distribution(table[0]) == [0, 0, 1, 0, 0]
    assert expected_gain(table, 0, carry=0) == 1.0  # sure to win seat 1's single chip
    assert expected_gain(table, 1, carry=0) == -1.0  # from seat 1's view it loses its 1


def test_flips_a_zero_to_win_rather_than_a_one() -> None:
    move = ai(["1 1 0 0", "1s 1s 0s 0s"], "X")
    assert move in ("X:2", "X:3")


def test_cx_knocks_down_a_shown_one_of_the_leader() -> None:
    assert ai(["1 1 0 0", "1s 1s 1s 0s"], "CX").split(".")[0] == "CX:1"
    assert ai(["1 1 0 0", "1s 1s 1s 0s"], "CX") in ("CX:1.0", "CX:1.1", "CX:1.2")


def test_swaps_its_zero_for_a_shown_one() -> None:
    move = ai(["1 1 0 1", "1s 1s 0s 1s"], "SWAP")
    mine, theirs = move.split(":")[1], move.split(":")[2]
    assert mine == "2" and theirs in ("1.0", "1.1", "1.3")


def test_doubles_a_one_to_break_a_tie() -> None:
    assert ai(["1 1 0 0", "1s 1s 0s 0s"], "Z", chips=[5, 5]) in ("Z:0", "Z:1")
    # With no chip to pay, doubling does nothing: every Z is as good as another.
    assert ai(["1 1 0 0", "1s 1s 0s 0s"], "Z", chips=[0, 5], calling=False).startswith("Z:")


def test_calls_rather_than_spoil_a_winning_hand() -> None:
    assert ai(["1 1 1 1", "1s 1s 1s 0s"], "X") == "call"
    assert ai(["1 1 1 1", "1s 1s 1s 0s"], "X", calling=False).startswith("X:")


def test_only_legal_moves_from_its_own_observation_and_reproducible() -> None:
    rng = random.Random(3)
    for seed in range(20):
        state = ENGINE.new_game(QPokerConfig(), 3, seed=seed)
        while not ENGINE.is_over(state) and state.round < 3:
            (seat,) = ENGINE.to_act(state)
            obs: QPokerObservation = ENGINE.observe(state, seat)
            move = choose_action(obs, random.Random(seed))
            assert move == choose_action(obs.model_copy(deep=True), random.Random(seed))
            assert move in ENGINE.legal_actions(state, seat) and move in legal_moves(obs)
            ENGINE.apply(state, seat, move if rng.random() < 0.5 else random_action(obs, rng))


def test_beats_two_random_players_in_most_matches() -> None:
    """A small version of bench/bench_qpoker.py: strictly most chips in at least 70%."""
    wins = 0
    matches = 90
    for seed in range(matches):
        state = ENGINE.new_game(QPokerConfig(), 3, seed=10_000 + seed)
        rng = random.Random(seed)
        me = seed % 3
        while not ENGINE.is_over(state):
            (seat,) = ENGINE.to_act(state)
            obs = ENGINE.observe(state, seat)
            policy = choose_action if seat == me else random_action
            ENGINE.apply(state, seat, policy(obs, rng))
        wins += state.chips[me] > max(c for s, c in enumerate(state.chips) if s != me)
    assert wins >= 0.7 * matches
