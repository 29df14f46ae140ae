"""The hosting core on its own: a toy game, an in-memory presenter and a real database."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.engines.base import GameError
from bot.storage.db import Database
from bot.storage.models import ActionRecord
from bot.tables.manager import Person, TableManager
from bot.tables.protocols import NotAllowed, NotSeated, NotYourTurn, StaleAction
from bot.tables.table import Table
from bot.tables.views import Panel
from tests.tables.toy import TOY

ALICE, BOB, CAROL = Person(1, "Alice"), Person(2, "Bob"), Person(3, "Carol")
GUILD, CHANNEL = 100, 200


class Recorder:
    """A presenter that remembers what it was asked to show."""

    def __init__(self) -> None:
        self.shown: list[tuple[int, Panel]] = []
        self.announced: list[tuple[int, str, int | None]] = []

    async def show(self, table: Table, panel: Panel) -> None:
        self.shown.append((table.id, panel))

    async def announce(self, table: Table, text: str, mention: int | None = None) -> None:
        self.announced.append((table.id, text, mention))

    async def ping(self, table: Table, user_id: int, text: str) -> int | None:
        self.pings = getattr(self, "pings", [])
        self.pings.append((table.id, user_id, text))
        return len(self.pings)

    async def unping(self, table: Table, message_id: int) -> None:
        self.unpinged = getattr(self, "unpinged", [])
        self.unpinged.append(message_id)

    def private_changed(self, table: Table) -> None:
        self.private_updates = getattr(self, "private_updates", 0) + 1


@pytest.fixture
async def db(tmp_path: Path):
    database = await Database.open(tmp_path / "core.db")
    yield database
    await database.close()


@pytest.fixture
async def manager(db: Database):
    core = TableManager(db, {"toy": TOY}, Recorder(), ai_delay=0, turn_timeout=60)
    yield core
    await core.close()


async def _game(
    manager: TableManager, *people: Person, ai: int = 0, channel: int = CHANNEL
) -> Table:
    table = await manager.create("toy", guild_id=GUILD, channel_id=channel, host=people[0], seed=7)
    await manager.attach_message(table, 999)
    for person in people[1:]:
        await manager.join(table.id, person)
    for _ in range(ai):
        await manager.add_ai(table.id, people[0])
    return table


async def test_lobby_seats_and_host_rules(manager: TableManager) -> None:
    table = await _game(manager, ALICE, BOB)
    assert [s.name for s in table.seats] == ["Alice", "Bob"]
    with pytest.raises(GameError, match=r"^error-already-seated\b"):
        await manager.join(table.id, BOB)
    with pytest.raises(NotAllowed):
        await manager.add_ai(table.id, BOB)
    with pytest.raises(NotAllowed):
        await manager.start(table.id, BOB)
    with pytest.raises(GameError, match=r"^error-table-busy\b"):
        await manager.create("toy", guild_id=GUILD, channel_id=CHANNEL, host=CAROL)
    await manager.leave(table.id, ALICE)  # the host leaves: Bob becomes host
    assert table.record.host_id == BOB.id
    assert [s.seat for s in table.seats] == [0]


async def test_start_needs_enough_players(manager: TableManager) -> None:
    table = await _game(manager, ALICE)
    with pytest.raises(GameError, match=r"^error-too-few-players\b"):
        await manager.start(table.id, ALICE)


async def test_turns_outsiders_and_saving(manager: TableManager, db: Database) -> None:
    table = await _game(manager, ALICE, BOB)
    await manager.start(table.id, ALICE)
    with pytest.raises(NotSeated):
        await manager.act(table.id, CAROL.id, "add1", None)
    with pytest.raises(NotYourTurn):
        await manager.act(table.id, BOB.id, "add1", None)
    await manager.act(table.id, ALICE.id, "add2", table.record.version)
    stored = await db.load_game(table.id)
    assert stored is not None and stored.version == table.record.version == 2
    log = await db.actions(table.id)
    assert [(a.seat, a.action, a.user_id) for a in log] == [(0, "add2", ALICE.id)]
    with pytest.raises(GameError):
        await manager.act(table.id, BOB.id, "jump", None)
    assert table.record.version == 2  # the illegal move changed nothing


async def test_two_simultaneous_clicks_apply_once(manager: TableManager) -> None:
    table = await _game(manager, ALICE, BOB)
    await manager.start(table.id, ALICE)
    version = table.record.version
    results = await asyncio.gather(
        manager.act(table.id, ALICE.id, "add1", version),
        manager.act(table.id, ALICE.id, "add1", version),
        return_exceptions=True,
    )
    assert sum(isinstance(r, Table) for r in results) == 1
    assert sum(isinstance(r, NotYourTurn | StaleAction) for r in results) == 1
    assert table.state is not None and table.state.totals == [1, 0]


async def test_ai_plays_and_game_finishes_into_leaderboard(
    manager: TableManager, db: Database
) -> None:
    table = await _game(manager, ALICE, ai=1)
    await manager.start(table.id, ALICE)
    for _ in range(20):
        if table.record.status != "active":
            break
        if table.state.current == 0:  # type: ignore[union-attr]
            await manager.act(table.id, ALICE.id, "add1", None)
        await asyncio.sleep(0.02)
    assert table.record.status == "finished"
    rows, total = await db.leaderboard(GUILD, "toy")
    assert total == 1 and rows[0].user_id == ALICE.id and rows[0].wins == 0
    assert manager.in_location(CHANNEL) is None


async def test_restart_restores_and_continues(db: Database) -> None:
    first = TableManager(db, {"toy": TOY}, Recorder(), ai_delay=0)
    table = await _game(first, ALICE, BOB)
    await first.start(table.id, ALICE)
    await first.act(table.id, ALICE.id, "add2", None)
    await first.refresh(table)
    await first.close()

    presenter = Recorder()
    second = TableManager(db, {"toy": TOY}, presenter, ai_delay=0)
    assert await second.restore() == 1
    again = second.get(table.id)
    assert again.state is not None and again.state.totals == [2, 0]
    assert presenter.shown == []  # the message shows this already: no edit
    await second.act(table.id, BOB.id, "add1", None)
    assert again.state.totals == [2, 1]
    await second.refresh(again)
    assert presenter.shown and presenter.shown[-1][0] == table.id
    assert presenter.shown[-1][1].version == again.record.version
    await second.close()


async def test_a_snapshot_reads_back_as_it_was_saved(manager: TableManager) -> None:
    """The saved form of play (the engine's JSON put in as it is, with the recent events and
    movers) is JSON that gives back the same state, log and history."""
    table = await _game(manager, ALICE, BOB)
    await manager.start(table.id, ALICE)
    await manager.act(table.id, ALICE.id, "add1", None)
    table.log.append('Zoë said "à bientôt" ♠ \\ done')
    text = table.snapshot_json()
    assert set(json.loads(text)) == {"state", "log", "history"}
    again = Table(record=table.record, spec=TOY)
    again.load_snapshot(text)
    assert again.state == table.state and again.state is not table.state
    assert again.log == table.log and again.history == table.history == [(2, 0)]  # v2: Alice


async def _saved_elsewhere(db: Database, game_id: int, action: str) -> None:
    """Save a move of the game the way another process (or a bot killed before it edited
    the message) would have: in storage only."""
    record = await db.load_game(game_id)
    assert record is not None and record.state_json is not None
    table = Table(record=record, spec=TOY)
    table.load_snapshot(record.state_json)
    assert table.state is not None
    seat = min(TOY.engine.to_act(table.state))
    trial = table.state.model_copy(deep=True)
    events = TOY.engine.apply(trial, seat, action)
    version = record.version + 1
    lines, history = table.with_move(version, seat, [e.render(table.names) for e in events])
    await db.save_progress(
        game_id,
        version=version,
        expected_version=record.version,
        state_json=table.snapshot_json(trial, lines, history),
        actions=[ActionRecord(version=version, seat=seat, action=action, user_id=None, at=0.0)],
    )


async def test_restart_edits_only_the_messages_whose_content_changed(db: Database) -> None:
    first = TableManager(db, {"toy": TOY}, Recorder(), ai_delay=0)
    tables = [await _game(first, ALICE, BOB, channel=CHANNEL + n) for n in range(3)]
    for table in tables:
        await first.start(table.id, ALICE)
        await first.refresh(table)
    await first.close()
    await _saved_elsewhere(db, tables[1].id, "add1")  # moved on while no process showed it

    presenter = Recorder()
    second = TableManager(db, {"toy": TOY}, presenter, ai_delay=0)
    assert await second.restore() == 3
    assert [game_id for game_id, _panel in presenter.shown] == [tables[1].id]
    moved = second.get(tables[1].id)
    assert presenter.shown[0][1].version == moved.record.version
    await second.close()

    third_presenter = Recorder()  # and once shown, the next restart leaves it alone too
    third = TableManager(db, {"toy": TOY}, third_presenter, ai_delay=0)
    assert await third.restore() == 3
    assert third_presenter.shown == []
    await third.close()


class FailingPresenter(Recorder):
    async def show(self, table: Table, panel: Panel) -> None:
        raise RuntimeError("Discord is unreachable")


async def test_a_message_that_could_not_be_edited_is_edited_after_a_restart(
    db: Database,
) -> None:
    first = TableManager(db, {"toy": TOY}, Recorder(), ai_delay=0)
    table = await _game(first, ALICE, BOB)
    await first.start(table.id, ALICE)
    await first.refresh(table)
    first.presenter = FailingPresenter()
    await first.act(table.id, ALICE.id, "add2", None)
    await first.refresh(table)  # the edit fails: the message still shows the start
    await first.close()

    presenter = Recorder()
    second = TableManager(db, {"toy": TOY}, presenter, ai_delay=0)
    await second.restore()
    assert [game_id for game_id, _panel in presenter.shown] == [table.id]
    await second.close()


async def test_an_ended_game_forgets_what_its_message_showed(db: Database) -> None:
    core = TableManager(db, {"toy": TOY}, Recorder(), ai_delay=0)
    table = await _game(core, ALICE, BOB)
    await core.refresh(table)
    await core.shown.flush()
    assert await core.shown.store.digests([table.id]) != {}
    await core.cancel(table.id, ALICE, is_admin=False)
    await core.refresh(table)
    await core.close()
    assert await core.shown.store.digests([table.id]) == {}


class SlowPresenter(Recorder):
    """Showing a table takes until ``gate`` opens; counts how many are shown at once."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.now = self.most = 0

    async def show(self, table: Table, panel: Panel) -> None:
        self.now += 1
        self.most = max(self.most, self.now)
        await self.gate.wait()
        self.now -= 1
        await super().show(table, panel)


async def test_restore_brings_tables_back_concurrently_and_they_play_at_once(
    db: Database,
) -> None:
    first = TableManager(db, {"toy": TOY}, Recorder(), ai_delay=0)
    tables = []
    for i in range(12):
        table = await first.create(
            "toy", guild_id=GUILD, channel_id=CHANNEL + i, host=ALICE, seed=i
        )
        await first.attach_message(table, 1000 + i)
        await first.join(table.id, BOB)
        await first.start(table.id, ALICE)
        tables.append(table)
    await first.close()

    presenter = SlowPresenter()
    second = TableManager(db, {"toy": TOY}, presenter, ai_delay=0)
    restoring = asyncio.create_task(second.restore())
    for _ in range(100):
        if presenter.most >= 2:
            break
        await asyncio.sleep(0.01)
    # Messages are refreshed several at a time, and every table already plays while they are.
    assert presenter.most >= 2 and not restoring.done()
    await second.act(tables[-1].id, ALICE.id, "add1", None)
    assert second.get(tables[-1].id).record.version == tables[-1].record.version + 1
    presenter.gate.set()
    assert await restoring == 12
    assert {table_id for table_id, _ in presenter.shown} >= {t.id for t in tables}
    await second.close()


async def test_deadline_reminds_then_ai_covers_until_return(db: Database) -> None:
    presenter = Recorder()
    manager = TableManager(db, {"toy": TOY}, presenter, ai_delay=0, turn_timeout=0.2)
    table = await _game(manager, ALICE, BOB)
    await manager.start(table.id, ALICE)
    for _ in range(100):
        if table.seats[0].autopilot:
            break
        await asyncio.sleep(0.02)
    assert any(mention == ALICE.id for _, _, mention in presenter.announced)  # reminder
    assert table.seats[0].autopilot
    stored = await db.load_game(table.id)
    assert stored is not None and stored.seats[0].autopilot  # survives a restart
    await asyncio.sleep(0.1)
    assert table.state is not None and table.state.totals[0] == 2  # the AI moved for Alice
    await manager.private_panel(table.id, ALICE.id)  # Alice comes back
    assert not table.seats[0].autopilot
    assert any("is back" in text for _, text, _ in presenter.announced)
    await manager.close()


async def test_a_seat_the_ai_played_for_is_ranked_last_and_wins_nothing(db: Database) -> None:
    manager = TableManager(db, {"toy": TOY}, Recorder(), ai_delay=0, turn_timeout=0.2)
    table = await _game(manager, ALICE, BOB)
    await manager.start(table.id, ALICE)
    # Alice never plays: after her first deadline an AI adds 2 for her at every turn, while
    # Bob adds 1 at his, so her seat reaches the goal first.
    for _ in range(400):
        if table.record.status == "finished":
            break
        if table.state is not None and table.state.current == 1:  # type: ignore[attr-defined]
            await manager.act(table.id, BOB.id, "add1", None)
        await asyncio.sleep(0.01)
    assert table.record.status == "finished"
    assert table.state.totals[0] > table.state.totals[1]  # type: ignore[attr-defined]
    results = {r.user_id: r for r in (await db.recent_results(GUILD, limit=1))[0].results}
    assert not results[ALICE.id].won and results[ALICE.id].rank == 3  # abandoned: last
    assert results[BOB.id].rank == 2 and not results[BOB.id].won
    rows, _ = await db.leaderboard(GUILD, "toy")
    board = {r.user_id: r for r in rows}
    assert board[ALICE.id].wins == 0 and board[BOB.id].rating > board[ALICE.id].rating
    await manager.close()


async def test_cancel_and_kick_permissions(manager: TableManager) -> None:
    table = await _game(manager, ALICE, BOB, CAROL)
    await manager.start(table.id, ALICE)
    with pytest.raises(NotAllowed):
        await manager.cancel(table.id, BOB, is_admin=False)
    with pytest.raises(NotAllowed):
        await manager.kick(table.id, BOB, CAROL.id, is_admin=False)
    await manager.kick(table.id, BOB, CAROL.id, is_admin=True)  # a server manager may
    assert table.seats[2].is_ai and table.seat_of(CAROL.id) is None
    await manager.leave(table.id, BOB)
    assert table.seats[1].is_ai
    await manager.cancel(table.id, ALICE, is_admin=False)
    assert table.record.status == "cancelled"
    with pytest.raises(GameError):
        await manager.act(table.id, ALICE.id, "add1", None)


async def test_host_removes_ai_players_from_the_lobby(manager: TableManager) -> None:
    table = await _game(manager, ALICE, ai=2)
    assert [s.name for s in table.seats] == ["Alice", "Ada (AI)", "Babbage (AI)"]
    with pytest.raises(NotAllowed):
        await manager.remove_ai(table.id, BOB)
    await manager.remove_ai(table.id, ALICE)
    await manager.remove_ai(table.id, ALICE)
    assert [s.name for s in table.seats] == ["Alice"]
    with pytest.raises(GameError, match=r"^error-no-ai-to-remove\b"):
        await manager.remove_ai(table.id, ALICE)


async def test_host_leaving_mid_game_passes_the_host_on(manager: TableManager) -> None:
    table = await _game(manager, ALICE, BOB, CAROL)
    await manager.start(table.id, ALICE)
    await manager.leave(table.id, ALICE)
    assert table.record.host_id == BOB.id and table.seats[0].is_ai
    await manager.cancel(table.id, BOB, is_admin=False)  # Bob now may
    assert table.record.status == "cancelled"


async def test_downtime_does_not_eat_a_players_turn(db: Database) -> None:
    now = [1_000.0]
    first = TableManager(
        db, {"toy": TOY}, Recorder(), ai_delay=0, turn_timeout=60, clock=lambda: now[0]
    )
    table = await _game(first, ALICE, BOB)
    await first.start(table.id, ALICE)
    assert table.record.deadline_at == 1_060.0
    await first.close()
    now[0] = 5_000.0  # the bot was down for over an hour
    second = TableManager(
        db, {"toy": TOY}, Recorder(), ai_delay=0, turn_timeout=60, clock=lambda: now[0]
    )
    await second.restore()
    again = second.get(table.id)
    assert again.record.deadline_at == 5_030.0 and not again.seats[0].autopilot
    stored = await db.load_game(table.id)
    assert stored is not None and stored.deadline_at == 5_030.0
    await second.close()


async def test_a_deadline_that_passed_while_down_is_shown_when_it_runs_out(db: Database) -> None:
    """The restart edits nothing (the message still shows the turn as it is), gives the
    player half a turn, and once that runs out the AI covers and the message says so."""
    first = TableManager(db, {"toy": TOY}, Recorder(), ai_delay=0, turn_timeout=0.2)
    table = await _game(first, ALICE, BOB)
    await first.start(table.id, ALICE)
    await first.refresh(table)
    await first.close()
    await asyncio.sleep(0.3)  # Alice's time ran out while no bot was running

    presenter = Recorder()
    second = TableManager(db, {"toy": TOY}, presenter, ai_delay=0, turn_timeout=0.2)
    await second.restore()
    assert presenter.shown == []
    again = second.get(table.id)
    assert not again.seats[0].autopilot
    for _ in range(100):
        if presenter.shown:
            break
        await asyncio.sleep(0.02)
    footers = [panel.footer or "" for _table, panel in presenter.shown]
    assert again.seats[0].autopilot and any("Alice (AI)" in f for f in footers)
    await second.close()


async def test_a_version_the_table_has_not_reached_is_refused(manager: TableManager) -> None:
    table = await _game(manager, ALICE, BOB)
    await manager.start(table.id, ALICE)
    with pytest.raises(StaleAction):
        await manager.act(table.id, ALICE.id, "add1", table.record.version + 1_000_000)
    assert table.state is not None and table.state.totals == [0, 0]
    await manager.act(table.id, ALICE.id, "add1", table.record.version)  # the real one works
    assert table.state.totals == [1, 0]


async def test_redraws_nobody_waits_on_hold_back_while_a_click_is_answered(
    manager: TableManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An AI's move on one table is drawn after the click being answered on another (or
    after ANSWERS_FIRST at the latest), so the click's picture is not slowed by it."""
    from bot.tables import manager as core

    table = await _game(manager, ALICE, BOB)
    recorder = manager.presenter
    assert isinstance(recorder, Recorder)
    shown = len(recorder.shown)
    monkeypatch.setattr(core, "ANSWERS_FIRST", 30.0)
    async with manager.answering():
        redraw = asyncio.create_task(manager.refresh(table, force=True))
        await asyncio.sleep(0.2)
        assert len(recorder.shown) == shown  # held back while the click is answered
        answered: list[Panel] = []

        async def respond(panel: Panel) -> None:
            answered.append(panel)

        await asyncio.wait_for(manager.refresh(table, respond=respond), 10)
        assert len(answered) == 1  # a click's own answer is never held back
    await asyncio.wait_for(redraw, 10)  # drawn as soon as the click is answered
    assert len(recorder.shown) == shown + 1
    # never held back for long: a click that takes too long does not starve the others
    monkeypatch.setattr(core, "ANSWERS_FIRST", 0.05)
    async with manager.answering():
        started = asyncio.get_running_loop().time()
        await manager.refresh(table, force=True)
        waited = asyncio.get_running_loop().time() - started
    assert waited >= 0.045 and len(recorder.shown) == shown + 2


async def test_ai_moves_wait_while_a_click_is_answered(
    manager: TableManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An AI's move on one table is saved after the click being answered on another (or
    after ANSWERS_FIRST at the latest): the click's save does not queue behind it."""
    from bot.tables import manager as core

    table = await _game(manager, ALICE, ai=1)
    monkeypatch.setattr(core, "ANSWERS_FIRST", 30.0)
    async with manager.answering():
        await manager.start(table.id, ALICE)
        await manager.act(table.id, ALICE.id, "add1", None)  # now the AI is to move
        version = table.record.version
        await asyncio.sleep(0.3)
        assert table.record.version == version  # held back while the click is answered
    for _ in range(100):
        if table.record.version > version:
            break
        await asyncio.sleep(0.02)
    assert table.record.version == version + 1  # and played as soon as it was answered


async def test_ended_tables_leave_memory_a_while_after_they_end(db: Database) -> None:
    now = [1000.0]
    core = TableManager(db, {"toy": TOY}, Recorder(), ai_delay=0, clock=lambda: now[0])
    try:
        done = await _game(core, ALICE, BOB)
        await core.cancel(done.id, ALICE, is_admin=False)
        live = await _game(core, CAROL)
        assert core.holds(done.id) and core.holds(live.id)  # ended only just now
        now[0] += 301
        newer = await core.create("toy", guild_id=GUILD, channel_id=CHANNEL + 1, host=BOB)
        assert not core.holds(done.id)
        assert core.holds(live.id) and core.holds(newer.id)  # live tables stay
        # A click on the forgotten table gets the same answer as before, from storage.
        with pytest.raises(GameError, match=r"^error-table-gone\b"):
            await core.act(done.id, ALICE.id, "add1", None)
        assert (await db.load_game(done.id)).status == "cancelled"  # type: ignore[union-attr]
    finally:
        await core.close()


@pytest.mark.parametrize("gap", [1.0, 0.0])
async def test_ai_moves_in_a_row_are_shown_together_when_a_person_is_to_move(
    manager: TableManager, monkeypatch: pytest.MonkeyPatch, gap: float
) -> None:
    """Three AIs moving one after another within AI_EDIT_GAP edit the table message once,
    when the person is to move again, showing all three moves; without the gap, each."""
    from bot.tables import driver

    monkeypatch.setattr(driver, "AI_EDIT_GAP", gap)
    presenter = manager.presenter
    assert isinstance(presenter, Recorder)
    table = await _game(manager, ALICE, ai=3)
    await manager.start(table.id, ALICE)
    await manager.refresh(table)  # (as the Start click does)
    before = len(presenter.shown)
    version = table.record.version
    await manager.act(table.id, ALICE.id, "add1", None)  # the three AIs move next
    for _ in range(200):
        if table.record.version == version + 4 and table.shown_version == manager.revision(table):
            break
        await asyncio.sleep(0.01)
    assert table.state is not None and table.state.current == 0  # Alice's move again
    assert table.shown_version == manager.revision(table)  # shown as it is now
    edits = presenter.shown[before:]
    assert len(edits) == (1 if gap else 3)
    assert "Alice to play" in edits[-1][1].description
