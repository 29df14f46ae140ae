"""Playing Flux through the loopback the way people do: from each person's private view."""

from __future__ import annotations

import random

from bot.engines.flux.ai import choose_action as flux_choose
from bot.engines.flux.engine import FluxEngine
from bot.sandbox.loopback import Channel, LoopbackDiscord, Message, User
from bot.tables.table import Table
from tests.e2e.seeding import open_game
from tests.e2e.settle import settled


def action_of(custom_id: str) -> str:
    """The action at the end of ``qt:<game>:<version>:<action>`` (actions may hold colons)."""
    return custom_id.split(":", 3)[3]


async def press(fake: LoopbackDiscord, user: User, view: Message, action: str) -> Message:
    """Click the button for ``action`` in a private view; the view is edited in place."""
    view = view.refresh()
    found = [b for b in view.buttons if action_of(b.custom_id or "") == action]
    assert len(found) == 1, f"no single {action!r} button in the view: {view.buttons}"
    await fake.click(user, view, custom_id=found[0].custom_id)
    return view.refresh()


async def open_view(fake: LoopbackDiscord, user: User, table_message: Message) -> Message:
    result = await fake.click(user, table_message, label="My hand")
    assert result.message is not None and result.message.ephemeral
    return result.message


async def play_move(
    fake: LoopbackDiscord, table: Table, table_message: Message, user: User
) -> None:
    """Decide as the AI would for this person's seat, then click it in from their view."""
    engine: FluxEngine = table.spec.engine  # type: ignore[assignment]
    seat = table.seat_of(user.id)
    assert seat is not None and table.state is not None
    obs = engine.observe(table.state, seat)  # type: ignore[arg-type]
    move = flux_choose(obs, random.Random(0))
    view = await open_view(fake, user, table_message)
    verb, _, cards = move.partition(":")
    if verb in ("discard", "show"):
        wanted = _indices(obs.hand, [c for c in cards.split(",") if c])
        for index in sorted(set(obs.selected) ^ set(wanted)):
            view = await press(fake, user, view, f"t{index}")
        await press(fake, user, view, verb)
    else:
        await press(fake, user, view, move)
    await fake.wait_idle()


def _indices(hand: list[str], codes: list[str]) -> list[int]:
    free = list(range(len(hand)))
    picked = []
    for code in codes:
        index = next(i for i in free if hand[i] == code)
        free.remove(index)
        picked.append(index)
    return picked


def people_to_act(table: Table, people: dict[int, User]) -> list[User]:
    assert table.state is not None
    seats = sorted(table.spec.engine.to_act(table.state))
    return [people[table.seats[s].user_id or 0] for s in seats if not table.moves_itself(s)]


async def play_to_the_end(
    fake: LoopbackDiscord,
    table: Table,
    message: Message,
    people: dict[int, User],
    *,
    max_moves: int = 1500,
) -> int:
    """Play every person's moves until the game ends; returns how many moves people made."""
    moves = 0
    for _ in range(max_moves):
        await settled(fake, table)
        if table.record.status != "active":
            return moves
        waiting = people_to_act(table, people)
        if not waiting:
            continue  # an AI seat moves; wait_idle lets it
        await play_move(fake, table, message, waiting[0])
        moves += 1
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
    return await open_game(fake, channel, "flux", host, guests, ai=ai, options=options)
