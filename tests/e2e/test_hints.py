"""Hints end to end, for all five games: the host turns them on in the lobby, the person to
move presses **Hint** in their own view and reads the hard AI's move and why (computed from
their observation alone, with the seed the AI would have), follows it with the view's own
controls, and nobody else ever sees it; the finished table says who asked."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot.engines.analysis import Analysis
from bot.sandbox.loopback import LoopbackDiscord, Message, User
from bot.tables.table import Table
from tests.e2e import fingers_play, flux_play, qpoker_play
from tests.e2e.conftest import World, until
from tests.e2e.qdice_play import click_action
from tests.e2e.qdice_play import play_to_the_end as qdice_to_the_end
from tests.e2e.seeding import open_game
from tests.e2e.settle import settled

HINT_FIELD = "💡 Hint"
SETUP: dict[str, tuple[int, dict[str, object], set[str] | None]] = {
    # game: (AI seats besides alice and bob, options, phases worth a hint; None: any)
    "qdice": (0, {}, None),
    "flume": (2, {}, {"bid", "play"}),
    "flux": (1, {}, {"trick", "command"}),
    "fingers": (1, {}, None),
    "qpoker": (1, {"rounds": 2}, None),
}
EXACT = {"qdice", "fingers", "qpoker"}
"""Games whose hard search ends on its own count well within the budget: their hint can be
worked out again here, exactly (Flume and Flux search until the clock stops them)."""


def _ai(game: str) -> Any:
    return __import__(f"bot.engines.{game}.ai", fromlist=["decide"])


def _mover(table: Table, people: dict[int, User]) -> User | None:
    """The one person to move, if exactly one seat is to act and it is a person's."""
    assert table.state is not None
    acting = sorted(table.spec.engine.to_act(table.state))
    if len(acting) != 1:
        return None
    record = table.seats[acting[0]]
    return None if record.is_ai or record.autopilot else people.get(record.user_id or 0)


async def _to_a_decision(
    w: World, table: Table, people: dict[int, User], phases: set[str] | None
) -> User:
    """Let the AI seats move, and make the people's moves the normal AI's, until one person
    alone is to move in a phase worth a hint."""
    engine, ai = table.spec.engine, _ai(table.record.game)
    for _ in range(300):
        await settled(w.fake, table)
        assert table.record.status == "active"
        state = table.state
        assert state is not None
        mover = _mover(table, people)
        phase = getattr(state, "phase", None)
        if mover is not None and (phases is None or phase in phases):
            seat = table.seat_of(mover.id)
            legal = engine.legal_actions(state, seat)  # type: ignore[arg-type]
            if phase != "play" or sum(a.startswith("play:") for a in legal) > 1:
                return mover
        for s in sorted(engine.to_act(state)):
            record = table.seats[s]
            if record.is_ai or record.autopilot:
                continue
            move = ai.decide(engine.observe(state, s), "normal", random.Random(s), None)
            await w.bot.tables.act(table.id, record.user_id or 0, move, None)
    raise AssertionError("no decision worth a hint came up")


async def _hint(
    w: World, table: Table, table_message: Message, user: User
) -> tuple[Message, Analysis, int, Any]:
    """Open My hand, press Hint; the view, the analysis behind the hint, the table version
    it was worked out at, and the observation it was worked out from."""
    seat = table.seat_of(user.id)
    assert seat is not None and table.state is not None
    version = table.record.version
    observation = table.spec.engine.observe(table.state, seat)
    view = (await w.fake.click(user, table_message, label="My hand")).message
    assert view is not None and view.ephemeral and view.visible_to(user)
    assert HINT_FIELD not in view.text()
    (button,) = [b for b in view.buttons if b.label == "Hint"]
    await w.fake.click(user, view, custom_id=button.custom_id)
    # A search that runs long is answered late: the click is acknowledged, the view edited
    # once the hint is ready.
    await until(lambda: HINT_FIELD in view.refresh().text(), timeout=15)
    view = view.refresh()
    held = table.hints[seat]
    assert held[0] == version
    analysis = held[1].result()
    assert isinstance(analysis, Analysis)
    return view, analysis, version, observation


def _field(view: Message, name: str) -> str:
    (embed,) = view.embeds
    return next(f["value"] for f in embed["fields"] if f["name"] == name)


async def _follow(
    w: World, table: Table, user: User, view: Message, observation: Any, move: str
) -> None:
    """Enter ``move`` with the controls of ``view`` (the one the hint is in, or the table)."""
    fake: LoopbackDiscord = w.fake
    game = table.record.game
    verb, _, rest = move.partition(":")
    if game == "qdice":
        for index in rest:
            await click_action(fake, user, view, f"t{index}")
        await click_action(fake, user, view, verb)
    elif game == "flume" or (game == "flux" and verb not in ("discard", "show")):
        await flux_play.press(fake, user, view, move)
    elif game == "flux":  # the cards to discard or to show are picked one by one
        for index in _toggles(observation, rest):
            view = await flux_play.press(fake, user, view, f"t{index}")
        await flux_play.press(fake, user, view, verb)
    elif game == "fingers":
        if verb == "ask":
            await fingers_play.pick(fake, user, view, move)
        elif verb == "new":
            await fingers_play.name_flavour(fake, user, view, int(rest), "sea buckthorn")
        else:
            await fingers_play.press(fake, user, view, move)
    elif move == "call":
        await fake.click(user, view, label="Call measurement")
    else:
        for placeholder, value in qpoker_play.menu_steps(move):
            await qpoker_play.choose(fake, w.bot, user, view, placeholder, value)
    await fake.wait_idle()


def _toggles(observation: Any, codes: str) -> list[int]:
    """Flux: the cards to press so that exactly ``codes`` are picked."""
    wanted = flux_play._indices(observation.hand, [c for c in codes.split(",") if c])
    return sorted(set(observation.selected) ^ set(wanted))


def _as_entered(table: Table, observation: Any, move: str) -> list[str]:
    """The actions the table records when a person enters ``move`` with the controls."""
    verb, _, rest = move.partition(":")
    game = table.record.game
    if game == "qdice":
        return [f"t{i}" for i in rest] + [verb]
    if game == "flux" and verb in ("discard", "show"):
        return [f"t{i}" for i in _toggles(observation, rest)] + [verb]
    if game == "fingers" and verb == "new":
        return [f"{move}:sea buckthorn"]
    if game == "qpoker" and move != "call":
        return [value for _, value in qpoker_play.menu_steps(move)]
    return [move]


@pytest.mark.parametrize("game", list(SETUP))
async def test_a_hint_end_to_end(w: World, game: str) -> None:
    ai_seats, options, phases = SETUP[game]
    room = w.channel()
    people = {w.alice.id: w.alice, w.bob.id: w.bob}
    lobby = (
        await w.fake.slash(w.alice, f"{game} start", channel=room, options={"hints": True})
    ).message
    assert lobby is not None and "Hints: on" in lobby.text()
    await w.fake.slash(w.alice, f"{game} cancel", channel=room)
    room = w.channel()
    message = await open_game(
        w.fake, room, game, w.alice, [w.bob], ai=ai_seats,
        options={**options, "hints": True}, tables=w.bot.tables, seed=40 + len(game),
    )  # fmt: skip
    table = w.bot.tables.in_location(room.id)
    assert table is not None and table.record.config["hints"] is True
    mover = await _to_a_decision(w, table, people, phases)
    other = w.bob if mover is w.alice else w.alice

    # The person not to move has no Hint in their view.
    theirs = (await w.fake.click(other, message, label="My hand")).message
    assert theirs is not None and not [b for b in theirs.buttons if b.label == "Hint"]

    view, analysis, version, observation = await _hint(w, table, message, mover)
    seat = table.seat_of(mover.id)
    assert seat is not None
    names = list(table.names)
    text = _field(view, HINT_FIELD)
    assert text == table.spec.ui.hint_text(observation, analysis, names)  # type: ignore[attr-defined]
    assert text.startswith("**") and len(text.split("\n")[0]) > 20  # the move, then why
    if game in EXACT:
        hard = _ai(game).decide(
            observation, "hard", random.Random(table.ai_seed(version, seat)), None
        )
        assert analysis.move == hard
    assert analysis.options[0].move == analysis.move
    (spent,) = [b for b in view.buttons if b.label == "Hint"]
    assert spent.disabled

    # Nobody else sees it: not the other player, not a spectator, not the table.
    for someone in (other, w.dave, w.carol):
        seen = [m for m in w.fake.messages(room, viewer=someone) if HINT_FIELD in m.text()]
        assert not seen, someone
    assert "Hint" not in w.table_message(room).text()

    # Follow it from the same view: the move is the hint's.
    # Quantum dice has nothing secret: its controls are on the table, not in the view.
    controls = message.refresh() if game == "qdice" else view
    await _follow(w, table, mover, controls, observation, analysis.move)
    await asyncio.sleep(0)
    assert table.record.version > version
    actions = await w.bot.tables.db.actions(table.id)
    made = [a.action for a in actions if a.seat == seat and a.version > version]
    assert made == _as_entered(table, observation, analysis.move), (made, analysis.move)
    assert table.record.config["hints_used"] == {str(seat): 1}
    await w.fake.slash(w.alice, f"{game} cancel", channel=room)


async def test_without_hints_there_is_no_hint_button(w: World) -> None:
    room = w.channel()
    lobby = (await w.fake.slash(w.alice, "flume start", channel=room)).message
    assert lobby is not None and "Hints: off" in lobby.text()
    await w.fake.slash(w.alice, "flume cancel", channel=room)
    room = w.channel()
    message = await open_game(w.fake, room, "flume", w.alice, [w.bob], ai=2)
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    mover = await _to_a_decision(w, table, {w.alice.id: w.alice, w.bob.id: w.bob}, None)
    view = (await w.fake.click(mover, message, label="My hand")).message
    assert view is not None and not [b for b in view.buttons if b.label == "Hint"]
    # A forged click on a Hint control gets no hint.
    forged = await w.fake.click(
        mover, view, custom_id=f"qt:{table.id}:{table.record.version}:!hint", forged=True
    )
    assert forged.message is not None and HINT_FIELD not in forged.message.text()
    assert not table.hints and "hints_used" not in table.record.config
    await w.fake.slash(w.alice, "flume cancel", channel=room)


async def test_the_results_say_who_asked_for_hints(w: World) -> None:
    room = w.channel()
    message = await open_game(
        w.fake, room, "qdice", w.alice, [w.bob], options={"target": 2000, "hints": True}
    )
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    people = {w.alice.id: w.alice, w.bob.id: w.bob}
    mover = await _to_a_decision(w, table, people, None)
    _, analysis, _, _ = await _hint(w, table, message, mover)
    assert analysis.kind in ("turn", "win")  # 2,000 to win: the solved odds don't apply
    await qdice_to_the_end(w.fake, w.bot.tables, table, message, people)
    final = w.table_message(room).refresh().text()
    name = table.names[table.seat_of(mover.id) or 0]
    assert f"Hints\nOn: asked by {name} 1 time." in final
