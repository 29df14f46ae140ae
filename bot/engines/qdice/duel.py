"""Two-player Quantum dice: the exact chance that one AI policy beats another.

The value iteration of :mod:`bot.engines.qdice.winprob` gives the "hard" player's chance of
winning against an *optimal* opponent. Against the "normal" player (expected score, with
end-game rules) the chance is different, and a benchmark of a few thousand games cannot
resolve an edge of a point or two. This module computes it exactly, by policy evaluation: with
both policies fixed, the game is a Markov chain on the turn starts ``(mover's score, other's
score, who moves)`` and, within a turn, on ``(turn total, dice left)``; its win probabilities
solve a linear system that has the same layered structure as the value iteration (a bank goes
to a larger score sum, a bust to the same sum with the other player to move).

A policy (:class:`Policy`) only says, for every turn of a layer, which option of each roll
outcome it keeps and whether it then banks; :func:`evaluate` does the rest. The two policies
of the bot are here: :class:`HardPolicy` (the argmax of the solved table, as
:func:`bot.engines.qdice.ai.hard_action` plays it) and :class:`NormalPolicy` (what
:func:`bot.engines.qdice.ai.choose_action` plays: the expected-score table, and among keeps that
reach the target the end-game rule). Both play a last turn the same, optimal way (roll until
strictly ahead), which the reach tables give exactly. ``tests/engines/test_qdice_duel.py``
checks that the policies here make the same choices as the AI code on real positions and that
the figures agree with games played on the engine.

Where it is not exact: turn totals past ``target + 6,000`` banked in all are banked (as the
table assumes; reaching them is rarer than 1 in 10,000), and a black hole (1 in 46,656 six-dice
rolls) drops the mover to a lower score sum that the first pass has not solved yet, so its
value comes from the table ``V`` there; a second pass (``passes=2``) uses the first pass's
values instead and moves the results by about 1e-7.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from bot.engines.qdice.ai import FRESH, INDEX, MAX_SHIFT, best_gain_distribution, score_table
from bot.engines.qdice.winprob import (
    BLACK_HOLE_LEVEL,
    CFRESH,
    CSTATES,
    N_DICE_STATES,
    Game,
    TurnSolver,
    last_turn_odds,
    rolls,
)

CROSSING = 1e9
"""Added to normal's value of a keep that reaches the target: such keeps come first."""


def _state15(canonical: int) -> int:
    """A :data:`bot.engines.qdice.ai.STATES` index for a canonical dice state."""
    return FRESH if canonical == CFRESH else INDEX[CSTATES[canonical]]


class Turns:
    """The turns of one layer, for one mover: ``i[k]`` the mover's score, ``j[k]`` the other's
    (levels of 50 points), with the absolute turn levels ``low ..`` laid out on rows."""

    def __init__(self, game: Game, i: np.ndarray, j: np.ndarray) -> None:
        self.game = game
        self.i = i
        self.j = j
        self.low = int(i.min())
        self.levels = np.arange(self.low, game.top + 2 * MAX_SHIFT + 2)
        size = 2 * game.top + 4 * MAX_SHIFT + 4  # the most any pair needs: one cached table
        odds_on = last_turn_odds(True, size)
        odds_off = last_turn_odds(False, size)
        x = self.levels[:, None]
        self.can_bank = (x > i[None, :]) & (x >= game.entry)
        # fails[x, k]: chance that the other player does not beat x levels in one last turn.
        wide = np.arange(self.low, game.top + 3 * MAX_SHIFT + 3)[:, None]
        need = wide - j[None, :] + 1
        need = np.where(j[None, :] == 0, np.maximum(need, game.entry), need)
        self.fails_wide = 1.0 - np.where(j[None, :] > 0, odds_on[need], odds_off[need])
        self.fails = self.fails_wide[: len(self.levels)]

    def bank_values(self, W_other: np.ndarray) -> np.ndarray:
        """``bank[x - low, k]``: the mover's chance after banking ``x`` levels in all, the
        other player's chances (as mover) taken from ``W_other``; 0 where banking is not
        allowed."""
        T = self.game.target
        below = np.minimum(self.levels, T - 1)
        after = 1.0 - W_other[self.j[None, :], below[:, None]]
        bank = np.where(self.levels[:, None] >= T, self.fails, after)
        return np.where(self.can_bank, bank, 0.0)


class Policy:
    """How a player chooses: ``choices`` returns ``(value, banks)``, both ``[x - low, d, k]``:
    after a keep that leaves ``x`` levels banked-to-be and dice state ``d``, ``value`` ranks
    the keeps of a roll (the largest is kept; the first on ties) and ``banks`` says whether
    the player then banks (else rolls ``d``)."""

    name = "policy"

    def choices(self, turns: Turns) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError

    def black_hole_guess(self, game: Game) -> np.ndarray:
        """A first guess of this player's chances as mover, for the black-hole terms."""
        raise NotImplementedError


class HardPolicy(Policy):
    """The argmax of the solved table ``V``: keeps and banks as the turn solved with the
    opponent assumed optimal says (:func:`bot.engines.qdice.ai.hard_action`)."""

    name = "hard"

    def __init__(self, V: np.ndarray) -> None:
        self.V = V

    def choices(self, turns: Turns) -> tuple[np.ndarray, np.ndarray]:
        solver = TurnSolver(turns.game, turns.i, turns.j, self.V)
        solver.run(1.0 - self.V[turns.j, turns.i])
        value = solver.value
        assert value.shape[0] == len(turns.levels)
        banks = solver.can_bank[:, None, :] & (value == solver.bank[:, None, :])
        return value, banks

    def black_hole_guess(self, game: Game) -> np.ndarray:
        return self.V


class NormalPolicy(Policy):
    """:func:`bot.engines.qdice.ai.choose_action`: the expected-score table of the turn; when
    some keep reaches the target, only such keeps, by the chance that the other player does
    not beat the total in their last turn (bank now, or roll once more and bank)."""

    name = "normal"

    def __init__(self, game: Game, entry_points: int) -> None:
        self.game = game
        self.tables = {}
        for on_board in (False, True):
            table = score_table(entry_points, on_board)
            width = game.target + MAX_SHIFT + 2
            value = np.empty((width, N_DICE_STATES))
            banks = np.empty((width, N_DICE_STATES), dtype=bool)
            for t in range(width):
                bank = table.bank_value(t)
                for d in range(N_DICE_STATES):
                    roll = table.roll_value(_state15(d), t)
                    value[t, d] = max(bank, roll)
                    banks[t, d] = bank >= roll
            self.tables[on_board] = (value, banks)
        self.gains = {
            on_board: [best_gain_distribution(_state15(d), on_board) for d in range(N_DICE_STATES)]
            for on_board in (False, True)
        }
        self.guess: np.ndarray | None = None

    def choices(self, turns: Turns) -> tuple[np.ndarray, np.ndarray]:
        T = self.game.target
        levels = turns.levels
        n_levels, K = len(levels), len(turns.i)
        value = np.empty((n_levels, N_DICE_STATES, K))
        banks = np.empty((n_levels, N_DICE_STATES, K), dtype=bool)
        for on_board in (False, True):
            cols = np.nonzero((turns.i > 0) == on_board)[0]
            if not len(cols):
                continue
            table_value, table_banks = self.tables[on_board]
            t = np.clip(levels[:, None] - turns.i[None, cols], 0, len(table_value) - 1)
            value[:, :, cols] = table_value[t].transpose(0, 2, 1)
            banks[:, :, cols] = table_banks[t].transpose(0, 2, 1)
            # Keeps that reach the target: bank now, or roll once more and bank the best keep.
            top = len(turns.fails_wide)
            for d in range(N_DICE_STATES):
                roll = np.zeros((n_levels, len(cols)))
                for gain, p in self.gains[on_board][d]:
                    rows = np.minimum(np.arange(n_levels) + gain, top - 1)
                    roll += p * turns.fails_wide[rows][:, cols]
                bank = turns.fails[:, cols]
                cross = np.nonzero(levels >= T)[0]
                where = np.ix_(cross, np.array([d]), cols)
                value[where] = CROSSING + np.maximum(bank, roll)[cross][:, None, :]
                banks[where] = (bank >= roll)[cross][:, None, :]
        beyond = levels > self.game.top
        banks[beyond] = True  # as the table assumes: past the levels followed, bank
        return value, banks

    def black_hole_guess(self, game: Game) -> np.ndarray:
        assert self.guess is not None, "give NormalPolicy a guess table (any solved V)"
        return self.guess


@dataclass(frozen=True)
class Duel:
    """Result of :func:`evaluate`: ``first[p, q]`` is the first policy's chance of winning
    when it is to move with ``p`` levels against ``q``; ``second[q, p]`` its chance when the
    second policy is to move with ``q`` against ``p`` (nan where no turn starts)."""

    first: np.ndarray
    second: np.ndarray
    seconds: float

    @property
    def moving_first(self) -> float:
        """The first policy's chance of winning a game it starts."""
        return float(self.first[0, 0])

    @property
    def moving_second(self) -> float:
        """The first policy's chance of winning a game the other policy starts."""
        return float(self.second[0, 0])

    @property
    def alternating(self) -> float:
        """Its chance over games with alternating starts."""
        return (self.moving_first + self.moving_second) / 2


def _turn(
    turns: Turns,
    policy: Policy,
    bank: np.ndarray,
    black_hole: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The mover's chance at the start of each turn, as ``alpha + beta * u`` where ``u`` is
    the other player's chance (as mover) after a bust, with ``policy`` fixed.

    ``bank[x - low, k]``: the mover's chance after banking x; ``black_hole[k]``: after a black
    hole that drops the mover to a lower score (unused where it is the bust's own value)."""
    game = turns.game
    r = rolls()
    low = turns.low
    K = len(turns.i)
    value, banks = policy.choices(turns)
    banks &= turns.can_bank[:, None, :]
    n_levels = len(turns.levels)
    after = np.zeros((n_levels, N_DICE_STATES, K, 2))  # (constant, coefficient of u)
    after[..., 0] = np.where(banks, bank[:, None, :], 0.0)
    beyond = game.top + 1 - low
    after[beyond:, :, :, 0] = bank[beyond:, None, :]  # past the levels followed: bank
    flat_value = value.reshape(n_levels * N_DICE_STATES, K)
    flat_after = after.reshape(n_levels * N_DICE_STATES, K, 2)
    bust = np.zeros((N_DICE_STATES, K, 2))
    bust[..., 0] = r.bust[:, None]
    bust[..., 1] = -r.bust[:, None]
    on_board = turns.i > 0
    same_as_bust = np.minimum(turns.i, BLACK_HOLE_LEVEL) == turns.i
    hole = np.zeros((K, 2))
    hole[:, 0] = np.where(same_as_bust, 1.0, black_hole)
    hole[:, 1] = np.where(same_as_bust, -1.0, 0.0)
    cols = np.arange(K)[None, :]
    buckets = [(offsets, np.arange(len(offsets))[:, None]) for offsets in r.buckets]
    start = np.zeros((K, 2))
    for a in range(game.top, low - 1, -1):
        row = a - low
        base = row * N_DICE_STATES
        parts = []
        for offsets, groups in buckets:  # the groups with the same number of options
            shifted = offsets + base  # (groups, options)
            pick = flat_value[shifted].argmax(axis=1)  # (groups, K): the option kept
            parts.append(flat_after[shifted[groups, pick], cols])  # (groups, K, 2)
        best = np.concatenate(parts)
        best[r.black_hole] = np.where(on_board[:, None], hole, best[r.black_hole])
        roll = np.einsum("dg,gkc->dkc", r.weights, best) + bust
        after[row] = np.where(banks[row][..., None], after[row], roll)
        here = turns.i == a
        start[here] = roll[CFRESH, here]
    return start[:, 0], start[:, 1]


def evaluate(
    first: Policy,
    second: Policy,
    game: Game,
    passes: int = 2,
    progress: Callable[[str], None] | None = None,
) -> Duel:
    """Exact chances of ``first`` beating ``second`` from every turn start (see the module
    docstring for the two small approximations)."""
    started = time.perf_counter()
    T = game.target
    scores = game.scores()
    valid = np.zeros(T, dtype=bool)
    valid[scores] = True
    A_guess = first.black_hole_guess(game)  # first's chance as mover (guess)
    B_guess = second.black_hole_guess(game)
    A = np.full((T, T), np.nan)  # first's chance, first to move: A[p, q]
    B = np.full((T, T), np.nan)  # second's chance, second to move: B[q, p]
    for step in range(passes):
        A_prev, B_prev = (A_guess, B_guess) if step == 0 else (A.copy(), B.copy())
        for total in range(2 * (T - 1), -1, -1):
            pairs = [(p, total - p) for p in scores if 0 <= total - p < T and valid[total - p]]
            if not pairs:
                continue
            p = np.array([x for x, _ in pairs])
            q = np.array([y for _, y in pairs])
            drop_p = np.minimum(p, BLACK_HOLE_LEVEL)
            drop_q = np.minimum(q, BLACK_HOLE_LEVEL)
            turns_a = Turns(game, p, q)
            alpha_a, beta_a = _turn(turns_a, first, turns_a.bank_values(B), 1.0 - B_prev[q, drop_p])
            turns_b = Turns(game, q, p)
            alpha_b, beta_b = _turn(
                turns_b, second, turns_b.bank_values(A), 1.0 - A_prev[p, drop_q]
            )
            # A[p, q] = alpha_a + beta_a * B[q, p];  B[q, p] = alpha_b + beta_b * A[p, q]
            a = (alpha_a + beta_a * alpha_b) / (1.0 - beta_a * beta_b)
            A[p, q] = a
            B[q, p] = alpha_b + beta_b * a
            if progress is not None and total % 50 == 0:
                progress(
                    f"pass {step + 1}: sum {total}, {time.perf_counter() - started:.0f} s; "
                    f"A[0,0] so far {A[0, 0]:.6f}"
                )
    return Duel(first=A, second=1.0 - B, seconds=time.perf_counter() - started)
