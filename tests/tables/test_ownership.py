"""Tables across processes: each table belongs to its server's shard, and a save is
conditional on the version it started from, so two holders of one table never apply a move
twice. Two managers on one database stand in for two processes here; the subprocess version
is in tests/e2e/test_scale.py.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.cluster.sharding import ShardSet
from bot.storage.db import Database
from bot.tables.manager import Person, TableManager
from bot.tables.protocols import NotYourTurn, TableMovedOn, TableNotFound
from bot.tables.table import Table
from tests.tables.test_manager import Recorder
from tests.tables.toy import TOY

ALICE, BOB = Person(1, "Alice"), Person(2, "Bob")
SHARD_COUNT = 4


def guild_on(shard: int, n: int = 0) -> int:
    """A server id whose shard is ``shard`` (ids are snowflakes: the shard is in bits 22+)."""
    return ((n * SHARD_COUNT + shard) << 22) | 12345


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "shared.db")
    yield database
    await database.close()


def manager(db: Database, shards: ShardSet | None = None, **kw: object) -> TableManager:
    return TableManager(db, {"toy": TOY}, Recorder(), ai_delay=0, shards=shards, **kw)  # type: ignore[arg-type]


async def open_game(core: TableManager, guild_id: int, channel_id: int) -> Table:
    table = await core.create("toy", guild_id=guild_id, channel_id=channel_id, host=ALICE, seed=3)
    await core.attach_message(table, channel_id + 1)
    await core.join(table.id, BOB)
    await core.start(table.id, ALICE)
    return table


async def test_restore_takes_only_the_tables_of_this_process_shards(db: Database) -> None:
    opener = manager(db)
    games = {shard: await open_game(opener, guild_on(shard), 1000 + shard) for shard in range(4)}
    await opener.close()

    low, high = (
        manager(db, ShardSet((0, 1), SHARD_COUNT)),
        manager(db, ShardSet((2, 3), SHARD_COUNT)),
    )
    assert await low.restore() == 2 and await high.restore() == 2
    assert {t.id for t in low.tables()} == {games[0].id, games[1].id}
    assert {t.id for t in high.tables()} == {games[2].id, games[3].id}
    with pytest.raises(TableNotFound):  # a click can never make us host another shard's table
        await low.fetch(games[3].id)
    await low.close()
    await high.close()


async def test_a_click_before_restore_loads_the_table_at_once(db: Database) -> None:
    opener = manager(db)
    table = await open_game(opener, guild_on(1), 2000)
    await opener.close()
    later = manager(db, ShardSet((1,), SHARD_COUNT))  # restore has not run yet
    await later.act(table.id, ALICE.id, "add2", None)
    assert later.get(table.id).state.totals == [2, 0]  # type: ignore[union-attr]
    await later.close()


async def test_two_holders_of_one_table_never_apply_a_move_twice(db: Database) -> None:
    first = manager(db)
    table = await open_game(first, guild_on(2), 3000)
    second = manager(db)
    copy = await second.fetch(table.id)  # both processes now hold the table
    assert copy is not table and copy.record.version == table.record.version

    await first.act(table.id, ALICE.id, "add1", None)
    # The second holder still thinks Alice is to move: its save is refused, it reloads.
    with pytest.raises(TableMovedOn):
        await second.act(table.id, ALICE.id, "add2", None)
    assert copy.record.version == table.record.version
    assert copy.state.totals == [1, 0]  # type: ignore[union-attr]
    with pytest.raises(NotYourTurn):  # after the reload it knows Bob is to move
        await second.act(table.id, ALICE.id, "add2", None)
    await second.act(table.id, BOB.id, "add2", None)

    log = await db.actions(table.id)
    assert [a.version for a in log] == list(range(2, 2 + len(log)))  # one move per version
    assert [(a.seat, a.action) for a in log] == [(0, "add1"), (1, "add2")]
    await first.close()
    await second.close()


async def test_racing_holders_apply_each_version_once(db: Database) -> None:
    first = manager(db)
    table = await open_game(first, guild_on(3), 4000)
    second = manager(db)
    await second.fetch(table.id)
    outcomes = await asyncio.gather(
        first.act(table.id, ALICE.id, "add1", None),
        second.act(table.id, ALICE.id, "add2", None),
        return_exceptions=True,
    )
    assert sum(isinstance(o, Table) for o in outcomes) == 1
    assert sum(isinstance(o, TableMovedOn) for o in outcomes) == 1
    log = await db.actions(table.id)
    assert len(log) == 1
    await first.close()
    await second.close()


async def test_an_ai_seat_moved_elsewhere_is_not_moved_again(db: Database) -> None:
    """The runner of a table that another process moved reloads instead of moving twice."""
    first = manager(db)
    table = await first.create("toy", guild_id=guild_on(0), channel_id=5000, host=ALICE, seed=4)
    await first.add_ai(table.id, ALICE)
    await first.start(table.id, ALICE)
    await first.act(table.id, ALICE.id, "add1", None)
    for _ in range(100):  # the AI answers in the first process
        if table.state.current == 0:  # type: ignore[union-attr]
            break
        await asyncio.sleep(0.01)
    second = manager(db)
    copy = await second.fetch(table.id)
    await second.act(copy.id, ALICE.id, "add1", None)  # the second process moves Alice
    for _ in range(200):
        if len(await db.actions(table.id)) >= 4:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    log = await db.actions(table.id)
    assert len(log) >= 4
    assert [a.version for a in log] == list(range(2, 2 + len(log)))
    # Turns alternate in the toy race: a move applied twice would show one seat twice running.
    assert all(a.seat != b.seat for a, b in itertools.pairwise(log)), log
    await first.close()
    await second.close()
