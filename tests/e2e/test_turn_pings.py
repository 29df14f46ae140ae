"""Turn messages: sent when a person's turn starts after others moved, not after their own
move, taken away when they act, and not sent to someone who turned them off."""

from __future__ import annotations

from tests.e2e.conftest import World, cancel_table, until
from tests.e2e.qdice_play import human_to_act, open_table, play_human_turn, two_people_table


def pings(w: World, room, user) -> list:  # type: ignore[no-untyped-def]
    return [
        m
        for m in w.fake.messages(room, viewer=w.dave)
        if not m.ephemeral and "your turn at" in m.text() and f"<@{user.id}>" in m.text()
    ]


async def test_a_turn_message_comes_when_others_have_moved_and_goes_when_you_act(
    w: World,
) -> None:
    room = w.channel()
    people = {w.alice.id: w.alice, w.bob.id: w.bob}
    message, table, first, other = await two_people_table(
        w.fake, w.bot.tables, room, w.alice, w.bob
    )
    await play_human_turn(w.fake, w.bot.tables, table, message, first)  # a whole turn
    second = await human_to_act(w.fake, table, people)
    assert second is other
    await until(lambda: len(pings(w, room, other)) == 1)
    ping = pings(w, room, other)[0]
    assert "Quantum dice" in ping.text() and str(table.record.message_id) in ping.text()
    # first's own rolls within their turn never brought them a message
    assert len(pings(w, room, first)) <= 1
    await play_human_turn(w.fake, w.bot.tables, table, message, other)
    await w.fake.wait_idle()
    assert w.fake.get_message(ping.id).deleted  # taken away once they acted
    await cancel_table(w.fake, w.alice, room, "qdice")


async def test_no_turn_messages_for_someone_who_turned_them_off(w: World) -> None:
    room = w.channel()
    reply = await w.fake.slash(w.bob, "settings", channel=room, options={"turn_pings": False})
    assert reply.message.ephemeral and "Turn messages: **off**" in reply.message.text()
    people = {w.alice.id: w.alice, w.bob.id: w.bob}
    message = await open_table(w.fake, room, w.alice, [w.bob])
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    for _ in range(4):  # a few turns each
        person = await human_to_act(w.fake, table, people)
        await play_human_turn(w.fake, w.bot.tables, table, message, person)
    await w.fake.wait_idle()
    assert pings(w, room, w.bob) == []
    assert pings(w, room, w.alice)  # alice still hears about her turns
    shown = await w.fake.slash(w.bob, "settings", channel=room)
    assert "**off**" in shown.message.text()
    await w.fake.slash(w.bob, "settings", channel=room, options={"turn_pings": True})
    await cancel_table(w.fake, w.alice, room, "qdice")


async def test_a_turn_message_outlasts_a_long_rate_limit(w: World) -> None:
    """Discord keeps answering that the bot sends too much (a burst of tables starting):
    the turn message waits and comes once Discord takes it."""
    room = w.channel()
    message, table, first, other = await two_people_table(
        w.fake, w.bot.tables, room, w.alice, w.bob
    )
    # more refusals in a row than discord.py retries by itself
    w.fake.faults.rate_limit("POST", rf"/channels/{room.id}/messages$", 0.05, count=6)
    await play_human_turn(w.fake, w.bot.tables, table, message, first)
    await until(lambda: len(pings(w, room, other)) == 1)
    assert w.fake.faults.pending == 0
    await cancel_table(w.fake, w.alice, room, "qdice")
