"""Seeded Flux self-play across variants, with invariants checked after every move."""

from __future__ import annotations

import random

import pytest

from bot.engines.base import Event
from bot.engines.flux import FluxConfig, FluxEngine, FluxState
from tests.engines.test_flux import CARD_LABEL, total_cards

ENGINE = FluxEngine()
MAX_MOVES = 6000
SETS = [
    ("", 24),
    ("1,3,5,6,9,11", 8),
    ("2,7,8,10,12", 8),
    ("9,9a,19,4", 6),
    ("16,20", 6),
    ("14,15,17,21", 6),
    ("18,12", 6),
    ("22", 6),
]


def points_in(events: list[Event], n: int) -> list[int]:
    """The score changes the events announce, seat by seat."""
    delta = [0] * n
    for e in events:
        if e.kind in ("trick", "flux", "original") and e.seat is not None:
            delta[e.seat] += e.data["points"]
        elif e.kind == "settle":
            for seat, pts in e.data["points"].items():
                delta[int(seat)] += pts
        elif e.kind == "poker" and e.data["winner"] is not None:
            delta[e.data["winner"]] += e.data["points"]
    return delta


def check_observations(state: FluxState) -> None:
    for seat in range(state.n_players):
        obs = ENGINE.observe(state, seat)
        assert obs.hand == state.hands[seat]
        assert obs.selected == state.selected[seat]
        for other in range(state.n_players):
            if state.exposed[other]:
                assert obs.shown[other] == state.hands[other]
            else:
                assert obs.shown[other] is None
        dumped = obs.model_dump_json()
        for other in range(state.n_players):
            if other != seat and not state.exposed[other] and state.hands[other]:
                assert str(state.hands[other]) not in dumped
        assert obs.my_dice_use == (state.dice_use[seat] if state.dice_use else None)
    spectator = ENGINE.observe(state, None)
    assert spectator.hand == [] and spectator.my_claim is None and spectator.my_poker is None
    assert spectator.my_dice_use is None


def choose(state: FluxState, seat: int, rng: random.Random) -> str:
    if seat % 2 == 0:
        return ENGINE.ai_action(ENGINE.observe(state, seat), rng)
    legal = ENGINE.legal_actions(state, seat)
    if rng.random() < 0.2:
        return rng.choice(legal)  # toggles included
    return rng.choice(ENGINE.move_options(state, seat))


def run_game(variants: str, seed: int) -> FluxState:
    rng = random.Random(seed)
    n = 2 + seed % 5
    state = ENGINE.new_game(FluxConfig(variants=variants), n, seed)
    cards = 52 * state.config.deck_count
    for _ in range(MAX_MOVES):
        assert total_cards(state) == cards
        if ENGINE.is_over(state):
            ENGINE.outcome(state)
            assert ENGINE.to_act(state) == frozenset()
            return state
        acting = sorted(ENGINE.to_act(state))
        assert acting, state.phase
        seat = rng.choice(acting)
        phase, hand_no = state.phase, state.hand_no
        before = list(state.scores)
        events = ENGINE.apply(state, seat, choose(state, seat, rng))
        gained = [a - b for a, b in zip(state.scores, before, strict=True)]
        assert gained == points_in(events, n)
        assert all(g >= 0 for g in gained)
        still = state.phase == phase and state.hand_no == hand_no and ENGINE.to_act(state)
        if phase in ("claim", "poker", "dice") and still:  # a secret choice: nothing revealed yet
            assert all(not CARD_LABEL.search(e.text) for e in events)
        if rng.random() < 0.1:
            check_observations(state)
            assert ENGINE.load_state(ENGINE.dump_state(state)) == state
    raise AssertionError(f"game {variants!r}/{seed} did not end")


@pytest.mark.parametrize(("variants", "games"), SETS)
def test_self_play_invariants(variants: str, games: int) -> None:
    hands = 0
    for seed in range(games):
        state = run_game(variants, seed)
        hands += state.hand_no
    assert hands >= games
