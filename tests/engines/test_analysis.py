"""The hard AIs' analyses (bot.engines.analysis): their move is the hard level's move, their
figures are what the search found, and they read nothing but the observation."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from bot.engines.analysis import Analysis, MoveValue, share_of_top
from bot.engines.base import Rng
from bot.engines.fingers import search as fingers_search
from bot.engines.flume.engine import FlumeState
from bot.engines.flux import search as flux_search
from bot.engines.qpoker import search as qpoker_search
from bot.engines.qpoker.engine import QPokerState
from bot.games import all_games
from tests.engines.test_card_levels import _flux_midgame, _flux_reshuffled

GAMES = all_games()
NAMES = ["Ana", "Ben", "Cleo", "Dan", "Eve"]


@pytest.fixture(autouse=True)
def modest_effort(monkeypatch: pytest.MonkeyPatch) -> None:
    """Searches without a deadline take a small fixed effort (the bot's is larger)."""
    monkeypatch.setattr(flux_search, "SAMPLES", 6)
    monkeypatch.setattr(qpoker_search, "SAMPLES", 6)
    monkeypatch.setattr(fingers_search, "MAX_DEPTH", 2)


def _ai(game: str) -> Any:
    return __import__(f"bot.engines.{game}.ai", fromlist=["analyse"])


def _positions(game: str, n: int, seed: int, every: int, most: int) -> list[tuple[Any, int]]:
    """States (copies) of a seeded game played by normal AIs, every ``every``-th decision."""
    spec = GAMES[game]
    engine, ai = spec.engine, _ai(game)
    config = engine.parse_config({"rounds": 2} if game == "qpoker" else None)
    state = engine.new_game(config, n, seed)
    rng = random.Random(seed)
    found: list[tuple[Any, int]] = []
    step = 0
    while not engine.is_over(state) and len(found) < most and step < 3000:
        seat = sorted(engine.to_act(state))[0]
        if step % every == 0:
            found.append((state.model_copy(deep=True), seat))
        engine.apply(state, seat, ai.decide(engine.observe(state, seat), "normal", rng, None))
        step += 1
    return found


def _legal(game: str, state: Any, seat: int, move: str) -> bool:
    trial = state.model_copy(deep=True)
    try:
        GAMES[game].engine.apply(trial, seat, move)
    except Exception:
        return False
    return True


CASES = [("qdice", 2, 9), ("qdice", 3, 9), ("flume", 4, 3), ("flume", 5, 3), ("flux", 4, 3),
         ("fingers", 3, 2), ("qpoker", 3, 2)]  # fmt: skip


@pytest.mark.parametrize(("game", "n", "every"), CASES)
def test_the_analysis_move_is_the_hard_move(game: str, n: int, every: int) -> None:
    """Same observation, same random source: the analysis names exactly the hard AI's move,
    lists it first, and values only moves the engine accepts."""
    ai = _ai(game)
    kinds: set[str] = set()
    for k, (state, seat) in enumerate(_positions(game, n, seed=n + 10, every=every, most=14)):
        obs = GAMES[game].engine.observe(state, seat)
        found = ai.analyse(obs, random.Random(k), None)
        assert found.move == ai.decide(obs, "hard", random.Random(k), None)
        assert found.options[0].move == found.move == found.best.move
        assert _legal(game, state, seat, found.move)
        valued = [v for v in found.options if v.value is not None]
        for value in valued:
            assert _legal(game, state, seat, value.move), value.move
            if found.kind == "win":
                assert 0.0 <= (value.value or 0.0) <= 1.0
            if value.win is not None:
                assert 0.0 <= value.win <= 1.0
        # after the chosen move, the others are ordered best first
        rest = [v.value for v in valued[1:] if v is not found.best]
        assert rest == sorted(rest, reverse=True)
        assert Analysis.model_validate_json(found.model_dump_json()) == found
        kinds.add(found.kind)
    assert kinds - {"rule"}, "no position was searched"


def test_flume_search_counts_wins_without_changing_its_choice() -> None:
    """The tally of wins rides along the search: the move and the totals stay what the
    search alone gives, and a card's chance is between what its deals allow."""
    from bot.engines.flume import search as fs

    (state, seat), *_ = [
        (s, seat) for s, seat in _positions("flume", 4, 7, 1, 200) if s.phase == "play"
    ][5:6]
    obs = GAMES["flume"].engine.observe(state, seat)
    options = [a.split(":", 1)[1] for a in obs.legal]
    plain = fs.search_play(obs, options, random.Random(3), None, 12)
    tally = fs.Tally()
    counted = fs.search_play(obs, options, random.Random(3), None, 12, tally)
    assert counted == plain and tally.weight == 12
    assert set(tally.wins) == set(options)
    assert all(0 <= w <= 12 for w in tally.wins.values())


def test_qdice_values_bank_against_roll_from_the_table() -> None:
    """Two players with the standard options: every keep is valued banking and rolling on,
    as chances to win from the solved table, and the choice is the better of them."""
    from bot.engines.qdice import ai

    for state, seat in _positions("qdice", 2, 5, 1, 60):
        obs = GAMES["qdice"].engine.observe(state, seat)
        found = ai.analyse(obs)
        if found.reason != "table" or not obs.on_board[seat]:
            continue
        verb, _, keep = found.move.partition(":")
        other = found.value_of(f"{'bank' if verb == 'roll' else 'roll'}:{keep}")
        assert other is not None and other.value is not None
        assert (found.best.value or 0.0) >= other.value
        assert found.kind == "win" and found.scope == "game"
        return
    raise AssertionError("no position on the board under the table")


def test_review_values_a_move_the_search_would_not_weigh() -> None:
    """``also``: a discard outside the search's candidates is valued on the same deals,
    and the chosen move is still the hard AI's."""
    from bot.engines.flux import ai as flux_ai

    state, seat = _flux_midgame(4, 2, "command")
    obs = GAMES["flux"].engine.observe(state, seat)
    candidates = set(flux_search.candidates(obs))
    others = [m for m in flux_ai.legal_moves(obs) if m not in candidates]
    assert others
    plain = flux_ai.analyse(obs, random.Random(1), None)
    asked = flux_ai.analyse(obs, random.Random(1), None, also=[others[-1]])
    assert plain.value_of(others[-1]) is None
    played = asked.value_of(others[-1])
    assert played is not None and played.value is not None and played.samples == asked.samples
    assert asked.move == plain.move == flux_ai.decide(obs, "hard", random.Random(1), None)


# --- hidden information ---------------------------------------------------------------------


def _flume_swapped(state: FlumeState, seat: int) -> FlumeState:
    """The same table with two other players' hands and the stock dealt differently."""
    other = state.model_copy(deep=True)
    a, b = [s for s in range(state.n_players) if s != seat][:2]
    pool = other.hands[a] + other.hands[b] + other.stock
    random.Random(9).shuffle(pool)
    ka, kb = len(other.hands[a]), len(other.hands[b])
    other.hands[a], other.hands[b] = pool[:ka], pool[ka : ka + kb]
    other.stock = pool[ka + kb :]
    other.rng = Rng(seed=77)
    return other


def _qpoker_flipped(state: QPokerState, seat: int) -> QPokerState:
    other = state.model_copy(deep=True)
    for s, row in enumerate(other.qubits):
        for q in row:
            if s != seat and not q.shown and not q.superposed:
                q.value ^= 1
    other.rng = Rng(seed=78)
    return other


def _flux_hidden(state: Any, seat: int) -> Any:
    return _flux_reshuffled(state, seat, 41)


def _first(game: str, n: int, phase: str | None) -> tuple[Any, int]:
    for state, seat in _positions(game, n, 21, 1, 400):
        if phase is None or state.phase == phase:
            return state, seat
    raise AssertionError(f"no {phase} decision")


HIDDEN: list[tuple[str, int, str | None, Callable[[Any, int], Any]]] = [
    ("flume", 4, "bid", _flume_swapped),
    ("flume", 4, "play", _flume_swapped),
    ("flux", 4, "trick", _flux_hidden),
    ("flux", 4, "command", _flux_hidden),
    ("qpoker", 4, None, _qpoker_flipped),
]


@pytest.mark.parametrize(("game", "n", "phase", "hide"), HIDDEN)
def test_a_hint_reads_only_the_seats_observation(
    game: str, n: int, phase: str | None, hide: Callable[[Any, int], Any]
) -> None:
    """Two tables that differ only in cards the seat can't see: the same analysis, and the
    same hint in words."""
    spec = GAMES[game]
    state, seat = _first(game, n, phase)
    other = hide(state, seat)
    assert other != state
    obs = spec.engine.observe(state, seat)
    assert spec.engine.observe(other, seat) == obs
    first = _ai(game).analyse(obs, random.Random(4), None)
    second = _ai(game).analyse(spec.engine.observe(other, seat), random.Random(4), None)
    assert first == second
    text = spec.ui.hint_text(obs, first, NAMES[:n])
    assert text == spec.ui.hint_text(spec.engine.observe(other, seat), second, NAMES[:n])


def test_share_of_top() -> None:
    assert share_of_top(3, [1, 2]) == 1.0
    assert share_of_top(3, [3, 1]) == 0.5
    assert share_of_top(3, [3, 3]) == pytest.approx(1 / 3)
    assert share_of_top(2, [3, 1]) == 0.0


def test_options_put_the_chosen_move_first_then_the_best() -> None:
    found = Analysis.of(
        "b",
        "win",
        [MoveValue(move="a", value=0.6), MoveValue(move="b", value=0.5),
         MoveValue(move="c"), MoveValue(move="d", value=0.7)],
    )  # fmt: skip
    assert [v.move for v in found.options] == ["b", "d", "a", "c"]
    assert [v.move for v in found.top(3)] == ["b", "d", "a"]
    assert found.value_of("c") == MoveValue(move="c") and found.value_of("z") is None
