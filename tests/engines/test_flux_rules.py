"""Flux rule functions: every ruling, and the variants list with its refusals."""

from __future__ import annotations

import pytest

from bot.engines.base import ConfigError
from bot.engines.flux.rules import (
    Rules,
    best_value,
    card_value,
    claim_key,
    dice_offsets,
    distance,
    hand_value,
    is_zilch,
    parse_variants,
    poker_points,
    poker_winner,
    settle,
    trick_winner,
    unique_top,
)

BASIC = Rules()


def test_card_values_red_plus_black_minus_faces_zero() -> None:
    assert [card_value(c) for c in ("AH", "AS", "TD", "7C", "KH", "QS", "JD")] == [
        1, -1, 10, -7, 0, 0, 0,
    ]  # fmt: skip
    assert hand_value(["TS", "4S", "KH"]) == -14
    assert hand_value(["TS", "4S"], absolute=True) == 14  # Variant 19


def test_distance_counts_either_sign() -> None:
    assert distance(-14, 12) == 2 and distance(14, 12) == 2 and distance(-12, 12) == 0
    assert distance(3, 12) == 9


def test_seed_example_via_settle() -> None:
    values = {0: -14, 1: -19, 2: 6, 3: 3, 4: -10}
    result = settle(values, 12, BASIC, caller=0, bullseye_bonus=10)
    assert result.winners == [0] and result.points == {0: 16} and not result.undercut


def test_undercut_ties_and_several_undercutters() -> None:
    # caller 2 off, two opponents 1 off: both win, nothing from each other, +5 each
    result = settle({0: 14, 1: 13, 2: -11, 3: 5}, 12, BASIC, caller=0, bullseye_bonus=10)
    assert result.undercut and result.winners == [1, 2]
    assert result.points == {1: 1 + 0 + 6 + 5, 2: 1 + 0 + 6 + 5}
    # a caller who only ties for closest is not undercut
    result = settle({0: 14, 1: -10, 2: 3}, 12, BASIC, caller=0, bullseye_bonus=10)
    assert result.winners == [0] and result.points == {0: 0 + 7}


def test_bullseye_only_for_the_caller_and_zilch_doubles() -> None:
    result = settle({0: 12, 1: -12, 2: 21}, 12, BASIC, caller=0, bullseye_bonus=10)
    assert result.points == {0: 0 + 9 * 2 + 10} and result.zilched == [2]
    result = settle({0: 13, 1: 12}, 12, BASIC, caller=0, bullseye_bonus=10)
    assert result.undercut and result.points == {1: 1 + 5} and result.bullseye == 0
    result = settle({0: 13, 1: 12}, 12, BASIC, caller=None, bullseye_bonus=10)
    assert not result.undercut and result.points == {1: 1}  # Variant 3 settling


def test_trick_winner_trumps_cancel_then_other_ranks() -> None:
    assert trick_winner([(0, "2D"), (1, "AS"), (2, "KS")], "D", False) == 0
    assert trick_winner([(0, "9D"), (1, "9D"), (2, "3S")], "D", False) == 2
    assert trick_winner([(0, "9D"), (1, "9D"), (2, "3D")], "D", False) == 2
    assert trick_winner([(0, "KS"), (1, "KH"), (2, "QC")], "D", False) == 2
    assert trick_winner([(0, "KS"), (1, "KH")], "D", False) is None  # dead
    assert trick_winner([(0, "AS"), (1, "KS")], "D", False) == 0  # ace high


def test_truco_ranking_variant_12() -> None:
    # queen of trumps (Pelico) beats the ace of spades; jack of trumps (Pelica) next
    assert trick_winner([(0, "AS"), (1, "QC"), (2, "JC")], "C", True) == 1
    assert trick_winner([(0, "AS"), (1, "QH"), (2, "JC")], "C", True) == 2
    assert trick_winner([(0, "3H"), (1, "KS"), (2, "AD")], "C", True) == 0  # 3s beat false aces
    assert trick_winner([(0, "8S"), (1, "4D")], "C", True) == 1  # 4 over 10, 9, 8
    assert trick_winner([(0, "3H"), (1, "3S")], "C", True) is None  # equal strength ties
    assert trick_winner([(0, "7H"), (1, "7C"), (2, "6S")], "C", True) == 2  # false sevens


def test_poker_points_and_ties() -> None:
    assert poker_points("KD", BASIC) == 10 and poker_points("AS", BASIC) == 1
    assert poker_points("7C", BASIC) == 7 and poker_points("QH", Rules.of(["4"])) == 0
    winner, _ = poker_winner(
        {
            0: ["AS", "AH", "9D", "8S", "7H"],
            1: ["AD", "AC", "9S", "8H", "7D"],
            2: list(["2S", "3S", "5D", "7C", "9H"]),
        }
    )
    assert winner == 2
    winner, _ = poker_winner({0: ["AS", "AH", "9D", "8S", "7H"], 1: ["AD", "AC", "9S", "8H", "7D"]})
    assert winner is None
    assert (
        poker_winner({0: ["2H", "2H", "2H", "3H", "3H"], 1: ["2S", "3S", "4S", "5S", "6S"]})[0] == 0
    )


def test_claim_key_and_unique_top() -> None:
    assert claim_key(["TH", "2D", "KS"]) == (12, -1)
    assert claim_key(["TS", "2C", "KS", "QH"]) == (12, -2)
    assert unique_top([30, 30, 20], range(3)) == 2
    assert unique_top([5, 5], range(2)) is None


def test_zilch_rules() -> None:
    assert is_zilch(-21, 12, BASIC) and not is_zilch(0, 12, BASIC)
    assert is_zilch(0, 12, Rules.of(["6"]))
    assert is_zilch(9, 12, Rules.of(["20"])) and not is_zilch(4, 12, Rules.of(["20"]))


def test_point_dice_best_use_and_totality() -> None:
    assert dice_offsets((2, 3), False) == frozenset({0, 2, 3, -2, -3, 5, -5, 1, -1})
    assert dice_offsets((2, 3), True) == frozenset({0, 5, -5})
    assert best_value(10, [2], 12, BASIC) == 12
    assert best_value(10, [2, 3], 12, Rules.of(["9", "9a"])) == 10  # 15 or 5: 10 is nearer
    assert best_value(-9, [3], 12, BASIC) == -12
    assert best_value(5, [], 12, BASIC) == 5


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ("23", "flux-config-refused-23", {}),
        ("1,99", "flux-config-unknown-variant", {"variant": "99"}),
        ("7", "flux-config-requires-7", {}),
        ("9a", "flux-config-requires-9a", {}),
        ("16d", "flux-config-requires-16d", {}),
        ("16,17", "flux-config-conflict-16-17", {"first": "16", "second": "17"}),
        ("10,21", "flux-config-conflict-10-21", {"first": "10", "second": "21"}),
        ("5,21", "flux-config-conflict-5-21", {"first": "5", "second": "21"}),
        ("10,20", "flux-config-conflict-10-20", {"first": "10", "second": "20"}),
        ("8,22", "flux-config-conflict-22-8", {"first": "22", "second": "8"}),
        ("15,22", "flux-config-conflict-22-15", {"first": "22", "second": "15"}),
    ],
)
def test_refused_variants_say_why(text: str, code: str, params: dict[str, str]) -> None:
    with pytest.raises(ConfigError) as error:
        parse_variants(text)
    assert error.value.code == code and error.value.params == params


@pytest.mark.parametrize(
    "text",
    ["13", "13,14", "2,16", "2,7,16", "1,16", "1,16,16d", "2,16,16d", "18,22", "8,18", "8,15"],
)
def test_combinations_that_do_not_contradict_are_accepted(text: str) -> None:
    assert parse_variants(text) == sorted(
        dict.fromkeys(text.split(",")), key=lambda k: (int(k.rstrip("d")), k)
    )


def test_variant_13_plays_as_14() -> None:
    assert Rules.of(["13"]).best_five and Rules.of(["13", "14"]).best_five
    assert Rules.of(["14"]).best_five and not Rules().best_five


def test_score_limits_combine_and_elimination_has_none() -> None:
    assert Rules.of(["8", "18"]).score_limit == 50
    assert Rules.of(["18", "22"]).score_limit is None


def test_variants_are_normalised() -> None:
    assert parse_variants(" 17, 4 ,1;9a 9 v12") == ["1", "4", "9", "9a", "12", "17"]
    assert parse_variants("16d,16,13") == ["13", "16", "16d"]
    assert parse_variants("") == []
    assert parse_variants(["2", "7"]) == ["2", "7"]
