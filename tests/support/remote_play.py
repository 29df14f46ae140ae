"""People at tables that a bot *process* hosts: they decide from the stored game (the bot
saves every move before it answers) and click through the loopback like anyone.

The per-game helpers in ``tests/e2e/*_play.py`` make one decision through the Discord
controls given a :class:`Table` to read; here that table is loaded from the shared
database instead of the bot's memory, which another process holds.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping

from bot.sandbox.loopback import LoopbackDiscord, Message, User
from bot.storage.db import Database
from bot.tables.protocols import GameSpec
from bot.tables.table import Table
from tests.e2e import fingers_play, flume_play, flux_play, qdice_play, qpoker_play


async def load_table(db: Database, games: Mapping[str, GameSpec], game_id: int) -> Table:
    """The game as stored, as a (read-only) table."""
    record = await db.load_game(game_id)
    assert record is not None, f"game {game_id} is not stored"
    table = Table(record=record, spec=games[record.game])
    if record.state_json:
        table.load_snapshot(record.state_json)
    return table


def person_to_act(table: Table, people: Mapping[int, User]) -> User | None:
    """A person whose move it is (the first, where several move at once), or None."""
    if table.record.status != "active" or table.state is None:
        return None
    for seat in sorted(table.spec.engine.to_act(table.state)):
        record = table.seats[seat]
        if not record.is_ai and not record.autopilot and record.user_id in people:
            return people[record.user_id]
    return None


async def qdice_decision(fake: LoopbackDiscord, table: Table, message: Message, user: User) -> None:
    """One Quantum dice decision: the dice to keep, then roll or bank."""
    engine = table.spec.engine
    seat = table.seat_of(user.id)
    assert seat is not None and table.state is not None
    verb, _, picks = qdice_play.choose_action(
        engine.observe(table.state, seat), random.Random(table.record.version)
    ).partition(":")
    for index in picks:
        await qdice_play.click_action(fake, user, message, f"t{index}")
    await qdice_play.click_action(fake, user, message, verb)


async def play_one(
    fake: LoopbackDiscord,
    db: Database,
    games: Mapping[str, GameSpec],
    game_id: int,
    message: Message,
    people: Mapping[int, User],
) -> bool:
    """Make one decision for a person whose move it is; False if no person is to move."""
    table = await load_table(db, games, game_id)
    user = person_to_act(table, people)
    if user is None:
        return False
    if not await shows_version(message, table.record.version):
        return False  # the bot saves before it edits the message: try again in a moment
    game = table.record.game
    if game == "qdice":
        await qdice_decision(fake, table, message, user)
    elif game == "flume":
        await flume_play.play_human_move(fake, table, message, user, flume_play.Tally())
    elif game == "flux":
        await flux_play.play_move(fake, table, message, user)
    elif game == "fingers":
        await fingers_play.play_decision(fake, table, message, user)
    elif game == "qpoker":
        await qpoker_play.play_turn(fake, None, table, message, user)  # type: ignore[arg-type]
    else:
        raise AssertionError(f"no player for {game!r}")
    return True


async def shows_version(message: Message, version: int, timeout: float = 10.0) -> bool:
    """Wait until the table message's controls are those of ``version`` (their custom ids
    carry it), as a person would wait for the table to show the move before clicking."""
    deadline = asyncio.get_running_loop().time() + timeout
    mark = f":{version}:"
    while asyncio.get_running_loop().time() < deadline:
        ids = [b.custom_id or "" for b in message.refresh().buttons]
        if any(mark in cid for cid in ids):
            return True
        await asyncio.sleep(0.05)
    return False


def replay_matches(table: Table, actions: list[tuple[int, str]]) -> bool:
    """True if the game's seed and action log rebuild exactly the stored state.

    A move applied twice, or one lost, would make the log disagree with the snapshot.
    """
    engine = table.spec.engine
    assert table.state is not None
    state = engine.new_game(table.config, len(table.seats), table.record.seed)
    for seat, action in actions:
        engine.apply(state, seat, action)
    return engine.dump_state(state) == engine.dump_state(table.state)
