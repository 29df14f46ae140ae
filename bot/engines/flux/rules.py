"""Flux rules that are plain functions: variants, card values, tricks, dice and scoring.

Everything here is pure and small so that the engine (:mod:`bot.engines.flux.engine`) and the AI
(:mod:`bot.engines.flux.ai`) share one reading of the rules. Rules: ``shared/seeds/000`` with
the Flux section of ``shared/RULINGS.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from bot.engines.base import ConfigError
from bot.engines.cards import ACE, JACK, KING, QUEEN, card
from bot.engines.poker import HandRank, rank_five

# --- variants -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """A variant by its key; its name and summary are catalogue messages
    (``flux-variant-<key>`` and its ``.summary``)."""

    key: str


VARIANT_KEYS = (
    *(str(n) for n in range(1, 9)),
    "9",
    "9a",
    *(str(n) for n in range(10, 16)),
    "16",
    "16d",
    *(str(n) for n in range(17, 23)),
)
VARIANTS: dict[str, Variant] = {key: Variant(key) for key in VARIANT_KEYS}

REFUSED = {
    "23": "flux-config-refused-23",
}

REQUIRES = {
    "7": ("2", "flux-config-requires-7"),
    "9a": ("9", "flux-config-requires-9a"),
    "16d": ("16", "flux-config-requires-16d"),
}

CONFLICTS: tuple[tuple[str, str, str], ...] = (
    ("16", "17", "flux-config-conflict-16-17"),
    ("10", "20", "flux-config-conflict-10-20"),
    ("10", "21", "flux-config-conflict-10-21"),
    ("5", "21", "flux-config-conflict-5-21"),
    ("22", "8", "flux-config-conflict-22-8"),
    ("22", "15", "flux-config-conflict-22-15"),
)
"""Pairs whose rules say opposite things about the same moment, so no game follows both
(with the code of the refusal, which says why).

Pairs where one variant merely makes part of the other moot are allowed, and the rules page
says how they combine: 16 with 2 or 7 re-rolls the D20 (and D10) target, still fluxing on 3
or 18; 1 with 16 matters only with 16d's discard die; 22 with 18 plays fewer decks and ends
with the last player standing (18's 50-point ending is only a suggestion).
"""


def _order(key: str) -> tuple[int, str]:
    digits = "".join(ch for ch in key if ch.isdigit())
    return (int(digits), key)


def parse_variants(text: str | Iterable[str]) -> list[str]:
    """Validate a variants list ("1, 4, 17" or ["1", "4"]) into sorted canonical keys.

    Raises :class:`ConfigError` with a sentence for unknown numbers, 23, a missing
    companion variant and every contradicting pair.
    """
    if isinstance(text, str):
        raw = text.replace(";", ",").replace(" ", ",").split(",")
    else:
        raw = list(text)
    keys: list[str] = []
    for item in raw:
        key = item.strip().lower().removeprefix("v")
        if not key:
            continue
        if key in REFUSED:
            raise ConfigError(REFUSED[key])
        if key not in VARIANTS:
            raise ConfigError("flux-config-unknown-variant", variant=item.strip())
        if key not in keys:
            keys.append(key)
    chosen = set(keys)
    for key, (needed, code) in REQUIRES.items():
        if key in chosen and needed not in chosen:
            raise ConfigError(code)
    for a, b, code in CONFLICTS:
        if a in chosen and b in chosen:
            raise ConfigError(code, first=a, second=b)
    return sorted(keys, key=_order)


@dataclass(frozen=True)
class Rules:
    """The variants in force, as the flags the rules ask about."""

    keys: frozenset[str] = frozenset()

    @classmethod
    def of(cls, keys: Iterable[str]) -> Rules:
        return cls(frozenset(keys))

    def has(self, key: str) -> bool:
        return key in self.keys

    @property
    def absolute(self) -> bool:
        return "19" in self.keys

    @property
    def anti(self) -> bool:
        return "20" in self.keys

    @property
    def truco(self) -> bool:
        return "12" in self.keys

    @property
    def no_bonus(self) -> bool:
        return "21" in self.keys

    @property
    def discard_sides(self) -> int:
        return 8 if "2" in self.keys else 6

    @property
    def best_five(self) -> bool:
        """Variant 14, and 13 (whose own hand list is missing) played as 14."""
        return "14" in self.keys or "13" in self.keys

    @property
    def temporal_die(self) -> bool:
        """Variant 16d: Temporal flux rolls the discard die after the target."""
        return "16d" in self.keys

    @property
    def reshuffle(self) -> bool:
        return "15" in self.keys or "22" in self.keys

    @property
    def score_limit(self) -> int | None:
        """Variants 8 (121) and 18 (50), whichever comes first; none under 22's elimination."""
        if "22" in self.keys:
            return None
        if "18" in self.keys:
            return 50
        if "8" in self.keys:
            return 121
        return None

    @property
    def totality(self) -> bool:
        return "9a" in self.keys

    @property
    def target_range(self) -> tuple[int, int]:
        if "7" in self.keys:
            return (1, 29)
        if "2" in self.keys:
            return (1, 20)
        return (3, 18)


# --- card values --------------------------------------------------------------------------


def card_points(code: str) -> int:
    """A card's size for the value game: ace 1, 2-10 face value, jack/queen/king 0."""
    c = card(code)
    if c.rank == ACE:
        return 1
    if c.rank >= JACK:
        return 0
    return c.rank


def card_value(code: str, absolute: bool = False) -> int:
    """Signed value: red adds, black subtracts (Variant 19: black adds too)."""
    points = card_points(code)
    return points if absolute or card(code).is_red else -points


def hand_value(codes: Iterable[str], absolute: bool = False) -> int:
    return sum(card_value(c, absolute) for c in codes)


def distance(value: int, target: int) -> int:
    """How far a value is from the target, the target being an absolute value."""
    return abs(abs(value) - target)


def badness(value: int, target: int, rules: Rules) -> int:
    """Lower is better: the distance, or its negative under Anti-flux."""
    gap = distance(value, target)
    return -gap if rules.anti else gap


def colour_totals(codes: Iterable[str]) -> tuple[int, int]:
    """(red total, black total) as positive numbers."""
    red = black = 0
    for code in codes:
        if card(code).is_red:
            red += card_points(code)
        else:
            black += card_points(code)
    return red, black


def face_count(codes: Iterable[str]) -> int:
    return sum(1 for c in codes if card(c).is_face)


def claim_key(codes: Sequence[str]) -> tuple[int, int]:
    """Original-hand tie-break, higher first: larger colour total, then fewer face cards."""
    red, black = colour_totals(codes)
    return (max(red, black), -face_count(codes))


def is_zilch(value: int, target: int, rules: Rules) -> bool:
    """Exactly +21 or -21; also 0 under Variant 6 and within 5 of the target under 20."""
    if abs(value) == 21:
        return True
    if rules.has("6") and value == 0:
        return True
    return rules.anti and distance(value, target) <= 5


# --- point dice ---------------------------------------------------------------------------


@cache
def dice_offsets(dice: tuple[int, ...], totality: bool) -> frozenset[int]:
    """Every amount the point dice can change a value by (each die +, - or unused)."""
    if totality:
        total = sum(dice)
        return frozenset({0, total, -total})
    reach = {0}
    for die in dice:
        reach = {r + step for r in reach for step in (0, die, -die)}
    return frozenset(reach)


def dice_choices(dice: Sequence[int], rules: Rules) -> list[int]:
    """The distinct amounts a seat may change its value by with its point dice, lowest first.

    Variant 9: each die added, subtracted or ignored, as the player chooses; 9a: all dice the
    same way. Choices that land on the same value are one choice.
    """
    return sorted(dice_offsets(tuple(sorted(dice)), rules.totality))


def dice_way(dice: Sequence[int], offset: int, rules: Rules) -> list[Any]:
    """How the dice make ``offset``, as data a presenter words ("add 5", "subtract all (7)",
    "+2 +3 -1"): ``["ignore", dice]``, ``["add" | "subtract", amount]``, ``["add-all" |
    "subtract-all", amount]``, ``["in-all", offset]`` or ``["steps", [2, 3, -1]]``."""
    if offset == 0:
        return ["ignore", len(dice)]
    if len(dice) == 1:
        return ["add" if offset > 0 else "subtract", abs(offset)]
    if rules.totality:
        return ["add-all" if offset > 0 else "subtract-all", abs(offset)]
    if len(dice) > 8:
        return ["in-all", offset]
    # the fewest dice that make the offset (ties: the first found, larger dice first)
    ordered = sorted(dice, reverse=True)
    best: list[int] | None = None

    def search(i: int, left: int, used: list[int]) -> None:
        nonlocal best
        if best is not None and len(used) >= len(best):
            return
        if left == 0:
            best = list(used)
            return
        if i == len(ordered):
            return
        for step in (ordered[i], -ordered[i]):
            search(i + 1, left - step, [*used, step])
        search(i + 1, left, used)

    search(0, offset, [])
    assert best is not None, (dice, offset)
    return ["steps", best]


def best_value(value: int, dice: Sequence[int], target: int, rules: Rules) -> int:
    """The value nearest the target (farthest under 20) the point dice can make.

    This is a guide (the flux call, the AI's estimates, the value shown in a player's own
    view); at scoring each player chooses the use of their dice (:func:`dice_choices`).
    Nearest means the lowest :func:`badness`; among equals, one that is not zilched, then
    the smallest change.
    """
    if not dice:
        return value
    offsets = dice_offsets(tuple(sorted(dice)), rules.totality)
    return min(
        (value + o for o in offsets),
        key=lambda v: (badness(v, target, rules), is_zilch(v, target, rules), abs(v - value), -v),
    )


# --- tricks -------------------------------------------------------------------------------

TRUCO_ORDER: tuple[tuple[str, ...], ...] = (
    ("AS",),
    ("AH",),
    ("7S",),
    ("7D",),
    ("3",),
    ("2",),
    ("AD", "AC"),
    ("K",),
    ("Q",),
    ("J",),
    ("7H", "7C"),
    ("6",),
    ("5",),
    ("4",),
    ("T",),
    ("9",),
    ("8",),
)
"""Variant 12 below the Pelico and Pelica, highest first (the seed's second "seven of
diamonds" is read as the seven of clubs, the one seven it does not place)."""


def truco_level(code: str, trump: str | None) -> int:
    """Variant 12 strength, higher wins: Pelico 20, Pelica 19, then :data:`TRUCO_ORDER`."""
    c = card(code)
    if trump is not None and c.suit == trump:
        if c.rank == QUEEN:
            return 20
        if c.rank == JACK:
            return 19
    top = len(TRUCO_ORDER) + 1
    for i, group in enumerate(TRUCO_ORDER):
        if code in group or code[0] in group:
            return top - i
    raise ValueError(code)  # pragma: no cover - every rank is placed


def _highest_unique(entries: list[tuple[int, int]]) -> int | None:
    """Seat with the highest strength that no other entry shares, or None."""
    counts = Counter(strength for _, strength in entries)
    alive = [(strength, seat) for seat, strength in entries if counts[strength] == 1]
    return max(alive)[1] if alive else None


def trick_winner(plays: Sequence[tuple[int, str]], trump: str | None, truco: bool) -> int | None:
    """The seat that wins a trick, or None if every card cancels (a dead trick).

    Basic: repeated trump ranks cancel and the highest remaining trump wins; with no trump
    left, repeated ranks among the other cards cancel and the highest remaining wins.
    Variant 12: equal Truco strengths cancel and the highest remaining strength wins.
    """
    if truco:
        return _highest_unique([(seat, truco_level(code, trump)) for seat, code in plays])
    trumps = [(seat, card(code).rank) for seat, code in plays if card(code).suit == trump]
    winner = _highest_unique(trumps)
    if winner is not None:
        return winner
    others = [(seat, card(code).rank) for seat, code in plays if card(code).suit != trump]
    return _highest_unique(others)


# --- settling a hand ----------------------------------------------------------------------


@dataclass(frozen=True)
class Settlement:
    winners: list[int]
    points: dict[int, int]  # seat -> points won this settlement (winners only)
    undercut: bool
    bullseye: int  # bonus the caller got for hitting the target (0 if none)
    zilched: list[int]


def settle(
    values: dict[int, int],
    target: int,
    rules: Rules,
    caller: int | None,
    bullseye_bonus: int,
) -> Settlement:
    """Score the value game from each seat's final value (point dice already used).

    The caller wins unless an opponent is strictly better; then the best opponents win and
    each takes the 5-point undercut bonus. A winner takes from every other seat the amount by
    which that seat is worse, doubled if it is zilched. With no caller (Variant 3, or the
    cards ran out) the best seats win with no undercut and no bull's-eye.
    """
    bad = {s: badness(v, target, rules) for s, v in values.items()}
    zilched = [s for s, v in values.items() if is_zilch(v, target, rules)]
    best = min(bad.values())
    if caller is not None and bad[caller] == best:
        winners, undercut = [caller], False
    else:
        winners = [s for s in values if bad[s] == best]
        undercut = caller is not None
    points: dict[int, int] = {}
    for w in winners:
        gain = 0
        for other in values:
            if other != w:
                gap = bad[other] - bad[w]
                gain += gap * (2 if other in zilched else 1)
        if undercut and not rules.no_bonus:
            gain += 5
        points[w] = gain
    bullseye = 0
    if (
        caller is not None
        and winners == [caller]
        and not rules.anti
        and not rules.no_bonus
        and distance(values[caller], target) == 0
    ):
        bullseye = bullseye_bonus
        points[caller] += bullseye
    return Settlement(winners, points, undercut, bullseye, sorted(zilched))


def poker_points(turnup: str | None, rules: Rules) -> int:
    """What the poker game is worth: the turn-up's size, J/Q/K counting 10 (0 under 4)."""
    if turnup is None:
        return 0
    c = card(turnup)
    if KING >= c.rank >= JACK:
        return 0 if rules.has("4") else 10
    return card_points(turnup)


def poker_winner(hands: Mapping[int, Sequence[str]]) -> tuple[int | None, dict[int, HandRank]]:
    """The best five-card hand that no other hand ties; None if every hand is tied away."""
    ranks = {seat: rank_five(list(five)) for seat, five in hands.items()}
    counts = Counter(ranks.values())
    alive = [(rank, seat) for seat, rank in ranks.items() if counts[rank] == 1]
    if not alive:
        return None, ranks
    return max(alive)[1], ranks


def unique_top(scores: Sequence[int], seats: Iterable[int]) -> int | None:
    """The seat with the highest score no other seat shares (tied scores are ignored)."""
    pool = list(seats)
    counts = Counter(scores[s] for s in pool)
    alive = [(scores[s], s) for s in pool if counts[scores[s]] == 1]
    return max(alive)[1] if alive else None
