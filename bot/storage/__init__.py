"""Storage: the only place in the bot with SQL (SQLite through aiosqlite, or PostgreSQL
through asyncpg when ``DATABASE_URL`` names one).

Import from here: ``from bot.storage import Database, GameRecord, SeatRecord, ...``.
"""

from .db import Database
from .errors import (
    DatabaseUnavailable,
    GameClosed,
    GameNotFound,
    InvalidArgument,
    MigrationError,
    SchemaTooNew,
    StorageError,
    VersionConflict,
)
from .games import UNCHANGED, Unchanged
from .migrations import MIGRATIONS, Migration
from .models import (
    AI_PLAYER_NAME,
    AI_USER_ID,
    PROVISIONAL_GAMES,
    ActionRecord,
    AIRecord,
    FinishedGame,
    GameRecord,
    GameStatus,
    LeaderboardRow,
    PastGame,
    RatingChange,
    RatingPoint,
    SeatRecord,
    SeatResult,
    UserStats,
)
from .ratings import display_rating

__all__ = [
    "AI_PLAYER_NAME",
    "AI_USER_ID",
    "MIGRATIONS",
    "PROVISIONAL_GAMES",
    "UNCHANGED",
    "AIRecord",
    "ActionRecord",
    "Database",
    "DatabaseUnavailable",
    "FinishedGame",
    "GameClosed",
    "GameNotFound",
    "GameRecord",
    "GameStatus",
    "InvalidArgument",
    "LeaderboardRow",
    "Migration",
    "MigrationError",
    "PastGame",
    "RatingChange",
    "RatingPoint",
    "SchemaTooNew",
    "SeatRecord",
    "SeatResult",
    "StorageError",
    "Unchanged",
    "UserStats",
    "VersionConflict",
    "display_rating",
]
