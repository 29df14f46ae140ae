"""The pure rating helpers (no database)."""

from __future__ import annotations

import pytest

from bot.storage import AI_USER_ID, InvalidArgument, SeatResult, display_rating
from bot.storage.ratings import DEFAULT_MU, DEFAULT_SIGMA, Skill, rate_match, split_results


def seat(seat: int, user_id: int | None, rank: int, *, is_ai: bool = False, score: float = 0.0):
    return SeatResult(
        seat=seat, user_id=user_id, name="x", is_ai=is_ai, rank=rank, score=score, won=rank == 1
    )


def test_display_scale() -> None:
    assert display_rating(DEFAULT_MU, DEFAULT_SIGMA) == pytest.approx(1000.0)
    assert display_rating(30.0, 2.0) == pytest.approx(1000.0 + 40 * 24.0)


def test_split_keeps_best_seat_per_user_and_all_ai_seats() -> None:
    humans, ais = split_results(
        [seat(0, 7, 3), seat(1, 7, 2), seat(2, None, 1, is_ai=True), seat(3, None, 4, is_ai=True)]
    )
    assert humans[7].seat == 1
    assert [r.seat for r in ais] == [2, 3]
    with pytest.raises(InvalidArgument):
        split_results([seat(0, None, 1)])
    with pytest.raises(InvalidArgument):
        split_results([seat(0, AI_USER_ID, 1)])


def test_rate_match_single_team_changes_nothing() -> None:
    assert rate_match([(1, 1)], {1: Skill(30.0, 3.0)}) == {1: Skill(30.0, 3.0)}


def test_rate_match_directions_and_averaging() -> None:
    updated = rate_match([(1, 1), (AI_USER_ID, 2), (AI_USER_ID, 3), (2, 4)], {})
    assert updated[1].mu > DEFAULT_MU > updated[2].mu
    assert set(updated) == {1, 2, AI_USER_ID}
    # Uncertainty shrinks for everyone who played.
    assert all(s.sigma < DEFAULT_SIGMA for s in updated.values())
