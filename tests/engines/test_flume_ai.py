"""The Flume AI's judgement in hand-built spots, and a small seeded match."""

from __future__ import annotations

import random

from bot.engines.flume.ai import (
    best_trump,
    choose_action,
    estimate,
    friends,
    greedy_action,
    random_action,
)
from bot.engines.flume.engine import FlumeConfig
from tests.engines.test_flume import ENGINE, act, play_cards, play_state

RNG = random.Random(0)

STRONG = ["AH", "JH", "JD", "2H", "KH", "JKH"]
WEAK = ["5C", "7S", "9D", "6C", "8S", "2D"]


def test_bids_from_an_estimate_and_names_its_best_suit() -> None:
    assert estimate(STRONG, "H", 4) >= 5 > estimate(WEAK, "H", 4)
    assert best_trump(STRONG, 4)[0] == "H"
    state = ENGINE.new_game(FlumeConfig(), 4, seed=2)
    state.hands[0] = list(STRONG)
    state.hands[1] = list(WEAK)
    assert choose_action(ENGINE.observe(state, 0), RNG) == "bid:3"
    act(state, "bid:3")
    assert choose_action(ENGINE.observe(state, 1), RNG) == "pass"
    act(state, "pass", "pass", "pass")
    assert choose_action(ENGINE.observe(state, 0), RNG) == "trump:H"


def test_discards_non_trumps_but_keeps_off_suit_aces() -> None:
    state = ENGINE.new_game(FlumeConfig(), 4, seed=2)
    state.hands[0] = ["AH", "2H", "AS", "9S", "TC", "5D"]
    act(state, "bid:3", "pass", "pass", "pass", "trump:H")
    move = choose_action(ENGINE.observe(state, 0), RNG)
    verb, _, cards = move.partition(":")
    assert verb == "discard" and sorted(cards.split(",")) == ["5D", "9S", "TC"]
    ENGINE.apply(state, 0, move)


def test_wins_as_cheaply_as_it_can() -> None:
    hands = [["TC", "8D"], ["9C", "8S"], ["KC", "9S"], ["AH", "5H"]]
    state = play_state(hands, "H")
    play_cards(state, "TC", "9C", "KC")
    assert choose_action(ENGINE.observe(state, 3), RNG) == "play:5H"


def test_throws_a_ten_to_a_partner_who_is_winning() -> None:
    hands = [["5H", "8D"], ["AH", "8S"], ["7H", "9S"], ["TS", "6S"]]
    state = play_state(hands, "H")
    play_cards(state, "5H", "AH", "7H")
    assert choose_action(ENGINE.observe(state, 3), RNG) == "play:TS"


def test_keeps_its_ten_when_an_opponent_is_winning() -> None:
    hands = [["AH", "8D"], ["5H", "8S"], ["7H", "9S"], ["TS", "6S"]]
    state = play_state(hands, "H")
    play_cards(state, "AH", "5H", "7H")
    assert choose_action(ENGINE.observe(state, 3), RNG) == "play:6S"


def test_takes_low_home_by_playing_the_two_under_a_trick_it_cannot_win() -> None:
    hands = [["AH", "8D"], ["2H", "KH"], ["7S", "9S"], ["6S", "5S"]]
    state = play_state(hands, "H")
    play_cards(state, "AH")
    assert choose_action(ENGINE.observe(state, 1), RNG) == "play:2H"
    play_cards(state, "2H", "7S", "6S", "8D", "KH", "9S", "5S")
    assert state.last_hand is not None and state.last_hand.awards["low"] == 1


def test_leads_a_trump_nobody_can_beat() -> None:
    hands = [["AH", "5C"], ["8D", "8S"], ["7S", "9S"], ["6S", "5S"]]
    state = play_state(hands, "H")
    assert choose_action(ENGINE.observe(state, 0), RNG) == "play:AH"


def test_five_handed_ai_does_not_feed_a_partner_it_cannot_know() -> None:
    hands = [["TS", "6S"], ["2D", "8C"], ["AH", "KS"], ["5H", "QS"], ["7H", "9S"]]
    state = play_state(hands, "H", bidder=0, dealer=0, called="AH")
    assert state.partner == 2
    # Seat 1 leads; only the holder of the called ace knows who the partner is.
    play_cards(state, "2D")
    obs = ENGINE.observe(state, 2)
    assert friends(obs) == {0}  # the holder knows it is the bidder's partner
    assert friends(ENGINE.observe(state, 0)) == set()
    # A second table where the partner wins with a card that is not the called one.
    hidden = play_state(
        [["TS", "6S"], ["2D", "8C"], ["KH", "AH"], ["5H", "QS"], ["7H", "9S"]],
        "H",
        bidder=0,
        dealer=0,
        called="AH",
    )
    play_cards(hidden, "2D", "KH", "5H", "7H")
    view = ENGINE.observe(hidden, 0)
    assert view.partner is None and friends(view) == set()
    assert choose_action(view, RNG) == "play:6S"  # no ten for a seat it can't trust
    # Once the called card is out, the bidder feeds its partner.
    revealed = play_state(
        [["TS", "6S"], ["2D", "8C"], ["AH", "KH"], ["5H", "QS"], ["7H", "9S"]],
        "H",
        bidder=0,
        dealer=0,
        called="AH",
    )
    play_cards(revealed, "2D", "AH", "5H", "7H")
    view = ENGINE.observe(revealed, 0)
    assert view.partner == 2 and choose_action(view, RNG) == "play:TS"


def test_the_baselines_make_legal_moves() -> None:
    rng = random.Random(4)
    for player in (random_action, greedy_action):
        state = ENGINE.new_game(FlumeConfig(target=5), 5, seed=8)
        while not ENGINE.is_over(state):
            (seat,) = ENGINE.to_act(state)
            ENGINE.apply(state, seat, player(ENGINE.observe(state, seat), rng))


def test_an_ai_team_beats_the_greedy_team_in_a_small_seeded_match() -> None:
    wins = 0
    games = 12
    for game in range(games):
        ai_team = game % 2
        players = [choose_action if s % 2 == ai_team else greedy_action for s in range(4)]
        state = ENGINE.new_game(FlumeConfig(), 4, seed=500 + game)
        rng = random.Random(game)
        while not ENGINE.is_over(state):
            (seat,) = ENGINE.to_act(state)
            ENGINE.apply(state, seat, players[seat](ENGINE.observe(state, seat), rng))
        wins += state.winners[0] % 2 == ai_team
    assert wins >= 9, wins
