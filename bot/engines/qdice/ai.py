"""Quantum dice AI: exact dynamic programming over a turn, plus game-context rules.

A turn is a Markov chain on (which dice are left to roll, turn total). Only the colours of the
dice left matter, so there are 15 dice states ``(a, b)``: ``a`` dice of colour A and ``b`` of
colour B (setting all six aside — hot dice — leads back to ``(3, 3)``). Every roll outcome of a
state is enumerated once (as colour-wise multisets with their multinomial weights) together
with its legal keeps; keeps that leave the same dice state only differ in points, so each
outcome reduces to "best points per next state". Outcomes with identical option sets are
merged, which leaves about 5,600 (next state, points) pairs to scan per turn-total level.

From that one structure the module solves, lazily and once per process:

* the expected-turn-score table (bank or roll, best keep) by backward induction over the turn
  total in 50-point levels up to 10,000 (beyond it, a one-roll look-ahead bound). On the board
  any total may be banked; off the board banking needs ``entry`` points. From six dice the
  optimum is about 620 points a turn (:func:`expected_turn_value`).
* reach tables: the probability of adding at least ``d`` more points this turn, by forward
  induction over ``d``, extended on demand. They drive the last-turn play (roll until strictly
  beating the contingent winner) and estimate the opponents' chances in the end game.

The decision (:func:`choose_action`) uses only the observation and always answers with the
one-step ``roll:…``/``bank:…`` form.

Levels (:func:`decide`): "normal" is :func:`choose_action`. "easy" plays like a beginner (it
often keeps every scoring die, banks once the turn reaches a comfortable total whatever the dice
left, so it banks early with many dice and pushes on with one or two, and ignores the other
players' scores until the last turn). "hard" maximises its chance of winning a two-player game
from the table solved by :mod:`bot.engines.qdice.winprob` (default options only; otherwise it
plays like "normal", whose end-game rules already play for the win when a keep reaches the
target and in a last turn). Against "normal" it wins 51.1% of two-player games over
alternating starts (54.0% moving first, 48.1% second), computed exactly by
:mod:`bot.engines.qdice.duel`: normal is close to optimal, so the edge is small.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement, product
from typing import TYPE_CHECKING, Any

from bot.engines.analysis import Analysis, Detail, MoveValue
from bot.engines.qdice.scoring import DieKey, score_key, scoring_keeps

if TYPE_CHECKING:
    from bot.engines.qdice.engine import QDiceObservation

STEP = 50  # every score is a multiple of 50
MAX_SHIFT = 5000 // STEP  # the largest single keep (Quantum), in levels
TOP_LEVEL = 10_000 // STEP  # expected-score tables are exact up to this turn total
REACH_CAP = 40_000 // STEP  # reach tables stop growing here (the odds are ~0 beyond)

DiceState = tuple[int, int]
STATES: tuple[DiceState, ...] = tuple((a, b) for a in range(4) for b in range(4) if a + b)
INDEX = {state: i for i, state in enumerate(STATES)}
FRESH = INDEX[(3, 3)]

# One merged roll outcome: probability, black-hole flag, ((next state index, level shift), …).
Group = tuple[float, bool, tuple[tuple[int, int], ...]]


@cache
def _sub_multisets(values: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Distinct sub-multisets of a sorted tuple of values."""
    counts = sorted(Counter(values).items())
    subs = []
    for picks in product(*(range(c + 1) for _, c in counts)):
        subs.append(tuple(v for (v, _), k in zip(counts, picks, strict=True) for _ in range(k)))
    return tuple(subs)


def _multiset_weight(values: tuple[int, ...]) -> int:
    weight = math.factorial(len(values))
    for count in Counter(values).values():
        weight //= math.factorial(count)
    return weight


@cache
def roll_groups(state: DiceState) -> tuple[Group, ...]:
    """Every outcome of rolling ``state``'s dice, merged by the keeps it allows.

    A group with no options is a bust. Six 2s carry the black-hole flag: they score as three
    pairs before the board and end the turn once on it.
    """
    a, b = state
    n = a + b
    merged: dict[tuple[bool, tuple[tuple[int, int], ...]], float] = defaultdict(float)
    for va in combinations_with_replacement(range(1, 7), a):
        for vb in combinations_with_replacement(range(1, 7), b):
            weight = _multiset_weight(va) * _multiset_weight(vb) / 6**n
            best: dict[int, int] = {}
            for sa in _sub_multisets(va):
                for sb in _sub_multisets(vb):
                    if not sa and not sb:
                        continue
                    key: tuple[DieKey, ...] = tuple(
                        sorted([(v, "A") for v in sa] + [(v, "B") for v in sb])
                    )
                    points = score_key(key, n)
                    if points is None:
                        continue
                    rest = (a - len(sa), b - len(sb))
                    nxt = FRESH if rest == (0, 0) else INDEX[rest]
                    shift = points // STEP
                    if best.get(nxt, -1) < shift:
                        best[nxt] = shift
            black_hole = n == 6 and set(va) | set(vb) == {2}
            merged[(black_hole, tuple(sorted(best.items())))] += weight
    return tuple((p, bh, opts) for (bh, opts), p in merged.items())


@cache
def _options(
    state: DiceState, on_board: bool
) -> tuple[tuple[float, tuple[tuple[int, int], ...]], ...]:
    """Non-bust groups of a state; a black hole counts as a bust for a player on the board."""
    return tuple((p, opts) for p, bh, opts in roll_groups(state) if opts and not (bh and on_board))


@cache
def best_gain_distribution(state: int, on_board: bool) -> tuple[tuple[int, float], ...]:
    """Distribution of the most levels one roll of dice ``state`` can keep (busts left out)."""
    dist: dict[int, float] = defaultdict(float)
    for p, opts in _options(STATES[state], on_board):
        dist[max(s for _, s in opts)] += p
    return tuple(sorted(dist.items()))


class ScoreTable:
    """Expected final turn score under optimal play, per (dice state, turn-total level)."""

    def __init__(self, entry: int, on_board: bool) -> None:
        self.entry = entry
        self.on_board = on_board
        self.width = TOP_LEVEL + MAX_SHIFT + 2
        groups = [_options(state, on_board) for state in STATES]
        self.pass_prob = [sum(p for p, _ in g) for g in groups]
        self.mean_gain = [sum(p * STEP * max(s for _, s in opts) for p, opts in g) for g in groups]
        width = self.width
        flat = [[(p, [i * width + s for i, s in opts]) for p, opts in g] for g in groups]
        value = [0.0] * (len(STATES) * width)
        roll = [0.0] * (len(STATES) * width)
        for i in range(len(STATES)):
            for level in range(TOP_LEVEL + 1, width):
                roll[i * width + level] = self._bound(i, level)
                value[i * width + level] = max(self.bank_value(level), roll[i * width + level])
        for level in range(TOP_LEVEL, -1, -1):
            bank = self.bank_value(level)
            for i, g in enumerate(flat):
                total = 0.0
                for p, offsets in g:
                    total += p * max([value[o + level] for o in offsets])
                roll[i * width + level] = total
            for i in range(len(STATES)):
                value[i * width + level] = max(bank, roll[i * width + level])
        self._roll = roll

    def bank_value(self, level: int) -> float:
        """Points for banking at ``level``; -1 when banking is not allowed (below entry)."""
        points = level * STEP
        return float(points) if self.on_board or points >= self.entry else -1.0

    def _bound(self, i: int, level: int) -> float:
        """Beyond the table: roll once more and bank (a close lower bound at such totals)."""
        return self.pass_prob[i] * level * STEP + self.mean_gain[i]

    def roll_value(self, state: int, level: int) -> float:
        """Expected final turn score of rolling dice ``state`` with ``level`` on the turn."""
        if level < self.width:
            return self._roll[state * self.width + level]
        return self._bound(state, level)

    def value(self, state: int, level: int) -> float:
        return max(self.bank_value(level), self.roll_value(state, level))


_BUILT: set[tuple[int, bool]] = set()


@cache
def score_table(entry: int, on_board: bool) -> ScoreTable:
    """The cached expected-score table (``entry`` only matters off the board)."""
    table = ScoreTable(0 if on_board else entry, on_board)
    _BUILT.add((entry, on_board))
    return table


def expected_turn_value(on_board: bool = True, entry: int = 0) -> float:
    """Expected points of a whole turn from six dice under the optimal policy."""
    return score_table(entry, on_board).roll_value(FRESH, 0)


class ReachTable:
    """P(this turn adds at least ``d`` levels more), per dice state; grown on demand."""

    def __init__(self, on_board: bool) -> None:
        self._groups = [_options(state, on_board) for state in STATES]
        self._rows: list[list[float]] = [[1.0] for _ in STATES]  # d = 0 always succeeds

    def prob(self, state: int, need: int) -> float:
        """Probability of gaining ``need`` levels (≤ 0: certain) when rolling ``state``."""
        if need <= 0:
            return 1.0
        need = min(need, REACH_CAP)
        rows = self._rows
        while len(rows[0]) <= need:
            d = len(rows[0])
            new = []
            for g in self._groups:
                total = 0.0
                for p, opts in g:
                    best = 0.0
                    for i, s in opts:
                        left = d - s
                        chance = 1.0 if left <= 0 else rows[i][left]
                        if chance > best:
                            best = chance
                    total += p * best
                new.append(total)
            for row, value in zip(rows, new, strict=True):
                row.append(value)
        return rows[state][need]


@cache
def reach_table(on_board: bool) -> ReachTable:
    return ReachTable(on_board)


def warm_up(entries: Sequence[int] = (1_000,), target: int = 10_000) -> None:
    """Build the tables decisions use (a couple of seconds of work) for these entry
    thresholds and games to ``target``: expected scores on and off the board, and the chances
    of reaching a goal. Other options grow them on demand.

    For the "hard" level it also loads the solved two-player table of the default options
    from ``data/qdice_winprob_10000_1000.npz`` (written by ``scripts/build_qdice_winprob.py``;
    it is not solved here, which takes minutes) and builds the roll structure its turns use.
    Run it in every process that decides (each worker process of the bot)."""
    for entry in entries:
        for on_board in (True, False):
            score_table(entry, on_board)
    for on_board in (True, False):
        reach_table(on_board).prob(FRESH, levels_needed(2 * target))  # a leader far ahead
    from bot.engines.qdice import winprob as qdice_winprob

    for entry in entries:
        table = qdice_winprob.table_for(target, entry)
        if table is not None:
            table.turn(0, 0)  # builds the roll structure and the last-turn odds


def levels_needed(points: int) -> int:
    """Levels of 50 needed to gain at least ``points``."""
    return -(-points // STEP)


# Decisions ----------------------------------------------------------------------------------

Option = tuple[tuple[int, ...], int, int]  # (indices kept, points, next dice state index)


def keep_options(dice: Sequence[Any]) -> list[Option]:
    """Legal keeps of the roll, one per next dice state (the most points; first on ties)."""
    best: dict[int, Option] = {}
    for indices, points in scoring_keeps(dice):
        left = [d for i, d in enumerate(dice) if i not in indices]
        a = sum(1 for d in left if d.colour == "A")
        nxt = FRESH if not left else INDEX[(a, len(left) - a)]
        if nxt not in best or best[nxt][1] < points:
            best[nxt] = (indices, points, nxt)
    return sorted(best.values())


def _move(verb: str, indices: Sequence[int]) -> str:
    return f"{verb}:{''.join(str(i) for i in indices)}"


def choose_action(obs: QDiceObservation, rng: random.Random | None = None) -> str:
    """Pick the move for the seat to act, from the observation alone.

    * Last turn (someone else is the contingent winner): maximise the chance of strictly
      beating the leader this turn, banking as soon as the keep does.
    * A keep that would reach the target: weigh "bank now and let everyone else have one last
      turn" against one more roll, in probability of winning (opponents' odds from the reach
      tables).
    * Otherwise: the expected-score table (with the entry threshold while off the board).
    """
    del rng  # the policy is deterministic; the parameter is the engine protocol's
    return normal_analysis(obs).move


def normal_analysis(obs: QDiceObservation, also: Sequence[str] = ()) -> Analysis:
    """:func:`choose_action`'s move with the values it compared (module notes of
    :mod:`bot.engines.analysis`): a last turn's chances to beat the leader (scope "beat",
    reason "last-turn"), the chances to win of the keeps that reach the target (reason
    "end-game"), or else the expected points of the turn (kind "turn", reason "turn").
    ``also``: one-step moves to value besides the keeps the policy weighs."""
    me = obs.current
    if me is None:
        raise ValueError("nobody is to act: the game is over")
    options = keep_options(obs.dice)
    if not options:
        raise ValueError("the roll on the table does not score")
    extra = [k for k in (_keep_of(obs, m) for m in also) if k is not None]
    if obs.final_round:
        return _last_turn(obs, me, options, extra)
    mine = obs.scores[me]
    crossing = [
        o
        for o in options
        if mine + obs.turn_total + o[1] >= obs.target
        and (obs.on_board[me] or obs.turn_total + o[1] >= obs.entry)
    ]
    if crossing:
        return _end_game(obs, me, crossing, extra)
    table = score_table(obs.entry, obs.on_board[me])
    level = obs.turn_total // STEP
    best: tuple[float, int, str] | None = None
    values: list[MoveValue] = []
    for indices, points, nxt in options:
        after = level + points // STEP
        bank = table.bank_value(after)
        roll = table.roll_value(nxt, after)
        choice = (bank, 1, _move("bank", indices)) if bank >= roll else None
        candidate = choice or (roll, 0, _move("roll", indices))
        if best is None or candidate[:2] > best[:2]:
            best = candidate
        values += _both(obs, indices, points, bank, roll, bank >= 0)
    assert best is not None
    for indices, points, nxt in extra:
        after = level + points // STEP
        bank = table.bank_value(after)
        values += _both(obs, indices, points, bank, table.roll_value(nxt, after), bank >= 0)
    return Analysis.of(best[2], "turn", values, scope="turn", reason="turn")


def _both(
    obs: QDiceObservation,
    indices: Sequence[int],
    points: int,
    bank: float,
    roll: float,
    may_bank: bool,
) -> list[MoveValue]:
    """A keep's two moves with their values (banking only where it is allowed); their
    detail: the points the keep adds ("keep") and the dice a roll would throw ("dice")."""
    detail: Detail = {"keep": points, "dice": len(obs.dice) - len(indices) or 6}
    out = [MoveValue(move=_move("roll", indices), value=roll, detail=detail)]
    if may_bank:
        out.append(MoveValue(move=_move("bank", indices), value=bank, detail=detail))
    return out


def _keep_of(obs: QDiceObservation, move: str) -> Option | None:
    """The keep a one-step ``roll:…``/``bank:…`` move makes, if it scores."""
    verb, _, picks = move.partition(":")
    if verb not in ("roll", "bank") or not picks.isdigit():
        return None
    indices = tuple(sorted(int(ch) for ch in picks))
    points = dict(scoring_keeps(obs.dice)).get(indices)
    if points is None:
        return None
    left = [d for i, d in enumerate(obs.dice) if i not in indices]
    a = sum(1 for d in left if d.colour == "A")
    return (indices, points, FRESH if not left else INDEX[(a, len(left) - a)])


def _last_turn(
    obs: QDiceObservation, me: int, options: list[Option], extra: list[Option]
) -> Analysis:
    leader = obs.contingent_winner
    assert leader is not None
    goal = obs.scores[leader] - obs.scores[me] + 1
    if not obs.on_board[me]:
        goal = max(goal, obs.entry)
    reach = reach_table(obs.on_board[me])
    best: tuple[float, int, str] | None = None
    values: list[MoveValue] = []
    for number, (indices, points, nxt) in enumerate([*options, *extra]):
        total = obs.turn_total + points
        if total >= goal:
            candidate = (1.0, points, _move("bank", indices))
        else:
            chance = reach.prob(nxt, levels_needed(goal - total))
            candidate = (chance, points, _move("roll", indices))
        if number < len(options) and (best is None or candidate[:2] > best[:2]):
            best = candidate
        detail: Detail = {"keep": points, "dice": len(obs.dice) - len(indices) or 6}
        values.append(MoveValue(move=candidate[2], value=candidate[0], detail=detail))
    assert best is not None
    return Analysis.of(
        best[2], "win", values, scope="beat", reason="last-turn",
        detail={"leader": leader, "need": goal - obs.turn_total},
    )  # fmt: skip


def _end_game(
    obs: QDiceObservation, me: int, options: list[Option], extra: list[Option]
) -> Analysis:
    """Choose among keeps that reach the target, in probability of winning the game."""
    rivals = [j for j in range(obs.n_players) if j != me]
    mine = obs.scores[me]
    cache: dict[int, float] = {}

    def bank_chance(turn: int) -> float:
        """Chance nobody beats ``mine + turn`` in their one last turn."""
        if turn not in cache:
            final = mine + turn
            chance = 1.0
            for j in rivals:
                need = final - obs.scores[j] + 1
                if not obs.on_board[j]:
                    need = max(need, obs.entry)
                chance *= 1.0 - reach_table(obs.on_board[j]).prob(FRESH, levels_needed(need))
            cache[turn] = chance
        return cache[turn]

    best: tuple[float, int, str] | None = None
    values: list[MoveValue] = []
    for number, (indices, points, nxt) in enumerate([*options, *extra]):
        turn = obs.turn_total + points
        bank = bank_chance(turn)
        # One more roll, then bank the best keep (a bust, or a black hole, forfeits the turn);
        # bank_chance grows with the total, so the best keep is the one with the most points.
        roll = sum(
            p * bank_chance(turn + gain * STEP)
            for gain, p in best_gain_distribution(nxt, obs.on_board[me])
        )
        candidate = (bank, 1, _move("bank", indices)) if bank >= roll else None
        candidate = candidate or (roll, 0, _move("roll", indices))
        if number < len(options) and (best is None or candidate[:2] > best[:2]):
            best = candidate
        values += _both(obs, indices, points, bank, roll, True)
    assert best is not None
    return Analysis.of(best[2], "win", values, scope="game", reason="end-game")


def threshold_action(obs: QDiceObservation, threshold: int = 300) -> str:
    """A simple rival: keep the most points; bank at ``threshold`` once allowed to bank.

    Off the board it has to reach ``entry`` first. It knows nothing of the end game.
    """
    me = obs.current
    if me is None:
        raise ValueError("nobody is to act: the game is over")
    indices, points = max(scoring_keeps(obs.dice), key=lambda k: (k[1], len(k[0])))
    total = obs.turn_total + points
    if total >= threshold and (obs.on_board[me] or total >= obs.entry):
        return _move("bank", indices)
    return _move("roll", indices)


# Levels ---------------------------------------------------------------------------------------

LEVELS = ("easy", "normal", "hard")

EASY_KEEP_ALL = 0.6
"""How often "easy" keeps every scoring die (most points) instead of normal's best keep."""
EASY_COMFORT = (300, 350, 400, 450)
"""Turn totals at which "easy" is happy to bank (one drawn per decision), dice left or not."""


def decide(
    obs: QDiceObservation, level: str, rng: random.Random, deadline: float | None = None
) -> str:
    """The move of an AI seat playing at ``level`` ("easy", "normal" or "hard").

    ``deadline`` is a :func:`time.monotonic` instant: "hard" returns its best move so far
    once it has passed (normal's move, or a simple one if normal's tables are not built yet).
    Always a legal one-step ``roll:…``/``bank:…`` move. The hard move is :func:`analyse`'s.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; use one of {', '.join(LEVELS)}")
    if obs.current is None:
        raise ValueError("nobody is to act: the game is over")
    if level == "easy":
        return easy_action(obs, rng)
    if level == "hard":
        return analyse(obs, rng, deadline).move
    if deadline is not None and time.monotonic() > deadline and not _tables_ready(obs):
        return quick_action(obs)
    return choose_action(obs, rng)


def analyse(
    obs: QDiceObservation,
    rng: random.Random | None = None,
    deadline: float | None = None,
    also: Sequence[str] = (),
) -> Analysis:
    """The hard level's decision with the values behind it (:mod:`bot.engines.analysis`).

    Two players with the default options: every keep's chance to win the game banking now
    and rolling on, from the solved table (reason "table"). Elsewhere the hard level plays as
    normal does (:func:`normal_analysis`), or, past the deadline before normal's tables are
    built, a quick rule (reason "quick"). Each option's ``detail["keep"]`` is the points its
    keep adds. ``rng`` is unused (the levels are deterministic)."""
    del rng
    if obs.current is None:
        raise ValueError("nobody is to act: the game is over")
    found = hard_analysis(obs, deadline, also)
    if found is not None:
        return found
    if deadline is not None and time.monotonic() > deadline and not _tables_ready(obs):
        return Analysis.rule(quick_action(obs), "quick")
    return normal_analysis(obs, also)


def _tables_ready(obs: QDiceObservation) -> bool:
    """Whether normal's expected-score table for the mover is built (it takes a second)."""
    me = obs.current
    assert me is not None
    return (obs.entry, obs.on_board[me]) in _BUILT


def quick_action(obs: QDiceObservation) -> str:
    """A move at once, for when there is no time for anything else: keep the most points;
    in a last turn roll until ahead of the leader, else bank from 300 once allowed."""
    me = obs.current
    assert me is not None
    if obs.final_round and obs.contingent_winner is not None:
        indices, points = max(scoring_keeps(obs.dice), key=lambda k: (k[1], len(k[0])))
        total = obs.turn_total + points
        ahead = obs.scores[me] + total > obs.scores[obs.contingent_winner]
        allowed = obs.on_board[me] or total >= obs.entry
        return _move("bank" if ahead and allowed else "roll", indices)
    return threshold_action(obs, 300)


def easy_action(obs: QDiceObservation, rng: random.Random) -> str:
    """A beginner: sensible, with a beginner's mistakes.

    * Keeps every scoring die (the most points) ``EASY_KEEP_ALL`` of the time, else normal's
      keep.
    * Banks once the turn reaches a comfortable total (``EASY_COMFORT``, or the entry while
      off the board), however many dice are left: early with five or six dice, and pushing on
      with one or two when below it. Hot dice change nothing.
    * Ignores the scores: banks on reaching the target whatever the others may do. In a last
      turn it does roll on until it beats the leader (banks as soon as it does).
    """
    me = obs.current
    assert me is not None
    keeps = scoring_keeps(obs.dice)
    if not keeps:
        raise ValueError("the roll on the table does not score")
    greedy = max(keeps, key=lambda k: (k[1], len(k[0])))
    if obs.final_round and obs.contingent_winner is not None:
        indices, points = greedy
        total = obs.turn_total + points
        ahead = obs.scores[me] + total > obs.scores[obs.contingent_winner]
        allowed = obs.on_board[me] or total >= obs.entry
        return _move("bank" if ahead and allowed else "roll", indices)
    if rng.random() < EASY_KEEP_ALL:
        indices, points = greedy
    else:
        chosen = choose_action(obs, rng).split(":")[1]
        indices = tuple(int(ch) for ch in chosen)
        points = dict(keeps)[indices]
    total = obs.turn_total + points
    comfort = rng.choice(EASY_COMFORT)
    if not obs.on_board[me]:
        comfort = max(comfort, obs.entry)
    allowed = obs.on_board[me] or total >= obs.entry
    reaches = obs.scores[me] + total >= obs.target
    return _move("bank" if allowed and (total >= comfort or reaches) else "roll", indices)


def hard_action(obs: QDiceObservation, deadline: float | None = None) -> str | None:
    """The move that maximises the chance of winning a two-player game, or None where the
    solved table does not apply (more players, other options, no table) or the turn could not
    be solved before ``deadline``.

    A last turn is normal's (it already maximises the chance of beating the leader).
    """
    found = hard_analysis(obs, deadline)
    return None if found is None else found.move


def hard_analysis(
    obs: QDiceObservation, deadline: float | None = None, also: Sequence[str] = ()
) -> Analysis | None:
    """:func:`hard_action` with every keep's chance to win banking and rolling on."""
    me = obs.current
    assert me is not None
    if obs.n_players != 2 or obs.final_round:
        return None
    from bot.engines.qdice import winprob as wp

    table = wp.table_for(obs.target, obs.entry)
    if table is None:
        return None
    other = 1 - me
    i, j = obs.scores[me] // STEP, obs.scores[other] // STEP
    if (
        not table.covers(i, j)
        or obs.on_board[me] != (i > 0)
        or obs.on_board[other] != (j > 0)
        or obs.turn_total % STEP
    ):
        return None
    solver = table.cached_turn(i, j)
    if solver is None:
        if deadline is not None and time.monotonic() > deadline:
            return None
        try:
            solver = table.turn(i, j, deadline)
        except TimeoutError:
            return None
    options = keep_options(obs.dice)
    if not options:
        raise ValueError("the roll on the table does not score")
    extra = [k for k in (_keep_of(obs, m) for m in also) if k is not None]
    best: tuple[float, int, int, str] | None = None
    values: list[MoveValue] = []
    for number, (indices, points, nxt) in enumerate([*options, *extra]):
        total = obs.turn_total + points
        a = i + total // STEP
        roll = table.roll_value(solver, a, wp.canonical_of(nxt))
        candidate = (roll, 0, points, _move("roll", indices))
        bank = None
        if obs.on_board[me] or total >= obs.entry:
            bank = table.bank_value(solver, a)
            if bank >= roll:
                candidate = (bank, 1, points, _move("bank", indices))
        if number < len(options) and (best is None or candidate[:3] > best[:3]):
            best = candidate
        values += _both(
            obs, indices, points, bank if bank is not None else -1.0, roll, bank is not None
        )
    assert best is not None
    return Analysis.of(
        best[3], "win", values, scope="game", reason="table",
        detail={"now": table.win_chance(i, j)},
    )  # fmt: skip
