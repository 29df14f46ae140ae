"""A database that cannot be opened is one line naming the setting to fix, never a
driver's traceback and never the password: against the real PostgreSQL and real files."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage import Database, DatabaseUnavailable
from tests.postgres import TempPostgres, free_port

from .helpers import PASSWORD, locked_database


async def open_error(target: str | Path, **options: str) -> str:
    with pytest.raises(DatabaseUnavailable) as caught:
        async with Database.open(target, **options):  # type: ignore[arg-type]
            pass
    message = str(caught.value)
    assert "\n" not in message and PASSWORD not in message
    return message


async def test_right_and_wrong_password(postgres_with_passwords: TempPostgres) -> None:
    role, url = await locked_database(postgres_with_passwords)
    async with Database.open(url.format(PASSWORD)) as db:  # the right one opens
        assert db.dialect == "postgresql"
    message = await open_error(url.format("not-" + PASSWORD))
    where = f"127.0.0.1:{postgres_with_passwords.port}"
    assert message == (
        f'PostgreSQL at {where} refused the password of user "{role}": check DATABASE_URL'
    )
    missing = await open_error(url.replace(":{}@", "@"))
    assert "wants a password" in missing and missing.endswith("check DATABASE_URL")


async def test_missing_database_and_role(postgres: TempPostgres) -> None:
    url = f"postgresql://postgres@127.0.0.1:{postgres.port}/qt_never_made"
    message = await open_error(url)
    assert message == (
        f'PostgreSQL at 127.0.0.1:{postgres.port} has no database "qt_never_made"'
        " (create it first): check DATABASE_URL"
    )
    real = await postgres.create_database()
    message = await open_error(real.replace("//postgres@", f"//ghost:{PASSWORD}@"))
    assert 'refused user "ghost"' in message and 'role "ghost" does not exist' in message


async def test_unreachable_server_names_the_setting_given() -> None:
    port = free_port()  # nothing listens there
    url = f"postgresql://qt:{PASSWORD}@127.0.0.1:{port}/qt"
    assert await open_error(url) == (
        f"Cannot reach PostgreSQL at 127.0.0.1:{port} (connection refused): check DATABASE_URL"
    )
    message = await open_error(url, setting="the target URL")
    assert message.endswith("(connection refused): check the target URL")


async def test_sqlite_folder_or_foreign_file(tmp_path: Path) -> None:
    assert await open_error(tmp_path) == (
        f"The SQLite database {tmp_path} is a folder, not a file: check DATABASE_PATH"
    )
    junk = tmp_path / "notes.db"
    junk.write_text("not a database " * 200)
    message = await open_error(junk)
    assert message == (
        f"Cannot open the SQLite database {junk} (file is not a database): check DATABASE_PATH"
    )


async def test_a_role_that_may_not_create_the_tables(postgres_with_passwords: TempPostgres) -> None:
    """PostgreSQL 15 on: only the owner may create tables in a database's public schema."""
    server = postgres_with_passwords
    role, owned = await locked_database(server)
    admins = (await server.create_database()).rsplit("/", 1)[1]  # owned by postgres
    url = owned.format(PASSWORD).rsplit("/", 1)[0] + "/" + admins
    message = await open_error(url)
    assert message.startswith(
        f'PostgreSQL at 127.0.0.1:{server.port} does not let user "{role}" create the tables'
        f' in database "{admins}" (permission denied for schema public;'
    ), message
    assert message.endswith("make the user the database's owner): check DATABASE_URL")


async def test_sqlite_path_through_a_file(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("a file where a folder should be")
    target = tmp_path / "data" / "quantum_table.db"
    assert await open_error(target) == (
        f"Cannot open the SQLite database {target}: {tmp_path / 'data'} is a file, not a folder:"
        " check DATABASE_PATH"
    )
