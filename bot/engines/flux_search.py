"""Flux search for the hard AI: determinization and rollouts on a light simulator.

The hard level samples the cards the seat cannot see (the other hands and the order of the
shoe) from the cards it has not seen anywhere, plays each candidate move on every sample and
rolls the hand out to its end (value game and poker) with the normal policy for every seat,
each deciding from its own view of the sample. A candidate's worth is the seat's points over
the rest of the hand less the average of the others'; the best average over the samples is
played (perfect-information Monte Carlo).

:class:`Sim` is a small copy of one hand's rules from the first trick on (tricks, command,
discards, fluxes, calling, the value game and the poker game) on plain lists;
``tests/engines/test_card_levels.py`` plays it side by side with the engine. Variants that
change the command itself (16, Temporal flux) are not simulated: there the hard level plays
as normal. Point dice (9, 11) are counted at their best use rather than chosen in a dice phase.
Only the observation is read.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from functools import cached_property, lru_cache
from itertools import combinations
from typing import TYPE_CHECKING

from bot.engines.cards import card, sort_codes, standard_deck
from bot.engines.flux_ai import (
    CALL_SAFETY,
    Judge,
    draw_distribution,
    poker_potential,
    poker_weight,
)
from bot.engines.flux_rules import (
    Rules,
    badness,
    best_value,
    distance,
    hand_value,
    poker_points,
    poker_winner,
    settle,
    trick_winner,
)
from bot.engines.pimc import clearly_better
from bot.engines.poker import best_five

if TYPE_CHECKING:
    from bot.engines.flux import FluxObservation

HAND_SIZE = 7
FLUX_POINTS = 5
SAMPLES = 16
"""Determinizations per decision when no deadline is given."""
DISCARDS = 5
"""Discards searched at most (the normal policy's best ones), besides calling."""
CONFIDENCE = 1.0
"""Standard errors by which a move's sampled advantage must beat the normal move's."""
UNSUPPORTED = frozenset({"16"})
"""Variants the simulator does not play: the hard level plays as normal under them."""


# The normal policy for rollouts: the same decisions as ``flux_ai.play_card`` and
# ``flux_ai.command_action`` (a test checks it), with the expected badness of a kept value
# remembered across decisions instead of per decision.


@lru_cache(maxsize=50_000)
def _bad(value: int, target: int, dice: tuple[int, ...], rules: Rules) -> int:
    return badness(best_value(value, dice, target, rules), target, rules)


@lru_cache(maxsize=50_000)
def _expected(value: int, draws: int, target: int, dice: tuple[int, ...], rules: Rules) -> float:
    return sum(
        p * _bad(value + v, target, dice, rules)
        for v, p in draw_distribution(draws, rules.absolute)
    )


@lru_cache(maxsize=5_000)
def _p_better(bad: int, target: int, rules: Rules) -> float:
    """Chance that a random seven-card hand is strictly better than ``bad``."""
    return sum(
        p for v, p in draw_distribution(7, rules.absolute) if badness(v, target, rules) < bad
    )


def fast_play(view: View) -> str:
    """``flux_ai.play_card`` for a sample."""
    seat, rules, target = view.seat, view.rules, view.target
    dice = tuple(view.point_dice[seat])
    hand = view.hand
    absolute = rules.absolute
    total = hand_value(hand, absolute)
    now = _bad(total, target, dice, rules)
    plays = [(p.seat, p.card) for p in view.trick]
    last = len(plays) == sum(view.active) - 1
    weight = poker_weight(view)  # type: ignore[arg-type]
    command = 2.5 if now <= 3 else 1.0
    best: tuple[float, str] | None = None
    for code in dict.fromkeys(hand):
        score = _expected(total - hand_value((code,), absolute), 1, target, dice, rules)
        if trick_winner([*plays, (seat, code)], view.trump, rules.truco) == seat:
            score -= command if last else command * 0.5
        if weight:
            rest = list(hand)
            rest.remove(code)
            score -= weight * poker_potential(rest)
        if best is None or score < best[0]:
            best = (score, code)
    assert best is not None
    return f"p:{best[1]}"


def fast_command(view: View) -> str:
    """``flux_ai.command_action`` for a sample."""
    seat, rules, target = view.seat, view.rules, view.target
    dice = tuple(view.point_dice[seat])
    hand = view.hand
    absolute = rules.absolute
    total = hand_value(hand, absolute)
    now = _bad(total, target, dice, rules)
    safe = (1 - _p_better(now, target, rules)) ** (sum(view.active) - 1)
    weight = poker_weight(view)  # type: ignore[arg-type]
    low, high = view.discard_range
    values = [hand_value((c,), absolute) for c in hand]
    best: tuple[float, float, list[str]] | None = None
    seen: set[tuple[str, ...]] = set()
    for k in range(low, high + 1):
        for combo in combinations(range(len(hand)), k):
            thrown = tuple(sorted(hand[i] for i in combo))
            if thrown in seen:
                continue
            seen.add(thrown)
            kept_value = total - sum(values[i] for i in combo)
            expected = _expected(kept_value, k, target, dice, rules)
            score = expected
            if weight:
                kept = [c for i, c in enumerate(hand) if i not in combo]
                score -= weight * poker_potential(kept)
            if best is None or score < best[0]:
                best = (score, expected, list(thrown))
    assert best is not None
    _, expected, thrown = best
    if safe >= CALL_SAFETY or (safe >= 0.3 and expected >= now):
        return "call"
    return "discard:" + ",".join(thrown)


class Played:
    """A card in the trick, as the normal policy reads it (``seat``, ``card``)."""

    __slots__ = ("card", "seat")

    def __init__(self, seat: int, code: str) -> None:
        self.seat, self.card = seat, code


class View:
    """The parts of a :class:`FluxObservation` the normal policy's trick and command
    decisions read, for one seat of a sample (no pydantic, so rollouts stay quick)."""

    def __init__(self, sim: Sim, seat: int) -> None:
        self.seat = seat
        self.hand = sim.hands[seat]
        self.target = sim.target
        self.point_dice = sim.point_dice
        self.trick = [Played(s, c) for s, c in sim.trick]
        self.active = sim.active
        self.turnup = sim.turnup
        self.discard_range = sim.discard_range
        self.rules = sim.rules

    @cached_property
    def trump(self) -> str | None:
        return card(self.turnup).suit if self.turnup else None


class Sim:
    """One Flux hand from a trick or a command on, every card known (a determinization)."""

    def __init__(
        self,
        rules: Rules,
        hands: list[list[str]],
        shoe: list[str],
        burned: list[str],
        *,
        active: list[bool],
        target: int,
        turnup: str | None,
        phase: str,
        trick: list[tuple[int, str]],
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
        self.hands = hands
        self.shoe = shoe  # top first
        self.burned = burned
        self.active = active
        self.target = target
        self.turnup = turnup
        self.trump = card(turnup).suit if turnup else None
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
        self.out: list[str] = []

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

    def value_of(self, seat: int) -> int:
        raw = hand_value(self.hands[seat], self.rules.absolute)
        return best_value(raw, self.point_dice[seat], self.target, self.rules)

    # --- moves --------------------------------------------------------------------------

    def apply(self, seat: int, action: str) -> None:
        """Play a one-step move (``p:``, ``call``, ``pass``, ``discard:``); not checked."""
        if action.startswith("p:"):
            self._play(seat, action[2:])
        elif action == "call":
            self._settle(seat, after_flux=self.phase == "flux")
        elif action == "pass":
            self._next_trick(seat)
        else:
            thrown = [c for c in action.partition(":")[2].split(",") if c]
            self._discard(seat, thrown)

    def _draw(self) -> str | None:
        if self.shoe:
            return self.shoe.pop(0)
        if self.burned:
            return self.burned.pop(0)
        return None

    def _play(self, seat: int, code: str) -> None:
        self.hands[seat].remove(code)
        self.trick.append((seat, code))
        new = self._draw()
        if new is None:
            self._settle(None)
            return
        self.hands[seat] = sort_codes([*self.hands[seat], new])
        nxt = self.next_seat(seat)
        if nxt != self.leader:
            self.turn = nxt
            return
        winner = trick_winner(self.trick, self.trump, self.rules.truco)
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
        self.hands[seat] = []
        if not self.rules.no_bonus:
            self.gained[seat] += FLUX_POINTS
        for _ in range(HAND_SIZE):
            code = self._draw()
            if code is None:
                self._settle(None)
                return
            self.hands[seat].append(code)
        self.hands[seat] = sort_codes(self.hands[seat])
        self._award_dice(seat)
        if (
            not self.rules.has("10")
            and not self.rules.anti
            and distance(self.value_of(seat), self.target) == 0
        ):
            self.phase = "flux"
            return
        self._next_trick(seat)

    def _discard(self, seat: int, thrown: list[str]) -> None:
        hand = self.hands[seat]
        for code in thrown:
            hand.remove(code)
        self.out.extend(thrown)
        for _ in thrown:
            code = self._draw()
            if code is None:
                self._settle(None)
                return
            hand.append(code)
        self.hands[seat] = sort_codes(hand)
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
        fives = {s: best_five(self.hands[s])[1] for s in seats if len(self.hands[s]) >= 5}
        if fives:
            winner, _ = poker_winner(fives)
            if winner is not None:
                self.gained[winner] += poker_points(self.turnup, rules) + (
                    1 if rules.has("5") else 0
                )
        self.phase = "done"
        self.turn = self.commander = None

    # --- rollouts -----------------------------------------------------------------------

    def policy(self, seat: int) -> str:
        """The normal policy's move for ``seat`` from its view of this sample."""
        if self.phase == "flux":
            return "call"
        view = View(self, seat)
        if self.phase == "trick":
            return fast_play(view)
        return fast_command(view)

    def rollout(self, me: int) -> float:
        """Play the hand out with the normal policy; ``me``'s points less the others' mean."""
        while (seat := self.to_act) is not None:
            self.apply(seat, self.policy(seat))
        others = [self.gained[s] for s in range(self.n) if s != me and self.active[s]]
        return self.gained[me] - (sum(others) / len(others) if others else 0.0)


def unseen(obs: FluxObservation) -> list[str]:
    """Every card the seat has not seen this hand (the others' hands, the shoe and the used
    cards it cannot place), sorted so that a sample depends only on the rng."""
    pool = Counter(c for _ in range(obs.decks) for c in standard_deck())
    seen = list(obs.hand) + list(obs.burned) + [p.card for p in obs.trick]
    if obs.turnup is not None:
        seen.append(obs.turnup)
    for s, shown in enumerate(obs.shown):
        if shown is not None and s != obs.seat:
            seen.extend(shown)
    pool.subtract(seen)
    return sorted(pool.elements())


def sample(obs: FluxObservation, rng: random.Random, roll: Callable[[int, int], int]) -> Sim:
    """A full hand consistent with what the seat sees: others' hands and the shoe drawn from
    the unseen cards."""
    me = obs.seat
    assert me is not None
    pool = unseen(obs)
    rng.shuffle(pool)
    hands: list[list[str]] = []
    for s in range(obs.n_players):
        if s == me:
            hands.append(list(obs.hand))
        elif obs.shown[s] is not None:
            hands.append(list(obs.shown[s] or []))
        else:
            k = obs.hand_sizes[s]
            hands.append(pool[:k])
            pool = pool[k:]
    shoe = pool[: obs.cards_left]
    return Sim(
        obs.rules,
        hands,
        shoe,
        list(obs.burned),
        active=list(obs.active),
        target=obs.target,
        turnup=obs.turnup,
        phase=obs.phase,
        trick=[(p.seat, p.card) for p in obs.trick],
        leader=obs.leader,
        turn=obs.turn,
        tricks_won=obs.tricks_won,
        max_tricks=obs.max_tricks,
        commander=obs.commander,
        discard_range=obs.discard_range,
        bullseye_bonus=obs.bullseye_bonus,
        bonus_trick=obs.bonus_trick,
        point_dice=[list(d) for d in obs.point_dice],
        roll=roll,
    )


def discard_candidates(obs: FluxObservation, most: int = DISCARDS) -> list[str]:
    """The normal policy's best discards (by its own score), best first."""
    rules = obs.rules
    seat = obs.seat if obs.seat is not None else 0
    judge = Judge(obs.target, obs.point_dice[seat], rules)
    weight = poker_weight(obs)
    hand = obs.hand
    low, high = obs.discard_range
    scored: dict[tuple[str, ...], float] = {}
    for k in range(low, high + 1):
        for combo in combinations(range(len(hand)), k):
            thrown = tuple(sorted(hand[i] for i in combo))
            if thrown in scored:
                continue
            kept = [c for i, c in enumerate(hand) if i not in combo]
            expected = judge.expected(hand_value(kept, rules.absolute), k)
            scored[thrown] = expected - weight * poker_potential(kept)
    best = sorted(scored, key=lambda t: scored[t])[:most]
    return ["discard:" + ",".join(t) for t in best]


def candidates(obs: FluxObservation) -> list[str]:
    if obs.phase == "trick":
        return [f"p:{c}" for c in dict.fromkeys(obs.hand)]
    if obs.phase == "command":
        return ["call", *discard_candidates(obs)]
    return []


def searchable(obs: FluxObservation) -> bool:
    return (
        obs.seat is not None
        and obs.phase in ("trick", "command")
        and not UNSUPPORTED.intersection(obs.variants)
    )


def hard_action(
    obs: FluxObservation,
    rng: random.Random,
    normal: str,
    deadline: float | None = None,
    samples: int = SAMPLES,
) -> str:
    """Perfect-information Monte Carlo over the candidate moves (``normal`` when there is no
    choice worth searching, or no whole sample fits before the deadline)."""
    me = obs.seat
    assert me is not None
    moves = candidates(obs)
    if len(moves) <= 1:
        return normal
    if normal not in moves:
        moves.append(normal)
    runs: dict[str, list[float]] = {m: [] for m in moves}
    done = 0
    while done < samples if deadline is None else time.monotonic() < deadline:
        seed = rng.random()
        world = sample(obs, random.Random(seed), random.Random(seed).randint)
        values = {}
        for move in moves:
            if deadline is not None and time.monotonic() >= deadline:
                break
            sim = world.copy(random.Random(seed + 1).randint)  # the same dice for each move
            sim.apply(me, move)
            values[move] = sim.rollout(me)
        if len(values) < len(moves):
            break  # out of time mid-sample: only whole samples count
        for move, value in values.items():
            runs[move].append(value)
        done += 1
    return clearly_better(runs, normal, CONFIDENCE)
