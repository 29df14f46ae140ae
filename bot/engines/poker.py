"""Poker hand ranking for games dealt from several decks shuffled together.

With more than one deck a hand may hold identical cards, so two categories join the usual
ones: five of a kind, and the flush house (a full house in one suit). Highest first:

flush house, straight flush, five of a kind, four of a kind, full house, flush, straight,
three of a kind, two pair, one pair, high card.

Ace is high, and also low in A-2-3-4-5 (that straight's high card is the 5). Within a category
ranks compare as in ordinary poker; suits never break ties. A flush may contain identical
cards. Jokers take no part (they are refused).

Speed matters (AI searches evaluate many seven-card hands), so a hand's value depends only on
two things looked up with plain integer arithmetic: the product of one prime per rank (which
names the multiset of ranks exactly) and whether all five cards share a suit. Each such key is
ranked once and kept in a table; every later look-up is a dict hit. :func:`best_five` also
keeps the best five of each set of 5-7 ranks. Both tables are filled lazily and stay bounded
(at most 12,376 five-card keys and 75,140 rank sets, whatever the number of decks).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import IntEnum
from itertools import combinations
from typing import NamedTuple

from bot.engines.base import InvalidAction
from bot.engines.cards import JOKER_SUIT, RANK_CHARS, SUITS, card

ACE_LOW_STRAIGHT = (14, 5, 4, 3, 2)


class Category(IntEnum):
    """Hand categories, weakest first; a higher value is a better hand."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    FIVE_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9
    FLUSH_HOUSE = 10


_SINGULAR = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}
_PLURAL = {rank: name + ("es" if name.endswith("x") else "s") for rank, name in _SINGULAR.items()}
_TITLES = {
    Category.HIGH_CARD: "High card",
    Category.ONE_PAIR: "One pair",
    Category.TWO_PAIR: "Two pair",
    Category.THREE_OF_A_KIND: "Three of a kind",
    Category.STRAIGHT: "Straight",
    Category.FLUSH: "Flush",
    Category.FULL_HOUSE: "Full house",
    Category.FOUR_OF_A_KIND: "Four of a kind",
    Category.FIVE_OF_A_KIND: "Five of a kind",
    Category.STRAIGHT_FLUSH: "Straight flush",
    Category.FLUSH_HOUSE: "Flush house",
}


class HandRank(NamedTuple):
    """A hand's value: compare two of them directly (higher is better, equal is a tie).

    ``tiebreak`` lists the ranks (2-14) that decide within the category, most important
    first: the high card of a straight (5 for A-2-3-4-5); the triple then the pair of a full
    house; the pairs then the kicker of two pair; all five ranks, high first, of a flush or
    high card.
    """

    category: Category
    tiebreak: tuple[int, ...]

    def describe(self) -> str:
        """The hand in plain words, e.g. ``"Full house, kings over fives"``."""
        title = _TITLES[self.category]
        first = self.tiebreak[0]
        match self.category:
            case Category.HIGH_CARD:
                return f"{title}, {_SINGULAR[first]}"
            case Category.STRAIGHT | Category.FLUSH | Category.STRAIGHT_FLUSH:
                return f"{title}, {_SINGULAR[first]} high"
            case Category.TWO_PAIR:
                return f"{title}, {_PLURAL[first]} and {_PLURAL[self.tiebreak[1]]}"
            case Category.FULL_HOUSE | Category.FLUSH_HOUSE:
                return f"{title}, {_PLURAL[first]} over {_PLURAL[self.tiebreak[1]]}"
            case _:
                return f"{title}, {_PLURAL[first]}"


# --- ranking by ranks and flush ---------------------------------------------------------

_PRIME_OF_RANK = dict(
    zip(range(2, 15), (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41), strict=True)
)
# Canonical upper-case codes ("AS", "TH") -> rank prime; other spellings take the slow path.
_PRIME = {
    rank_char + suit: _PRIME_OF_RANK[rank]
    for rank, rank_char in zip(range(2, 15), RANK_CHARS, strict=True)
    for suit in SUITS
}
_RANK = {code: RANK_CHARS.index(code[0]) + 2 for code in _PRIME}

# key -> (score, HandRank). key = product of rank primes, negated when all five share a suit.
# ``score`` is one integer ordering hands exactly as HandRank does (cheap to compare).
_TABLE: dict[int, tuple[int, HandRank]] = {}


def _straight_high(ranks: tuple[int, ...]) -> int:
    """The high card if the five ranks (high first) make a straight, else 0."""
    if ranks == ACE_LOW_STRAIGHT:
        return 5
    if len(set(ranks)) == 5 and ranks[0] - ranks[4] == 4:
        return ranks[0]
    return 0


def _classify(ranks: tuple[int, ...], flush: bool) -> HandRank:
    """Rank five cards given their ranks (high first) and whether they share a suit."""
    counts = Counter(ranks)
    # Ranks by (count, rank), largest group first: the order poker compares them in.
    groups = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    high = _straight_high(ranks)
    if flush and shape == [3, 2]:
        return HandRank(Category.FLUSH_HOUSE, tuple(groups))
    if flush and high:
        return HandRank(Category.STRAIGHT_FLUSH, (high,))
    if shape == [5]:
        return HandRank(Category.FIVE_OF_A_KIND, tuple(groups))
    if shape == [4, 1]:
        return HandRank(Category.FOUR_OF_A_KIND, tuple(groups))
    if shape == [3, 2]:
        return HandRank(Category.FULL_HOUSE, tuple(groups))
    if flush:
        return HandRank(Category.FLUSH, ranks)
    if high:
        return HandRank(Category.STRAIGHT, (high,))
    by_shape = {
        (3, 1, 1): Category.THREE_OF_A_KIND,
        (2, 2, 1): Category.TWO_PAIR,
        (2, 1, 1, 1): Category.ONE_PAIR,
    }
    return HandRank(by_shape.get(tuple(shape), Category.HIGH_CARD), tuple(groups))


def _score(rank: HandRank) -> int:
    """One integer in the same order as ``rank`` (tiebreaks within a category share a length)."""
    value = int(rank.category)
    for r in rank.tiebreak:
        value = value * 16 + r
    return int(value * 16 ** (5 - len(rank.tiebreak)))


def _entry(key: int, ranks: Sequence[int]) -> tuple[int, HandRank]:
    """The table entry for ``key``, computing it from the five ranks the first time."""
    found = _TABLE.get(key)
    if found is None:
        rank = _classify(tuple(sorted(ranks, reverse=True)), key < 0)
        found = _TABLE[key] = (_score(rank), rank)
    return found


# --- card codes -------------------------------------------------------------------------


def _canonical(code: str) -> str:
    """The canonical code of any accepted spelling; jokers and non-cards are refused."""
    if code in _PRIME:
        return code
    parsed = card(code)  # raises InvalidAction for a non-card
    if parsed.suit == JOKER_SUIT:
        raise InvalidAction("Jokers do not count in a poker hand.")
    return parsed.code


def _read(codes: Sequence[str], low: int, high: int) -> list[str]:
    """Check the count and return the codes in canonical form."""
    if isinstance(codes, str):
        raise InvalidAction("A poker hand is a list of card codes, not one string.")
    if not low <= len(codes) <= high:
        wanted = "exactly five" if low == high else f"{low} to {high}"
        raise InvalidAction(f"A poker hand needs {wanted} cards, not {len(codes)}.")
    if all(code in _PRIME for code in codes):
        return list(codes)
    return [_canonical(code) for code in codes]


# --- public API -------------------------------------------------------------------------


def rank_five(codes: Sequence[str]) -> HandRank:
    """The value of exactly five cards (identical cards allowed)."""
    if len(codes) != 5 or isinstance(codes, str):
        _read(codes, 5, 5)  # raises
    prime = _PRIME
    try:
        a, b, c, d, e = codes
        key = prime[a] * prime[b] * prime[c] * prime[d] * prime[e]
    except (KeyError, TypeError):  # another spelling (or a bad card): normalise and retry
        a, b, c, d, e = _read(codes, 5, 5)
        key = prime[a] * prime[b] * prime[c] * prime[d] * prime[e]
    if a[1] == b[1] == c[1] == d[1] == e[1]:
        key = -key
    found = _TABLE.get(key)
    if found is None:
        found = _entry(key, [_RANK[x] for x in (a, b, c, d, e)])
    return found[1]


def hand_score(codes: Sequence[str]) -> int:
    """An integer that orders five-card hands exactly like :func:`rank_five`."""
    rank = rank_five(codes)
    return _score(rank)


_COMBOS = {n: tuple(combinations(range(n), 5)) for n in (5, 6, 7)}
# product of the rank primes of 5-7 cards -> (score, HandRank, the five ranks), suits ignored.
_BEST_BY_RANKS: dict[int, tuple[int, HandRank, tuple[int, ...]]] = {}


def _best_by_ranks(key: int, ranks: list[int]) -> tuple[int, HandRank, tuple[int, ...]]:
    """The best five of these ranks as if no five shared a suit (cached by ``key``)."""
    found = _BEST_BY_RANKS.get(key)
    if found is None:
        best: tuple[int, HandRank] = (-1, HandRank(Category.HIGH_CARD, ()))
        chosen: tuple[int, ...] = ()
        for combo in _COMBOS[len(ranks)]:
            five = [ranks[x] for x in combo]
            sub_key = 1
            for r in five:
                sub_key *= _PRIME_OF_RANK[r]
            entry = _entry(sub_key, five)
            if entry[0] > best[0]:
                best, chosen = entry, tuple(five)
        found = _BEST_BY_RANKS[key] = (best[0], best[1], chosen)
    return found


def _pick(hand: list[str], ranks: Sequence[int]) -> tuple[str, ...]:
    """Cards of ``hand`` (in hand order) with exactly these ranks."""
    wanted = list(ranks)
    picked = []
    for code in hand:
        r = _RANK[code]
        if r in wanted:
            wanted.remove(r)
            picked.append(code)
    return tuple(picked)


def _best_flush(suited: list[str], floor: int) -> tuple[int, HandRank, tuple[str, ...]] | None:
    """The best five of cards sharing one suit, if it beats the score ``floor``."""
    best = None
    for combo in _COMBOS[len(suited)]:
        five = [suited[x] for x in combo]
        key = 1
        for code in five:
            key *= _PRIME[code]
        score, rank = _entry(-key, [_RANK[code] for code in five])
        if score > floor:
            floor, best = score, (score, rank, tuple(five))
    return best


def best_five(codes: Sequence[str]) -> tuple[HandRank, tuple[str, ...]]:
    """The best five of five to seven cards: its value and the five cards chosen.

    Without five cards of one suit the best hand depends only on the ranks, so it is cached
    by the product of the rank primes; with five or more of a suit, the suited fives are
    tried as flushes too.
    """
    hand = codes if 5 <= len(codes) <= 7 and not isinstance(codes, str) else _read(codes, 5, 7)
    prime = _PRIME
    key = 1
    try:
        for code in hand:
            key *= prime[code]
    except (KeyError, TypeError):  # another spelling (or a bad card): normalise and retry
        hand = _read(codes, 5, 7)
        key = 1
        for code in hand:
            key *= prime[code]
    found = _BEST_BY_RANKS.get(key)
    if found is None:
        found = _best_by_ranks(key, [_RANK[code] for code in hand])
    suits = [code[1] for code in hand]
    if len(set(suits)) <= len(hand) - 4:
        for suit in SUITS:
            if suits.count(suit) >= 5:
                flush = _best_flush([c for c in hand if c[1] == suit], found[0])
                if flush is not None:
                    return flush[1], flush[2]
                break
    return found[1], _pick(list(hand), found[2])
