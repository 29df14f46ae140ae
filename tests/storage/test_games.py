"""Games, seats, snapshots and the action log: round trips, atomicity, guards, restarts."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.storage import (
    ActionRecord,
    Database,
    GameClosed,
    GameNotFound,
    InvalidArgument,
    SeatRecord,
    VersionConflict,
)

from .helpers import CHANNEL, GUILD, ai, human, new_game


def act(version: int, seat: int = 0, action: str = "roll", user_id: int | None = 1) -> ActionRecord:
    return ActionRecord(
        version=version, seat=seat, action=action, user_id=user_id, at=100.0 + version
    )


async def test_create_and_load_round_trip(db: Database) -> None:
    seats = [human(0, 10, "Ann"), ai(1), human(2, 30, "Cy")]
    record = await db.create_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        game="flume",
        host_id=10,
        config={"variant": "short", "nested": {"a": [1, 2]}},
        seed=2**64 - 1,
        seats=seats,
        thread_id=333,
        created_at=12.5,
    )
    assert record.status == "lobby"
    assert record.version == 0
    assert record.state_json is None
    assert record.seats == seats
    assert record.seed == 2**64 - 1
    assert record.created_at == 12.5
    assert record.thread_id == 333
    assert await db.load_game(record.id) == record
    assert await db.load_game(record.id + 1000) is None


async def test_seats_keep_who_left_and_who_is_invited(db: Database) -> None:
    # A rematch lobby: a seat kept for an invited person (a 64-bit Discord id).
    invited = SeatRecord(seat=1, user_id=2**62 + 5, name="Bo", is_ai=False, invited=True)
    record = await new_game(db, [human(0, 1), invited])
    assert (await db.load_game(record.id)).seats[1] == invited  # type: ignore[union-attr]
    # A running game: an AI plays the seat of a person who left and may take it back.
    left = SeatRecord(seat=1, user_id=None, name="Bo (AI)", is_ai=True, left_user_id=2**62 + 5)
    await db.update_game(record.id, seats=[human(0, 1), left])
    loaded = await db.load_game(record.id)
    assert loaded is not None and loaded.seats == [human(0, 1), left]
    assert not loaded.seats[1].invited and loaded.seats[0].left_user_id is None


async def test_create_refuses_duplicate_seats(db: Database) -> None:
    with pytest.raises(InvalidArgument):
        await new_game(db, [human(0, 1), human(0, 2)])


async def test_update_game_fields_and_seats(db: Database) -> None:
    record = await new_game(db)
    new_seats = [human(0, 1), human(1, 2, "Bo"), ai(2)]
    updated = await db.update_game(
        record.id,
        status="active",
        host_id=2,
        message_id=999,
        thread_id=444,
        config={"rounds": 5},
        seats=new_seats,
        deadline_at=500.0,
    )
    assert updated.status == "active"
    assert updated.host_id == 2
    assert updated.message_id == 999
    assert updated.thread_id == 444
    assert updated.config == {"rounds": 5}
    assert updated.seats == new_seats
    assert updated.deadline_at == 500.0
    assert updated.version == 0
    assert await db.load_game(record.id) == updated
    cleared = await db.update_game(record.id, deadline_at=None, seats=[human(0, 1)])
    assert cleared.deadline_at is None
    assert cleared.seats == [human(0, 1)]


async def test_update_game_refuses_unknown_fields_and_values(db: Database) -> None:
    record = await new_game(db)
    with pytest.raises(InvalidArgument):
        await db.update_game(record.id, version=5)
    with pytest.raises(InvalidArgument):
        await db.update_game(record.id, status="paused")
    with pytest.raises(InvalidArgument):
        await db.update_game(record.id, host_id=None)
    with pytest.raises(GameNotFound):
        await db.update_game(record.id + 1, status="active")
    assert await db.load_game(record.id) == record


async def test_save_progress_round_trip(db: Database) -> None:
    record = await new_game(db)
    await db.save_progress(
        record.id, version=1, state_json='{"turn": 1}', actions=[act(1)], status="active"
    )
    autopiloted = [
        SeatRecord(seat=0, user_id=1, name="user1", is_ai=False, autopilot=True),
        ai(1),
    ]
    await db.save_progress(
        record.id,
        version=3,
        state_json='{"turn": 3}',
        actions=[act(2, seat=1, action="hold", user_id=None), act(3, user_id=None)],
        seats=autopiloted,
        deadline_at=900.0,
    )
    loaded = await db.load_game(record.id)
    assert loaded is not None
    assert loaded.version == 3
    assert loaded.status == "active"
    assert loaded.state_json == '{"turn": 3}'
    assert loaded.seats == autopiloted
    assert loaded.deadline_at == 900.0
    assert await db.actions(record.id) == [
        act(1),
        act(2, seat=1, action="hold", user_id=None),
        act(3, user_id=None),
    ]
    assert [a.version for a in await db.actions(record.id, after_version=1)] == [2, 3]
    # Only the latest snapshot is kept.
    rows = await db._query("SELECT COUNT(*) FROM snapshots WHERE game_id = ?", (record.id,))
    assert next(iter(rows))[0] == 1


async def test_deadline_unchanged_by_default_and_clearable(db: Database) -> None:
    record = await new_game(db)
    await db.save_progress(record.id, version=1, state_json="{}", actions=[], deadline_at=50.0)
    await db.save_progress(record.id, version=2, state_json="{}", actions=[])
    loaded = await db.load_game(record.id)
    assert loaded is not None and loaded.deadline_at == 50.0
    await db.save_progress(record.id, version=3, state_json="{}", actions=[], deadline_at=None)
    loaded = await db.load_game(record.id)
    assert loaded is not None and loaded.deadline_at is None


async def test_version_guard(db: Database) -> None:
    record = await new_game(db)
    await db.save_progress(record.id, version=2, state_json="v2", actions=[act(1), act(2)])
    for stale in (0, 1, 2):
        with pytest.raises(VersionConflict) as info:
            await db.save_progress(record.id, version=stale, state_json="stale", actions=[])
        assert info.value.stored == 2
    # An action at or below the stored version is a conflict even if the save advances.
    with pytest.raises(VersionConflict):
        await db.save_progress(record.id, version=4, state_json="x", actions=[act(2), act(3)])
    loaded = await db.load_game(record.id)
    assert loaded is not None and (loaded.version, loaded.state_json) == (2, "v2")
    assert [a.version for a in await db.actions(record.id)] == [1, 2]


async def test_action_versions_are_validated(db: Database) -> None:
    record = await new_game(db)
    with pytest.raises(InvalidArgument):
        await db.save_progress(record.id, version=3, state_json="x", actions=[act(2), act(1)])
    with pytest.raises(InvalidArgument):
        await db.save_progress(record.id, version=1, state_json="x", actions=[act(2)])
    with pytest.raises(GameNotFound):
        await db.save_progress(record.id + 5, version=1, state_json="x", actions=[])


async def test_save_progress_is_atomic_on_a_failing_action_row(db: Database) -> None:
    record = await new_game(db)
    await db.save_progress(record.id, version=1, state_json="v1", actions=[act(1)])
    # model_construct skips validation, so the NOT NULL constraint fails inside the
    # transaction, after the snapshot has already been written.
    bad = ActionRecord.model_construct(version=3, seat=0, action=None, user_id=None, at=1.0)
    with pytest.raises(Exception, match=r"(?i)not.null"):
        await db.save_progress(
            record.id,
            version=3,
            state_json="v3",
            actions=[act(2), bad],
            status="active",
            deadline_at=77.0,
        )
    assert await db.load_game(record.id) == record.model_copy(
        update={"version": 1, "state_json": "v1"}
    )
    assert [a.version for a in await db.actions(record.id)] == [1]
    # The connection is usable afterwards and the next save lands.
    await db.save_progress(record.id, version=2, state_json="v2", actions=[act(2)])
    assert [a.version for a in await db.actions(record.id)] == [1, 2]


async def test_save_progress_is_atomic_when_the_last_step_fails(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = await new_game(db)

    async def explode(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(Database, "_replace_seats", staticmethod(explode))
    with pytest.raises(RuntimeError, match="disk on fire"):
        await db.save_progress(
            record.id,
            version=1,
            state_json="v1",
            actions=[act(1)],
            status="active",
            seats=[human(0, 1)],
        )
    monkeypatch.undo()
    assert await db.load_game(record.id) == record
    assert await db.actions(record.id) == []


async def test_cancelled_mid_transaction_rolls_back(db: Database) -> None:
    record = await new_game(db)
    gate = asyncio.Event()

    async def slow() -> None:
        async with db._write() as conn:
            await conn.execute("UPDATE games SET version = 5 WHERE id = ?", (record.id,))
            gate.set()
            await asyncio.sleep(10)

    task = asyncio.create_task(slow())
    await gate.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await db.load_game(record.id) == record


async def test_cancellation_at_any_point_is_all_or_nothing(db: Database) -> None:
    record = await new_game(db)
    version = 0
    for ticks in range(40):
        task = asyncio.create_task(
            db.save_progress(
                record.id,
                version=version + 1,
                state_json=f"v{version + 1}",
                actions=[act(version + 1)],
            )
        )
        for _ in range(ticks):
            await asyncio.sleep(0)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        loaded = await db.load_game(record.id)
        assert loaded is not None
        assert loaded.version in (version, version + 1)
        version = loaded.version
        assert loaded.state_json == (f"v{version}" if version else None)
        assert [a.version for a in await db.actions(record.id)] == list(range(1, version + 1))
    # The connection is left clean: a normal save still lands. (How many cancelled saves
    # landed depends on thread timing, so it is not asserted.)
    await db.save_progress(record.id, version=version + 1, state_json="last", actions=[])
    loaded = await db.load_game(record.id)
    assert loaded is not None and loaded.state_json == "last"


async def test_closed_games_accept_no_progress(db: Database) -> None:
    record = await new_game(db)
    assert await db.cancel_game(record.id, ended_at=5.0) is True
    assert await db.cancel_game(record.id, ended_at=6.0) is False
    loaded = await db.load_game(record.id)
    assert loaded is not None and loaded.status == "cancelled" and loaded.ended_at == 5.0
    with pytest.raises(GameClosed):
        await db.save_progress(record.id, version=1, state_json="x", actions=[])
    with pytest.raises(GameNotFound):
        await db.cancel_game(record.id + 1)


async def test_active_game_lookups(db: Database) -> None:
    lobby = await new_game(db, channel_id=1)
    playing = await new_game(db, channel_id=2, thread_id=20)
    done = await new_game(db, channel_id=3)
    await db.update_game(playing.id, status="active")
    await db.cancel_game(done.id)
    assert [g.id for g in await db.active_games()] == [lobby.id, playing.id]
    assert [g.id for g in await db.active_games(guild_id=GUILD + 1)] == []
    found = await db.active_game_in_channel(1)
    assert found is not None and found.id == lobby.id
    in_thread = await db.active_game_in_channel(20)
    assert in_thread is not None and in_thread.id == playing.id
    assert await db.active_game_in_channel(3) is None
    assert await db.active_game_in_channel(404) is None


async def test_active_games_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "data" / "bot.db"
    async with Database.open(path) as db:
        live = await new_game(db, [human(0, 1), human(1, 2), ai(2)])
        await db.update_game(live.id, status="active", message_id=77)
        await db.save_progress(
            live.id, version=2, state_json='{"s": 2}', actions=[act(1), act(2)], deadline_at=9.5
        )
        ended = await new_game(db)
        await db.cancel_game(ended.id)
        before = await db.load_game(live.id)
    async with Database.open(path) as db:
        restored = await db.active_games()
        assert restored == [before]
        assert [a.version for a in await db.actions(live.id)] == [1, 2]


async def test_concurrent_writers_all_land(tmp_path: Path) -> None:
    async with Database.open(tmp_path / "bot.db") as db:
        games = await asyncio.gather(*(new_game(db, channel_id=i) for i in range(20)))

        async def play(game_id: int) -> None:
            for version in range(1, 6):
                await db.save_progress(
                    game_id,
                    version=version,
                    state_json=f'{{"v": {version}}}',
                    actions=[act(version)],
                    status="active",
                )

        await asyncio.gather(*(play(g.id) for g in games))
        # Concurrent stale writers on one game: exactly one wins each version.
        target = games[0].id
        outcomes = await asyncio.gather(
            *(
                db.save_progress(target, version=6, state_json=f"racer{i}", actions=[act(6)])
                for i in range(5)
            ),
            return_exceptions=True,
        )
        assert sum(o is None for o in outcomes) == 1
        assert all(isinstance(o, VersionConflict) for o in outcomes if o is not None)
        for g in games:
            loaded = await db.load_game(g.id)
            assert loaded is not None
            assert loaded.version == (6 if g.id == target else 5)
            assert len(await db.actions(g.id)) == loaded.version


async def test_prune_drops_old_logs_but_keeps_results(db: Database) -> None:
    from .helpers import result

    old = await new_game(db)
    await db.save_progress(old.id, version=1, state_json="x", actions=[act(1)])
    seats = old.seats
    await db.finish_game(
        old.id,
        guild_id=GUILD,
        game="qdice",
        results=[result(seats[0], 1), result(seats[1], 2)],
        ended_at=1000.0,
    )
    recent = await new_game(db)
    await db.save_progress(recent.id, version=1, state_json="y", actions=[act(1)])
    await db.cancel_game(recent.id, ended_at=1000.0 + 40 * 86400)
    live = await new_game(db)
    await db.save_progress(live.id, version=1, state_json="z", actions=[act(1)])

    now = 1000.0 + 45 * 86400
    assert await db.prune(older_than_days=30, now=now) == 1
    assert await db.prune(older_than_days=30, now=now) == 0
    pruned = await db.load_game(old.id)
    assert pruned is not None and pruned.state_json is None and pruned.status == "finished"
    assert await db.actions(old.id) == []
    assert len(await db.results(old.id)) == 2
    for kept in (recent.id, live.id):
        assert len(await db.actions(kept)) == 1
