"""Flume's card rules as small pure functions: the deck, trumps, tricks and a hand's points.

Rules: ``shared/seeds/002`` with the Flume section of ``shared/RULINGS.md``. The deck is 52
cards less the 3s and 4s plus a high and a low joker (46 cards, 80 card points). Once trump
is named, the jack of the same colour (the left bower) and both jokers belong to the trump
suit, giving up to 14 trumps, ranked A K Q J(right) J(left) 10 9 8 7 6 5 2, high joker, low
joker.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.engines.cards import (
    HIGH_JOKER,
    LOW_JOKER,
    SAME_COLOUR,
    SUITS,
    card,
    standard_deck,
)

HAND_SIZE = 6
CARD_POINTS = {14: 4, 13: 3, 12: 2, 11: 1, 10: 10}  # ace, king, queen, jack, ten
POINT_NAMES = ("high", "low", "right", "left", "joker_high", "joker_low", "game")  # flume-point
_TRUMP_RANKS = "AKQJ"  # then the left bower, then "T98765" and "2", then the jokers


def flume_deck() -> list[str]:
    """The 46 cards in a fixed order."""
    return standard_deck(without_ranks=(3, 4), jokers=True)


def right_bower(trump: str) -> str:
    return "J" + trump


def left_bower(trump: str) -> str:
    return "J" + SAME_COLOUR[trump]


def trump_order(trump: str) -> list[str]:
    """Every trump, highest first (14 cards)."""
    top = [r + trump for r in _TRUMP_RANKS]
    rest = [r + trump for r in "T987652"]
    return [*top, left_bower(trump), *rest, HIGH_JOKER, LOW_JOKER]


_ORDERS = {suit: {code: 14 - i for i, code in enumerate(trump_order(suit))} for suit in SUITS}


def trump_power(code: str, trump: str) -> int:
    """1 (low joker) to 14 (ace of trumps); 0 for a card that is not a trump."""
    return _ORDERS[trump].get(code, 0)


def is_trump(code: str, trump: str) -> bool:
    return code in _ORDERS[trump]


def suit_of(code: str, trump: str | None) -> str:
    """The suit a card belongs to for following: jokers and the left bower are trumps."""
    if trump is not None and is_trump(code, trump):
        return trump
    return card(code).suit


def card_points(code: str) -> int:
    """What a card counts toward game: A 4, K 3, Q 2, J 1, 10 10, others (and jokers) 0."""
    c = card(code)
    return 0 if c.is_joker else CARD_POINTS.get(c.rank, 0)


def strength(code: str, led: str, trump: str) -> int:
    """How strongly a card bids for a trick: trumps above the led suit, other suits 0."""
    power = trump_power(code, trump)
    if power:
        return 100 + power
    c = card(code)
    return c.rank if c.suit == led else 0


def trick_winner(plays: Sequence[tuple[int, str]], trump: str) -> int:
    """The seat whose card takes the trick (``plays`` in play order, the lead first)."""
    led = suit_of(plays[0][1], trump)
    best = max(plays, key=lambda play: strength(play[1], led, trump))
    return best[0]


def legal_plays(hand: Sequence[str], trick: Sequence[tuple[int, str]], trump: str) -> list[str]:
    """Cards that may be played: follow the led suit (trumps included) while able."""
    if not trick:
        return list(hand)
    led = suit_of(trick[0][1], trump)
    following = [c for c in hand if suit_of(c, trump) == led]
    return following or list(hand)


@dataclass(frozen=True)
class HandResult:
    """Who took each of the seven points (a seat, or None when not in play or tied)."""

    awards: dict[str, int | None]
    cards: dict[str, str | None]  # the card that decided each point, if any
    card_points: dict[int, int]  # card points taken, per seat


def score_hand(
    played: Iterable[tuple[int, str]],
    tricks: Iterable[tuple[int, list[str]]],
    trump: str,
    side_of: Sequence[int],
) -> HandResult:
    """The seven points of a finished hand.

    ``played`` is every (seat, card) played this hand, ``tricks`` every (winner, cards) and
    ``side_of[seat]`` the side a seat is on (game is decided between sides). High goes to
    whoever played the highest trump in play, low to whoever played the lowest non-joker
    trump in play; the bowers and jokers to whoever took the trick holding them; game to
    the side with more card points (nobody on a tie).
    """
    plays = list(played)
    awards: dict[str, int | None] = dict.fromkeys(POINT_NAMES)
    deciding: dict[str, str | None] = dict.fromkeys(POINT_NAMES)
    trumps = [(seat, code) for seat, code in plays if is_trump(code, trump)]
    if trumps:
        seat, code = max(trumps, key=lambda p: trump_power(p[1], trump))
        awards["high"], deciding["high"] = seat, code
    plain = [(s, c) for s, c in trumps if not card(c).is_joker]
    if plain:
        seat, code = min(plain, key=lambda p: trump_power(p[1], trump))
        awards["low"], deciding["low"] = seat, code
    taken: dict[int, int] = dict.fromkeys(range(len(side_of)), 0)
    specials = {
        right_bower(trump): "right",
        left_bower(trump): "left",
        HIGH_JOKER: "joker_high",
        LOW_JOKER: "joker_low",
    }
    for winner, cards in tricks:
        taken[winner] += sum(card_points(c) for c in cards)
        for code in cards:
            if code in specials:
                awards[specials[code]], deciding[specials[code]] = winner, code
    by_side: dict[int, int] = {}
    for seat, points in taken.items():
        by_side[side_of[seat]] = by_side.get(side_of[seat], 0) + points
    ranked = sorted(by_side.items(), key=lambda kv: -kv[1])
    if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
        best_side = ranked[0][0]
        top = [s for s in taken if side_of[s] == best_side]
        awards["game"] = max(top, key=lambda s: taken[s])
    return HandResult(awards=awards, cards=deciding, card_points=taken)
