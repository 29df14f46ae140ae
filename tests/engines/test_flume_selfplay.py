"""Seeded self-play of thousands of Flume hands, checking invariants after every move."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from bot.engines.flume.ai import choose_action, greedy_action, random_action
from bot.engines.flume.engine import FlumeConfig, FlumeEngine, FlumeObservation, FlumeState
from bot.engines.flume.rules import POINT_NAMES, flume_deck

ENGINE = FlumeEngine()
DECK = Counter(flume_deck())
Player = Callable[[FlumeObservation, random.Random], str]
PLAYERS: tuple[Player, ...] = (choose_action, greedy_action, random_action)
# Whole games to a target of 21, with mixed AI, greedy and random seats: about 800 hands
# four-handed and 600 five-handed.
GAMES = {4: 75, 5: 130}
MIN_HANDS = {4: 750, 5: 500}


def accounted(state: FlumeState) -> Counter[str]:
    """Every card in a hand, the stock, a discard pile or played this hand."""
    cards: Counter[str] = Counter(state.stock)
    for hand in state.hands:
        cards.update(hand)
    for pile in state.discards:
        cards.update(pile)
    cards.update(c for _, c in state.played)
    return cards


def named_cards(obs: FlumeObservation) -> set[str]:
    """Every card an observation names, outside its legal moves, the (public) called card
    and the last hand's summary (whose cards belong to the previous deal)."""
    named = set(obs.hand) | set(obs.selected) | set(obs.my_discards)
    named |= {c for _, c in obs.trick} | {c for _, c in obs.played}
    named |= {c for t in obs.tricks for _, c in t.plays}
    named |= {
        c for pile in (obs.revealed_hands or []) + (obs.revealed_discards or []) for c in pile
    }
    named |= set(obs.revealed_stock or [])  # only ever filled by revealed(), never observe()
    return named


CARD_FIELDS = {"hand", "selected", "my_discards", "trick", "played", "tricks"}
CARD_FIELDS |= {"revealed_hands", "revealed_discards", "revealed_stock"}
OTHER_STRINGS = {"phase", "trump", "called", "last_hand", "legal"}


def test_named_cards_covers_every_field_that_can_hold_a_card() -> None:
    """If the observation grows a field, the privacy check below must learn about it."""
    fields = FlumeObservation.model_fields
    typed = {name for name, f in fields.items() if "str" in str(f.annotation)}
    assert typed <= CARD_FIELDS | OTHER_STRINGS, typed - CARD_FIELDS - OTHER_STRINGS


def secret_leaks(state: FlumeState, viewer: int | None) -> set[str]:
    """Cards hidden from ``viewer`` (other hands, the stock, others' discards) that its
    observation names."""
    named = named_cards(ENGINE.observe(state, viewer))
    hidden = {c for s, hand in enumerate(state.hands) if s != viewer for c in hand}
    hidden |= set(state.stock)
    hidden |= {c for s, pile in enumerate(state.discards) if s != viewer for c in pile}
    return named & hidden


def check(state: FlumeState, viewer: int | None) -> None:
    """The invariants between two moves; the privacy check looks through ``viewer``'s eyes."""
    assert accounted(state) == DECK
    n = state.n_players
    if state.phase == "over":
        assert state.winners and ENGINE.to_act(state) == frozenset()
        return
    (seat,) = ENGINE.to_act(state)
    assert ENGINE.legal_actions(state, seat)
    for other in range(n):
        if other != seat:
            assert ENGINE.legal_actions(state, other) == []
    if state.phase == "play":
        played_now = {s for s, _ in state.trick}
        tricks_done = len(state.tricks)
        for s, hand in enumerate(state.hands):
            assert len(hand) == 6 - tricks_done - (s in played_now)
    else:
        assert all(len(h) == 6 for h in state.hands)
    assert not secret_leaks(state, viewer), viewer
    partner_public = ENGINE.observe(state, None).partner
    assert partner_public is None or state.partner_known


def check_hand(state: FlumeState, before: list[int]) -> None:
    last = state.last_hand
    assert last is not None
    awarded = [name for name in POINT_NAMES if last.awards[name] is not None]
    assert len(awarded) <= 7
    assert max(last.side_points) <= 7
    n = state.n_players
    bidding = {last.bidder, last.partner} if n == 5 else {last.bidder % 2, last.bidder % 2 + 2}
    sides = [0 if seat in bidding else 1 for seat in range(n)]
    assert [b + d for b, d in zip(before, last.deltas, strict=True)] == state.scores
    for seat, delta in enumerate(last.deltas):
        if sides[seat] == sides[last.bidder] and not last.made:
            assert delta == -last.bid
        else:
            assert 0 <= delta <= 7


def run_game(seed: int, n: int) -> tuple[FlumeState, int]:
    rng = random.Random(seed)
    players = [rng.choice(PLAYERS) for _ in range(n)]
    state = ENGINE.new_game(FlumeConfig(), n, seed)
    hands = 0
    moves = 0
    viewers = (None, *range(n))
    while not ENGINE.is_over(state):
        check(state, viewers[moves % len(viewers)])
        (seat,) = ENGINE.to_act(state)
        obs = ENGINE.observe(state, seat)
        move = players[seat](obs, rng)
        hand_before, scores_before = state.hand_no, list(state.scores)
        ENGINE.apply(state, seat, move)
        moves += 1
        if state.hand_no != hand_before or ENGINE.is_over(state):
            hands += 1
            check_hand(state, scores_before)
        if moves % 97 == 0:
            state = ENGINE.load_state(ENGINE.dump_state(state))
        assert moves < 20_000
    check(state, None)
    return state, hands


@pytest.mark.parametrize("n", [4, 5])
def test_self_play_keeps_every_invariant(n: int) -> None:
    total_hands = 0
    winners: Counter[int] = Counter()
    for game in range(GAMES[n]):
        state, hands = run_game(1000 * n + game, n)
        total_hands += hands
        outcome = ENGINE.outcome(state)
        assert outcome.winners == state.winners
        assert max(state.scores[w] for w in state.winners) >= state.config.target
        winners.update(state.winners)
    assert total_hands >= MIN_HANDS[n]
    assert len(winners) == n  # every seat wins some games


def test_self_play_is_reproducible() -> None:
    first, _ = run_game(77, 5)
    second, _ = run_game(77, 5)
    assert first == second
