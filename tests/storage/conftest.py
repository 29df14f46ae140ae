"""Fixtures for storage tests: a fresh in-memory database per test."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.storage import Database


@pytest.fixture
async def db() -> AsyncIterator[Database]:
    database = await Database.open(":memory:")
    try:
        yield database
    finally:
        await database.close()
