"""After the game, end to end: Show hands, /history and replays of every kind of game.

For each of the five games a seeded game is played to the end through the loopback; then a
person who never sat at the table presses Show hands (every hand of the last deal, face up,
and nothing of the kind before the end), the host opens it from /history and steps through
the replay to the end, which must be the stored final state. Then /history's filters and
pages, and a game whose moves were pruned.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from bot.engines.cards import label
from bot.engines.flume.engine import hand_order
from bot.sandbox.loopback import Channel, Message, User
from bot.storage.models import SeatRecord, SeatResult
from bot.tables.replay import Replays, ReplayUnavailable
from bot.tables.table import Table
from tests.e2e import fingers_play, flume_play, flux_play, qdice_play, qpoker_play
from tests.e2e.conftest import World
from tests.e2e.seeding import open_seeded


def _replays(w: World) -> Replays:
    replays = getattr(w.bot.get_cog("History"), "replays", None)  # the extension's own copy
    assert isinstance(replays, Replays)
    return replays


def _reply(w: World, channel: Channel, user: User) -> Message:
    mine = [m for m in w.fake.messages(channel, viewer=user) if m.ephemeral]
    assert mine, "no ephemeral reply"
    return mine[-1]


@dataclass
class Rebuilt:
    """The finished game played again straight on its engine, from the stored log."""

    states: list[Any]  # after each replay step (step 0: the deal)
    movers: list[int | None]  # who made each step's move
    final: Any  # the stored final state


async def rebuild(w: World, table: Table) -> Rebuilt:
    record = await w.bot.db.load_game(table.id)
    assert record is not None and record.status == "finished" and record.state_json
    engine = table.spec.engine
    state = engine.new_game(
        engine.parse_config(record.config.get("options")), len(record.seats), record.seed
    )
    actions = await w.bot.db.actions(table.id)
    states, movers = [state.model_copy(deep=True)], [None]
    for i, action in enumerate(actions):
        if engine.apply(state, action.seat, action.action) or i == len(actions) - 1:
            states.append(state.model_copy(deep=True))
            movers.append(action.seat)
    final = engine.load_state(json.loads(record.state_json)["state"])
    return Rebuilt(states, movers, final)


def hands_step(table: Table, game: Rebuilt) -> int:
    engine = table.spec.engine
    last = engine.deal_of(game.states[-1])
    if last is None:
        return len(game.states) - 1
    return next(i for i, s in enumerate(game.states) if engine.deal_of(s) == last)


def seat_line(text: str, name: str) -> str:
    lines = [line for line in text.splitlines() if line.startswith(f"**{name}**: ")]
    assert len(lines) == 1, f"no single line for {name!r} in {text!r}"
    return lines[0].removeprefix(f"**{name}**: ")


def check_hands_shown(table: Table, state: Any, text: str) -> None:
    """Every seat's secrets at the start of the last deal are in the Show hands text."""
    names = [s.name for s in table.seats]
    game = table.record.game
    if game == "flux":
        for seat, hand in enumerate(state.hands):
            assert hand and seat_line(text, names[seat]).startswith(" ".join(map(label, hand)))
    elif game == "flume":
        for seat, hand in enumerate(state.hands):
            cards = " ".join(label(c) for c in hand_order(hand, state.trump))
            assert hand and seat_line(text, names[seat]).startswith(cards)
    elif game == "qpoker":
        for seat, row in enumerate(state.qubits):
            shown = [part.split(" (")[0] for part in seat_line(text, names[seat]).split(", ")]
            assert shown == ["0+1" if q.superposed else str(q.value) for q in row]
        assert any(not q.shown for row in state.qubits for q in row), "nothing was face down"
    else:
        assert "is ever hidden" in text


Finisher = Callable[[World, Channel, Message, Table], Awaitable[Any]]


async def _finish_qdice(w: World, room: Channel, message: Message, table: Table) -> None:
    await qdice_play.play_to_the_end(w.fake, w.bot.tables, table, message, {w.alice.id: w.alice})


async def _finish_flux(w: World, room: Channel, message: Message, table: Table) -> None:
    people = {w.alice.id: w.alice, w.bob.id: w.bob}
    await flux_play.play_to_the_end(w.fake, table, message, people)


async def _finish_flume(w: World, room: Channel, message: Message, table: Table) -> None:
    people = {w.alice.id: w.alice, w.bob.id: w.bob}
    await flume_play.play_to_the_end(w.fake, table, message, people)


async def _finish_qpoker(w: World, room: Channel, message: Message, table: Table) -> None:
    people = {w.alice.id: w.alice, w.bob.id: w.bob}
    await qpoker_play.play_to_the_end(w.fake, w.bot, table, message, people)


async def _finish_fingers(w: World, room: Channel, message: Message, table: Table) -> None:
    people = {w.alice.id: w.alice, w.bob.id: w.bob}
    await fingers_play.play_to_the_end(w.fake, table, message, people)


GAMES: dict[str, tuple[Finisher, dict[str, Any]]] = {
    "qdice": (_finish_qdice, {"guests": [], "ai": 1, "options": {"target": 1000}, "seed": 3}),
    "flux": (_finish_flux, {"guests": ["bob"], "ai": 1, "options": {}, "seed": 5}),
    "flume": (_finish_flume, {"guests": ["bob"], "ai": 2, "options": {"target": 5}, "seed": 4}),
    "qpoker": (_finish_qpoker, {"guests": ["bob"], "ai": 1, "options": {"rounds": 2}, "seed": 2}),
    "fingers": (_finish_fingers, {"guests": ["bob"], "ai": 1, "options": {}, "seed": 6}),
}


@pytest.mark.parametrize("game", list(GAMES))
async def test_show_hands_history_and_replay_of_a_finished_game(w: World, game: str) -> None:
    finish, setup = GAMES[game]
    room = w.channel()
    guests = [getattr(w, name) for name in setup["guests"]]
    message = await open_seeded(
        w.fake,
        w.bot.tables,
        room,
        game,
        w.alice,
        guests,
        seed=setup["seed"],
        ai=setup["ai"],
        options=setup["options"],
    )
    table = w.bot.tables.in_location(room.id)
    assert table is not None and table.record.status == "active"

    # Before the end nothing is revealed: no button, no replay, not in the history.
    assert not [b for b in message.refresh().buttons if b.label in ("Show hands", "Replay")]
    with pytest.raises(ReplayUnavailable, match=r"^error-replay-in-play\b"):
        await _replays(w).hands(table.id, w.guild.id)
    forged = await w.fake.click(w.dave, message, custom_id=f"qr:{table.id}:hands", forged=True)
    assert forged.message is not None and "Every" not in forged.message.text()
    listed = (await w.fake.slash(w.alice, "history", channel=room)).message
    assert f"#{table.id}**" not in listed.text()

    await finish(w, room, message, table)
    assert table.record.status == "finished"
    await w.fake.wait_idle()
    played = await rebuild(w, table)
    names = [s.name for s in table.seats]

    # Show hands, pressed by someone who never sat at the table: only they see it.
    final = message.refresh()
    assert "Final standings" in final.text()
    shown = (await w.fake.click(w.dave, final, label="Show hands")).message
    assert shown is not None and shown.ephemeral and shown.visible_to(w.dave)
    assert not shown.visible_to(w.alice)
    deal = hands_step(table, played)
    assert f"Step {deal:,} of {len(played.states) - 1:,}" in shown.text()
    check_hands_shown(table, played.states[deal], shown.text())
    if table.spec.engine.deal_of(played.final) is not None:  # opens on the deal it shows
        assert "as it was dealt** (the last of the game)" in shown.text()
        assert "'s move" not in shown.text()
    assert shown.image().size == (960, 600)

    # /history lists it; its menu opens the replay at the start.
    listed = (await w.fake.slash(w.alice, "history", channel=room)).message
    assert listed.ephemeral and f"**#{table.id}**" in listed.text()
    opened = await w.fake.select(w.alice, listed, [str(table.id)], placeholder="Replay a game…")
    replay = opened.message
    assert replay is not None and replay.ephemeral and replay.visible_to(w.alice)
    last = len(played.states) - 1
    assert f"Step 0 of {last:,}" in replay.text() and "start of the game" in replay.text()
    assert [b.disabled for b in replay.buttons if b.label in ("⏮ First", "◀ Previous")] == [
        True,
        True,
    ]

    # Next to the end: each step names who moved; the last is the stored end of the game.
    pictures = {0: replay.image().tobytes()}
    for step in range(1, last + 1):
        if step == last // 2:
            _replays(w)._kept.clear()  # as after a restart: rebuilt from storage
        await w.fake.click(w.alice, replay, label="Next ▶")
        text = replay.refresh().text()
        assert f"Step {step:,} of {last:,}" in text, text
        mover = played.movers[step]
        assert mover is not None and f"**{names[mover]}**'s move" in text
        pictures[step] = replay.image().tobytes()
    assert [b.disabled for b in replay.buttons if b.label in ("Next ▶", "Last ⏭")] == [True, True]
    rebuilt = await _replays(w).open(table.id, w.guild.id)
    assert rebuilt.state_at(last) == played.final == table.state
    assert rebuilt.state_at(deal) == played.states[deal]

    # Previous steps back; the other buttons jump.
    await w.fake.click(w.alice, replay, label="◀ Previous")
    assert f"Step {last - 1:,} of {last:,}" in replay.text()
    assert replay.image().tobytes() == pictures[last - 1]
    await w.fake.click(w.alice, replay, label="⏮ First")
    assert f"Step 0 of {last:,}" in replay.text() and replay.image().tobytes() == pictures[0]
    if last > 10:
        await w.fake.click(w.alice, replay, label="10 on »")
        assert f"Step 10 of {last:,}" in replay.text()
    await w.fake.click(w.alice, replay, label="Last ⏭")
    assert f"Step {last:,} of {last:,}" in replay.text()

    # The table's own Replay button opens a fresh one for whoever presses it.
    again = (await w.fake.click(w.carol, final, label="Replay")).message
    assert again is not None and again.ephemeral and again.visible_to(w.carol)
    assert f"Step 0 of {last:,}" in again.text()


async def _recorded_game(w: World, game: str, people: list[User], *, ended_at: float) -> int:
    """A finished game written straight into storage (a result, no moves)."""
    seats = [
        SeatRecord(seat=i, user_id=p.id, name=p.name, is_ai=False) for i, p in enumerate(people)
    ]
    record = await w.bot.db.create_game(
        guild_id=w.guild.id, channel_id=1, game=game, host_id=people[0].id, config={}, seed=1,
        seats=seats,
    )  # fmt: skip
    results = [
        SeatResult(seat=i, user_id=p.id, name=p.name, is_ai=False, rank=i + 1, score=0, won=i == 0)
        for i, p in enumerate(people)
    ]
    await w.bot.db.finish_game(
        record.id, guild_id=w.guild.id, game=game, results=results, ended_at=ended_at
    )
    return record.id


async def test_a_persons_history_filters_and_pages(w: World) -> None:
    room = w.channel()
    now = time.time()
    admins = [
        await _recorded_game(w, "qdice", [w.admin, w.carol], ended_at=now + 100 + i)
        for i in range(12)
    ]
    daves = await _recorded_game(w, "flume", [w.dave, w.carol], ended_at=now + 200)

    mine = (
        await w.fake.slash(w.dave, "history", channel=room, options={"user": w.dave.id})
    ).message
    assert mine.ephemeral and mine.visible_to(w.dave) and not mine.visible_to(w.admin)
    assert f"<@{w.dave.id}>'s recent games" in mine.text()
    assert f"**#{daves}**" in mine.text() and "🏆 dave" in mine.text()
    assert not any(f"**#{g}**" in mine.text() for g in admins)
    assert "Page 1 of 1 · 1 game · replays kept 30 days" in mine.text()

    theirs = (
        await w.fake.slash(
            w.dave, "history", channel=room, options={"user": w.admin.id, "game": "qdice"}
        )
    ).message
    assert "Page 1 of 2 · 12 games" in theirs.text()
    newest_first = [f"**#{g}**" for g in reversed(admins)]
    assert all(entry in theirs.text() for entry in newest_first[:10])
    assert newest_first[10] not in theirs.text()
    assert [b.disabled for b in theirs.buttons] == [True, False]
    await w.fake.click(w.dave, theirs, label="Older ▶")
    assert "Page 2 of 2" in theirs.text() and newest_first[10] in theirs.text()
    await w.fake.click(w.dave, theirs, label="◀ Newer")
    assert "Page 1 of 2" in theirs.text()

    none = (
        await w.fake.slash(
            w.dave, "history", channel=room, options={"user": w.dave.id, "game": "fingers"}
        )
    ).message
    assert "none finished yet" in none.text() and not none.selects
    helped = (await w.fake.slash(w.dave, "help", channel=room)).message
    assert "/history" in helped.text()


async def test_a_pruned_game_says_it_cannot_be_replayed(w: World) -> None:
    room = w.channel()
    message = await open_seeded(
        w.fake, w.bot.tables, room, "qdice", w.bob, [], seed=8, ai=1, options={"target": 1000}
    )
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    await qdice_play.play_to_the_end(w.fake, w.bot.tables, table, message, {w.bob.id: w.bob})
    assert table.record.status == "finished"
    await w.fake.wait_idle()
    final = message.refresh()
    kept = (await w.fake.click(w.bob, final, label="Replay")).message
    assert kept is not None and "Step 0 of" in kept.text()  # replayable while its moves are kept

    await w.bot.db.update_game(table.id, ended_at=time.time() - 40 * 86400)
    assert await w.bot.db.prune(older_than_days=30) >= 1
    _replays(w)._kept.clear()  # as after a restart (a running bot keeps a few it opened)

    listed = (
        await w.fake.slash(
            w.bob, "history", channel=room, options={"user": w.bob.id, "game": "qdice"}
        )
    ).message
    assert f"**#{table.id}**" in listed.text() and "no replay" in listed.text()
    await w.fake.select(w.bob, listed, [str(table.id)], placeholder="Replay a game…")
    explained = _reply(w, room, w.bob).text()
    assert f"Game #{table.id} was played too long ago" in explained
    assert "can't be replayed" in explained
    await w.fake.click(w.bob, final, label="Show hands")
    assert "moves are no longer kept" in _reply(w, room, w.bob).text()
