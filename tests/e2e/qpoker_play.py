"""Playing QuantumPoker through the loopback the way people do: menus in the private panel."""

from __future__ import annotations

import random

from discord import Client

from bot.engines.qpoker.ai import choose_action
from bot.sandbox.loopback import Channel, InteractionResult, LoopbackDiscord, Message, User
from bot.tables.table import Table
from tests.e2e.qdice_play import person_to_act
from tests.e2e.seeding import open_game
from tests.e2e.settle import settled

CARD_MENU = "Pick a community card"


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
    return await open_game(fake, channel, "qpoker", host, guests, ai=ai, options=options)


async def my_hand(fake: LoopbackDiscord, user: User, table_message: Message) -> Message:
    """Press My hand on the table; the ephemeral panel that only ``user`` sees."""
    panel = (await fake.click(user, table_message, label="My hand")).message
    assert panel is not None and panel.ephemeral
    return panel


def menu_steps(move: str) -> list[tuple[str, str]]:
    """The (menu placeholder, chosen value) pairs that make ``move`` in the private panel."""
    card, _, rest = move.partition(":")
    steps = [(CARD_MENU, f"pick:{card}")]
    if card == "CX":
        steps.append(("Apply CX to…", move))
    elif card == "SWAP":
        mine = rest.partition(":")[0]
        steps += [("Your qubit to give…", f"pick:SWAP:{mine}"), ("…for their qubit", move)]
    else:
        steps.append((f"Apply {card} to…", move))
    return steps


async def choose(
    fake: LoopbackDiscord, bot: Client, user: User, panel: Message, placeholder: str, value: str
) -> InteractionResult:
    """Pick ``value`` in the select menu ``placeholder`` of a private panel."""
    return await fake.select(user, panel.refresh(), [value], placeholder=placeholder)


async def play_turn(
    fake: LoopbackDiscord, bot: Client, table: Table, table_message: Message, user: User
) -> str:
    """Decide as a careful player would (the AI's choice), then make it through the menus."""
    engine = table.spec.engine
    seat = table.seat_of(user.id)
    assert seat is not None and table.state is not None
    move = choose_action(engine.observe(table.state, seat), random.Random(table.record.version))
    panel = await my_hand(fake, user, table_message)
    if move == "call":
        await fake.click(user, panel, label="Call measurement")
    else:
        for placeholder, value in menu_steps(move):
            await choose(fake, bot, user, panel, placeholder, value)
    await fake.wait_idle()
    return move


async def play_to_the_end(
    fake: LoopbackDiscord,
    bot: Client,
    table: Table,
    table_message: Message,
    people: dict[int, User],
    *,
    max_turns: int = 300,
) -> list[str]:
    """Play every person's turn through the menus until the match ends; the moves made."""
    moves = []
    for _ in range(max_turns):
        await settled(fake, table)
        if table.record.status != "active":
            return moves
        person = person_to_act(table, people)
        if person is None:
            continue
        moves.append(await play_turn(fake, bot, table, table_message, person))
    raise AssertionError("the match did not finish")
