"""A light Flux simulator for the hard AI: one hand on small integers, with the normal policy.

A card is an integer whose order is the engine's hand order (:func:`~bot.engines.cards.sort_codes`:
suits S, H, D, C, high rank first), so a sorted list of them is a hand as the engine holds
it, and the normal policy's first-best choices come out the same. :class:`Sim` plays one hand
from a trick or a command on (tricks, command, discards, fluxes, calling, the value game and
the poker game); :func:`play_card` and :func:`command` are ``flux.ai.play_card`` and
``flux.ai.command_action`` on it. ``tests/engines/test_card_levels.py`` plays the simulator
side by side with the engine and the policy against the normal AI. Variants that change the
command itself (16, Temporal flux) are not simulated. Point dice (9, 11) are counted at their
best use rather than chosen in a dice phase.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations
from typing import Any

from bot.engines.cards import JACK, KING, SUITS, card
from bot.engines.flux.ai import NORMAL, POKER_WEIGHT, Style, draw_distribution
from bot.engines.flux.rules import (
    Rules,
    badness,
    best_value,
    distance,
    poker_points,
    settle,
    truco_level,
)
from bot.engines.poker import HandRank, best_five

HAND_SIZE = 7
FLUX_POINTS = 5
UNSUPPORTED = frozenset({"16"})
"""Variants the simulator does not play."""

# --- cards as integers ---------------------------------------------------------------------

CODES: list[str] = [""] * 64
RANK = [0] * 64
SUIT = [""] * 64
POINTS = [0] * 64
RED = [False] * 64
FACE = [False] * 64
_INDEX: dict[str, int] = {}
for _s, _suit in enumerate(SUITS):
    for _rank in range(2, 15):
        _i = _s * 16 + (14 - _rank)
        _code = card(f"{'23456789TJQKA'[_rank - 2]}{_suit}").code
        CODES[_i], RANK[_i], SUIT[_i] = _code, _rank, _suit
        POINTS[_i] = 1 if _rank == 14 else 0 if _rank >= JACK else _rank
        RED[_i] = _suit in "HD"
        FACE[_i] = JACK <= _rank <= KING
        _INDEX[_code] = _i


def encode(codes: Sequence[str]) -> list[int]:
    return [_INDEX[c] for c in codes]


def decode(cards: Sequence[int]) -> list[str]:
    return [CODES[c] for c in cards]


@cache
def values(rules: Rules) -> list[int]:
    """Each card's signed value under ``rules`` (red adds, black takes off; 19: all add).
    Remembered, like :func:`strengths`: the lists are shared, and only read."""
    return [p if rules.absolute or red else -p for p, red in zip(POINTS, RED, strict=True)]


@cache
def strengths(trump: str | None, truco: bool) -> list[int]:
    """Trick strength of each card, higher wins once equal strengths cancel: a trump beats
    every other suit (100 + rank), or Variant 12's levels."""
    if truco:
        return [truco_level(c, trump) if c else 0 for c in CODES]
    return [RANK[i] + (100 if SUIT[i] == trump else 0) for i in range(64)]


def trick_winner(plays: Sequence[tuple[int, int]], strength: list[int]) -> int | None:
    """``flux.rules.trick_winner`` on (seat, card) pairs: the highest strength nobody
    shares (every trump rank that repeats cancels, then the other ranks likewise)."""
    levels = [strength[c] for _, c in plays]
    best, winner = -1, None
    for (seat, _), level in zip(plays, levels, strict=True):
        if level > best and levels.count(level) == 1:
            best, winner = level, seat
    return winner


class Scale:
    """Badness of values for one seat (its point dice) at one target: the look-ups the
    normal policy makes, remembered (``flux.ai.Judge`` on integers)."""

    def __init__(self, target: int, dice: tuple[int, ...], rules: Rules) -> None:
        self.target, self.dice, self.rules = target, dice, rules
        self._bad: dict[int, int] = {}
        self._expected: dict[tuple[int, int], float] = {}
        self._one: dict[int, float] = {}

    def bad(self, value: int) -> int:
        found = self._bad.get(value)
        if found is None:
            rules = self.rules
            adjusted = best_value(value, self.dice, self.target, rules)
            found = self._bad[value] = badness(adjusted, self.target, rules)
        return found

    def expected_one(self, value: int) -> float:
        """:meth:`expected` after one draw."""
        found = self._one.get(value)
        if found is None:
            found = self._one[value] = self.expected(value, 1)
        return found

    def expected(self, value: int, draws: int) -> float:
        found = self._expected.get((value, draws))
        if found is None:
            found = sum(
                p * self.bad(value + v) for v, p in draw_distribution(draws, self.rules.absolute)
            )
            self._expected[value, draws] = found
        return found


_SCALES: dict[tuple[int, tuple[int, ...], Rules], Scale] = {}
_BETTER: dict[tuple[int, int, Rules], float] = {}


def scale(target: int, dice: Sequence[int], rules: Rules) -> Scale:
    key = (target, tuple(dice), rules)
    found = _SCALES.get(key)
    if found is None:
        if len(_SCALES) > 5_000:
            _SCALES.clear()
        found = _SCALES[key] = Scale(target, tuple(dice), rules)
    return found


def p_better(bad: int, target: int, rules: Rules) -> float:
    """Chance that a random seven-card hand is strictly better than ``bad``."""
    key = (bad, target, rules)
    found = _BETTER.get(key)
    if found is None:
        found = _BETTER[key] = sum(
            p for v, p in draw_distribution(7, rules.absolute) if badness(v, target, rules) < bad
        )
    return found


def poker_potential(cards: Sequence[int]) -> float:
    """``flux.ai.poker_potential`` on integers."""
    ranks: dict[int, int] = {}
    suits = [0, 0, 0, 0]
    for c in cards:
        ranks[RANK[c]] = ranks.get(RANK[c], 0) + 1
        suits[c >> 4] += 1
    made = sum(n * (n - 1) for n in ranks.values()) / 2
    top = max(suits)
    return made + (top - 2) * 0.5 if top > 2 else made


def potentials_without(hand: Sequence[int]) -> dict[int, float]:
    """:func:`poker_potential` of the hand less each one card, by card."""
    ranks: dict[int, int] = {}
    suits = [0, 0, 0, 0]
    for c in hand:
        ranks[RANK[c]] = ranks.get(RANK[c], 0) + 1
        suits[c >> 4] += 1
    made = sum(n * (n - 1) for n in ranks.values()) / 2
    out = {}
    for c in hand:
        if c in out:
            continue
        suits[c >> 4] -= 1
        top = max(suits)
        suits[c >> 4] += 1
        less = made - (ranks[RANK[c]] - 1)
        out[c] = less + (top - 2) * 0.5 if top > 2 else less
    return out


_POKER_RANKS: dict[tuple[int, ...], HandRank] = {}


def poker_rank(hand: Sequence[int]) -> HandRank:
    """The value of the best five of a hand of five to seven cards (remembered)."""
    key = tuple(hand)
    found = _POKER_RANKS.get(key)
    if found is None:
        if len(_POKER_RANKS) > 20_000:  # a few megabytes per worker at most
            _POKER_RANKS.clear()
        found = _POKER_RANKS[key] = best_five(decode(hand))[0]
    return found


def unique_best(ranks: Sequence[tuple[HandRank, int]]) -> int | None:
    """``flux.rules.poker_winner`` on (value, seat) pairs: the seat with the best value no
    other seat ties."""
    values = [rank for rank, _ in ranks]
    alive = [pair for pair in ranks if values.count(pair[0]) == 1]
    return max(alive)[1] if alive else None


# Moves inside the simulator: ("p", card), ("d", cards), ("call",), ("pass",)
Move = tuple[Any, ...]


def parse(action: str) -> Move:
    """An engine action (``p:AS``, ``discard:AS,TH``, ``call``, ``pass``) as a move."""
    if action.startswith("p:"):
        return ("p", _INDEX[action[2:]])
    if action in ("call", "pass"):
        return (action,)
    thrown = [c for c in action.partition(":")[2].split(",") if c]
    return ("d", tuple(_INDEX[c] for c in thrown))


def action(move: Move) -> str:
    """A simulator move as the engine's action."""
    if move[0] == "p":
        return "p:" + str(CODES[move[1]])
    if move[0] == "d":
        return "discard:" + ",".join(sorted(CODES[c] for c in move[1]))
    return str(move[0])


class Sim:
    """One Flux hand from a trick or a command on, every card known (a determinization).

    ``shoe`` and ``burned`` are kept bottom first, so the next card is the last one.
    """

    def __init__(
        self,
        rules: Rules,
        hands: list[list[int]],
        shoe: list[int],
        burned: list[int],
        *,
        active: list[bool],
        target: int,
        turnup: str | None,
        phase: str,
        trick: list[tuple[int, int]],
        leader: int,
        turn: int | None,
        tricks_won: int,
        max_tricks: int | None,
        commander: int | None,
        discard_range: tuple[int, int],
        bullseye_bonus: int,
        bonus_trick: tuple[int, int] | None,
        point_dice: list[list[int]],
        roll: Callable[[int, int], int],
    ) -> None:
        self.rules = rules
        self.n = len(hands)
        self.hands = [sorted(h) for h in hands]
        self.shoe = shoe
        self.burned = burned
        self.active = active
        self.players = sum(active)
        self.target = target
        self.turnup = turnup
        self.trump = card(turnup).suit if turnup else None
        self.value = values(rules)
        self.strength = strengths(self.trump, rules.truco)
        worth = self.poker_worth = poker_points(turnup, rules)
        self.poker_weight = POKER_WEIGHT if turnup and card(turnup).is_face and worth else 0.0
        self.phase = phase
        self.trick = trick
        self.leader = leader
        self.turn = turn
        self.tricks_won = tricks_won
        self.max_tricks = max_tricks
        self.commander = commander
        self.discard_range = discard_range
        self.bullseye_bonus = bullseye_bonus
        self.bonus_trick = bonus_trick
        self.point_dice = point_dice
        self.roll = roll
        self.gained = [0] * self.n
        self.out: list[int] = []
        self.styles: dict[int, Style] = {}  # seats playing other than normal in rollouts

    def copy(self, roll: Callable[[int, int], int]) -> Sim:
        twin = Sim.__new__(Sim)
        twin.__dict__.update(self.__dict__)
        twin.hands = [list(h) for h in self.hands]
        twin.shoe = list(self.shoe)
        twin.burned = list(self.burned)
        twin.trick = list(self.trick)
        twin.point_dice = [list(d) for d in self.point_dice]
        twin.gained = list(self.gained)
        twin.out = []
        twin.roll = roll
        return twin

    # --- queries ------------------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        if self.phase == "trick":
            return self.turn
        if self.phase in ("command", "flux"):
            return self.commander
        return None

    def next_seat(self, seat: int) -> int:
        for step in range(1, self.n + 1):
            candidate = (seat + step) % self.n
            if self.active[candidate]:
                return candidate
        return seat

    def total(self, seat: int) -> int:
        value = self.value
        return sum(value[c] for c in self.hands[seat])

    def weight(self, style: Style) -> float:
        """The poker weight ``style`` plays with in this hand."""
        if style.poker_per_point:
            return style.poker_per_point * self.poker_worth
        return self.poker_weight

    def value_of(self, seat: int) -> int:
        return best_value(self.total(seat), self.point_dice[seat], self.target, self.rules)

    def scale(self, seat: int) -> Scale:
        return scale(self.target, self.point_dice[seat], self.rules)

    # --- moves --------------------------------------------------------------------------

    def apply(self, seat: int, move: Move) -> None:
        """Play a move (``p``, ``call``, ``pass``, ``d``); not checked."""
        kind = move[0]
        if kind == "p":
            self._play(seat, move[1])
        elif kind == "call":
            self._settle(seat, after_flux=self.phase == "flux")
        elif kind == "pass":
            self._next_trick(seat)
        else:
            self._discard(seat, move[1])

    def _draw(self) -> int | None:
        if self.shoe:
            return self.shoe.pop()
        if self.burned:
            return self.burned.pop()
        return None

    def _play(self, seat: int, c: int) -> None:
        hand = self.hands[seat]
        hand.remove(c)
        self.trick.append((seat, c))
        new = self._draw()
        if new is None:
            self._settle(None)
            return
        insort(hand, new)
        nxt = self.next_seat(seat)
        if nxt != self.leader:
            self.turn = nxt
            return
        winner = trick_winner(self.trick, self.strength)
        self.out.extend(c for _, c in self.trick)
        self.trick = []
        if winner is None:
            self.turn = self.leader  # a dead trick: the same leader again
            return
        self.tricks_won += 1
        if not self.rules.no_bonus:
            self.gained[winner] += 1
        self._take_command(winner)

    def _take_command(self, seat: int) -> None:
        self.commander = seat
        sides = self.rules.discard_sides
        roll = self.roll(1, sides)
        if roll == sides:
            self._flux(seat)
            return
        self.discard_range = (0 if self.rules.has("1") else roll, roll)
        self.phase = "command"

    def _flux(self, seat: int) -> None:
        self.out.extend(self.hands[seat])
        hand: list[int] = []
        self.hands[seat] = hand
        if not self.rules.no_bonus:
            self.gained[seat] += FLUX_POINTS
        for _ in range(HAND_SIZE):
            c = self._draw()
            if c is None:
                self._settle(None)
                return
            hand.append(c)
        hand.sort()
        self._award_dice(seat)
        if (
            not self.rules.has("10")
            and not self.rules.anti
            and distance(self.value_of(seat), self.target) == 0
        ):
            self.phase = "flux"
            return
        self._next_trick(seat)

    def _discard(self, seat: int, thrown: Sequence[int]) -> None:
        hand = self.hands[seat]
        for c in thrown:
            hand.remove(c)
        self.out.extend(thrown)
        for _ in thrown:
            drawn = self._draw()
            if drawn is None:
                self._settle(None)
                return
            insort(hand, drawn)
        self._award_dice(seat)
        self._next_trick(seat)

    def _award_dice(self, seat: int) -> None:
        if self.rules.has("9"):
            self.point_dice[seat].append(self.roll(1, 6))
        if self.bonus_trick is not None and self.tricks_won == self.bonus_trick[0]:
            self.point_dice[seat].append(self.bonus_trick[1])

    def _next_trick(self, leader: int) -> None:
        self.commander = None
        self.phase = "trick"
        self.leader = self.turn = leader
        self.trick = []
        if self.max_tricks is not None and self.tricks_won >= self.max_tricks:
            self._settle(None)

    def _settle(self, caller: int | None, after_flux: bool = False) -> None:
        """The value game (point dice at their best), then the poker game: the hand ends."""
        if caller is not None and not after_flux:
            self._award_dice(caller)
        rules = self.rules
        seats = [s for s in range(self.n) if self.active[s]]
        values = {s: self.value_of(s) for s in seats}
        bonus = 20 if after_flux and not rules.has("10") else self.bullseye_bonus
        for s, pts in settle(values, self.target, rules, caller, bonus).points.items():
            self.gained[s] += pts
        worth = poker_points(self.turnup, rules)
        if worth or rules.has("5"):
            ranks = [(poker_rank(self.hands[s]), s) for s in seats if len(self.hands[s]) >= 5]
            winner = unique_best(ranks)
            if winner is not None:
                self.gained[winner] += worth + (1 if rules.has("5") else 0)
        self.phase = "done"
        self.turn = self.commander = None

    # --- the normal policy --------------------------------------------------------------

    def policy(self, seat: int) -> Move:
        """The normal policy's move for ``seat`` from its view of this sample."""
        if self.phase == "flux":
            return ("call",)
        if self.phase == "trick":
            return ("p", play_card(self, seat))
        return command(self, seat)

    def rollout(self) -> None:
        """Play the hand out with the normal policy for every seat."""
        while (seat := self.to_act) is not None:
            self.apply(seat, self.policy(seat))


def play_card(sim: Sim, seat: int) -> int:
    """``flux.ai.play_card``: keep the hand near the target; win the trick when command is
    worth it."""
    judge = sim.scale(seat)
    hand = sim.hands[seat]
    value = sim.value
    total = sum(value[c] for c in hand)
    now = judge.bad(total)
    plays = sim.trick
    last = len(plays) == sim.players - 1
    style = sim.styles.get(seat, NORMAL)
    weight = sim.weight(style)
    bonus = style.command_near if now <= 3 else style.command_far
    if not last:
        bonus *= 0.5
    strength = sim.strength
    # a card wins if its strength is new to the trick and above every one nobody shares
    levels = [strength[c] for _, c in plays]
    top = max((lv for lv in levels if levels.count(lv) == 1), default=-1)
    best_score, best = 0.0, -1
    previous = -1
    expected = judge.expected_one
    potential = potentials_without(hand) if weight else None
    for c in hand:
        if c == previous:
            continue
        previous = c
        score = expected(total - value[c])
        mine = strength[c]
        if mine > top and mine not in levels:
            score -= bonus
        if potential is not None:
            score -= weight * potential[c]
        if best < 0 or score < best_score:
            best_score, best = score, c
    return best


_COMBOS = {(size, k): list(combinations(range(size), k)) for size in range(8) for k in range(8)}
_KEPT = {
    key: [tuple(i for i in range(key[0]) if i not in combo) for combo in combos]
    for key, combos in _COMBOS.items()
}
"""For each of :data:`_COMBOS`, the places of the cards it keeps."""


def command(sim: Sim, seat: int) -> Move:
    """``flux.ai.command_action``: call when the hand is good enough; otherwise make the
    best discard."""
    rules, target = sim.rules, sim.target
    judge = sim.scale(seat)
    hand = sim.hands[seat]
    value = sim.value
    total = sum(value[c] for c in hand)
    now = judge.bad(total)
    safe = (1 - p_better(now, target, rules)) ** (sim.players - 1)
    style = sim.styles.get(seat, NORMAL)
    weight = sim.weight(style)
    low, high = sim.discard_range
    best_score = best_expected = 0.0
    best: tuple[int, ...] | None = None
    size = len(hand)
    for k in range(low, high + 1):
        combos = _COMBOS.get((size, k), ())
        for combo, keep in zip(combos, _KEPT.get((size, k), ()), strict=True):
            kept_value = total
            for i in combo:
                kept_value -= value[hand[i]]
            expected = judge.expected(kept_value, k)
            score = expected
            if weight:
                score -= weight * poker_potential([hand[i] for i in keep])
            if best is None or score < best_score:
                best_score, best_expected = score, expected
                best = tuple(hand[i] for i in combo)
    assert best is not None
    if safe >= style.call_safety or (safe >= style.call_floor and best_expected >= now):
        return ("call",)
    return ("d", best)


def roller(seed: float) -> Callable[[int, int], int]:
    """Dice for a sample: the same ``seed`` rolls the same numbers."""
    return random.Random(seed).randint
