"""What several processes sharing one database rely on: saves conditional on the version a
move started from, and each process finding only the live games of its own shards."""

from __future__ import annotations

import pytest

from bot.storage import Database
from bot.storage.errors import InvalidArgument, VersionConflict

from .helpers import new_game


def guild_on(shard: int, shard_count: int, n: int = 0) -> int:
    return ((n * shard_count + shard) << 22) | 777


async def test_a_save_must_start_from_the_stored_version(db: Database) -> None:
    game = await new_game(db)
    await db.save_progress(game.id, version=1, expected_version=0, state_json="{}", actions=[])
    with pytest.raises(VersionConflict):  # made from version 0, but the table is at 1 now
        await db.save_progress(game.id, version=2, expected_version=0, state_json="{}", actions=[])
    with pytest.raises(VersionConflict):  # a jump ahead from a version that is not stored
        await db.save_progress(game.id, version=5, expected_version=3, state_json="{}", actions=[])
    await db.save_progress(game.id, version=2, expected_version=1, state_json="{}", actions=[])
    loaded = await db.load_game(game.id)
    assert loaded is not None and loaded.version == 2


async def test_live_games_by_shard(db: Database) -> None:
    count = 4
    ids = {
        shard: [(await new_game(db, guild_id=guild_on(shard, count, n))).id for n in range(2)]
        for shard in range(count)
    }
    finished = await new_game(db, guild_id=guild_on(1, count))
    await db.cancel_game(finished.id)

    mine = await db.active_games(shard_ids=[1, 3], shard_count=count)
    assert [g.id for g in mine] == sorted(ids[1] + ids[3])
    assert all((g.guild_id >> 22) % count in (1, 3) for g in mine)
    every = await db.active_games(shard_ids=range(count), shard_count=count)
    assert len(every) == 8 == len(await db.active_games())
    assert await db.active_games(shard_ids=[], shard_count=count) == []
    with pytest.raises(InvalidArgument):
        await db.active_games(shard_ids=[0])
