"""Playing Flume through the loopback the way people do: open **My hand**, press its controls."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field

from bot.engines.cards import card
from bot.engines.flume.ai import choose_action
from bot.engines.flume.engine import FlumeEngine, FlumeObservation
from bot.sandbox.loopback import Channel, LoopbackDiscord, Message, User
from bot.tables.manager import TableManager
from bot.tables.table import Table
from tests.e2e.qdice_play import person_to_act
from tests.e2e.seeding import open_game
from tests.e2e.settle import settled


@dataclass
class Tally:
    """What the people did during a game, for the tests to check."""

    moves: int = 0
    calls: list[str] = field(default_factory=list)
    toggles: int = 0
    partner_views: list[str] = field(default_factory=list)
    hands: int = 0
    opened: dict[int, int] = field(default_factory=dict)
    """Per person: how many times they pressed My hand (a new private reply each time)."""


def decide(obs: FlumeObservation) -> str:
    """A person's choice: the AI's, except that they open the bidding whenever they can."""
    if obs.phase == "bid" and obs.bid == 0:
        return "bid:3"
    return choose_action(obs, random.Random(0))


async def open_hand(fake: LoopbackDiscord, user: User, table_message: Message) -> Message:
    result = await fake.click(user, table_message, label="My hand")
    assert result.message is not None and result.message.ephemeral
    return result.message


def _button_id(message: Message, action: str) -> str:
    found = [b for b in message.buttons if (b.custom_id or "").endswith(f":{action}")]
    assert len(found) == 1, f"no single {action!r} button in {[b.label for b in message.buttons]}"
    assert not found[0].disabled
    return found[0].custom_id or ""


async def press(fake: LoopbackDiscord, user: User, message: Message, action: str) -> None:
    await fake.click(user, message, custom_id=_button_id(message, action))


def live_view(
    fake: LoopbackDiscord, table: Table, table_message: Message, user: User
) -> Message | None:
    """The person's open private reply, if it already offers this turn's moves."""
    channel = fake.world.channels[table.location_id]
    mine = [m for m in fake.messages(channel, viewer=user) if m.ephemeral and m.visible_to(user)]
    if not mine:
        return None
    view = mine[-1].refresh()
    current = f"qt:{table.id}:{table.record.version}:"
    moves = [c for c in view.buttons + view.selects if (c.custom_id or "").startswith(current)]
    return view if any(not c.disabled for c in moves) else None


async def play_human_move(
    fake: LoopbackDiscord,
    table: Table,
    table_message: Message,
    user: User,
    tally: Tally,
    *,
    live: bool = False,
) -> None:
    """Open the person's view and make one move with its buttons and menus."""
    engine = table.spec.engine
    assert isinstance(engine, FlumeEngine) and table.state is not None
    seat = table.seat_of(user.id)
    assert seat is not None
    obs = engine.observe(table.state, seat)
    view = None
    for _ in range(250 if live else 0):  # the open reply catches up within a moment
        if (view := live_view(fake, table, table_message, user)) is not None:
            break
        await asyncio.sleep(0.04)
    if view is None:
        view = await open_hand(fake, user, table_message)
        tally.opened[user.id] = tally.opened.get(user.id, 0) + 1
    text = view.text()
    for code in obs.hand:  # the view lists the hand, and only its owner sees it
        assert card(code).label in text
    assert view.visible_to(user) and view.image().size[0] > 0
    move = decide(obs)
    verb, _, arg = move.partition(":")
    if obs.n_players == 5 and obs.called is not None:
        tally.partner_views.append(text)
    if verb == "discard" and arg:
        for code in arg.split(","):
            await press(fake, user, view, f"d:{code}")
            tally.toggles += 1
        await press(fake, user, view, "discard")
    elif verb == "discard":
        await press(fake, user, view, "discard")
    elif verb == "call":
        (menu,) = [s for s in view.selects if any(o["value"] == move for o in s.options)]
        await fake.select(user, view, [move], custom_id=menu.custom_id)
        tally.calls.append(arg)
    else:
        await press(fake, user, view, move)
    tally.moves += 1
    tally.hands = table.state.hand_no  # type: ignore[attr-defined]


async def play_to_the_end(
    fake: LoopbackDiscord,
    table: Table,
    table_message: Message,
    people: dict[int, User],
    *,
    max_moves: int = 2000,
    live: bool = False,
) -> Tally:
    tally = Tally()
    for _ in range(max_moves):
        await settled(fake, table, quiet=0.05)
        if table.record.status != "active":
            return tally
        person = person_to_act(table, people)
        if person is None:
            continue
        await play_human_move(fake, table, table_message, person, tally, live=live)
    raise AssertionError("the game did not finish")


async def open_table(
    fake: LoopbackDiscord,
    channel: Channel,
    host: User,
    guests: list[User],
    *,
    ai: int = 0,
    options: dict[str, object] | None = None,
    tables: TableManager | None = None,
    seed: int | None = None,
) -> Message:
    """Start a lobby, seat the guests and AI players, press Start; return the table message.

    With ``seed`` (and the bot's ``tables``) the deal is fixed, so the game replays exactly.
    """
    return await open_game(
        fake, channel, "flume", host, guests, ai=ai, options=options, tables=tables, seed=seed
    )
