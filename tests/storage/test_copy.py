"""Moving to PostgreSQL: ``python -m bot.storage.copy`` round-trips a database with finished
and active games, SQLite → PostgreSQL → SQLite, and refuses to mix two databases."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage import ActionRecord, Database
from bot.storage.copy import TargetNotEmpty, copy, main
from tests.postgres import TempPostgres

from .helpers import GUILD, ai, human, new_game, play_out


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
