"""Quantum dice engine: turn flow, refusals, hot dice, board entry, black hole, last turns."""

from __future__ import annotations

import pytest

from bot.engines.base import ConfigError, IllegalAction, InvalidAction
from bot.engines.qdice.ai import choose_action
from bot.engines.qdice.engine import QDiceConfig, QDiceState
from tests.engines.scripted import ENGINE, ScriptedRng, kinds, make_state, table

# Setup and basic flow -----------------------------------------------------------------------


def test_new_game_rolls_six_dice_for_seat_zero() -> None:
    state = ENGINE.new_game(QDiceConfig(), 3, seed=42)
    assert state.current is not None
    assert ENGINE.to_act(state) == frozenset({state.current})
    assert len(state.dice) == 6
    assert [d.colour for d in state.dice] == ["A", "A", "A", "B", "B", "B"]
    assert state.scores == [0, 0, 0]
    assert not ENGINE.is_over(state)


def test_player_counts() -> None:
    assert (ENGINE.name, ENGINE.min_players, ENGINE.max_players) == ("qdice", 2, 8)
    with pytest.raises(ConfigError) as refused:
        ENGINE.new_game(QDiceConfig(), 1, seed=1)
    assert refused.value.code == "error-player-count"
    assert refused.value.params == {"game": "Quantum dice", "low": 2, "high": 8, "count": 1}


def test_toggles_and_legal_actions() -> None:
    state = make_state("1A 4A 5A 6B 2B 3B")
    assert ENGINE.legal_actions(state, 0) == [f"t{i}" for i in range(6)]
    assert ENGINE.legal_actions(state, 1) == []
    ENGINE.apply(state, 0, "t0")
    assert state.selected == [0]
    assert "roll" in ENGINE.legal_actions(state, 0)
    assert "bank" not in ENGINE.legal_actions(state, 0)  # 100 is short of the 1,000 entry
    ENGINE.apply(state, 0, "t1")
    assert "roll" not in ENGINE.legal_actions(state, 0)
    ENGINE.apply(state, 0, "t1")
    assert state.selected == [0]
    obs = ENGINE.observe(state, 1)
    assert obs.selection_score == 100
    assert obs.rolled_six


def test_roll_keeps_selection_and_rolls_the_rest_with_their_colours() -> None:
    state = make_state("1A 4A 5A 6B 2B 3B", script=[[1, 1, 1, 2]])
    events = ENGINE.apply(state, 0, "roll:02")
    assert kinds(events) == ["keep", "roll"]
    assert state.turn_total == 150
    assert [(d.value, d.colour) for d in state.kept] == [(1, "A"), (5, "A")]
    assert [(d.value, d.colour) for d in state.dice] == [(1, "A"), (1, "B"), (1, "B"), (2, "B")]
    assert not events[1].text
    assert (events[1].seat, events[1].data["count"], events[1].data["turn_total"]) == (0, 4, 150)
    assert events[1].data["dice"][0] == {"value": 1, "colour": "A"}
    assert not ENGINE.observe(state, 0).rolled_six


def test_selection_action_uses_toggled_dice() -> None:
    state = make_state("1A 4A 5A 6B 2B 3B", script=[[2, 3, 4, 6]])
    ENGINE.apply(state, 0, "t0")
    ENGINE.apply(state, 0, "t2")
    events = ENGINE.apply(state, 0, "roll")
    assert kinds(events) == ["keep", "roll", "bust", "roll"]
    assert state.current == 1
    assert state.scores == [0, 0]


# Refusals leave the state untouched ---------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "error", "code", "params"),
    [
        ("roll:013", IllegalAction, "qdice-error-no-score", None),
        ("bank:13", IllegalAction, "qdice-error-no-score", None),
        ("roll:", IllegalAction, "qdice-error-select-first", {}),
        ("roll", IllegalAction, "qdice-error-select-first", {}),
        ("bank:0", IllegalAction, "qdice-error-entry", {"entry": 1000, "total": 100}),
        ("roll:00", InvalidAction, "qdice-error-same-die-twice", {"move": "roll:00"}),
        ("t7", IllegalAction, "qdice-error-no-die", {"die": 7, "last": 5}),
        ("roll:9", IllegalAction, "qdice-error-no-die", {"die": 9, "last": 5}),
        ("dance", InvalidAction, "qdice-error-unknown-move", {"move": "dance"}),
    ],
)
def test_refused_moves_leave_state_unchanged(
    action: str, error: type, code: str, params: dict[str, object] | None
) -> None:
    state = make_state("1A 4A 5A 6B 2B 3B")
    before = state.model_dump_json()
    with pytest.raises(error) as caught:
        ENGINE.apply(state, 0, action)
    assert caught.value.code == code
    if params is not None:
        assert caught.value.params == params
    assert state.model_dump_json() == before


def test_refusal_names_the_stray_dice() -> None:
    state = make_state("1A 4A 5A 6B 2B 3B")
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, 0, "roll:013")
    assert caught.value.code == "qdice-error-no-score"
    assert caught.value.params == {
        "reasons": [
            {"reason": "single", "values": [4, 6]},
            {"reason": "whole", "combination": "large-straight", "count": 6},
        ]
    }


def test_not_your_turn() -> None:
    state = make_state("1A 4A 5A 6B 2B 3B")
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, 1, "roll:0")
    assert caught.value.code == "qdice-error-not-your-turn"


def test_keep_must_come_from_the_latest_roll_only() -> None:
    # 1s kept earlier plus a 1 now are not a triple: the new 1 is a single.
    state = make_state("1A 2B 3B", kept="1A 1A 5B", turn_total=250, script=[[4, 1]])
    ENGINE.apply(state, 0, "roll:0")
    assert state.turn_total == 350


# Board entry ---------------------------------------------------------------------------------


def test_getting_on_the_board_needs_1000_in_one_turn() -> None:
    state = make_state("1A 1A 5A 6B 2B 3B", kept="", turn_total=800)
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, 0, "bank:2")  # 850
    assert (caught.value.code, caught.value.params) == (
        "qdice-error-entry",
        {"entry": 1000, "total": 850},
    )
    events = ENGINE.apply(state, 0, "bank:01")  # 1,000
    assert "bank" in kinds(events)
    assert state.scores == [1000, 0]
    assert state.on_board == [True, False]
    assert state.current == 1


def test_on_the_board_any_scoring_keep_may_be_banked() -> None:
    state = make_state("5A 4A 4A 6B 2B 3B", scores=[1500, 0], on_board=[True, False])
    ENGINE.apply(state, 0, "t0")
    assert "bank" in ENGINE.legal_actions(state, 0)
    ENGINE.apply(state, 0, "bank")
    assert state.scores == [1550, 0]


# Hot dice -----------------------------------------------------------------------------------


def test_hot_dice_rolls_six_fresh_dice_and_carries_the_total() -> None:
    state = make_state("1A 5B 5B", kept="1A 1A 5B", turn_total=250, script=[[4, 4, 4, 6, 2, 3]])
    events = ENGINE.apply(state, 0, "roll:012")
    assert kinds(events)[:3] == ["keep", "hot_dice", "roll"]
    assert state.turn_total == 450
    assert state.kept == []
    assert len(state.dice) == 6
    assert [d.colour for d in state.dice] == ["A", "A", "A", "B", "B", "B"]


def test_six_dice_combinations_count_on_a_hot_dice_reroll() -> None:
    state = make_state("5A 5B 5B", kept="1A 1A 1B", turn_total=1000, script=[[1, 2, 3, 4, 5, 6]])
    ENGINE.apply(state, 0, "roll:012")
    assert state.turn_total == 1500
    obs = ENGINE.observe(state, 0)
    assert obs.rolled_six
    ENGINE.apply(state, 0, "bank:012345")
    assert state.scores[0] == 1500 + 1700


def test_small_straight_only_on_exactly_three_dice() -> None:
    state = make_state("2A 3B 4A", kept="1A 1B 5B", turn_total=200)
    ENGINE.apply(state, 0, "t0")
    ENGINE.apply(state, 0, "t1")
    ENGINE.apply(state, 0, "t2")
    assert ENGINE.observe(state, 0).selection_score == 750
    four = make_state("2A 3B 4A 6B", kept="1A 1B", turn_total=200)
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(four, 0, "roll:012")
    assert caught.value.code == "qdice-error-no-score"


# Bust, black hole, Quantum ------------------------------------------------------------------


def test_bust_loses_the_turn_and_passes_the_dice() -> None:
    state = make_state(
        "1A 4A 5A 6B 2B 3B",
        turn_total=600,
        scores=[2000, 300],
        on_board=[True, True],
        script=[[2, 3, 4, 6, 6], [1, 2, 2, 3, 4, 6]],
    )
    events = ENGINE.apply(state, 0, "roll:0")
    assert kinds(events) == ["keep", "roll", "bust", "roll"]
    assert events[2].data["lost"] == 700
    assert state.scores == [2000, 300]
    assert state.current == 1
    assert state.turn_total == 0
    assert [d.value for d in state.dice] == [1, 2, 2, 3, 4, 6]


def test_black_hole_on_the_board_resets_to_1000() -> None:
    state = make_state(
        "1A 5B 5B",
        kept="1A 1A 5B",
        turn_total=1200,
        scores=[6400, 0],
        on_board=[True, False],
        script=[[2, 2, 2, 2, 2, 2], [1, 2, 3, 3, 4, 6]],
    )
    events = ENGINE.apply(state, 0, "roll:012")
    assert "black_hole" in kinds(events)
    assert state.scores == [1000, 0]
    assert state.current == 1


def test_six_twos_before_the_board_score_as_three_pairs() -> None:
    state = make_state("1A 5B 5B", kept="1A 1A 5B", turn_total=250, script=[[2, 2, 2, 2, 2, 2]])
    events = ENGINE.apply(state, 0, "roll:012")
    assert "black_hole" not in kinds(events)
    ENGINE.apply(state, 0, "bank:012345")
    assert state.scores[0] == 450 + 1700


def test_quantum_event_and_score() -> None:
    state = make_state("1A 5B 5B", kept="1A 1A 5B", turn_total=250, script=[[4] * 6])
    events = ENGINE.apply(state, 0, "roll:012")
    assert "quantum" in kinds(events)
    ENGINE.apply(state, 0, "bank:012345")
    assert state.scores[0] == 450 + 5000


# The end: contingent winner and last turns --------------------------------------------------


def end_state() -> QDiceState:
    """Three players near the end; seat 0 is about to bank past 10,000."""
    return make_state(
        "1A 1A 1A 6B 2B 3B",
        n_players=3,
        scores=[9500, 9000, 8000],
        on_board=[True, True, True],
        turn_total=300,
    )


def test_contingent_winner_gives_everyone_else_one_last_turn() -> None:
    state = end_state()
    state.rng = ScriptedRng(seed=1, script=[[1, 1, 5, 2, 3, 4]])
    events = ENGINE.apply(state, 0, "bank:012")  # 9,500 + 1,400 = 10,900
    assert "contingent" in kinds(events)
    assert state.final_round
    assert state.contingent_winner == 0
    assert state.finished_last_turn == [True, False, False]
    assert state.current == 1


def test_displaced_leader_gets_no_further_turn_and_ties_do_not_beat() -> None:
    state = end_state()
    state.rng = ScriptedRng(seed=1, script=[[1, 1, 1, 5, 5, 5]] * 3)
    ENGINE.apply(state, 0, "bank:012")  # seat 0: 10,900
    # seat 1 rolled 1 1 1 5 5 5 (each triple one colour: 1,100 + 600) and rolls on
    assert state.current == 1
    events = ENGINE.apply(state, 1, "roll:012345")  # hot dice, 1,700
    assert "hot_dice" in kinds(events)
    events = ENGINE.apply(state, 1, "bank:012345")  # 9,000 + 3,400 = 12,400
    assert state.scores[1] == 12_400
    contingent = [e for e in events if e.kind == "contingent"]
    assert contingent and contingent[0].data["displaced"] == 0
    assert state.contingent_winner == 1
    # seat 2 is next; seat 0 (displaced) never acts again
    assert state.current == 2
    state.turn_total = 4_400 - 1_700
    events = ENGINE.apply(state, 2, "bank:012345")  # 8,000 + 4,400 = 12,400: a tie
    assert state.scores == [10_900, 12_400, 12_400]
    assert "game_over" in kinds(events)
    assert ENGINE.is_over(state)
    assert ENGINE.to_act(state) == frozenset()
    assert state.winner == 1
    outcome = ENGINE.outcome(state)
    assert outcome.winners == [1]
    assert outcome.ranks == [2, 0, 1]


def test_beating_by_strictly_more_takes_the_win() -> None:
    state = end_state()
    state.rng = ScriptedRng(seed=1, script=[[1, 1, 1, 5, 5, 5]])
    ENGINE.apply(state, 0, "bank:012")  # 10,900
    state.turn_total = 1_250  # 9,000 + 1,250 + 1,700 = 11,950
    ENGINE.apply(state, 1, "bank:012345")
    assert state.contingent_winner == 1
    assert state.current == 2
    state.dice = table("2A 3A 4A 6B 6B 1B")
    events = ENGINE.apply(state, 2, "bank:5")  # 8,100: not enough
    assert "out" in kinds(events)
    assert state.winner == 1
    assert ENGINE.outcome(state).winners == [1]


def test_bust_in_the_last_turn_ends_that_players_game() -> None:
    state = end_state()
    state.rng = ScriptedRng(seed=1, script=[[2, 3, 4, 6, 6, 2], [2, 3, 4, 6, 6, 3]])
    events = ENGINE.apply(state, 0, "bank:012")
    # both six-dice rolls busted: seats 1 and 2 are out and the game is over
    assert kinds(events).count("bust") == 2
    assert kinds(events).count("out") == 2
    assert state.winner == 0
    assert ENGINE.legal_actions(state, 0) == []


# Observation, serialisation, determinism ----------------------------------------------------


def test_observation_mirrors_the_state() -> None:
    state = make_state("1A 4A 5A 6B 2B 3B", kept="", turn_total=0)
    ENGINE.apply(state, 0, "t0")
    obs = ENGINE.observe(state, None)
    assert obs.seat is None
    assert obs.current == 0
    assert obs.dice == state.dice
    assert obs.selected == [0]
    assert obs.selection_score == 100
    assert obs.turn_total == 0
    assert obs.target == 10_000 and obs.entry == 1_000
    assert obs.finished_last_turn == [False, False]
    obs.dice[0].value = 6  # the observation is a copy
    assert state.dice[0].value == 1


def test_json_round_trip_mid_game_replays_identically() -> None:
    state = ENGINE.new_game(QDiceConfig(), 3, seed=7)
    for _ in range(15):
        (seat,) = ENGINE.to_act(state)
        ENGINE.apply(state, seat, choose_action(ENGINE.observe(state, seat), None))  # type: ignore[arg-type]
    dumped = ENGINE.dump_state(state)
    copy = ENGINE.load_state(dumped)
    assert copy == state
    assert ENGINE.dump_state(copy) == dumped
    for _ in range(20):
        (seat,) = ENGINE.to_act(state)
        move = choose_action(ENGINE.observe(state, seat), None)  # type: ignore[arg-type]
        assert ENGINE.apply(state, seat, move) == ENGINE.apply(copy, seat, move)
    assert state == copy


def test_same_seed_and_moves_give_the_same_game() -> None:
    def play(seed: int) -> tuple[str, list[dict[str, object]]]:
        state = ENGINE.new_game(QDiceConfig(target=3000), 2, seed)
        entries: list[dict[str, object]] = []
        while not ENGINE.is_over(state):
            (seat,) = ENGINE.to_act(state)
            move = choose_action(ENGINE.observe(state, seat), None)  # type: ignore[arg-type]
            entries.extend(e.entry() for e in ENGINE.apply(state, seat, move))
        return ENGINE.dump_state(state), entries

    assert play(5) == play(5)
    assert play(5) != play(6)


def test_events_are_data_with_seat_indexes() -> None:
    state = make_state("1A 4A 5A 6B 2B 3B", script=[[1, 1, 5, 2, 3]])
    events = ENGINE.apply(state, 0, "roll:0")
    assert [e.text for e in events] == ["", ""]
    keep, roll = (e.entry() for e in events)
    assert keep == {
        "kind": "keep",
        "seat": 0,
        "data": {
            "dice": [{"value": 1, "colour": "A"}],
            "points": 100,
            "combinations": [["single:1", 100]],
            "turn_total": 100,
        },
    }
    assert roll["kind"] == "roll" and roll["seat"] == 0
    assert [d["value"] for d in roll["data"]["dice"]] == [1, 1, 5, 2, 3]  # type: ignore[index]
