"""QuantumPoker search for the hard AI: determinization and rollouts on a light simulator.

The hard level samples the qubit values the seat cannot see (other players' face-down cards),
plays each candidate move on every sample and rolls the round out to its measurement with the
normal policy for every seat (each seat deciding from what *it* would see in that sample),
then scores the round exactly: superposed qubits are fair coins, so the seat's expected chip
change is :func:`~bot.engines.qpoker_ai.expected_gain` on the sample's full table. The move
with the best average wins (perfect-information Monte Carlo).

:class:`Sim` is a small copy of the engine's round rules (card effects, calling, the turn
order) on plain lists; ``tests/engines/test_card_levels.py`` plays it side by side with the
engine. Only the observation is read: the sampled values replace whatever the seat cannot see.
"""

from __future__ import annotations

import random
import time
from functools import lru_cache
from typing import TYPE_CHECKING

from bot.engines.pimc import clearly_better
from bot.engines.qpoker import OWN_CARDS, QUBIT_DECK, QUBITS, call_refusal, complete_moves
from bot.engines.qpoker_ai import (
    CALL_MARGIN,
    EPSILON,
    SHOW_COST,
    Belief,
    expected_gain,
)

if TYPE_CHECKING:
    from bot.engines.qpoker import QPokerObservation

SAMPLES = 24
"""Determinizations per decision when no deadline is given."""
CONFIDENCE = 0.5
"""Standard errors by which a move's sampled advantage must beat the normal move's."""
CANDIDATES = 10
"""Moves searched at most: the normal policy's best ones (and ``call`` when open)."""

# A qubit in the simulator: [value, shown, superposed, doubled]
V, SHOWN, SUP, DBL = 0, 1, 2, 3


class Sim:
    """One round of QuantumPoker with every value known (a determinization)."""

    __slots__ = ("called_by", "calling", "carry", "chips", "community", "current", "final",
                 "players", "qubits")  # fmt: skip

    def __init__(
        self,
        qubits: dict[int, list[list]],
        chips: list[int],
        community: list[str],
        current: int,
        called_by: int | None,
        final: list[int],
        carry: int,
        calling: bool,
    ) -> None:
        self.qubits = qubits
        self.players = sorted(qubits)
        self.chips = chips
        self.community = community
        self.current: int | None = current
        self.called_by = called_by
        self.final = final
        self.carry = carry
        self.calling = calling

    def copy(self) -> Sim:
        return Sim(
            {s: [list(q) for q in row] for s, row in self.qubits.items()},
            list(self.chips),
            list(self.community),
            self.current,  # type: ignore[arg-type]
            self.called_by,
            list(self.final),
            self.carry,
            self.calling,
        )

    @property
    def over(self) -> bool:
        return self.current is None

    def moves(self, seat: int) -> list[str]:
        others = [s for s in self.players if s != seat]
        may_call = (
            call_refusal(self.calling, self.called_by, len(self.community), len(others)) is None
        )
        return complete_moves(self.community, seat, others, may_call)

    def view(self, seat: int) -> dict[int, Row]:
        """The normal policy's belief for ``seat`` in this sample (what it would see)."""
        return {
            s: tuple(
                (
                    2 * q[V] if not q[SUP] and (s == seat or q[SHOWN]) else 1,
                    2 if q[DBL] else 1,
                    q[SUP],
                    q[SHOWN],
                )
                for q in row
            )
            for s, row in self.qubits.items()
        }

    def value(self, seat: int) -> float:
        """``seat``'s expected chip change at this round's measurement (superposed qubits
        are fair coins, every other value is known in the sample)."""
        truth = {
            s: tuple((1 if q[SUP] else 2 * q[V], 2 if q[DBL] else 1) for q in row)
            for s, row in self.qubits.items()
        }
        rivals = tuple(sorted(row for s, row in truth.items() if s != seat))
        return _gain(truth[seat], rivals, self.carry)

    def apply(self, seat: int, move: str, rng: random.Random) -> None:
        """Play ``move`` for the seat to act (legal moves only; not checked)."""
        if move == "call":
            self.called_by = seat
            at = self.players.index(seat)
            self.final = self.players[at + 1 :] + self.players[:at]
            for q in self.qubits[seat]:
                q[SHOWN] = True
            self.current = self.final[0]
            return
        card, _, rest = move.partition(":")
        self.community.remove(card)
        if card in OWN_CARDS:
            q = self.qubits[seat][int(rest)]
            if card == "X":
                if not q[SUP]:
                    q[V] ^= 1
            elif card == "Y":
                if not q[SUP]:
                    q[V] ^= 1
                q[SHOWN] = not q[SHOWN]
            elif card == "Z":
                if q[DBL]:
                    q[DBL] = False
                    self.chips[seat] += 1
                elif self.chips[seat] > 0:
                    q[DBL] = True
                    self.chips[seat] -= 1
            elif q[SUP]:  # H on a superposed qubit: a coin collapses it
                q[SUP] = False
                q[V] = rng.randint(0, 1)
            else:
                q[SUP] = True
        elif card == "CX":
            target, index = (int(x) for x in rest.split("."))
            q = self.qubits[target][index]
            if not q[SUP]:
                q[V] ^= 1
        else:  # SWAP
            mine, other = rest.split(":")
            target, index = (int(x) for x in other.split("."))
            j = int(mine)
            row, theirs = self.qubits[seat], self.qubits[target]
            row[j], theirs[index] = theirs[index], row[j]
        if self.called_by is not None and self.final and self.final[0] == seat:
            self.final.pop(0)
        if not self.community or (self.called_by is not None and not self.final):
            self.current = None
        elif self.called_by is not None:
            self.current = self.final[0]
        else:
            at = self.players.index(seat)
            self.current = self.players[(at + 1) % len(self.players)]


# The normal policy on compact beliefs: a qubit is (p2, chips, superposed, shown) with
# p2 = 2 * P(reads 1), so every quantity is a small hashable tuple and the distributions and
# expected gains are computed once per distinct position.
Row = tuple[tuple[int, int, bool, bool], ...]


@lru_cache(maxsize=100_000)
def _gain(mine: tuple, rivals: tuple, carry: int) -> float:
    """``qpoker_ai.expected_gain`` on compact rows (rivals sorted: their order is moot)."""
    return expected_gain(
        {
            k: [Belief(p=p2 / 2, chips=c, superposed=False, shown=False) for p2, c in row]
            for k, row in enumerate((mine, *rivals))
        },
        0,
        carry,
    )


def _pc(row: Row) -> tuple[tuple[int, int], ...]:
    return tuple((q[0], q[1]) for q in row)


def compact_score(view: dict[int, Row], me: int, carry: int) -> float:
    """``qpoker_ai.score`` on compact beliefs."""
    rivals = tuple(sorted(_pc(row) for s, row in view.items() if s != me))
    shown = sum(q[0] / 2 * q[1] for q in view[me] if q[3] and not q[2])
    return _gain(_pc(view[me]), rivals, carry) - SHOW_COST * shown


def _flip(q: tuple[int, int, bool, bool]) -> tuple[int, int, bool, bool]:
    return q if q[2] else (2 - q[0], q[1], q[2], q[3])


def compact_after(view: dict[int, Row], me: int, stack: int, move: str) -> dict[int, Row]:
    """``qpoker_ai.simulate`` on compact beliefs."""
    card, _, rest = move.partition(":")
    new = dict(view)
    if card in OWN_CARDS:
        i = int(rest)
        row = list(view[me])
        p2, c, sup, shown = row[i]
        if card == "X":
            row[i] = _flip(row[i])
        elif card == "Y":
            f = _flip(row[i])
            row[i] = (f[0], c, sup, not shown)
        elif card == "Z":
            if c == 2:
                row[i] = (p2, 1, sup, shown)
            elif stack > 0:
                row[i] = (p2, 2, sup, shown)
        else:
            row[i] = (1, c, not sup, shown)
        new[me] = tuple(row)
    elif card == "CX":
        seat, i = (int(x) for x in rest.split("."))
        row = list(view[seat])
        row[i] = _flip(row[i])
        new[seat] = tuple(row)
    elif card == "SWAP":
        mine, target = rest.split(":")
        seat, i = (int(x) for x in target.split("."))
        j = int(mine)
        a, b = list(view[me]), list(view[seat])
        a[j], b[i] = b[i], a[j]
        new[me], new[seat] = tuple(a), tuple(b)
    return new


def ranked(sim: Sim, seat: int) -> list[tuple[float, str]]:
    """The normal policy's ranking of ``seat``'s moves from what it sees in ``sim``."""
    view = sim.view(seat)
    stack = sim.chips[seat]
    out = []
    for move in sim.moves(seat):
        if move == "call":
            revealed = {**view, seat: tuple((q[0], q[1], q[2], True) for q in view[seat])}
            value = compact_score(revealed, seat, sim.carry) - CALL_MARGIN
        else:
            value = compact_score(compact_after(view, seat, stack, move), seat, sim.carry)
        out.append((value, move))
    out.sort(key=lambda pair: -pair[0])
    return out


def _pick(ranking: list[tuple[float, str]], rng: random.Random) -> str:
    best = ranking[0][0]
    return rng.choice([m for v, m in ranking if v >= best - EPSILON])


def rollout(sim: Sim, me: int, rng: random.Random) -> float:
    """Play the round out with the normal policy for everyone; ``me``'s expected chips."""
    while sim.current is not None:
        seat = sim.current
        sim.apply(seat, _pick(ranked(sim, seat), rng), rng)
    return sim.value(me)


def sample(obs: QPokerObservation, rng: random.Random) -> Sim:
    """A full round consistent with what the seat sees.

    Face-down qubits of other players are drawn from the qubit deck less the seat's own
    values while the round is untouched (nothing played yet: then that is exact); once
    cards have flipped unknown qubits the draw is a fair coin for each.
    """
    me = obs.seat
    assert me is not None
    hidden = [
        (s, i)
        for s, row in enumerate(obs.qubits)
        for i, q in enumerate(row)
        if q.value is None and not q.superposed
    ]
    values: dict[tuple[int, int], int] = {}
    if not obs.played:
        known = [q.value for row in obs.qubits for q in row if q.value is not None]
        urn = list(QUBIT_DECK)
        for v in known:
            urn.remove(v)
        rng.shuffle(urn)
        values = {cell: urn[k] for k, cell in enumerate(hidden)}
    else:
        values = {cell: rng.randint(0, 1) for cell in hidden}
    qubits: dict[int, list[list]] = {}
    for s, row in enumerate(obs.qubits):
        if not row:
            continue
        qubits[s] = [
            [
                values.get((s, i), q.value if q.value is not None else 0),
                q.shown,
                q.superposed,
                q.doubled,
            ]
            for i, q in enumerate(row)
        ]
    assert all(len(row) == QUBITS for row in qubits.values())
    return Sim(
        qubits,
        list(obs.chips),
        list(obs.community),
        me,
        obs.called_by,
        list(obs.final_left),
        obs.carry,
        obs.calling,
    )


def hard_action(
    obs: QPokerObservation,
    rng: random.Random,
    deadline: float | None = None,
    samples: int = SAMPLES,
) -> str:
    """Perfect-information Monte Carlo over the normal policy's best candidate moves; the
    normal move unless the samples clearly favour another (:func:`~bot.engines.pimc.clearly_better`)."""
    me = obs.seat
    assert me is not None
    root = sample(obs, random.Random(0))  # the seat's own view is the same in every sample
    ranking = ranked(root, me)
    if len(ranking) == 1:
        return ranking[0][1]
    fallback = _pick(ranking, rng)
    candidates = [m for _, m in ranking[:CANDIDATES]]
    if "call" in (m for _, m in ranking) and "call" not in candidates:
        candidates.append("call")
    if fallback not in candidates:
        candidates.append(fallback)
    runs: dict[str, list[float]] = {m: [] for m in candidates}
    done = 0
    while done < samples if deadline is None else time.monotonic() < deadline:
        world = sample(obs, rng)
        seed = rng.random()
        values = {}
        for move in candidates:
            if deadline is not None and time.monotonic() >= deadline:
                break
            sim = world.copy()
            roll = random.Random(seed)  # the same coins for every candidate
            sim.apply(me, move, roll)
            values[move] = rollout(sim, me, roll)
        if len(values) < len(candidates):
            break  # out of time mid-sample: only whole samples count
        for move, value in values.items():
            runs[move].append(value)
        done += 1
    return clearly_better(runs, fallback, CONFIDENCE)
