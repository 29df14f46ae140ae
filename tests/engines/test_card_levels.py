"""AI levels of Flux, QuantumPoker and Quantum Fingers: legal moves at every level, hard
reading nothing hidden, a passed deadline, and the search simulators against the engines.

Fast and seeded: the hard searches run with a few samples (no deadline) so a decision is
the same on every machine.
"""

from __future__ import annotations

import random
import time

import pytest

from bot.engines.base import Rng
from bot.engines.fingers import ai as fingers_ai
from bot.engines.fingers import search as fingers_search
from bot.engines.fingers.engine import FingersConfig, FingersEngine, FingersState
from bot.engines.flux import ai as flux_ai
from bot.engines.flux import rules as flux_rules
from bot.engines.flux import search as flux_search
from bot.engines.flux import sim as flux_sim
from bot.engines.flux.engine import FluxConfig, FluxEngine, FluxState
from bot.engines.flux.rules import Rules
from bot.engines.qpoker import ai as qpoker_ai
from bot.engines.qpoker import search as qpoker_search
from bot.engines.qpoker.engine import QPokerConfig, QPokerEngine, QPokerState

FINGERS = FingersEngine()
FLUX = FluxEngine()
QPOKER = QPokerEngine()
LEVELS = ("easy", "normal", "hard")


@pytest.fixture(autouse=True)
def few_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    """Searches without a deadline take a handful of samples (the default effort is more)."""
    monkeypatch.setattr(flux_search, "SAMPLES", 3)
    monkeypatch.setattr(qpoker_search, "SAMPLES", 3)
    monkeypatch.setattr(flux_search.hard_action, "__defaults__", (None, 3))
    monkeypatch.setattr(qpoker_search.hard_action, "__defaults__", (None, 3))
    monkeypatch.setattr(fingers_search, "MAX_DEPTH", 1)


# --- legal moves over whole games ----------------------------------------------------------


def _flux_legal(state: FluxState, seat: int, move: str) -> bool:
    trial = state.model_copy(deep=True)
    try:
        FLUX.apply(trial, seat, move)
    except Exception:
        return False
    return True


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("variants", ["", "1,3,9,12"])
def test_flux_every_level_plays_legal_moves(n: int, variants: str) -> None:
    state = FLUX.new_game(FluxConfig(variants=variants), n, seed=n)
    rng = random.Random(n)
    levels = [LEVELS[s % 3] for s in range(n)]
    moves = 0
    while not FLUX.is_over(state) and moves < 400:
        seat = sorted(FLUX.to_act(state))[0]
        move = flux_ai.decide(FLUX.observe(state, seat), levels[seat], rng)
        assert _flux_legal(state, seat, move), (levels[seat], move)
        FLUX.apply(state, seat, move)
        moves += 1
    assert FLUX.is_over(state)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_qpoker_every_level_plays_legal_moves(n: int) -> None:
    state = QPOKER.new_game(QPokerConfig(rounds=3), n, seed=n)
    rng = random.Random(n)
    levels = [LEVELS[s % 3] for s in range(n)]
    while not QPOKER.is_over(state):
        (seat,) = QPOKER.to_act(state)
        move = qpoker_ai.decide(QPOKER.observe(state, seat), levels[seat], rng)
        assert move in QPOKER.legal_actions(state, seat), (levels[seat], move)
        QPOKER.apply(state, seat, move)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_fingers_every_level_plays_legal_moves(n: int) -> None:
    for seed in range(2 if n < 5 else 1):
        state = FINGERS.new_game(FingersConfig(), n, seed)
        rng = random.Random(seed)
        levels = [LEVELS[(s + seed) % 3] for s in range(n)]
        while not FINGERS.is_over(state):
            (seat,) = FINGERS.to_act(state)
            move = fingers_ai.decide(FINGERS.observe(state, seat), levels[seat], rng)
            assert move in FINGERS.legal_actions(state, seat), (levels[seat], move)
            FINGERS.apply(state, seat, move)


# --- the hard level reads only the observation --------------------------------------------


def _flux_midgame(n: int, seed: int, phase: str) -> tuple[FluxState, int]:
    """A seeded game played by normal AIs up to a ``phase`` decision."""
    state = FLUX.new_game(FluxConfig(), n, seed)
    rng = random.Random(seed)
    while True:
        seat = sorted(FLUX.to_act(state))[0]
        if state.phase == phase:
            return state, seat
        FLUX.apply(state, seat, flux_ai.choose_action(FLUX.observe(state, seat), rng))


def _flux_reshuffled(state: FluxState, seat: int, seed: int) -> FluxState:
    """The same position with the cards the seat can't see dealt differently."""
    other = state.model_copy(deep=True)
    hidden = [s for s in range(state.n_players) if s != seat and not state.exposed[s]]
    pool = [c for s in hidden for c in other.hands[s]] + other.shoe + other.out
    random.Random(seed).shuffle(pool)
    for s in hidden:
        k = len(other.hands[s])
        other.hands[s], pool = sorted(pool[:k]), pool[k:]
    k = len(other.shoe)
    other.shoe, other.out = pool[:k], pool[k:]
    other.rng = Rng(seed=seed)
    return other


@pytest.mark.parametrize("phase", ["trick", "command"])
@pytest.mark.parametrize("seed", [1, 2])
def test_flux_hard_ignores_hidden_cards(phase: str, seed: int) -> None:
    state, seat = _flux_midgame(4, seed, phase)
    other = _flux_reshuffled(state, seat, seed + 100)
    assert other.hands != state.hands or other.shoe != state.shoe
    obs = FLUX.observe(state, seat)
    assert FLUX.observe(other, seat) == obs
    first = flux_ai.decide(obs, "hard", random.Random(5))
    second = flux_ai.decide(FLUX.observe(other, seat), "hard", random.Random(5))
    assert first == second


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_qpoker_hard_ignores_hidden_qubits(seed: int) -> None:
    state = QPOKER.new_game(QPokerConfig(), 4, seed)
    rng = random.Random(seed)
    for _ in range(seed):  # a few moves in
        (seat,) = QPOKER.to_act(state)
        QPOKER.apply(state, seat, qpoker_ai.choose_action(QPOKER.observe(state, seat), rng))
    (seat,) = QPOKER.to_act(state)
    other: QPokerState = state.model_copy(deep=True)
    flipped = 0
    for s, row in enumerate(other.qubits):
        for q in row:
            if s != seat and not q.shown and not q.superposed:
                q.value ^= 1
                flipped += 1
    other.rng = Rng(seed=seed + 100)
    assert flipped
    obs = QPOKER.observe(state, seat)
    assert QPOKER.observe(other, seat) == obs
    first = qpoker_ai.decide(obs, "hard", random.Random(5))
    second = qpoker_ai.decide(QPOKER.observe(other, seat), "hard", random.Random(5))
    assert first == second


def test_fingers_hard_reads_only_the_observation() -> None:
    """Everything at the table is public; what the observation leaves out (the engine's own
    random source and its record of past positions) changes nothing."""
    state = FINGERS.new_game(FingersConfig(), 4, 2)
    rng = random.Random(2)
    for _ in range(3):
        (seat,) = FINGERS.to_act(state)
        FINGERS.apply(state, seat, fingers_ai.choose_action(FINGERS.observe(state, seat), rng))
    (seat,) = FINGERS.to_act(state)
    other: FingersState = state.model_copy(deep=True)
    other.rng = Rng(seed=99, calls=7)
    other.seen = []
    obs = FINGERS.observe(state, seat)
    assert FINGERS.observe(other, seat) == obs
    first = fingers_ai.decide(obs, "hard", random.Random(5))
    assert fingers_ai.decide(FINGERS.observe(other, seat), "hard", random.Random(5)) == first


# --- a deadline already passed --------------------------------------------------------------


def test_passed_deadline_still_gives_a_legal_move_quickly() -> None:
    state, seat = _flux_midgame(5, 3, "command")
    start = time.monotonic()
    move = flux_ai.decide(FLUX.observe(state, seat), "hard", random.Random(0), start - 1)
    assert _flux_legal(state, seat, move)
    q = QPOKER.new_game(QPokerConfig(), 5, 3)
    (qseat,) = QPOKER.to_act(q)
    qmove = qpoker_ai.decide(QPOKER.observe(q, qseat), "hard", random.Random(0), start - 1)
    assert qmove in QPOKER.legal_actions(q, qseat)
    f = FINGERS.new_game(FingersConfig(), 5, 3)
    fmove = fingers_ai.decide(FINGERS.observe(f, 0), "hard", random.Random(0), start - 1)
    assert fmove in FINGERS.legal_actions(f, 0)
    assert time.monotonic() - start < 1.0


# --- the light simulators agree with the engines -------------------------------------------


def _flux_sim(state: FluxState) -> flux_sim.Sim:
    """The engine's position as a simulator, every card and the die rolls the same."""
    rng = Rng(seed=state.rng.seed, calls=state.rng.calls)
    return flux_sim.Sim(
        state.config.rules,
        [flux_sim.encode(h) for h in state.hands],
        flux_sim.encode(state.shoe[::-1]),
        flux_sim.encode(state.burned[::-1]),
        active=list(state.active),
        target=state.target,
        turnup=state.turnup,
        phase=state.phase,
        trick=[(p.seat, flux_sim.encode([p.card])[0]) for p in state.trick],
        leader=state.leader,
        turn=state.turn,
        tricks_won=state.tricks_won,
        max_tricks=state.max_tricks,
        commander=state.commander,
        discard_range=state.discard_range,
        bullseye_bonus=state.bullseye_bonus,
        bonus_trick=state.bonus_trick,
        point_dice=[list(d) for d in state.point_dice],
        roll=rng.randint,
    )


@pytest.mark.parametrize("variants", ["", "1,3", "12,19", "20", "21", "2,4,5"])
def test_flux_simulator_plays_hands_as_the_engine(variants: str) -> None:
    """Hands played side by side: the same hands after every move, the policy's same
    choices on the simulator (seat 0 in the hard level's own style, the rest normal), and
    the same points at the end of the hand."""
    checked = 0
    styled = 0
    for seed in range(6):
        state = FLUX.new_game(FluxConfig(variants=variants), 3 + seed % 3, seed)
        rng = random.Random(seed)
        sim = None
        start_scores: list[int] = []
        while not FLUX.is_over(state):
            seat = sorted(FLUX.to_act(state))[0]
            obs = FLUX.observe(state, seat)
            if sim is None and state.phase == "trick" and not state.trick:
                sim, start_scores = _flux_sim(state), list(state.scores)
                sim.styles = {0: flux_ai.HARD}
            style = flux_ai.HARD if seat == 0 else flux_ai.NORMAL
            move = flux_ai.choose_action(obs, rng, style)
            if seat == 0 and move != flux_ai.choose_action(obs, rng):
                styled += 1
            if sim is not None and sim.phase != "done":
                assert sim.to_act == seat
                if state.phase in ("trick", "command"):
                    assert flux_sim.action(sim.policy(seat)) == move
                sim.apply(seat, flux_sim.parse(move))
            hand = state.hand_no
            FLUX.apply(state, seat, move)
            if sim is not None and sim.phase != "done":
                assert [flux_sim.decode(h) for h in sim.hands] == state.hands
                assert sim.phase == state.phase
            if sim is not None and (state.hand_no != hand or FLUX.is_over(state)):
                assert sim.phase == "done"
                gained = [a - b for a, b in zip(state.scores, start_scores, strict=True)]
                if not FLUX.is_over(state) or not state.config.rules.score_limit:
                    assert sim.gained == gained
                sim = None
                checked += 1
    assert checked >= 6
    assert styled  # the hard style made moves of its own, matched on the simulator


def _qpoker_sim(state: QPokerState) -> qpoker_search.Sim:
    return qpoker_search.Sim(
        {
            s: [[q.value, q.shown, q.superposed, q.doubled] for q in row]
            for s, row in enumerate(state.qubits)
            if row
        },
        list(state.chips),
        list(state.community),
        state.current,  # type: ignore[arg-type]
        state.called_by,
        list(state.final_left),
        state.carry,
        state.config.calling,
    )


@pytest.mark.parametrize("n", [2, 3, 5])
def test_qpoker_simulator_plays_rounds_as_the_engine(n: int) -> None:
    for seed in range(3):
        state = QPOKER.new_game(QPokerConfig(rounds=3), n, seed)
        rng = random.Random(seed)
        while not QPOKER.is_over(state):
            sim = _qpoker_sim(state)
            coins = Rng(seed=state.rng.seed, calls=state.rng.calls)
            round_no = state.round
            while state.round == round_no and not QPOKER.is_over(state):
                (seat,) = QPOKER.to_act(state)
                obs = QPOKER.observe(state, seat)
                ranking = qpoker_ai.rank_moves(obs)
                mine = qpoker_search.ranked(sim, seat)
                assert sorted(m for _, m in mine) == sorted(m for _, m in ranking)
                values = dict((m, v) for v, m in ranking)
                for v, m in mine:
                    assert v == pytest.approx(values[m], abs=1e-9)
                move = qpoker_ai.choose_action(obs, rng)
                sim.apply(seat, move, coins)  # type: ignore[arg-type]
                QPOKER.apply(state, seat, move)
                if state.round == round_no and not QPOKER.is_over(state):
                    assert sim.current == state.current
                    assert sim.chips == state.chips
                    for s, row in sim.qubits.items():
                        assert row == [
                            [q.value, q.shown, q.superposed, q.doubled] for q in state.qubits[s]
                        ] or any(q[2] for q in row)
            assert sim.over


def _command_sim(hands: list[list[str]], target: int, turnup: str) -> flux_sim.Sim:
    """Seat 0 in command with two cards to throw, the shoe a fixed run of cards."""
    shoe = flux_sim.encode(["2S", "3H", "4S", "5H", "6S", "7H", "8S", "9H"] * 3)
    return flux_sim.Sim(
        Rules(),
        [flux_sim.encode(h) for h in hands],
        shoe,
        [],
        active=[True] * len(hands),
        target=target,
        turnup=turnup,
        phase="command",
        trick=[],
        leader=0,
        turn=None,
        tricks_won=1,
        max_tricks=None,
        commander=0,
        discard_range=(2, 2),
        bullseye_bonus=10,
        bonus_trick=None,
        point_dice=[[] for _ in hands],
        roll=random.Random(0).randint,
    )


def test_hard_style_weighs_poker_by_the_points_at_stake() -> None:
    """Normal play thinks of poker only when a face card is turned up; the hard style gives
    it weight in proportion to what the poker game is worth, on the engine's policy and on
    the simulator alike."""
    assert flux_ai.HARD.poker_per_point > 0
    sim = _command_sim([["2H"] * 7, ["3H"] * 7], 9, "9C")
    assert sim.weight(flux_ai.NORMAL) == 0.0
    assert sim.weight(flux_ai.HARD) == pytest.approx(9 * flux_ai.HARD.poker_per_point)
    face = _command_sim([["2H"] * 7, ["3H"] * 7], 9, "KC")
    assert face.weight(flux_ai.NORMAL) == flux_ai.POKER_WEIGHT
    state, seat = _flux_midgame(4, 1, "command")
    obs = FLUX.observe(state, seat)
    points = flux_rules.poker_points(obs.turnup, obs.rules)
    assert flux_ai.poker_weight(obs, flux_ai.HARD) == pytest.approx(
        points * flux_ai.HARD.poker_per_point
    )
