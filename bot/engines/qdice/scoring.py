"""Quantum dice scoring: which dice score and what a keep is worth.

Rules: ``shared/seeds/001`` with the "Quantum dice" section of ``shared/RULINGS.md``.

A *roll* is the list of dice thrown at once; a *keep* is a sub-multiset of the latest roll that
the player sets aside. Every kept die must belong to a scoring combination, and the keep is
worth its best split into combinations:

* single 1 = 100, single 5 = 50 (only 1s and 5s score alone);
* a triple of one value: value × 100 (1s: 1000), +100 if its three dice share a colour; each
  separate triple scores, and four or five of a kind is one triple plus singles;
* only with exactly three dice rolled, and all three kept: small straight (three consecutive
  values) 750, +100 if one colour;
* only with six dice rolled, and all six kept: large straight 1-6 1500 (+200 if 1-2-3 are one
  colour and 4-5-6 the other), three pairs 1500 (+200 if every pair has one die of each colour;
  four of a kind plus a pair, and six 2s, read as three pairs too), Quantum (six of a kind
  other than 2s) 5000 and nothing else.

Six 2s on a six-dice roll are a Black hole once the player is on the board; that is a turn
event, not a score, so :func:`is_black_hole` reports it and the scorer itself reads six 2s as
three pairs (which is how they count before the board).

Every function here is pure and cached on a canonical key (the sorted ``(value, colour)``
pairs), because the AI scores hundreds of thousands of keeps while building its tables.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations
from typing import Any

DieKey = tuple[int, str]
"""A die as ``(value, colour)``; colours are ``"A"`` and ``"B"``."""

Combination = tuple[str, int]
"""One scoring combination of a split: ``(code, points)``. The code names the combination
for the presenter to word: ``single:1``, ``triple:5`` (``triple-colour:5`` with the
one-colour bonus), ``small-straight`` / ``small-straight-colour``, ``large-straight`` /
``large-straight-colour`` (colour sets), ``three-pairs`` / ``three-pairs-split``,
``quantum:4`` (six 4s); see :func:`combination_parts`."""

Split = tuple[int, tuple[Combination, ...]]
"""A keep's best total and the combinations that make it."""

SINGLES = {1: 100, 5: 50}
TRIPLE_COLOUR_BONUS = 100
LARGE_STRAIGHT = 1500
LARGE_STRAIGHT_BONUS = 200
THREE_PAIRS = 1500
THREE_PAIRS_BONUS = 200
SMALL_STRAIGHT = 750
SMALL_STRAIGHT_BONUS = 100
QUANTUM = 5000
BLACK_HOLE_SCORE = 1000


def triple_points(value: int) -> int:
    """Base points of three dice of ``value`` (1s are worth 1000)."""
    return 1000 if value == 1 else value * 100


def die_key(die: Any) -> DieKey:
    """Accept a :class:`~bot.engines.qdice.engine.Die` or a ``(value, colour)`` pair."""
    if isinstance(die, tuple):
        return (int(die[0]), str(die[1]))
    return (int(die.value), str(die.colour))


def canonical(dice: Iterable[Any]) -> tuple[DieKey, ...]:
    """The cache key of a multiset of dice: its ``(value, colour)`` pairs, sorted."""
    return tuple(sorted(die_key(d) for d in dice))


def _whole_six(key: tuple[DieKey, ...]) -> list[Split]:
    """Readings that use all six dice of a six-dice roll."""
    values = [v for v, _ in key]
    counts = Counter(values)
    if len(counts) == 1 and values[0] != 2:
        return [(QUANTUM, ((f"quantum:{values[0]}", QUANTUM),))]
    readings: list[Split] = []
    if sorted(values) == [1, 2, 3, 4, 5, 6]:
        colour = dict(key)
        low = {colour[1], colour[2], colour[3]}
        high = {colour[4], colour[5], colour[6]}
        if len(low) == 1 and len(high) == 1 and low != high:
            points = LARGE_STRAIGHT + LARGE_STRAIGHT_BONUS
            readings.append((points, (("large-straight-colour", points),)))
        else:
            readings.append((LARGE_STRAIGHT, (("large-straight", LARGE_STRAIGHT),)))
    if all(count % 2 == 0 for count in counts.values()):
        a = Counter(v for v, c in key if c == "A")
        b = Counter(v for v, c in key if c == "B")
        if a == b:
            points = THREE_PAIRS + THREE_PAIRS_BONUS
            readings.append((points, (("three-pairs-split", points),)))
        else:
            readings.append((THREE_PAIRS, (("three-pairs", THREE_PAIRS),)))
    return readings


def _small_straight(key: tuple[DieKey, ...]) -> list[Split]:
    """The small straight reading of all three dice of a three-dice roll."""
    low, mid, high = (v for v, _ in key)
    if not (mid == low + 1 and high == mid + 1):
        return []
    if len({c for _, c in key}) == 1:
        points = SMALL_STRAIGHT + SMALL_STRAIGHT_BONUS
        return [(points, (("small-straight-colour", points),))]
    return [(SMALL_STRAIGHT, (("small-straight", SMALL_STRAIGHT),))]


@cache
def _best_split(key: tuple[DieKey, ...], whole3: bool, whole6: bool) -> Split | None:
    """Best split of the sorted multiset ``key`` into combinations; None if some die is left.

    ``whole3``/``whole6`` say the keep is all of a three-/six-dice roll, which is when the
    small straight and the six-dice combinations are available.
    """
    if not key:
        return (0, ())
    candidates: list[Split] = []
    if whole6:
        readings = _whole_six(key)
        if readings and readings[0][0] == QUANTUM:
            return readings[0]  # Quantum scores 5000 and nothing else.
        candidates.extend(readings)
    if whole3:
        candidates.extend(_small_straight(key))
    first, rest = key[0], key[1:]
    value = first[0]
    if value in SINGLES:
        tail = _best_split(rest, False, False)
        if tail is not None:
            points = SINGLES[value]
            candidates.append((points + tail[0], ((f"single:{value}", points), *tail[1])))
    # ``first`` in a triple with two other dice of its value; only the colours matter.
    same = [i for i, die in enumerate(rest) if die[0] == value]
    tried: set[tuple[str, str]] = set()
    for i, j in combinations(same, 2):
        colours = (rest[i][1], rest[j][1])
        if colours in tried:
            continue
        tried.add(colours)
        tail = _best_split(tuple(d for k, d in enumerate(rest) if k not in (i, j)), False, False)
        if tail is None:
            continue
        one_colour = first[1] == colours[0] == colours[1]
        points = triple_points(value) + (TRIPLE_COLOUR_BONUS if one_colour else 0)
        label = f"{'triple-colour' if one_colour else 'triple'}:{value}"
        candidates.append((points + tail[0], ((label, points), *tail[1])))
    if not candidates:
        return None
    return max(candidates, key=lambda split: split[0])


def best_split(keep: Iterable[Any], rolled: int) -> Split | None:
    """Best total and combinations of ``keep`` taken from a roll of ``rolled`` dice.

    Returns None when some die of the keep is in no combination (or the keep is empty).
    """
    key = canonical(keep)
    if not key:
        return None
    if len(key) > rolled:
        raise ValueError(f"cannot keep {len(key)} dice from a roll of {rolled}")
    return _best_split(key, rolled == 3 and len(key) == 3, rolled == 6 and len(key) == 6)


def score_keep(keep: Iterable[Any], rolled: int) -> int | None:
    """Points for setting ``keep`` aside from a roll of ``rolled`` dice; None if not all score."""
    split = best_split(keep, rolled)
    return None if split is None else split[0]


def is_black_hole(roll: Sequence[Any], on_board: bool) -> bool:
    """Six 2s rolled at once by a player already on the board."""
    return on_board and len(roll) == 6 and all(die_key(d)[0] == 2 for d in roll)


def is_quantum(roll: Sequence[Any]) -> bool:
    """Six of a kind other than 2s, rolled at once."""
    values = {die_key(d)[0] for d in roll}
    return len(roll) == 6 and len(values) == 1 and 2 not in values


@cache
def _sorted_scoring_keeps(key: tuple[DieKey, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Scoring keeps of a canonical roll, as positions into ``key``."""
    n = len(key)
    found: list[tuple[tuple[int, ...], int]] = []
    for mask in range(1, 1 << n):
        positions = tuple(i for i in range(n) if mask >> i & 1)
        points = score_key(tuple(key[i] for i in positions), n)
        if points is not None:
            found.append((positions, points))
    return tuple(found)


def scoring_keeps(roll: Sequence[Any]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every legal keep of ``roll`` as ``(indices, points)``, indices ascending.

    Cached on the canonical roll (a few thousand keys), then mapped back to table positions.
    """
    keys = [die_key(d) for d in roll]
    order = sorted(range(len(keys)), key=keys.__getitem__)
    found = _sorted_scoring_keeps(tuple(keys[i] for i in order))
    return tuple((tuple(sorted(order[p] for p in positions)), pts) for positions, pts in found)


def has_score(roll: Sequence[Any]) -> bool:
    """Whether some die of the roll scores (otherwise the roll is a bust).

    Checked from the smallest combinations (a 1 or 5, a triple, the whole-roll ones) rather
    than by enumerating keeps, because the engine asks after every roll.
    """
    values = sorted(die_key(d)[0] for d in roll)
    counts = Counter(values)
    if counts[1] or counts[5] or max(counts.values(), default=0) >= 3:
        return True
    if len(values) == 6:
        return values == [1, 2, 3, 4, 5, 6] or all(c % 2 == 0 for c in counts.values())
    if len(values) == 3:
        return values[1] == values[0] + 1 and values[2] == values[1] + 1
    return False


def stray_dice(roll: Sequence[Any], selection: Sequence[int]) -> list[int]:
    """Indices of ``selection`` that are in no combination of its best scoring part.

    Used for the error sentence: the largest (then highest-scoring) part of the selection
    that scores is taken as meant, and the other dice are the ones named as strays.
    """
    rolled = len(roll)
    best: tuple[int, int, tuple[int, ...]] = (0, 0, ())
    for size in range(len(selection), 0, -1):
        for part in combinations(selection, size):
            points = score_keep([roll[i] for i in part], rolled)
            if points is not None:
                best = max(best, (size, points, part))
        if best[0]:
            break
    return [i for i in selection if i not in best[2]]


def combination_parts(code: str) -> tuple[str, int]:
    """A combination's code as ``(name, value)``: ``"triple-colour:5"`` -> ``("triple-colour",
    5)``; 0 for the combinations with no die value (straights, three pairs)."""
    name, _, value = code.partition(":")
    return name, int(value) if value else 0


Reason = dict[str, Any]
"""Why some dice of a selection don't score, as data: ``{"reason": code, ...values}``.

* ``single``: ``values`` (ascending) are single dice that score only in three of a kind;
* ``left-out``: the single ``value`` (a 1 or 5) is in no combination (not expected);
* ``extra``: three ``value`` dice make a triple but ``count`` more are left over, the
  first of them the ``first``-th die of that value (4: the fourth);
* ``pair``: ``count`` dice of ``value`` score only as three of a kind; ``third`` when
  another die of that value is on the table to make the triple;
* ``whole``: ``combination`` (``large-straight``, ``three-pairs``, ``small-straight``,
  ``quantum``) scores only when all ``count`` dice of the roll are kept;
* ``run``: a run ``low``-``middle``-``high`` is a small straight only as a whole three-dice
  roll;
* ``none``: no reason found (the dice are not a scoring combination).
"""


def no_score_reasons(roll: Sequence[Any], selection: Sequence[int]) -> list[Reason]:
    """Why keeping ``selection`` (indices into ``roll``) does not score, naming the dice that
    don't and the rule they miss, as :data:`Reason` records in the order they are told.

    The dice left over are those of :func:`stray_dice`; a whole-roll combination the roll
    holds (a small straight, a 1-6 straight, three pairs) is pointed out when keeping every
    die would have scored.
    """
    strays = stray_dice(roll, selection)
    values = [die_key(roll[i])[0] for i in selection]
    stray_values = [die_key(roll[i])[0] for i in strays]
    lone: list[int] = []  # values with one die left over and none used in a triple
    reasons: list[Reason] = []
    for value in sorted(set(stray_values)):
        extra = stray_values.count(value)
        kept = values.count(value) - extra  # the dice of this value already in triples
        if value in SINGLES:  # never left over by stray_dice, but say something true
            reasons.append({"reason": "left-out", "value": value})
        elif kept:
            reasons.append({"reason": "extra", "value": value, "first": kept + 1, "count": extra})
        elif extra == 1:
            lone.append(value)
        else:
            on_table = sum(1 for d in roll if die_key(d)[0] == value)
            reasons.append(
                {"reason": "pair", "value": value, "count": extra, "third": on_table > extra}
            )
    if lone:
        reasons.insert(0, {"reason": "single", "values": lone})
    whole = _whole_roll_hint(roll, selection, stray_values)
    if whole:
        reasons.append(whole)
    return reasons or [{"reason": "none"}]


_WHOLE_NAMES = ("large-straight", "three-pairs", "small-straight", "quantum")


def _whole_roll_hint(roll: Sequence[Any], selection: Sequence[int], strays: list[int]) -> Reason:
    """A combination of the whole roll the selection is part of, or a run of three it tries
    to make from a roll that was not of three dice; empty if neither."""
    rolled = len(roll)
    if len(selection) < rolled and score_keep(roll, rolled) is not None:
        key = canonical(roll)
        readings = _whole_six(key) if rolled == 6 else _small_straight(key) if rolled == 3 else []
        if readings:
            code = readings[0][1][0][0]
            name = next((n for n in _WHOLE_NAMES if code.startswith(n)), "")
            if name:
                return {"reason": "whole", "combination": name, "count": rolled}
    runs = sorted(v for v in set(strays) if v + 1 in strays and v + 2 in strays)
    if runs and rolled != 3:
        low = runs[0]
        return {"reason": "run", "low": low, "middle": low + 1, "high": low + 2}
    return {}


def score_key(key: tuple[DieKey, ...], rolled: int) -> int | None:
    """:func:`score_keep` for a key that is already canonical (the AI's hot path)."""
    split = _best_split(key, rolled == 3 and len(key) == 3, rolled == 6 and len(key) == 6)
    return None if split is None else split[0]
