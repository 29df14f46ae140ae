"""Quantum Fingers search for the hard AI: asks judged by what the answer is likely to be.

Everything in Quantum Fingers is public; what nobody knows is which classical deal the game
will turn out to have been, and an asked player whose answer is not forced chooses it. The
normal AI counts such an answer as "yes" or "no" half each. The hard AI instead

* weighs every open ask in full (the normal AI judges a sample of them) with a larger
  forced-win search;
* predicts the answer: when one answer is clearly better for the asked player (it hands them
  a forced win, or the other hands one to somebody else) it expects that answer; otherwise
  it weighs "yes" by the share of the consistent deals (:func:`count_deals`, exact, over the
  bounds the engine keeps) in which the asked player holds that flavour;
* stops at the deadline with the best ask judged so far (the normal AI's own choice first).

Only the observation is read (it is the whole table).
"""

from __future__ import annotations

import random
import time
from functools import lru_cache
from typing import TYPE_CHECKING

from bot.engines import fingers_ai
from bot.engines.fingers_ai import (
    ENGINE,
    _after,
    _answer,
    _book,
    _score,
    _turn_value,
    _work,
    forced_win,
    state_of,
)

if TYPE_CHECKING:
    from bot.engines.fingers import FingersObservation, FingersState

WORK = 3000
"""Trial moves a hard decision may play at three players (fewer at bigger tables)."""
SEARCH_NODES = 1500
"""Positions the hard level's own forced-win search may visit."""
MAX_DEPTH = 2
"""Own asks looked ahead at most (each depth a whole pass over the asks, stopping at the
deadline with the deepest finished pass)."""
DECISIVE = 1.0
"""A gap in the asked player's own scores of the two answers that makes the choice clear."""


def count_deals(lo: list[list[int]], hi: list[list[int]], rows: list[int], cols: list[int]) -> int:
    """How many holdings matrices (players x flavours) fit the bounds and the margins."""
    n_rows = len(rows)
    bounds = tuple((tuple(lo[p]), tuple(hi[p])) for p in range(n_rows))
    return _count(bounds, tuple(rows), tuple(cols))


@lru_cache(maxsize=4096)
def _count(
    bounds: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...],
    rows: tuple[int, ...],
    cols: tuple[int, ...],
) -> int:
    memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def fill(p: int, left: tuple[int, ...]) -> int:
        if p == len(rows):
            return 1 if not any(left) else 0
        key = (p, left)
        if key in memo:
            return memo[key]
        low, high = bounds[p]
        total = 0
        row: list[int] = [0] * len(left)

        def place(f: int, need: int) -> None:
            nonlocal total
            if f == len(left):
                if need == 0:
                    total += fill(p + 1, tuple(x - y for x, y in zip(left, row, strict=True)))
                return
            rest_high = sum(min(high[g], left[g]) for g in range(f + 1, len(left)))
            rest_low = sum(low[g] for g in range(f + 1, len(left)))
            for v in range(low[f], min(high[f], left[f], need) + 1):
                if rest_low <= need - v <= rest_high:
                    row[f] = v
                    place(f + 1, need - v)
            row[f] = 0

        place(0, rows[p])
        memo[key] = total
        return total

    return fill(0, cols)


def p_holds(state: FingersState, seat: int, flavour: int) -> float:
    """Share of the consistent deals in which ``seat`` holds some of ``flavour``."""
    lo, hi = state.lo, state.hi
    total = count_deals(lo, hi, state.counts, state.remaining)
    if total == 0:
        return 0.5
    none_hi = [list(r) for r in hi]
    none_hi[seat][flavour] = 0
    if lo[seat][flavour] > 0:
        return 1.0
    without = count_deals(lo, none_hi, state.counts, state.remaining)
    return 1.0 - without / total


class OutOfTime(Exception):
    """The deadline passed in the middle of a search depth."""


class Searcher:
    """Asks judged a few of the player's own asks deep, answers predicted (module notes)."""

    def __init__(self, me: int, deadline: float | None) -> None:
        self.me = me
        self.deadline = deadline

    def _tick(self) -> None:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise OutOfTime
        _work["left"] = 10**9  # the search is bounded by depth and the deadline instead

    def ask_value(self, state: FingersState, action: str, depth: int) -> float:
        """An ask's worth with the answer predicted; ``depth`` more own asks looked at."""
        self._tick()
        me = self.me
        trial = _after(state, me, action)
        if trial.phase != "answer":
            return self.turn_value(trial, depth)
        answerer = trial.asked
        assert answerer is not None and trial.flavour is not None
        after_yes, after_no = _after(trial, answerer, "yes"), _after(trial, answerer, "no")
        theirs_yes, theirs_no = _score(after_yes, answerer), _score(after_no, answerer)
        if theirs_yes - theirs_no >= DECISIVE:
            p_yes = 1.0
        elif theirs_no - theirs_yes >= DECISIVE:
            p_yes = 0.0
        else:
            p_yes = p_holds(trial, answerer, trial.flavour)
        value = 0.0
        if p_yes > 0:
            value += p_yes * self.turn_value(after_yes, depth)
        if p_yes < 1:
            value += (1 - p_yes) * self.turn_value(after_no, depth)
        return value

    def turn_value(self, state: FingersState, depth: int) -> float:
        """After an answer: my own next asks searched while ``depth`` lasts, else judged as
        the normal AI judges them."""
        me = self.me
        if state.phase == "over" or state.current != me:
            return _turn_value(state, me)
        if state.phase == "book":
            return max(self.turn_value(_after(state, me, w), depth) for w in ("book", "keep"))
        if depth <= 0:
            return _turn_value(state, me)
        if forced_win(state, SEARCH_NODES) is not None:
            return 10.0
        return max(self.ask_value(state, a, depth - 1) for a in ENGINE.legal_actions(state, me))


def hard_action(obs: FingersObservation, rng: random.Random, deadline: float | None = None) -> str:
    """The hard AI's move for the observed seat."""
    me = obs.seat
    assert me is not None
    state = state_of(obs)
    scale = 27 / obs.n_players**3
    _work["left"] = max(200, int(WORK * scale))
    if obs.phase == "answer":
        return _answer(state, me, rng)
    if obs.phase == "book":
        return _book(state, me)
    win = forced_win(state, SEARCH_NODES)
    if win is not None:
        return win
    best = fingers_ai.choose_action(obs, random.Random(rng.random()))
    actions = ENGINE.legal_actions(state, me)
    rng.shuffle(actions)
    actions.remove(best)
    actions.insert(0, best)  # the normal choice first: it wins ties
    search = Searcher(me, deadline)
    for depth in range(MAX_DEPTH + 1):
        try:
            values = [(search.ask_value(state, a, depth), a) for a in actions]
        except OutOfTime:
            break
        top = max(v for v, _ in values)
        best = next(a for v, a in values if v >= top - 1e-9)
        if top >= 10.0 or top <= -10.0:
            break  # a sure win or a sure loss: looking deeper changes nothing
    return best
