"""A move is tried on a copy of the state (:meth:`Engine.copy_state`, the state through its
JSON): for every game, at every step of seeded random play-outs, the copy equals the state,
plays on exactly as a deep copy would, and leaves the state untouched."""

from __future__ import annotations

import random

import pytest

from bot.engines.base import Engine
from bot.engines.fingers.engine import FingersEngine
from bot.engines.flume.engine import FlumeEngine
from bot.engines.flux.engine import FluxEngine
from bot.engines.qdice.engine import QDiceEngine
from bot.engines.qpoker.engine import QPokerEngine

GAMES = [(QDiceEngine, 2), (FlumeEngine, 4), (FlumeEngine, 5), (FluxEngine, 3)]
GAMES += [(FingersEngine, 4), (QPokerEngine, 3)]


@pytest.mark.parametrize(("engine_type", "players"), GAMES, ids=lambda v: getattr(v, "__name__", v))
@pytest.mark.parametrize("seed", [1, 2])
def test_a_copy_plays_on_as_the_state_would(
    engine_type: type[Engine],
    players: int,
    seed: int,  # type: ignore[type-arg]
) -> None:
    engine = engine_type()
    rng = random.Random(seed)
    state = engine.new_game(engine.parse_config(), players, seed)
    steps = 0
    while not engine.is_over(state) and steps < 400:
        seat = min(engine.to_act(state))
        action = rng.choice(engine.legal_actions(state, seat))
        before = engine.dump_state(state)
        copy = engine.copy_state(state)
        assert copy == state and copy is not state
        deep = state.model_copy(deep=True)
        engine.apply(copy, seat, action)
        engine.apply(deep, seat, action)
        assert copy == deep
        assert engine.dump_state(state) == before  # the copy shares nothing with it
        state = copy
        steps += 1
    assert steps > 10
