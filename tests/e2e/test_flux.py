"""Flux end to end: variants in the lobby, private views, refusals, a whole game to the end."""

from __future__ import annotations

import pytest

from bot.sandbox.loopback import InteractionRefused
from tests.e2e.conftest import World, cancel_table
from tests.e2e.flux_play import open_table, open_view, people_to_act, play_to_the_end, press
from tests.e2e.seeding import open_seeded
from tests.e2e.settle import settled


def _reply(w: World, channel, user):  # type: ignore[no-untyped-def]
    mine = [m for m in w.fake.messages(channel, viewer=user) if m.ephemeral]
    assert mine, "no ephemeral reply"
    return mine[-1]


async def test_variants_are_validated_completed_and_shown(w: World) -> None:
    room = w.channel()
    bad = await w.fake.slash(w.alice, "flux start", channel=room, options={"variants": "1,23"})
    assert bad.message.ephemeral and "gambling" in bad.message.text()
    clash = await w.fake.slash(w.alice, "flux start", channel=room, options={"variants": "16,17"})
    assert "can't be played together" in clash.message.text()
    unknown = await w.fake.slash(w.alice, "flux start", channel=room, options={"variants": "99"})
    assert "no Flux variant" in unknown.message.text()
    assert "see `/rules game:Flux`" in unknown.message.text()  # the command as people type it
    flux = next(c for c in w.fake.commands() if c["name"] == "flux")
    start = next(o for o in flux["options"] if o["name"] == "start")
    variants = next(o for o in start["options"] if o["name"] == "variants")
    assert "/rules game:Flux" in variants["description"]
    choices = await w.fake.autocomplete(
        w.alice, "flux start", focused="variants", value="1,tru", channel=room
    )
    assert [c["value"] for c in choices] == ["1,12"]
    lobby = (
        await w.fake.slash(w.alice, "flux start", channel=room, options={"variants": "17, 4 ,1"})
    ).message
    assert not lobby.ephemeral
    text = lobby.text()
    # named as the rules page says it ("discard any number up to the roll")
    assert "1 Discard up to the roll" in text and "17 Momentum flux" in text and "3 decks" in text
    await cancel_table(w.fake, w.alice, room, "flux")


async def test_reshuffling_length_is_a_table_option(w: World) -> None:
    room = w.channel()
    forged = await w.fake.slash(
        w.alice, "flux start", channel=room, options={"variants": "15", "deals": 0}, forged=True
    )
    assert "deals must be a whole number from 1 to 10" in forged.message.text()
    lobby = (
        await w.fake.slash(
            w.alice,
            "flux start",
            channel=room,
            options={"variants": "15", "deals": 3, "limit": 120},
        )
    ).message
    assert not lobby.ephemeral
    text = lobby.text()
    assert "after 3 deals each or at 120 points, whichever comes first" in text
    await cancel_table(w.fake, w.alice, room, "flux")


async def test_hands_are_private_and_simultaneous_claims(w: World) -> None:
    # Seed 100: alice's first hand is dealt right at the target, bob's is not.
    room = w.channel()
    message = await open_seeded(w.fake, w.bot.tables, room, "flux", w.alice, [w.bob], seed=100)
    table = w.bot.tables.in_location(room.id)
    assert table is not None and table.state is not None
    await settled(w.fake, table)
    assert table.state.phase == "claim"  # type: ignore[attr-defined]
    # bob had nothing to decide: the table played on for him; alice decides in secret
    assert table.state.claims == [None, False]  # type: ignore[attr-defined]
    assert people_to_act(table, {w.alice.id: w.alice, w.bob.id: w.bob}) == [w.alice]
    public = message.refresh()
    assert not any((b.custom_id or "").endswith(":pass") for b in public.buttons)
    view = await open_view(w.fake, w.alice, message)
    assert view.visible_to(w.alice) and not view.visible_to(w.bob)
    hand = table.state.hands[0]  # type: ignore[attr-defined]
    assert "Your hand" in view.text() and view.image().size[0] > 0
    assert {"Claim original hand", "Play on"} <= {b.label for b in view.buttons}
    with pytest.raises(InteractionRefused):
        await w.fake.click(w.bob, view, label="Play on")
    await w.fake.click(w.dave, message, label="My hand")
    assert "not playing" in _reply(w, room, w.dave).text()
    await press(w.fake, w.alice, view, "pass")
    await settled(w.fake, table)
    assert table.state.phase != "claim"  # type: ignore[attr-defined]
    assert {"kind": "claims", "data": {"claims": [], "target": table.state.target}} in table.log  # type: ignore[attr-defined]
    bob_view = await open_view(w.fake, w.bob, message)
    for code in hand:  # alice's cards never reach bob's view (bar copies he holds himself)
        if code not in table.state.hands[1]:  # type: ignore[attr-defined]
            assert f"{code}" not in bob_view.text()
    await cancel_table(w.fake, w.alice, room, "flux")


async def test_a_lone_play_on_is_made_for_the_player(w: World) -> None:
    # Seed 1: neither first hand is at the target, so neither person has anything to decide
    # before the first trick, and nobody is asked to press anything.
    room = w.channel()
    message = await open_seeded(w.fake, w.bot.tables, room, "flux", w.alice, [w.bob], seed=1)
    table = w.bot.tables.in_location(room.id)
    assert table is not None and table.state is not None
    await settled(w.fake, table)
    assert table.state.phase == "trick"  # type: ignore[attr-defined]
    assert {"kind": "claims", "data": {"claims": [], "target": table.state.target}} in table.log  # type: ignore[attr-defined]
    moves = await w.bot.db.actions(table.id)
    made = sorted((a.seat, a.action, a.user_id) for a in moves[:2])
    assert made == [(0, "pass", w.alice.id), (1, "pass", w.bob.id)]  # their own moves
    turn = message.refresh().text()
    assert "Original hands" not in turn
    await cancel_table(w.fake, w.alice, room, "flux")


async def test_whole_game_with_people_and_ai_to_the_end(w: World) -> None:
    room = w.channel()
    message = await open_table(w.fake, room, w.alice, [w.bob], ai=1)
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    moves = await play_to_the_end(w.fake, table, message, {w.alice.id: w.alice, w.bob.id: w.bob})
    assert moves > 0
    final = message.refresh()
    assert table.record.status == "finished"
    assert "Final standings" in final.text()
    labels = [b.label for b in final.buttons]  # the game controls gave way to these
    assert labels == ["Rematch", "Show hands", "Replay", "Review"]  # people played: Review
    assert final.image().size == (960, 600)
    # the final screen explains every score: per player by source, then hand by hand
    text = final.text()
    assert "Where the points came from" in text and "Hand by hand" in text
    scores = table.state.scores  # type: ignore[attr-defined]
    for seat, name in enumerate(table.names):
        assert f"**{name}**: {scores[seat]} point" in text
    assert "**Hand 1**" in text and "{p" not in text
    rows, _ = await w.bot.db.leaderboard(w.guild.id, "flux")
    assert {r.user_id for r in rows} >= {w.alice.id, w.bob.id}


async def test_rules_page(w: World) -> None:
    room = w.channel()
    result = await w.fake.slash(w.carol, "rules", channel=room, options={"game": "flux"})
    text = result.message.text()
    assert result.message.ephemeral and "Flux" in text and "bull's-eye" in text
