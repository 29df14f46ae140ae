"""Plain data records passed between the storage layer and the hosting core.

They are pydantic models so the core can validate, copy and serialise them freely; none of
them carries a database handle.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

GameStatus = Literal["lobby", "active", "finished", "cancelled"]
LIVE_STATUSES: tuple[GameStatus, ...] = ("lobby", "active")
CLOSED_STATUSES: tuple[GameStatus, ...] = ("finished", "cancelled")

AI_USER_ID = 0
"""``user_id`` of the per-guild, per-game AI pseudo-player in the ratings table."""
AI_PLAYER_NAME = "AI players"

PROVISIONAL_GAMES = 5
"""A player with fewer finished games than this on a board is provisional: their rating is
still settling, so boards list them after the players who have played this many."""


class SeatRecord(BaseModel):
    """One seat at a table: a human (``user_id`` set) or an AI (``is_ai``)."""

    seat: int = Field(ge=0)
    user_id: int | None
    name: str
    is_ai: bool
    autopilot: bool = False
    """An AI is playing this human's seat after a missed deadline."""
    level: Literal["easy", "normal", "hard"] | None = None
    """An AI seat's level: "easy", "normal" or "hard". None: normal, for an AI that took
    over a person's seat mid-game (they left or were removed) or an AI seated before levels."""
    left_user_id: int | None = None
    """On an AI seat: the person who left it mid-game, who may take it back while the game
    runs (not set for a person the host removed)."""
    invited: bool = False
    """A person's seat kept for them in a rematch lobby until they confirm it with Join."""


class GameRecord(BaseModel):
    """A game as stored: the games row, its seats and the latest state snapshot."""

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    message_id: int | None
    game: str
    host_id: int
    status: GameStatus
    config: dict[str, Any]
    seed: int
    seats: list[SeatRecord]
    version: int
    state_json: str | None
    deadline_at: float | None
    created_at: float
    ended_at: float | None

    @property
    def is_live(self) -> bool:
        """True while the game is in its lobby or being played."""
        return self.status in LIVE_STATUSES


class ActionRecord(BaseModel):
    """One entry of a game's action log (enough to replay the game from its seed)."""

    version: int = Field(ge=1)
    """The game's version after this action."""
    seat: int
    action: str
    user_id: int | None
    """The human who chose the action; ``None`` for AI and autopilot moves."""
    at: float


class SeatResult(BaseModel):
    """How one seat ended a game. ``rank`` 1 is first place; equal ranks are ties."""

    seat: int
    user_id: int | None
    name: str
    is_ai: bool
    rank: int = Field(ge=1)
    score: float
    won: bool


class RatingChange(BaseModel):
    """A human player's displayed rating before and after a finished game."""

    user_id: int
    name: str
    rating_before: float
    rating_after: float

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before


class LeaderboardRow(BaseModel):
    """One player's standing on a server's board for one game."""

    user_id: int
    name: str
    games: int
    wins: int
    points: float
    rating: float
    """Displayed rating, see :func:`bot.storage.ratings.display_rating`."""
    shown_rating: int
    """``rating`` rounded to a whole number, as boards show it and sort by it."""
    mu: float
    sigma: float
    position: int = 0
    """1-based place on the board: established players first, then by shown rating, wins and
    games. Players equal on all of these share a place."""

    @property
    def provisional(self) -> bool:
        """Fewer than :data:`PROVISIONAL_GAMES` finished games: the rating is still settling."""
        return self.games < PROVISIONAL_GAMES


class UserStats(LeaderboardRow):
    """One user's record in one game on one server, with their place on that board."""

    game: str
    board_size: int
    """How many players the board has (the AI pseudo-player is not counted)."""


class AIRecord(BaseModel):
    """A person's finished games against AI players of one level (the strongest at the
    table), and how many of them they won."""

    level: Literal["easy", "normal", "hard"]
    games: int
    wins: int


class RatingPoint(BaseModel):
    """A person's displayed rating before and after one finished game."""

    game: str
    game_id: int
    ended_at: float | None
    rating_before: float
    rating_after: float


class FinishedGame(BaseModel):
    """A finished game's results, for "recent games" listings."""

    game_id: int
    game: str
    ended_at: float | None
    results: list[SeatResult]
