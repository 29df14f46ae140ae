"""Fixtures for the whole suite: a real PostgreSQL server, started once per run."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.postgres import PostgresUnavailable, TempPostgres


@pytest.fixture(scope="session")
def postgres() -> Iterator[TempPostgres]:
    """A throwaway PostgreSQL server on 127.0.0.1 (``await postgres.create_database()``).

    Where it cannot start, the tests that need it are skipped with the reason, except in CI
    (``CI=true``), where they fail: CI installs PostgreSQL, so not starting is a bug there.
    """
    yield from _serve(TempPostgres())


@pytest.fixture(scope="session")
def postgres_with_passwords() -> Iterator[TempPostgres]:
    """A second server where every role but the admin must give its password
    (``await server.create_role(name, password)``), for the refused-password cases."""
    yield from _serve(TempPostgres(passwords=True))


def _serve(server: TempPostgres) -> Iterator[TempPostgres]:
    try:
        server.start()
    except PostgresUnavailable as error:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL must run in CI: {error}")
        pytest.skip(f"PostgreSQL is not available here: {error}")
    try:
        yield server
    finally:
        server.stop()
