"""A guided first game end to end, for all five games: ``/<game> learn`` opens a practice
table (marked so) for one person against easy AIs with hints on; the person's own view
explains their first moment, and nobody else sees it; the finished game records no rating
and suggests a real table."""

from __future__ import annotations

import random

import pytest

from bot.games.lessons import PATHS
from bot.tables import practice
from tests.e2e.conftest import World, until
from tests.e2e.settle import settled
from tests.e2e.test_hints import _follow as follow

MARK = "Practice — only alice plays; not rated"


def _ai(game: str):
    return __import__(f"bot.engines.{game}.ai", fromlist=["decide"])


@pytest.mark.parametrize("game", list(PATHS))
async def test_a_guided_first_game(w: World, game: str) -> None:
    room = w.channel()
    answer = await w.fake.slash(w.alice, f"{game} learn", channel=room)
    message = answer.message
    assert message is not None and not message.ephemeral
    table = w.bot.tables.in_location(room.id)
    assert table is not None and table.record.status == "active"
    seats, _ = practice.SETUP[game]
    assert [s.level for s in table.seats] == [None] + ["easy"] * (seats - 1)
    assert table.record.config["hints"] is True and table.record.config["practice"] is True
    assert MARK in message.text() and "· practice" in message.text()

    # The first moment of the person's own: its lesson in their own view, with Hint.
    seat = table.seat_of(w.alice.id)
    assert seat is not None
    engine = table.spec.engine
    for _ in range(200):
        await settled(w.fake, table)
        assert table.state is not None
        if seat in engine.to_act(table.state) and not table.moves_itself(seat):
            break  # (a lone move with nothing to decide, the table makes for them)
    state = table.state
    assert state is not None and seat in engine.to_act(state)
    first = practice.lesson_at(
        table, engine.observe(state, seat), engine.legal_actions(state, seat)
    )
    assert first is not None
    view = (await w.fake.click(w.alice, w.table_message(room), label="My hand")).message
    assert view is not None and view.ephemeral and view.visible_to(w.alice)
    assert f"{practice.LESSON_FIELD}: {first.title}" in view.text()
    assert first.text.split(".")[0] in view.text()
    assert [b for b in view.buttons if b.label == "Hint"]

    # Nobody else sees it, nor may they play.
    for someone in (w.bob, w.dave):
        seen = [
            m for m in w.fake.messages(room, viewer=someone) if practice.LESSON_FIELD in m.text()
        ]
        assert not seen, someone
    theirs = (await w.fake.click(w.bob, w.table_message(room), label="My hand")).message
    assert theirs is not None and theirs.ephemeral and practice.LESSON_FIELD not in theirs.text()
    assert practice.LESSON_FIELD not in w.table_message(room).text()

    # Hint is on: the person asks for one and follows it with their view's own controls.
    # The lesson was for that moment: once it is played, it is not shown again.
    (button,) = [b for b in view.buttons if b.label == "Hint"]
    await w.fake.click(w.alice, view, custom_id=button.custom_id)
    # A search that runs long is answered late: acknowledged, then the view edited.
    await until(lambda: "💡 Hint" in view.refresh().text(), timeout=15)
    view = view.refresh()
    assert first.title in view.text()
    analysis = table.hints[seat][1].result()
    # Quantum dice has nothing secret: its controls are on the table, not in the view.
    controls = w.table_message(room) if game == "qdice" else view
    await follow(w, table, w.alice, controls, engine.observe(state, seat), analysis.move)
    assert table.record.config[practice.SHOWN][0] == first.key
    assert f"{practice.LESSON_FIELD}: {first.title}" not in view.refresh().text()

    # Play the person's moves (the normal AI's) to the end.
    ai, rng = _ai(game), random.Random(5)
    for _ in range(3000):
        await settled(w.fake, table)
        if table.record.status != "active":
            break
        assert table.state is not None
        if seat in engine.to_act(table.state):
            move = ai.decide(engine.observe(table.state, seat), "normal", rng, None)
            await w.bot.tables.act(table.id, w.alice.id, move, None)
            await w.bot.tables.refresh(table)  # as the answer to a click does
    await w.fake.wait_idle()
    assert table.record.status == "finished"
    assert first.key in table.record.config[practice.SHOWN]
    stored = await w.bot.tables.db.load_game(table.id)
    assert stored is not None and first.key in stored.config[practice.SHOWN]

    final = w.table_message(room).text()
    assert MARK in final
    assert (
        f"You finished your first game of {table.spec.title}: start a real one with `/{game} start`"
    ) in final
    assert "Rematch" not in [b.label for b in w.table_message(room).buttons]
    # Not rated: no results, and no row on the board.
    assert await w.bot.tables.db.results(table.id) == []
    rows, _ = await w.bot.tables.db.leaderboard(w.guild.id, game)
    assert w.alice.id not in [r.user_id for r in rows]
