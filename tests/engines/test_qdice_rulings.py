"""Quantum dice audit: one test (or more) per rule of seed 001 and per RULINGS.md ruling.

The section comments quote the rule being pinned. The scorer is also checked exhaustively
against a small, independent reference scorer written straight from the rules (every keep of
at most three dice of each colour, from every roll size it can come from).
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, combinations_with_replacement, permutations
from typing import Any

import pytest
from pydantic import ValidationError

from bot.engines.base import IllegalAction
from bot.engines.qdice.ai import choose_action
from bot.engines.qdice.engine import COLOURS, Die, QDiceConfig, QDiceState
from bot.engines.qdice.scoring import best_split, has_score, is_black_hole, score_keep
from tests.engines.scripted import ENGINE, kinds
from tests.engines.scripted import make_state as scripted_state


def dice(spec: str) -> list[tuple[int, str]]:
    """``"1A 5B"`` -> [(1, "A"), (5, "B")]."""
    return [(int(word[0]), word[1]) for word in spec.split()]


def make_state(roll: str, **fields: Any) -> QDiceState:
    """A game with ``roll`` on the table (seed 3 once the script runs out)."""
    return scripted_state(roll, seed=3, **fields)


BUST6 = [2, 3, 4, 6, 6, 2]  # no 1 or 5, no triple, not a straight, not three pairs


# Reference scorer ------------------------------------------------------------------------------


def reference_score(keep: tuple[tuple[int, str], ...], rolled: int) -> int | None:
    """Best reading of ``keep`` from a roll of ``rolled`` dice, straight from the rulings."""
    n = len(keep)
    values = [v for v, _ in keep]
    readings: list[int] = []
    if rolled == 6 and n == 6:
        if len(set(values)) == 1 and values[0] != 2:
            return 5000  # Quantum: 5000 and nothing else
        if sorted(values) == [1, 2, 3, 4, 5, 6]:
            low = {c for v, c in keep if v <= 3}
            high = {c for v, c in keep if v >= 4}
            split = len(low) == 1 and len(high) == 1 and low != high
            readings.append(1500 + (200 if split else 0))
        pairings = [
            [(p[0], p[1]), (p[2], p[3]), (p[4], p[5])]
            for p in permutations(range(6))
            if all(keep[a][0] == keep[b][0] for a, b in [(p[0], p[1]), (p[2], p[3]), (p[4], p[5])])
        ]
        if pairings:
            split = any(all(keep[a][1] != keep[b][1] for a, b in pr) for pr in pairings)
            readings.append(1500 + (200 if split else 0))
    if rolled == 3 and n == 3:
        low, mid, high = sorted(values)
        if mid == low + 1 and high == mid + 1:
            readings.append(750 + (100 if len({c for _, c in keep}) == 1 else 0))

    @cache
    def best(mask: int) -> int | None:
        """Every die of ``mask`` in a single 1, a single 5 or a triple of one value."""
        if not mask:
            return 0
        i = (mask & -mask).bit_length() - 1
        value, colour = keep[i]
        found: list[int] = []
        if value in (1, 5):
            rest = best(mask & ~(1 << i))
            if rest is not None:
                found.append(rest + (100 if value == 1 else 50))
        mates = [j for j in range(n) if mask >> j & 1 and j != i and keep[j][0] == value]
        for j, k in combinations(mates, 2):
            rest = best(mask & ~(1 << i | 1 << j | 1 << k))
            if rest is not None:
                base = 1000 if value == 1 else value * 100
                bonus = 100 if colour == keep[j][1] == keep[k][1] else 0
                found.append(rest + base + bonus)
        return max(found) if found else None

    split_total = best((1 << n) - 1)
    if split_total is not None:
        readings.append(split_total)
    return max(readings) if readings else None


ALL_DICE = [(v, c) for v in range(1, 7) for c in "AB"]


def physical_multisets(size: int):
    """Multisets of ``size`` dice with at most three of each colour (there are only three)."""
    for group in combinations_with_replacement(ALL_DICE, size):
        if sum(c == "A" for _, c in group) <= 3 and sum(c == "B" for _, c in group) <= 3:
            yield group


def test_scorer_matches_the_reference_on_every_keep() -> None:
    mismatches = [
        (keep, rolled, reference_score(keep, rolled), score_keep(keep, rolled))
        for size in range(1, 7)
        for keep in physical_multisets(size)
        for rolled in range(size, 7)
        if reference_score(keep, rolled) != score_keep(keep, rolled)
    ]
    assert mismatches == []


def test_bust_detection_matches_the_reference_on_every_roll() -> None:
    wrong = []
    for size in range(1, 7):
        for roll in physical_multisets(size):
            scores = any(
                reference_score(part, size) is not None
                for k in range(1, size + 1)
                for part in combinations(roll, k)
            )
            if scores != has_score(roll):
                wrong.append(roll)
    assert wrong == []


# Ruling: three dice of colour A, three of colour B; the colour of every die is shown ---------


def test_the_six_dice_are_three_of_each_colour() -> None:
    assert sorted(COLOURS) == ["A", "A", "A", "B", "B", "B"]
    for seed in range(5):
        state = ENGINE.new_game(QDiceConfig(), 2, seed=seed)
        assert sorted(d.colour for d in state.dice) == ["A", "A", "A", "B", "B", "B"]
    with pytest.raises(ValidationError):
        Die(value=1, colour="C")  # type: ignore[arg-type]


def test_each_die_keeps_its_colour_through_the_turn_and_it_is_shown() -> None:
    state = make_state("1A 4A 5A 6B 2B 3B", script=[[1, 2, 3, 4], [6, 6, 1]])
    ENGINE.apply(state, 0, "roll:02")  # keep 1A and 5A: 4A 6B 2B 3B are rolled again
    assert [(d.value, d.colour) for d in state.dice] == [(1, "A"), (2, "B"), (3, "B"), (4, "B")]
    ENGINE.apply(state, 0, "roll:0")  # keep the new 1 (A): the three B dice are left
    assert [(d.value, d.colour) for d in state.dice] == [(6, "B"), (6, "B"), (1, "B")]
    assert [d.colour for d in state.kept] == ["A", "A", "A"]
    obs = ENGINE.observe(state, 1)  # every seat sees each die's colour
    assert [(d.value, d.colour) for d in obs.dice] == [(6, "B"), (6, "B"), (1, "B")]
    assert [(d.value, d.colour) for d in obs.kept] == [(1, "A"), (5, "A"), (1, "A")]


def test_a_hot_dice_reroll_is_three_of_each_colour_again() -> None:
    state = make_state("1B 1B 5B", kept="3A 3A 3A", turn_total=300, script=[[6, 6, 3, 4, 2, 5]])
    events = ENGINE.apply(state, 0, "roll:012")
    assert "hot_dice" in kinds(events)
    assert [d.colour for d in state.dice] == ["A", "A", "A", "B", "B", "B"]


# Ruling: every die set aside scores; the keep is its best split; the player chooses -----------


def test_every_kept_die_must_score_and_the_player_chooses_the_keep() -> None:
    state = make_state("1A 1A 1B 5B 2B 5A", script=[[4, 6, 1]])
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, 0, "roll:01234")
    assert caught.value.code == "qdice-error-no-score"
    assert caught.value.params["reasons"] == [{"reason": "single", "values": [2]}]
    events = ENGINE.apply(state, 0, "roll:012")  # the player may leave the 5s on the table
    assert events[0].data["points"] == 1000
    assert [(d.value, d.colour) for d in state.dice] == [(4, "B"), (6, "B"), (1, "A")]


# Seed: singles and triples -----------------------------------------------------------------


@pytest.mark.parametrize("rolled", [1, 2, 3, 4, 5, 6])
def test_single_ones_and_fives(rolled: int) -> None:
    assert score_keep(dice("1A"), rolled) == 100
    assert score_keep(dice("5B"), rolled) == 50
    for value in (2, 3, 4, 6):
        assert score_keep([(value, "A")], rolled) is None


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("rolled", [3, 4, 5, 6])
def test_every_triple_with_and_without_the_colour_bonus(value: int, rolled: int) -> None:
    base = 1000 if value == 1 else value * 100
    assert score_keep([(value, "A")] * 3, rolled) == base + 100
    assert score_keep([(value, "B")] * 3, rolled) == base + 100
    assert score_keep([(value, "A"), (value, "B"), (value, "A")], rolled) == base
    assert score_keep([(value, "B"), (value, "B"), (value, "A")], rolled) == base


def test_a_triple_must_be_rolled_at_once() -> None:
    # Two 4s kept earlier plus a 4 now: the new 4 scores nothing, so it cannot be kept.
    state = make_state("4A 2B 3B", kept="4A 4A 1B", turn_total=100)
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, 0, "roll:0")
    assert caught.value.code == "qdice-error-no-score"


@pytest.mark.parametrize(
    ("keep", "points"),
    [
        ("3A 3B 3A 4B 4A 4B", 700),  # 300 + 400
        ("3A 3A 3A 4B 4B 4B", 900),  # both triples one colour
        ("3A 3A 3B 4B 4B 4B", 800),  # only the 4s one colour
        ("1A 1A 1A 5B 5B 5B", 1700),  # 1,100 + 600
        ("1A 1B 1A 6B 6A 6B", 1600),
        ("2A 2B 2A 6B 6A 6B", 800),
    ],
)
def test_two_separate_triples_in_one_roll_both_score(keep: str, points: int) -> None:
    assert score_keep(dice(keep), 6) == points


def test_two_triples_bank_through_the_engine() -> None:
    state = make_state("3A 4A 3A 4B 3B 4B", scores=[2000, 0], on_board=[True, False])
    events = ENGINE.apply(state, 0, "bank:012345")
    assert events[0].data["points"] == 700
    assert [c[0] for c in events[0].data["combinations"]] == ["triple:3", "triple:4"]
    assert state.scores == [2700, 0]


@pytest.mark.parametrize(
    ("keep", "rolled", "points"),
    [
        ("4A 4A 4B 4B", 4, None),  # the fourth 4 is not a single
        ("4A 4A 4B 4B", 6, None),
        ("4A 4A 4A 4B 5B", 5, None),  # the fourth 4 is a stray even beside a 5
        ("4A 4A 4A 5B", 5, 550),  # triple (one colour) + single 5
        ("6A 6A 6B 6B 6B 1A", 6, None),  # five 6s: two of them would be strays
        ("6A 6B 6B 6B", 4, None),
        ("6B 6B 6B 1A", 6, 800),
        ("1A 1A 1B 1B", 4, 1100),  # triple 1,000 + single 100
        ("1A 1A 1A 1B", 4, 1200),  # triple 1,100 + single 100
        ("1A 1A 1A 1B 1B", 5, 1300),  # five 1s: triple 1,100 + 100 + 100
        ("1A 1A 1B 1B 1B", 6, 1300),
        ("5A 5A 5B 5B", 4, 550),
        ("5A 5A 5A 5B 5B", 5, 700),  # triple 600 + 50 + 50
        ("5A 5B 5A 5B 5B", 6, 700),
        ("2A 2A 2B 2B 2B", 5, None),
    ],
)
def test_four_or_five_of_a_kind_is_a_triple_plus_singles(
    keep: str, rolled: int, points: int | None
) -> None:
    assert score_keep(dice(keep), rolled) == points


def test_four_of_a_kind_subset_is_the_triple() -> None:
    assert score_keep(dice("4A 4A 4B"), 4) == 400
    assert score_keep(dice("4A 4A 4A"), 6) == 500


# Seed + ruling: three pairs, including four of a kind plus a pair --------------------------


@pytest.mark.parametrize(
    ("keep", "points"),
    [
        ("2A 2B 4A 4B 6A 6B", 1700),  # each pair has one die of each colour
        ("2A 2A 4B 4B 6A 6B", 1500),
        ("2A 2B 4A 4A 6B 6B", 1500),  # one split pair is not enough
        ("3A 3B 4A 4B 6A 6B", 1700),
        ("1A 1B 5A 5B 6A 6B", 1700),  # beats the singles (300)
        # four of a kind plus a pair
        ("4A 4A 4B 4B 6A 6B", 1700),
        ("4A 4A 4A 4B 6B 6B", 1500),  # the four 4s cannot pair one A with one B twice
        ("3A 3B 3A 3B 2A 2B", 1700),
        ("3A 3A 3B 3B 6B 6A", 1700),
        ("2A 2A 2B 2B 6B 6A", 1700),  # four 2s plus a pair (no triple of 2s needed)
    ],
)
def test_three_pairs_and_the_split_colour_bonus(keep: str, points: int) -> None:
    group = dice(keep)
    assert score_keep(group, 6) == points
    split = best_split(group, 6)
    assert split is not None and split[1][0][0].startswith("three-pairs")


@pytest.mark.parametrize(
    ("keep", "points", "other"),
    [
        # the scorer takes the better reading of four of a kind plus a pair
        ("1A 1A 1B 1B 5A 5B", 1700, 1000 + 100 + 100),  # three pairs over triple + singles
        ("1A 1A 1A 1B 5B 5B", 1500, 1100 + 100 + 100),
        ("5A 5A 5A 5B 1B 1B", 1500, 600 + 50 + 200),
        ("1A 1B 1A 1B 5A 5B", 1700, 1000 + 100 + 100),
    ],
)
def test_three_pairs_scorer_takes_the_better_reading(keep: str, points: int, other: int) -> None:
    split = best_split(dice(keep), 6)
    assert split is not None
    assert split[0] == points > other
    assert split[1][0][0].startswith("three-pairs")


def test_two_triples_beat_three_pairs_when_worth_more() -> None:
    # 1A 1A 1A 5B 5B 5B: two one-colour triples 1,700 (three pairs do not apply: odd counts).
    assert score_keep(dice("1A 1A 1A 5B 5B 5B"), 6) == 1700
    # 3 3 3 3 + 5 5: three pairs 1,500/1,700 beat triple + two 5s (at most 500).
    assert score_keep(dice("3A 3A 3B 3B 5A 5B"), 6) == 1700


def test_three_pairs_need_all_six_dice_rolled_and_kept() -> None:
    assert score_keep(dice("2A 2B 4A 4B 6A 6B"), 6) == 1700
    assert score_keep(dice("2A 2B 4A 4B"), 6) is None
    assert score_keep(dice("1A 1B 5A 5B"), 6) == 300  # only singles
    assert score_keep(dice("1A 1B 5A 5B"), 4) == 300


# Seed + ruling: large straight -------------------------------------------------------------


@pytest.mark.parametrize(
    ("keep", "points"),
    [
        ("1A 2A 3A 4B 5B 6B", 1700),
        ("1B 2B 3B 4A 5A 6A", 1700),
        ("1A 2A 3B 4B 5B 6A", 1500),
        ("1A 2B 3A 4B 5A 6B", 1500),
        ("1B 2A 3A 4A 5B 6B", 1500),
    ],
)
def test_large_straight_and_its_colour_sets_bonus(keep: str, points: int) -> None:
    assert score_keep(dice(keep), 6) == points


def test_large_straight_needs_all_six() -> None:
    assert score_keep(dice("1A 2A 3A 4B 5B"), 6) is None
    assert score_keep(dice("1A 2A 3A 4B 5B 6B")[:5], 5) is None


# Seed + ruling: small straight only when exactly three dice were rolled ----------------------


@pytest.mark.parametrize("low", [1, 2, 3, 4])
def test_small_straight_on_three_dice_and_its_colour_bonus(low: int) -> None:
    run = [low, low + 1, low + 2]
    assert score_keep([(v, "A") for v in run], 3) == 850
    assert score_keep([(v, "B") for v in run], 3) == 850
    assert score_keep([(run[0], "A"), (run[1], "B"), (run[2], "B")], 3) == 750
    assert score_keep([(run[0], "B"), (run[1], "A"), (run[2], "B")], 3) == 750


@pytest.mark.parametrize("low", [1, 2, 3, 4])
@pytest.mark.parametrize("rolled", [4, 5, 6])
def test_small_straight_never_from_three_of_more_rolled_dice(low: int, rolled: int) -> None:
    run = [(low, "A"), (low + 1, "A"), (low + 2, "A")]
    assert score_keep(run, rolled) is None  # every run of three has a 2, 3, 4 or 6 in it


def test_small_straight_in_the_engine() -> None:
    # three dice left after a keep: the straight scores, with the bonus when one colour
    state = make_state(
        "4B 2B 3B",
        kept="1A 1A 5A",
        turn_total=250,
        scores=[3000, 0],
        on_board=[True, False],
        script=[[1, 2, 3, 4, 6, 6]],
    )
    events = ENGINE.apply(state, 0, "roll:012")  # hot dice: all six have scored
    assert events[0].data["points"] == 850
    assert events[0].data["combinations"] == [["small-straight-colour", 850]]
    assert "hot_dice" in kinds(events)
    assert state.turn_total == 1100


def test_three_of_six_rolled_dice_are_never_a_small_straight_in_the_engine() -> None:
    state = make_state("2A 3A 4A 6B 6B 1B")
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, 0, "roll:0125")
    assert {"reason": "run", "low": 2, "middle": 3, "high": 4} in caught.value.params["reasons"]
    four = make_state("2A 3A 4B 6B", kept="1A 1B", turn_total=200, script=[])
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(four, 0, "roll:012")
    assert caught.value.code == "qdice-error-no-score"


@pytest.mark.parametrize(
    ("roll", "keep", "values"),
    [
        ("1A 5A 4A 6B 2B 3B", "roll:01", [2, 3, 4, 6]),  # four dice rolled
        ("1A 4A 6A 6B 2B 3B", "roll:0", [3, 4, 6, 6, 2]),  # five dice rolled
        ("5A 5B 1B", "roll:012", [2, 3, 4, 6, 6, 2]),  # six dice (hot dice) rolled
    ],
)
def test_more_than_three_dice_showing_a_run_of_three_bust(
    roll: str, keep: str, values: list[int]
) -> None:
    kept = "1A 1A 5B" if len(roll.split()) == 3 else ""
    state = make_state(
        roll,
        kept=kept,
        scores=[2000, 0],
        on_board=[True, False],
        script=[values, [1, 2, 3, 4, 6, 6]],
    )
    events = ENGINE.apply(state, 0, keep)
    assert [k for k in kinds(events) if k != "hot_dice"] == ["keep", "roll", "bust", "roll"]
    assert state.scores == [2000, 0]


# Ruling: six-dice combinations count on a hot-dice re-roll of six ----------------------------


@pytest.mark.parametrize(
    ("values", "points"),
    [
        ([2, 4, 6, 2, 4, 6], 1700),  # A: 2 4 6, B: 2 4 6 -> three split pairs
        ([1, 2, 3, 4, 5, 6], 1700),  # A: 1 2 3, B: 4 5 6 -> large straight, colour sets
        ([6, 6, 6, 6, 6, 6], 5000),  # Quantum
        ([3, 3, 4, 4, 4, 4], 1500),  # four of a kind plus a pair, pairs not split
    ],
)
def test_six_dice_combinations_count_on_a_hot_dice_reroll(values: list[int], points: int) -> None:
    state = make_state(
        "5A 5B 1B",
        kept="1A 1A 5B",
        turn_total=250,
        scores=[3000, 0],
        on_board=[True, False],
        script=[values],
    )
    ENGINE.apply(state, 0, "roll:012")  # 200 more, hot dice
    assert state.turn_total == 450
    assert ENGINE.observe(state, 0).rolled_six
    events = ENGINE.apply(state, 0, "bank:012345")
    assert events[0].data["points"] == points
    assert state.scores[0] == 3000 + 450 + points


# Ruling: Quantum = six of a kind other than 2s, 5000 and nothing else ------------------------


@pytest.mark.parametrize("value", [1, 3, 4, 5, 6])
def test_quantum_scores_exactly_5000(value: int) -> None:
    roll = [(value, "A")] * 3 + [(value, "B")] * 3
    split = best_split(roll, 6)
    assert split is not None
    assert split[0] == 5000
    assert [points for _, points in split[1]] == [5000]  # no triples, pairs or bonus on top


def test_quantum_of_ones_is_not_two_triples() -> None:
    # two one-colour triples of 1s would be 2,200; three pairs 1,700: Quantum is 5,000 only
    assert score_keep(dice("1A 1A 1A 1B 1B 1B"), 6) == 5000


def test_quantum_on_the_first_roll_of_a_turn() -> None:
    state = make_state("1A 4A 4A 6B 2B 3B", script=[[2, 3, 4, 6, 6], [5] * 6])
    events = ENGINE.apply(state, 0, "roll:0")  # seat 0 busts on 2 3 4 6 6 (5 dice)
    assert "bust" in kinds(events)
    assert state.current == 1
    assert "quantum" in kinds(events)
    events = ENGINE.apply(state, 1, "bank:012345")
    assert events[0].data["points"] == 5000
    assert state.scores == [0, 5000]
    assert state.on_board == [False, True]


# Ruling: Black hole ------------------------------------------------------------------------


def test_black_hole_on_the_first_roll_of_a_turn() -> None:
    state = make_state(
        "1A 4A 4A 6B 2B 3B",
        scores=[1500, 9800],
        on_board=[True, True],
        script=[[2, 3, 4, 6, 6], [2] * 6, [1, 2, 3, 4, 6, 6]],
    )
    events = ENGINE.apply(state, 0, "roll:0")
    assert kinds(events) == ["keep", "roll", "bust", "roll", "black_hole", "roll"]
    black = events[4]
    assert black.seat == 1 and black.data == {"lost": 0, "score": 1000}
    assert state.scores == [1500, 1000]
    assert state.current == 0  # seat 1's turn ended at once


def test_black_hole_loses_the_turn_total_and_resets_the_banked_score() -> None:
    state = make_state(
        "1A 1B 5B",
        kept="1A 1A 1B",
        turn_total=1000,
        n_players=3,
        scores=[9800, 500, 0],
        on_board=[True, True, False],
        script=[[2] * 6, [1, 2, 3, 4, 6, 6]],
    )
    events = ENGINE.apply(state, 0, "roll:012")  # 1,250 riding, hot dice, six 2s
    assert kinds(events) == ["keep", "hot_dice", "roll", "black_hole", "roll"]
    assert events[3].data == {"lost": 1250, "score": 1000}
    assert state.scores == [1000, 500, 0]
    assert state.on_board[0]  # still on the board
    assert state.current == 1
    assert state.turn_total == 0


def test_black_hole_only_on_six_dice() -> None:
    assert not is_black_hole(dice("2A 2A 2A 2B 2B"), on_board=True)
    assert is_black_hole(dice("2A 2A 2A 2B 2B 2B"), on_board=True)
    assert not is_black_hole(dice("2A 2A 2A 2B 2B 2B"), on_board=False)


def test_six_twos_before_the_board_score_normally_and_can_get_on_it() -> None:
    state = make_state("1A 4A 4A 6B 2B 3B", script=[[2, 3, 4, 6, 6], [2] * 6])
    events = ENGINE.apply(state, 0, "roll:0")
    assert "black_hole" not in kinds(events)
    assert state.current == 1
    assert [d.value for d in state.dice] == [2] * 6
    events = ENGINE.apply(state, 1, "bank:012345")  # three pairs, each split: 1,700
    assert events[0].data["points"] == 1700
    assert state.scores == [0, 1700]
    assert state.on_board == [False, True]


def test_black_hole_in_the_last_turn_puts_that_player_out() -> None:
    state = make_state(
        "1A 1A 1A 6B 2B 3B",
        n_players=3,
        scores=[9500, 9000, 4000],
        on_board=[True, True, True],
        turn_total=300,
        script=[[2] * 6, BUST6],
    )
    events = ENGINE.apply(state, 0, "bank:012")  # 10,900: contingent winner
    assert kinds(events).count("out") == 2
    assert "black_hole" in kinds(events)
    assert state.scores == [10_900, 1000, 4000]
    assert state.winner == 0


# Getting on the board: at least 1,000 in one turn ------------------------------------------


def test_getting_on_the_board_needs_at_least_1000_in_one_turn() -> None:
    state = make_state("5A 4A 4A 6B 2B 3B", turn_total=900)
    ENGINE.apply(state, 0, "t0")
    assert "bank" not in ENGINE.legal_actions(state, 0)  # 950
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, 0, "bank")
    assert (caught.value.code, caught.value.params) == (
        "qdice-error-entry",
        {"entry": 1000, "total": 950},
    )
    state = make_state("1A 4A 4A 6B 2B 3B", turn_total=900)
    ENGINE.apply(state, 0, "t0")
    assert "bank" in ENGINE.legal_actions(state, 0)  # exactly 1,000
    ENGINE.apply(state, 0, "bank")
    assert state.scores == [1000, 0]
    assert state.on_board == [True, False]


def test_points_of_a_busted_turn_do_not_count_towards_the_board() -> None:
    state = make_state("1A 1B 1A 6B 2B 3B", script=[[2, 4, 6], [5, 2, 3, 4, 6, 6]])
    ENGINE.apply(state, 0, "roll:012")  # 1,000 riding, then the three dice bust
    assert state.scores == [0, 0]
    assert not state.on_board[0]
    assert state.current == 1


def test_on_the_board_small_banks_are_fine() -> None:
    state = make_state("5A 4A 4A 6B 2B 3B", scores=[1000, 0], on_board=[True, False])
    ENGINE.apply(state, 0, "bank:0")
    assert state.scores == [1050, 0]


# Bust loses the turn total ------------------------------------------------------------------


def test_bust_loses_the_turn_total_but_not_the_banked_score() -> None:
    state = make_state(
        "1A 5B 5B",
        kept="1A 1A 5B",
        turn_total=250,
        scores=[4000, 0],
        on_board=[True, False],
        script=[BUST6, [1, 2, 3, 4, 6, 6]],
    )
    events = ENGINE.apply(state, 0, "roll:012")  # hot dice, then six dice bust
    bust = next(e for e in events if e.kind == "bust")
    assert bust.data == {"lost": 450}
    assert state.scores == [4000, 0]
    assert state.turn_total == 0
    assert state.current == 1


def test_single_die_bust() -> None:
    state = make_state(
        "1A 4B", kept="1A 1A 1B 5B", turn_total=1050, script=[[6], [1, 2, 3, 4, 6, 6]]
    )
    events = ENGINE.apply(state, 0, "roll:0")
    assert kinds(events) == ["keep", "roll", "bust", "roll"]
    assert events[2].data == {"lost": 1150}
    assert state.scores == [0, 0]


# The end -----------------------------------------------------------------------------------


def test_exactly_10000_makes_a_contingent_winner() -> None:
    state = make_state(
        "1A 1A 1B 6B 2B 3B", scores=[9000, 0], on_board=[True, False], script=[BUST6]
    )
    events = ENGINE.apply(state, 0, "bank:012")  # 9,000 + 1,000
    assert "contingent" in kinds(events)
    assert state.winner == 0  # seat 1 had its one turn and busted


def test_everyone_else_gets_exactly_one_more_turn_in_seat_order() -> None:
    state = make_state(
        "1A 1A 1A 6B 2B 3B",
        n_players=4,
        current=2,
        scores=[9000, 8000, 9800, 7000],
        on_board=[True] * 4,
        script=[BUST6, BUST6, BUST6],
    )
    events = ENGINE.apply(state, 2, "bank:012")  # seat 2: 10,900
    rollers = [e.seat for e in events if e.kind == "roll"]
    assert rollers == [3, 0, 1]
    assert [e.seat for e in events if e.kind == "out"] == [3, 0, 1]
    assert state.winner == 2
    assert ENGINE.outcome(state).winners == [2]


def test_each_later_player_must_beat_the_newest_leader() -> None:
    state = make_state(
        "1A 1A 1A 6B 2B 3B",
        n_players=4,
        scores=[9500, 9000, 9000, 2000],
        on_board=[True] * 4,
        turn_total=300,
        script=[[1, 1, 1, 2, 3, 4]] * 3,
    )
    ENGINE.apply(state, 0, "bank:012")  # seat 0: 10,900
    assert state.current == 1
    state.turn_total = 1_900  # seat 1: 9,000 + 1,900 + 1,100 = 12,000
    ENGINE.apply(state, 1, "bank:012")
    assert state.contingent_winner == 1
    assert state.current == 2
    state.turn_total = 1_900  # seat 2: 9,000 + 1,900 + 1,100 = 12,000, a tie: not beaten
    events = ENGINE.apply(state, 2, "bank:012")
    assert state.contingent_winner == 1
    assert "out" in kinds(events)
    assert state.current == 3  # seat 0 (displaced) is skipped; seat 3 still has a turn
    state.turn_total = 8_950  # seat 3: 2,000 + 8,950 + 1,100 = 12,050
    events = ENGINE.apply(state, 3, "bank:012")
    assert state.contingent_winner == 3
    assert kinds(events)[-1] == "game_over"  # seats 0 and 1 displaced, seat 2 done
    assert state.winner == 3
    assert ENGINE.outcome(state).ranks == [2, 1, 1, 0]


def test_a_player_who_passed_10000_later_in_the_last_round_needs_strictly_more() -> None:
    # seat 1 also passes 10,000 in its last turn, but with less than seat 0: it is out
    state = make_state(
        "1A 1A 1A 6B 2B 3B",
        scores=[9500, 9000],
        on_board=[True, True],
        turn_total=300,
        script=[[1, 1, 1, 2, 3, 4]],
    )
    ENGINE.apply(state, 0, "bank:012")  # 10,900
    state.turn_total = 0
    events = ENGINE.apply(state, 1, "bank:012")  # 9,000 + 1,100 = 10,100
    assert "contingent" not in kinds(events)
    assert "out" in kinds(events)
    assert state.winner == 0


def test_two_players_and_ai_seats_play_a_whole_game() -> None:
    state = ENGINE.new_game(QDiceConfig(), 2, seed=11)
    moves = 0
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_act(state)
        ENGINE.apply(state, seat, choose_action(ENGINE.observe(state, seat), None))  # type: ignore[arg-type]
        moves += 1
        assert moves < 5000
    winner = state.winner
    assert winner is not None
    assert state.scores[winner] >= 10_000
    assert state.scores[winner] == max(state.scores)
