"""Flume end to end: lobby and options, private hands, whole four- and five-handed games."""

from __future__ import annotations

import random
import re

import pytest

from bot.engines.cards import card
from bot.engines.flume.ai import choose_action
from bot.engines.flume.engine import FlumeConfig, FlumeEngine, FlumeState
from bot.sandbox.loopback import InteractionRefused
from tests.e2e.conftest import World, cancel_table, until
from tests.e2e.flume_play import decide, open_hand, open_table, person_to_act, play_to_the_end


def replay(n: int, *, seed: int, target: int, people: set[int]) -> FlumeState:
    """The same game played straight on the engine: the table must end exactly so."""
    engine = FlumeEngine()
    state = engine.new_game(FlumeConfig(target=target), n, seed)
    while not engine.is_over(state):
        (seat,) = engine.to_act(state)
        obs = engine.observe(state, seat)
        move = decide(obs) if seat in people else choose_action(obs, random.Random(0))
        engine.apply(state, seat, move)
    return state


def _reply(w: World, channel, user):  # type: ignore[no-untyped-def]
    mine = [m for m in w.fake.messages(channel, viewer=user) if m.ephemeral]
    assert mine, "no ephemeral reply"
    return mine[-1]


async def test_lobby_options_rules_and_player_count(w: World) -> None:
    room = w.channel()
    options = {"target": 11, "four_colour": True, "turn_minutes": 3}
    lobby = (await w.fake.slash(w.alice, "flume start", channel=room, options=options)).message
    assert "First to 11 points; four-colour deck" in lobby.text()
    assert "Turn timer: 3 min" in lobby.text()
    await w.fake.click(w.bob, lobby, label="Join")
    await w.fake.click(w.alice, lobby, label="Add AI")
    await w.fake.click(w.alice, lobby, label="Start")
    assert "needs at least 4 players" in _reply(w, room, w.alice).text()
    table = w.bot.tables.in_location(room.id)
    assert table is not None and table.record.status == "lobby"
    assert table.config.model_dump() == {"target": 11, "four_colour": True}
    rules = await w.fake.slash(w.carol, "rules", channel=room, options={"game": "flume"})
    assert rules.message.ephemeral and "left bower" in rules.message.text()
    await cancel_table(w.fake, w.alice, room, "flume")


async def test_each_hand_is_only_in_its_owners_view(w: World) -> None:
    room = w.channel()
    message = await open_table(w.fake, room, w.alice, [w.bob], ai=2)
    table = w.bot.tables.in_location(room.id)
    assert table is not None and table.state is not None
    people = {w.alice.id: w.alice, w.bob.id: w.bob}
    await w.fake.wait_idle()
    assert not [b for b in message.refresh().buttons if ":bid" in (b.custom_id or "")]
    view = await open_hand(w.fake, w.alice, message)
    assert view.visible_to(w.alice) and not view.visible_to(w.bob)
    alice_cards = table.state.hands[0]  # type: ignore[attr-defined]
    bob_cards = table.state.hands[1]  # type: ignore[attr-defined]
    assert all(card(c).label in view.text() for c in alice_cards)
    bob_view = await open_hand(w.fake, w.bob, message)
    assert all(card(c).label not in view.text() for c in bob_cards if c not in alice_cards)
    assert not any(f"d:{c}" in (b.custom_id or "") for b in bob_view.buttons for c in alice_cards)
    with pytest.raises(InteractionRefused):
        await w.fake.click(w.bob, view, label="Pass")
    mover = person_to_act(table, people)
    if mover is not None:
        waiting = w.bob if mover is w.alice else w.alice
        version = table.record.version
        theirs = await open_hand(w.fake, waiting, message)
        assert "Waiting for" in theirs.text() and not theirs.buttons
        assert table.record.version == version
    await w.fake.click(w.dave, message, label="My hand")
    assert "not playing" in _reply(w, room, w.dave).text()
    await cancel_table(w.fake, w.alice, room, "flume")


async def test_the_bidding_offers_in_words_what_the_buttons_offer(w: World) -> None:
    room = w.channel()
    message = await open_table(w.fake, room, w.alice, [w.bob, w.carol, w.dave])
    table = w.bot.tables.in_location(room.id)
    assert table is not None and table.state is not None
    await w.fake.wait_idle()
    first = await open_hand(w.fake, w.alice, message)  # seat 0 bids first
    assert "Nobody has bid yet. Bid 3 to 6 points or pass." in first.text()
    await w.fake.click(w.alice, first, label="Bid 4")
    await w.fake.wait_idle()
    second = await open_hand(w.fake, w.bob, message)
    text = second.text()
    assert "The bid stands at 4. Bid 5 or 6 points, or pass." in text
    assert "3 to 6" not in text
    assert [b.label for b in second.buttons if b.label.startswith(("Bid", "Pass"))] == [
        "Pass",
        "Bid 5",
        "Bid 6",
    ]
    await w.fake.click(w.bob, second, label="Bid 5")
    await w.fake.wait_idle()
    third = await open_hand(w.fake, w.carol, message)
    assert "The bid stands at 5. Bid 6 points or pass." in third.text()
    await cancel_table(w.fake, w.alice, room, "flume")


async def test_whole_four_handed_game_with_people_and_ai(w: World) -> None:
    room = w.channel()
    message = await open_table(
        w.fake, room, w.alice, [w.bob], ai=2, options={"target": 5}, tables=w.bot.tables, seed=4
    )
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    people = {w.alice.id: w.alice, w.bob.id: w.bob}
    tally = await play_to_the_end(w.fake, table, message, people)
    assert table.record.status == "finished"
    assert tally.moves >= 12 and tally.toggles > 0  # people bid, discarded and played
    await until(lambda: "Final standings" in message.refresh().text())  # drawn after the save
    final = message.refresh()
    assert "won" in final.text() and "Final standings" in final.text()
    assert final.image().size == (960, 600)
    state = table.state
    assert state is not None
    assert max(state.scores) >= 5  # type: ignore[attr-defined]
    assert state.scores[0] == state.scores[2] and state.scores[1] == state.scores[3]  # type: ignore[attr-defined]
    first, second = (table.names[s] for s in state.winners)  # type: ignore[attr-defined]
    best = max(state.scores)  # type: ignore[attr-defined]
    assert f"🏆 **{first} and {second}** won." in final.text()  # a team, said as people do
    assert f"win the game with {best} points!" in final.text()
    # Partners share their place, and it reads so: no markdown numbered list, which
    # Discord renumbers 1, 2, 3, 4.
    assert not re.search(r"^\d+\. ", final.text(), re.M)
    places = {
        name: place
        for place, name in re.findall(
            r"^\*\*(\d+(?:st|nd|rd|th)=?)\*\* (.+): -?\d+ points?$", final.text(), re.M
        )
    }
    losers = [n for n in table.names if n not in (first, second)]
    assert places == {first: "1st=", second: "1st=", losers[0]: "2nd=", losers[1]: "2nd="}
    assert state.scores == replay(4, seed=4, target=5, people={0, 1}).scores  # type: ignore[attr-defined]
    rows, _ = await w.bot.db.leaderboard(w.guild.id, "flume")
    assert {r.user_id for r in rows} >= {w.alice.id, w.bob.id}


async def test_whole_five_handed_game_with_a_called_partner(w: World) -> None:
    room = w.channel()
    message = await open_table(
        w.fake,
        room,
        w.alice,
        [w.bob, w.carol],
        ai=2,
        options={"target": 5},
        tables=w.bot.tables,
        seed=1,
    )
    table = w.bot.tables.in_location(room.id)
    assert table is not None and table.state is not None
    assert table.state.n_players == 5  # type: ignore[attr-defined]
    people = {w.alice.id: w.alice, w.bob.id: w.bob, w.carol.id: w.carol}
    tally = await play_to_the_end(w.fake, table, message, people)
    assert table.record.status == "finished"
    assert tally.calls, "no person won a bid and called a partner through the menus"
    assert all(card(c) for c in tally.calls)
    assert any("hidden until it is played" in text for text in tally.partner_views)
    assert any("you are the bidder's secret partner" in text for text in tally.partner_views)
    assert any("is the partner" in text for text in tally.partner_views)
    await until(lambda: "Final standings" in message.refresh().text())  # drawn after the save
    final = message.refresh().text()
    assert "won" in final and "Final standings" in final
    expected = replay(5, seed=1, target=5, people={0, 1, 2})
    assert table.state.scores == expected.scores  # type: ignore[attr-defined]
