"""The two places a :class:`~bot.storage.db.Database` can keep its rows: an SQLite file
(aiosqlite) for one process, or a PostgreSQL server (asyncpg) that several processes share.

The SQL in ``db.py`` and ``migrations.py`` is written once, in the dialect both accept, with
``?`` placeholders; a backend only adapts what truly differs:

* placeholders: ``?`` for SQLite, ``$1, $2, …`` for PostgreSQL (converted once per statement);
* schema types: migrations are written for SQLite and :func:`postgres_ddl` renders them for
  PostgreSQL (64-bit integers, double precision, identity keys), so one numbered list serves
  both;
* transactions: SQLite has one connection, one :class:`asyncio.Lock` and ``BEGIN IMMEDIATE``
  (the whole file is the write lock); PostgreSQL has a pool, one connection per transaction,
  and explicit row and advisory locks where two processes could race (see ``db.py``).

A transaction is either a block (``async with backend.write() as conn``) or a function of the
connection (``await backend.transact(body)``). The second is for the writes every move makes:
SQLite runs the whole body on its connection's thread, one trip there and back instead of one
per statement (each trip waits for the event loop, and for the interpreter while another
thread draws a picture), while PostgreSQL awaits each statement as usual. Such a body may
await only its connection.
"""

from __future__ import annotations

import asyncio
import errno
import functools
import hashlib
import logging
import re
import socket
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final, Protocol, TypeVar

import aiosqlite

from .errors import (
    DatabaseUnavailable,
    GameClosed,
    GameNotFound,
    InvalidArgument,
    MigrationError,
    StorageError,
    VersionConflict,
)
from .urls import parts, redact, server

BUSY_TIMEOUT_MS: Final = 2000
"""How long SQLite waits for another writer; kept under Discord's 3-second answer deadline."""


class Row(Protocol):
    """A result row: ``sqlite3.Row`` or ``asyncpg.Record``; both index by name and position."""

    def __getitem__(self, key: str | int, /) -> Any: ...


T = TypeVar("T")

POSTGRES_SCHEMES: Final = ("postgresql://", "postgres://")


def is_postgres_url(target: str | Path) -> bool:
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


class Conn(Protocol):
    """One connection inside a transaction (or a read), whatever the backend."""

    dialect: str

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    async def lock_key(self, key: str) -> None:
        """Hold a lock named ``key`` until this transaction ends (other processes wait)."""


# --------------------------------------------------------------------------------- SQLite


class SqliteConn:
    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.raw = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self.raw.execute(sql, params) as cursor:
            return cursor.rowcount

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self.raw.executemany(sql, rows)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        # One trip to the connection's thread (a cursor's execute, fetch and close are
        # three): every query asked for one row returns at most a few.
        rows = await self.raw.execute_fetchall(sql, params)
        return next(iter(rows), None)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self.raw.execute_fetchall(sql, params))

    async def lock_key(self, key: str) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` already holds the whole file's write lock."""


class InlineConn:
    """A :class:`Conn` used on the SQLite connection's own thread: each call is done when it
    returns, so a body of such calls runs to its end without ever waiting."""

    dialect = "sqlite"

    def __init__(self, raw: sqlite3.Connection) -> None:
        self.raw = raw

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self.raw.execute(sql, params).rowcount

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            self.raw.executemany(sql, rows)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return self.raw.execute(sql, params).fetchone()

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return self.raw.execute(sql, params).fetchall()

    async def lock_key(self, key: str) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` already holds the whole file's write lock."""


class BodyWaited(RuntimeError):
    """A transaction body run on SQLite's thread awaited something besides its connection."""


def run_to_end(body: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never waits (every await an :class:`InlineConn` call) to its end."""
    try:
        body.send(None)
    except StopIteration as done:
        return done.value
    body.close()
    raise BodyWaited("a transaction body may await only its connection")


class SqliteBackend:
    """One aiosqlite connection in autocommit mode; one asyncio lock serialises every use.

    A transaction spans several awaits, and a reader interleaved on the same connection
    would otherwise see another task's uncommitted (possibly rolled back) rows.
    """

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, target: str) -> None:
        self._conn = SqliteConn(conn)
        self._lock = asyncio.Lock()
        self.target = target

    @classmethod
    async def open(cls, target: str | Path) -> SqliteBackend:
        path = str(target)
        if path != ":memory:" and not path.startswith("file:"):
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        opening = aiosqlite.connect(path, isolation_level=None)
        try:
            conn = await opening
        except BaseException:
            # A failed connect stops aiosqlite's worker thread without waiting for it; wait
            # here, or it may answer after the event loop closed (a thread traceback at exit;
            # omnilib/aiosqlite#389).
            worker = getattr(opening, "_thread", None)
            if worker is not None and worker.is_alive():
                await asyncio.to_thread(worker.join, 5)
            raise
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            await conn.close()
            raise
        return cls(conn, path)

    @property
    def raw(self) -> aiosqlite.Connection:
        return self._conn.raw

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Conn]:
        async with self._lock:
            yield self._conn

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Conn]:
        """One transaction under the lock: commit on success, roll back on any error."""
        async with self._lock:
            conn = self._conn.raw
            try:
                await conn.execute("BEGIN IMMEDIATE")
                yield self._conn
                await conn.execute("COMMIT")
            except BaseException:
                # sqlite3's rollback() is a no-op outside a transaction, and it runs on the
                # connection's worker thread after every statement queued before it (even
                # one whose awaiting task was cancelled). Shielded so a second cancellation
                # cannot stop it; later transactions queue behind it.
                await asyncio.shield(conn.rollback())
                raise

    async def transact(self, body: Callable[[Conn], Coroutine[Any, Any, T]]) -> T:
        """``body(conn)`` as one transaction, run whole on the connection's thread: one trip
        there and back. Committed if it returns, rolled back if it raises. A caller cancelled
        meanwhile is told so at once; the transaction still ends (committed or not) first."""

        def run() -> T:
            raw = self._conn.raw._conn  # aiosqlite's sqlite3 connection, on its own thread
            raw.execute("BEGIN IMMEDIATE")
            try:
                result = run_to_end(body(InlineConn(raw)))
            except BaseException:
                if raw.in_transaction:
                    raw.execute("ROLLBACK")
                raise
            raw.execute("COMMIT")
            return result

        async with self._lock:
            # aiosqlite's own way of running a function on its thread (what execute() uses)
            return await self._conn.raw._execute(run)

    @asynccontextmanager
    async def exclusive(self) -> AsyncIterator[Conn]:
        """A connection for the migration runner (one process per file at a time suffices:
        each migration re-checks the applied set inside ``BEGIN IMMEDIATE``)."""
        yield self._conn

    def ddl(self, statement: str) -> str:
        return statement

    async def close(self) -> None:
        async with self._lock:
            await self._conn.raw.close()


# ----------------------------------------------------------------------------- PostgreSQL


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``?`` placeholders to PostgreSQL's ``$1, $2, …`` (quoted text is left alone)."""
    out: list[str] = []
    n = 0
    quoted = False
    for char in sql:
        if char == "'":
            quoted = not quoted
        if char == "?" and not quoted:
            n += 1
            out.append(f"${n}")
        else:
            out.append(char)
    return "".join(out)


_PG_TYPES: Final = (
    (
        re.compile(r"\bINTEGER\s+PRIMARY\s+KEY\s+AUTOINCREMENT\b"),
        "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
    ),
    (re.compile(r"\bINTEGER\b"), "BIGINT"),
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
    (re.compile(r"\)\s*WITHOUT\s+ROWID\s*$"), ")"),
)


def postgres_ddl(statement: str) -> str:
    """A migration statement written for SQLite, as PostgreSQL needs it.

    Discord ids are 64-bit (SQLite's INTEGER is, PostgreSQL's is not), timestamps need
    double precision (PostgreSQL's REAL is 32-bit), and the rest is the same SQL.
    """
    text = statement.strip()
    for pattern, replacement in _PG_TYPES:
        text = pattern.sub(replacement, text)
    return text


def lock_number(key: str) -> int:
    """A stable signed 64-bit number for an advisory lock name."""
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big", signed=True)


def _rowcount(status: str) -> int:
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresConn:
    dialect = "postgresql"

    def __init__(self, conn: Any) -> None:
        self.raw = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _rowcount(await self.raw.execute(numbered(sql), *params))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self.raw.executemany(numbered(sql), rows)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self.raw.fetchrow(numbered(sql), *params)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self.raw.fetch(numbered(sql), *params))

    async def lock_key(self, key: str) -> None:
        await self.raw.execute("SELECT pg_advisory_xact_lock($1)", lock_number(key))


class _PoolNoise(logging.Filter):
    """asyncpg's pool logs a warning with a full traceback each time it fails to reconnect
    while the server is away (every few seconds, in every process). That is expected during
    an outage, which the shard keeper already reports: keep one line per outage, with the
    reason, and drop the repeats until a reconnect works again."""

    REPEAT_AFTER = 60.0

    def __init__(self) -> None:
        super().__init__()
        self._last = float("-inf")

    def filter(self, record: logging.LogRecord) -> bool:
        if "pool connection floor" not in record.getMessage():
            return True
        now = time.monotonic()
        quiet = now - self._last < self.REPEAT_AFTER
        self._last = now
        if quiet:
            return False
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            record.msg = (
                "PostgreSQL cannot be reached to refill the connection pool (%s); retrying quietly"
            )
            record.args = (f"{type(error).__name__}: {error}",)
            record.exc_info = None
            record.exc_text = None
        return True


_POOL_NOISE = _PoolNoise()
logging.getLogger("asyncpg.pool").addFilter(_POOL_NOISE)


class PostgresBackend:
    """An asyncpg pool; every read or transaction takes its own connection."""

    dialect = "postgresql"

    def __init__(self, pool: Any, target: str) -> None:
        self._pool = pool
        self.target = target

    @classmethod
    async def open(cls, url: str, *, min_size: int = 1, max_size: int = 10) -> PostgresBackend:
        import asyncpg  # only needed, and only imported, when PostgreSQL is configured

        pool = await asyncpg.create_pool(
            url, min_size=min_size, max_size=max_size, command_timeout=60
        )
        return cls(pool, url)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Conn]:
        async with self._pool.acquire() as conn:
            yield PostgresConn(conn)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Conn]:
        async with self._pool.acquire() as conn, conn.transaction():
            yield PostgresConn(conn)

    async def transact(self, body: Callable[[Conn], Coroutine[Any, Any, T]]) -> T:
        """``body(conn)`` as one transaction (each statement awaited on its connection)."""
        async with self.write() as conn:
            return await body(conn)

    @asynccontextmanager
    async def exclusive(self) -> AsyncIterator[Conn]:
        """Hold the migration lock (a session advisory lock) so that two processes starting
        together migrate one after the other."""
        async with self._pool.acquire() as conn:
            key = lock_number("quantum-table:migrations")
            await conn.execute("SELECT pg_advisory_lock($1)", key)
            try:
                yield PostgresConn(conn)
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", key)

    def ddl(self, statement: str) -> str:
        return postgres_ddl(statement)

    async def close(self) -> None:
        await self._pool.close()


Backend = SqliteBackend | PostgresBackend


def failure_kind(error: BaseException) -> str | None:
    """What kind of storage failure ``error`` is, in a word for counting (None: not one)."""
    if isinstance(error, VersionConflict):
        return "version_conflict"
    if isinstance(error, GameClosed):
        return "game_closed"
    if isinstance(error, GameNotFound):
        return "not_found"
    if isinstance(error, InvalidArgument):
        return "invalid_argument"
    if isinstance(error, MigrationError):
        return "migration"
    if isinstance(error, StorageError):
        return "other"
    return "unavailable" if is_unavailable(error) else None


def is_unavailable(error: BaseException) -> bool:
    """True for storage that cannot answer right now (busy, full, unreachable, read-only),
    as opposed to a refused write: the same step may work when tried again."""
    if isinstance(error, sqlite3.OperationalError | OSError | TimeoutError):
        return True
    try:
        import asyncpg
    except ImportError:  # pragma: no cover - asyncpg is a dependency
        return False
    unavailable = (
        asyncpg.PostgresConnectionError,
        asyncpg.InterfaceError,
        asyncpg.InsufficientResourcesError,
        asyncpg.CannotConnectNowError,
        asyncpg.LockNotAvailableError,
        asyncpg.QueryCanceledError,
    )
    return isinstance(error, unavailable)


# ------------------------------------------------------------------ opening, when it fails


def open_failure(
    target: str | Path, error: BaseException, setting: str | None = None, *, connected: bool = False
) -> DatabaseUnavailable | None:
    """Why ``target`` could not be opened, as one line naming ``setting`` (by default
    ``DATABASE_URL`` or ``DATABASE_PATH``); None for an error that is not about reaching or
    opening the database (a bug: let it show its traceback). ``connected``: the connection
    worked and setting up the tables failed."""
    if is_postgres_url(target):
        problem = _postgres_problem(str(target), error, connected=connected)
        return DatabaseUnavailable(problem, setting or "DATABASE_URL") if problem else None
    problem = _sqlite_problem(str(target), error)
    return DatabaseUnavailable(problem, setting or "DATABASE_PATH") if problem else None


def _reason(error: OSError) -> str:
    """A short reason for a failed connection (asyncpg joins one error per address tried)."""
    if isinstance(error, socket.gaierror):
        return "unknown host"
    if isinstance(error, TimeoutError):
        return "no answer in time"
    text = str(error)
    if isinstance(error, ConnectionRefusedError) or error.errno == errno.ECONNREFUSED:
        return "connection refused"
    if "Connect call failed" in text and f"[Errno {errno.ECONNREFUSED}]" in text:
        return "connection refused"
    return (error.strerror or text or type(error).__name__).rstrip(".").lower()


def _postgres_problem(url: str, error: BaseException, *, connected: bool) -> str | None:
    import asyncpg

    where = server(url)
    found = parts(url)
    user = f'"{found.user}"' if found and found.user else "(no user given)"
    name = f'"{found.database}"' if found and found.database else "(no name given)"
    message = str(getattr(error, "message", "") or error)
    if connected and isinstance(error, asyncpg.InsufficientPrivilegeError):
        return (
            f"PostgreSQL at {where} does not let user {user} create the tables in database"
            f" {name} ({message}; make the user the database's owner)"
        )
    if isinstance(error, asyncpg.InvalidPasswordError):
        if redact(url) == url:  # nothing to hide: the URL has no password
            return f"PostgreSQL at {where} wants a password for user {user}, the URL has none"
        return f"PostgreSQL at {where} refused the password of user {user}"
    if isinstance(error, asyncpg.InvalidAuthorizationSpecificationError):
        return f"PostgreSQL at {where} refused user {user} ({message})"
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        return f"PostgreSQL at {where} has no database {name} (create it first)"
    if isinstance(error, OSError):  # refused, unknown host, timed out, unreachable
        return f"Cannot reach PostgreSQL at {where} ({_reason(error)})"
    if connected and isinstance(error, asyncpg.PostgresError):
        return f"PostgreSQL at {where} could not set up the tables in database {name} ({message})"
    if isinstance(error, asyncpg.PostgresError):  # too many connections, starting up, ...
        return f"PostgreSQL at {where} refused the connection ({message})"
    if isinstance(error, asyncpg.InterfaceError):  # e.g. no password given where one is needed
        return f"Cannot connect to PostgreSQL at {where} as {user} ({message})"
    if isinstance(error, ValueError):  # asyncpg could not read the URL; its words may quote it
        return (
            f"{redact(url)} is not a PostgreSQL URL that can be read"
            " (postgresql://user:password@host:port/database)"
        )
    return None


def _sqlite_problem(path: str, error: BaseException) -> str | None:
    if not isinstance(error, OSError | sqlite3.DatabaseError):
        return None
    if Path(path).is_dir():
        return f"The SQLite database {path} is a folder, not a file"
    blocking = next((p for p in Path(path).parents if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        return f"Cannot open the SQLite database {path}: {blocking} is a file, not a folder"
    reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    return f"Cannot open the SQLite database {path} ({reason})"
