"""The lesson paths of practice tables (bot/games/lessons.py): their texts use the rules
pages' terms, and their detectors recognise the moments they are about."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.games import all_games
from bot.games.lessons import PATHS, Lesson, lesson_for

GAMES = all_games()
RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"
LESSONS = [(game, lesson) for game, path in PATHS.items() for lesson in path]


def test_every_game_has_a_path() -> None:
    assert set(PATHS) == set(GAMES)
    for game, path in PATHS.items():
        assert len(path) >= 4, game
        assert len({lesson.key for lesson in path}) == len(path), game


@pytest.mark.parametrize(
    ("game", "lesson"), LESSONS, ids=[f"{g}-{each.key}" for g, each in LESSONS]
)
def test_a_lesson_uses_its_rules_page_terms(game: str, lesson: Lesson) -> None:
    page = (RULES / f"{game}.md").read_text().lower()
    assert lesson.terms
    for term in lesson.terms:
        assert term.lower() in page, f"{term!r} is not a term of docs/rules/{game}.md"
        assert term.lower() in lesson.text.lower(), f"{term!r} is not in the lesson's text"
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", lesson.text.strip()) if s]
    assert 2 <= len(sentences) <= 4, lesson.text
    assert len(lesson.text) <= 1024 and lesson.title


def _moments(game: str, players: int, options: dict, seeds: range) -> list[tuple[object, list]]:
    """Every seat's (observation, legal moves) when it is to act, over seeded easy games."""
    spec = GAMES[game]
    engine, ai = spec.engine, spec.ai
    assert ai is not None
    seen = []
    for seed in seeds:
        state = engine.new_game(engine.parse_config(options), players, seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if engine.is_over(state):
                break
            seat = sorted(engine.to_act(state))[0]
            observation = engine.observe(state, seat)
            legal = engine.legal_actions(state, seat)
            seen.append((observation, legal))
            engine.apply(state, seat, ai.decide(observation, "easy", rng, None))
    return seen


PLAYED = {
    "qdice": (2, {"target": 3000}),
    "qpoker": (2, {"rounds": 5}),
    "flume": (5, {"target": 11}),
    "flux": (2, {"variants": "9,15", "deals": 2}),
    "fingers": (3, {"per_flavour": 3}),
}
SEEDS = {"qpoker": 20}
"""More games where a moment is rare (an X or Y card left for a qubit put in superposition)."""
RARE = {("flux", "flux")}
"""Lessons whose moment may not come up in a few seeded games (a 6 on the discard die)."""


@pytest.mark.parametrize("game", list(PATHS))
def test_each_moment_comes_up_and_is_recognised_only_on_a_move(game: str) -> None:
    players, options = PLAYED[game]
    moments = _moments(game, players, options, range(SEEDS.get(game, 4)))
    fired: set[str] = set()
    for observation, legal in moments:
        for lesson in PATHS[game]:
            if lesson.applies(observation, legal):
                fired.add(lesson.key)
            assert not lesson.applies(observation, []), (lesson.key, "without a move")
    missing = {lesson.key for lesson in PATHS[game]} - fired - {k for g, k in RARE if g == game}
    assert not missing, f"{game}: never recognised {missing}"


def _first(game: str, phase: str | None = None, **options: object):
    players, opts = PLAYED[game]
    for observation, legal in _moments(game, players, {**opts, **options}, range(1)):
        if legal and (phase is None or getattr(observation, "phase", None) == phase):
            return observation, legal
    raise AssertionError(f"no moment of {game} {phase}")


def _lesson(game: str, key: str) -> Lesson:
    return next(lesson for lesson in PATHS[game] if lesson.key == key)


def test_a_pauli_card_on_a_qubit_in_superposition() -> None:
    observation, _ = _first("qpoker")
    seat = observation.seat
    superposed = observation.model_copy(deep=True)
    superposed.qubits[seat][1].superposed = True
    superposed.qubits[seat][1].value = None
    lesson = _lesson("qpoker", "superposed")
    assert lesson.applies(superposed, ["X:1", "call"])
    assert lesson.applies(superposed, ["Y:1"])
    assert not lesson.applies(superposed, ["X:0", "Z:1", "H:1"])  # not X or Y on that qubit
    assert not lesson.applies(observation, ["X:1", "Y:1"])  # nothing in superposition
    # first on a path where "turn" was shown already
    assert lesson_for("qpoker", superposed, ["X:1", "pick:X", "call"], {"turn"}) is lesson


def test_flume_leading_and_following() -> None:
    observation, legal = _first("flume", "play")
    lead, follow = _lesson("flume", "lead"), _lesson("flume", "follow")
    empty = observation.model_copy(update={"trick": []})
    assert lead.applies(empty, legal) and not follow.applies(empty, legal)
    bid, bid_legal = _first("flume", "bid")
    assert _lesson("flume", "bid").applies(bid, bid_legal)
    assert not lead.applies(bid, bid_legal) and not follow.applies(bid, bid_legal)


def test_quantum_dice_first_throw_then_roll_or_bank() -> None:
    observation, legal = _first("qdice")
    throw, press = _lesson("qdice", "throw"), _lesson("qdice", "press")
    assert throw.applies(observation, legal) and not press.applies(observation, legal)
    later = observation.model_copy(update={"turn_total": 300})
    assert press.applies(later, legal) and not throw.applies(later, legal)
    assert lesson_for("qdice", observation, legal, set()) is throw
    # not yet on the board: that lesson comes once the first throw's was shown
    assert lesson_for("qdice", observation, legal, {"throw"}) is _lesson("qdice", "board")
    assert lesson_for("qdice", observation, legal, {"throw", "board"}) is None


def test_fingers_a_settled_hand_is_known() -> None:
    observation, legal = _first("fingers", "ask", per_flavour=3)
    known = _lesson("fingers", "known")
    settled = observation.model_copy(deep=True)
    other = (settled.seat + 1) % settled.n_players
    settled.names[0] = "plum"
    settled.remaining[0] = 3
    settled.lo[other][0] = settled.hi[other][0] = 2
    assert known.applies(settled, legal)
    unsettled = settled.model_copy(deep=True)
    unsettled.hi[other][0] = 3  # a range: 2–3
    assert not known.applies(unsettled, legal)


def test_fingers_an_answer_that_will_be_forced() -> None:
    observation, legal = _first("fingers", "ask", per_flavour=3)
    forced = _lesson("fingers", "forced")
    mine = observation.model_copy(deep=True)
    seat = mine.seat
    mine.names[1] = "quince"
    mine.remaining[1] = 3
    mine.lo[seat][1], mine.hi[seat][1] = 0, 2
    assert not forced.applies(mine, legal)  # a range: the person may still choose
    mine.hi[seat][1] = 0  # settled: none of it, so a "no" will be forced
    assert forced.applies(mine, legal)
    mine.names[1] = None  # nobody asked for that flavour yet
    assert not forced.applies(mine, legal)
