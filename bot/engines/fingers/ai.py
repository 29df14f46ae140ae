"""Quantum Fingers AI: plays from the public observation with the consistency engine.

Everything in the game is public, so the AI rebuilds the position from its observation and
tries moves on copies with the engine itself (no hidden state is ever read).

* **Forced wins.** :func:`forced_win` searches the asks whose answer is forced to be "yes"
  (a "no" would contradict every consistent deal), together with the player's own book
  choices, for a chain that empties the hand on its own turn. Such a chain wins whatever the
  others do; once the deal is known the player to move always has one.
* **Not handing out wins.** Before an ask whose "no" passes the turn on, before answering and
  before a book decision, the AI checks whether the player who would move next then has a
  forced win (:func:`threatened`), and weighs how many of that player's moves start one
  (:func:`danger`).
* **Empty hands.** Nobody can ask an empty hand, so its owner wins when the turn reaches them
  (:func:`empty_heir`): the AI sheds fingers by answering "yes" and never empties someone
  else's hand unless it wins first.
* **Otherwise** it keeps the turn with asks that must succeed, and leaves the others as much
  uncertainty as it can when the turn passes.
* **Levels** (:func:`decide`): "normal" is all of the above; "easy" makes a random
  consistent move some of the time; "hard" searches its own choices a few decisions ahead
  with this AI as the model of everyone else, playing each line out to the end of the game
  (:mod:`bot.engines.fingers.search`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.engines.base import Rng
from bot.engines.fingers.engine import (
    FingersConfig,
    FingersEngine,
    FingersObservation,
    FingersState,
    ask_actions,
)

if TYPE_CHECKING:
    from bot.engines.analysis import Analysis

ENGINE = FingersEngine()
SEARCH_NODES = 300
"""Positions a forced-win search may visit before giving up (keeps big tables quick)."""
WORK = 900
"""Trial moves one decision may play at three players; fewer at bigger tables, where each
costs more. Counted, not timed, so a decision is the same on every machine."""
CANDIDATES = 36
"""Asks weighed in full at most, divided by the number of players (a seeded sample when
more are open; at least 6)."""

_work = {"left": WORK}


def legal_moves(obs: FingersObservation) -> list[str]:
    """What the observed seat may do now (the same list the engine offers)."""
    if obs.phase == "answer":
        return ["yes", "no"]
    if obs.phase == "book":
        return ["book", "keep"]
    return ask_actions(obs)


def random_action(obs: FingersObservation, rng: random.Random) -> str:
    """A uniformly random consistent move (the benchmark's opponent)."""
    return rng.choice(legal_moves(obs))


def state_of(obs: FingersObservation) -> FingersState:
    """The position as a state the engine can play on (all of it is public)."""
    return FingersState(
        config=FingersConfig(per_flavour=obs.per_flavour),
        n_players=obs.n_players,
        rng=Rng(seed=0),
        names=list(obs.names),
        counts=list(obs.counts),
        remaining=list(obs.remaining),
        lo=[list(r) for r in obs.lo],
        hi=[list(r) for r in obs.hi],
        books=[list(b) for b in obs.books],
        current=obs.current,
        phase=obs.phase,
        asked=obs.asked,
        flavour=obs.flavour,
        asks=obs.asks,
    )


def copy_state(state: FingersState) -> FingersState:
    """A copy the engine may change freely (much quicker than a generic deep copy: only the
    lists are copied, the rest is immutable)."""
    trial = state.model_copy()
    trial.__dict__.update(
        rng=state.rng.model_copy(),
        names=list(state.names),
        counts=list(state.counts),
        remaining=list(state.remaining),
        lo=[list(r) for r in state.lo],
        hi=[list(r) for r in state.hi],
        books=[list(b) for b in state.books],
        seen=list(state.seen),
    )
    return trial


def _after(state: FingersState, seat: int, action: str) -> FingersState:
    _work["left"] -= 1
    trial = copy_state(state)
    ENGINE.apply(trial, seat, action)
    return trial


def _mover(state: FingersState) -> int | None:
    to_act = ENGINE.to_act(state)
    return next(iter(to_act)) if to_act else None


class _Search:
    """Forced-win search with a memo and a node budget."""

    def __init__(self, budget: int = SEARCH_NODES) -> None:
        self.budget = budget
        self.memo: dict[str, bool] = {}

    def wins(self, state: FingersState) -> str | None:
        """The first move of a forced win for the player to ask in ``state``, or None."""
        if state.phase != "ask" or state.current is None:
            return None
        me = state.current
        key = _key(state)
        if self.memo.get(key) is False or self.budget <= 0 or _work["left"] <= 0:
            return None
        self.memo[key] = False  # a cycle is no win
        self.budget -= 1
        for action in ENGINE.legal_actions(state, me):
            if _work["left"] <= 0:
                break
            trial = _after(state, me, action)
            if self._won(trial, me):
                self.memo[key] = True
                return action
        return None

    def _won(self, state: FingersState, me: int) -> bool:
        if state.phase == "over":
            return state.winner == me
        if state.phase == "book" and state.current == me:
            return any(self._won(_after(state, me, word), me) for word in ("book", "keep"))
        if state.phase == "ask" and state.current == me:
            return self.wins(state) is not None
        return False  # the answer is not forced, or the turn passed


def _key(state: FingersState) -> str:
    return repr((state.current, state.counts, state.remaining, state.lo, state.hi, state.names))


def forced_win(state: FingersState, budget: int = SEARCH_NODES) -> str | None:
    """First move of a chain that wins for the player to ask whatever anyone answers."""
    return _Search(budget).wins(state)


def threatened(state: FingersState, me: int) -> bool:
    """Whether someone other than ``me`` is to ask and has a forced win."""
    if state.phase == "over":
        return state.winner is not None and state.winner != me
    mover = state.current
    if state.phase == "answer" or mover is None or mover == me:
        return False
    return _Search()._won(state, mover)


def danger(state: FingersState, me: int) -> float:
    """0 when nobody else is to ask with a forced win, else 5 to 10 points of danger.

    Any forced win is dangerous; one that few first moves lead to is less so against a
    player who does not see it, so the share of winning first moves sets the rest.
    """
    if state.phase == "over":
        return 10.0 if state.winner is not None and state.winner != me else 0.0
    if not threatened(state, me):
        return 0.0
    mover = state.current
    assert mover is not None
    actions = ENGINE.legal_actions(state, mover)
    winning = sum(
        1 for a in actions if _work["left"] > 0 and _Search()._won(_after(state, mover, a), mover)
    )
    return 5.0 + 5.0 * winning / max(1, len(actions))


def _my_win(state: FingersState, me: int) -> bool:
    if state.phase == "over":
        return state.winner == me
    if state.phase == "ask" and state.current == me:
        return forced_win(state) is not None
    if state.phase == "book" and state.current == me:
        return any(_my_win(_after(state, me, w), me) for w in ("book", "keep"))
    return False


def choose_action(obs: FingersObservation, rng: random.Random) -> str:
    """The AI's move for the observed seat."""
    assert obs.seat is not None
    state = state_of(obs)
    _work["left"] = WORK * 27 // obs.n_players**3
    if obs.phase == "answer":
        return _answer(state, obs.seat, rng)
    if obs.phase == "book":
        return _book(state, obs.seat)
    return _ask(state, obs.seat, rng)


def empty_heir(state: FingersState) -> int | None:
    """The first player after the one to ask whose hand is empty: they win on their turn.

    Nobody can give an empty hand a finger (nobody may ask it), so unless someone wins
    earlier, that player wins as soon as the turn comes round to them.
    """
    if state.current is None:
        return None
    n = state.n_players
    for step in range(1, n + 1):
        seat = (state.current + step) % n
        if state.counts[seat] == 0:
            return seat
    return None


def _heir_value(state: FingersState, me: int) -> float:
    heir = empty_heir(state)
    if heir is None:
        return 0.0
    return 8.0 if heir == me else -8.0


FOG = 0.05
"""Worth of each unit of uncertainty (summed range of every cell) while others move."""


def _fog(state: FingersState, me: int) -> float:
    """While someone else moves, uncertainty protects me: they cannot plan a forced win."""
    if state.current == me:
        return 0.0
    return FOG * sum(
        high - low
        for lows, highs in zip(state.lo, state.hi, strict=True)
        for low, high in zip(lows, highs, strict=True)
    )


def _score(state: FingersState, me: int) -> float:
    """How good a position is for ``me`` once my decision is made (higher is better)."""
    if _my_win(state, me):
        return 10.0
    if threatened(state, me):
        return -danger(state, me)
    mine = 0.5 if state.current == me else 0.0
    return mine + _heir_value(state, me) - 0.1 * state.counts[me] + _fog(state, me)


def _answer(state: FingersState, me: int, rng: random.Random) -> str:
    scores = {word: _score(_after(state, me, word), me) for word in ("yes", "no")}
    best = max(scores.values())
    choices = [w for w, s in scores.items() if s == best]
    return "yes" if "yes" in choices else rng.choice(choices)


def _book(state: FingersState, me: int) -> str:
    scores = {word: _score(_after(state, me, word), me) for word in ("book", "keep")}
    return "book" if scores["book"] >= scores["keep"] else "keep"


def _ask(state: FingersState, me: int, rng: random.Random) -> str:
    win = forced_win(state)
    if win is not None:
        return win
    actions = ENGINE.legal_actions(state, me)
    most = max(6, CANDIDATES // state.n_players)
    if len(actions) > most:
        actions = rng.sample(actions, most)
    scored = [(_ask_value(state, me, a), a) for a in actions]
    best = max(score for score, _ in scored)
    return rng.choice([action for score, action in scored if score == best])


def _ask_value(state: FingersState, me: int, action: str) -> float:
    """An ask's worth: an answer that is a choice counts both ways, half each."""
    trial = _after(state, me, action)
    if trial.phase == "answer":
        answerer = trial.asked
        assert answerer is not None
        yes = _turn_value(_after(trial, answerer, "yes"), me)
        no = _turn_value(_after(trial, answerer, "no"), me)
        return 0.5 * yes + 0.5 * no
    return _turn_value(trial, me)


def _turn_value(state: FingersState, me: int) -> float:
    """After my ask is answered: keeping the turn is good, handing out a win is worst."""
    if state.phase == "over":
        return 10.0 if state.winner == me else (-10.0 if state.winner is not None else -1.0)
    if state.current == me:  # my turn goes on
        if state.phase == "book":
            return max(_turn_value(_after(state, me, w), me) for w in ("book", "keep"))
        if forced_win(state) is not None:
            return 10.0
        return 1.0 + _heir_value(state, me) - 0.05 * state.counts[me]
    if threatened(state, me):
        return -danger(state, me)
    return _heir_value(state, me) - 0.05 * state.counts[me] + _fog(state, me)


EASY_SLIP = 0.35
"""How often the easy level makes a random consistent move instead of the normal one."""


def easy_action(obs: FingersObservation, rng: random.Random) -> str:
    """A beginner: the normal move most of the time, otherwise any consistent move (an ask
    that hands the turn away, a careless answer or book choice)."""
    if rng.random() < EASY_SLIP:
        return random_action(obs, rng)
    return choose_action(obs, rng)


def decide(
    obs: FingersObservation, level: str, rng: random.Random, deadline: float | None = None
) -> str:
    """The move at ``level``: "easy", "normal" (:func:`choose_action`) or "hard" (its own
    choices searched against a model of the others, stopping at its work count or at
    ``deadline``, a ``time.monotonic()`` instant)."""
    if level == "easy":
        return easy_action(obs, rng)
    if level == "hard":
        return analyse(obs, rng, deadline).move
    return choose_action(obs, rng)


def analyse(
    obs: FingersObservation,
    rng: random.Random,
    deadline: float | None = None,
    also: Sequence[str] = (),
) -> Analysis:
    """The hard level's decision with what its search found
    (:func:`bot.engines.fingers.search.hard_analysis`)."""
    from bot.engines.fingers.search import hard_analysis

    return hard_analysis(obs, rng, deadline, also)
