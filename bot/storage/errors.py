"""Errors raised by the storage layer.

Everything derives from :class:`StorageError` so the hosting core can catch storage trouble
in one place, while the subclasses let it react to the cases it can fix (a stale version, a
game that has already ended).
"""

from __future__ import annotations


class StorageError(Exception):
    """Base of every error the storage layer raises on purpose."""


class InvalidArgument(StorageError, ValueError):
    """A caller passed something the storage layer refuses to write (a bug in the caller)."""


class GameNotFound(StorageError, LookupError):
    """No game row with that id."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} does not exist")
        self.game_id = game_id


class VersionConflict(StorageError):
    """Optimistic concurrency guard: a save did not advance the stored version.

    Two writers raced on the same game, or the caller saved a stale state. The stored game
    is untouched; the caller should reload it.
    """

    def __init__(self, game_id: int, stored: int, attempted: int) -> None:
        super().__init__(
            f"game {game_id}: version {attempted} does not advance stored version {stored}"
        )
        self.game_id = game_id
        self.stored = stored
        self.attempted = attempted


class GameClosed(StorageError):
    """The game is finished or cancelled, so it accepts no further progress."""

    def __init__(self, game_id: int, status: str) -> None:
        super().__init__(f"game {game_id} is {status}")
        self.game_id = game_id
        self.status = status


class MigrationError(StorageError):
    """A schema migration failed; the database is left at the last good version."""


class SchemaTooNew(MigrationError):
    """The database was migrated by a newer build than this one; refuse to touch it."""


class DatabaseUnavailable(StorageError):
    """The database cannot be opened: an unreachable server, a refused password, a missing
    database or role, an unwritable file. One line saying what is wrong and which setting
    to fix; never the password."""

    def __init__(self, problem: str, setting: str) -> None:
        super().__init__(f"{problem}: check {setting}")
        self.problem = problem
        self.setting = setting
