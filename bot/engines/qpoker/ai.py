"""QuantumPoker AI: the move with the best expected chips, judged from the observation alone.

What the seat sees becomes a belief: each qubit reads 1 with probability ``p`` (its value when
the seat can see it, one half otherwise: a hidden card of another player, or anything in
superposition) and carries 1 or 2 chips. A qubit's chips are also its points when it reads 1,
so a round's payout has a neat shape: the winner takes every other player's points in chips,
and a player who does not win loses their own points.

Treating the qubits as independent, every player's points have a small exact distribution
(0 to 8). For each possible score ``m`` of the AI's own seat, one pass over the opponents
gives the chance that nobody beats it, how many tie it, and the expected points of the
players below it, hence the expected payout. Every legal move is played on a copy of the
belief and scored that way; calling measurement is scored as the position now, less a small
margin. Ties between moves are broken by the table's seeded random source.

Levels (:func:`decide`): "normal" is the above; "easy" treats every other player's qubit as a
coin, never calls and makes a random move some of the time; "hard" samples the hidden qubits
and rolls the round out (:mod:`bot.engines.qpoker.search`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bot.engines.qpoker.engine import OWN_CARDS, call_refusal, complete_moves

if TYPE_CHECKING:
    from bot.engines.analysis import Analysis
    from bot.engines.qpoker.engine import QPokerObservation

CALL_MARGIN = 0.05  # calling gives up this turn's card; prefer a card that is as good
SHOW_COST = 0.02  # a shown 1 invites the others' CX and SWAP
EPSILON = 1e-9


@dataclass(frozen=True)
class Belief:
    """One qubit as the AI models it."""

    p: float  # probability it reads 1 at measurement
    chips: int  # 1, or 2 when doubled (also its points when it reads 1)
    superposed: bool
    shown: bool


Table = dict[int, list[Belief]]


def beliefs(obs: QPokerObservation) -> Table:
    """Every seat in the round, qubit by qubit, from what the observer sees."""
    table: Table = {}
    for seat, row in enumerate(obs.qubits):
        if not row:
            continue
        table[seat] = [
            Belief(
                p=0.5 if q.value is None else float(q.value),
                chips=2 if q.doubled else 1,
                superposed=q.superposed,
                shown=q.shown,
            )
            for q in row
        ]
    return table


def legal_moves(obs: QPokerObservation) -> list[str]:
    """The complete moves open to the observer (what the engine would accept)."""
    me = obs.seat
    if me is None or obs.current != me:
        return []
    others = [s for s, row in enumerate(obs.qubits) if row and s != me]
    may_call = call_refusal(obs.calling, obs.called_by, len(obs.community), len(others)) is None
    return complete_moves(list(obs.community), me, others, may_call)


def _flip(q: Belief) -> Belief:
    return q if q.superposed else replace(q, p=1.0 - q.p)


def simulate(table: Table, me: int, stack: int, move: str) -> Table:
    """The belief after ``move`` (a copy; ``call`` changes nothing)."""
    new = {seat: list(row) for seat, row in table.items()}
    card, _, rest = move.partition(":")
    if card in OWN_CARDS:
        i = int(rest)
        q = new[me][i]
        if card == "X":
            new[me][i] = _flip(q)
        elif card == "Y":
            new[me][i] = replace(_flip(q), shown=not q.shown)
        elif card == "Z":
            if q.chips == 2:
                new[me][i] = replace(q, chips=1)
            elif stack > 0:
                new[me][i] = replace(q, chips=2)
        else:  # H: into superposition, or collapse by a coin; one half either way
            new[me][i] = replace(q, p=0.5, superposed=not q.superposed)
    elif card == "CX":
        seat, i = (int(x) for x in rest.split("."))
        new[seat][i] = _flip(new[seat][i])
    elif card == "SWAP":
        mine, target = rest.split(":")
        seat, i = (int(x) for x in target.split("."))
        j = int(mine)
        new[me][j], new[seat][i] = new[seat][i], new[me][j]
    return new


def distribution(row: list[Belief]) -> list[float]:
    """P(points == k) for k = 0 … 8 for one player's qubits."""
    dist = [1.0]
    for q in row:
        nxt = [0.0] * (len(dist) + q.chips)
        for k, pk in enumerate(dist):
            nxt[k] += pk * (1.0 - q.p)
            nxt[k + q.chips] += pk * q.p
        dist = nxt
    return dist


def expected_gain(table: Table, me: int, carry: int) -> float:
    """Expected chips the observer wins (or, negative, loses) at measurement."""
    rivals = [distribution(row) for seat, row in table.items() if seat != me]
    return gain_of(distribution(table[me]), rivals, carry)


def gain_of(mine: list[float], rivals: list[list[float]], carry: int) -> float:
    """:func:`expected_gain` from the points distributions (the observer's, the rivals')."""
    total = 0.0
    for m, pm in enumerate(mine):
        if pm <= 0.0:
            continue
        # prob[t], mass[t]: P(nobody beats m and t rivals tie it), E[rivals' points below m; …]
        prob = [1.0] + [0.0] * len(rivals)
        mass = [0.0] * (len(rivals) + 1)
        for dist in rivals:
            below = sum(dist[:m])
            below_points = sum(k * dist[k] for k in range(min(m, len(dist))))
            tie = dist[m] if m < len(dist) else 0.0
            new_prob = [0.0] * len(prob)
            new_mass = [0.0] * len(mass)
            for t in range(len(prob)):
                new_prob[t] += prob[t] * below
                new_mass[t] += mass[t] * below + prob[t] * below_points
                if t + 1 < len(prob):
                    new_prob[t + 1] += prob[t] * tie
                    new_mass[t + 1] += mass[t] * tie
            prob, mass = new_prob, new_mass
        win = sum((carry * prob[t] + mass[t]) / (1 + t) for t in range(len(prob)))
        lose = m * (1.0 - sum(prob))
        total += pm * (win - lose)
    return total


def share_of(mine: list[float], rivals: list[list[float]]) -> float:
    """The observer's share of the round's win (a win shared by k counts 1/k) from the
    points distributions (the observer's, the rivals'), as :func:`gain_of` weighs them."""
    total = 0.0
    for m, pm in enumerate(mine):
        if pm <= 0.0:
            continue
        prob = [1.0] + [0.0] * len(rivals)  # P(nobody beats m and t rivals tie it)
        for dist in rivals:
            below = sum(dist[:m])
            tie = dist[m] if m < len(dist) else 0.0
            new_prob = [0.0] * len(prob)
            for t in range(len(prob)):
                new_prob[t] += prob[t] * below
                if t + 1 < len(prob):
                    new_prob[t + 1] += prob[t] * tie
            prob = new_prob
        total += pm * sum(prob[t] / (1 + t) for t in range(len(prob)))
    return total


def score(table: Table, me: int, carry: int) -> float:
    """Expected gain, less a small cost for each of the observer's shown likely 1s."""
    shown = sum(q.p * q.chips for q in table[me] if q.shown and not q.superposed)
    return expected_gain(table, me, carry) - SHOW_COST * shown


def rank_moves(obs: QPokerObservation, table: Table | None = None) -> list[tuple[float, str]]:
    """Every legal move with its value, best first (stable for equal values); ``table`` is
    the belief to judge them by (the observation's own, :func:`beliefs`, by default)."""
    me = obs.seat
    assert me is not None
    if table is None:
        table = beliefs(obs)
    stack = obs.chips[me]
    ranked = []
    for move in legal_moves(obs):
        if move == "call":
            revealed = {**table, me: [replace(q, shown=True) for q in table[me]]}
            value = score(revealed, me, obs.carry) - CALL_MARGIN
        else:
            value = score(simulate(table, me, stack, move), me, obs.carry)
        ranked.append((value, move))
    ranked.sort(key=lambda pair: -pair[0])
    return ranked


def choose_action(obs: QPokerObservation, rng: random.Random) -> str:
    """The best move for the seat to act; equal best moves are chosen between at random."""
    if obs.seat is None or obs.current != obs.seat:
        raise ValueError("the observer is not the seat to act")
    ranked = rank_moves(obs)
    if not ranked:
        raise ValueError("no legal move")
    best = ranked[0][0]
    top = [move for value, move in ranked if value >= best - EPSILON]
    return rng.choice(top)


def random_action(obs: QPokerObservation, rng: random.Random) -> str:
    """A rival for benchmarks and self-play: any legal complete move, uniformly."""
    return rng.choice(legal_moves(obs))


EASY_SLIP = 0.35
"""How often the easy level plays a random legal move instead of the normal one."""


def easy_action(obs: QPokerObservation, rng: random.Random) -> str:
    """A beginner: ignores what others show (every other qubit is a coin to it), never
    calls, and plays a random legal move some of the time."""
    moves = [m for m in legal_moves(obs) if m != "call"] or legal_moves(obs)
    if rng.random() < EASY_SLIP:
        return rng.choice(moves)
    me = obs.seat
    assert me is not None
    table = beliefs(obs)
    blind = {s: row if s == me else [replace(q, p=0.5) for q in row] for s, row in table.items()}
    stack = obs.chips[me]
    ranked = sorted(
        ((score(simulate(blind, me, stack, m), me, obs.carry), m) for m in moves),
        key=lambda pair: -pair[0],
    )
    best = ranked[0][0]
    return rng.choice([m for v, m in ranked if v >= best - EPSILON])


def decide(
    obs: QPokerObservation, level: str, rng: random.Random, deadline: float | None = None
) -> str:
    """The move at ``level``: "easy", "normal" (:func:`choose_action`) or "hard" (a
    determinized search that stops at ``deadline``, a ``time.monotonic()`` instant)."""
    if level == "easy":
        return easy_action(obs, rng)
    if level == "hard":
        return analyse(obs, rng, deadline).move
    return choose_action(obs, rng)


def analyse(
    obs: QPokerObservation,
    rng: random.Random,
    deadline: float | None = None,
    also: Sequence[str] = (),
) -> Analysis:
    """The hard level's decision with what its search found
    (:func:`bot.engines.qpoker.search.hard_analysis`)."""
    from bot.engines.qpoker.search import hard_analysis

    return hard_analysis(obs, rng, deadline, also=also)
