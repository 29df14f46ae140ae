"""Every Flux variant changes the game the way the rules page says."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.engines.base import ConfigError, IllegalAction
from bot.engines.flux.ai import choose_action as flux_choose
from bot.engines.flux.engine import FluxConfig, FluxState
from tests.engines.test_flux import ENGINE, make_state, play_round, total_cards


def _pass_claims(state: FluxState) -> None:
    if state.phase == "claim":
        for seat in sorted(ENGINE.to_act(state)):
            ENGINE.apply(state, seat, "pass")


def _play_out(state: FluxState, seed: int = 0, max_moves: int = 5000) -> None:
    rng = random.Random(seed)
    for _ in range(max_moves):
        if ENGINE.is_over(state):
            return
        seat = sorted(ENGINE.to_act(state))[0]
        ENGINE.apply(state, seat, flux_choose(ENGINE.observe(state, seat), rng))
    raise AssertionError("no end")


def test_v1_discard_up_to_the_roll_or_keep() -> None:
    state = make_state(["9H 2D KS 4H", "AS 4C 7D 2S"], variants="1", script=[3])
    ENGINE._take_command(state, 0)
    assert state.discard_range == (0, 3)
    assert "discard" in ENGINE.legal_actions(state, 0)  # nothing selected: keep the hand
    events = ENGINE.apply(state, 0, "discard:")
    assert events[0].kind == "discard" and events[0].data == {"discarded": []}
    assert state.phase == "trick"


def test_v2_d20_target_and_d8_discard_die_fluxing_on_8() -> None:
    state = ENGINE.new_game(FluxConfig(variants="2"), 3, 3)
    assert len(state.target_dice) == 1 and 1 <= state.target <= 20
    state = make_state(["9H 2D", "AS 4C"], variants="2", script=[7])
    ENGINE._take_command(state, 0)
    assert state.phase == "command" and state.discard_range == (7, 7)
    state = make_state(["9H 2D", "AS 4C"], variants="2", script=[8])
    events = ENGINE._take_command(state, 0)
    assert any(e.kind == "flux" for e in events)


def test_v3_maximum_tricks_settles_the_hand_without_undercut() -> None:
    state = make_state(["9H 2D KS", "AS 4C 7D"], variants="3", script=[2])
    state.max_tricks = 1
    play_round(state, ["AS", "9H"])  # seat 1 wins with the ace
    ENGINE.apply(state, 1, "discard:4C,7D")
    assert state.last_result is not None and state.last_result.kind == "settled"
    assert state.last_result.caller is None and not state.last_result.undercut


def test_v6_zero_is_zilched() -> None:
    state = make_state(["TH 2H", "KS QS"], variants="6", phase="command")
    state.commander = 0
    ENGINE.apply(state, 0, "call")
    assert state.last_result is not None and state.last_result.zilched == [1]
    assert state.scores[0] == 12 * 2 + 10


def test_v7_two_value_dice() -> None:
    for seed in range(20):
        state = ENGINE.new_game(FluxConfig(variants="2,7"), 2, seed)
        d20, d10 = state.target_dice
        assert 1 <= d20 <= 20 and 0 <= d10 <= 9 and state.target == d20 + d10


def test_v8_the_game_stops_at_121() -> None:
    state = make_state(["9H 2D KS", "AS 4C 7D"], variants="8", script=[2])
    state.scores = [0, 120]
    events = play_round(state, ["AS", "9H"])
    assert state.phase == "over" and state.scores[1] == 121
    over = next(e for e in events if e.kind == "game_over")
    assert over.data["reason"] == "flux-end-limit" and over.data["limit"] == 121


def test_v9_point_dice_after_the_decision_and_used_at_scoring() -> None:
    state = make_state(["TH KS", "9S KD"], variants="9", phase="command", script=[2])
    state.commander, state.tricks_won = 0, 1
    events = ENGINE.apply(state, 0, "call")
    assert any(e.kind == "point_dice" for e in events)
    assert state.phase == "dice" and ENGINE.to_act(state) == {0}
    assert state.exposed == [True, True]  # the hands are shown before the dice are used
    assert ENGINE.legal_actions(state, 0) == ["dice:-2", "dice:0", "dice:+2"]
    ENGINE.apply(state, 0, "dice:+2")
    assert state.last_result is not None
    assert state.last_result.seats[0].value == 12  # 10 plus the die's 2
    assert state.last_result.seats[0].dice == [2] and state.last_result.seats[0].dice_use == 2
    assert state.last_result.bullseye == 10


def test_v9_the_player_chooses_and_the_ai_takes_the_cheaper_value_past_21() -> None:
    # Variants 2 and 7: target 23. Seat 0 calls on 23; seat 1 holds 21 and a point die of 5.
    # Keeping 21 is 2 off but zilched (pays 2 x 2 = 4); adding 5 makes 26, 3 off (pays 3).
    def table():  # type: ignore[no-untyped-def]
        state = make_state(
            ["TH TD 3H KS", "TH TD AH KS"], variants="2,7,9", phase="command", target=23,
            script=[1],
        )  # fmt: skip
        state.commander, state.tricks_won = 0, 1
        state.point_dice[1] = [5]
        ENGINE.apply(state, 0, "call")  # seat 0 is given a point die of 1
        return state

    state = table()
    assert state.phase == "dice" and ENGINE.to_act(state) == {0, 1}
    assert ENGINE.legal_actions(state, 1) == ["dice:-5", "dice:0", "dice:+5"]
    obs = ENGINE.observe(state, 1)
    assert flux_choose(obs, random.Random(0)) == "dice:+5"
    assert flux_choose(ENGINE.observe(state, 0), random.Random(0)) == "dice:0"
    events = ENGINE.apply(state, 1, "dice:0")
    assert [e.kind for e in events] == ["chose"]  # secret until everyone has chosen
    assert (
        ENGINE.observe(state, 1).my_dice_use == 0 and ENGINE.observe(state, 0).my_dice_use is None
    )
    ENGINE.apply(state, 0, "dice:0")
    assert state.last_result is not None and state.last_result.zilched == [1]
    assert state.scores[0] == 2 * 2 + 10  # the zilched 21 pays double, plus the bull's-eye
    state = table()
    ENGINE.apply(state, 1, "dice:+5")
    ENGINE.apply(state, 0, "dice:0")
    assert state.last_result is not None and state.last_result.zilched == []
    assert state.scores[0] == 3 + 10  # 26 is further off but costs less
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(table(), 1, "dice:+4")
    assert error.value.code == "flux-error-dice-offset" and error.value.params["offset"] == 4


def test_v9a_offers_all_or_nothing() -> None:
    state = make_state(["TH KS", "9S KD"], variants="9,9a", phase="command", script=[2])
    state.commander, state.tricks_won = 0, 1
    state.point_dice[0] = [3]
    ENGINE.apply(state, 0, "call")
    assert ENGINE.legal_actions(state, 0) == ["dice:-5", "dice:0", "dice:+5"]


def test_v10_variable_bullseye_and_no_call_after_flux() -> None:
    state = ENGINE.new_game(FluxConfig(variants="10"), 2, 4)
    assert state.bullseye_bonus % 10 == 0 and 10 <= state.bullseye_bonus <= 100
    state = make_state(["9H 2D", "AS 4C"], variants="10", shoe="TH 2D KS KD QH QC JD", script=[6])
    ENGINE._take_command(state, 0)
    assert state.phase == "trick"  # the new hand is on target, but no call is allowed


def test_v11_bonus_die_for_the_chosen_trick() -> None:
    state = make_state(["9H 2D KS", "AS 4C 7D"], variants="11", script=[2])
    state.bonus_trick = (1, 4)
    play_round(state, ["AS", "9H"])
    ENGINE.apply(state, 1, "discard:4C,7D")
    assert state.point_dice[1] == [4]


def test_v12_truco_trick_in_the_engine() -> None:
    state = make_state(["AS 2D", "QC 4C"], variants="12", turnup="5C", script=[2])
    play_round(state, ["QC", "AS"])  # seat 1 leads the Pelico
    assert state.commander == 1


def test_v14_poker_hand_is_chosen_automatically() -> None:
    state = make_state(
        ["AS AH AD KS KH 2C 3C", "QS QH 9D 8S 7H 2D 3D"], variants="14", phase="command"
    )
    state.commander = 0
    ENGINE.apply(state, 0, "call")
    assert state.phase != "poker"
    assert state.last_result is not None and state.last_result.poker_winner == 0


def test_v13_is_accepted_and_plays_as_14() -> None:
    for variants in ("13", "13,14"):
        state = make_state(
            ["AS AH AD KS KH 2C 3C", "QS QH 9D 8S 7H 2D 3D"], variants=variants, phase="command"
        )
        state.commander = 0
        ENGINE.apply(state, 0, "call")
        assert state.phase != "poker"  # the best five were picked for everyone
        assert state.last_result is not None and state.last_result.poker_winner == 0
        assert state.last_result.poker[0] == ["AS", "AH", "AD", "KS", "KH"]


def test_v15_reshuffle_every_hand_and_end_after_two_deals_each() -> None:
    state = ENGINE.new_game(FluxConfig(variants="15,14"), 2, 9)
    _play_out(state)
    assert state.hand_no == 4 and state.end_reason == "flux-end-dealt"
    assert state.end_args == {"deals": 2}
    assert total_cards(state) == 156


def test_v15_length_is_a_table_option() -> None:
    config = ENGINE.parse_config({"variants": "15,14", "deals": 3})
    state = ENGINE.new_game(config, 2, 9)
    _play_out(state)
    assert state.hand_no == 6 and state.end_reason == "flux-end-dealt"
    assert state.end_args == {"deals": 3}
    config = ENGINE.parse_config({"variants": "15,14", "limit": 30})
    assert config.deal_rounds is None and config.score_limit == 30
    state = ENGINE.new_game(config, 3, 9)
    _play_out(state)
    assert state.end_reason == "flux-end-limit" and state.end_args == {"limit": 30}
    assert max(state.scores) >= 30
    both = ENGINE.parse_config({"variants": "8,15", "deals": 1, "limit": 200})
    assert both.deal_rounds == 1 and both.score_limit == 121  # whichever comes first
    with pytest.raises(ConfigError) as error:
        ENGINE.parse_config({"variants": "14", "deals": 3})
    assert error.value.code == "flux-config-length-needs-15"
    with pytest.raises(ConfigError) as error:
        FluxConfig(limit=50)
    assert error.value.code == "flux-config-length-needs-15"


def test_v16_with_2_rerolls_the_d20_and_still_fluxes_on_3_or_18() -> None:
    state = make_state(["9H 2D", "AS 4C"], variants="2,16", script=[14])
    events = ENGINE._take_command(state, 0)
    assert state.target_dice == [14] and state.target == 14 and events[0].kind == "target"
    assert state.phase == "command" and state.discard_range == (0, 7)
    state = make_state(["9H 2D", "AS 4C"], variants="2,7,16", script=[15, 3])
    ENGINE._take_command(state, 0)
    assert state.target == 18 and state.phase in ("trick", "flux")  # a flux
    assert state.scores[0] == 5


def test_v16d_rolls_the_discard_die_after_the_target() -> None:
    state = make_state(["9H 2D KS", "AS 4C 7D"], variants="16,16d", script=[2, 3, 4, 2])
    events = ENGINE._take_command(state, 0)
    assert [e.kind for e in events] == ["target", "discard_die"]
    assert state.target == 9 and state.discard_roll == 2 and state.discard_range == (2, 2)
    state = make_state(["9H 2D KS", "AS 4C 7D"], variants="1,16,16d", script=[2, 3, 4, 2])
    ENGINE._take_command(state, 0)
    assert state.discard_range == (0, 2)  # Variant 1: up to the roll
    state = make_state(["9H 2D", "AS 4C"], variants="16,16d", script=[2, 3, 4, 6])
    events = ENGINE._take_command(state, 0)
    assert [e.kind for e in events][:3] == ["target", "discard_die", "flux"]
    state = make_state(["9H 2D", "AS 4C"], variants="2,16,16d", script=[9, 8])
    assert any(e.kind == "flux" for e in ENGINE._take_command(state, 0))  # D8 under 2
    state = make_state(["9H 2D", "AS 4C"], variants="16,16d", script=[1, 1, 1])
    events = ENGINE._take_command(state, 0)
    assert [e.kind for e in events][:2] == ["target", "flux"]  # no die after a target flux


def test_v1_with_16_alone_changes_nothing() -> None:
    state = make_state(["9H 2D", "AS 4C"], variants="1,16", script=[2, 3, 4])
    ENGINE._take_command(state, 0)
    assert state.discard_range == (0, 7) and state.discard_roll is None


def test_v16_commander_rerolls_the_target() -> None:
    state = make_state(["9H 2D", "AS 4C"], variants="16", script=[2, 3, 4])
    events = ENGINE._take_command(state, 0)
    assert state.target == 9 and state.discard_roll is None and events[0].kind == "target"
    assert state.discard_range == (0, 7)
    state = make_state(["9H 2D", "AS 4C"], variants="16", script=[1, 1, 1])
    assert any(e.kind == "flux" for e in ENGINE._take_command(state, 0))


def test_v17_one_target_for_the_game() -> None:
    state = ENGINE.new_game(FluxConfig(variants="17,14"), 2, 5)
    first = state.target
    targets = set()
    while not ENGINE.is_over(state):
        targets.add(state.target)
        seat = sorted(ENGINE.to_act(state))[0]
        ENGINE.apply(state, seat, flux_choose(ENGINE.observe(state, seat), random.Random(0)))
    assert targets == {first} and state.hand_no >= 2


def test_v18_two_decks_and_fifty_points() -> None:
    state = ENGINE.new_game(FluxConfig(variants="18"), 3, 6)
    assert total_cards(state) == 104
    _play_out(state)
    by_score = state.end_reason == "flux-end-limit" and state.end_args == {"limit": 50}
    assert by_score or state.end_reason in {"flux-end-burned", "flux-end-too-few"}
    assert (max(state.scores) >= 50) == by_score
    one = ENGINE.new_game(FluxConfig(variants="18", decks=1), 2, 6)
    assert total_cards(one) == 52


def test_v19_black_counts_plus() -> None:
    state = make_state(["TS 2S", "9H KD"], variants="19", phase="command")
    state.commander = 0
    ENGINE.apply(state, 0, "call")
    assert state.last_result is not None and state.last_result.seats[0].value == 12


def test_v20_furthest_wins_no_claims_within_five_zilched() -> None:
    state = ENGINE.new_game(FluxConfig(variants="20"), 3, 2)
    assert state.phase == "trick"  # no original hands
    state = make_state(["TS 9S 8S", "9H 2D", "TH 5H"], variants="20", phase="command")
    state.commander = 0  # target 12: -27 (15 off), 11 (1 off), 15 (3 off)
    ENGINE.apply(state, 0, "call")
    assert state.last_result is not None and state.last_result.zilched == [1, 2]
    assert state.scores[0] == (15 - 1) * 2 + (15 - 3) * 2


def test_v20_a_flux_onto_the_target_may_not_call_and_the_rules_page_says_so() -> None:
    state = make_state(["9H 2D", "AS 4C"], variants="20", shoe="TH 2D KS KD QH QC JD", script=[6])
    events = ENGINE._take_command(state, 0)  # the new hand is 12, right on the target
    assert any(e.kind == "flux" for e in events) and state.scores[0] == 5
    assert state.phase == "trick" and state.turn == 0  # no call: the commander leads
    page = (Path(__file__).parents[2] / "docs" / "rules" / "flux.md").read_text("utf-8")
    (line,) = [x for x in page.splitlines() if x.startswith("- **20**")]
    assert "flux that lands right on the target may not call" in line


def test_v21_no_bonuses() -> None:
    state = make_state(
        ["9H 2D KS", "AS 4C 7D"], variants="21", shoe="TH 2D KS KD QH QC JD", script=[6]
    )
    play_round(state, ["AS", "9H"])
    assert state.scores == [0, 0]  # no trick point, no flux points
    state = make_state(["TH 2H", "TS"], variants="21", phase="command")
    state.commander = 1  # undercut by a bull's-eye hand: distance points only
    ENGINE.apply(state, 1, "call")
    assert state.scores == [2, 0]


def test_v22_with_18_plays_fewer_decks_to_the_last_player_standing() -> None:
    state = ENGINE.new_game(FluxConfig(variants="18,22,14"), 3, 8)
    assert total_cards(state) == 104
    state.scores = [60, 0, 0]  # past 18's 50: elimination decides the end instead
    _play_out(state)
    assert sum(state.active) == 1 and total_cards(state) == 104
    assert state.end_reason == "flux-end-last-standing"


def test_v22_elimination_to_the_last_player() -> None:
    state = ENGINE.new_game(FluxConfig(variants="22,14"), 3, 8)
    _play_out(state)
    assert sum(state.active) == 1 and len(state.eliminated) == 2
    outcome = ENGINE.outcome(state)
    assert outcome.winners == [state.active.index(True)]
    assert outcome.ranks[state.eliminated[0]] == 2 and outcome.ranks[state.eliminated[1]] == 1
    assert total_cards(state) == 156
