"""Quantum dice end to end: lobby, refusals, a whole game with people and AI, the leaderboard."""

from __future__ import annotations

import asyncio
import gc
import random
from collections import Counter

import pytest

from bot.engines.qdice.ai import choose_action
from bot.ui import answers
from tests.e2e.conftest import World, cancel_table, kick_player, leave_table, until
from tests.e2e.qdice_play import (
    button,
    click_action,
    human_to_act,
    open_table,
    play_human_turn,
    play_to_the_end,
)
from tests.e2e.seeding import open_seeded


def _reply(w: World, channel, user):  # type: ignore[no-untyped-def]
    """The newest ephemeral message only ``user`` can see in the channel."""
    mine = [m for m in w.fake.messages(channel, viewer=user) if m.ephemeral]
    assert mine, "no ephemeral reply"
    return mine[-1]


async def test_lobby_host_rules_and_one_game_per_channel(w: World) -> None:
    room = w.channel()
    lobby = (
        await w.fake.slash(w.alice, "qdice start", channel=room, options={"target": 2000})
    ).message
    assert "First to 2,000" in lobby.text()
    labels = ["Join", "Leave", "Start", "Add AI", "Add easy AI", "Add hard AI", "Remove AI"]
    labels.append("Cancel")
    assert [b.label for b in lobby.buttons] == labels
    await w.fake.click(w.bob, lobby, label="Join")
    assert "bob" in lobby.refresh().text()

    await w.fake.click(w.bob, lobby, label="Start")
    assert "Only the host" in _reply(w, room, w.bob).text()
    await w.fake.click(w.dave, lobby, label="Add AI")
    assert "Only the host" in _reply(w, room, w.dave).text()

    again = await w.fake.slash(w.carol, "qdice start", channel=room)
    assert again.message.ephemeral and "already running in this channel" in again.message.text()
    assert str(lobby.id) in again.message.text()  # points at the running game

    await w.fake.click(w.alice, lobby, label="Add AI")
    await w.fake.click(w.alice, lobby, label="Add AI")
    assert "Babbage (AI)" in lobby.refresh().text()
    await w.fake.click(w.bob, lobby, label="Remove AI")
    assert "Only the host" in _reply(w, room, w.bob).text()
    await w.fake.click(w.alice, lobby, label="Remove AI")
    assert "Babbage (AI)" not in lobby.refresh().text() and "Ada (AI)" in lobby.text()
    await w.fake.click(w.alice, lobby, label="Start")
    table = lobby.refresh()
    assert table.image().size == (960, 600)
    assert {f"t{i}" for i in range(6)} <= {b.custom_id.rsplit(":", 1)[1] for b in table.buttons}
    # Each die's button names its face and colour in words too, not only by an emoji.
    dice = w.bot.tables.in_location(room.id).state.dice  # type: ignore[union-attr]
    labels = {b.custom_id.rsplit(":", 1)[1]: b.label for b in table.buttons}
    assert [labels[f"t{i}"] for i in range(6)] == [f"{d.value} · {d.colour}" for d in dice]
    assert {d.colour for d in dice} == {"A", "B"}
    await cancel_table(w.fake, w.alice, room, "qdice")


async def test_outsiders_and_out_of_turn_clicks_change_nothing(w: World) -> None:
    room = w.channel()
    message = await open_table(w.fake, room, w.alice, [w.bob])
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    mover = await human_to_act(w.fake, table, {w.alice.id: w.alice, w.bob.id: w.bob})
    waiting = w.bob if mover is w.alice else w.alice
    version = table.record.version

    await click_action(w.fake, w.dave, message, "t0")
    assert "not playing at this table" in _reply(w, room, w.dave).text()
    await click_action(w.fake, waiting, message, "t0")
    assert "not your move" in _reply(w, room, waiting).text()
    assert table.record.version == version

    cancel = await w.fake.slash(w.bob, "qdice cancel", channel=room)  # refused before asking
    assert "Only the host" in cancel.message.text() and table.record.status == "active"
    assert not cancel.message.buttons
    kick = await w.fake.slash(w.dave, "qdice kick", channel=room, options={"player": w.bob.id})
    assert "Only the host" in kick.message.text() and table.seat_of(w.bob.id) == 1
    done = await cancel_table(w.fake, w.admin, room, "qdice")  # Manage Server may
    assert "cancelled" in done.text() and table.record.status == "cancelled"
    assert not message.refresh().buttons


async def test_cancelling_and_removing_a_player_ask_first_and_say_who_may(w: World) -> None:
    room = w.channel()
    message = await open_table(w.fake, room, w.alice, [w.bob, w.carol])
    table = w.bot.tables.in_location(room.id)
    assert table is not None and table.record.status == "active"
    # A server manager at someone else's table: one command asks, and says why they may.
    asked = (await w.fake.slash(w.admin, "qdice cancel", channel=room)).message
    assert asked.ephemeral and not asked.visible_to(w.alice)
    assert "Manage Server lets you" in asked.text() and table.record.status == "active"
    assert [b.label for b in asked.buttons] == ["Cancel the game", "Keep playing"]
    await w.fake.click(w.admin, asked, label="Keep playing")
    assert "Nothing changed" in asked.refresh().text() and table.record.status == "active"
    # Removing a player asks too; the host's second click removes them, said in public.
    kick = (
        await w.fake.slash(w.admin, "qdice kick", channel=room, options={"player": w.carol.id})
    ).message
    assert kick.ephemeral and "can't take it back" in kick.text()
    assert table.seat_of(w.carol.id) == 2  # nothing happened yet
    await w.fake.click(w.admin, kick, label="Remove carol")
    await w.fake.wait_idle()
    assert table.seat_of(w.carol.id) is None and table.seats[2].is_ai
    said = [m.text() for m in w.fake.messages(room, viewer=w.dave) if not m.ephemeral]
    assert any("carol was removed by admin" in t for t in said)
    assert "carol was removed by admin" in message.refresh().text()
    # /qdice leave asks, as the Leave button does.
    leave = (await w.fake.slash(w.bob, "qdice leave", channel=room)).message
    assert leave.ephemeral and "Leave game #" in leave.text() and table.seat_of(w.bob.id) == 1
    await w.fake.click(w.bob, leave, label="Stay")
    assert table.seat_of(w.bob.id) == 1
    # The lobby's Cancel button asks as well.
    other = w.channel()
    lobby = (await w.fake.slash(w.carol, "qdice start", channel=other)).message
    await w.fake.click(w.carol, lobby, label="Cancel")
    question = [m for m in w.fake.messages(other, viewer=w.carol) if m.ephemeral][-1]
    assert "Cancel the lobby" in question.text()
    assert w.bot.tables.in_location(other.id) is not None  # still open
    await w.fake.click(w.carol, question, label="Cancel the lobby")
    assert w.bot.tables.in_location(other.id) is None
    await cancel_table(w.fake, w.alice, room, "qdice")


async def test_two_simultaneous_clicks_apply_once(w: World) -> None:
    room = w.channel()
    message = await open_table(w.fake, room, w.alice, [w.bob])
    table = w.bot.tables.in_location(room.id)
    assert table is not None and table.state is not None
    mover = await human_to_act(w.fake, table, {w.alice.id: w.alice, w.bob.id: w.bob})
    version = table.record.version
    toggle = button(message, "t2").custom_id
    await asyncio.gather(
        w.fake.click(mover, message, custom_id=toggle, wait=False),
        w.fake.click(mover, message, custom_id=toggle, wait=False),
    )
    await w.fake.wait_idle()
    assert table.record.version == version + 1
    assert table.state.selected == [2]  # type: ignore[attr-defined]
    assert "out of date" in _reply(w, room, mover).text()
    await cancel_table(w.fake, w.alice, room, "qdice")


async def test_my_view_says_nothing_is_secret_and_gives_what_is_mine(w: World) -> None:
    # Seed 5: alice opens with 1 5 1 4 2 1.
    room = w.channel()
    message = await open_seeded(w.fake, w.bot.tables, room, "qdice", w.alice, [w.bob], seed=5)
    table = w.bot.tables.in_location(room.id)
    assert table is not None and table.state is not None
    assert [d.value for d in table.state.dice] == [1, 5, 1, 4, 2, 1]  # type: ignore[attr-defined]
    await click_action(w.fake, w.alice, message, "t1")  # the 5: 50
    await w.fake.wait_idle()
    view = (await w.fake.click(w.alice, message, label="My hand")).message
    assert view.ephemeral and view.visible_to(w.alice) and not view.visible_to(w.bob)
    text = view.text()
    assert "Nothing in Quantum dice is secret" in text and "Your score" in text
    assert "your first bank needs 1,000 in one turn, and this turn has 50" in text
    assert "10,000 more to reach 10,000." in text and "1st= of 2" in text
    assert not view.buttons  # the dice and their buttons are on the table, not repeated here
    for die in ("t0", "t2", "t5"):  # three 1s: 1,000
        await click_action(w.fake, w.alice, message, die)
    await w.fake.wait_idle()
    assert "+1,050, for a score of 1,050." in view.refresh().text()  # kept up to date
    bobs = (await w.fake.click(w.bob, message, label="My hand")).message
    assert "Waiting for **alice**" in bobs.text() and "If you bank now" not in bobs.text()
    await click_action(w.fake, w.alice, message, "bank")
    await w.fake.wait_idle()
    assert "2nd of 2, 1,050 behind the lead" in bobs.refresh().text()
    await w.fake.click(w.dave, message, label="My hand")
    assert "not playing" in _reply(w, room, w.dave).text()
    await cancel_table(w.fake, w.alice, room, "qdice")


async def test_whole_game_with_people_and_ai_feeds_the_leaderboard(w: World) -> None:
    room = w.channel()
    message = await open_table(w.fake, room, w.alice, [w.bob], ai=1, options={"target": 1000})
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    people = {w.alice.id: w.alice, w.bob.id: w.bob}
    await play_to_the_end(w.fake, w.bot.tables, table, message, people)

    final = message.refresh()
    assert table.record.status == "finished"
    assert "won" in final.text() and "Final standings" in final.text()
    labels = [b.label for b in final.buttons]  # the game controls gave way to these
    assert labels == ["Rematch", "Show hands", "Replay", "Review"]  # people played: Review
    assert w.bot.tables.in_location(room.id) is None

    rows, total = await w.bot.db.leaderboard(w.guild.id, "qdice")
    assert {r.user_id for r in rows} >= {w.alice.id, w.bob.id}
    board = await w.fake.slash(w.carol, "leaderboard", channel=room, options={"game": "qdice"})
    assert not board.message.ephemeral and board.message.image().size[0] > 0
    assert f"{total} player{'' if total == 1 else 's'} ranked" in board.message.text()
    stats = await w.fake.slash(w.bob, "stats", channel=room)
    assert "Quantum dice" in stats.message.text() and "played" in stats.message.text()


async def test_game_in_a_new_thread(w: World) -> None:
    room = w.channel()
    result = await w.fake.slash(w.alice, "qdice start", channel=room, options={"thread": True})
    (thread,) = w.fake.threads(room)
    assert f"<#{thread.id}>" in result.message.text()
    lobby = [m for m in w.fake.messages(thread, viewer=w.bob) if not m.ephemeral][-1]
    assert "lobby" in lobby.text()
    await w.fake.click(w.bob, lobby, label="Join")
    assert w.bot.tables.in_location(thread.id) is not None
    assert w.bot.tables.in_location(room.id) is None  # the channel itself stays free
    await cancel_table(w.fake, w.alice, thread, "qdice")


async def test_deleted_table_message_is_posted_again(w: World) -> None:
    room = w.channel()
    message = await open_table(w.fake, room, w.alice, [w.bob])
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    await w.fake.wait_idle()
    # The one who leaves is not to act, so no AI turn follows and pushes the news off the log.
    people = {w.alice.id: w.alice, w.bob.id: w.bob}
    gone = w.alice if await human_to_act(w.fake, table, people) is w.bob else w.bob
    seat = table.seat_of(gone.id)
    assert seat is not None
    w.fake.rest.delete(message)  # a moderator deletes the table
    with w.fake.expect_errors("10008"):  # the bot's edit finds it gone, then posts anew
        await leave_table(w.fake, gone, room, "qdice")  # any change refreshes
        await until(lambda: table.record.message_id != message.id)
        await w.fake.wait_idle()
    assert table.record.message_id != message.id
    reposted = w.fake.get_message(table.record.message_id)
    assert not reposted.deleted and "game #" in reposted.text() and reposted.buttons
    assert table.seats[seat].is_ai
    assert f"{gone.name} left the table; an AI plays their seat now." in reposted.text()


async def test_leaving_players_hand_over_to_ai_then_the_game_ends(w: World) -> None:
    room = w.channel()
    message = await open_table(w.fake, room, w.alice, [w.bob])
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    # One click asks, only the person sees it, and Stay changes nothing.
    asked = (await w.fake.click(w.bob, message, label="Leave")).message
    assert asked is not None and asked.ephemeral and "Leave game" in asked.text()
    assert not table.seats[1].is_ai
    await w.fake.click(w.bob, asked, label="Stay")
    assert "Nothing changed" in asked.refresh().text() and not table.seats[1].is_ai
    asked = (await w.fake.click(w.bob, message, label="Leave")).message
    assert asked is not None
    await w.fake.click(w.bob, asked, label="Leave")  # the second click leaves
    assert table.seats[1].is_ai and table.record.status == "active"
    assert "You left the table" in asked.refresh().text()
    announced = [m.text() for m in w.fake.messages(room, viewer=w.dave) if not m.ephemeral]
    assert any("bob left the table" in text for text in announced)
    asked = (await w.fake.click(w.alice, message, label="Leave")).message
    assert asked is not None
    await w.fake.click(w.alice, asked, label="Leave")
    assert table.record.status == "cancelled"
    assert "no players left" in message.refresh().text()


async def test_an_unscoring_selection_says_why_on_the_table(w: World) -> None:
    room = w.channel()
    message = await open_table(w.fake, room, w.alice, [w.bob])
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    people = {w.alice.id: w.alice, w.bob.id: w.bob}
    for _ in range(20):  # until a person faces a roll with a die that can't score alone
        mover = await human_to_act(w.fake, table, people)
        dice = table.state.dice  # type: ignore[attr-defined]
        lone = [i for i, d in enumerate(dice) if d.value not in (1, 5)]
        if lone:
            break
        await play_human_turn(w.fake, w.bot.tables, table, message, mover)
    else:
        raise AssertionError("no roll with a 2, 3, 4 or 6 in twenty turns")
    value = dice[lone[0]].value
    await click_action(w.fake, mover, message, f"t{lone[0]}")
    text = message.refresh().text()
    assert "selection does not score" in text
    assert f"Those dice don't score: a single {value} scores only in three of a kind" in text
    assert button(message, "roll").disabled
    await cancel_table(w.fake, w.alice, room, "qdice")


async def test_a_kick_posts_one_public_message(w: World) -> None:
    room = w.channel()
    message = await open_table(w.fake, room, w.alice, [w.bob, w.carol])
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    await w.fake.wait_idle()
    # Remove someone who is not to act, so no AI turn pushes the notice off the table's log.
    people = {w.alice.id: w.alice, w.bob.id: w.bob, w.carol.id: w.carol}
    gone = w.carol if await human_to_act(w.fake, table, people) is w.bob else w.bob
    seat = table.seat_of(gone.id)
    assert seat is not None

    def public() -> list[str]:  # what the channel shows everyone, bar turn pings
        return [
            f"{m.id}:{m.text()}"
            for m in w.fake.messages(room, viewer=w.dave)
            if not m.ephemeral and m.id != message.id and "your turn at" not in m.text()
        ]

    before = public()
    kick = await kick_player(w.fake, w.alice, room, "qdice", gone)
    await w.fake.wait_idle()
    new = [line for line in public() if line not in before]
    assert len(new) == 1, new
    assert f"{gone.name} was removed by alice; an AI plays their seat now." in new[0]
    assert kick.ephemeral and f"{gone.name} was removed" in kick.text()  # the host's own word
    assert table.seats[seat].is_ai and f"{gone.name} was removed" in message.refresh().text()
    await cancel_table(w.fake, w.alice, room, "qdice")


async def test_picking_a_die_keeps_the_picture_a_roll_sends_a_new_one(w: World) -> None:
    """The dice picked are shown by their buttons (and the pick's score in the text): the
    answer to a pick keeps the table's picture as it is, a roll or bank sends a new one. Only
    an answer with a new picture asks Discord for the edited message back (for the new
    attachment's id)."""
    room = w.channel()
    message = await open_table(w.fake, room, w.alice, [w.bob])
    table = w.bot.tables.in_location(room.id)
    assert table is not None and table.state is not None
    people = {w.alice.id: w.alice, w.bob.id: w.bob}
    player = await human_to_act(w.fake, table, people)
    seat = table.seat_of(player.id)
    obs = table.spec.engine.observe(table.state, seat)
    verb, _, picks = choose_action(obs, random.Random(0)).partition(":")
    await click_action(w.fake, player, message, f"t{picks[0]}")  # (may draw it once)
    carried = [a.id for a in message.refresh().attachments]
    assert len(carried) == 1
    for index in [picks[0], picks[0], *picks[1:]]:  # put back, picked again, then the rest
        pick = await click_action(w.fake, player, message, f"t{index}")
        assert [a.id for a in message.refresh().attachments] == carried
        assert pick.type == 7 and pick.interaction.echoed is False
    assert all(button(message, f"t{i}").style == 1 for i in picks)  # primary: picked
    assert message.image().size == (960, 600)  # the picture is there, whole
    roll = await click_action(w.fake, player, message, verb)  # new dice or a bank: a new picture
    await w.fake.wait_idle()
    assert [a.id for a in message.refresh().attachments] != carried
    assert roll.type == 7 and roll.interaction.echoed is True
    # Whoever picks next keeps that picture: its id came back with the roll's answer.
    player = await human_to_act(w.fake, table, people)
    obs = table.spec.engine.observe(table.state, table.seat_of(player.id))
    picks = choose_action(obs, random.Random(0)).partition(":")[2]
    shown = [a.id for a in message.refresh().attachments]
    pick = await click_action(w.fake, player, message, f"t{picks[0]}")
    assert [a.id for a in message.refresh().attachments] == shown
    assert pick.interaction.echoed is False


async def test_answered_clicks_and_commands_leave_no_reference_cycles(
    w: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """discord.py's interaction and its response point at each other; once an interaction's
    answer watch is over the bot unlinks them, so a click (with the message it came from, its
    buttons, the member) and a command are freed as soon as nothing uses them instead of
    waiting for the cycle collector's oldest generation (59 objects a click before)."""
    monkeypatch.setattr(answers, "UNANSWERED_AFTER", 0.05)
    room = w.channel()
    message = await open_table(w.fake, room, w.alice, [w.bob])
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    player = await human_to_act(w.fake, table, {w.alice.id: w.alice, w.bob.id: w.bob})
    for _ in range(4):  # whatever a first click makes and keeps
        await click_action(w.fake, player, message, "t0")
    await asyncio.sleep(0.3)
    gc.collect()
    gc.disable()
    try:
        for _ in range(20):
            pick = await click_action(w.fake, player, message, "t0")
            about = await w.fake.slash(w.bob, "about", channel=room)
            assert pick.type == 7 and about.message is not None
        await asyncio.sleep(0.3)  # every watch over
        gc.set_debug(gc.DEBUG_SAVEALL)
        found = gc.collect()
        kinds = Counter(type(o).__qualname__ for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert found < 20, kinds.most_common(8)  # not even one object per click and command
