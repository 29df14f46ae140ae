"""Playing cards shared by the card games: cards, decks, and a multi-deck shoe.

A card travels as a short code, so states and actions stay plain strings: rank then suit,
``"AS"`` (ace of spades), ``"TH"`` (ten of hearts), ``"2C"``; jokers are ``"JKH"`` (the high
joker) and ``"JKL"`` (the low joker). Games that use several decks keep duplicate codes; two
cards with one code are identical for every rule.

Ranks are integers 2-14 (jack 11, queen 12, king 13, ace 14). What a rank is worth, and
where jokers sit, is each game's business.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from pydantic import BaseModel

from bot.engines.base import InvalidAction, Rng

SUITS = "SHDC"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RED_SUITS = frozenset("HD")
RANKS = tuple(range(2, 15))
RANK_CHARS = "23456789TJQKA"
RANK_NAMES = {
    **{r: str(r) for r in range(2, 11)},
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}
ACE, KING, QUEEN, JACK = 14, 13, 12, 11
HIGH_JOKER, LOW_JOKER = "JKH", "JKL"
JOKER_SUIT = "*"
# Partner suits: the suit of the same colour (the left bower's suit in Euchre-like games).
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}


@dataclass(frozen=True, slots=True)
class Card:
    """One card. Jokers have suit ``"*"``; the high joker has rank 2, the low joker rank 1."""

    rank: int
    suit: str

    @property
    def code(self) -> str:
        if self.suit == JOKER_SUIT:
            return HIGH_JOKER if self.rank == 2 else LOW_JOKER
        return RANK_CHARS[self.rank - 2] + self.suit

    @property
    def is_joker(self) -> bool:
        return self.suit == JOKER_SUIT

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    @property
    def is_face(self) -> bool:
        return not self.is_joker and JACK <= self.rank <= KING

    @property
    def rank_char(self) -> str:
        """The rank as printed on the card's corner: 2-10, J, Q, K, A (or ★ for a joker)."""
        if self.is_joker:
            return "★"
        return "10" if self.rank == 10 else RANK_CHARS[self.rank - 2]

    @property
    def label(self) -> str:
        """A short label for buttons and text: ``A♠``, ``10♥``, ``High joker``."""
        if self.is_joker:
            return "High joker" if self.rank == 2 else "Low joker"
        return self.rank_char + SUIT_SYMBOLS[self.suit]

    @property
    def name(self) -> str:
        """The card in words: ``ace of spades``, ``the high joker``."""
        if self.is_joker:
            return "the high joker" if self.rank == 2 else "the low joker"
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.code


@cache
def card(code: str) -> Card:
    """Parse a card code (case-insensitive; ``10`` is accepted for ``T``)."""
    text = code.strip().upper().replace("10", "T")
    if text == HIGH_JOKER:
        return Card(2, JOKER_SUIT)
    if text == LOW_JOKER:
        return Card(1, JOKER_SUIT)
    if len(text) != 2 or text[0] not in RANK_CHARS or text[1] not in SUITS:
        raise InvalidAction(f"{code!r} is not a card.")
    return Card(RANK_CHARS.index(text[0]) + 2, text[1])


def cards(codes: Iterable[str]) -> list[Card]:
    return [card(c) for c in codes]


def label(code: str) -> str:
    return card(code).label


def standard_deck(*, without_ranks: Iterable[int] = (), jokers: bool = False) -> list[str]:
    """One 52-card deck in a fixed order, less any ranks named, plus two jokers if asked."""
    skip = set(without_ranks)
    deck = [Card(rank, suit).code for suit in SUITS for rank in RANKS if rank not in skip]
    if jokers:
        deck += [HIGH_JOKER, LOW_JOKER]
    return deck


def sort_codes(codes: Sequence[str], *, key_suits: str = SUITS) -> list[str]:
    """Cards grouped by suit (in ``key_suits`` order, jokers last), high rank first."""

    def key(code: str) -> tuple[int, int]:
        c = card(code)
        suit_order = len(key_suits) if c.is_joker else key_suits.index(c.suit)
        return (suit_order, -c.rank)

    return sorted(codes, key=key)


class Shoe(BaseModel):
    """Cards to deal from, top first: one or several decks shuffled together.

    The shoe is part of a game's state, so it is a plain list of codes that round-trips
    through JSON, and it shuffles only with the game's own :class:`Rng`.
    """

    cards: list[str]

    @classmethod
    def of_decks(cls, decks: int, rng: Rng, **deck_options: object) -> Shoe:
        codes = [code for _ in range(decks) for code in standard_deck(**deck_options)]  # type: ignore[arg-type]
        rng.shuffle(codes)
        return cls(cards=codes)

    @classmethod
    def shuffled(cls, codes: Iterable[str], rng: Rng) -> Shoe:
        pile = list(codes)
        rng.shuffle(pile)
        return cls(cards=pile)

    def __len__(self) -> int:
        return len(self.cards)

    def draw(self, count: int = 1) -> list[str]:
        """Take ``count`` cards from the top; fewer if the shoe runs out."""
        taken, self.cards = self.cards[:count], self.cards[count:]
        return taken

    def draw_one(self) -> str | None:
        return self.cards.pop(0) if self.cards else None

    def deal(self, hands: int, each: int) -> list[list[str]]:
        """Deal ``each`` cards to ``hands`` hands one at a time, round the table."""
        dealt: list[list[str]] = [[] for _ in range(hands)]
        for _ in range(each):
            for hand in dealt:
                drawn = self.draw_one()
                if drawn is not None:
                    hand.append(drawn)
        return dealt
