"""Flux engine: the basic game step by step on scripted tables, and the seed's example."""

from __future__ import annotations

import json
import random
import re

import pytest

from bot.engines.base import ConfigError, Event, IllegalAction, InvalidAction, Rng
from bot.engines.cards import standard_deck
from bot.engines.flux.ai import choose_action as flux_choose
from bot.engines.flux.engine import FluxConfig, FluxEngine, FluxState
from bot.engines.poker import best_five

ENGINE = FluxEngine()
CARD_CODE = re.compile(r"\b[2-9TJQKA][SHDC]\b")


def shows_cards(event: Event) -> bool:
    """Whether an event's data names any card (a secret choice must not)."""
    return bool(CARD_CODE.search(json.dumps(event.data)))


class ScriptedRng(Rng):
    """An Rng whose integer draws (dice, cut-off rolls) come from a script first."""

    script: list[int] = []

    def randint(self, low: int, high: int) -> int:
        if self.script:
            value = self.script.pop(0)
            assert low <= value <= high, (value, low, high)
            self.calls += 1
            return value
        return super().randint(low, high)

    def dice(self, count: int, sides: int = 6) -> list[int]:
        return [self.randint(1, sides) for _ in range(count)]


def make_state(
    hands: list[str],
    *,
    target: int = 12,
    turnup: str = "2C",
    variants: str = "",
    dealer: int = 0,
    shoe: str = "",
    script: list[int] | None = None,
    phase: str = "trick",
) -> FluxState:
    """A hand in progress: ``hands`` as space-separated codes per seat, the shoe on top.

    Every other card of the decks goes to ``out`` so all cards stay accounted for.
    """
    n = len(hands)
    state = ENGINE.new_game(FluxConfig(variants=variants), n, 1)
    state.hands = [h.split() for h in hands]
    top = shoe.split()
    pool = [c for _ in range(state.config.deck_count) for c in standard_deck()]
    for code in [c for h in state.hands for c in h] + top + [turnup]:
        pool.remove(code)
    state.burned, pool = pool[:10], pool[10:]
    filler = pool[: max(0, 60 - len(top))]
    state.shoe = top + filler
    state.out = pool[len(filler) :]
    state.turnup = turnup
    state.target, state.target_dice = target, []
    state.dealer = dealer
    state.phase = phase  # type: ignore[assignment]
    state.leader = (dealer + 1) % n
    state.turn = state.leader
    state.claims = [None if phase == "claim" else False] * n
    state.rng = ScriptedRng(seed=5, script=list(script or []))
    return state


def total_cards(state: FluxState) -> int:
    return (
        sum(len(h) for h in state.hands)
        + len(state.shoe)
        + len(state.burned)
        + len(state.out)
        + len(state.trick)
        + (state.turnup is not None)
    )


def play_round(state: FluxState, cards: list[str]) -> list[Event]:
    """Each seat from the turn plays the given card; returns the events."""
    events: list[Event] = []
    for code in cards:
        (seat,) = ENGINE.to_act(state)
        events += ENGINE.apply(state, seat, f"p:{code}")
    return events


# --- setup --------------------------------------------------------------------------------


def test_new_game_deals_seven_each_burns_ten_and_rolls_a_target() -> None:
    state = ENGINE.new_game(FluxConfig(), 4, 7)
    assert [len(h) for h in state.hands] == [7] * 4
    assert len(state.burned) == 10 and state.turnup is not None
    assert len(state.shoe) == 156 - 10 - 28 - 1
    assert total_cards(state) == 156
    assert 3 <= state.target <= 18 and len(state.target_dice) == 3
    assert state.target == sum(state.target_dice)
    assert state.phase == "claim" and ENGINE.to_act(state) == {0, 1, 2, 3}


def test_cut_for_the_deal_lowest_card_deals_and_identical_cards_are_ignored() -> None:
    state = ENGINE.new_game(FluxConfig(), 3, 1)
    state.shoe = ["2C", "2C", "5H", *state.shoe[3:]]

    class NoShuffle(Rng):
        def shuffle(self, items):  # type: ignore[no-untyped-def]
            self.calls += 1

    state.rng = NoShuffle(seed=1)
    events = ENGINE._cut_for_deal(state)
    assert state.dealer == 2  # the two 2♣ cancel; the 5♥ is the lowest left
    assert events[0].kind == "cut" and events[0].seat == 2
    assert events[0].data == {"cuts": ["2C", "2C", "5H"], "dealer": 2}
    state.shoe = ["3S", "3C", "3H", *state.shoe[3:]]
    ENGINE._cut_for_deal(state)
    assert state.dealer == 1  # equal ranks: clubs is the lowest suit


def test_player_counts_and_bad_options_are_refused() -> None:
    with pytest.raises(ConfigError):
        ENGINE.new_game(FluxConfig(), 7, 1)
    with pytest.raises(ConfigError) as error:
        FluxConfig(decks=2)
    assert error.value.code == "flux-config-few-decks-need-18"
    with pytest.raises(ConfigError) as error:
        ENGINE.new_game(FluxConfig(variants="18", decks=1), 6, 1)
    assert error.value.code == "flux-config-too-few-decks"
    assert error.value.params == {"decks": 1, "players": 6}
    assert FluxConfig(variants="18").deck_count == 2


# --- original hand ------------------------------------------------------------------------


def test_claims_are_secret_until_everyone_has_chosen() -> None:
    # seat 0: 10+2 = 12 on target; seat 1: -(10+2) = -12 also on target; seat 2: off
    state = make_state(
        ["TH 2D KS KH QS QH JD", "TS 2C KD KC QD QC JC", "9H 2D KS KH QS QH JS"],
        phase="claim",
        script=[],
    )
    assert ENGINE.legal_actions(state, 0) == ["claim", "pass"]
    assert ENGINE.legal_actions(state, 2) == ["pass"]
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, 2, "claim")
    assert error.value.code == "flux-error-not-at-target"
    assert error.value.params["target"] == 12 and error.value.params["value"] != 12
    events = ENGINE.apply(state, 0, "claim")
    assert [e.kind for e in events] == ["chose"] and events[0].data == {"what": "claim"}
    spectator = ENGINE.observe(state, None)
    assert spectator.my_claim is None and spectator.answered == [True, False, False]
    assert ENGINE.observe(state, 1).my_claim is None
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, 0, "pass")
    assert error.value.code == "flux-error-already-chosen"
    ENGINE.apply(state, 1, "pass")
    events = ENGINE.apply(state, 2, "pass")
    reveal = next(e for e in events if e.kind == "claims")
    assert reveal.data["claims"] == [0]
    assert state.scores == [15, 0, 0]
    assert state.phase == "poker" and state.exposed == [True, False, False]


def test_claim_tie_break_colour_total_then_face_cards_then_cards() -> None:
    hands = [
        "TH 2D KS KH QS QH JD",  # red 12, black 0; 5 face cards
        "TH 5D 3S KS QH QH JD",  # red 15, black 3 -> 12; best colour total 15
        "9H 2D KD KC QD QC JC",  # 11: off target
    ]
    state = make_state(hands, phase="claim")
    winner, _ = ENGINE._claim_tiebreak(state, [0, 1])
    assert winner == 1
    state = make_state(["TH 2D KS KH QS QH JD", "TH 2D 4S 4S 4H 4H JD"], phase="claim")
    # seat 1: red 10+2+4+4 = 20, black 8 -> 12; seat 0 red 12
    winner, _ = ENGINE._claim_tiebreak(state, [0, 1])
    assert winner == 1
    same = "TH 2D KS KH QS QH JD"
    state = make_state([same, same], phase="claim", shoe="5C 9D")
    winner, events = ENGINE._claim_tiebreak(state, [0, 1])
    assert winner == 1 and events[-1].kind == "claim_draw"  # 5♣ (seat 0) is the lowest
    assert total_cards(state) == 156


def test_claim_tie_break_never_half_draws_when_the_cards_run_out() -> None:
    same = "TH 2D KS KH QS QH JD"
    # three tied claimants, one card left in the shoe and none burned: no round can be dealt
    state = make_state([same, same, same], phase="claim", dealer=1)
    state.out += state.shoe[1:] + state.burned
    state.shoe, state.burned = state.shoe[:1], []
    winner, events = ENGINE._claim_tiebreak(state, [0, 1, 2])
    assert total_cards(state) == 156  # the last card is still in the shoe
    assert len(state.shoe) == 1
    assert winner == 2 and events[-1].kind == "claim_out"  # first from the dealer's left
    # a full round (5♣ to seat 0 drops it), then too few cards for the two left
    state = make_state([same, same, same], phase="claim", dealer=0, shoe="5C 9D 9H")
    state.out += state.shoe[3:] + state.burned
    state.shoe, state.burned = state.shoe[:3], []
    winner, events = ENGINE._claim_tiebreak(state, [0, 1, 2])
    assert [e.kind for e in events] == ["claim_draw", "claim_out"]
    assert winner == 1 and total_cards(state) == 156  # 9♦ and 9♥ tie; seat 1 is first


# --- tricks, command, discards, flux, calls -----------------------------------------------


def test_trick_replacements_winner_point_and_discard_die() -> None:
    state = make_state(
        ["9H 2D KS", "AS 4C 7D", "TD QC 3S"], turnup="5D", shoe="8S 8H 8C", script=[3]
    )
    events = play_round(state, ["AS", "TD", "9H"])  # seat 1 leads (dealer 0)
    assert state.hands[1] == ["8S", "4C", "7D"] or "8S" in state.hands[1]
    assert "8H" in state.hands[2] and "8C" in state.hands[0]
    trick = next(e for e in events if e.kind == "trick")
    assert trick.seat == 2 and trick.data["card"] == "TD"  # the only trump
    assert state.scores == [0, 0, 1] and state.commander == 2
    assert state.phase == "command" and state.discard_roll == 3
    assert state.discard_range == (3, 3)
    assert total_cards(state) == 156


def test_repeated_trump_ranks_cancel_and_a_dead_trick_is_led_again() -> None:
    state = make_state(["9D 2D", "9D 4C", "9D 3S"], turnup="5D", shoe="8S 8H 8C")
    events = play_round(state, ["9D", "9D", "9D"])
    assert any(e.kind == "dead_trick" and e.seat == 1 for e in events)
    assert state.phase == "trick" and state.turn == 1 and state.scores == [0, 0, 0]
    state = make_state(["9D 2D", "9D 4C", "3S 3S"], turnup="5D", shoe="8S 8H 8C", script=[2])
    play_round(state, ["9D", "3S", "9D"])  # seats 1, 2, 0
    assert state.commander == 2  # the trumps cancel; 3♠ is the only other card


def test_discard_exactly_the_roll_then_lead() -> None:
    state = make_state(
        ["9H 2D KS 4H 5H 6H 7H", "AS 4C 7D 2S 3S 4S 5S"],
        phase="command",
        shoe="8S 8H 8C 2H",
        script=[4],
    )
    state.commander, state.discard_range, state.phase = 0, (2, 2), "command"
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, 0, "discard:9H")
    assert error.value.code == "flux-error-discard-count"
    assert error.value.params == {"low": 2, "high": 2, "count": 1}
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, 0, "discard:AS,9H")
    assert error.value.code == "flux-error-not-held" and error.value.params["card"] == "A♠"
    ENGINE.apply(state, 0, "t0")
    ENGINE.apply(state, 0, "t2")
    assert ENGINE.observe(state, 0).selected == [0, 2]
    assert ENGINE.observe(state, 1).selected == []
    assert "discard" in ENGINE.legal_actions(state, 0)
    events = ENGINE.apply(state, 0, "discard")
    assert events[0].kind == "discard" and events[0].data["discarded"] == ["9H", "KS"]
    assert sorted(state.hands[0]) == sorted(["2D", "4H", "5H", "6H", "7H", "8S", "8H"])
    assert state.phase == "trick" and state.turn == 0 and state.commander is None


def test_flux_scores_five_and_a_hand_on_target_may_call_for_twenty() -> None:
    # the new seven cards: 10♥ 2♦ and five face cards = 12 = the target
    state = make_state(
        ["9H 2D KS 4H 5H 6H 7H", "AS 4C 7D 2S 3S 4S 5S"],
        shoe="TH 2D KS KD QH QC JD",
        script=[6],
    )
    events = ENGINE._take_command(state, 0)
    assert any(e.kind == "flux" for e in events)
    assert state.scores[0] == 5 and state.phase == "flux"
    assert sorted(state.hands[0]) == sorted(["TH", "2D", "KS", "KD", "QH", "QC", "JD"])
    assert ENGINE.legal_actions(state, 0) == ["call", "pass"]
    ENGINE.apply(state, 0, "call")
    result = state.last_result
    assert result is not None and result.bullseye == 20
    # seat 1: -1-4+7-2-3-4-5 = -12: also on target, so the caller takes nothing from it
    assert state.scores[0] == 5 + 20


def test_flux_without_target_hand_plays_on() -> None:
    state = make_state(["9H 2D", "AS 4C"], shoe="TH 3D KS KS QH QH JD", script=[6])
    ENGINE._take_command(state, 0)
    assert state.phase == "trick" and state.turn == 0 and state.scores[0] == 5


def test_the_seeds_five_player_example_scores_sixteen() -> None:
    # target 12: caller -14, others -19, 6, 3, -10
    hands = ["TS 4S", "TS 9C", "6H", "3D", "TC"]  # -14, -19, 6, 3, -10
    state = make_state(hands, phase="command")
    state.commander, state.discard_range = 0, (3, 3)
    ENGINE.apply(state, 0, "call")
    assert state.scores == [16, 0, 0, 0, 0]
    assert state.last_result is not None and not state.last_result.undercut
    assert [s.distance for s in state.last_result.seats] == [2, 7, 6, 9, 2]


def test_undercut_pays_the_closer_opponent_plus_five() -> None:
    hands = ["TS 4S", "TH 3H", "9H"]
    state = make_state(hands, phase="command")  # target 12: -14 (2), 13 (1), 9 (3)
    state.commander = 0
    ENGINE.apply(state, 0, "call")
    assert state.scores == [0, (2 - 1) + (3 - 1) + 5, 0]
    assert state.last_result is not None and state.last_result.undercut


def test_zilch_pays_double_and_bullseye_adds_ten() -> None:
    hands = ["TH 2H", "TS TS AS"]  # 12 (0 off), -21 (9 off)
    state = make_state(hands, phase="command")
    state.commander = 0
    ENGINE.apply(state, 0, "call")
    assert state.scores == [9 * 2 + 10, 0]
    assert state.last_result is not None and state.last_result.zilched == [1]


def test_the_score_sheet_says_how_each_value_game_went() -> None:
    # the seeds' example: a call 2 off that nobody beats
    state = make_state(["TS 4S", "TS 9C", "6H", "3D", "TC"], phase="command")
    state.commander = 0
    ENGINE.apply(state, 0, "call")
    line = state.ledger[-1]
    assert line.hand_no == 1 and line.target == 12
    assert line.value == [16, 0, 0, 0, 0] and line.tricks == line.poker == [0] * 5
    assert line.value_story is not None
    assert line.value_story["how"] == "called" and line.value_story["caller"] == 0
    assert (line.value_story["value"], line.value_story["gap"]) == (-14, 2)
    assert line.value_story["target"] == 12 and line.value_story["bullseye"] == 0
    # an undercut names the player who was closer
    state = make_state(["TS 4S", "TH 3H", "9H"], phase="command")
    state.commander = 0
    ENGINE.apply(state, 0, "call")
    line = state.ledger[-1]
    assert line.value == [0, 8, 0]
    assert line.value_story is not None
    assert line.value_story["how"] == "undercut" and line.value_story["winners"] == [1]
    # a bull's-eye and a zilch are both named
    state = make_state(["TH 2H", "TS TS AS"], phase="command")
    state.commander = 0
    ENGINE.apply(state, 0, "call")
    story = state.ledger[-1].value_story
    assert story is not None and story["how"] == "called" and story["value"] == 12
    assert story["bullseye"] == 10 and story["zilched"] == [1]


def test_the_score_sheet_keeps_flux_points_apart() -> None:
    state = make_state(
        ["9H 2D KS 4H 5H 6H 7H", "AS 4C 7D 2S 3S 4S 5S"],
        shoe="TH 2D KS KD QH QC JD",
        script=[6],
    )
    ENGINE._take_command(state, 0)
    ENGINE.apply(state, 0, "call")
    line = state.ledger[-1]
    assert line.fluxes == [5, 0] and line.value == [20, 0] and line.total(0) == state.scores[0]


# --- poker --------------------------------------------------------------------------------


def _to_poker(hands: list[str], turnup: str, variants: str = "") -> FluxState:
    state = make_state(hands, phase="command", turnup=turnup, variants=variants)
    state.commander = 0
    ENGINE.apply(state, 0, "call")
    assert state.phase in ("poker", "claim", "trick", "over")
    return state


def test_poker_choices_are_secret_then_revealed_and_scored_by_the_turn_up() -> None:
    hands = ["AS AH AD KS KH 2C 3C", "QS QH 9D 8S 7H 2D 3D"]
    state = _to_poker(hands, "KD")
    before = list(state.scores)
    assert ENGINE.to_act(state) == {0, 1}
    obs = ENGINE.observe(state, 0)
    assert sorted(obs.selected) == [0, 1, 2, 3, 4] or len(obs.selected) == 5
    events = ENGINE.apply(state, 0, "show:AS,AH,AD,KS,KH")
    assert not any(shows_cards(e) for e in events)
    assert ENGINE.observe(state, 1).my_poker is None
    assert ENGINE.observe(state, 0).my_poker == ["AS", "AH", "AD", "KS", "KH"]
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, 1, "show:QS,QH")
    assert error.value.code == "flux-error-poker-five" and error.value.params == {"count": 2}
    events = ENGINE.apply(state, 1, "show:QS,QH,9D,8S,7H")
    poker = next(e for e in events if e.kind == "poker")
    assert poker.data["winner"] == 0 and poker.data["points"] == 10  # a face turn-up: 10
    assert state.scores[0] == before[0] + 10


def test_used_cards_are_remembered_by_whoever_saw_them_go() -> None:
    state = make_state(
        ["9H 2D KS 4H 5H 6H 7H", "AS 4C 7D 2S 3S 4S 5S"],
        phase="command",
        shoe="8S 8H 8C 2H",
    )
    state.commander, state.discard_range = 0, (2, 2)
    ENGINE.apply(state, 0, "discard:9H,KS")
    for seat in (0, 1, None):  # a discard is shown to the table
        assert sorted(ENGINE.observe(state, seat).seen_out) == ["9H", "KS"]
    play_round(state, ["2D", "AS"])
    assert sorted(ENGINE.observe(state, None).seen_out) == sorted(["9H", "KS", "2D", "AS"])


def test_a_hands_unshown_cards_are_remembered_only_by_their_holder() -> None:
    # seat 0 claims an original hand (shown to all); seat 1's hand is never shown, only the
    # five it shows at poker
    state = make_state(["TH 2D KS KH QS QH JD", "9H 2C KD KC QD QC JC"], phase="claim", turnup="5S")
    ENGINE.apply(state, 0, "claim")
    ENGINE.apply(state, 1, "pass")
    assert state.phase == "poker" and state.exposed == [True, False]
    ENGINE.apply(state, 0, "show:KS,KH,QS,QH,JD")
    ENGINE.apply(state, 1, "show:KD,KC,QD,QC,JC")
    assert state.hand_no == 2 or state.phase == "over"
    public = sorted(ENGINE.observe(state, None).seen_out)
    table = ["TH", "2D", "KS", "KH", "QS", "QH", "JD", "KD", "KC", "QD", "QC", "JC", "5S"]
    assert public == sorted(table)
    assert sorted(ENGINE.observe(state, 0).seen_out) == public
    assert sorted(ENGINE.observe(state, 1).seen_out) == sorted([*public, "9H", "2C"])


def test_tied_poker_hands_cancel_and_variants_4_and_5() -> None:
    hands = ["AS AH 9D 8S 7H 2C 3C", "AD AC 9S 8H 7D 2D 3D", "KS KH 9C 8C 6H 2H 4D"]
    state = _to_poker(hands, "7D")
    before = list(state.scores)
    for seat in (0, 1, 2):
        _, five = best_five(state.hands[seat])
        ENGINE.apply(state, seat, "show:" + ",".join(five))
    assert state.last_result is not None and state.last_result.poker_winner == 2
    assert state.scores[2] == before[2] + 7
    state = _to_poker(["AS AH AD KS KH 2C 3C", "QS QH 9D 8S 7H 2D 3D"], "KD", variants="4,5,14")
    assert state.last_result is not None and state.last_result.poker_winner == 0
    assert state.last_result.poker_points == 1  # worth 0 under 4, plus 5's bonus point


# --- hands, the end, outcome --------------------------------------------------------------


def test_deal_passes_left_and_used_cards_stay_out() -> None:
    state = ENGINE.new_game(FluxConfig(variants="14"), 3, 11)
    dealer, hand_no = state.dealer, state.hand_no
    for seat in sorted(ENGINE.to_act(state)):
        ENGINE.apply(state, seat, "pass")
    shoe_before = len(state.shoe)
    while state.hand_no == hand_no and state.phase != "over":
        (seat,) = ENGINE.to_act(state)
        ENGINE.apply(state, seat, flux_choose(ENGINE.observe(state, seat), random.Random(0)))
    if state.phase != "over":
        assert state.dealer == (dealer + 1) % 3
        assert len(state.shoe) < shoe_before - 21
        assert len(state.out) > 0 and total_cards(state) == 156


def test_the_game_ends_when_the_burned_cards_are_reached() -> None:
    state = make_state(["9H 2D KS", "AS 4C 7D"], shoe="")
    state.shoe = ["8S"]
    play_round(state, ["AS", "9H"])  # seat 1 draws 8♠, seat 0 draws a burned card
    assert state.cutoff_reached
    assert ENGINE._game_end_reason(state) == ("flux-end-burned", {})


def test_running_out_of_every_card_settles_the_hand_at_once() -> None:
    state = make_state(["9H 2D KS", "AS 4C 7D"])
    state.out += state.shoe + state.burned
    state.shoe, state.burned = [], []
    events = [e.kind for e in ENGINE.apply(state, 1, "p:AS")]
    assert "ran_out" in events and state.last_result is not None
    assert state.last_result.kind == "ran out" and not state.last_result.undercut
    assert total_cards(state) == 156


def test_outcome_ignores_tied_top_scores() -> None:
    state = make_state(["9H", "AS", "2C"])
    state.scores = [30, 30, 20]
    state.phase = "over"
    outcome = ENGINE.outcome(state)
    assert outcome.winners == [2] and outcome.ranks[2] == 0
    state.scores = [10, 10, 10]
    assert ENGINE.outcome(state).draw


def test_bad_moves_are_refused_with_sentences() -> None:
    state = make_state(["9H 2D KS", "AS 4C 7D"])
    with pytest.raises(InvalidAction) as error:
        ENGINE.apply(state, 1, "fly away")
    assert error.value.code == "flux-error-unknown-move"
    assert error.value.params == {"move": "fly away"}
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, 0, "p:9H")
    assert error.value.code == "flux-error-not-your-turn"
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, 1, "p:9H")
    assert error.value.code == "flux-error-not-held"
    assert error.value.params == {"card": "9♥", "another": False}
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, 1, "call")
    assert error.value.code == "flux-error-not-now" and error.value.params == {"move": "call"}
    assert all(len(a) <= 80 for a in ENGINE.move_options(state, 1))
