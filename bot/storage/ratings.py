"""Skill ratings for finished games (pure functions, no SQL).

Model: openskill's Plackett-Luce, which rates free-for-all games of any size with ties.

Choices, so the numbers stay explainable:

* Every human is one team of one, keyed by ``user_id``. A user who somehow holds two seats
  in one game is rated once, with the better of their results (lowest rank, then a win,
  then the higher score).
* All AI seats of a guild and game share one pseudo-player (``user_id`` 0, "AI players").
  Each AI seat enters the match as its own team starting from that shared rating, and the
  pseudo-player's new ``mu`` and ``sigma`` are the averages over its seats. So losing to an
  AI costs rating just as losing to a person does, and the AI's rating tracks how strong
  the AI is against this server. The pseudo-player never appears on a leaderboard.
* The displayed rating is ``1000 + 40 * ordinal``, where openskill's ordinal is
  ``mu - 3 * sigma`` (a conservative skill estimate). A newcomer (mu 25, sigma 25/3) shows
  1000; one ordinal point is worth 40 displayed points, so a strong regular lands near 2000.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from .errors import InvalidArgument
from .models import AI_USER_ID, SeatResult

MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma
DISPLAY_BASE = 1000.0
DISPLAY_SCALE = 40.0


@dataclass(frozen=True)
class Skill:
    """An openskill belief about one player: mean and uncertainty."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def display(self) -> float:
        return display_rating(self.mu, self.sigma)


def display_rating(mu: float, sigma: float) -> float:
    """The friendly number shown to players: ``1000 + 40 * (mu - 3 * sigma)``."""
    return DISPLAY_BASE + DISPLAY_SCALE * (mu - 3.0 * sigma)


def _better(a: SeatResult, b: SeatResult) -> bool:
    """True if result ``a`` is better than ``b`` (lower rank, then a win, then more score)."""
    return (a.rank, not a.won, -a.score) < (b.rank, not b.won, -b.score)


def split_results(
    results: Iterable[SeatResult],
) -> tuple[dict[int, SeatResult], list[SeatResult]]:
    """Split seat results into one best result per human ``user_id`` and the AI seats."""
    humans: dict[int, SeatResult] = {}
    ais: list[SeatResult] = []
    for result in results:
        if result.is_ai:
            ais.append(result)
            continue
        if result.user_id is None or result.user_id == AI_USER_ID:
            raise InvalidArgument(f"human seat {result.seat} needs a real user_id")
        best = humans.get(result.user_id)
        if best is None or _better(result, best):
            humans[result.user_id] = result
    return humans, ais


def rate_match(
    participants: Sequence[tuple[int, int]],
    current: Mapping[int, Skill],
) -> dict[int, Skill]:
    """New skills after one match.

    ``participants`` lists ``(player_key, rank)`` teams of one; a key may repeat (the AI
    pseudo-player in several seats), in which case its updates are averaged. Players missing
    from ``current`` start at the model's defaults. With fewer than two teams nothing can be
    learnt and the current skills come back unchanged.
    """
    if len(participants) < 2:
        return {key: current.get(key, Skill()) for key, _ in participants}
    teams = []
    for key, _rank in participants:
        skill = current.get(key, Skill())
        teams.append([MODEL.rating(mu=skill.mu, sigma=skill.sigma)])
    rated = MODEL.rate(teams, ranks=[float(rank) for _key, rank in participants])
    gathered: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for (key, _rank), team in zip(participants, rated, strict=True):
        gathered[key].append((team[0].mu, team[0].sigma))
    return {
        key: Skill(
            mu=sum(mu for mu, _ in values) / len(values),
            sigma=sum(sigma for _, sigma in values) / len(values),
        )
        for key, values in gathered.items()
    }
