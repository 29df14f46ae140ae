"""A restart mid-game: the bot comes back, edits only the tables that changed, old buttons work."""

from __future__ import annotations

import re
from pathlib import Path

from bot.games import all_games
from bot.sandbox.loopback import LoopbackDiscord
from bot.sandbox.loopback.testing import stop_bot
from bot.storage.db import Database
from bot.storage.models import ActionRecord
from bot.tables.table import Table
from tests.e2e.conftest import SPEC, start_bot
from tests.e2e.qdice_play import click_action, human_to_act, open_table, play_to_the_end

EDIT = re.compile(r"^/channels/\d+/messages/\d+$")


def _edits(fake: LoopbackDiscord, since: int) -> int:
    """Channel messages the bot edited since request number ``since``."""
    return sum(1 for r in fake.requests[since:] if r.method == "PATCH" and EDIT.match(r.path))


async def _move_while_down(db_path: Path, game_id: int) -> int:
    """Save one move of the game in storage only, as a bot killed between saving a move and
    editing the message leaves it; the new version."""
    async with Database.open(db_path) as db:
        record = await db.load_game(game_id)
        assert record is not None and record.state_json is not None
        table = Table(record=record, spec=all_games()[record.game])
        table.load_snapshot(record.state_json)
        engine = table.spec.engine
        assert table.state is not None
        seat = min(engine.to_act(table.state))
        action = engine.legal_actions(table.state, seat)[0]
        trial = table.state.model_copy(deep=True)
        events = engine.apply(trial, seat, action)
        version = record.version + 1
        lines, history = table.with_move(version, seat, [e.render(table.names) for e in events])
        await db.save_progress(
            game_id,
            version=version,
            expected_version=record.version,
            state_json=table.snapshot_json(trial, lines, history),
            actions=[ActionRecord(version=version, seat=seat, action=action, user_id=None, at=0.0)],
        )
    return version


async def test_restart_mid_game_then_finish(tmp_path: Path) -> None:
    db_path = tmp_path / "restart.db"
    async with LoopbackDiscord(spec=SPEC if SPEC.exists() else None) as fake:
        guild = fake.add_guild("Restart")
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        fake.add_member(guild, alice)
        fake.add_member(guild, bob)
        room = fake.add_channel(guild, "restart")

        bot, task = await start_bot(fake, db_path)
        message = await open_table(fake, room, alice, [bob], ai=1, options={"target": 1000})
        table = bot.tables.in_location(room.id)
        assert table is not None
        people = {alice.id: alice, bob.id: bob}
        player = await human_to_act(fake, table, people)  # the seed is random: anyone may be first
        await click_action(fake, player, message, "t0")
        await fake.wait_idle()
        version, state = table.record.version, table.state
        await stop_bot(bot, task)  # type: ignore[arg-type]

        edits = message.refresh().edits
        buttons_before = [b.custom_id for b in message.buttons]
        sent = len(fake.requests)
        bot, task = await start_bot(fake, db_path)
        await fake.wait_idle()
        again = bot.tables.in_location(room.id)
        assert again is not None and again is not table
        assert again.record.version == version and again.state == state
        # The message shows the table as it is: the restart leaves it alone.
        assert message.refresh().edits == edits
        assert _edits(fake, sent) == 0

        # A button from before the restart still routes to the game.
        stale = next(cid for cid in buttons_before if cid.endswith(":t0"))
        await fake.click(player, message, custom_id=stale)
        assert again.record.version == version + 1

        await play_to_the_end(fake, bot.tables, again, message, people)
        assert again.record.status == "finished"
        rows, _ = await bot.db.leaderboard(guild.id, "qdice")
        assert {r.user_id for r in rows} == {alice.id, bob.id}
        actions = await bot.db.actions(again.id)
        assert len(actions) == again.record.version - 1  # every move is in the log
        engine = again.spec.engine
        replay = engine.new_game(again.config, len(again.seats), again.record.seed)
        for action in actions:
            engine.apply(replay, action.seat, action.action)
        assert replay == again.state  # the seed and the log replay the game exactly
        fake.assert_no_errors()
        await stop_bot(bot, task)  # type: ignore[arg-type]


async def test_restart_edits_only_the_tables_that_changed_meanwhile(tmp_path: Path) -> None:
    """Of two quiet tables, the one whose move was saved but never shown (the bot was
    killed in between) is edited after the restart, with its new version; the other is not."""
    db_path = tmp_path / "changed.db"
    async with LoopbackDiscord(spec=SPEC if SPEC.exists() else None) as fake:
        guild = fake.add_guild("Restart")
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        fake.add_member(guild, alice)
        fake.add_member(guild, bob)
        rooms = [fake.add_channel(guild, f"restart-{n}") for n in range(2)]

        bot, task = await start_bot(fake, db_path)
        messages = [await open_table(fake, room, alice, [bob]) for room in rooms]
        await fake.wait_idle()
        ids = [bot.tables.in_location(room.id).id for room in rooms]  # type: ignore[union-attr]
        await stop_bot(bot, task)  # type: ignore[arg-type]

        edits = [m.refresh().edits for m in messages]
        version = await _move_while_down(db_path, ids[1])
        sent = len(fake.requests)
        bot, task = await start_bot(fake, db_path)
        await fake.wait_idle()
        assert _edits(fake, sent) == 1
        assert messages[0].refresh().edits == edits[0]
        assert messages[1].refresh().edits == edits[1] + 1
        shown = {(b.custom_id or "").split(":")[2] for b in messages[1].buttons}
        assert shown == {str(version)}  # the controls of the move saved meanwhile
        fake.assert_no_errors()
        await stop_bot(bot, task)  # type: ignore[arg-type]
