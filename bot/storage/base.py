"""What every part of the store shares: the backend, its transactions, the shard fence,
and the few checks and helpers the parts use.

Each concern's SQL lives in its own module (``games``, ``results``, ``boards``, ``people``);
:class:`~bot.storage.db.Database` puts them together behind one object.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Coroutine, Generator, Iterator, Sequence
from typing import Any, Final

from .backends import (
    Backend,
    Conn,
    Row,
    T,
)
from .errors import GameNotFound, InvalidArgument
from .leases import Fence, LeaseLost, LeaseStore
from .models import (
    GameStatus,
    SeatRecord,
)

_VALID_STATUSES: Final = frozenset({"lobby", "active", "finished", "cancelled"})
_SQLITE_MAX_VARS: Final = 500  # chunk size for IN (...) lists, well under SQLite's limit


def _check_status(status: str) -> GameStatus:
    if status not in _VALID_STATUSES:
        raise InvalidArgument(f"unknown game status {status!r}")
    return status  # type: ignore[return-value]


def _check_seats(seats: Sequence[SeatRecord]) -> None:
    numbers = [seat.seat for seat in seats]
    if len(set(numbers)) != len(numbers):
        raise InvalidArgument(f"duplicate seat numbers in {numbers}")


def _chunks(values: Sequence[int]) -> Generator[Sequence[int], None, None]:
    for start in range(0, len(values), _SQLITE_MAX_VARS):
        yield values[start : start + _SQLITE_MAX_VARS]


class Store:
    """The plumbing every part of the store builds on. Create a :class:`Database`."""

    def __init__(self, backend: Backend) -> None:
        self._backend = backend
        self._closed = False
        self.fence: Fence | None = None
        """The shards this process holds: with one set, every write for a table checks in
        its own transaction that the table's shard is still ours (see ``leases.py``)."""

    # ------------------------------------------------------------------ plumbing

    def _read(self) -> Any:
        """A connection to read with (``async with``)."""
        return self._backend.read()

    @contextlib.asynccontextmanager
    async def _write(self) -> AsyncIterator[Conn]:
        """One transaction (``async with``): commit on success, roll back on any error."""
        with self._telling_lost():
            async with self._backend.write() as conn:
                yield conn

    async def _transact(self, body: Callable[[Conn], Coroutine[Any, Any, T]]) -> T:
        """``body(conn)`` as one transaction, committed if it returns. On SQLite it runs whole
        on the connection's thread (one trip, for the writes every move makes), so it may
        await nothing but its connection."""
        with self._telling_lost():
            return await self._backend.transact(body)

    @contextlib.contextmanager
    def _telling_lost(self) -> Iterator[None]:
        """A write the fence refused: tell its owner now (on the event loop), not at the next
        renewal, and let the error go on to the caller."""
        try:
            yield
        except LeaseLost as lost:
            if self.fence is not None and self.fence.on_lost is not None:
                with contextlib.suppress(Exception):
                    self.fence.on_lost(lost.shard_id, lost.reason)
            raise

    async def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Rows of one read-only statement (for tests and maintenance tools)."""
        async with self._read() as conn:
            return await conn.fetchall(sql, params)

    async def _run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement in its own transaction (for tests and maintenance tools)."""
        async with self._write() as conn:
            return await conn.execute(sql, params)

    async def _fenced(self, conn: Conn, guild_id: int | None) -> None:
        """Refuse a table write unless this process still holds the server's shard."""
        if self.fence is not None:
            await LeaseStore.check(conn, self.fence, guild_id)

    async def _require(self, conn: Conn, game_id: int, *, lock: bool = False) -> Row:
        """The game's row, or :class:`GameNotFound`. ``lock``: hold its row lock until the
        transaction ends (PostgreSQL; SQLite's write transaction already excludes others)."""
        row = await conn.fetchone(
            "SELECT id, guild_id, game, status, version, results_recorded FROM games WHERE id = ?"
            + (" FOR UPDATE" if lock and conn.dialect == "postgresql" else ""),
            (game_id,),
        )
        if row is None:
            raise GameNotFound(game_id)
        return row
