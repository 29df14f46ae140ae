"""Seeded self-play of many Quantum dice games with invariant checks after every move."""

from __future__ import annotations

import random

from bot.engines.base import Event
from bot.engines.qdice.ai import choose_action, threshold_action
from bot.engines.qdice.engine import QDiceConfig, QDiceEngine, QDiceObservation, QDiceState
from bot.engines.qdice.scoring import score_keep, scoring_keeps

ENGINE = QDiceEngine()
GAMES = 2000
MAX_MOVES = 20_000


def check_invariants(state: QDiceState) -> QDiceObservation | None:
    """What must hold between any two moves; returns the mover's observation."""
    for score in state.scores:
        assert score >= 0
        assert score % 50 == 0
    assert state.turn_total % 50 == 0
    if state.current is None:
        assert state.winner is not None
        return None
    assert ENGINE.to_act(state) == frozenset({state.current})
    assert 1 <= len(state.dice) <= 6
    assert len(state.dice) + len(state.kept) <= 6
    colours = [d.colour for d in state.dice + state.kept]
    assert colours.count("A") <= 3 and colours.count("B") <= 3
    if state.final_round:
        assert not state.finished_last_turn[state.current]
    obs = ENGINE.observe(state, state.current)
    assert obs.dice == state.dice and obs.kept == state.kept
    assert obs.rolled_six == (len(state.dice) == 6)
    expected = (
        score_keep([state.dice[i] for i in state.selected], len(state.dice))
        if state.selected
        else None
    )
    assert obs.selection_score == expected
    legal = ENGINE.legal_actions(state, state.current)
    assert ("roll" in legal) == (expected is not None)
    return obs


def pick(state: QDiceState, obs: QDiceObservation, kind: str, rng: random.Random) -> str:
    seat = obs.current
    assert seat is not None
    if kind == "ai":
        return choose_action(obs, rng)
    if kind == "threshold":
        return threshold_action(obs, rng.choice([300, 500, 1000]))
    # a random player: now and then any legal action, else a random legal keep, one-step
    legal = ENGINE.legal_actions(state, seat)
    if rng.random() < 0.3:
        return rng.choice(legal)  # any legal action, toggles included
    indices, points = rng.choice(scoring_keeps(obs.dice))
    keep = "".join(map(str, indices))
    bankable = obs.on_board[seat] or obs.turn_total + points >= obs.entry
    return f"bank:{keep}" if bankable and rng.random() < 0.4 else f"roll:{keep}"


def play_one(game: int) -> None:
    rng = random.Random(game)
    n_players = rng.randint(2, 5)
    config = QDiceConfig(target=rng.choice([1000, 1000, 1500]), entry=rng.choice([0, 300, 1000]))
    kinds = [rng.choice(["random", "ai", "threshold"]) for _ in range(n_players)]
    kinds[rng.randrange(n_players)] = rng.choice(["ai", "threshold"])  # someone plays to win
    state = ENGINE.new_game(config, n_players, seed=game)
    events: list[Event] = []
    for _ in range(MAX_MOVES):
        if ENGINE.is_over(state):
            break
        obs = check_invariants(state)
        assert obs is not None and obs.current is not None
        events.extend(ENGINE.apply(state, obs.current, pick(state, obs, kinds[obs.current], rng)))
    else:
        raise AssertionError(f"game {game} did not finish in {MAX_MOVES} moves")
    check_invariants(state)
    winner = state.winner
    assert winner is not None
    assert state.scores[winner] == max(state.scores) >= config.target
    assert all(state.finished_last_turn)
    outcome = ENGINE.outcome(state)
    assert outcome.winners == [winner]
    assert outcome.ranks[winner] == 0 and outcome.ranks.count(0) == 1
    assert [e.kind for e in events].count("game_over") == 1
    assert events[-1].kind == "game_over"
    for event in events:
        event.render([f"P{i}" for i in range(n_players)])  # every placeholder resolves


def test_thousands_of_seeded_games() -> None:
    for game in range(GAMES):
        play_one(game)
