"""The Flux AI: plays toward the target from its own observation only.

* It aims at whichever of +target or -target its hand is nearer (red or black), since
  :func:`~bot.engines.flux.rules.distance` counts both.
* Tricks: it plays the card whose loss (and random replacement) leaves the hand nearest the
  target, preferring a card that wins the trick when command is worth having.
* Command: it compares calling now with every legal discard, judging a discard by the exact
  expected distance after drawing replacements (a card's value is 0 for J/Q/K and 1-10
  otherwise, red or black equally likely), and calls when no random opponent hand is likely
  to be closer. When the turn-up is a face card the poker game is worth 10, so discards and
  plays also weigh how much poker (pairs, trips, suits) the kept cards hold.
* Point dice (Variants 9 and 11): with every hand shown, it tries each use of its dice
  against the others' values (their own dice assumed used to get nearest the target) and
  takes the one that scores it most, or costs it least: a zilched hand pays double, so a
  value a little further off can be cheaper. Under 22 it first avoids being the furthest.
* Claims, a call after a flux and the best five for poker are always taken.
* Levels (:func:`decide`): "normal" is all of the above; "easy" makes a random legal move
  some of the time; "hard" searches tricks and commands by determinization and rollouts
  (:mod:`bot.engines.flux.search`), and where the search finds nothing clearly better, and
  in its own rollouts, it plays in its own :class:`Style`: it values taking a trick (a
  point and command, so the call) far above a slightly better hand, and it keeps poker
  in mind whatever the turn-up, in proportion to what the poker game is worth (normal
  thinks of poker only under a face card). Alone against normal seats that style wins
  about 1.1x its fair share at 5 seats where the normal style wins 1.0x (8,000 games per
  setting: 1.06x with the trick bonus alone, 1.10x with poker weighed too); normal keeps
  its own style.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING

from bot.engines.analysis import Analysis
from bot.engines.cards import card
from bot.engines.flux.rules import (
    Rules,
    badness,
    best_value,
    dice_choices,
    hand_value,
    is_zilch,
    poker_points,
    settle,
    trick_winner,
)
from bot.engines.poker import best_five

if TYPE_CHECKING:
    from bot.engines.flux.engine import FluxObservation

CALL_SAFETY = 0.5  # call when opponents are at least this likely all to be worse
POKER_WEIGHT = 1.2  # distance points one unit of poker potential is worth (face turn-up)


@dataclass(frozen=True)
class Style:
    """The policy's judgement calls: when to call and how much taking a trick is worth."""

    call_safety: float = CALL_SAFETY
    """Call when the opponents are at least this likely all to be worse."""
    call_floor: float = 0.3
    """... or this likely, when no discard is expected to improve the hand."""
    command_near: float = 2.5
    """Badness a trick won is worth (last to play) when the hand is within 3 of the target."""
    command_far: float = 1.0
    """... and when it is further off; half of either when others play after."""
    poker_per_point: float = 0.0
    """Poker weight per point the poker game is worth, whatever the turn-up (0: only the
    face turn-ups count, at :data:`POKER_WEIGHT`)."""


NORMAL = Style()
"""The normal level's style (and every other seat's in the hard level's rollouts)."""
HARD = Style(command_near=14.0, command_far=8.0, poker_per_point=0.15)
"""The hard level's own style: its move when the search finds nothing clearly better, and
its play in its own rollouts."""


@cache
def draw_distribution(count: int, absolute: bool) -> tuple[tuple[int, float], ...]:
    """The value of ``count`` random cards: (total, probability) pairs."""
    single: dict[int, float] = {}
    sizes = [0, 0, 0, *range(1, 11)]  # J, Q, K are 0; ace 1; 2-10
    for size in sizes:
        for sign in (1,) if absolute else (1, -1):
            weight = 1 / 13 / (1 if absolute else 2)
            single[sign * size] = single.get(sign * size, 0.0) + weight
    dist = {0: 1.0}
    for _ in range(count):
        nxt: dict[int, float] = {}
        for total, p in dist.items():
            for v, q in single.items():
                nxt[total + v] = nxt.get(total + v, 0.0) + p * q
        dist = nxt
    return tuple(sorted(dist.items()))


class Judge:
    """Badness of values for one seat (point dice included), cached per decision."""

    def __init__(self, target: int, dice: Sequence[int], rules: Rules) -> None:
        self.target, self.dice, self.rules = target, tuple(dice), rules
        self._cache: dict[int, int] = {}

    def bad(self, value: int) -> int:
        found = self._cache.get(value)
        if found is None:
            adjusted = best_value(value, self.dice, self.target, self.rules)
            found = self._cache[value] = badness(adjusted, self.target, self.rules)
        return found

    def expected(self, kept_value: int, draws: int) -> float:
        """Expected badness after drawing ``draws`` random cards onto ``kept_value``."""
        return sum(
            p * self.bad(kept_value + v) for v, p in draw_distribution(draws, self.rules.absolute)
        )

    def p_worse_than(self, bad: int) -> float:
        """Chance that a random seven-card hand is strictly better than ``bad``."""
        dist = draw_distribution(7, self.rules.absolute)
        return sum(p for v, p in dist if badness(v, self.target, self.rules) < bad)


def poker_potential(codes: Sequence[str]) -> float:
    """A rough count of poker made so far: pairs, trips, and suits gathering for a flush."""
    ranks = Counter(card(c).rank for c in codes)
    suits = Counter(card(c).suit for c in codes)
    made = sum(n * (n - 1) / 2 for n in ranks.values())
    flush = max(0, max(suits.values(), default=0) - 2) * 0.5
    return made + flush


def poker_weight(obs: FluxObservation, style: Style = NORMAL) -> float:
    """How much poker matters: only when the turn-up is a face card worth points (or, in a
    style that says so, in proportion to the points at stake)."""
    if style.poker_per_point:
        return style.poker_per_point * poker_points(obs.turnup, obs.rules)
    if obs.turnup is None or not card(obs.turnup).is_face:
        return 0.0
    return POKER_WEIGHT if poker_points(obs.turnup, obs.rules) else 0.0


def _without(hand: Sequence[str], indices: Sequence[int]) -> list[str]:
    skip = set(indices)
    return [c for i, c in enumerate(hand) if i not in skip]


def choose_action(obs: FluxObservation, rng: random.Random, style: Style = NORMAL) -> str:
    """The AI's move for the observed seat (one-step forms only)."""
    if obs.phase == "claim":
        return "claim" if obs.can_claim else "pass"
    if obs.phase == "flux":
        return "call"
    if obs.phase == "dice":
        return dice_action(obs)
    if obs.phase == "poker":
        _, five = best_five(obs.hand)
        return "show:" + ",".join(five)
    if obs.phase == "trick":
        return play_card(obs, style)
    return command_action(obs, style)


def _judge(obs: FluxObservation) -> Judge:
    seat = obs.seat if obs.seat is not None else 0
    return Judge(obs.target, obs.point_dice[seat], obs.rules)


def play_card(obs: FluxObservation, style: Style = NORMAL) -> str:
    """Keep the hand near the target; win the trick when command is worth it."""
    seat = obs.seat if obs.seat is not None else 0
    rules = obs.rules
    judge = _judge(obs)
    hand = obs.hand
    now = judge.bad(hand_value(hand, rules.absolute))
    plays = [(p.seat, p.card) for p in obs.trick]
    players = sum(obs.active)
    last = len(plays) == players - 1
    command = style.command_near if now <= 3 else style.command_far
    weight = poker_weight(obs, style)
    best: tuple[float, str] | None = None
    for code in dict.fromkeys(hand):
        rest = list(hand)
        rest.remove(code)
        score = judge.expected(hand_value(rest, rules.absolute), 1)
        if trick_winner([*plays, (seat, code)], obs.trump, rules.truco) == seat:
            score -= command if last else command * 0.5
        score -= weight * poker_potential(rest)
        if best is None or score < best[0]:
            best = (score, code)
    assert best is not None
    return f"p:{best[1]}"


def best_discard(obs: FluxObservation, style: Style = NORMAL) -> tuple[float, float, list[str]]:
    """The legal discard with the lowest score: (score, expected badness, cards thrown).

    The score is the expected badness less the poker potential kept (face turn-up only,
    unless ``style`` weighs poker at every turn-up).
    """
    rules = obs.rules
    judge = _judge(obs)
    hand = obs.hand
    weight = poker_weight(obs, style)
    low, high = obs.discard_range
    best: tuple[float, float, list[str]] | None = None
    seen: set[tuple[str, ...]] = set()
    for k in range(low, high + 1):
        for combo in combinations(range(len(hand)), k):
            thrown = tuple(sorted(hand[i] for i in combo))
            if thrown in seen:
                continue
            seen.add(thrown)
            kept = _without(hand, combo)
            expected = judge.expected(hand_value(kept, rules.absolute), k)
            score = expected - weight * poker_potential(kept)
            if best is None or score < best[0]:
                best = (score, expected, list(thrown))
    assert best is not None
    return best


def command_action(obs: FluxObservation, style: Style = NORMAL) -> str:
    """Call when the hand is good enough; otherwise make the best discard."""
    rules = obs.rules
    judge = _judge(obs)
    now = judge.bad(hand_value(obs.hand, rules.absolute))
    opponents = sum(obs.active) - 1
    safe = (1 - judge.p_worse_than(now)) ** opponents
    _, expected, thrown = best_discard(obs, style)
    if safe >= style.call_safety or (safe >= style.call_floor and expected >= now):
        return "call"
    return "discard:" + ",".join(thrown)


def dice_action(obs: FluxObservation) -> str:
    """How to use the point dice at scoring, every hand being shown (see the module notes)."""
    seat = obs.seat if obs.seat is not None else 0
    rules = obs.rules
    target = obs.target
    values: dict[int, int] = {}
    for s in range(obs.n_players):
        if not obs.active[s] or s == seat:
            continue
        hand = obs.shown[s] or []
        values[s] = best_value(hand_value(hand, rules.absolute), obs.point_dice[s], target, rules)
    raw = hand_value(obs.hand, rules.absolute)
    caller = obs.settling.caller if obs.settling else None
    bonus = obs.settling.bullseye if obs.settling else obs.bullseye_bonus
    best: tuple[tuple[float, ...], int] | None = None
    for offset in dice_choices(obs.point_dice[seat], rules):
        mine = raw + offset
        result = settle({**values, seat: mine}, target, rules, caller, bonus)
        mine_bad = badness(mine, target, rules)
        if seat in result.winners:
            net = float(result.points[seat])
        else:
            factor = 2 if is_zilch(mine, target, rules) else 1
            net = -float(
                sum((mine_bad - badness(values[w], target, rules)) * factor for w in result.winners)
            )
        out = 0.0
        if rules.has("22") and values:
            worst = max(badness(v, target, rules) for v in values.values())
            out = -1.0 if mine_bad >= worst else 0.0
        key = (out, net, -float(mine_bad), -float(abs(offset)))
        if best is None or key > best[0]:
            best = (key, offset)
    assert best is not None
    offset = best[1]
    return f"dice:{offset:+d}" if offset else "dice:0"


def legal_moves(obs: FluxObservation) -> list[str]:
    """Every complete one-step move open to the observed seat (the engine's move options)."""
    if obs.seat is None or obs.seat not in obs.to_act:
        return []
    hand = obs.hand
    if obs.phase == "claim":
        return (["claim"] if obs.can_claim else []) + ["pass"]
    if obs.phase == "trick":
        return [f"p:{c}" for c in dict.fromkeys(hand)]
    if obs.phase == "flux":
        return ["call", "pass"]
    if obs.phase == "dice":
        offsets = dice_choices(obs.point_dice[obs.seat], obs.rules)
        return [f"dice:{o:+d}" if o else "dice:0" for o in offsets]
    if obs.phase == "command":
        low, high = obs.discard_range
        moves = {
            "discard:" + ",".join(sorted(hand[i] for i in combo))
            for k in range(low, high + 1)
            for combo in combinations(range(len(hand)), k)
        }
        return ["call", *sorted(moves)]
    if obs.phase == "poker":
        fives = {",".join(sorted(hand[i] for i in c)) for c in combinations(range(len(hand)), 5)}
        return [f"show:{f}" for f in sorted(fives)]
    return []


EASY_SLIP = 0.3
"""How often the easy level makes a beginner's move instead of the normal one."""


def easy_action(obs: FluxObservation, rng: random.Random) -> str:
    """A beginner: the normal move most of the time, otherwise any legal move (a careless
    card, a random discard, an early or missed call); it always shows its best poker five."""
    if obs.phase in ("trick", "command", "flux", "claim") and rng.random() < EASY_SLIP:
        return rng.choice(legal_moves(obs))
    return choose_action(obs, rng)


def decide(
    obs: FluxObservation, level: str, rng: random.Random, deadline: float | None = None
) -> str:
    """The move at ``level``: "easy", "normal" (:func:`choose_action`) or "hard" (a
    determinized search over tricks and commands that stops at ``deadline``, a
    ``time.monotonic()`` instant; normal play elsewhere): :func:`analyse`'s move."""
    if level == "easy":
        return easy_action(obs, rng)
    if level == "hard":
        return analyse(obs, rng, deadline).move
    return choose_action(obs, rng, NORMAL)


def analyse(
    obs: FluxObservation,
    rng: random.Random,
    deadline: float | None = None,
    also: Sequence[str] = (),
) -> Analysis:
    """The hard level's decision with what its search found (:mod:`bot.engines.analysis`,
    :func:`bot.engines.flux.search.hard_analysis`); where it does not search, its move by
    the rules of its own style, with the phase as the reason ("claim", "flux", "dice",
    "poker"; "only" where a search had one candidate)."""
    normal = choose_action(obs, rng, HARD)
    from bot.engines.flux.search import hard_analysis, searchable

    if searchable(obs):
        return hard_analysis(obs, rng, normal, deadline, also=also)
    return Analysis.rule(normal, obs.phase)
