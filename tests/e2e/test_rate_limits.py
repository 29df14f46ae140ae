"""Discord's global rate limit (per bot, across its processes): a burst of table edits that
crosses it is slowed down, never lost."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.sandbox.loopback import LoopbackDiscord
from bot.sandbox.loopback.testing import stop_bot
from tests.e2e.conftest import SPEC, start_bot
from tests.e2e.qdice_play import open_table

TABLES = 12


async def test_a_burst_over_the_global_limit_loses_no_edit(tmp_path: Path) -> None:
    async with LoopbackDiscord(spec=SPEC if SPEC.exists() else None, global_rate_limit=5) as fake:
        guild = fake.add_guild("Burst")
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        fake.add_member(guild, alice)
        fake.add_member(guild, bob)
        bot, task = await start_bot(fake, tmp_path / "burst.db")
        try:
            messages = []
            for i in range(TABLES):
                room = fake.add_channel(guild, f"burst-{i}")
                messages.append((room, await open_table(fake, room, alice, [bob])))
            await fake.wait_idle()
            tables = [bot.tables.in_location(room.id) for room, _ in messages]
            assert all(t is not None for t in tables)
            limited = fake.rest.global_429s
            # Every table changes at once: twelve edits at five requests a second.
            for i, table in enumerate(tables):
                assert table is not None
                table.note(f"Burst line {i}")
            await asyncio.gather(*(bot.tables.refresh(t, force=True) for t in tables if t))
            await fake.wait_idle()
            assert fake.rest.global_429s > limited, "the burst never crossed the limit"
            for i, (_, message) in enumerate(messages):
                assert f"Burst line {i}" in message.refresh().text(), f"table {i} lost its edit"
            fake.assert_no_errors()
        finally:
            await stop_bot(bot, task)  # type: ignore[arg-type]
