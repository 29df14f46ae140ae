"""Quantum Fingers end to end: naming a flavour in a modal, private decisions, a whole game."""

from __future__ import annotations

import re

import pytest

from bot.sandbox.loopback import InteractionRefused
from tests.e2e.conftest import World, cancel_table
from tests.e2e.fingers_play import (
    my_view,
    open_table,
    pick,
    play_to_the_end,
    press,
)


def _reply(w: World, channel, user):  # type: ignore[no-untyped-def]
    mine = [m for m in w.fake.messages(channel, viewer=user) if m.ephemeral]
    assert mine, "no ephemeral reply"
    return mine[-1]


async def test_first_ask_names_a_flavour_in_a_modal(w: World) -> None:
    room = w.channel()
    message = await open_table(w.fake, room, w.alice, [w.bob, w.carol])
    table = w.bot.tables.in_location(room.id)
    assert table is not None and table.state is not None
    assert message.image().size == (960, 600)
    assert "alice** to ask" in message.text()
    assert not any(b.custom_id.endswith(":?new:1") for b in message.buttons)  # nothing public

    bobs = await my_view(w.fake, w.bob, message)
    assert "Waiting for **alice**" in bobs.text() and not bobs.selects
    with pytest.raises(InteractionRefused):  # someone else's ephemeral view
        await w.fake.click(w.alice, bobs, label="My hand")

    view = await my_view(w.fake, w.alice, message)
    values = {o["value"] for s in view.selects for o in s.options}
    assert values == {"?new:1", "?new:2"}  # nothing is named yet

    opened = await pick(w.fake, w.alice, view, "?new:1")
    modal = opened.modal
    assert modal is not None and modal.fields[0]["max_length"] == 32
    with pytest.raises(InteractionRefused):  # only alice may fill in her modal
        await w.fake.submit_modal(w.bob, opened, {"Flavour name": "pickles"})
    version = table.record.version
    await w.fake.submit_modal(w.alice, opened, {"Flavour name": "  @everyone  "})
    refused = _reply(w, room, w.alice)
    assert "can't contain formatting characters (`@`)" in refused.text()
    assert table.record.version == version and table.state.names[0] is None  # type: ignore[attr-defined]
    # The refusal keeps the ask (bob, a new flavour): a new name is typed straight from it.
    again = await w.fake.click(w.alice, refused, label="Type another flavour name")
    assert again.modal is not None and again.modal.title == "Name a new flavour"
    await w.fake.submit_modal(w.alice, again, {"Flavour name": "  juniper   berries "})
    await w.fake.wait_idle()
    state = table.state
    assert state.names[0] == "juniper berries"  # type: ignore[attr-defined]
    assert state.phase == "answer" and state.asked == 1  # type: ignore[attr-defined]
    assert "juniper berries" in message.refresh().text()
    # the refusal she answered from became her view, updated in place: waiting for bob
    assert "Waiting for **bob**" in refused.refresh().text() and not refused.buttons

    await my_view(w.fake, w.carol, message)  # carol can't answer for bob
    with pytest.raises(AssertionError):
        await press(w.fake, w.carol, _reply(w, room, w.carol), "yes")
    bobs = await my_view(w.fake, w.bob, message)
    assert "alice asks you for juniper berries" in bobs.text()
    await press(w.fake, w.bob, bobs, "no")
    await w.fake.wait_idle()
    state = table.state  # the core swaps in a new state after every move
    assert state.current == 1 and state.phase == "ask"  # type: ignore[attr-defined]
    assert state.hi[1][0] == 0  # type: ignore[attr-defined]  # bob committed to holding none
    bobs = await my_view(w.fake, w.bob, message)
    values = {o["value"] for s in bobs.selects for o in s.options}
    assert "ask:0:0" not in values and "ask:2:0" not in values  # bob holds no juniper
    assert values == {"?new:0", "?new:2"}
    # A name the game itself refuses (taken, whatever its case) keeps the ask as well.
    opened = await pick(w.fake, w.bob, bobs, "?new:2")
    await w.fake.submit_modal(w.bob, opened, {"Flavour name": "Juniper Berries"})
    refused = _reply(w, room, w.bob)
    assert "juniper berries" in refused.text().lower() and table.state.names[1] is None  # type: ignore[attr-defined]
    again = await w.fake.click(w.bob, refused, label="Type another flavour name")
    await w.fake.submit_modal(w.bob, again, {"Flavour name": "quokkas"})
    await w.fake.wait_idle()
    state = table.state
    assert state.names[1] == "quokkas" and state.asked == 2  # type: ignore[attr-defined]
    await cancel_table(w.fake, w.alice, room, "fingers")


async def test_outsider_cannot_open_the_naming_modal(w: World) -> None:
    room = w.channel()
    message = await open_table(w.fake, room, w.alice, [w.bob], ai=1)
    view = await my_view(w.fake, w.alice, message)
    await w.fake.click(w.dave, message, label="My hand")
    assert "not playing" in _reply(w, room, w.dave).text()
    assert view.selects
    await cancel_table(w.fake, w.alice, room, "fingers")


async def test_whole_game_with_people_and_ai_feeds_the_leaderboard(w: World) -> None:
    room = w.channel()
    message = await open_table(w.fake, room, w.alice, [w.bob], ai=2)
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    people = {w.alice.id: w.alice, w.bob.id: w.bob}
    made = await play_to_the_end(w.fake, table, message, people)
    assert made > 0
    final = message.refresh()
    assert table.record.status == "finished"
    assert "Final standings" in final.text()
    labels = [b.label for b in final.buttons]  # the game controls gave way to these
    assert labels == ["Rematch", "Show hands", "Replay", "Review"]  # people played: Review
    outcome = table.spec.engine.outcome(table.state)
    # the standings count books and put more books higher after the winner
    lines = re.findall(r"^\*\*(\d+)(?:st|nd|rd|th)=?\*\* (.+): (\d+) books?$", final.text(), re.M)
    assert len(lines) == len(table.seats)
    books = {name: int(n) for _, name, n in lines}
    state = table.state
    assert books == {n: len(state.books[s]) for s, n in enumerate(table.names)}  # type: ignore[attr-defined]
    order = [int(books[name]) for _, name, _ in lines]
    if not outcome.draw:
        assert lines[0][1] == table.names[outcome.winners[0]]
        order = order[1:]
    assert order == sorted(order, reverse=True)
    rows, _ = await w.bot.db.leaderboard(w.guild.id, "fingers")
    assert {r.user_id for r in rows} >= {w.alice.id, w.bob.id}
    assert ("won" in final.text()) or outcome.draw


async def test_rules_page(w: World) -> None:
    room = w.channel()
    result = await w.fake.slash(w.carol, "rules", channel=room, options={"game": "fingers"})
    text = result.message.text()
    assert "Quantum Fingers" in text and "consistent" in text and "book" in text
