"""Taking a seat back from the AI, and rematches, in the hosting core (toy game, real DB)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from bot.engines.base import GameError
from bot.storage.db import Database
from bot.tables.manager import Person, TableManager
from bot.tables.protocols import NotAllowed, NotSeated
from bot.tables.table import Table
from tests.tables.test_manager import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    Recorder,
    _game,
    db,
    manager,
)
from tests.tables.toy import TOY

__all__ = ["db", "manager"]  # the fixtures, shared with the core's tests

DAVE = Person(4, "Dave")


async def _until(check: Callable[[], bool], what: str) -> None:
    for _ in range(500):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


def _current(table: Table) -> int:
    assert table.state is not None
    return table.state.current  # type: ignore[attr-defined,no-any-return]


async def test_who_may_take_a_seat_back_and_it_survives_a_restart(db: Database) -> None:
    first = TableManager(db, {"toy": TOY}, Recorder(), ai_delay=0, turn_timeout=60)
    table = await _game(first, ALICE, BOB, CAROL)
    with pytest.raises(GameError, match=r"^error-not-started-join\b"):
        await first.rejoin(table.id, BOB)  # nothing to take back in a lobby
    await first.start(table.id, ALICE)
    await first.leave(table.id, BOB)
    await first.kick(table.id, ALICE, CAROL.id, is_admin=False)
    with pytest.raises(NotSeated, match=r"^error-left-already\b"):
        await first.leave(table.id, BOB)
    assert table.seats[1].is_ai and table.seats[1].left_user_id == BOB.id
    assert table.seats[2].is_ai and table.seats[2].left_user_id is None  # removed: no way back
    announced = [text for _, text, _ in first.presenter.announced]  # type: ignore[attr-defined]
    assert any(
        "Bob left" in t and "Take my seat back" in t and "/toy rejoin" in t for t in announced
    )
    with pytest.raises(NotSeated, match=r"^error-left-game\b"):
        await first.private_panel(table.id, BOB.id)  # My hand says how to come back
    with pytest.raises(NotSeated, match=r"^error-left-game\b"):
        await first.act(table.id, BOB.id, "add1", None)
    await first.close()

    second = TableManager(db, {"toy": TOY}, Recorder(), ai_delay=0, turn_timeout=60)
    await second.restore()
    again = second.get(table.id)
    assert again.seats[1].left_user_id == BOB.id  # stored with the seat
    with pytest.raises(NotSeated, match=r"^error-nothing-to-take-back\b"):
        await second.rejoin(table.id, CAROL)  # the host removed her
    with pytest.raises(NotSeated, match=r"^error-nothing-to-take-back\b"):
        await second.rejoin(table.id, DAVE)  # never had one
    with pytest.raises(GameError, match=r"^error-already-playing\b"):
        await second.rejoin(table.id, ALICE)
    await second.rejoin(table.id, Person(BOB.id, "Bobby"))  # his name now
    seat = again.seats[1]
    assert (seat.user_id, seat.name, seat.is_ai, seat.left_user_id) == (
        BOB.id,
        "Bobby",
        False,
        None,
    )
    stored = await db.load_game(table.id)
    assert stored is not None and stored.seats[1] == seat
    announced = [text for _, text, _ in second.presenter.announced]  # type: ignore[attr-defined]
    assert any("Bobby took their seat back" in t for t in announced)
    # The AI no longer plays seat 1: Bob's turn waits for Bob, and his move is his own.
    await _until(lambda: _current(again) == 0, "Alice's turn")
    await second.act(table.id, ALICE.id, "add1", None)
    await asyncio.sleep(0.1)
    assert _current(again) == 1 and again.state.totals[1] == 0  # type: ignore[union-attr]
    await second.act(table.id, BOB.id, "add1", None)
    actions = await db.actions(table.id)
    assert (actions[-1].seat, actions[-1].user_id) == (1, BOB.id)
    await second.close()


async def test_taking_a_seat_back_on_ones_turn_starts_the_timer(db: Database) -> None:
    # The AI waits long before moving, so Bob comes back while his seat is to act.
    manager = TableManager(db, {"toy": TOY}, Recorder(), ai_delay=30, turn_timeout=60)
    table = await _game(manager, ALICE, BOB, CAROL)
    await manager.start(table.id, ALICE)
    await manager.leave(table.id, BOB)
    await manager.act(table.id, ALICE.id, "add1", None)
    assert _current(table) == 1 and table.record.deadline_at is None  # only the AI to act
    await manager.rejoin(table.id, BOB)
    assert table.record.deadline_at is not None
    stored = await db.load_game(table.id)
    assert stored is not None and stored.deadline_at == table.record.deadline_at
    await manager.act(table.id, BOB.id, "add2", None)
    assert table.state.totals == [1, 2, 0]  # type: ignore[union-attr]
    await manager.close()


async def _results(db: Database) -> dict[int, tuple[int | None, bool, int]]:
    """Per seat of the last finished game: (user id, won, rank)."""
    finished = (await db.recent_results(GUILD, limit=1))[0].results
    return {r.seat: (r.user_id, r.won, r.rank) for r in finished}


async def test_after_coming_back_the_moves_a_person_made_decide_the_result(
    db: Database,
) -> None:
    manager = TableManager(db, {"toy": TOY}, Recorder(), ai_delay=0, turn_timeout=60)
    # Bob leaves at once and the AI plays one move for him; back, he plays every other one
    # himself and wins: his result counts. Carol leaves and never returns: the game does not
    # count for her (her seat's result goes to no one).
    table = await manager.create(
        "toy", guild_id=GUILD, channel_id=CHANNEL, host=ALICE, options={"goal": 12}, seed=7
    )
    await manager.join(table.id, BOB)
    await manager.join(table.id, CAROL)
    await manager.start(table.id, ALICE)
    await manager.leave(table.id, BOB)
    await manager.leave(table.id, CAROL)
    await manager.act(table.id, ALICE.id, "add1", None)
    await _until(lambda: _current(table) == 0, "the AI's moves for Bob and Carol")
    await manager.rejoin(table.id, BOB)
    while table.record.status == "active":
        if _current(table) == 0:
            await manager.act(table.id, ALICE.id, "add1", None)
        elif _current(table) == 1:
            await manager.act(table.id, BOB.id, "add2", None)
        await asyncio.sleep(0.01)
    moves = await db.moves_by_seat(table.id)
    assert moves[1][0] > moves[1][1] == 1
    results = await _results(db)
    assert results[1][0] == BOB.id and results[1][1]  # his win
    assert results[2][0] is None  # Carol's seat counts for no one
    await manager.close()


async def test_coming_back_for_the_last_move_does_not_earn_the_win(db: Database) -> None:
    manager = TableManager(db, {"toy": TOY}, Recorder(), ai_delay=0, turn_timeout=60)
    table = await manager.create(
        "toy", guild_id=GUILD, channel_id=CHANNEL, host=ALICE, options={"goal": 10}, seed=7
    )
    await manager.join(table.id, BOB)
    await manager.start(table.id, ALICE)
    await manager.leave(table.id, BOB)
    # The AI adds 2 for Bob at each of his turns while Alice adds 1; he returns when his
    # seat needs one more move to win.
    while table.state.totals[1] < 8:  # type: ignore[union-attr]
        if _current(table) == 0:
            await manager.act(table.id, ALICE.id, "add1", None)
        await asyncio.sleep(0.01)
    await _until(lambda: _current(table) == 0, "Alice's turn")
    await manager.rejoin(table.id, BOB)
    await manager.act(table.id, ALICE.id, "add1", None)
    await manager.act(table.id, BOB.id, "add2", None)
    assert table.record.status == "finished"
    results = await _results(db)
    assert results[1][0] == BOB.id and not results[1][1] and results[1][2] == 3  # abandoned
    assert results[0][0] == ALICE.id and results[0][2] == 2
    await manager.close()


# --- rematch ---------------------------------------------------------------------------------


async def _finished(manager: TableManager, *, leaver: Person | None = None) -> Table:
    """Alice (host), Bob and a hard AI; Alice wins at once (goal 2)."""
    table = await manager.create(
        "toy",
        guild_id=GUILD,
        channel_id=CHANNEL,
        host=ALICE,
        options={"goal": 2},
        turn_timeout=90,
        seed=7,
    )
    await manager.join(table.id, BOB)
    if leaver is not None:
        await manager.join(table.id, leaver)
    await manager.add_ai(table.id, ALICE, "hard")
    await manager.start(table.id, ALICE)
    if leaver is not None:
        await manager.leave(table.id, leaver)
    await manager.act(table.id, ALICE.id, "add2", None)
    assert table.record.status == "finished"
    return table


async def test_a_rematch_keeps_game_options_and_ai_and_invites_the_people(
    db: Database,
) -> None:
    manager = TableManager(db, {"toy": TOY}, Recorder(), ai_delay=0, turn_timeout=60)
    old = await _finished(manager, leaver=CAROL)
    with pytest.raises(NotAllowed, match=r"^error-rematch-players-only\b"):
        await manager.rematch(old.id, DAVE)
    with pytest.raises(NotAllowed, match=r"^error-rematch-players-only\b"):
        await manager.rematch(old.id, CAROL)  # she left: her seat was the AI's at the end
    both = await asyncio.gather(manager.rematch(old.id, BOB), manager.rematch(old.id, ALICE))
    assert both[0][0] is both[1][0] and sorted(opened for _, opened in both) == [False, True]
    new = both[0][0]
    host = next(p for (_, opened), p in zip(both, (BOB, ALICE), strict=True) if opened)
    guest = ALICE if host is BOB else BOB
    assert new.record.status == "lobby" and new.id != old.id
    assert new.record.host_id == host.id and new.location_id == old.location_id
    assert new.record.config == {**old.record.config, "rematch_of": old.id}
    # Same seats, without Carol's (an AI took it over): the people, then the hard AI.
    seats = [(s.user_id, s.is_ai, s.level, s.invited) for s in new.seats]
    assert seats == [
        (ALICE.id, False, None, guest is ALICE),
        (BOB.id, False, None, guest is BOB),
        (None, True, "hard", False),
    ]
    assert new.seats[2].name == old.seats[3].name
    stored = await db.load_game(old.id)
    assert stored is not None and stored.config["rematch"] == new.id

    # Restarted, the link and the invitation are still there.
    await manager.close()
    manager = TableManager(db, {"toy": TOY}, Recorder(), ai_delay=0, turn_timeout=60)
    await manager.restore()
    again, opened = await manager.rematch(old.id, guest)
    assert not opened and again.id == new.id and again.seats[guest.id - 1].invited
    with pytest.raises(GameError, match=r"^error-already-seated\b"):
        await manager.join(new.id, host)
    await manager.join(new.id, guest)  # confirms the kept seat
    assert [s.invited for s in again.seats] == [False, False, False]
    await manager.start(new.id, host)
    assert again.record.status == "active" and len(again.seats) == 3
    assert manager.timeout_for(again) == 90
    with pytest.raises(GameError, match=r"^error-rematch-unfinished\b"):
        await manager.rematch(new.id, ALICE)
    await manager.close()


async def test_start_leaves_out_invited_people_who_did_not_join(manager: TableManager) -> None:
    old = await _finished(manager)
    new, _ = await manager.rematch(old.id, BOB)
    assert [s.invited for s in new.seats] == [True, False, False]
    await manager.leave(new.id, BOB)  # the host leaves; only an invitation and an AI remain
    assert new.record.status == "cancelled"
    # That lobby closed unplayed, so Rematch opens another.
    other, opened = await manager.rematch(old.id, BOB)
    assert opened and other.id != new.id
    await manager.rematches.withdraw(other)  # its message could not be posted
    assert other.record.status == "cancelled"
    other, opened = await manager.rematch(old.id, BOB)
    assert opened
    await manager.start(other.id, BOB)  # Bob and the AI: Alice didn't join
    assert [s.user_id for s in other.seats] == [BOB.id, None]
    assert any("Alice didn't join" in line for line in other.log)
    assert (await manager.rematch(old.id, ALICE))[0] is other  # its game runs: that one


async def test_no_rematch_while_another_game_runs_here_or_after_a_cancel(
    manager: TableManager,
) -> None:
    old = await _finished(manager)
    busy = await manager.create("toy", guild_id=GUILD, channel_id=CHANNEL, host=CAROL)
    with pytest.raises(GameError, match=r"^error-rematch-busy\b"):
        await manager.rematch(old.id, ALICE)
    await manager.cancel(busy.id, CAROL, is_admin=False)
    with pytest.raises(GameError, match=r"^error-rematch-unfinished\b"):
        await manager.rematch(busy.id, CAROL)  # a cancelled table has none
    new, opened = await manager.rematch(old.id, ALICE)
    assert opened
    await manager.join(new.id, BOB)
    await manager.start(new.id, ALICE)
    await manager.act(new.id, ALICE.id, "add2", None)
    assert new.record.status == "finished"
    with pytest.raises(GameError, match=r"^error-rematch-done\b"):
        await manager.rematch(old.id, BOB)
    assert (await manager.rematch(new.id, BOB))[1]  # the rematch's own Rematch works
