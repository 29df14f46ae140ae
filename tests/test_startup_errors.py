"""``python -m bot`` whose database cannot be opened stops with one line naming the setting
to fix: no traceback, no password, a non-zero exit. With a token (against the loopback
Discord, the database opens in ``setup_hook`` right after logging in) and without one (the
sandbox, where it must not pass for a port problem). Real PostgreSQL servers, real files."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.sandbox.loopback import LoopbackDiscord
from tests.postgres import TempPostgres, free_port
from tests.storage.helpers import PASSWORD, locked_database
from tests.support.commands import Finished, run_module

Case = Callable[[pytest.FixtureRequest, Path], Awaitable[tuple[dict[str, str], str]]]


async def wrong_password(
    request: pytest.FixtureRequest, folder: Path
) -> tuple[dict[str, str], str]:
    server: TempPostgres = request.getfixturevalue("postgres_with_passwords")
    role, url = await locked_database(server)
    settings = {"DATABASE_URL": url.format("not-" + PASSWORD)}
    return settings, (
        f'PostgreSQL at 127.0.0.1:{server.port} refused the password of user "{role}":'
        " check DATABASE_URL"
    )


async def missing_database(
    request: pytest.FixtureRequest, folder: Path
) -> tuple[dict[str, str], str]:
    server: TempPostgres = request.getfixturevalue("postgres")
    url = f"postgresql://postgres:{PASSWORD}@127.0.0.1:{server.port}/qt_not_made"
    return {"DATABASE_URL": url}, (
        f'PostgreSQL at 127.0.0.1:{server.port} has no database "qt_not_made"'
        " (create it first): check DATABASE_URL"
    )


async def missing_role(request: pytest.FixtureRequest, folder: Path) -> tuple[dict[str, str], str]:
    server: TempPostgres = request.getfixturevalue("postgres")
    url = (await server.create_database()).replace("//postgres@", f"//ghost:{PASSWORD}@")
    return {"DATABASE_URL": url}, (
        f'PostgreSQL at 127.0.0.1:{server.port} refused user "ghost"'
        ' (role "ghost" does not exist): check DATABASE_URL'
    )


async def nothing_listening(
    request: pytest.FixtureRequest, folder: Path
) -> tuple[dict[str, str], str]:
    port = free_port()
    url = f"postgresql://qt:{PASSWORD}@127.0.0.1:{port}/qt"
    return {"DATABASE_URL": url}, (
        f"Cannot reach PostgreSQL at 127.0.0.1:{port} (connection refused): check DATABASE_URL"
    )


async def sqlite_folder(request: pytest.FixtureRequest, folder: Path) -> tuple[dict[str, str], str]:
    (folder / "data.db").mkdir()
    return {"DATABASE_PATH": "data.db"}, (
        "The SQLite database data.db is a folder, not a file: check DATABASE_PATH"
    )


CASES = [wrong_password, missing_database, missing_role, nothing_listening, sqlite_folder]


def stops_with(done: Finished, line: str) -> None:
    assert done.code == 1, done.text
    assert "Traceback" not in done.text and PASSWORD not in done.text, done.text
    assert " ERROR " not in done.text and "Unclosed" not in done.text, done.text
    assert done.err.strip().splitlines()[-1] == line, done.text
    assert done.text.count(line) == 1, done.text


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.__name__)
async def test_with_a_token(request: pytest.FixtureRequest, tmp_path: Path, case: Case) -> None:
    settings, line = await case(request, tmp_path)
    async with LoopbackDiscord() as fake:
        fake.add_guild("Start")
        done = await run_module(
            "bot",
            cwd=tmp_path,
            env={"DISCORD_TOKEN": fake.token, "QT_LOOPBACK_URL": fake.url, **settings},
        )
        assert not fake.gateway.connected
    stops_with(done, line)


@pytest.mark.parametrize(
    "case", [wrong_password, nothing_listening, sqlite_folder], ids=lambda case: case.__name__
)
async def test_in_the_sandbox(request: pytest.FixtureRequest, tmp_path: Path, case: Case) -> None:
    settings, line = await case(request, tmp_path)
    done = await run_module("bot", cwd=tmp_path, env={"SANDBOX_PORT": "0", **settings})
    stops_with(done, line)
    assert "SANDBOX_PORT" not in done.text and "Cannot open the sandbox" not in done.text


async def test_a_mistyped_database_url_hides_its_password(tmp_path: Path) -> None:
    url = f"mysql://qt:{PASSWORD}@127.0.0.1:3306/qt"
    done = await run_module("bot", cwd=tmp_path, env={"DISCORD_TOKEN": "x", "DATABASE_URL": url})
    assert done.code == 2, done.text
    assert done.err == (
        "Configuration error: DATABASE_URL: must start with postgresql:// (leave it empty to"
        " use SQLite) (got 'mysql://qt:***@127.0.0.1:3306/qt')\n"
    )


async def test_an_unreachable_discord_is_one_line(tmp_path: Path) -> None:
    port = free_port()  # nothing listens there: Discord cannot be reached
    done = await run_module(
        "bot",
        cwd=tmp_path,
        env={"DISCORD_TOKEN": "x.y.z", "QT_LOOPBACK_URL": f"http://127.0.0.1:{port}"},
    )
    assert done.code == 1, done.text
    assert "Traceback" not in done.text and " ERROR " not in done.text, done.text
    assert "Unclosed" not in done.text, done.text
    last = done.err.strip().splitlines()[-1]
    assert last.startswith("Cannot reach Discord (") and "check this machine's network" in last
