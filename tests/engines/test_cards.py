"""The shared playing cards: codes, decks and the shoe."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.engines.base import InvalidAction, Rng
from bot.engines.cards import (
    HIGH_JOKER,
    LOW_JOKER,
    Card,
    Shoe,
    card,
    sort_codes,
    standard_deck,
)


def test_codes_round_trip_for_every_card() -> None:
    deck = standard_deck(jokers=True)
    assert len(deck) == len(set(deck)) == 54
    for code in deck:
        assert card(code).code == code


def test_parse_accepts_ten_and_lower_case_and_refuses_nonsense() -> None:
    assert card("10h") == Card(10, "H") == card("TH")
    assert card("as").rank == 14
    for bad in ("", "1S", "AX", "JK", "ASS"):
        with pytest.raises(InvalidAction):
            card(bad)


def test_properties() -> None:
    assert card("KD").is_red and card("KD").is_face
    assert not card("AC").is_red and not card("AC").is_face
    assert card(HIGH_JOKER).is_joker and card(HIGH_JOKER).rank > card(LOW_JOKER).rank
    assert card("TH").label == "10♥" and card("QS").name == "queen of spades"
    assert card(LOW_JOKER).label == "Low joker"


def test_deck_without_ranks() -> None:
    deck = standard_deck(without_ranks=(3, 4), jokers=True)
    assert len(deck) == 46
    assert not {c for c in deck if c[0] in "34"}


def test_shoe_of_three_decks_is_seeded_and_complete() -> None:
    one = Shoe.of_decks(3, Rng(seed=7))
    two = Shoe.of_decks(3, Rng(seed=7))
    other = Shoe.of_decks(3, Rng(seed=8))
    assert one.cards == two.cards != other.cards
    assert Counter(one.cards) == Counter({code: 3 for code in standard_deck()})
    assert Shoe.model_validate_json(one.model_dump_json()) == one


def test_deal_goes_round_the_table_and_draw_stops_at_the_end() -> None:
    shoe = Shoe(cards=["AS", "KS", "QS", "JS", "TS"])
    assert shoe.deal(2, 2) == [["AS", "QS"], ["KS", "JS"]]
    assert shoe.draw(3) == ["TS"]
    assert shoe.draw_one() is None and len(shoe) == 0


def test_sort_groups_suits_high_first_jokers_last() -> None:
    assert sort_codes(["2S", LOW_JOKER, "AH", "KS", "3H"]) == ["KS", "2S", "AH", "3H", LOW_JOKER]
