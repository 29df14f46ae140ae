"""Quantum dice AI: the DP figure, table sanity and the decisions in each game context."""

from __future__ import annotations

import random

import pytest

from bot.engines.qdice.ai import (
    FRESH,
    INDEX,
    choose_action,
    expected_turn_value,
    keep_options,
    levels_needed,
    reach_table,
    score_table,
    threshold_action,
)
from bot.engines.qdice.engine import QDiceObservation
from tests.engines.test_qdice import ENGINE, make_state


def observe(**kwargs) -> QDiceObservation:
    roll = kwargs.pop("roll")
    state = make_state(roll, **kwargs)
    return ENGINE.observe(state, state.current)


def test_single_turn_optimum_is_about_620() -> None:
    value = expected_turn_value(on_board=True)
    assert 615 < value < 626
    # Needing 1,000 before banking costs expected points.
    assert expected_turn_value(on_board=False, entry=1000) < value


def test_tables_are_monotone_and_consistent() -> None:
    table = score_table(0, True)
    for level in range(0, 200, 10):
        assert table.value(FRESH, level + 1) >= table.value(FRESH, level)
        assert table.value(INDEX[(1, 0)], level) >= level * 50
    # with six dice and a modest total, rolling beats banking
    assert table.roll_value(FRESH, 2000 // 50) > 2000
    reach = reach_table(True)
    chances = [reach.prob(FRESH, levels_needed(p)) for p in (0, 50, 500, 1000, 3000, 10_000)]
    assert chances[0] == 1.0
    assert chances == sorted(chances, reverse=True)
    assert 0.3 < chances[3] < 0.45


def test_keep_options_one_per_next_state() -> None:
    obs = observe(roll="1A 1A 5A 2B 3B 4B")
    options = keep_options(obs.dice)
    assert len({nxt for _, _, nxt in options}) == len(options)
    # keeping 1 1 5 (250) is among them, as is the best single 1
    assert ((0, 1, 2), 250, INDEX[(0, 3)]) in options
    assert ((0,), 100, INDEX[(2, 3)]) in options


def test_rolls_on_with_six_dice_and_little_on_the_turn() -> None:
    obs = observe(roll="1A 2A 3A 4B 6B 6B", on_board=[True, True], scores=[3000, 3000])
    assert choose_action(obs, random.Random(1)) == "roll:0"


def test_banks_a_big_turn_with_few_dice_left() -> None:
    obs = observe(
        roll="5A 3B",
        kept="1A 1A 1B 4B",
        turn_total=2000,
        on_board=[True, True],
        scores=[3000, 3000],
    )
    assert choose_action(obs, random.Random(1)) == "bank:0"


def test_keeps_rolling_below_the_entry_threshold() -> None:
    obs = observe(roll="5A 3B", kept="1A 1A 1B 4B", turn_total=850)
    assert choose_action(obs, random.Random(1)) == "roll:0"


@pytest.mark.parametrize(
    ("turn_total", "move"),
    [
        (1200, "roll:0"),  # 9,000 + 1,250 < 10,500
        (1450, "roll:0"),  # 9,000 + 1,500 = 10,500 only ties: not enough
        (1500, "bank:0"),  # 9,000 + 1,550 beats 10,500
    ],
)
def test_last_turn_rolls_until_strictly_beating_the_leader(turn_total: int, move: str) -> None:
    state = make_state(
        "5A 3B 6B",
        kept="1A 1A 4B",
        turn_total=turn_total,
        current=1,
        scores=[10_500, 9_000],
        on_board=[True, True],
    )
    state.final_round = True
    state.contingent_winner = 0
    state.finished_last_turn = [True, False]
    assert choose_action(ENGINE.observe(state, 1), random.Random(1)) == move


def test_end_game_banks_when_nobody_can_realistically_catch_up() -> None:
    obs = observe(
        roll="1A 2A 3A 4B 6B 6B",
        turn_total=300,
        scores=[9800, 1000],
        on_board=[True, True],
    )
    assert choose_action(obs, random.Random(1)) == "bank:0"


def test_end_game_pushes_when_a_rival_would_likely_beat_the_score() -> None:
    # Banking 10,000 against a rival at 9,950 hands them a near-certain win (they need 100).
    obs = observe(
        roll="5A 2A 3A 4B 6B 6B",
        turn_total=150,
        scores=[9800, 9950],
        on_board=[True, True],
    )
    assert choose_action(obs, random.Random(1)).startswith("roll:")


def test_threshold_player() -> None:
    obs = observe(roll="1A 1A 5A 2B 3B 4B", on_board=[True, True], scores=[2000, 0])
    assert threshold_action(obs, 300) == "roll:012"
    obs = observe(roll="1A 1A 5A 2B 3B 4B", turn_total=100, on_board=[True, True])
    assert threshold_action(obs, 300) == "bank:012"
    obs = observe(roll="1A 1A 5A 2B 3B 4B", turn_total=100)
    assert threshold_action(obs, 300) == "roll:012"  # not on the board yet


def test_ai_moves_are_always_accepted() -> None:
    for seed in range(20):
        state = ENGINE.new_game(ENGINE.parse_config({"target": 2000}), 3, seed)
        while not ENGINE.is_over(state):
            (seat,) = ENGINE.to_act(state)
            move = choose_action(ENGINE.observe(state, seat), random.Random(seed))
            assert move.split(":")[0] in ("roll", "bank")
            ENGINE.apply(state, seat, move)


def test_warm_up_builds_everything_default_games_decide_with() -> None:
    from bot.engines.qdice import ai as qdice_ai

    qdice_ai.score_table.cache_clear()
    qdice_ai.reach_table.cache_clear()
    qdice_ai.warm_up()
    built = qdice_ai.score_table.cache_info().currsize
    rows = {b: len(qdice_ai.reach_table(b)._rows[0]) for b in (True, False)}
    for seed in range(6):  # whole default games (to 10,000, entry 1,000), AI in every seat
        state = ENGINE.new_game(ENGINE.parse_config({}), 2 + seed % 3, seed)
        while not ENGINE.is_over(state):
            (seat,) = ENGINE.to_act(state)
            ENGINE.apply(state, seat, choose_action(ENGINE.observe(state, seat), None))
    # No decision had to build a table: everything was there after the warm-up.
    assert qdice_ai.score_table.cache_info().currsize == built
    assert {b: len(qdice_ai.reach_table(b)._rows[0]) for b in (True, False)} == rows
