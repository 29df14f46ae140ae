"""The store: games, seats, snapshots, the action log, results and ratings.

Why it looks like this:

* One :class:`Database` for both backends (``backends.py``): an SQLite file by default, or
  PostgreSQL shared by several bot processes. Every SQL statement is written once.
* Every write method is exactly one transaction. On SQLite one lock serialises the one
  connection (``BEGIN IMMEDIATE`` holds the file's write lock); on PostgreSQL each
  transaction has its own pooled connection and locks what two processes could race on:
  the game's row (``FOR UPDATE``) for progress, and a per-board advisory lock for ratings.
* WAL mode and a short busy timeout on SQLite, so a second process (a backup, a shell) can
  read meanwhile and a locked file is reported before Discord's 3-second deadline.
* Cancelling a task that awaits a write leaves the write wholly applied or wholly absent
  (a cancel that lands during COMMIT may still see it applied): reload to know which.
* Parameterised SQL only; the few column names put into SQL text come from fixed
  whitelists, never from callers.
* One module per concern: ``games.py`` (games, seats, snapshots, the action log),
  ``results.py`` (results and ratings), ``boards.py`` (standings and stats), ``people.py``
  (a person's settings), ``leases.py`` (shard leases); ``base.py`` holds what they share,
  including the fence that makes every table write check this process's shard lease.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from .backends import (
    Backend,
    PostgresBackend,
    SqliteBackend,
    is_postgres_url,
    open_failure,
)
from .boards import BoardStore
from .errors import StorageError
from .games import GameStore
from .migrations import MIGRATIONS, Migration, current_version, migrate
from .people import PersonStore
from .results import ResultStore


class _Opener:
    """What :meth:`Database.open` returns: awaitable, and usable as ``async with``."""

    def __init__(
        self, target: str | Path, migrations: Sequence[Migration], setting: str | None
    ) -> None:
        self._path = target
        self._migrations = migrations
        self._setting = setting
        self._db: Database | None = None

    def __await__(self) -> Generator[Any, None, Database]:
        return Database._open(self._path, self._migrations, self._setting).__await__()

    async def __aenter__(self) -> Database:
        self._db = await Database._open(self._path, self._migrations, self._setting)
        return self._db

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._db is not None:
            await self._db.close()


class Database(GameStore, ResultStore, BoardStore, PersonStore):
    """Async access to the bot's storage. Create with :meth:`open`, never directly.

    The SQL of each concern is in its own module: ``games.py``, ``results.py``,
    ``boards.py``, ``people.py`` (and ``leases.py`` for the shard leases); ``base.py`` has
    the plumbing they share."""

    # ------------------------------------------------------------------ lifecycle

    @staticmethod
    def open(
        target: str | Path,
        *,
        migrations: Sequence[Migration] = MIGRATIONS,
        setting: str | None = None,
    ) -> _Opener:
        """Open (creating if needed) and migrate the database at ``target``.

        ``target`` is a ``postgresql://`` URL, or else an SQLite file path (``":memory:"``
        gives a private in-memory database for tests). ``db = await Database.open(t)`` or
        ``async with Database.open(t) as db``. ``migrations`` exists for tests of the
        migration runner.

        A database that cannot be reached or opened (refused password, missing database,
        unreachable server, unwritable file) raises :class:`DatabaseUnavailable`, one line
        that names ``setting`` as the thing to fix (default ``DATABASE_URL`` or
        ``DATABASE_PATH``) and never shows the password.
        """
        return _Opener(target, migrations, setting)

    @classmethod
    async def _open(
        cls, target: str | Path, migrations: Sequence[Migration], setting: str | None = None
    ) -> Database:
        backend: Backend
        try:
            if is_postgres_url(target):
                backend = await PostgresBackend.open(str(target))
            else:
                backend = await SqliteBackend.open(target)
        except Exception as error:
            failure = open_failure(target, error, setting)
            if failure is None:
                raise
            raise failure from error
        try:
            await migrate(backend, migrations)
        except BaseException as error:
            await backend.close()
            failure = None
            if isinstance(error, Exception) and not isinstance(error, StorageError):
                # e.g. a read-only file, a role that may not create tables
                failure = open_failure(target, error, setting, connected=True)
            if failure is None:
                raise
            raise failure from error
        return cls(backend)

    async def close(self) -> None:
        """Close the connection(s) (safe to call twice)."""
        if self._closed:
            return
        self._closed = True
        await self._backend.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def path(self) -> str:
        """The SQLite path or PostgreSQL URL this database was opened from."""
        return self._backend.target

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._backend.dialect

    async def schema_version(self) -> int:
        """The highest applied migration number."""
        async with self._read() as conn:
            return await current_version(conn)

    async def journal_mode(self) -> str:
        """SQLite's journal mode (``"wal"`` for files, ``"memory"`` for ``:memory:``)."""
        if self.dialect != "sqlite":
            return self.dialect
        async with self._read() as conn:
            row = await conn.fetchone("PRAGMA journal_mode")
            return str(row[0]).lower() if row is not None else ""
