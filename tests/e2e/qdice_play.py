"""Playing Quantum dice through the loopback the way people do: clicking the table's buttons."""

from __future__ import annotations

import random

from bot.engines.qdice.ai import choose_action
from bot.sandbox.loopback import Button, Channel, InteractionResult, LoopbackDiscord, Message, User
from bot.tables.manager import TableManager
from bot.tables.table import Table
from tests.e2e.seeding import open_game
from tests.e2e.settle import settled


def button(message: Message, action: str) -> Button:
    """The button whose custom_id ends in ``action`` (ids are ``qt:<game>:<version>:<action>``)."""
    found = [b for b in message.refresh().buttons if (b.custom_id or "").endswith(f":{action}")]
    assert len(found) == 1, f"no single {action!r} button on the table: {message.buttons}"
    return found[0]


async def click_action(
    fake: LoopbackDiscord, user: User, message: Message, action: str
) -> InteractionResult:
    return await fake.click(user, message, custom_id=button(message, action).custom_id)


async def play_human_turn(
    fake: LoopbackDiscord, tables: TableManager, table: Table, message: Message, user: User
) -> None:
    """One person's whole turn: decide as a careful player would, then click it in."""
    engine = table.spec.engine
    seat = table.seat_of(user.id)
    assert seat is not None and table.state is not None
    while table.record.status == "active" and engine.to_act(table.state) == {seat}:
        observation = engine.observe(table.state, seat)
        verb, _, picks = choose_action(observation, random.Random(0)).partition(":")
        for index in picks:
            await click_action(fake, user, message, f"t{index}")
        await click_action(fake, user, message, verb)
        await fake.wait_idle()


def person_to_act(table: Table, people: dict[int, User]) -> User | None:
    """The person whose move it is, or None while an AI or autopilot seat moves."""
    assert table.state is not None
    acting = table.spec.engine.to_act(table.state)
    if not acting:  # between phases, or the game just ended
        return None
    (seat,) = acting
    record = table.seats[seat]
    return None if record.is_ai or record.autopilot else people[record.user_id or 0]


async def human_to_act(
    fake: LoopbackDiscord, table: Table, people: dict[int, User], *, max_turns: int = 50
) -> User:
    """Wait while AI seats move (an opening roll may bust a person's turn); return who acts."""
    for _ in range(max_turns):
        await settled(fake, table)
        assert table.record.status == "active"
        if (person := person_to_act(table, people)) is not None:
            return person
    raise AssertionError("no person was ever to act")


async def play_to_the_end(
    fake: LoopbackDiscord,
    tables: TableManager,
    table: Table,
    message: Message,
    people: dict[int, User],
    *,
    max_turns: int = 400,
) -> None:
    for _ in range(max_turns):
        await settled(fake, table)
        if table.record.status != "active":
            return
        person = person_to_act(table, people)
        if person is None:
            continue  # the bot moves for it; wait_idle lets it
        await play_human_turn(fake, tables, table, message, person)
    raise AssertionError("the game did not finish")


async def open_table(
    fake: LoopbackDiscord,
    channel: Channel,
    host: User,
    guests: list[User],
    *,
    ai: int = 0,
    options: dict[str, object] | None = None,
) -> Message:
    """Start a lobby, seat the guests and AI players, press Start; return the table message."""
    return await open_game(fake, channel, "qdice", host, guests, ai=ai, options=options)


async def two_people_table(
    fake: LoopbackDiscord, tables: TableManager, room: Channel, host: User, guest: User
) -> tuple[Message, Table, User, User]:
    """A Quantum dice table of ``host`` and ``guest`` in ``room``, once a person is to move:
    its message, the table, who moves first and the other one."""
    message = await open_table(fake, room, host, [guest])
    table = tables.in_location(room.id)
    assert table is not None
    first = await human_to_act(fake, table, {host.id: host, guest.id: guest})
    return message, table, first, guest if first is host else host
