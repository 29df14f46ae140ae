"""Fixtures for storage tests: a fresh database per test, on each backend."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.storage import Database


@pytest.fixture(params=["sqlite", "postgresql"])
async def db(request: pytest.FixtureRequest) -> AsyncIterator[Database]:
    """Every storage test runs against an in-memory SQLite and a fresh PostgreSQL database."""
    if request.param == "sqlite":
        target = ":memory:"
    else:
        target = await request.getfixturevalue("postgres").create_database()
    database = await Database.open(target)
    try:
        yield database
    finally:
        await database.close()
