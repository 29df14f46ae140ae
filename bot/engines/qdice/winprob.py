"""Two-player Quantum dice: the probability of winning under optimal play.

The "hard" AI level (:func:`bot.engines.qdice.ai.decide`) maximises its chance of winning a
two-player game, as Neller and Presser do for Pig and Farkle. A position at the start of a turn
is ``(i, j)``: the mover's and the other player's banked scores in levels of 50 points (a player
is on the board exactly when their score is above 0, since the first bank needs ``entry``
points). ``V[i, j]`` is the mover's probability of winning from there when both play optimally.

Within a turn the state is ``(dice left, turn total)``. Only the colours of the dice left
matter, and swapping the colours changes nothing in the rules, so the dice state is one of nine
``(a, b)`` with ``a >= b`` (hot dice lead back to ``(3, 3)``). After a keep the player banks or
rolls on; banking ``a`` levels in all gives ``1 - V[j, a]`` (the other player moves next), or,
at the target or beyond, the chance that the other player fails to beat it in their one last
turn (the reach tables of :mod:`bot.engines.qdice.ai`, which are exact for that last turn). A
bust gives ``1 - V[j, i]`` and a black hole (six 2s, on the board) ``1 - V[j, min(i, 20)]``.

Solving (:func:`solve`): ``V[i, j]`` depends on ``V[j, a]`` for ``a > i`` (a bank: a larger
score sum) and on ``V[j, i]`` (a bust: the same sum), so the layers of equal ``i + j`` are
solved from the largest sum down, each needing only larger sums and itself. Within a layer every pair
only couples with its mirror ``(j, i)``; all pairs of a layer are solved at once, with numpy
across the pairs, by value iteration on the coupled pair whose steps are accelerated by the
secant rule (a turn's value is a convex piecewise-linear function of the bust value): about
four sweeps of the turn per layer reach the fixed point to 1e-10. For the default options
that is 32,761 turn starts, 399 layers, about 1,500 sweeps: 5 minutes on one core here.

Approximations besides the 50-point levels:

* a black hole drops the mover to a lower score sum that is not solved yet, so its value is
  taken from a race estimate. A black hole has probability 1/46,656 per roll of six dice; the
  turn equations re-checked on the finished table are off by at most about 1e-6, and a second
  pass seeded with the first table moves a small game's values by at most 2e-6.
* turn totals are followed up to ``target + 6,000`` points banked in all; beyond, the mover
  banks (the other player then needs over 6,000 in one turn: a chance under 0.3%).

The table for the default options (10,000 to win, 1,000 to get on the board) is built by
``scripts/build_qdice_winprob.py`` into ``data/qdice_winprob_10000_1000.npz`` and loaded lazily
(:func:`table_for`, :func:`default_table`; :func:`bot.engines.qdice.ai.warm_up` loads it). A
decision solves the turn of its one pair of scores from ``V`` (:meth:`WinTable.turn`, about
10 ms, the last 64 pairs kept).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from bot.engines.qdice.ai import FRESH, MAX_SHIFT, STATES, STEP, reach_table, roll_groups

CSTATES: tuple[tuple[int, int], ...] = (
    (3, 3),
    (3, 2),
    (3, 1),
    (3, 0),
    (2, 2),
    (2, 1),
    (2, 0),
    (1, 1),
    (1, 0),
)
"""The nine dice states up to swapping colours; index 0 is six fresh dice."""
CINDEX = {s: k for k, s in enumerate(CSTATES)}
N_DICE_STATES = len(CSTATES)
CFRESH = 0
BLACK_HOLE_LEVEL = 1000 // STEP
EXTRA = 6000 // STEP
"""Levels past the target that turns are followed to (then the mover banks)."""

DATA_DIR = Path(__file__).resolve().parents[3] / "data"


def canonical_state(a: int, b: int) -> int:
    """Index into :data:`CSTATES` of ``a`` dice of colour A and ``b`` of colour B left
    (``(0, 0)`` — hot dice — is six fresh dice)."""
    if a + b == 0:
        return CFRESH
    return CINDEX[(max(a, b), min(a, b))]


def canonical_of(index: int) -> int:
    """Canonical index of a :data:`bot.engines.qdice.ai.STATES` index."""
    if index == FRESH:
        return CFRESH
    a, b = STATES[index]
    return canonical_state(a, b)


@dataclass(frozen=True)
class Rolls:
    """Every roll outcome of every dice state, merged and laid out for numpy.

    Outcomes of a state that allow the same options (next state, most points for it) are one
    group. Groups are bucketed by how many options they have: ``buckets[w]`` holds, for each
    group with ``w`` options, those options as ``shift * 9 + next state`` (to index a table
    laid out as ``[level, dice state]``), so that the best option of every group is a gather
    and a max over one axis. Groups are numbered in bucket order.
    """

    buckets: tuple[np.ndarray, ...]  # (groups in bucket, options) int64 offsets
    padded: np.ndarray  # (groups, most options): every group's options, padded with its first
    state: np.ndarray  # (groups,): the dice state each group is a roll of
    chance: np.ndarray  # (groups,): its probability
    weights: np.ndarray  # (9, groups): probability of each group when rolling each state
    bust: np.ndarray  # (9,): probability that a roll scores nothing
    black_hole: int  # the group of six 2s (a score before the board, a black hole on it)


@cache
def rolls() -> Rolls:
    groups: list[tuple[int, float, tuple[tuple[int, int], ...], bool]] = []
    bust = np.zeros(N_DICE_STATES)
    for d, state in enumerate(CSTATES):
        merged: dict[tuple[bool, tuple[tuple[int, int], ...]], float] = defaultdict(float)
        for p, hole, opts in roll_groups(state):
            if not opts:
                bust[d] += p
                continue
            best: dict[int, int] = {}
            for nxt, shift in opts:
                c = canonical_of(nxt)
                best[c] = max(best.get(c, 0), shift)
            merged[(hole, tuple(sorted(best.items())))] += p
        for (hole, opts), p in sorted(merged.items()):
            groups.append((d, p, opts, hole))
    groups.sort(key=lambda g: len(g[2]))  # stable: by state within a bucket
    weights = np.zeros((N_DICE_STATES, len(groups)))
    buckets: dict[int, list[list[int]]] = defaultdict(list)
    black_hole = -1
    for g, (d, p, opts, bh) in enumerate(groups):
        buckets[len(opts)].append([shift * N_DICE_STATES + nxt for nxt, shift in opts])
        weights[d, g] = p
        if bh:
            black_hole = g
    assert black_hole >= 0
    rows = [row for _, bucket in sorted(buckets.items()) for row in bucket]
    width = max(len(row) for row in rows)
    return Rolls(
        buckets=tuple(np.asarray(rows, dtype=np.int64) for _, rows in sorted(buckets.items())),
        padded=np.asarray([row + row[:1] * (width - len(row)) for row in rows], dtype=np.int64),
        state=weights.argmax(axis=0),
        chance=weights.max(axis=0),
        weights=weights,
        bust=bust,
        black_hole=black_hole,
    )


def best_options(flat: np.ndarray, row: int) -> np.ndarray:
    """``best[g, k]``: the best value among group ``g``'s options when ``row`` levels are on
    the turn, from ``flat[level * 9 + dice state, k]``."""
    base = row * N_DICE_STATES
    return np.concatenate([flat[offsets + base].max(axis=1) for offsets in rolls().buckets])


@cache
def last_turn_odds(on_board: bool, levels: int) -> np.ndarray:
    """``odds[n]``: chance that one turn (from six dice) gains at least ``n`` levels."""
    reach = reach_table(on_board)
    return np.array([reach.prob(FRESH, n) for n in range(levels + 1)])


@dataclass(frozen=True)
class Game:
    """The options a table is solved for, in levels of 50 points."""

    target: int  # levels to reach
    entry: int  # levels a first bank needs
    extra: int = EXTRA  # levels past the target that turns are followed to

    @classmethod
    def of(cls, target: int, entry: int, extra: int = EXTRA) -> Game:
        return cls(-(-target // STEP), -(-entry // STEP), extra)

    @property
    def top(self) -> int:
        return self.target + self.extra

    def scores(self) -> list[int]:
        """Banked scores a turn can start from: 0 (off the board) or ``entry .. target - 1``."""
        return [0, *range(max(self.entry, 1), self.target)]

    def beaten_odds(self, j: int, a: int) -> float:
        """Chance that a player at ``j`` beats ``a`` (≥ target) in their one last turn."""
        need = a - j + 1
        if j == 0:
            need = max(need, self.entry)
        odds = last_turn_odds(j > 0, self.top + MAX_SHIFT + 1)
        return float(odds[need]) if need < len(odds) else 0.0


def _race_estimate(game: Game, i: int, j: int) -> float:
    """A rough chance of winning (for the black-hole term only): a normal race on expected
    turns, about 620 points a turn with a spread of about 800."""
    mine = (game.target - i) * STEP / 620 - 0.5
    theirs = (game.target - j) * STEP / 620
    z = (theirs - mine) / math.sqrt(max(mine + theirs, 1.0) * (800 / 620) ** 2 + 1.0)
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


class TurnSolver:
    """The optimal turn for many score pairs at once (one column per pair)."""

    def __init__(
        self,
        game: Game,
        i: np.ndarray,
        j: np.ndarray,
        V: np.ndarray,
        black_hole_guess: np.ndarray | None = None,
    ) -> None:
        self.game = game
        self.i = i
        self.j = j
        self.rolled: np.ndarray | None = None
        """The roll values of the last solve, while kept (see :meth:`roll_value`)."""
        self.low = int(i.min())
        T = game.target
        levels = np.arange(self.low, game.top + 2 * MAX_SHIFT + 2)
        self.levels = len(levels)
        # bank[a - low, k]: winning chance of banking a levels in all, where allowed
        below = np.minimum(levels, T - 1)
        bank = 1.0 - V[j[None, :], below[:, None]]
        need = levels[:, None] - j[None, :] + 1
        need = np.where(j[None, :] == 0, np.maximum(need, game.entry), need)
        size = 2 * game.top + 2 * MAX_SHIFT + 2  # the most any pair needs: one cached table
        odds_on = last_turn_odds(True, size)
        odds_off = last_turn_odds(False, size)
        beaten = np.where(j[None, :] > 0, odds_on[need], odds_off[need])
        bank = np.where(levels[:, None] >= T, 1.0 - beaten, bank)
        self.can_bank = (levels[:, None] > i[None, :]) & (levels[:, None] >= game.entry)
        assert not np.isnan(bank[self.can_bank]).any(), "a bank leads to an unsolved score"
        self.bank = np.where(self.can_bank, bank, 0.0)
        self.on_board = i > 0
        # A black hole: back to 1,000 (or less), the other player to move.
        drop = np.minimum(i, BLACK_HOLE_LEVEL)
        known = 1.0 - V[j, drop]
        if black_hole_guess is not None:
            guess = 1.0 - black_hole_guess[j, drop]
        else:
            guess = np.array(
                [1.0 - _race_estimate(game, b, a) for a, b in zip(drop, j, strict=True)]
            )
        self.black_hole_value = np.where(np.isnan(known), guess, known)
        self.same_as_bust = drop == i

    def run(
        self, busted: np.ndarray, stop: int | None = None, deadline: float | None = None
    ) -> np.ndarray:
        """Solve the turn from the top level down to ``stop`` (default: the lowest score of
        the pairs), given ``busted[k]``, the winning chance after a bust.

        Keeps ``value[a - low, d, k]`` (after a keep with ``d`` dice to roll: the better of
        banking and rolling on) and returns ``fresh[a - low, k]``, the value of rolling six
        fresh dice with ``a`` levels banked-to-be (at ``a = i`` that is the turn's start).
        """
        r = rolls()
        game = self.game
        n = len(self.i)
        low = self.low
        stop = low if stop is None else stop
        value = np.empty((self.levels, N_DICE_STATES, n))
        beyond = game.top + 1 - low
        value[beyond:] = self.bank[beyond:, None, :]
        flat = value.reshape(self.levels * N_DICE_STATES, n)
        bh_value = np.where(self.same_as_bust, busted, self.black_hole_value)
        bh_value = np.where(self.on_board, bh_value, np.nan)
        bust_term = r.bust[:, None] * busted[None, :]
        fresh = np.zeros((self.levels, n))
        if n == 1:
            self.value = value
            self.rolled = self._run_one(value, float(busted[0]), float(bh_value[0]), stop, deadline)
            fresh[:, 0] = self.rolled[:, CFRESH]
            return fresh
        for a in range(game.top, stop - 1, -1):
            row = a - low
            if deadline is not None and a % 16 == 0 and time.monotonic() > deadline:
                raise TimeoutError("the turn was not solved before the deadline")
            best = best_options(flat, row)
            best[r.black_hole] = np.where(self.on_board, bh_value, best[r.black_hole])
            roll = np.einsum("dg,gn->dn", r.weights, best) + bust_term
            fresh[row] = roll[CFRESH]
            value[row] = np.where(self.can_bank[row], np.maximum(roll, self.bank[row]), roll)
        self.value = value
        self.rolled = None
        return fresh

    def _run_one(
        self,
        value: np.ndarray,
        busted: float,
        black_hole: float,
        stop: int,
        deadline: float | None,
    ) -> np.ndarray:
        """:meth:`run` for a single pair (a decision's), with fewer, smaller numpy steps;
        returns the roll values ``rolled[a - low, d]``."""
        r = rolls()
        low = self.low
        flat = value.reshape(-1)
        rolled = np.zeros((self.levels, N_DICE_STATES))
        bust_term = r.bust * busted
        can_bank = self.can_bank[:, 0]
        bank = self.bank[:, 0]
        on_board = bool(self.on_board[0])
        for a in range(self.game.top, stop - 1, -1):
            row = a - low
            if deadline is not None and a % 16 == 0 and time.monotonic() > deadline:
                raise TimeoutError("the turn was not solved before the deadline")
            best = flat[r.padded + row * N_DICE_STATES].max(axis=1)
            if on_board:
                best[r.black_hole] = black_hole
            roll = np.bincount(r.state, r.chance * best, N_DICE_STATES) + bust_term
            rolled[row] = roll
            value[row, :, 0] = np.maximum(roll, bank[row]) if can_bank[row] else roll
        return rolled


def solve(
    target: int = 10_000,
    entry: int = 1_000,
    tol: float = 1e-10,
    black_hole_guess: np.ndarray | None = None,
    progress: Callable[[str], None] | None = None,
    trace: list[tuple[int, float]] | None = None,
    extra: int = EXTRA,
) -> np.ndarray:
    """``V[i, j]`` for every pair of turn-start scores (nan where no turn starts).

    ``tol``: how close each layer's fixed point is reached. ``black_hole_guess``: a solved
    table to take the not-yet-solved black-hole values from (default: a race estimate).
    ``progress`` gets a line now and then; ``trace`` collects (score sum, residual) per sweep.
    ``extra``: levels past the target that turns are followed to (tests use small ones).
    """
    game = Game.of(target, entry, extra)
    T = game.target
    V = np.full((T, T), np.nan)
    slopes = np.full((T, T), np.nan)  # how a turn's value moves with the bust value
    scores = game.scores()
    valid = np.zeros(T, dtype=bool)
    valid[scores] = True
    sweeps = 0
    started = time.perf_counter()
    for total in range(2 * (T - 1), -1, -1):
        pairs = [(i, total - i) for i in scores if 0 <= total - i < T and valid[total - i]]
        if not pairs:
            continue
        i = np.array([p[0] for p in pairs])
        j = np.array([p[1] for p in pairs])
        where = {p: k for k, p in enumerate(pairs)}
        mirror = np.array([where[(b, a)] for a, b in pairs])
        solver = TurnSolver(game, i, j, V, black_hole_guess)
        x = np.array([_guess(V, game, a, b) for a, b in pairs])
        slope = np.array([_guess(slopes, game, a, b, 0.3) for a, b in pairs])
        prev_b: np.ndarray | None = None
        prev_f: np.ndarray | None = None
        for _ in range(50):
            busted = 1.0 - x[mirror]
            fresh = solver.run(busted)
            f = fresh[i - solver.low, np.arange(len(pairs))]
            sweeps += 1
            if trace is not None:
                trace.append((total, float(np.max(np.abs(f - x)))))
            if np.max(np.abs(f - x)) < tol:
                x = f
                break
            if prev_b is not None and prev_f is not None:
                db = busted - prev_b
                moved = np.abs(db) > 1e-13
                slope = np.where(moved, (f - prev_f) / np.where(moved, db, 1.0), slope)
                slope = np.clip(slope, 0.0, 1.0)
            prev_b, prev_f = busted, f
            # Linearise x_k = f_k + s_k ((1 - x_m) - b_k) for k and its mirror m, then solve.
            c = f + slope * (1.0 - busted)
            s_m = slope[mirror]
            x = (c - slope * c[mirror]) / (1.0 - slope * s_m)
            x = np.clip(x, 0.0, 1.0)
        else:
            raise RuntimeError(f"layer {total} did not converge")
        V[i, j] = x
        slopes[i, j] = slope
        if progress is not None and total % 50 == 0:
            progress(
                f"sum {total}: {len(pairs)} pairs, {sweeps} sweeps so far, "
                f"{time.perf_counter() - started:.0f} s"
            )
    return V


def _guess(V: np.ndarray, game: Game, i: int, j: int, default: float = 0.5) -> float:
    """A starting value for ``(i, j)`` from its solved neighbours (extrapolated along j)."""
    T = game.target
    if j + 2 < T and not np.isnan(V[i, j + 1]) and not np.isnan(V[i, j + 2]):
        return float(2 * V[i, j + 1] - V[i, j + 2])
    for a, b in ((i, j + 1), (i + 1, j)):
        if a < T and b < T and not np.isnan(V[a, b]):
            return float(V[a, b])
    return default


# The solved table ---------------------------------------------------------------------------

FORMAT = 1


def table_path(target: int = 10_000, entry: int = 1_000) -> Path:
    return DATA_DIR / f"qdice_winprob_{target}_{entry}.npz"


def save_table(
    path: Path, V: np.ndarray, target: int, entry: int, seconds: float, extra: int = EXTRA
) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        path,
        V=V,
        target=target,
        entry=entry,
        extra=extra,
        format=FORMAT,
        seconds=seconds,
    )


def load_table(path: Path) -> WinTable | None:
    """The table saved at ``path``, or None if it is missing or of another format."""
    try:
        with np.load(path) as data:
            if int(data["format"]) != FORMAT:
                return None
            game = Game.of(int(data["target"]), int(data["entry"]), int(data["extra"]))
            return WinTable(game, np.array(data["V"]), float(data["seconds"]))
    except (OSError, KeyError, ValueError):
        return None


_TABLES: dict[tuple[int, int], WinTable | None] = {}


def table_for(target: int, entry: int) -> WinTable | None:
    """The solved table for these options, loaded once from ``data/`` (None: not solved)."""
    key = (target, entry)
    if key not in _TABLES:
        _TABLES[key] = load_table(table_path(target, entry))
    return _TABLES[key]


def default_table() -> WinTable | None:
    """The table for the default options (10,000 to win, 1,000 to get on the board)."""
    return table_for(10_000, 1_000)


class WinTable:
    """A solved ``V`` and the turns decisions need from it (one solved turn per score pair,
    the most recent ones kept)."""

    KEEP_TURNS = 64

    def __init__(self, game: Game, V: np.ndarray, seconds: float = 0.0) -> None:
        self.game = game
        self.V = V
        self.seconds = seconds
        self._turns: OrderedDict[tuple[int, int], TurnSolver] = OrderedDict()

    def covers(self, i: int, j: int) -> bool:
        """Whether ``(i, j)`` is a turn start this table solved."""
        T = self.game.target
        return 0 <= i < T and 0 <= j < T and not np.isnan(self.V[i, j])

    def win_chance(self, i: int, j: int) -> float:
        """The mover's chance of winning at the start of a turn from ``(i, j)``."""
        return float(self.V[i, j])

    def cached_turn(self, i: int, j: int) -> TurnSolver | None:
        return self._turns.get((i, j))

    def turn(self, i: int, j: int, deadline: float | None = None) -> TurnSolver:
        """The solved turn of ``(i, j)`` (raises :class:`TimeoutError` past ``deadline``)."""
        key = (i, j)
        solver = self._turns.get(key)
        if solver is None:
            solver = TurnSolver(self.game, np.array([i]), np.array([j]), self.V)
            solver.run(np.array([1.0 - self.V[j, i]]), deadline=deadline)
            self._turns[key] = solver
            while len(self._turns) > self.KEEP_TURNS:
                self._turns.popitem(last=False)
        else:
            self._turns.move_to_end(key)
        return solver

    def bank_value(self, solver: TurnSolver, a: int) -> float:
        """Winning chance of banking ``a`` levels in all (the bank must be allowed)."""
        row = a - solver.low
        if row < solver.levels:
            return float(solver.bank[row, 0])
        return 1.0 - self.game.beaten_odds(int(solver.j[0]), a)

    def roll_value(self, solver: TurnSolver, a: int, dice: int) -> float:
        """Winning chance of rolling dice state ``dice`` (a :data:`CSTATES` index) with ``a``
        levels banked-to-be; -1 beyond the levels followed (where the mover banks)."""
        assert solver.rolled is not None
        if a > self.game.top:
            return -1.0
        return float(solver.rolled[a - solver.low, dice])
