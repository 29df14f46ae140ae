"""QuantumPoker end to end: options, rules, private menus, refusals, a whole match with AI."""

from __future__ import annotations

import pytest

from bot.sandbox.loopback import Channel, InteractionRefused, Message, User
from tests.e2e.conftest import World, cancel_table
from tests.e2e.qdice_play import human_to_act
from tests.e2e.qpoker_play import (
    CARD_MENU,
    choose,
    menu_steps,
    my_hand,
    open_table,
    play_to_the_end,
)


def _reply(w: World, channel: Channel, user: User) -> Message:
    """The newest ephemeral message only ``user`` can see in the channel."""
    mine = [m for m in w.fake.messages(channel, viewer=user) if m.ephemeral]
    assert mine, "no ephemeral reply"
    return mine[-1]


async def test_lobby_options_and_rules_page(w: World) -> None:
    room = w.channel()
    options = {"chips": 12, "rounds": 2, "community": "per_player", "calling": False}
    lobby = (await w.fake.slash(w.alice, "qpoker start", channel=room, options=options)).message
    assert "12 chips each, 2 rounds, one card per player a round" in lobby.text()
    assert "no early measurement" in lobby.text()
    await cancel_table(w.fake, w.alice, room, "qpoker")
    rules = await w.fake.slash(w.bob, "rules", channel=room, options={"game": "qpoker"})
    assert rules.message.ephemeral and "QuantumPoker" in rules.message.text()
    assert "SWAP" in rules.message.text() and "superposition" in rules.message.text()


async def test_private_menus_are_only_for_their_owner_and_turn(w: World) -> None:
    room = w.channel()
    message = await open_table(w.fake, room, w.alice, [w.bob])
    table = w.bot.tables.in_location(room.id)
    assert table is not None and table.state is not None
    assert [b.label for b in message.buttons] == ["My hand", "Leave"]  # nothing secret in public
    assert not message.selects and message.image().size == (960, 600)
    people = {w.alice.id: w.alice, w.bob.id: w.bob}
    mover = await human_to_act(w.fake, table, people)
    waiting = w.bob if mover is w.alice else w.alice

    panel = await my_hand(w.fake, mover, message)
    assert panel.visible_to(mover) and not panel.visible_to(waiting)
    assert "Qubit 1" in panel.text() and "reads" in panel.text()
    assert [s.placeholder for s in panel.selects] == [CARD_MENU]
    with pytest.raises(InteractionRefused):  # an ephemeral message is its owner's alone
        await w.fake.select(waiting, panel, [panel.selects[0].options[0]["value"]])

    other = await my_hand(w.fake, waiting, message)
    assert "Waiting for" in other.text() and not other.selects
    assert [b.disabled for b in other.buttons] == [True]
    await w.fake.click(w.dave, message, label="My hand")
    assert "not playing" in _reply(w, room, w.dave).text()

    version = table.record.version
    card = panel.selects[0].options[0]["value"]
    await choose(w.fake, w.bot, mover, panel, CARD_MENU, card)
    assert table.state.pending == card.removeprefix("pick:")  # type: ignore[attr-defined]
    assert len(panel.refresh().selects) >= 2 and table.record.version == version + 1
    await w.fake.click(mover, panel.refresh(), label="Start over")
    assert table.state.pending is None  # type: ignore[attr-defined]
    await cancel_table(w.fake, w.alice, room, "qpoker")


async def test_whole_match_through_the_menus_with_an_ai_seat(w: World) -> None:
    room = w.channel()
    message = await open_table(
        w.fake, room, w.alice, [w.bob], ai=1, options={"rounds": 2, "chips": 10}
    )
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    people = {w.alice.id: w.alice, w.bob.id: w.bob}
    moves = await play_to_the_end(w.fake, w.bot, table, message, people)
    assert moves and table.record.status == "finished"
    state = table.state
    assert state is not None
    assert sum(state.chips) + state.carry == 30  # type: ignore[attr-defined]
    final = message.refresh()
    assert "won" in final.text() and "Final standings" in final.text()
    labels = [b.label for b in final.buttons]  # the game controls gave way to these
    assert labels == ["Rematch", "Show hands", "Replay", "Review"]  # people played: Review
    rows, _ = await w.bot.db.leaderboard(w.guild.id, "qpoker")
    assert {r.user_id for r in rows} >= {w.alice.id, w.bob.id}


def test_menu_steps_spell_every_kind_of_move() -> None:
    assert menu_steps("X:2") == [(CARD_MENU, "pick:X"), ("Apply X to…", "X:2")]
    assert menu_steps("CX:1.3")[-1] == ("Apply CX to…", "CX:1.3")
    assert [v for _, v in menu_steps("SWAP:0:2.1")] == ["pick:SWAP", "pick:SWAP:0", "SWAP:0:2.1"]
