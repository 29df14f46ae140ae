"""Faults and hostile input never freeze a table or fool a player, seen through the loopback:
a full disk, a database held by another writer past Discord's deadline, bursts of "My hand",
names that carry links, payloads a modified client could send."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
import time
from collections.abc import Callable

from bot.engines.qdice.ai import choose_action
from bot.tables.driver import PAUSED, RESUMED
from bot.tables.table import Table
from bot.ui.answers import UNKNOWN_CONTROL
from bot.ui.errors import SAVE_FAILED_ID
from bot.words import words_for
from tests.e2e.conftest import World, cancel_table, until
from tests.e2e.qdice_play import button, open_table, two_people_table

SAVE_FAILED = words_for("en")(SAVE_FAILED_ID)


def texts(w: World, room, viewer) -> list[str]:  # type: ignore[no-untyped-def]
    return [m.text() for m in w.fake.messages(room, viewer=viewer)]


def hold_write_lock(path: str, seconds: float, held: threading.Event) -> None:
    """Another writer: takes SQLite's write lock and keeps it for ``seconds``."""
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        held.set()
        time.sleep(seconds)
        other.execute("COMMIT")
    finally:
        other.close()


def storage_errors(w: World, kind: str = "unavailable") -> float:
    """How many storage failures of that kind the bot has counted (its /metrics)."""
    found = w.bot.metrics.registry.get_sample_value(
        "quantum_table_storage_errors_total", {"kind": kind}
    )
    assert found is not None
    return found


async def on_autopilot(w: World, table: Table) -> None:
    """Every person at the table is covered by the AI (as after running out of time)."""
    async with table.lock:
        seats = [s.model_copy(update={"autopilot": not s.is_ai}) for s in table.seats]
        await w.bot.tables.set_seats(table, seats)
        table.changed.set()


async def test_a_full_disk_pauses_an_ai_table_and_space_back_resumes_it(w: World) -> None:
    room = w.channel()
    w.bot.tables.driver.retry_after = 0.05
    w.bot.tables.driver.retry_max = 0.2
    await open_table(w.fake, room, w.alice, [], ai=2, options={"target": 10000})
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    db = w.bot.db
    counted = storage_errors(w)
    try:
        # The disk fills up: SQLite may not grow the file by a single page any more. Small
        # pages, packed tight, leave each table little room, so the game soon needs one more.
        await db._query("PRAGMA journal_mode = DELETE")
        await db._query("PRAGMA page_size = 512")
        await db._query("VACUUM")
        await db._query("PRAGMA journal_mode = WAL")
        pages = (await db._query("PRAGMA page_count"))[0][0]
        await db._query(f"PRAGMA max_page_count = {pages}")
        await on_autopilot(w, table)
        # Soon a move needs a new page (the action log grows), and its save fails.
        await until(lambda: any(PAUSED in t for t in texts(w, room, w.dave)), timeout=60)
        stuck = table.record.version
        await asyncio.sleep(0.5)
        assert table.record.version == stuck  # nothing moved, and nothing was lost
        assert table.runner is not None and not table.runner.done()
        paused = [t for t in texts(w, room, w.dave) if PAUSED in t]
        assert len(paused) == 1  # said once, not at every retry
        assert storage_errors(w) > counted  # and each failed step is counted
    finally:
        # Space comes back; no restart.
        await db._query("PRAGMA max_page_count = 1073741823")
    await until(lambda: table.record.version > stuck + 2 or not table.record.is_live, timeout=30)
    await until(lambda: any(RESUMED in t for t in texts(w, room, w.dave)), timeout=10)
    stored = await db.load_game(table.id)
    assert stored is not None and stored.version == table.record.version
    w.errors.records.clear()  # the failed steps were logged as errors, as they should be
    if table.record.is_live:
        await cancel_table(w.fake, w.alice, room, "qdice")


async def _move_while_locked(w: World, hold: float) -> tuple[Table, int, Callable[[], list[str]]]:
    room = w.channel()
    message, table, mover, _ = await two_people_table(w.fake, w.bot.tables, room, w.alice, w.bob)
    # A careful player's move: the dice to keep are picked first, the move itself is clicked
    # while the other writer holds the database.
    seat = table.seat_of(mover.id)
    assert seat is not None and table.state is not None
    observation = table.spec.engine.observe(table.state, seat)
    verb, _, picks = choose_action(observation, random.Random(0)).partition(":")
    for index in picks:
        await w.fake.click(mover, message, custom_id=button(message, f"t{index}").custom_id)
    before = table.record.version
    held = threading.Event()
    holder = asyncio.create_task(asyncio.to_thread(hold_write_lock, str(w.db_path), hold, held))
    await asyncio.to_thread(held.wait, 5)
    started = time.monotonic()
    result = await w.fake.click(
        mover, message, custom_id=button(message, verb).custom_id, wait=False
    )
    assert time.monotonic() - started < 3.0  # answered within Discord's deadline
    assert result.interaction.response_type is not None and not result.interaction.expired
    await holder
    return table, before, lambda: texts(w, room, mover)


async def test_a_click_behind_a_slow_writer_is_answered_and_saved(w: World) -> None:
    table, before, seen = await _move_while_locked(w, hold=1.8)
    await until(lambda: table.record.version > before)  # it went through once the lock was free
    await w.fake.wait_idle()
    stored = await w.bot.db.load_game(table.id)
    assert stored is not None and stored.version == table.record.version
    assert not any(SAVE_FAILED in t for t in seen())


async def test_a_click_the_database_cannot_take_is_answered_and_changes_nothing(
    w: World,
) -> None:
    counted = storage_errors(w)
    table, before, seen = await _move_while_locked(w, hold=4.0)
    await until(lambda: any(SAVE_FAILED in t for t in seen()))  # the person is told
    assert storage_errors(w) == counted + 1  # and the operator sees it
    assert table.record.version == before
    assert not any(SAVE_FAILED in t for t in texts(w, w.channels[-1], w.dave))  # only them
    stored = await w.bot.db.load_game(table.id)
    assert stored is not None and stored.version == before


# --- bursts ------------------------------------------------------------------------------


async def test_a_burst_of_200_my_hand_clicks_is_answered_in_time(w: World) -> None:
    from tests.e2e.qpoker_play import open_table as open_poker

    room = w.channel()
    players = [w.alice, w.bob, w.carol]
    message = await open_poker(w.fake, room, w.alice, [w.bob, w.carol])
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    clicks = [
        w.fake.click(players[i % 3], message, label="My hand", wait=False) for i in range(200)
    ]
    results = await asyncio.gather(*clicks)
    await w.fake.wait_idle(timeout=60)
    assert not [r for r in results if r.interaction.expired]  # none past Discord's deadline
    for i, result in enumerate(results):
        view = result.message
        assert view is not None and view.ephemeral and view.visible_to(players[i % 3])
        assert f"game #{table.id}" in view.text()
    assert not w.fake.errors
    await cancel_table(w.fake, w.alice, room, "qpoker")


# --- names and text people type ---------------------------------------------------------


async def test_a_display_name_with_a_link_is_shown_as_text(w: World) -> None:
    sly = w.fake.add_user("[win](https://x.example) **now**")
    w.fake.add_member(w.guild, sly)
    room = w.channel()
    await w.fake.slash(sly, "qdice start", channel=room)
    lobby = w.table_message(room)
    await w.fake.click(w.alice, lobby, label="Join")
    await w.fake.click(sly, lobby, label="Start")
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    assert w.table_message(room).image() is not None
    await cancel_table(w.fake, sly, room, "qdice")
    public = [m.text() for m in w.fake.messages(room, viewer=w.dave) if not m.ephemeral]
    assert public and any("win" in t for t in public)
    for text in public:
        # Escaped: Discord shows the brackets and stars as typed, and no address is live.
        assert "[win](" not in text and "https://" not in text and "**now**" not in text
    assert "\\[win\\]" in table.seats[0].name


async def test_a_flavour_name_with_markdown_or_too_long_is_refused(w: World) -> None:
    from tests.e2e.fingers_play import my_view, pick
    from tests.e2e.fingers_play import open_table as open_fingers

    room = w.channel()
    message = await open_fingers(w.fake, room, w.alice, [w.bob, w.carol])
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    version = table.record.version
    for typed, why in [
        ("[nitro](https://x.example)", "formatting characters"),
        ("free nitro at https://x.example", "web address"),
        ("x" * 5000, "at most 32 characters"),  # past the form's limit: a forged submit
    ]:
        view = await my_view(w.fake, w.alice, message)
        opened = await pick(w.fake, w.alice, view, "?new:1")
        result = await w.fake.submit_modal(w.alice, opened, {"Flavour name": typed}, forged=True)
        assert result.type is not None and not result.interaction.expired
        replies = [m.text() for m in w.fake.messages(room, viewer=w.alice) if m.ephemeral]
        assert why in replies[-1] and len(replies[-1]) < 300, replies[-1]
    assert table.record.version == version
    assert table.state.names[0] is None  # type: ignore[attr-defined]
    await cancel_table(w.fake, w.alice, room, "fingers")


# --- payloads Discord itself would not send ---------------------------------------------


async def test_options_out_of_range_are_refused_by_the_bot(w: World) -> None:
    room = w.channel()
    for command, options, why in [
        ("qdice start", {"turn_minutes": -5}, "turn_minutes must be a whole number from 1 to 60"),
        ("qdice start", {"turn_minutes": 10**9}, "from 1 to 60"),
        ("qdice start", {"target": 5}, "target must be a whole number from 1,000 to 100,000"),
        ("qpoker start", {"chips": 10**12}, "chips must be"),
        ("flux start", {"variants": "1," * 2500}, "variants can be at most 100 characters"),
        ("leaderboard", {"game": "nope"}, "game must be one of"),
        ("rules", {"game": "x" * 5000}, "game must be one of"),
    ]:
        result = await w.fake.slash(w.alice, command, channel=room, options=options, forged=True)
        reply = result.message
        assert reply is not None and reply.ephemeral, command
        assert why in reply.text() and len(reply.text()) <= 2000, reply.text()
    assert w.bot.tables.in_location(room.id) is None  # no table was opened


async def test_controls_no_handler_knows_are_answered_at_once(w: World) -> None:
    room = w.channel()
    message = await open_table(w.fake, room, w.alice, [w.bob])
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    before = table.record.version
    for custom_id in ["garbage", "qt:", "lb:", "x" * 100]:
        started = time.monotonic()
        result = await w.fake.click(w.alice, message, custom_id=custom_id, forged=True)
        assert time.monotonic() - started < 1.0
        assert result.message is not None and result.message.text() == UNKNOWN_CONTROL
        assert result.message.ephemeral
    assert table.record.version == before


async def test_a_control_the_message_does_not_carry_is_answered_at_once(w: World) -> None:
    room = w.channel()
    message, table, mover, _ = await two_people_table(w.fake, w.bot.tables, room, w.alice, w.bob)
    version = table.record.version
    for custom_id in [
        f"qt:{table.id}:{version}:nonsense",  # an action the game does not have
        f"qt:{table.id}:{version + 5}:roll",  # a version the table has not reached
        f"qt:{table.id + 1000}:1:roll",  # a game that does not exist
    ]:
        started = time.monotonic()
        result = await w.fake.click(mover, message, custom_id=custom_id, forged=True)
        assert time.monotonic() - started < 1.0, custom_id
        assert result.message is not None and result.message.text() == UNKNOWN_CONTROL
        assert table.record.version == version, custom_id
    await cancel_table(w.fake, w.alice, room, "qdice")


async def test_a_move_from_a_version_the_table_has_not_reached_is_refused(w: World) -> None:
    from tests.e2e.fingers_play import my_view, pick
    from tests.e2e.fingers_play import open_table as open_fingers

    room = w.channel()
    message = await open_fingers(w.fake, room, w.alice, [w.bob, w.carol])
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    version = table.record.version
    opened = await pick(w.fake, w.alice, await my_view(w.fake, w.alice, message), "?new:1")
    future = f"qt:{table.id}:{version + 5}:?new:1"
    await w.fake.submit_modal(
        w.alice, opened, {"Flavour name": "juniper"}, forged=True, custom_id=future
    )
    replies = [m.text() for m in w.fake.messages(room, viewer=w.alice) if m.ephemeral]
    assert "out of date" in replies[-1]
    assert table.record.version == version
    assert table.state.names[0] is None  # type: ignore[attr-defined]
    await cancel_table(w.fake, w.alice, room, "fingers")
