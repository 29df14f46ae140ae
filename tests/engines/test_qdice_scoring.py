"""Quantum dice scoring: every combination and colour ruling, plus scorer properties."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engines.qdice.scoring import (
    best_split,
    has_score,
    is_black_hole,
    is_quantum,
    no_score_reasons,
    score_keep,
    scoring_keeps,
    stray_dice,
)


def dice(spec: str) -> list[tuple[int, str]]:
    """``"1A 5B 5B"`` -> [(1, "A"), (5, "B"), (5, "B")]."""
    return [(int(word[0]), word[1]) for word in spec.split()]


@pytest.mark.parametrize(
    ("keep", "rolled", "points"),
    [
        # singles
        ("1A", 6, 100),
        ("5B", 1, 50),
        ("1A 5B", 2, 150),
        ("1A 1B 5A 5B", 6, 300),
        ("2A", 6, None),
        ("1A 3B", 6, None),
        # triples, with and without the one-colour bonus
        ("1A 1A 1A", 6, 1100),
        ("1A 1A 1B", 6, 1000),
        ("2A 2A 2B", 3, 200),
        ("2B 2B 2B", 3, 300),
        ("3A 3B 3A", 6, 300),
        ("4A 4A 4A", 4, 500),
        ("5A 5B 5B", 5, 500),
        ("6B 6B 6B", 6, 700),
        # separate triples each score
        ("3A 3B 3A 4B 4A 4B", 6, 700),
        ("3A 3A 3A 4B 4B 4B", 6, 900),
        ("3A 3A 3B 4B 4B 4A", 5 + 1, 700),
        # four or five of a kind: one triple plus singles (only 1s and 5s)
        ("1A 1A 1B 1B", 4, 1100),
        ("1A 1A 1A 1B", 4, 1200),
        ("5A 5A 5B 5B", 6, 550),
        ("1A 1A 1A 1B 1B", 5, 1300),
        ("2A 2A 2B 2B", 4, None),
        ("4A 4A 4B 4B 4B", 5, None),
        # triple plus singles
        ("3A 3A 3B 1B 5A", 6, 450),
    ],
)
def test_singles_and_triples(keep: str, rolled: int, points: int | None) -> None:
    assert score_keep(dice(keep), rolled) == points


@pytest.mark.parametrize(
    ("keep", "points"),
    [
        ("1A 2B 3A 4B 5A 6B", 1500),
        ("1A 2A 3A 4B 5B 6B", 1700),  # 1-2-3 one colour, 4-5-6 the other
        ("1B 2B 3B 4A 5A 6A", 1700),
        ("1A 2A 3B 4B 5B 6A", 1500),
    ],
)
def test_large_straight(keep: str, points: int) -> None:
    assert score_keep(dice(keep), 6) == points


def test_large_straight_needs_all_six_dice_rolled() -> None:
    assert score_keep(dice("1A 2A 3A 4B 5B 6B"), 6) == 1700
    # A subset of it is only singles, and 2, 3, 4, 6 do not score alone.
    assert score_keep(dice("1A 2A 3A 4B 5B"), 6) is None
    assert score_keep(dice("1A 5B"), 6) == 150


@pytest.mark.parametrize(
    ("keep", "points"),
    [
        ("2A 2B 4A 4B 6A 6B", 1700),  # every pair split across the colours
        ("2A 2A 4B 4B 6A 6B", 1500),
        ("3A 3B 4A 4B 6B 6A", 1700),
        # four of a kind plus a pair reads as three pairs too
        ("2A 2A 2B 2B 3A 3B", 1700),
        ("2A 2A 2A 2B 3B 3B", 1500),
        # ... and the scorer takes the better reading (triple 1s + singles is at most 1400)
        ("1A 1A 1B 1B 5A 5B", 1700),
        ("1A 1A 1A 1B 5B 5B", 1500),
        # six 2s before the board are three pairs (3 + 3 colours always split)
        ("2A 2A 2A 2B 2B 2B", 1700),
    ],
)
def test_three_pairs(keep: str, points: int) -> None:
    assert score_keep(dice(keep), 6) == points


def test_three_pairs_only_on_a_six_dice_roll() -> None:
    # Kept as four dice they are just 1s and 5s; four 2s and two 3s would not score at all.
    assert score_keep(dice("1A 1B 5A 5B"), 4) == 300
    assert score_keep(dice("2A 2A 2B 2B 3A 3B"), 6) == 1700


@pytest.mark.parametrize(
    ("keep", "rolled", "points"),
    [
        ("2A 3B 4A", 3, 750),
        ("4B 5B 6B", 3, 850),  # one colour
        ("1A 2A 3A", 3, 850),
        ("3A 4B 5B", 3, 750),  # beats the lone 5
        ("2A 3B 4A", 4, None),  # not exactly three dice rolled
        ("2A 3B 4A", 6, None),
        ("3A 4B 5B", 4, None),
        ("2A 4B 6A", 3, None),
    ],
)
def test_small_straight_needs_exactly_three_dice_rolled(
    keep: str, rolled: int, points: int | None
) -> None:
    assert score_keep(dice(keep), rolled) == points


@pytest.mark.parametrize("value", [1, 3, 4, 5, 6])
def test_quantum_is_5000_and_nothing_else(value: int) -> None:
    roll = [(value, "A")] * 3 + [(value, "B")] * 3
    assert is_quantum(roll)
    split = best_split(roll, 6)
    assert split is not None
    assert split[0] == 5000
    assert len(split[1]) == 1


def test_six_twos_black_hole_only_on_the_board() -> None:
    roll = dice("2A 2A 2A 2B 2B 2B")
    assert not is_quantum(roll)
    assert is_black_hole(roll, on_board=True)
    assert not is_black_hole(roll, on_board=False)
    assert score_keep(roll, 6) == 1700  # before the board they count as three pairs
    assert not is_black_hole(dice("2A 2A 2B 2B 2B"), on_board=True)


def test_best_split_names_the_combinations() -> None:
    split = best_split(dice("5A 5A 5A 1B"), 6)
    assert split == (700, (("single:1", 100), ("triple-colour:5", 600)))


def test_keep_larger_than_roll_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        score_keep(dice("1A 1A"), 1)


def test_stray_dice_names_the_non_scoring_dice() -> None:
    roll = dice("1A 4A 5B 6B 2A 2B")
    assert stray_dice(roll, [0, 1, 3]) == [1, 3]
    assert stray_dice(roll, [0, 2]) == []


@pytest.mark.parametrize(
    ("roll", "selection", "reasons"),
    [
        ("1A 1A 1B 5B 2B 5A", [0, 1, 2, 3, 4], [{"reason": "single", "values": [2]}]),
        ("4B 1A 6A 3B 3A 2A", [0, 2], [{"reason": "single", "values": [4, 6]}]),
        (
            "3A 3B 4A 6B 2B 3A",
            [0, 1],
            [{"reason": "pair", "value": 3, "count": 2, "third": True}],
        ),
        ("3A 3B 4A 6B 2B 1A", [0, 1], [{"reason": "pair", "value": 3, "count": 2, "third": False}]),
        (
            "4A 4A 4A 4B 5B",
            [0, 1, 2, 3, 4],
            [{"reason": "extra", "value": 4, "first": 4, "count": 1}],
        ),
        (
            "6A 6A 6B 6B 6B 1A",
            [0, 1, 2, 3, 4, 5],
            [{"reason": "extra", "value": 6, "first": 4, "count": 2}],
        ),
        (
            "2A 3B 4A",
            [0, 1],
            [
                {"reason": "single", "values": [2, 3]},
                {"reason": "whole", "combination": "small-straight", "count": 3},
            ],
        ),
        (
            "2A 2B 3A 3B 6A 6B",
            [0, 1, 2, 3],
            [
                {"reason": "pair", "value": 2, "count": 2, "third": False},
                {"reason": "pair", "value": 3, "count": 2, "third": False},
                {"reason": "whole", "combination": "three-pairs", "count": 6},
            ],
        ),
        (
            "2A 3A 4B 6B",
            [0, 1, 2],
            [
                {"reason": "single", "values": [2, 3, 4]},
                {"reason": "run", "low": 2, "middle": 3, "high": 4},
            ],
        ),
        (
            "1A 2A 3A 4B 5B 6B",
            [1],
            [
                {"reason": "single", "values": [2]},
                {"reason": "whole", "combination": "large-straight", "count": 6},
            ],
        ),
    ],
)
def test_an_unscoring_selection_says_which_dice_and_why(
    roll: str, selection: list[int], reasons: list[dict[str, object]]
) -> None:
    """The reasons as data (the presenter words them: tests/words/test_qdice_words.py)."""
    dice_rolled = dice(roll)
    assert score_keep([dice_rolled[i] for i in selection], len(dice_rolled)) is None
    assert no_score_reasons(dice_rolled, selection) == reasons


def test_bust_detection() -> None:
    assert not has_score(dice("2A 3A 4A 6B 6B 3B"))
    assert has_score(dice("2A 3A 4A 2B 2B 3B")) is True  # 2s triple
    assert has_score(dice("2A 2A 4A 4B 6B 6B"))  # three pairs
    assert has_score(dice("2A 3A 4B"))  # small straight
    assert not has_score(dice("2A 3A 4B 6B"))
    assert not has_score(dice("4A 6B"))


# Properties ----------------------------------------------------------------------------------

die_strategy = st.tuples(st.integers(1, 6), st.sampled_from(["A", "B"]))
roll_strategy = st.lists(die_strategy, min_size=1, max_size=6)
pair_roll_strategy = st.lists(die_strategy, min_size=2, max_size=6)


@settings(max_examples=300, deadline=None)
@given(roll=pair_roll_strategy, data=st.data())
def test_keep_scores_at_least_any_split_of_it(
    roll: list[tuple[int, str]], data: st.DataObject
) -> None:
    n = len(roll)
    keep = data.draw(st.lists(st.sampled_from(range(n)), unique=True, min_size=2))
    cut = data.draw(st.integers(1, len(keep) - 1))
    first, second = keep[:cut], keep[cut:]
    a = score_keep([roll[i] for i in first], n)
    b = score_keep([roll[i] for i in second], n)
    if a is not None and b is not None:
        whole = score_keep([roll[i] for i in keep], n)
        assert whole is not None
        assert whole >= a + b


@settings(max_examples=300, deadline=None)
@given(roll=roll_strategy, data=st.data())
def test_removing_stray_dice_leaves_a_legal_keep(
    roll: list[tuple[int, str]], data: st.DataObject
) -> None:
    n = len(roll)
    selection = sorted(data.draw(st.lists(st.sampled_from(range(n)), unique=True, min_size=1)))
    strays = stray_dice(roll, selection)
    rest = [i for i in selection if i not in strays]
    if score_keep([roll[i] for i in selection], n) is not None:
        assert strays == []
    elif rest:
        assert score_keep([roll[i] for i in rest], n) is not None
        # and putting any stray back breaks it again when the strays are the only problem
        assert strays


@settings(max_examples=300, deadline=None)
@given(roll=roll_strategy, perm=st.randoms(use_true_random=False))
def test_scores_ignore_order_and_colour_names(roll: list[tuple[int, str]], perm) -> None:
    n = len(roll)
    shuffled = list(roll)
    perm.shuffle(shuffled)
    swapped = [(v, "B" if c == "A" else "A") for v, c in roll]
    base = score_keep(roll, n)
    assert score_keep(shuffled, n) == base
    assert score_keep(swapped, n) == base
    if base is not None:
        assert base > 0
        assert base % 50 == 0


@settings(max_examples=200, deadline=None)
@given(roll=roll_strategy)
def test_scoring_keeps_agree_with_score_keep(roll: list[tuple[int, str]]) -> None:
    n = len(roll)
    listed = dict(scoring_keeps(roll))
    assert has_score(roll) == bool(listed)
    for size in range(1, n + 1):
        for indices in combinations(range(n), size):
            assert listed.get(indices) == score_keep([roll[i] for i in indices], n)


@settings(max_examples=300, deadline=None)
@given(roll=roll_strategy, data=st.data())
def test_every_unscoring_selection_names_a_die_it_keeps(
    roll: list[tuple[int, str]], data: st.DataObject
) -> None:
    n = len(roll)
    selection = sorted(data.draw(st.lists(st.sampled_from(range(n)), unique=True, min_size=1)))
    if score_keep([roll[i] for i in selection], n) is not None:
        return
    reasons = no_score_reasons(roll, selection)
    strays = {roll[i][0] for i in stray_dice(roll, selection)}
    named = {r.get("value") for r in reasons} | {v for r in reasons for v in r.get("values", [])}
    assert {"reason": "none"} not in reasons
    assert named & strays
