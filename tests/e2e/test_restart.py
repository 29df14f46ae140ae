"""A restart mid-game: the bot comes back, refreshes the table, old buttons work, the game ends."""

from __future__ import annotations

from pathlib import Path

from bot.sandbox.loopback import LoopbackDiscord
from bot.sandbox.loopback.testing import stop_bot
from tests.e2e.conftest import SPEC, start_bot
from tests.e2e.qdice_play import click_action, human_to_act, open_table, play_to_the_end


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
        bot, task = await start_bot(fake, db_path)
        await fake.wait_idle()
        again = bot.tables.in_location(room.id)
        assert again is not None and again is not table
        assert again.record.version == version and again.state == state
        assert message.refresh().edits > edits  # the table message was refreshed on start-up

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
