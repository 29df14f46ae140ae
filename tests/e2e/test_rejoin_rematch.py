"""Coming back to a running game, and playing a finished one again, the way people do it:
Leave, Take my seat back, `/qdice rejoin`, Rematch and Join, across restarts too."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.sandbox.loopback import Channel, LoopbackDiscord, Message, User
from bot.sandbox.loopback.testing import stop_bot
from bot.tables.table import Table
from tests.e2e.conftest import (
    SPEC,
    World,
    cancel_table,
    confirm,
    kick_player,
    leave_table,
    start_bot,
    until,
)
from tests.e2e.qdice_play import human_to_act, open_table, play_human_turn, play_to_the_end
from tests.e2e.settle import settled

TAKE_BACK = "Take my seat back"


def _reply(fake: LoopbackDiscord, channel: Channel, user: User) -> Message:
    """The newest ephemeral message only ``user`` can see in the channel."""
    mine = [m for m in fake.messages(channel, viewer=user) if m.ephemeral]
    assert mine, "no ephemeral reply"
    return mine[-1].refresh()


def _public(fake: LoopbackDiscord, channel: Channel, viewer: User) -> list[str]:
    return [m.text() for m in fake.messages(channel, viewer=viewer) if not m.ephemeral]


def _lobbies(fake: LoopbackDiscord, channel: Channel, viewer: User) -> list[Message]:
    return [
        m
        for m in fake.messages(channel, viewer=viewer)
        if not m.ephemeral and "Rematch of game #" in m.text()
    ]


def _table(w: World, channel: Channel) -> Table:
    table = w.bot.tables.in_location(channel.id)
    assert table is not None
    return table


async def test_leave_then_take_the_seat_back_and_play_it(w: World) -> None:
    room = w.channel()
    message = await open_table(w.fake, room, w.alice, [w.bob, w.carol])
    table = _table(w, room)
    asked = (await w.fake.click(w.bob, message, label="Leave")).message
    assert asked is not None and "take it back" in asked.text()
    await w.fake.click(w.bob, asked, label="Leave")
    assert TAKE_BACK in asked.refresh().text()  # "You left" says how to come back
    assert table.seats[1].is_ai and table.seats[1].left_user_id == w.bob.id
    said = [t for t in _public(w.fake, room, w.dave) if t.startswith("bob left the table")]
    assert len(said) == 1 and TAKE_BACK in said[0] and "/qdice rejoin" in said[0]
    assert TAKE_BACK in [b.label for b in message.refresh().buttons]
    await w.fake.click(w.bob, message, label="My hand")
    assert "You left this game" in _reply(w.fake, room, w.bob).text()
    await w.fake.click(w.bob, message, label="Leave")
    assert "You already left" in _reply(w.fake, room, w.bob).text()

    # The AI plays Bob's turn; on Carol's turn, Bob takes his seat back.
    others = {w.alice.id: w.alice, w.carol.id: w.carol}
    for _ in range(10):
        person = await human_to_act(w.fake, table, others)
        if person is w.carol:
            break
        await play_human_turn(w.fake, w.bot.tables, table, message, person)
    covered = (await w.bot.db.moves_by_seat(table.id))[1][1]
    assert covered > 0
    back = await w.fake.click(w.bob, message, label=TAKE_BACK)
    assert back.message is not None and back.message.ephemeral
    assert "Your score" in back.message.text()  # his own view, ready to move
    assert not table.seats[1].is_ai and table.seat_of(w.bob.id) == 1
    assert any(t.startswith("bob took their seat back") for t in _public(w.fake, room, w.dave))
    await until(lambda: TAKE_BACK not in [b.label for b in message.refresh().buttons])

    # From now on the seat waits for Bob, and his moves are his.
    everyone = {**others, w.bob.id: w.bob}
    while (person := await human_to_act(w.fake, table, everyone)) is not w.bob:
        await play_human_turn(w.fake, w.bot.tables, table, message, person)
    version = table.record.version
    await asyncio.sleep(0.3)
    assert table.record.version == version  # no AI moves for him
    await play_human_turn(w.fake, w.bot.tables, table, message, w.bob)
    moves = await w.bot.db.moves_by_seat(table.id)
    assert moves[1][0] > 0 and moves[1][1] == covered
    await cancel_table(w.fake, w.alice, room, "qdice")


async def test_only_the_person_who_left_takes_a_seat_back(w: World) -> None:
    room = w.channel()
    message = await open_table(w.fake, room, w.alice, [w.bob, w.carol])
    table = _table(w, room)
    kicked = await kick_player(w.fake, w.alice, room, "qdice", w.carol)
    assert "removed" in kicked.text()
    left = await leave_table(w.fake, w.bob, room, "qdice")
    assert TAKE_BACK in left.text()
    await w.fake.wait_idle()
    await w.fake.click(w.dave, message, label=TAKE_BACK)
    assert "no seat of yours" in _reply(w.fake, room, w.dave).text()
    await w.fake.click(w.carol, message, label=TAKE_BACK)
    assert "no seat of yours" in _reply(w.fake, room, w.carol).text()
    refused = await w.fake.slash(w.carol, "qdice rejoin", channel=room)
    assert refused.message.ephemeral and "not one the host removed" in refused.message.text()
    await w.fake.click(w.alice, message, label=TAKE_BACK)
    assert "already playing" in _reply(w.fake, room, w.alice).text()
    assert table.seats[1].is_ai and table.seats[2].is_ai
    back = await w.fake.slash(w.bob, "qdice rejoin", channel=room)  # the command works too
    assert back.message.ephemeral and "Your score" in back.message.text()
    assert table.seat_of(w.bob.id) == 1 and table.seats[2].is_ai
    await cancel_table(w.fake, w.alice, room, "qdice")


async def test_the_timeout_message_says_how_to_take_the_seat_back(w: World) -> None:
    room = w.channel()
    lobby = (await w.fake.slash(w.alice, "qdice start", channel=room)).message
    await w.fake.click(w.alice, lobby, label="Add AI")
    table = _table(w, room)
    table.record.config["turn_timeout"] = 1.0  # a short first turn (not stored)
    driver = w.bot.tables.driver
    driver.ai_delay = 0.3  # the AI, playing both seats, leaves time to look
    try:
        await w.fake.click(w.alice, lobby, label="Start")
        await until(lambda: table.seats[0].autopilot)
        table.record.config["turn_timeout"] = 300

        def said_so() -> list[str]:
            return [t for t in _public(w.fake, room, w.dave) if t.startswith("⌛")]

        # The seat changes before the notice is sent: wait for the notice itself.
        await until(lambda: bool(said_so()))
        await w.fake.wait_idle()
        said = said_so()
        assert len(said) == 1
        assert "alice" in said[0] and TAKE_BACK in said[0] and "/qdice rejoin" in said[0]
        assert "My hand" in said[0]
        back = await w.fake.click(w.alice, lobby, label=TAKE_BACK)
    finally:
        driver.ai_delay = 0.0
    assert back.message is not None and back.message.ephemeral
    assert not table.seats[0].autopilot, back.message.text()
    assert any(t.startswith("alice is back") for t in _public(w.fake, room, w.dave))
    person = await human_to_act(w.fake, table, {w.alice.id: w.alice})
    await play_human_turn(w.fake, w.bot.tables, table, lobby, person)
    actions = await w.bot.db.actions(table.id)
    assert any(a.user_id == w.alice.id for a in actions)  # her first turn was the AI's
    await cancel_table(w.fake, w.alice, room, "qdice")


async def test_rematch_opens_one_lobby_with_the_same_seats_and_is_played(w: World) -> None:
    room = w.channel()
    lobby = (
        await w.fake.slash(w.alice, "qdice start", channel=room, options={"target": 1000})
    ).message
    await w.fake.click(w.bob, lobby, label="Join")
    await w.fake.click(w.alice, lobby, label="Add hard AI")
    await w.fake.click(w.alice, lobby, label="Start")
    old = _table(w, room)
    people = {w.alice.id: w.alice, w.bob.id: w.bob}
    await play_to_the_end(w.fake, w.bot.tables, old, lobby, people)
    assert old.record.status == "finished"
    final = lobby.refresh()
    assert [b.label for b in final.buttons] == ["Rematch", "Show hands", "Replay", "Review"]

    await w.fake.click(w.dave, final, label="Rematch")
    assert "Only the players" in _reply(w.fake, room, w.dave).text()
    busy = (await w.fake.slash(w.carol, "qdice start", channel=room)).message
    await w.fake.click(w.alice, final, label="Rematch")
    assert "already running here" in _reply(w.fake, room, w.alice).text()
    await w.fake.click(w.carol, busy, label="Cancel")
    await confirm(w.fake, w.carol, _reply(w.fake, room, w.carol), "Cancel the lobby")
    assert _lobbies(w.fake, room, w.dave) == []

    # Both press Rematch at once: one lobby, and the other is pointed to it.
    await asyncio.gather(
        w.fake.click(w.alice, final, label="Rematch", wait=False),
        w.fake.click(w.bob, final, label="Rematch", wait=False),
    )
    await w.fake.wait_idle()
    (again,) = _lobbies(w.fake, room, w.dave)
    table = _table(w, room)
    host = w.alice if table.record.host_id == w.alice.id else w.bob
    guest = w.bob if host is w.alice else w.alice
    assert "already open" in _reply(w.fake, room, guest).text()
    text = again.text()
    assert f"<@{guest.id}>" in text and f"<@{host.id}>" not in text
    assert f"{guest.name} · invited: press **Join** to keep this seat" in text
    assert "First to 1,000" in text and "(AI, hard)" in text
    assert [s.level for s in table.seats if s.is_ai] == ["hard"]
    await w.fake.click(guest, final, label="Rematch")  # later: still that one
    assert "already open" in _reply(w.fake, room, guest).text()
    assert len(_lobbies(w.fake, room, w.dave)) == 1

    await w.fake.click(guest, again, label="Join")  # confirms the kept seat
    assert "keep this seat" not in again.refresh().text()
    await w.fake.click(host, again, label="Start")
    assert table.record.status == "active" and len(table.seats) == 3
    assert table.config == old.config
    await play_to_the_end(w.fake, w.bot.tables, table, again, people)
    assert table.record.status == "finished"
    assert [b.label for b in again.refresh().buttons] == [
        "Rematch",
        "Show hands",
        "Replay",
        "Review",
    ]


async def test_seats_and_rematches_survive_restarts(tmp_path: Path) -> None:
    db_path = tmp_path / "rematch.db"
    async with LoopbackDiscord(spec=SPEC if SPEC.exists() else None) as fake:
        guild = fake.add_guild("Rematch")
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        fake.add_member(guild, alice)
        fake.add_member(guild, bob)
        room = fake.add_channel(guild, "rematch")
        people = {alice.id: alice, bob.id: bob}

        bot, task = await start_bot(fake, db_path)
        message = await open_table(fake, room, alice, [bob], ai=1, options={"target": 1000})
        await leave_table(fake, bob, room, "qdice")
        await fake.wait_idle()
        await stop_bot(bot, task)  # type: ignore[arg-type]

        bot, task = await start_bot(fake, db_path)  # Bob's seat is still his to take back
        await fake.wait_idle()
        table = bot.tables.in_location(room.id)
        assert table is not None and table.seats[1].left_user_id == bob.id
        await settled(fake, table)
        await fake.click(bob, message.refresh(), label=TAKE_BACK)
        assert table.seat_of(bob.id) == 1
        await play_to_the_end(fake, bot.tables, table, message, people)
        assert table.record.status == "finished"
        old_id = table.id
        await stop_bot(bot, task)  # type: ignore[arg-type]

        bot, task = await start_bot(fake, db_path)  # the finished table's button still works
        await fake.wait_idle()
        await fake.click(alice, message.refresh(), label="Rematch")
        lobbies = [m for m in fake.messages(room, viewer=bob) if "Rematch of game #" in m.text()]
        assert len(lobbies) == 1 and f"<@{bob.id}>" in lobbies[0].text()
        await stop_bot(bot, task)  # type: ignore[arg-type]

        bot, task = await start_bot(fake, db_path)  # the invitation is still there
        await fake.wait_idle()
        rematch = bot.tables.in_location(room.id)
        assert rematch is not None and rematch.record.config["rematch_of"] == old_id
        assert [s.invited for s in rematch.seats] == [False, True, False]
        await fake.click(bob, message.refresh(), label="Rematch")
        assert "already open" in _reply(fake, room, bob).text()
        await fake.click(bob, lobbies[0].refresh(), label="Join")
        await fake.click(alice, lobbies[0].refresh(), label="Start")
        assert rematch.record.status == "active" and rematch.seat_of(bob.id) == 1
        fake.assert_no_errors()
        await stop_bot(bot, task)  # type: ignore[arg-type]
