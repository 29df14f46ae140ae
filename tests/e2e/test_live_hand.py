"""A person's private reply keeps itself current: edited in place as the table moves, a
fresh one once Discord no longer takes edits through its token, one per person per table."""

from __future__ import annotations

import pytest

from bot.ui import presenter
from tests.e2e.conftest import World, cancel_table
from tests.e2e.flume_play import open_hand, open_table, play_to_the_end


def private_replies(w: World, room, user) -> list:  # type: ignore[no-untyped-def]
    return [m for m in w.fake.messages(room, viewer=user) if m.ephemeral and m.visible_to(user)]


async def test_the_private_view_is_edited_as_the_table_moves(w: World) -> None:
    room = w.channel()
    message = await open_table(
        w.fake, room, w.alice, [w.bob], ai=2, options={"target": 5}, tables=w.bot.tables, seed=4
    )
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    view = await open_hand(w.fake, w.alice, message)
    shown = view.text()
    before = table.record.version
    people = {w.alice.id: w.alice, w.bob.id: w.bob}
    with pytest.raises(AssertionError, match="did not finish"):  # a few moves are enough
        await play_to_the_end(w.fake, table, message, people, max_moves=4, live=True)
    await w.fake.wait_idle()
    assert table.record.version > before + 2
    again = view.refresh()
    assert again.id == view.id and again.text() != shown  # the same reply, brought up to date
    current = f"qt:{table.id}:{table.record.version}:"
    ids = [c.custom_id or "" for c in again.buttons + again.selects]
    assert all(i.startswith(current) for i in ids if i.startswith("qt:"))  # today's controls
    assert len(private_replies(w, room, w.alice)) == 1
    assert len(private_replies(w, room, w.bob)) >= 1  # bob's own, never alice's
    assert all(not m.visible_to(w.alice) for m in private_replies(w, room, w.bob))
    await cancel_table(w.fake, w.alice, room, "flume")
    await w.fake.wait_idle()
    assert "cancelled" in view.refresh().text()  # the open view says the game ended


async def test_an_expired_token_gives_way_to_a_fresh_reply(
    w: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    room = w.channel()
    message = await open_table(
        w.fake, room, w.alice, [w.bob], ai=2, options={"target": 5}, tables=w.bot.tables, seed=4
    )
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    view = await open_hand(w.fake, w.alice, message)
    shown = view.text()
    monkeypatch.setattr(presenter, "TOKEN_LIFETIME", 0.0)  # as if 15 minutes had passed
    before = table.record.version
    people = {w.alice.id: w.alice, w.bob.id: w.bob}
    with pytest.raises(AssertionError, match="did not finish"):
        await play_to_the_end(w.fake, table, message, people, max_moves=2)
    await w.fake.wait_idle()
    assert table.record.version > before
    assert view.refresh().text() == shown  # no edit through a token Discord no longer takes
    monkeypatch.setattr(presenter, "TOKEN_LIFETIME", 14 * 60.0)
    fresh = await open_hand(w.fake, w.alice, message)  # the next click opens a fresh one
    assert fresh.id != view.id
    assert len([m for m in private_replies(w, room, w.alice) if m.id == view.id]) == 1
    await cancel_table(w.fake, w.alice, room, "flume")


async def test_a_whole_flume_game_needs_one_private_reply_per_person(w: World) -> None:
    room = w.channel()
    message = await open_table(
        w.fake,
        room,
        w.alice,
        [w.bob, w.carol],
        ai=1,
        options={"target": 5},
        tables=w.bot.tables,
        seed=4,
    )
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    people = {w.alice.id: w.alice, w.bob.id: w.bob, w.carol.id: w.carol}
    tally = await play_to_the_end(w.fake, table, message, people, live=True)
    assert table.record.status == "finished" and tally.moves >= 20
    for person in people.values():
        replies = len(private_replies(w, room, person))
        print(f"{person.name}: {replies} private replies for {tally.moves} moves in all")
        assert tally.opened.get(person.id, 0) == replies
        assert replies == 1  # the live reply carried them through the whole game
