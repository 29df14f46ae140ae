"""Quantum Fingers search for the hard AI: plan my own choices against a model of the others.

Nothing in Quantum Fingers is hidden or left to chance. The consistent deals the engine
tracks (its exact bounds) are narrowed only by choices: asks, answers that are not forced,
books that are not forced. So the game is a tree of choices, and the hard AI searches it:

* **its own choices** exhaustively, a few of its decisions deep (iterative deepening: every
  move one decision deep, then two, ... up to :data:`MAX_DEPTH`), with the moves that looked
  best at one depth tried first at the next;
* **everyone else's** by prediction: the others are modelled as the normal AI
  (:func:`bot.engines.fingers.ai.choose_action`, with a fixed random source so a prediction is
  the same every time it is asked), which takes every forced win it sees and never hands the
  next player an avoidable one; that is the play of a careful person too;
* **beyond the last decision looked at**, the game is played out to its end with every seat,
  its own included, played by the model. A win counts 1, a loss 0, a draw or a game still
  going after :data:`ROLLOUT_MOVES` moves :data:`DRAW`; sooner wins and later losses are
  preferred by a hair (a later loss gives the others more chances to play differently from
  the model).

Ties go to the normal AI's own choice, which is tried first. Among the normal AIs the game is
close to scripted (at three seats the second player wins nearly every game), which is why
looking ahead at what the others will do pays: the hard AI finds the moves that change the
script in its favour, often several of its decisions later.

Effort is counted, not timed: a decision may predict :data:`WORK` of the others' moves
(cheap positions repeat and are remembered within the decision). ``deadline`` (a
``time.monotonic()`` instant) is a safety net on top: the search stops there with the best
move of the deepest finished pass (or a win found in the unfinished one). Benchmarks pass
both, so the figures are reproducible wherever the count, not the clock, ends the search; in
play the count is what a decision needs on a busy machine well within the 1-second budget
(``bench/bench_levels_fingers.py`` prints the times).

Only the observation is read (it is the whole table).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from time import monotonic
from typing import TYPE_CHECKING

from bot.engines.analysis import Analysis, MoveValue
from bot.engines.fingers import ai as fingers_ai
from bot.engines.fingers.ai import ENGINE, _work, copy_state, forced_win, legal_moves, state_of

if TYPE_CHECKING:
    from bot.engines.fingers.engine import FingersObservation, FingersState

WORK = 2000
"""The others' moves one decision may predict with the model (each a normal-AI decision),
times the number of seats squared, since a prediction costs more at a bigger table: 222 at
three seats, 80 at five, 31 at eight."""
MAX_DEPTH = 4
"""Own decisions looked ahead at most."""
ROLLOUT_MOVES = 80
"""Moves a play-out may last before it counts as a draw."""
SEARCH_NODES = 1500
"""Positions the hard level's own forced-win search may visit before anything else."""
FORCED_WORK = 3000
"""Trial moves that search may play at three players (fewer at bigger tables, at least 200)."""
MODEL_SEED = 0
"""The model's random source is ``random.Random(MODEL_SEED + k)`` at every prediction of the
k-th determinization."""
SEEDS = 1
"""Determinizations of the model (how the normal AI breaks ties and samples asks) averaged."""
WIN, LOSS, DRAW = 1.0, 0.0, 0.25
HAIR = 0.001
"""What each move sooner (a win) or later (a loss) is worth, up to :data:`ROLLOUT_MOVES`."""
OWN_MOVE = 0.1
"""Work counted for each of its own moves the search tries (a model prediction counts 1)."""

Key = tuple[object, ...]


class OutOfWork(Exception):
    """The work count or the deadline ran out in the middle of a pass."""


def position(state: FingersState) -> Key:
    """Everything that decides what happens next (the table is public; bounds are exact)."""
    return (
        state.phase,
        state.current,
        state.asked,
        state.flavour,
        tuple(state.counts),
        tuple(state.remaining),
        tuple(map(tuple, state.lo)),
        tuple(map(tuple, state.hi)),
        tuple(n is not None for n in state.names),
    )


class Planner:
    """One hard decision's search (module notes). Caches live as long as the decision."""

    def __init__(self, me: int, work: float, deadline: float | None, seeds: int = 1) -> None:
        self.me = me
        self.left = work
        self.deadline = deadline
        self.seeds = seeds
        self.seed = MODEL_SEED  # the model's random source now (one per determinization)
        self.moves: dict[tuple[int, Key], str] = {}  # the model's move in a position
        self.reached: dict[
            tuple[int, Key], tuple[FingersState, int]
        ] = {}  # advance(): state, moves
        self.played: dict[tuple[int, Key], float] = {}  # play-out value from a position
        self.values: dict[tuple[int, Key, int], float] = {}  # search value at a depth
        self.found: dict[str, float] = {}
        """Each move's value now: from the deepest pass, or higher from an unfinished one."""
        self.depth = 0
        """Own decisions the deepest finished pass looked at (1: the move itself)."""

    # The model ------------------------------------------------------------------------------

    def _spend(self, amount: float) -> None:
        if self.left <= 0 or (self.deadline is not None and monotonic() >= self.deadline):
            raise OutOfWork
        self.left -= amount

    def predict(self, state: FingersState, key: Key | None = None) -> str:
        """The model's move for whoever is to act in ``state``."""
        key = (self.seed, position(state) if key is None else key)
        move = self.moves.get(key)
        if move is None:
            self._spend(1.0)
            (seat,) = ENGINE.to_act(state)
            obs = ENGINE.observe(state, seat)
            move = fingers_ai.choose_action(obs, random.Random(self.seed))
            self.moves[key] = move
        return move

    def advance(self, state: FingersState) -> tuple[FingersState, int]:
        """The position when I next decide (or the game ends), the others playing the model;
        and how many moves that took. ``state`` is not changed."""
        key = (self.seed, position(state))
        found = self.reached.get(key)
        if found is not None:
            return found
        trial, moves = copy_state(state), 0
        while not ENGINE.is_over(trial) and moves < ROLLOUT_MOVES:
            (seat,) = ENGINE.to_act(trial)
            if seat == self.me:
                break
            ENGINE.apply(trial, seat, self.predict(trial))
            moves += 1
        self.reached[key] = (trial, moves)
        return trial, moves

    def outcome(self, state: FingersState, moves: int) -> float:
        """Value of a finished game ``moves`` moves from the decision being searched."""
        hair = HAIR * min(moves, ROLLOUT_MOVES)
        if state.winner is None:
            return DRAW
        return WIN - hair if state.winner == self.me else LOSS + hair

    def play_out(self, state: FingersState, moves: int) -> float:
        """Everyone, me included, plays the model to the end of the game."""
        key = (self.seed, position(state))
        if key in self.played:
            return self.played[key]
        trial, path, value = copy_state(state), [key], None
        step = 0
        while not ENGINE.is_over(trial) and step < ROLLOUT_MOVES:
            (seat,) = ENGINE.to_act(trial)
            ENGINE.apply(trial, seat, self.predict(trial, path[-1][1]))
            step += 1
            here = (self.seed, position(trial))
            if here in self.played:
                value = self.played[here]
                break
            path.append(here)
        if value is None:
            value = self.outcome(trial, moves + step) if ENGINE.is_over(trial) else DRAW
        for seen in path:  # the model is deterministic: every position on the way agrees
            self.played[seen] = value
        return value

    # My own decisions ---------------------------------------------------------------------

    def after(self, state: FingersState, move: str) -> tuple[FingersState, int]:
        """Play my ``move``, then the others until I decide again."""
        self._spend(OWN_MOVE)
        trial = copy_state(state)
        ENGINE.apply(trial, self.me, move)
        return self.advance(trial)

    def value(self, state: FingersState, moves: int, depth: int) -> float:
        """Value of a position where I decide next (or the game is over), ``depth`` decisions
        of mine searched (0: played out by the model)."""
        if ENGINE.is_over(state):
            return self.outcome(state, moves)
        if depth <= 0:
            return self.play_out(state, moves)
        key = (self.seed, position(state), depth)
        if key in self.values:
            return self.values[key]
        best = -1.0
        children: set[Key] = set()
        for move in legal_moves(ENGINE.observe(state, self.me)):
            child, more = self.after(state, move)
            child_key = position(child)
            if child_key in children:
                continue  # another move led to the same position
            children.add(child_key)
            best = max(best, self.value(child, moves + 1 + more, depth - 1))
            if best >= WIN - HAIR * ROLLOUT_MOVES:
                break  # a win: nothing is better (bar a hair)
        self.values[key] = best
        return best

    def choose(self, state: FingersState, first: str) -> str:
        """Iterative deepening over my moves now; ``first`` (the normal move) wins ties."""
        moves = legal_moves(ENGINE.observe(state, self.me))
        moves.remove(first)
        moves.insert(0, first)
        best, best_value = first, -1.0
        for depth in range(MAX_DEPTH):
            scored: list[tuple[float, str]] = []
            try:
                for move in moves:
                    total = 0.0
                    for k in range(self.seeds):
                        self.seed = MODEL_SEED + k
                        child, more = self.after(state, move)
                        total += self.value(child, 1 + more, depth)
                    scored.append((total / self.seeds, move))
            except OutOfWork:
                # An unfinished pass: a move it already found better is better still (a
                # deeper look never lowers a move's value, the model being fixed).
                for value, move in scored:
                    if value > best_value:
                        best, best_value = move, value
                    self.found[move] = max(value, self.found.get(move, value))
                break
            self.found.update((move, value) for value, move in scored)
            self.depth = depth + 1
            top = max(value for value, _ in scored)
            best, best_value = next(m for v, m in scored if v == top), top
            if top >= WIN - HAIR * ROLLOUT_MOVES or len(moves) == 1:
                break  # a win under the model, or nothing to choose
            order = sorted(range(len(moves)), key=lambda k: -scored[k][0])  # stable
            moves = [moves[k] for k in order]
        return best


def hard_action(obs: FingersObservation, rng: random.Random, deadline: float | None = None) -> str:
    """The hard AI's move for the observed seat (module notes)."""
    return hard_analysis(obs, rng, deadline).move


def hard_analysis(
    obs: FingersObservation,
    rng: random.Random,
    deadline: float | None = None,
    also: Sequence[str] = (),
) -> Analysis:
    """:func:`hard_action` with what it found (:mod:`bot.engines.analysis`): a forced win
    (kind "forced", reason "forced"), or each of its moves' outcome under the model (kind
    "outcome": 1 a win, 0 a loss, :data:`DRAW` no end in sight, a hair sooner or later;
    reason "search", ``detail["depth"]`` its own decisions looked ahead), or the normal
    move when the deadline had passed (reason "late"). The chosen move and the next best
    carry :func:`move_facts`. Every legal move is valued; ``also`` changes nothing."""
    del also  # the search values every legal move
    me = obs.seat
    assert me is not None
    state = state_of(obs)
    first = fingers_ai.choose_action(obs, random.Random(rng.random()))
    if obs.phase == "ask":
        _work["left"] = max(200, FORCED_WORK * 27 // obs.n_players**3)
        win = forced_win(state, SEARCH_NODES)
        if win is not None:
            found = Analysis.of(win, "forced", [MoveValue(move=win, value=WIN)], reason="forced")
            found.best.detail.update(move_facts(state, me, win))
            return found
    if deadline is not None and monotonic() >= deadline:
        found = Analysis.rule(first, "late")
        found.best.detail.update(move_facts(state, me, first))
        return found
    planner = Planner(me, work_for(obs.n_players), deadline, SEEDS)
    move = planner.choose(state, first)
    found = Analysis.of(
        move,
        "outcome",
        [MoveValue(move=m, value=v) for m, v in planner.found.items()],
        reason="search",
        detail={"depth": planner.depth},
    )
    for option in found.top(3):
        option.detail.update(move_facts(state, me, option.move))
    return found


def move_facts(state: FingersState, me: int, move: str) -> dict[str, int | str]:
    """What a move does at once, for the wording: ``"answer"`` how an ask is answered
    ("yes" or "no" when the answer is forced, "choice" when the one asked chooses; absent
    for answers and book decisions), and ``"open"`` how much is left undetermined
    afterwards (the sum over every hand and flavour of the most it may hold less the least:
    the more, the less the others can plan a forced win)."""
    trial = copy_state(state)
    ENGINE.apply(trial, me, move)
    facts: dict[str, int | str] = {
        "open": sum(
            high - low
            for lows, highs in zip(trial.lo, trial.hi, strict=True)
            for low, high in zip(lows, highs, strict=True)
        )
    }
    if state.phase == "ask":
        if trial.phase == "answer":
            facts["answer"] = "choice"
        else:
            facts["answer"] = "yes" if trial.current == me and trial.phase != "over" else "no"
            if trial.phase == "over":
                facts["answer"] = "yes" if trial.winner == me else "no"
    return facts


def work_for(n_players: int) -> float:
    """The predictions one decision may make at a table of ``n_players`` (:data:`WORK`)."""
    return WORK / n_players**2
