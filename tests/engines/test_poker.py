"""The shared poker hand ranking (several decks, so five of a kind and flush houses exist).

Single-deck hands are checked against two established evaluators, treys and pokerkit: every
distinct five-card value in full, seeded random pairs of hands from targeted generators (so
every category turns up often), and the best five of seven. What one deck cannot show (identical
cards, the three new categories, the three-deck rarity counts the ruling quotes) is checked
here directly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from itertools import combinations, combinations_with_replacement
from math import comb, prod

import pytest
from pokerkit import StandardHighHand
from treys import Card as TreysCard
from treys import Evaluator

from bot.engines.base import InvalidAction
from bot.engines.cards import RANK_CHARS, SUITS, standard_deck
from bot.engines.poker import Category, HandRank, best_five, hand_score, rank_five

EVALUATOR = Evaluator()
DECK = standard_deck()
# treys rank classes (0 = royal flush, 1 = straight flush ... 9 = high card) in our categories.
TREYS_CLASS = {
    0: Category.STRAIGHT_FLUSH,  # treys names the ace-high one a royal flush
    1: Category.STRAIGHT_FLUSH,
    2: Category.FOUR_OF_A_KIND,
    3: Category.FULL_HOUSE,
    4: Category.FLUSH,
    5: Category.STRAIGHT,
    6: Category.THREE_OF_A_KIND,
    7: Category.TWO_PAIR,
    8: Category.ONE_PAIR,
    9: Category.HIGH_CARD,
}
SINGLE_DECK_CATEGORIES = set(TREYS_CLASS.values())


def hand(text: str) -> list[str]:
    return text.split()


def code(rank: int, suit: str) -> str:
    return RANK_CHARS[rank - 2] + suit


def foreign(codes: list[str]) -> list[str]:
    """Our codes in the spelling treys and pokerkit use ("As", "Th")."""
    return [c[0] + c[1].lower() for c in codes]


def treys_value(codes: list[str]) -> int:
    """treys' value of 5-7 cards, turned round so that higher is better."""
    cards = [TreysCard.new(c) for c in foreign(codes)]
    return -EVALUATOR.evaluate(cards[:2], cards[2:])


def pokerkit_hand(codes: list[str]) -> StandardHighHand:
    text = foreign(codes)
    return StandardHighHand.from_game("".join(text[:2]), "".join(text[2:]))


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def compare(a: object, b: object) -> int:
    return (a > b) - (a < b)  # type: ignore[operator]


# --- targeted generators of single-deck hands -------------------------------------------


def _suits(rng: random.Random, count: int) -> list[str]:
    return rng.sample(SUITS, count)


def _other_ranks(rng: random.Random, used: set[int], count: int) -> list[int]:
    return rng.sample(sorted(set(range(2, 15)) - used), count)


def gen_straight_run(rng: random.Random) -> list[int]:
    high = rng.randint(5, 14)
    return [14, 2, 3, 4, 5] if high == 5 else list(range(high - 4, high + 1))


def gen_straight_flush(rng: random.Random) -> list[str]:
    suit = rng.choice(SUITS)
    return [code(r, suit) for r in gen_straight_run(rng)]


def gen_straight(rng: random.Random) -> list[str]:
    return [code(r, rng.choice(SUITS)) for r in gen_straight_run(rng)]


def gen_flush(rng: random.Random) -> list[str]:
    suit = rng.choice(SUITS)
    return [code(r, suit) for r in rng.sample(range(2, 15), 5)]


def gen_groups(shape: tuple[int, ...]) -> Callable[[random.Random], list[str]]:
    """Hands whose ranks come in groups of these sizes (e.g. (3, 2) is a full house)."""

    def generate(rng: random.Random) -> list[str]:
        ranks = _other_ranks(rng, set(), len(shape))
        return [code(r, s) for r, size in zip(ranks, shape, strict=True) for s in _suits(rng, size)]

    return generate


def gen_random(rng: random.Random) -> list[str]:
    return rng.sample(DECK, 5)


GENERATORS: list[Callable[[random.Random], list[str]]] = [
    gen_straight_flush,
    gen_groups((4, 1)),
    gen_groups((3, 2)),
    gen_flush,
    gen_straight,
    gen_groups((3, 1, 1)),
    gen_groups((2, 2, 1)),
    gen_groups((2, 1, 1, 1)),
    gen_groups((1, 1, 1, 1, 1)),
    gen_random,
]


def targeted_five(rng: random.Random) -> list[str]:
    hand5 = rng.choice(GENERATORS)(rng)
    rng.shuffle(hand5)
    return hand5


def targeted_seven(rng: random.Random) -> list[str]:
    five = targeted_five(rng)
    seven = five + rng.sample([c for c in DECK if c not in five], 2)
    rng.shuffle(seven)
    return seven


# --- agreement with treys and pokerkit ----------------------------------------------------


def every_single_deck_value() -> list[list[str]]:
    """One representative of every distinct five-card value a single deck allows (7,462)."""
    hands = []
    for ranks in combinations_with_replacement(range(2, 15), 5):
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        seen: Counter[int] = Counter()
        codes = []
        for r in ranks:
            codes.append(code(r, SUITS[seen[r]]))
            seen[r] += 1
        if len(counts) == 5:
            codes[0] = code(ranks[0], "H")  # not a flush: spades but one heart
            hands.append(codes)
            hands.append([code(r, "D") for r in ranks])  # the flush
        else:
            hands.append(codes)
    return hands


def test_every_single_deck_value_orders_like_treys_and_pokerkit() -> None:
    hands = every_single_deck_value()
    assert len(hands) == 7462
    ours = [rank_five(h) for h in hands]
    theirs = [treys_value(h) for h in hands]
    kit = [StandardHighHand("".join(foreign(h))) for h in hands]
    assert len(set(ours)) == len(set(theirs)) == 7462
    order = sorted(range(len(hands)), key=lambda i: theirs[i])
    assert [ours[i] for i in order] == sorted(ours)  # same strict order as treys
    assert [kit[i] for i in order] == sorted(kit)
    for h, mine in zip(hands, ours, strict=True):
        cls = EVALUATOR.get_rank_class(-treys_value(h))
        assert mine.category == TREYS_CLASS[cls], h


def test_random_pairs_of_five_agree_with_treys_and_pokerkit() -> None:
    rng = random.Random(5005)
    seen: Counter[Category] = Counter()
    ties = 0
    for _ in range(2500):
        same = rng.random() < 0.5
        gen_a = rng.choice(GENERATORS)
        gen_b = gen_a if same else rng.choice(GENERATORS)
        a, b = gen_a(rng), gen_b(rng)
        rng.shuffle(a)
        rng.shuffle(b)
        ra, rb = rank_five(a), rank_five(b)
        seen[ra.category] += 1
        mine = compare(ra, rb)
        assert mine == sign(treys_value(a) - treys_value(b)), (a, b)
        assert mine == compare(pokerkit_hand(a), pokerkit_hand(b)), (a, b)
        assert mine == compare(hand_score(a), hand_score(b))
        ties += mine == 0
    assert set(seen) == SINGLE_DECK_CATEGORIES
    assert min(seen.values()) >= 100
    assert ties >= 20  # equal hands in different suits do turn up and tie


def test_best_five_of_seven_agrees_with_treys_and_pokerkit() -> None:
    rng = random.Random(7007)
    seen: Counter[Category] = Counter()
    previous: tuple[list[str], HandRank, int, StandardHighHand] | None = None
    for _ in range(1200):
        seven = targeted_seven(rng)
        rank, five = best_five(seven)
        assert len(five) == 5 and not Counter(five) - Counter(seven)
        assert rank_five(five) == rank
        tv, kit = treys_value(seven), pokerkit_hand(seven)
        assert rank.category == TREYS_CLASS[EVALUATOR.get_rank_class(-tv)], seven
        assert kit == StandardHighHand("".join(foreign(list(five))))
        seen[rank.category] += 1
        if previous is not None:
            _, prank, ptv, pkit = previous
            assert compare(rank, prank) == sign(tv - ptv) == compare(kit, pkit), seven
        previous = (seven, rank, tv, kit)
    assert set(seen) == SINGLE_DECK_CATEGORIES


def test_best_five_matches_brute_force_on_three_deck_hands() -> None:
    rng = random.Random(3)
    shoe = DECK * 3
    flushes = 0
    for _ in range(3000):
        size = rng.choice((5, 6, 7, 7))
        cards = rng.sample(shoe, size)
        if rng.random() < 0.3:  # lean towards one suit so flush houses and flushes appear
            suit = rng.choice(SUITS)
            cards = [c[0] + suit if rng.random() < 0.8 else c for c in cards]
        rank, five = best_five(cards)
        assert rank == max(rank_five(list(c)) for c in combinations(cards, 5)), cards
        assert rank_five(five) == rank and not Counter(five) - Counter(cards)
        flushes += rank.category in (Category.FLUSH_HOUSE, Category.STRAIGHT_FLUSH)
    assert flushes >= 20


# --- what a single deck cannot show -------------------------------------------------------


def test_identical_cards_in_one_suit() -> None:
    assert rank_five(hand("AH AH KH 7H 2H")) == HandRank(Category.FLUSH, (14, 14, 13, 7, 2))
    assert rank_five(hand("AH AH KH KH KH")) == HandRank(Category.FLUSH_HOUSE, (13, 14))
    assert rank_five(hand("AH AH AH KH QH")).category == Category.FLUSH  # not just trips
    assert rank_five(hand("AH AH KH KH QH")).category == Category.FLUSH  # not just two pair
    assert rank_five(hand("7S 7H 7H 7D 7C")) == HandRank(Category.FIVE_OF_A_KIND, (7,))
    assert rank_five(hand("9D 9D 9D 9D 2D")).category == Category.FOUR_OF_A_KIND  # four decks
    # Two identical kings and two other kings are four kings, not two pair.
    assert rank_five(hand("KS KS KH KH 5C")) == HandRank(Category.FOUR_OF_A_KIND, (13, 5))


def test_new_categories_against_their_neighbours() -> None:
    ladder = [
        "AS KS QS JS 9D",  # high card
        "2S 2H 3D 4C 5S",  # one pair
        "AS AH KS KH QD",
        "AS AH AD KS QD",
        "AS KD QC JH TS",  # best straight
        "AH AH KH 7H 2H",  # a flush with identical cards
        "AH AH KH KH QH",  # identical cards again: still a flush
        "AS AH AD KS KH",  # best full house
        "AS AH AD AC KS",  # best four of a kind
        "AS AH AD AC AS",  # five of a kind beats any four of a kind
        "AH 2H 3H 4H 5H",  # the lowest straight flush beats five aces
        "AS KS QS JS TS",  # the best straight flush
        "2S 2S 2S 3S 3S",  # the lowest flush house beats a royal flush
        "AD AD AD KD KD",  # the best flush house
    ]
    ranks = [rank_five(hand(h)) for h in ladder]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)
    assert rank_five(hand("2S 2H 2D 2C 2S")) > rank_five(hand("AS AH AD AC KS"))
    assert rank_five(hand("2S 2H 2D 2C 2S")) < rank_five(hand("5H 4H 3H 2H AH"))
    # Within the new categories: the triple decides first, then the pair.
    assert rank_five(hand("3H 3H 3H 2H 2H")) > rank_five(hand("2C 2C 2C AC AC"))
    assert rank_five(hand("QD QD QD 2D 2D")) < rank_five(hand("QS QS QS 3S 3S"))
    assert rank_five(hand("8S 8H 8D 8C 8S")) > rank_five(hand("7S 7H 7D 7C 7S"))


def test_suits_never_break_ties() -> None:
    assert rank_five(hand("KS KH KD 5C 5S")) == rank_five(hand("KC KC KH 5D 5H"))
    assert rank_five(hand("QH QH QH 2H 2H")) == rank_five(hand("QS QS QS 2S 2S"))
    assert rank_five(hand("9S 8S 7S 6S 5S")) == rank_five(hand("9C 8C 7C 6C 5C"))
    assert rank_five(hand("AH AH KH 7H 2H")) == rank_five(hand("AC AC KC 7C 2C"))
    assert rank_five(hand("AS 2D 3C 4H 5S")) == rank_five(hand("5D 4D 3H 2H AC"))


def test_ace_is_high_and_low() -> None:
    wheel = rank_five(hand("AS 2D 3C 4H 5S"))
    assert wheel == HandRank(Category.STRAIGHT, (5,))
    assert wheel < rank_five(hand("2S 3D 4C 5H 6S")) < rank_five(hand("AS KD QC JH TS"))
    assert rank_five(hand("QS KD AC 2H 3S")).category == Category.HIGH_CARD  # no wrapping
    assert rank_five(hand("AH 2H 3H 4H 5H")) == HandRank(Category.STRAIGHT_FLUSH, (5,))


def test_best_five_prefers_the_new_categories() -> None:
    rank, five = best_five(hand("AS AS AS 2S 2S 2H 2D"))
    assert rank == HandRank(Category.FLUSH_HOUSE, (14, 2))
    assert sorted(five) == sorted(hand("AS AS AS 2S 2S"))
    rank, five = best_five(hand("7S 7H 7D 7C 7S KS QS"))
    assert rank == HandRank(Category.FIVE_OF_A_KIND, (7,))
    rank, _ = best_five(hand("AH AH KH 7H 2H 9C 9D"))
    assert rank.category == Category.FLUSH
    rank, five = best_five(hand("AH AH KH KH KH KS KD"))
    assert rank == HandRank(Category.FLUSH_HOUSE, (13, 14))
    assert best_five(hand("KH KH KH KS KD AH 5H"))[0].category == Category.FIVE_OF_A_KIND


def three_deck_counts(decks: int) -> Counter[Category]:
    """Five-card hands per category from ``decks`` decks, by rank pattern (not enumerated).

    A hand is a multiset of ranks plus suits. For each multiset of five ranks, the hands with
    those ranks number prod(C(4d, m)) over the rank multiplicities m, of which 4 * prod(C(d, m))
    are all one suit; a hand's category depends only on its ranks and whether it is one suit.
    """
    counts: Counter[Category] = Counter()
    for ranks in combinations_with_replacement(range(2, 15), 5):
        multiplicities = Counter(ranks).values()
        total = prod(comb(4 * decks, m) for m in multiplicities)
        one_suit = 4 * prod(comb(decks, m) for m in multiplicities)
        if one_suit:
            counts[rank_five([code(r, "S") for r in ranks]).category] += one_suit
        if total > one_suit:
            mixed = [code(ranks[0], "H")] + [code(r, "S") for r in ranks[1:]]
            counts[rank_five(mixed).category] += total - one_suit
    return counts


def test_single_deck_counts_are_the_classic_ones() -> None:
    counts = three_deck_counts(1)
    assert sum(counts.values()) == comb(52, 5)
    assert counts == {
        Category.STRAIGHT_FLUSH: 40,
        Category.FOUR_OF_A_KIND: 624,
        Category.FULL_HOUSE: 3744,
        Category.FLUSH: 5108,
        Category.STRAIGHT: 10200,
        Category.THREE_OF_A_KIND: 54912,
        Category.TWO_PAIR: 123552,
        Category.ONE_PAIR: 1098240,
        Category.HIGH_CARD: 1302540,
    }


def test_three_deck_rarity_matches_the_ruling() -> None:
    counts = three_deck_counts(3)
    assert sum(counts.values()) == comb(156, 5) == 721_656_936
    assert counts[Category.FLUSH_HOUSE] == 1_872
    assert counts[Category.STRAIGHT_FLUSH] == 9_720
    assert counts[Category.FIVE_OF_A_KIND] == 10_296
    # The order follows rarity from two pair up (in a three-deck shoe one pair is in fact a
    # little more common than high card; the ruling keeps the usual order there).
    upper = [counts[c] for c in Category if c >= Category.TWO_PAIR]
    assert upper == sorted(upper, reverse=True) and len(set(upper)) == len(upper)


# --- words and refusals -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "words"),
    [
        ("AS KD 9C 7H 3H", "High card, ace"),
        ("TS TD 9C 7H 3H", "One pair, tens"),
        ("JS JH 4H 4D 5H", "Two pair, jacks and fours"),
        ("6S 6H 6D KC 2S", "Three of a kind, sixes"),
        ("9S 8H 7H 6D 5H", "Straight, nine high"),
        ("AS 2H 3H 4D 5H", "Straight, five high"),
        ("AH AH KH 7H 2H", "Flush, ace high"),
        ("KS KH KD 5C 5S", "Full house, kings over fives"),
        ("3S 3H 3D 3C QS", "Four of a kind, threes"),
        ("7S 7H 7H 7D 7C", "Five of a kind, sevens"),
        ("2S 3S 4S 5S 6S", "Straight flush, six high"),
        ("QH QH QH 2H 2H", "Flush house, queens over twos"),
    ],
)
def test_describe(cards: str, words: str) -> None:
    assert rank_five(hand(cards)).describe() == words
    assert best_five(hand(cards))[0].describe() == words


def test_other_spellings_are_accepted_and_normalised() -> None:
    assert rank_five(["as", "10s", "ks", "qs", "js"]) == rank_five(hand("AS TS KS QS JS"))
    rank, five = best_five(["ah", "ah", "10h", "kh", "2c", "9h", "3h"])
    assert rank.category == Category.FLUSH and set(five) <= {"AH", "TH", "KH", "9H", "3H"}


@pytest.mark.parametrize(
    ("call", "cards"),
    [
        (rank_five, ["AS", "KS", "QS", "JS"]),
        (rank_five, ["AS", "KS", "QS", "JS", "TS", "9S"]),
        (rank_five, ["AS", "KS", "QS", "JS", "JKH"]),
        (rank_five, ["AS", "KS", "QS", "JS", "JKL"]),
        (rank_five, ["AS", "KS", "QS", "JS", "1S"]),
        (rank_five, "ASKSQSJSTS"),
        (best_five, ["AS", "KS", "QS", "JS"]),
        (best_five, ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"]),
        (best_five, ["AS", "KS", "QS", "JS", "TS", "JKH", "8S"]),
        (best_five, ["AS", "KS", "QS", "JS", "XX"]),
        (best_five, []),
    ],
)
def test_bad_input_is_refused(call: Callable[[list[str]], object], cards: list[str]) -> None:
    with pytest.raises(InvalidAction):
        call(cards)
