"""Reviews in the hosting core: a seat's review is worked out from that seat's observation
alone (other seats' hidden cards or qubits change nothing), and a person's selections are
folded into the one-step move the AI would write."""

from __future__ import annotations

import random

from bot.engines.base import Rng
from bot.engines.qdice.engine import QDiceConfig
from bot.engines.qpoker import ai as qpoker_ai
from bot.engines.qpoker.engine import QPokerConfig, QPokerState
from bot.games import all_games
from bot.tables.review import Position, entry, normal_form, one_step
from bot.tables.thinking import Thinker

GAMES = all_games()
QPOKER = GAMES["qpoker"]


def _midgame(seed: int) -> tuple[QPokerState, int]:
    engine = QPOKER.engine
    state = engine.new_game(QPokerConfig(), 4, seed)
    rng = random.Random(seed)
    for _ in range(seed + 1):
        (seat,) = engine.to_act(state)
        engine.apply(state, seat, qpoker_ai.choose_action(engine.observe(state, seat), rng))
    (seat,) = engine.to_act(state)
    return state, seat


def _flipped(state: QPokerState, seat: int, seed: int) -> QPokerState:
    """The same position with every qubit the seat can't see reading the other way."""
    other = state.model_copy(deep=True)
    flipped = 0
    for s, row in enumerate(other.qubits):
        for q in row:
            if s != seat and not q.shown and not q.superposed:
                q.value ^= 1
                flipped += 1
    other.rng = Rng(seed=seed + 100)
    assert flipped
    return other


async def test_a_seats_review_ignores_the_others_hidden_qubits() -> None:
    engine = QPOKER.engine
    thinker = Thinker(GAMES.values(), workers=0, budget=10.0)
    compared = 0
    for seed in (1, 2, 3):
        state, seat = _midgame(seed)
        other = _flipped(state, seat, seed)
        assert other.qubits != state.qubits
        observation = engine.observe(state, seat)
        assert engine.observe(other, seat) == observation
        first = await thinker.analyse(QPOKER, observation, "s", budget=10.0)
        assert first is not None
        done = next(m for m in engine.legal_actions(state, seat) if m != first.move)
        names = ["A", "B", "C", "D"]
        entries = []
        for position_state in (state, other):
            seen = engine.observe(position_state, seat)
            position = Position(7, seat, 1, seen, done, ("They did it.",))
            found = await thinker.analyse(QPOKER, seen, "s", also=(done,), budget=10.0)
            assert found is not None
            entries.append(entry(QPOKER, position, found, names))
        assert entries[0] is not None and entries[0] == entries[1]
        assert entries[0].suggested == first.move and entries[0].done == done
        compared += 1
    assert compared == 3


def test_selections_become_the_one_step_move() -> None:
    qdice = GAMES["qdice"].engine
    state = qdice.new_game(QDiceConfig(), 2, 5)
    state.selected = [3, 0, 1]
    assert one_step(state, 0, "roll") == "roll:013"
    assert one_step(state, 0, "bank:31") == "bank:31"
    assert normal_form("bank:31") == normal_form("bank:13") != normal_form("bank:1")
    assert normal_form("discard:TH,AS") == normal_form("discard:AS,TH")
    flux = GAMES["flux"].engine
    cards = flux.new_game(flux.parse_config(None), 3, 9)
    hand = cards.hands[1]
    cards.selected[1] = [2, 0]
    assert one_step(cards, 1, "discard") == f"discard:{hand[2]},{hand[0]}"
    assert one_step(cards, 1, "p:AS") == "p:AS"
