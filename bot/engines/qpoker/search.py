"""QuantumPoker search for the hard AI: inference from the round's public history, then
determinization and rollouts on a light simulator.

What the others hold is not a coin toss. The qubit deck has ten 1s and ten 0s, and every card
taken this round is public with its target (the table's log names them). So the hard level
replays the round from its deal (:class:`History`): it draws the initial values it cannot
pin down from what is left of the qubit deck, replays every move, and weights the deal by
how likely each other player's moves were for a player playing like the normal AI (mostly
its best move, sometimes anything: :data:`NOISE`). Weighted deals are resampled into worlds.

Each candidate move is played on every world and the round rolled out to its measurement
with the normal policy for every seat (each deciding from what *it* would see in that
world); the round is then scored exactly (superposed qubits are fair coins) as the seat's
expected chips, :func:`~bot.engines.qpoker.ai.expected_gain` on the world's full table.
Candidates are the best moves by the normal AI's judgement on the inferred belief, and the
normal move; the best average over the worlds is played unless no candidate clearly beats
the normal move (:func:`~bot.engines.pimc.clearly_better`).

:class:`Sim` is a small copy of the engine's round rules (card effects, calling, the turn
order) on plain lists; ``tests/engines/test_card_levels.py`` plays it side by side with the
engine, and the normal policy on it (:func:`ranked`) against :func:`qpoker.ai.rank_moves`.
Only the observation is read.
"""

from __future__ import annotations

import bisect
import random
import time
from collections.abc import Sequence
from itertools import accumulate, product
from typing import TYPE_CHECKING, Any, Protocol

from bot.engines.analysis import Analysis, MoveValue
from bot.engines.pimc import clearly_better
from bot.engines.qpoker.ai import (
    CALL_MARGIN,
    EPSILON,
    SHOW_COST,
    Belief,
    gain_of,
    rank_moves,
    share_of,
)
from bot.engines.qpoker.engine import OWN_CARDS, QUBIT_DECK, QUBITS, call_refusal, complete_moves

if TYPE_CHECKING:
    from bot.engines.qpoker.engine import QPokerObservation

SAMPLES = 32
"""Worlds searched per decision when no deadline is given."""
PARTICLES = 6
"""Deals drawn and weighted per world kept (more when the history says more)."""
NOISE = 0.1
"""How often the model of another player makes any legal move rather than the normal
AI's best one (people and other levels are not the normal AI)."""
CONFIDENCE = 0.5
"""Standard errors by which a move's sampled advantage must beat the normal move's."""
CANDIDATES = 8
"""Moves searched: the best ones on the inferred belief, with the normal AI's best few."""
NORMAL_CANDIDATES = 3
PLAY_TO_WIN = True
"""Near the match's end, play for the chance to win the match rather than for chips."""
PLAY_TO_WIN_ROUNDS = 1
"""How many rounds before the last that starts (0: in the last round only)."""
FUTURES = 64
"""Draws of the remaining rounds' outcome that judge a stack's chance to win the match."""

# A qubit in the simulator: [value, shown, superposed, doubled] (and its card's id in a replay)
V, SHOWN, SUP, DBL = 0, 1, 2, 3


class Coins(Protocol):
    """Where a collapse's coin comes from: a random source, or a replay's recorded coins."""

    def randint(self, a: int, b: int, /) -> int: ...


class Sim:
    """One round of QuantumPoker with every value known (a determinization)."""

    __slots__ = ("called_by", "calling", "carry", "chips", "community", "current", "final",
                 "players", "qubits")  # fmt: skip

    def __init__(
        self,
        qubits: dict[int, list[list[Any]]],
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
        twin = Sim.__new__(Sim)
        twin.qubits = {s: [list(q) for q in row] for s, row in self.qubits.items()}
        twin.players = self.players
        twin.chips = list(self.chips)
        twin.community = list(self.community)
        twin.current = self.current
        twin.called_by = self.called_by
        twin.final = list(self.final)
        twin.carry = self.carry
        twin.calling = self.calling
        return twin

    @property
    def over(self) -> bool:
        return self.current is None

    def may_call(self) -> bool:
        others = len(self.players) - 1
        return call_refusal(self.calling, self.called_by, len(self.community), others) is None

    def moves(self, seat: int) -> list[str]:
        others = [s for s in self.players if s != seat]
        return complete_moves(self.community, seat, others, self.may_call())

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

    def view_key(self, seat: int) -> tuple[int, ...]:
        """:meth:`view` as a few integers (a qubit is one base-24 digit of its row's)."""
        out = []
        for s, row in self.qubits.items():
            own = s == seat
            k = 0
            for q in row:
                if q[SUP]:
                    k = k * 24 + 7 + (2 if q[DBL] else 0) + (12 if q[SHOWN] else 0)
                elif own or q[SHOWN]:
                    k = k * 24 + 2 * q[V] + (4 if q[DBL] else 0) + (12 if q[SHOWN] else 0)
                else:
                    k = k * 24 + 1 + (4 if q[DBL] else 0)
            out.append(k)
        return tuple(out)

    def value(self, seat: int) -> float:
        """``seat``'s expected chip change at this round's measurement (superposed qubits
        are fair coins, every other value is known in the sample)."""
        rows = {
            s: _key(tuple((1 if q[SUP] else 2 * q[V], 2 if q[DBL] else 1) for q in row))
            for s, row in self.qubits.items()
        }
        mine = rows.pop(seat)
        return _gain(mine, tuple(sorted(rows.values())), self.carry)

    def round_share(self, seat: int) -> float:
        """``seat``'s share of this round's win at measurement (superposed qubits are fair
        coins; a win shared by k counts 1/k)."""
        rows = {
            s: _key(tuple((1 if q[SUP] else 2 * q[V], 2 if q[DBL] else 1) for q in row))
            for s, row in self.qubits.items()
        }
        mine = rows.pop(seat)
        return _share(mine, tuple(sorted(rows.values())))

    def finals(self) -> list[tuple[float, list[int]]]:
        """Every way the measurement can go (each superposed qubit a fair coin): its chance
        and every seat's stack after the payout."""
        coins = [q for row in self.qubits.values() for q in row if q[SUP]]
        out = []
        for bits in product((0, 1), repeat=len(coins)):
            for q, bit in zip(coins, bits, strict=True):
                q[V] = bit
            points = {
                s: sum((2 if q[DBL] else 1) for q in row if q[V]) for s, row in self.qubits.items()
            }
            best = max(points.values())
            winners = [s for s, p in points.items() if p == best]
            pool = self.carry + sum(p for s, p in points.items() if p != best)
            share = pool // len(winners)
            chips = list(self.chips)
            for s, row in self.qubits.items():
                won = s in winners
                chips[s] += sum((2 if q[DBL] else 1) for q in row if won or not q[V])
                if won:
                    chips[s] += share
            out.append((0.5 ** len(coins), chips))
        return out

    def match_share(self, seat: int, futures: Futures | None = None) -> float:
        """``seat``'s chance of winning the match (a win shared by k players counts 1/k)
        after this round's measurement, then the rounds still to come (``futures``; none:
        the match ends with this round)."""
        total = 0.0
        others = [s for s in range(len(self.chips)) if s != seat]
        judge = futures or Futures([])
        for chance, chips in self.finals():
            total += chance * judge.share(tuple(chips[seat] - chips[s] for s in others))
        return total

    def apply(self, seat: int, move: str, rng: Coins) -> None:
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


# The normal policy on compact beliefs. A qubit is (p2, chips, superposed, shown) with
# p2 = 2 * P(reads 1); what a row's points can be depends only on how many qubits it has of
# each (p2, chips), so a row is keyed by those counts and the distributions and expected
# gains are computed once per distinct position.
Row = tuple[tuple[int, int, bool, bool], ...]
_DIGIT = {(p2, c): 5 ** (2 * p2 + c - 1) for p2 in (0, 1, 2) for c in (1, 2)}
_DISTS: dict[int, list[float]] = {}
_GAINS: dict[tuple[int, tuple[int, ...], int], float] = {}
_SHARES: dict[tuple[int, tuple[int, ...]], float] = {}
_RANKINGS: dict[tuple[Any, ...], tuple[list[tuple[float, str]], list[str]]] = {}
_CACHE_LIMIT = 200_000


def _key(row: tuple[tuple[int, int], ...] | Row) -> int:
    return sum(_DIGIT[q[0], q[1]] for q in row)


def _dist(key: int) -> list[float]:
    found = _DISTS.get(key)
    if found is None:
        dist = [1.0]
        for (p2, chips), digit in sorted(_DIGIT.items()):
            for _ in range(key // digit % 5):
                p = p2 / 2
                nxt = [0.0] * (len(dist) + chips)
                for k, pk in enumerate(dist):
                    nxt[k] += pk * (1.0 - p)
                    nxt[k + chips] += pk * p
                dist = nxt
        found = _DISTS[key] = dist
    return found


def _gain(mine: int, rivals: tuple[int, ...], carry: int) -> float:
    """``qpoker.ai.expected_gain`` on row keys (rivals sorted: their order is moot)."""
    found = _GAINS.get((mine, rivals, carry))
    if found is None:
        if len(_GAINS) > _CACHE_LIMIT:
            _GAINS.clear()
        found = gain_of(_dist(mine), [_dist(r) for r in rivals], carry)
        _GAINS[mine, rivals, carry] = found
    return found


def _share(mine: int, rivals: tuple[int, ...]) -> float:
    """``qpoker.ai.share_of`` on row keys (rivals sorted)."""
    found = _SHARES.get((mine, rivals))
    if found is None:
        if len(_SHARES) > _CACHE_LIMIT:
            _SHARES.clear()
        found = _SHARES[mine, rivals] = share_of(_dist(mine), [_dist(r) for r in rivals])
    return found


def compact_score(view: dict[int, Row], me: int, carry: int) -> float:
    """``qpoker.ai.score`` on compact beliefs."""
    rivals = tuple(sorted(_key(row) for s, row in view.items() if s != me))
    shown = sum(q[0] * q[1] for q in view[me] if q[3] and not q[2]) / 2
    return _gain(_key(view[me]), rivals, carry) - SHOW_COST * shown


def _flip(q: tuple[int, int, bool, bool]) -> tuple[int, int, bool, bool]:
    return q if q[2] else (2 - q[0], q[1], q[2], q[3])


def compact_after(view: dict[int, Row], me: int, stack: int, move: str) -> dict[int, Row]:
    """``qpoker.ai.simulate`` on compact beliefs."""
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


def _after_own(q: tuple[int, int, bool, bool], card: str, stack: int) -> tuple[Any, ...]:
    """An own qubit after X, Y, Z or H, as the normal policy believes it."""
    p2, c, sup, shown = q
    if card == "X":
        return _flip(q)
    if card == "Y":
        return (_flip(q)[0], c, sup, not shown)
    if card == "Z":
        return (p2, 1, sup, shown) if c == 2 else (p2, 2, sup, shown) if stack > 0 else q
    return (1, c, not sup, shown)


def _shows(q: tuple[int, int, bool, bool]) -> float:
    """What an own qubit adds to the cost of showing (its expected points when shown)."""
    return q[0] * q[1] / 2 if q[3] and not q[2] else 0.0


def ranked(sim: Sim, seat: int) -> list[tuple[float, str]]:
    """The normal policy's ranking of ``seat``'s moves from what it sees in ``sim``, best
    first, as :func:`qpoker.ai.rank_moves`."""
    return choices(sim, seat)[0]


def choices(sim: Sim, seat: int) -> tuple[list[tuple[float, str]], list[str]]:
    """:func:`ranked` and its equal best moves, remembered per distinct view (rollouts meet
    the same ones again and again). Each move changes one or two rows, so only their keys
    are worked out again."""
    stack = sim.chips[seat]
    may_call = sim.may_call()
    carry = sim.carry
    key = (seat, sim.view_key(seat), *sorted(sim.community), stack > 0, carry, may_call)
    found = _RANKINGS.get(key)
    if found is not None:
        return found
    view = sim.view(seat)
    mine = view[seat]
    others = [s for s in sim.players if s != seat]
    keys = {s: _key(view[s]) for s in others}
    rivals = tuple(sorted(keys.values()))
    my_key = _key(mine)
    shown = sum(_shows(q) for q in mine)
    out: list[tuple[float, str]] = []
    cards = set(sim.community)
    for card in ("X", "Y", "Z", "H"):
        if card in cards:
            for i, q in enumerate(mine):
                new = _after_own(q, card, stack)
                k = my_key - _DIGIT[q[0], q[1]] + _DIGIT[new[0], new[1]]
                value = _gain(k, rivals, carry) - SHOW_COST * (shown - _shows(q) + _shows(new))
                out.append((value, f"{card}:{i}"))
    if "CX" in cards:
        base = _gain(my_key, rivals, carry) - SHOW_COST * shown
        for t in others:
            rest = [keys[o] for o in others if o != t]
            for i, q in enumerate(view[t]):
                flipped = _flip(q)
                if flipped is q or flipped[0] == q[0]:
                    value = base
                else:
                    k = keys[t] - _DIGIT[q[0], q[1]] + _DIGIT[flipped[0], flipped[1]]
                    value = _gain(my_key, tuple(sorted([*rest, k])), carry) - SHOW_COST * shown
                out.append((value, f"CX:{t}.{i}"))
    if "SWAP" in cards:
        for j, a in enumerate(mine):
            da = _DIGIT[a[0], a[1]]
            for t in others:
                rest = [keys[o] for o in others if o != t]
                for i, b in enumerate(view[t]):
                    db = _DIGIT[b[0], b[1]]
                    k_mine = my_key - da + db
                    k_theirs = keys[t] - db + da
                    value = _gain(k_mine, tuple(sorted([*rest, k_theirs])), carry) - SHOW_COST * (
                        shown - _shows(a) + _shows(b)
                    )
                    out.append((value, f"SWAP:{j}:{t}.{i}"))
    if may_call:
        revealed = sum(q[0] * q[1] / 2 for q in mine if not q[2])
        out.append((_gain(my_key, rivals, carry) - SHOW_COST * revealed - CALL_MARGIN, "call"))
    out.sort(key=lambda pair: -pair[0])
    if len(_RANKINGS) > _CACHE_LIMIT:
        _RANKINGS.clear()
    found = _RANKINGS[key] = (out, _top(out))
    return found


def _top(ranking: list[tuple[float, str]]) -> list[str]:
    best = ranking[0][0]
    return [m for v, m in ranking if v >= best - EPSILON]


def _pick(ranking: list[tuple[float, str]], rng: random.Random) -> str:
    return rng.choice(_top(ranking))


def likelihood(sim: Sim, seat: int, move: str) -> float:
    """How likely the model of another player (:data:`NOISE`) makes ``move`` in ``sim``."""
    ranking, top = choices(sim, seat)
    chance = NOISE / len(ranking)
    if move in top:
        chance += (1 - NOISE) / len(top)
    return chance


def rollout(sim: Sim, me: int, rng: random.Random, futures: Futures | None = None) -> float:
    """Play the round out with the normal policy for everyone; ``me``'s expected chips, or
    with ``futures`` (see :meth:`Sim.match_share`) its chance to win the match."""
    while sim.current is not None:
        seat = sim.current
        sim.apply(seat, rng.choice(choices(sim, seat)[1]), rng)
    return sim.value(me) if futures is None else sim.match_share(me, futures)


def round_changes(players: int, rng: random.Random) -> list[int]:
    """The stacks' changes over one round as a rough model of the rounds to come: qubits
    dealt from the deck, no card played, measured and paid out."""
    deck = list(QUBIT_DECK)
    rng.shuffle(deck)
    points = [sum(deck[QUBITS * s : QUBITS * s + QUBITS]) for s in range(players)]
    best = max(points)
    winners = [s for s in range(players) if points[s] == best]
    share = sum(p for p in points if p != best) // len(winners)
    return [share if p == best else -p for p in points]


class Futures:
    """Draws of what every other seat gains on the observer over the match's remaining
    rounds, and the observer's share of the match win for a lead over each of them."""

    def __init__(self, draws: list[list[int]]) -> None:
        self.draws = draws or [[]]
        self._shares: dict[tuple[int, ...], float] = {}

    def share(self, lead: tuple[int, ...]) -> float:
        found = self._shares.get(lead)
        if found is None:
            total = 0.0
            for change in self.draws:
                tied = 0
                for ahead, gain in zip(lead, change or [0] * len(lead), strict=True):
                    margin = ahead - gain
                    if margin < 0:
                        break
                    if margin == 0:
                        tied += 1
                else:
                    total += 1 / (1 + tied)
            found = self._shares[lead] = total / len(self.draws)
        return found


def futures_for(obs: QPokerObservation, rng: random.Random, count: int) -> Futures:
    """``count`` draws of the match's remaining rounds (none in the last round)."""
    me = obs.seat
    assert me is not None, "a seat's futures, not a spectator's"
    left = obs.rounds - obs.round
    players = [s for s, row in enumerate(obs.qubits) if row]
    out = []
    for _ in range(count if left else 0):
        total = [0] * obs.n_players
        for _ in range(left):
            change = round_changes(len(players), rng)
            for s, d in zip(players, change, strict=True):
                total[s] += d
        out.append([total[s] - total[me] for s in range(obs.n_players) if s != me])
    return Futures(out)


# --- what the others may hold ------------------------------------------------------------


class _Coins:
    """The coins of the collapses in a replay, in order (0 once they run out)."""

    def __init__(self, coins: list[int]) -> None:
        self.coins, self.used = coins, 0

    def randint(self, a: int, b: int) -> int:
        self.used += 1
        return self.coins[self.used - 1] if self.used <= len(self.coins) else 0


class History:
    """The round so far as the seat can reconstruct it: the deal's values it cannot pin
    down, and the moves, in order, that led from the deal to the observation.

    A card's value now is its dealt value flipped by every X, Y and CX it met outside
    superposition, or, after a collapse, the collapse's coin flipped likewise; so every
    value the seat sees pins down a dealt value or a coin. When the record does not lead
    to what the seat sees (a table saved before moves were recorded), :attr:`replayable` is
    False and the hidden values are independent coins.
    """

    def __init__(self, obs: QPokerObservation) -> None:
        me = obs.seat
        assert me is not None
        self.obs, self.me = obs, me
        self.players = [s for s, row in enumerate(obs.qubits) if row]
        self.timeline: list[tuple[int, str]] = [(p.seat, p.move) for p in obs.played]
        if obs.called_by is not None:
            after = len(self.players) - 1 - len(obs.final_left)
            self.timeline.insert(len(self.timeline) - after, (obs.called_by, "call"))
        self.community = list(obs.community) + [p.card for p in obs.played]
        self.replayable = all(m for _, m in self.timeline) and self._trace()

    def _start(self, values: dict[int, int], chips: list[int]) -> Sim:
        qubits = {
            s: [[values.get(4 * s + i, 0), False, False, False, 4 * s + i] for i in range(QUBITS)]
            for s in self.players
        }
        first = self.timeline[0][0] if self.timeline else self.me
        return Sim(qubits, chips, list(self.community), first, None, [], self.obs.carry,
                   self.obs.calling)  # fmt: skip

    def _trace(self) -> bool:
        """Replay with every dealt value and coin 0: what each value seen now pins down."""
        obs = self.obs
        spent = self._start({}, [c + 1000 for c in obs.chips])
        for seat, move in self.timeline:
            spent.apply(seat, move, _Coins([]))
        self.chips = [2 * c + 1000 - s for c, s in zip(obs.chips, spent.chips, strict=True)]
        sim = self._start({}, list(self.chips))
        coins = _Coins([])
        last_coin: dict[int, int] = {}  # card id -> index of the coin that collapsed it last
        for seat, move in self.timeline:
            if sim.current != seat:
                return False
            before = coins.used
            card, _, rest = move.partition(":")
            target = sim.qubits[seat][int(rest)] if card == "H" else None
            sim.apply(seat, move, coins)
            if target is not None and coins.used > before:
                last_coin[target[4]] = before
        if sim.current != obs.current:
            return False
        self.coins = coins.used
        self.pinned: dict[int, int] = {}
        self.pinned_coins: dict[int, int] = {}
        for s in self.players:
            for q, seen in zip(sim.qubits[s], obs.qubits[s], strict=True):
                if (q[SHOWN], q[SUP], q[DBL]) != (seen.shown, seen.superposed, seen.doubled):
                    return False
                if seen.value is None:
                    continue
                if q[4] in last_coin:
                    self.pinned_coins[last_coin[q[4]]] = seen.value ^ q[V]
                else:
                    self.pinned[q[4]] = seen.value ^ q[V]
        urn = list(QUBIT_DECK)
        for v in self.pinned.values():
            if v not in urn:
                return False
            urn.remove(v)
        self.urn = urn
        self.free = [4 * s + i for s in self.players for i in range(QUBITS)]
        self.free = [c for c in self.free if c not in self.pinned]
        return True

    def particle(self, rng: random.Random) -> tuple[Sim, float]:
        """A deal consistent with what the seat sees, replayed to now, and its weight: how
        likely the others' moves were on it."""
        if not self.replayable:
            return self._coin_world(rng), 1.0
        urn = list(self.urn)
        rng.shuffle(urn)
        values = dict(self.pinned)
        values.update(zip(self.free, urn, strict=False))
        coins = _Coins([self.pinned_coins.get(k, rng.randint(0, 1)) for k in range(self.coins)])
        sim = self._start(values, list(self.chips))
        weight = 1.0
        for seat, move in self.timeline:
            if seat != self.me:
                weight *= likelihood(sim, seat, move)
            sim.apply(seat, move, coins)
        return sim, weight

    def _coin_world(self, rng: random.Random) -> Sim:
        obs = self.obs
        qubits = {
            s: [
                [
                    rng.randint(0, 1) if q.value is None else q.value,
                    q.shown,
                    q.superposed,
                    q.doubled,
                    4 * s + i,
                ]
                for i, q in enumerate(obs.qubits[s])
            ]
            for s in self.players
        }
        return Sim(qubits, list(obs.chips), list(obs.community), self.me, obs.called_by,
                   list(obs.final_left), obs.carry, obs.calling)  # fmt: skip


def worlds(
    obs: QPokerObservation, rng: random.Random, count: int, deadline: float | None = None
) -> list[Sim]:
    """``count`` worlds drawn from the seat's belief (weighted deals, resampled); fewer
    deals are weighted if the ``deadline`` comes first."""
    history = History(obs)
    drawn: list[tuple[Sim, float]] = []
    for _ in range(count * (PARTICLES if history.replayable else 1)):
        if drawn and deadline is not None and time.monotonic() >= deadline:
            break
        drawn.append(history.particle(rng))
    total = sum(w for _, w in drawn)
    if total <= 0:
        return [sim for sim, _ in drawn[:count]]
    cumulative = list(accumulate(w / total for _, w in drawn))
    start = rng.random() / count
    picks = [min(bisect.bisect_left(cumulative, start + k / count), len(drawn) - 1)
             for k in range(count)]  # fmt: skip
    return [drawn[i][0] for i in picks]


def belief_table(obs: QPokerObservation, sample: list[Sim]) -> dict[int, list[Belief]]:
    """The seat's belief from the worlds: each qubit's chance of reading 1."""
    table: dict[int, list[Belief]] = {}
    for s, row in enumerate(obs.qubits):
        if not row:
            continue
        table[s] = []
        for i, q in enumerate(row):
            if q.superposed:
                p = 0.5
            elif q.value is not None:
                p = float(q.value)
            else:
                p = sum(w.qubits[s][i][V] for w in sample) / len(sample)
            table[s].append(
                Belief(p=p, chips=2 if q.doubled else 1, superposed=q.superposed, shown=q.shown)
            )
    return table


def hard_action(
    obs: QPokerObservation,
    rng: random.Random,
    deadline: float | None = None,
    samples: int = SAMPLES,
) -> str:
    """Rollouts of the best candidate moves on worlds drawn from the inferred belief; the
    normal move unless the worlds clearly favour another (:func:`~bot.engines.pimc.clearly_better`)."""
    return hard_analysis(obs, rng, deadline, samples).move


def hard_analysis(
    obs: QPokerObservation,
    rng: random.Random,
    deadline: float | None = None,
    samples: int | None = None,
    also: Sequence[str] = (),
) -> Analysis:
    """:func:`hard_action`'s search with what it found (:mod:`bot.engines.analysis`): each
    candidate's average over the worlds: the chips it wins or loses at measurement (kind
    "chips") with its share of winning the round (scope "round"), or near the match's end
    its chance to win the match (kind "win", scope "game"). Reasons: "search"; "only" (one
    legal move). ``samples``: worlds (:data:`SAMPLES` by default). ``also``: moves to value
    on the same worlds, never chosen. "no-deal": no world was played out before the
    deadline (the normal move)."""
    me = obs.seat
    assert me is not None
    samples = SAMPLES if samples is None else samples
    ranking = rank_moves(obs)
    if len(ranking) == 1:
        return Analysis.rule(ranking[0][1], "only")
    fallback = _pick(ranking, rng)
    sample = worlds(obs, rng, samples, deadline)
    inferred = rank_moves(obs, belief_table(obs, sample))
    candidates = list(dict.fromkeys(
        [m for _, m in inferred[:CANDIDATES]] + [m for _, m in ranking[:NORMAL_CANDIDATES]]
    ))  # fmt: skip
    if "call" in (m for _, m in ranking) and "call" not in candidates:
        candidates.append("call")
    if fallback not in candidates:
        candidates.append(fallback)
    legal = {m for _, m in ranking}
    extra = [m for m in dict.fromkeys(also) if m in legal and m not in candidates]
    runs: dict[str, list[float]] = {m: [] for m in [*candidates, *extra]}
    shares: dict[str, list[float]] = {m: [] for m in runs}
    futures = None
    if PLAY_TO_WIN and obs.rounds - obs.round <= PLAY_TO_WIN_ROUNDS:
        futures = futures_for(obs, random.Random(rng.random()), FUTURES)
    for world in sample:
        if deadline is not None and time.monotonic() >= deadline:
            break
        seed = rng.random()
        values = {}
        won = {}
        for move in runs:
            if deadline is not None and time.monotonic() >= deadline:
                break
            sim = world.copy()
            roll = random.Random(seed)  # the same coins for every candidate
            sim.apply(me, move, roll)
            values[move] = rollout(sim, me, roll, futures)
            won[move] = sim.round_share(me)
        if len(values) < len(runs):
            break  # out of time mid-sample: only whole samples count
        for move, value in values.items():
            runs[move].append(value)
            shares[move].append(won[move])
    chosen = clearly_better({m: runs[m] for m in candidates}, fallback, CONFIDENCE)
    done = len(runs[fallback])
    if not done:
        return Analysis.rule(chosen, "no-deal")
    figures = [
        MoveValue(
            move=move,
            value=sum(found) / done if done else None,
            win=(sum(found) if futures else sum(shares[move])) / done if done else None,
            samples=done,
        )
        for move, found in runs.items()
    ]
    return Analysis.of(
        chosen, "win" if futures else "chips", figures,
        scope="game" if futures else "round", samples=done, reason="search",
    )  # fmt: skip
