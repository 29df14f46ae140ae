"""Transactions as a function of the connection (``Store._transact``): all or nothing on both
backends, and on SQLite one trip to the connection's thread for the writes every move makes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.storage import ActionRecord, Database
from bot.storage.backends import BodyWaited, Conn

from .helpers import human, new_game


async def _version(db: Database, game_id: int) -> int:
    rows = await db._query("SELECT version FROM games WHERE id = ?", (game_id,))
    return int(rows[0]["version"])


async def test_a_body_that_returns_commits_and_one_that_raises_writes_nothing(
    db: Database,
) -> None:
    record = await new_game(db)

    async def bump(conn: Conn) -> int:
        return await conn.execute("UPDATE games SET version = 7 WHERE id = ?", (record.id,))

    assert await db._transact(bump) == 1
    assert await _version(db, record.id) == 7

    async def bump_then_fail(conn: Conn) -> None:
        await conn.execute("UPDATE games SET version = 9 WHERE id = ?", (record.id,))
        row = await conn.fetchone("SELECT version FROM games WHERE id = ?", (record.id,))
        assert row is not None and row["version"] == 9  # seen inside the transaction
        raise LookupError("changed my mind")

    with pytest.raises(LookupError):
        await db._transact(bump_then_fail)
    assert await _version(db, record.id) == 7
    # The connection is clean afterwards: a block-style transaction works.
    await db._run("UPDATE games SET version = 8 WHERE id = ?", (record.id,))
    assert await _version(db, record.id) == 8


@pytest.fixture
async def sqlite_db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(str(tmp_path / "trips.db"))
    try:
        yield database
    finally:
        await database.close()


def count_trips(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every function aiosqlite runs on its connection's thread from now on."""
    trips: list[Any] = []
    real = aiosqlite.Connection._execute

    async def counted(self: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
        trips.append(fn)
        return await real(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
    return trips


async def test_a_moves_save_is_one_trip_to_sqlites_thread(
    sqlite_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each trip waits for the event loop (and, while another thread draws, for the
    interpreter): a move's save makes one, whatever it writes."""
    record = await new_game(sqlite_db)
    trips = count_trips(monkeypatch)
    action = ActionRecord(version=1, seat=0, action="roll", user_id=1, at=1.0)
    await sqlite_db.save_progress(
        record.id,
        version=1,
        expected_version=0,
        state_json="v1",
        actions=[action],
        status="active",
        seats=[human(0, 1), human(1, 2)],
        deadline_at=50.0,
    )
    assert len(trips) == 1
    updated = await sqlite_db.update_game(record.id, message_id=99, seats=[human(0, 1)])
    assert len(trips) == 2  # and a lobby change (seats, the message shown) one more
    assert updated.message_id == 99 and updated.version == 1 and len(updated.seats) == 1
    assert [a.action for a in await sqlite_db.actions(record.id)] == ["roll"]


async def test_a_body_that_waits_for_anything_else_is_refused_on_sqlite(
    sqlite_db: Database,
) -> None:
    """Run on SQLite's own thread, a body cannot wait for the event loop: it is stopped,
    and nothing it wrote is kept."""
    record = await new_game(sqlite_db)

    async def waits(conn: Conn) -> None:
        await conn.execute("UPDATE games SET version = 5 WHERE id = ?", (record.id,))
        await asyncio.sleep(0)

    with pytest.raises(BodyWaited):
        await sqlite_db._transact(waits)
    assert await _version(sqlite_db, record.id) == 0
