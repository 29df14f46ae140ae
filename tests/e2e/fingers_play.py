"""Playing Quantum Fingers through the loopback as people do: My hand, menus, a modal, buttons."""

from __future__ import annotations

import random

from bot.engines.fingers.ai import choose_action
from bot.sandbox.loopback import Channel, InteractionResult, LoopbackDiscord, Message, User
from bot.tables.table import Table
from tests.e2e.seeding import open_game
from tests.e2e.settle import settled

NAMES = ("pickled walnuts", "moonstone", "gooseberries", "quokkas", "anise", "quince")


async def my_view(fake: LoopbackDiscord, user: User, table_message: Message) -> Message:
    """Press My hand on the table; the ephemeral view only ``user`` sees."""
    result = await fake.click(user, table_message, label="My hand")
    view = result.message
    assert view is not None and view.ephemeral and view.visible_to(user)
    return view


async def pick(fake: LoopbackDiscord, user: User, view: Message, value: str) -> InteractionResult:
    """Choose ``value`` in whichever select menu of the view offers it."""
    menus = [s for s in view.selects if any(o["value"] == value for o in s.options)]
    assert len(menus) == 1, f"no single menu offers {value!r}: {[s.options for s in view.selects]}"
    return await fake.select(user, view, [value], custom_id=menus[0].custom_id)


async def press(fake: LoopbackDiscord, user: User, view: Message, action: str) -> None:
    found = [b for b in view.buttons if (b.custom_id or "").endswith(f":{action}")]
    assert len(found) == 1, f"no {action!r} button: {[b.custom_id for b in view.buttons]}"
    await fake.click(user, view, custom_id=found[0].custom_id)


async def name_flavour(
    fake: LoopbackDiscord, user: User, view: Message, target: int, name: str
) -> InteractionResult:
    """Pick "a new flavour" for ``target`` and type its name into the modal."""
    opened = await pick(fake, user, view, f"?new:{target}")
    assert opened.modal is not None and opened.modal.title == "Name a new flavour"
    return await fake.submit_modal(user, opened, {"Flavour name": name})


async def play_decision(
    fake: LoopbackDiscord, table: Table, table_message: Message, user: User
) -> None:
    """Make the AI's choice for this person's seat, entered through the Discord controls."""
    engine = table.spec.engine
    seat = table.seat_of(user.id)
    assert seat is not None and table.state is not None
    obs = engine.observe(table.state, seat)
    action = choose_action(obs, random.Random(table.record.version))
    view = await my_view(fake, user, table_message)
    if action.startswith("new:"):
        target = int(action.split(":")[1])
        taken = {n for n in obs.names if n}
        name = next(n for n in NAMES if n not in taken)
        await name_flavour(fake, user, view, target, name)
    elif action.startswith("ask:"):
        await pick(fake, user, view, action)
    else:
        await press(fake, user, view, action)
    await fake.wait_idle()


async def play_to_the_end(
    fake: LoopbackDiscord,
    table: Table,
    table_message: Message,
    people: dict[int, User],
    *,
    max_moves: int = 400,
) -> int:
    """Play every person's decisions until the game ends; returns how many they made."""
    made = 0
    for _ in range(max_moves):
        await settled(fake, table)
        if table.record.status != "active":
            return made
        assert table.state is not None
        (seat,) = table.spec.engine.to_act(table.state)
        record = table.seats[seat]
        if record.is_ai or record.autopilot:
            continue
        await play_decision(fake, table, table_message, people[record.user_id or 0])
        made += 1
    raise AssertionError("the game did not finish")


async def open_table(
    fake: LoopbackDiscord, channel: Channel, host: User, guests: list[User], *, ai: int = 0
) -> Message:
    return await open_game(fake, channel, "fingers", host, guests, ai=ai)
