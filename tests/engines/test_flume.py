"""Flume's rules and rulings, one case each, on hand-built tables."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.engines.base import ConfigError, IllegalAction, InvalidAction
from bot.engines.flume.engine import FlumeConfig, FlumeEngine, FlumeObservation, FlumeState
from bot.engines.flume.rules import (
    card_points,
    flume_deck,
    is_trump,
    legal_plays,
    score_hand,
    suit_of,
    trick_winner,
    trump_order,
)

ENGINE = FlumeEngine()


# --------------------------------------------------------------------------- helpers


def play_state(
    hands: list[list[str]],
    trump: str,
    *,
    bidder: int = 0,
    bid: int = 3,
    dealer: int | None = None,
    scores: list[int] | None = None,
    target: int = 21,
    called: str | None = None,
) -> FlumeState:
    """A table in the middle of the play: the given hands, trumps named, the bid won."""
    n = len(hands)
    state = ENGINE.new_game(FlumeConfig(target=target), n, seed=1)
    dealt = {c for hand in hands for c in hand}
    state.hands = [list(h) for h in hands]
    state.stock = [c for c in flume_deck() if c not in dealt]
    state.dealer = n - 1 if dealer is None else dealer
    state.trump, state.bidder, state.bid = trump, bidder, bid
    state.bids = [0] * n
    state.bids[bidder] = bid
    state.discarded = [0] * n
    state.phase = "play"
    state.leader = state.current = (state.dealer + 1) % n
    if called is not None:
        state.called = called
        state.partner = next((s for s, h in enumerate(hands) if called in h), None)
    if scores is not None:
        state.scores = list(scores)
    return state


def play_cards(state: FlumeState, *codes: str) -> None:
    """Play cards in order, each by whoever is to act."""
    for code in codes:
        (seat,) = ENGINE.to_act(state)
        ENGINE.apply(state, seat, f"play:{code}")


def act(state: FlumeState, *actions: str) -> None:
    for action in actions:
        (seat,) = ENGINE.to_act(state)
        ENGINE.apply(state, seat, action)


# Two tricks that split the seven points 3 (team 0: high, both bowers) to 3 (team 1: low,
# the low joker, game); the high joker is not in play.
SPLIT_HANDS = [["AH", "9S"], ["JD", "JKL"], ["JH", "6S"], ["2H", "TS"]]
SPLIT_PLAY = ("AH", "JD", "JH", "2H", "9S", "JKL", "6S", "TS")


# --------------------------------------------------------------------------- the deck


def test_deck_has_46_cards_and_80_card_points() -> None:
    deck = flume_deck()
    assert len(deck) == len(set(deck)) == 46
    assert not any(c[0] in "34" for c in deck)
    assert {"JKH", "JKL"} <= set(deck)
    assert sum(card_points(c) for c in deck) == 80


@pytest.mark.parametrize("trump", list("SHDC"))
def test_fourteen_trumps_in_order(trump: str) -> None:
    order = trump_order(trump)
    assert len(order) == 14
    assert sum(is_trump(c, trump) for c in flume_deck()) == 14
    same = {"S": "C", "C": "S", "H": "D", "D": "H"}[trump]
    assert order[:5] == [f"A{trump}", f"K{trump}", f"Q{trump}", f"J{trump}", f"J{same}"]
    assert order[-3:] == [f"2{trump}", "JKH", "JKL"]
    # Each trump beats every trump after it.
    for i in range(13):
        assert trick_winner([(0, order[i + 1]), (1, order[i])], trump) == 1
        assert trick_winner([(0, order[i]), (1, order[i + 1])], trump) == 0


def test_trick_winner_trump_beats_led_suit_and_off_suits_never_win() -> None:
    assert trick_winner([(0, "9C"), (1, "AC"), (2, "2H"), (3, "AS")], "H") == 2
    assert trick_winner([(0, "9C"), (1, "KC"), (2, "AD"), (3, "AS")], "H") == 1
    assert trick_winner([(0, "9C"), (1, "JKL"), (2, "AC")], "S") == 1  # a joker is a trump


# --------------------------------------------------------------------------- following suit


def test_left_bower_and_jokers_follow_trump() -> None:
    hand = ["JD", "JKH", "AD", "9C"]
    # Hearts trumps: a heart led must be answered with the left bower or a joker.
    assert sorted(legal_plays(hand, [(0, "5H")], "H")) == ["JD", "JKH"]
    # A diamond led: the jack of diamonds is a heart now, so only the ace follows.
    assert legal_plays(hand, [(0, "7D")], "H") == ["AD"]
    assert suit_of("JD", "H") == "H" and suit_of("JD", "S") == "D"
    # Void in the suit led: anything goes.
    assert sorted(legal_plays(hand, [(0, "7S")], "H")) == sorted(hand)


def test_engine_enforces_following_suit() -> None:
    state = play_state([["5H", "AS"], ["JD", "AD"], ["9C", "8C"], ["6S", "7S"]], "H")
    play_cards(state, "5H")
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, 1, "play:AD")
    assert (refused.value.code, refused.value.params) == (
        "flume-error-follow-suit",
        {"led": "trumps"},
    )
    assert ENGINE.legal_actions(state, 1) == ["play:JD"]
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, 2, "play:9C")
    assert refused.value.code == "flume-error-not-your-turn"
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, 1, "play:KH")
    assert refused.value.code == "flume-error-not-held"
    assert refused.value.params == {"rank": "K", "suit": "H", "symbol": "♥"}
    with pytest.raises(InvalidAction) as invalid:
        ENGINE.apply(state, 1, "play:ZZ")
    assert (invalid.value.code, invalid.value.params) == ("flume-error-not-a-card", {"card": "ZZ"})
    with pytest.raises(InvalidAction) as invalid:
        ENGINE.apply(state, 1, "shuffle")
    assert invalid.value.code == "flume-error-unknown-move"
    assert invalid.value.params == {"move": "shuffle"}
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, 1, "bid:4")
    assert (refused.value.code, refused.value.params) == ("flume-error-not-open", {"phase": "play"})
    ENGINE.apply(state, 1, "play:JD")


# --------------------------------------------------------------------------- the points


def test_low_goes_to_the_player_not_the_trick_and_points_out_of_play_score_nobody() -> None:
    state = play_state([["2H"], ["AH"], ["5C"], ["6C"]], "H", bidder=0, bid=3)
    play_cards(state, "2H", "AH", "5C", "6C")
    last = state.last_hand
    assert last is not None
    assert last.awards["low"] == 0  # seat 0 played the 2 into seat 1's trick
    assert last.awards["high"] == 1
    assert last.awards["game"] == 1  # the ace's 4 card points
    # Bowers and jokers were never dealt: nobody scores them.
    for name in ("right", "left", "joker_high", "joker_low"):
        assert last.awards[name] is None
    # Team 0 took 1 point against a bid of 3: set. Team 1 scores its 2.
    assert not last.made
    assert state.scores == [-3, 2, -3, 2]


def test_high_and_low_pass_to_the_trumps_in_play() -> None:
    result = score_hand(
        [(0, "KS"), (1, "5S"), (2, "9S"), (3, "JKH")],
        [(0, ["KS", "5S", "9S", "JKH"])],
        "S",
        [0, 1, 0, 1],
    )
    assert result.awards["high"] == 0 and result.cards["high"] == "KS"  # no ace in play
    assert result.awards["low"] == 1 and result.cards["low"] == "5S"  # no 2; jokers never low
    assert result.awards["joker_high"] == 0 and result.awards["joker_low"] is None


def test_game_tie_scores_nobody() -> None:
    result = score_hand(
        [(0, "TC"), (1, "TD"), (2, "5C"), (3, "6D")],
        [(0, ["TC", "5C"]), (1, ["TD", "6D"])],
        "S",
        [0, 1, 0, 1],
    )
    assert result.awards["game"] is None
    assert result.card_points == {0: 10, 1: 10, 2: 0, 3: 0}


def test_a_whole_hand_has_seven_points_and_both_bowers_and_jokers_score() -> None:
    state = play_state(SPLIT_HANDS, "H", bidder=0, bid=3)
    play_cards(state, *SPLIT_PLAY)
    last = state.last_hand
    assert last is not None
    assert last.awards == {
        "high": 0,
        "low": 3,
        "right": 0,
        "left": 0,
        "joker_high": None,
        "joker_low": 1,
        "game": 1,
    }
    assert last.made and last.side_points == [3, 3, 3, 3]
    assert state.scores == [3, 3, 3, 3]


def test_a_set_bid_loses_the_bid_and_the_other_side_scores() -> None:
    state = play_state(SPLIT_HANDS, "H", bidder=1, bid=4, scores=[5, 5, 5, 5])
    play_cards(state, *SPLIT_PLAY)
    assert state.last_hand is not None and not state.last_hand.made
    assert state.scores == [8, 1, 8, 1]


# --------------------------------------------------------------------------- winning


@pytest.mark.parametrize(
    ("bidder", "scores", "winners"),
    [
        (0, [19, 19, 19, 19], [0, 2]),  # both reach 22: the bidding side wins the tie
        (1, [19, 19, 19, 19], [1, 3]),
        (1, [20, 19, 20, 19], [0, 2]),  # 23 against 22: the higher wins
        (0, [17, 19, 17, 19], [1, 3]),  # only one side gets there
    ],
)
def test_both_sides_past_the_target(bidder: int, scores: list[int], winners: list[int]) -> None:
    state = play_state(SPLIT_HANDS, "H", bidder=bidder, bid=3, scores=scores)
    play_cards(state, *SPLIT_PLAY)
    assert ENGINE.is_over(state)
    assert state.winners == winners
    outcome = ENGINE.outcome(state)
    assert outcome.winners == winners
    assert all(outcome.ranks[w] == 0 for w in winners)
    assert all(outcome.ranks[s] > 0 for s in range(4) if s not in winners)


def test_under_the_target_the_deal_passes_left() -> None:
    state = play_state(SPLIT_HANDS, "H", dealer=3)
    hand_no = state.hand_no
    play_cards(state, *SPLIT_PLAY)
    assert state.phase == "bid" and state.dealer == 0 and state.current == 1
    assert state.hand_no == hand_no + 1
    assert all(len(h) == 6 for h in state.hands)


# --------------------------------------------------------------------------- bid, trump, discards


def test_bidding_round_and_redeal_when_everyone_passes() -> None:
    state = ENGINE.new_game(FlumeConfig(), 4, seed=5)
    assert state.dealer == 3 and ENGINE.to_act(state) == {0}
    before = [list(h) for h in state.hands]
    act(state, "pass", "pass", "pass")
    events = ENGINE.apply(state, 3, "pass")
    assert [e.kind for e in events] == ["pass", "redeal"]
    assert state.dealer == 3 and state.phase == "bid" and state.current == 0
    assert state.hand_no == 1 and state.hands != before
    act(state, "bid:3")
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, 1, "bid:3")
    assert refused.value.code == "flume-error-bid-higher"
    assert refused.value.params == {"bid": 3, "can_raise": True}
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, 1, "bid:7")
    assert refused.value.code == "flume-error-bid-range"
    assert refused.value.params == {"low": 3, "high": 6}
    assert ENGINE.legal_actions(state, 1) == ["pass", "bid:4", "bid:5", "bid:6"]
    act(state, "bid:5", "pass", "pass")
    assert state.phase == "trump" and state.current == 1 and state.bid == 5


def test_a_bid_of_six_ends_the_bidding() -> None:
    state = ENGINE.new_game(FlumeConfig(), 4, seed=5)
    act(state, "bid:6")
    assert state.phase == "trump" and state.current == 0


def discard_table(seed: int = 11) -> FlumeState:
    state = ENGINE.new_game(FlumeConfig(), 4, seed=seed)
    act(state, "bid:3", "pass", "pass", "pass")
    return state


def test_discards_are_non_trumps_in_order_dealer_last_and_refilled_at_once() -> None:
    state = discard_table()
    act(state, "trump:S")
    assert state.phase == "discard" and state.current == 0  # the dealer (3) goes last
    order = []
    while state.phase == "discard":
        (seat,) = ENGINE.to_act(state)
        order.append(seat)
        spare = [c for c in state.hands[seat] if not is_trump(c, "S")]
        trumps = [c for c in state.hands[seat] if is_trump(c, "S")]
        if trumps:
            with pytest.raises(IllegalAction) as refused:
                ENGINE.apply(state, seat, f"d:{trumps[0]}")
            assert refused.value.code == "flume-error-discard-trump"
        stock = list(state.stock)
        ENGINE.apply(state, seat, "discard:" + ",".join(spare))
        assert len(state.hands[seat]) == 6
        assert state.hands[seat][-len(spare) :] == stock[: len(spare)] or not spare
        assert state.discards[seat] == spare
    assert order == [0, 1, 2, 3]
    assert state.phase == "play" and state.current == 0


def test_discard_toggles_and_the_stock_limit() -> None:
    state = discard_table()
    act(state, "trump:S")
    seat = state.current
    assert seat is not None
    spare = [c for c in state.hands[seat] if not is_trump(c, "S")]
    assert len(spare) >= 2
    ENGINE.apply(state, seat, f"d:{spare[0]}")
    ENGINE.apply(state, seat, f"d:{spare[1]}")
    ENGINE.apply(state, seat, f"d:{spare[1]}")  # pressed again: kept
    assert state.selected[seat] == [spare[0]]
    assert ENGINE.observe(state, seat).selected == [spare[0]]
    assert ENGINE.observe(state, (seat + 1) % 4).selected == []  # private
    state.stock = state.stock[:1]
    assert f"d:{spare[1]}" not in ENGINE.legal_actions(state, seat)
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, seat, f"d:{spare[1]}")
    assert (refused.value.code, refused.value.params) == ("flume-error-discard-stock", {"stock": 1})
    ENGINE.apply(state, seat, "discard")
    assert state.discards[seat] == [spare[0]] and not state.stock
    # The stock is empty: nobody else is asked to discard.
    assert state.phase == "play"


# --------------------------------------------------------------------------- five players


def five_handed_call(seed: int = 3) -> FlumeState:
    state = ENGINE.new_game(FlumeConfig(), 5, seed=seed)
    act(state, "bid:3", "pass", "pass", "pass", "pass", "trump:H")
    act(state, *["discard"] * 5)
    assert state.phase == "call" and state.current == 0
    return state


def test_five_handed_call_keeps_the_partner_hidden_until_the_card_is_played() -> None:
    state = five_handed_call()
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, 0, f"call:{state.hands[0][0]}")
    assert refused.value.code == "flume-error-call-own"
    holder = 2
    called = state.hands[holder][0]
    act(state, f"call:{called}")
    assert state.partner == holder and state.phase == "play"
    for seat in (None, 0, 1, 3, 4):
        obs = ENGINE.observe(state, seat)
        assert obs.partner is None and not obs.partner_known
        assert str(holder) not in {str(obs.partner)}
    assert ENGINE.observe(state, holder).partner == holder
    # Play on until the called card falls, checking nobody learns earlier.
    while called not in {c for _, c in state.played}:
        (seat,) = ENGINE.to_act(state)
        for viewer in (None, 0, 1, 3, 4):
            assert ENGINE.observe(state, viewer).partner is None
        legal = ENGINE.legal_actions(state, seat)
        move = f"play:{called}" if f"play:{called}" in legal else legal[0]
        ENGINE.apply(state, seat, move)
    assert all(ENGINE.observe(state, v).partner == holder for v in (None, 0, 1, 3, 4))


def test_five_handed_called_card_out_of_play_means_alone_and_each_member_scores() -> None:
    hands = [["AH"], ["KH"], ["5C"], ["6C"], ["7C"]]
    state = play_state(hands, "H", bidder=0, bid=3, dealer=4, called="QH")
    assert state.partner is None  # the queen is in the stock
    play_cards(state, "AH", "KH", "5C", "6C", "7C")
    last = state.last_hand
    assert last is not None and last.partner is None
    # Seat 0 alone: high and game (7 card points) but low goes to seat 1's king: set.
    assert last.awards["high"] == 0 and last.awards["low"] == 1 and last.awards["game"] == 0
    assert not last.made
    assert state.scores == [-3, 1, 1, 1, 1]  # each defender scores the side's point


def test_five_handed_set_bidder_and_partner_each_lose_the_bid() -> None:
    hands = [["2H"], ["AH"], ["5C"], ["6C"], ["7C"]]
    state = play_state(hands, "H", bidder=0, bid=4, dealer=4, called="5C")
    assert state.partner == 2
    play_cards(state, "2H", "AH", "5C", "6C", "7C")
    assert state.scores == [-4, 2, -4, 2, 2]
    assert ENGINE.observe(state, 1).last_hand.partner == 2  # type: ignore[union-attr]


def test_playing_alone() -> None:
    state = five_handed_call()
    act(state, "alone")
    assert state.alone and state.called is None and state.partner is None
    assert ENGINE.observe(state, 3).alone


# --------------------------------------------------------------------------- plumbing


def test_state_round_trips_through_json() -> None:
    state = five_handed_call()
    act(state, f"call:{state.hands[1][0]}")
    copy = ENGINE.load_state(ENGINE.dump_state(state))
    assert copy == state
    assert ENGINE.observe(copy, 1) == ENGINE.observe(state, 1)


def test_observation_hides_other_hands() -> None:
    state = ENGINE.new_game(FlumeConfig(), 4, seed=9)
    public = ENGINE.observe(state, None)
    assert public.hand == [] and public.legal == []
    assert public.hand_sizes == [6, 6, 6, 6] and public.stock_count == 22
    mine: FlumeObservation = ENGINE.observe(state, 2)
    assert sorted(mine.hand) == sorted(state.hands[2])
    others = Counter(c for s in (0, 1, 3) for c in state.hands[s])
    assert not set(others) & set(mine.model_dump_json().replace('"', " ").split())


def test_player_counts() -> None:
    with pytest.raises(ConfigError) as refused:
        ENGINE.new_game(FlumeConfig(), 3, seed=1)
    assert refused.value.code == "error-player-count"
    assert (refused.value.params["low"], refused.value.params["high"]) == (4, 5)
    with pytest.raises(Exception, match="target"):
        ENGINE.parse_config({"target": 2})


# --------------------------------------------------------------------------- events as data


def test_events_are_data_with_no_text() -> None:
    state = play_state(SPLIT_HANDS, "H", bidder=0, bid=3, scores=[19, 19, 19, 19])
    events = []
    for code in SPLIT_PLAY:
        (seat,) = ENGINE.to_act(state)
        events += ENGINE.apply(state, seat, f"play:{code}")
    assert not any(e.text for e in events)
    assert [e.kind for e in events].count("play") == 8
    tricks = [e for e in events if e.kind == "trick"]
    assert [(e.seat, e.data) for e in tricks] == [
        (0, {"winner": 0, "cards": ["AH", "JD", "JH", "2H"]}),
        (1, {"winner": 1, "cards": ["9S", "JKL", "6S", "TS"]}),
    ]
    (hand,) = [e for e in events if e.kind == "hand"]
    assert hand.seat == 0
    assert {k: hand.data[k] for k in ("hand", "bid", "made")} == {
        "hand": state.hand_no,
        "bid": 3,
        "made": True,
    }
    assert hand.data["awards"]["low"] == 3 and hand.data["awards"]["joker_high"] is None
    (over,) = [e for e in events if e.kind == "game_over"]
    assert over.seat is None
    assert over.data == {"winners": [0, 2], "scores": [22, 22, 22, 22]}


def test_partner_events_name_the_bidder() -> None:
    hands = [["2H"], ["AH"], ["5C"], ["6C"], ["7C"]]
    state = play_state(hands, "H", bidder=0, bid=4, dealer=4, called="5C")
    events = []
    for code in ("2H", "AH", "5C"):
        (seat,) = ENGINE.to_act(state)
        events += ENGINE.apply(state, seat, f"play:{code}")
    (partner,) = [e for e in events if e.kind == "partner"]
    assert (partner.seat, partner.data) == (2, {"partner": 2, "bidder": 0})
    state = play_state([["AH"], ["KH"], ["5C"], ["6C"], ["7C"]], "H", dealer=4, called="QH")
    events = []
    for code in ("AH", "KH", "5C", "6C", "7C"):
        (seat,) = ENGINE.to_act(state)
        events += ENGINE.apply(state, seat, f"play:{code}")
    (alone,) = [e for e in events if e.kind == "partner"]
    assert (alone.seat, alone.data) == (0, {"partner": None, "bidder": 0})


def test_bidding_discard_and_call_events() -> None:
    state = ENGINE.new_game(FlumeConfig(), 5, seed=3)
    seen = []
    for action in ("bid:3", "pass", "pass", "pass", "pass", "trump:H"):
        (seat,) = ENGINE.to_act(state)
        seen += [(e.kind, e.seat, e.data) for e in ENGINE.apply(state, seat, action)]
    assert seen == [
        ("bid", 0, {"bid": 3}),
        ("pass", 1, {}),
        ("pass", 2, {}),
        ("pass", 3, {}),
        ("pass", 4, {}),
        ("bid_won", 0, {"bid": 3}),
        ("trump", 0, {"trump": "H"}),
    ]
    (discard,) = ENGINE.apply(state, 0, "discard")
    assert (discard.kind, discard.seat, discard.data) == ("discard", 0, {"count": 0})


def test_outcome_before_the_end_is_refused_by_code() -> None:
    state = ENGINE.new_game(FlumeConfig(), 4, seed=1)
    with pytest.raises(IllegalAction) as refused:
        ENGINE.outcome(state)
    assert refused.value.code == "flume-error-not-over"
