"""After the game: every engine's "everything revealed" view and its count of secret deals.

Seeded self-play of each game by its AI; at every step the revealed view holds every secret
of the state (and the spectator's view still holds none of them), and the deal count only
grows, the last deal being one where cards were really dealt.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from bot.engines.base import Engine
from bot.engines.fingers import ai as fingers_ai
from bot.engines.fingers.engine import FingersConfig, FingersEngine
from bot.engines.flume import ai as flume_ai
from bot.engines.flume.engine import FlumeConfig, FlumeEngine, hand_order
from bot.engines.flux import ai as flux_ai
from bot.engines.flux.engine import FluxConfig, FluxEngine
from bot.engines.qdice import ai as qdice_ai
from bot.engines.qdice.engine import QDiceConfig, QDiceEngine
from bot.engines.qpoker import ai as qpoker_ai
from bot.engines.qpoker.engine import QPokerConfig, QPokerEngine

Chooser = Callable[[Any, random.Random], str]


def play(
    engine: Engine[Any, Any, Any], config: Any, n: int, seed: int, choose: Chooser
) -> list[Any]:
    """Every state of one seeded game, from the deal to the end (copies)."""
    state = engine.new_game(config, n, seed)
    rng = random.Random(seed)
    states = [state.model_copy(deep=True)]
    while not engine.is_over(state):
        seat = min(engine.to_act(state))
        engine.apply(state, seat, choose(engine.observe(state, seat), rng))
        states.append(state.model_copy(deep=True))
    return states


def check_deals(
    engine: Engine[Any, Any, Any], states: list[Any], holds: Callable[[Any], bool]
) -> None:
    deals = [engine.deal_of(s) for s in states]
    assert all(d is not None for d in deals)
    assert deals == sorted(deals) and deals[-1] > deals[0]
    first_of_last = next(s for s in states if engine.deal_of(s) == deals[-1])
    assert holds(first_of_last), "the last deal dealt nobody anything"


@pytest.mark.parametrize("seed", range(4))
def test_flux_reveals_every_hand(seed: int) -> None:
    engine = FluxEngine()
    states = play(engine, FluxConfig(), 3 + seed % 2, seed, flux_ai.choose_action)
    for state in states:
        shown = engine.revealed(state).shown
        assert shown == state.hands
        public = engine.observe(state, None)
        for seat, hand in enumerate(state.hands):
            assert public.shown[seat] is None or state.exposed[seat]
            assert public.hand == [] and (public.shown[seat] in (None, hand))
    check_deals(engine, states, lambda s: any(s.hands))


@pytest.mark.parametrize(("seed", "n"), [(1, 4), (2, 5), (3, 5)])
def test_flume_reveals_hands_discards_stock_and_the_partner(seed: int, n: int) -> None:
    engine = FlumeEngine()
    states = play(engine, FlumeConfig(target=7), n, seed, flume_ai.choose_action)
    hidden_partner = False
    for state in states:
        obs = engine.revealed(state)
        assert obs.revealed_hands == [hand_order(h, state.trump) for h in state.hands]
        assert obs.revealed_discards == state.discards
        assert obs.revealed_stock == state.stock
        public = engine.observe(state, None)
        assert public.revealed_hands is None and public.revealed_discards is None
        assert public.revealed_stock is None and public.hand == []
        if state.partner is not None:
            assert obs.partner == state.partner and obs.partner_known
            if not state.partner_known:
                hidden_partner = True
                assert public.partner is None
    assert n == 4 or hidden_partner, "no called partner was ever secret in this game"
    check_deals(engine, states, lambda s: any(s.hands))


@pytest.mark.parametrize("seed", range(3))
def test_qpoker_reveals_every_qubit_but_superpositions(seed: int) -> None:
    engine = QPokerEngine()
    states = play(engine, QPokerConfig(rounds=3), 3, seed, qpoker_ai.choose_action)
    face_down = 0
    for state in states:
        obs = engine.revealed(state)
        public = engine.observe(state, None)
        for seat, row in enumerate(state.qubits):
            for qubit, seen, spectator in zip(
                row, obs.qubits[seat], public.qubits[seat], strict=True
            ):
                assert seen.value == (None if qubit.superposed else qubit.value)
                if not qubit.shown and not qubit.superposed:
                    face_down += 1
                    assert spectator.value is None
    assert face_down > 0
    check_deals(engine, states, lambda s: any(s.qubits))


def test_games_with_nothing_hidden_reveal_the_public_table() -> None:
    dice = QDiceEngine()
    for state in play(dice, QDiceConfig(target=1000), 2, 5, qdice_ai.choose_action):
        assert dice.revealed(state) == dice.observe(state, None)
        assert dice.deal_of(state) is None
    fingers = FingersEngine()
    for state in play(fingers, FingersConfig(), 3, 5, fingers_ai.choose_action):
        assert fingers.revealed(state) == fingers.observe(state, None)
        assert fingers.deal_of(state) is None
