"""Moving to PostgreSQL: ``python -m bot.storage.copy`` round-trips a database with finished
and active games, SQLite → PostgreSQL → SQLite, and refuses to mix two databases."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage import ActionRecord, Database
from bot.storage.copy import TargetNotEmpty, copy, main
from tests.postgres import TempPostgres, free_port
from tests.support.commands import Finished, run_module

from .helpers import GUILD, PASSWORD, ai, human, locked_database, new_game, play_out


async def fill(db: Database) -> list[int]:
    """Finished games (ratings, a leaderboard) and a live one mid-game with its log."""
    alice, bob, carol = human(0, 1, "alice"), human(1, 2, "bob"), human(2, 3, "carol")
    ids = [
        await play_out(db, [[alice], [bob, ai(2)]]),
        await play_out(db, [[bob], [alice], [carol]], game="flume", ended_at=2000.0),
        await play_out(db, [[carol], [alice]], guild_id=GUILD + 1),
    ]
    live = await new_game(db, [human(0, 1, "alice"), ai(1)], game="flux", thread_id=999)
    await db.save_progress(
        live.id, version=1, state_json='{"turn": 0}', actions=[], status="active"
    )
    actions = [
        ActionRecord(version=v, seat=v % 2, action=f"move {v}", user_id=v % 2 or None, at=10.0 + v)
        for v in (2, 3, 4)
    ]
    await db.save_progress(
        live.id, version=4, state_json='{"turn": 3}', actions=actions, deadline_at=99.5
    )
    lobby = await new_game(db, [human(0, 2, "bob")], game="qpoker")
    return [*ids, live.id, lobby.id]


async def contents(db: Database, ids: list[int]) -> dict[str, object]:
    return {
        "games": [await db.load_game(i) for i in ids],
        "actions": [await db.actions(i) for i in ids],
        "results": [await db.results(i) for i in ids],
        "boards": [
            await db.leaderboard(guild, game, limit=50)
            for guild in (GUILD, GUILD + 1)
            for game in ("qdice", "flume")
        ],
        "stats": [await db.user_stats(GUILD, user) for user in (1, 2, 3)],
    }


async def test_round_trip_keeps_every_game_and_board(
    tmp_path: Path, postgres: TempPostgres
) -> None:
    source, back = tmp_path / "source.db", tmp_path / "back.db"
    async with Database.open(source) as db:
        ids = await fill(db)
        before = await contents(db, ids)
    assert before["games"][3].status == "active" and before["games"][4].status == "lobby"  # type: ignore[index]

    url = await postgres.create_database()
    report = await copy(source, url)
    assert report.rows["games"] == 5 and report.rows["actions"] == 3
    assert report.rows["results"] == 8 and report.rows["players"] >= 4
    async with Database.open(url) as pg:
        assert await contents(pg, ids) == before
        newer = await new_game(pg)  # the id counter moved past the copied ids
        assert newer.id > max(ids)
        await pg._run("DELETE FROM games WHERE id = ?", (newer.id,))

    await copy(url, back)
    async with Database.open(back) as db:
        assert await contents(db, ids) == before
        assert (await new_game(db)).id > max(ids)


async def test_copy_refuses_a_target_with_games(tmp_path: Path) -> None:
    source, target = tmp_path / "a.db", tmp_path / "b.db"
    async with Database.open(source) as db:
        await fill(db)
    async with Database.open(target) as db:
        kept = await new_game(db)
    with pytest.raises(TargetNotEmpty, match="1 row"):
        await copy(source, target)
    async with Database.open(target) as db:  # nothing was written
        assert await db.load_game(kept.id) is not None
        assert [tuple(r) for r in await db._query("SELECT COUNT(*) FROM players")] == [(0,)]
        assert [tuple(r) for r in await db._query("SELECT COUNT(*) FROM games")] == [(1,)]


def test_command_line_reports_counts_and_failures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path / "missing.db"), str(tmp_path / "x.db")]) == 1
    assert "no database at" in capsys.readouterr().err
    source = tmp_path / "empty.db"
    assert main([str(source), str(source)]) == 1
    assert "same database" in capsys.readouterr().err


# ------------------------------------------------------- the command, as people run it


async def copy_command(*args: str, cwd: Path, env: dict[str, str] | None = None) -> Finished:
    return await run_module("bot.storage.copy", *args, cwd=cwd, env=env)


async def saved_games(folder: Path) -> Path:
    source = folder / "quantum_table.db"
    async with Database.open(source) as db:
        await fill(db)
    return source


def files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def one_line(done: Finished) -> str:
    """The command failed with exactly one line, and no traceback or password."""
    assert done.code != 0, done.text
    assert "Traceback" not in done.text and PASSWORD not in done.text, done.text
    lines = done.text.strip().splitlines()
    assert len(lines) == 1, done.text
    return lines[0]


async def test_without_a_target_copies_into_database_url_from_env_file(
    tmp_path: Path, postgres_with_passwords: TempPostgres
) -> None:
    """The README's step: DATABASE_URL only in .env, the command given the source alone;
    the success line masks the password."""
    await saved_games(tmp_path)
    _role, url = await locked_database(postgres_with_passwords)
    (tmp_path / ".env").write_text(f"DATABASE_URL={url.format(PASSWORD)}\n")
    done = await copy_command("quantum_table.db", cwd=tmp_path)
    assert done.code == 0, done.text
    assert PASSWORD not in done.text
    assert done.out.startswith("Copied 5 games, ") and done.out.count("\n") == 1
    assert done.out.endswith(f" from quantum_table.db to {url.format('***')}.\n"), done.out
    assert files(tmp_path) == [".env", "quantum_table.db"]
    async with Database.open(url.format(PASSWORD)) as pg:
        assert [tuple(r) for r in await pg._query("SELECT COUNT(*) FROM games")] == [(5,)]


@pytest.mark.parametrize(
    ("target", "says"),
    [
        ("", "the target is empty (an unset shell variable?)"),
        (".", "the target . is a folder"),
        ("backups", "the target backups is a folder"),
        ("notes.txt", "the target notes.txt is not a database"),
        ("./quantum_table.db", "the source and the target are the same database"),
    ],
)
async def test_empty_or_implicit_target_is_refused(tmp_path: Path, target: str, says: str) -> None:
    await saved_games(tmp_path)
    (tmp_path / "backups").mkdir()
    before = files(tmp_path)
    line = one_line(await copy_command("quantum_table.db", target, cwd=tmp_path))
    assert line.startswith("Copy failed, nothing was copied: " + says), line
    if target not in {"", "."}:
        assert "postgresql:// URL or a path ending in .db" in line or "same" in line
    assert files(tmp_path) == before  # no stray database file


async def test_no_target_and_no_database_url(tmp_path: Path) -> None:
    await saved_games(tmp_path)
    (tmp_path / ".env").write_text("DATABASE_URL=\nDATABASE_PATH=quantum_table.db\n")
    line = one_line(await copy_command("quantum_table.db", cwd=tmp_path))
    assert "no target given and DATABASE_URL is not set" in line


async def test_connection_failures_are_one_line(
    tmp_path: Path, postgres_with_passwords: TempPostgres
) -> None:
    """Wrong password, missing database, nothing listening: one line naming what to fix
    (DATABASE_URL when the target came from there, else the argument)."""
    await saved_games(tmp_path)
    server = postgres_with_passwords
    role, url = await locked_database(server)
    wrong = url.format("not-" + PASSWORD)
    (tmp_path / ".env").write_text(f"DATABASE_URL={wrong}\n")
    line = one_line(await copy_command("quantum_table.db", cwd=tmp_path))
    assert line.endswith(
        f'PostgreSQL at 127.0.0.1:{server.port} refused the password of user "{role}":'
        " check DATABASE_URL"
    ), line

    missing = url.format(PASSWORD).rsplit("/", 1)[0] + "/qt_not_made"
    line = one_line(await copy_command("quantum_table.db", missing, cwd=tmp_path))
    assert line.endswith('has no database "qt_not_made" (create it first): check the target URL'), (
        line
    )

    port = free_port()
    nowhere = f"postgresql://{role}:{PASSWORD}@127.0.0.1:{port}/qt"
    line = one_line(await copy_command("quantum_table.db", nowhere, cwd=tmp_path))
    assert line == (
        "Copy failed, nothing was copied: Cannot reach PostgreSQL at "
        f"127.0.0.1:{port} (connection refused): check the target URL"
    )
