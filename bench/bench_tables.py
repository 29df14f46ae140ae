"""Hosting benchmarks: click-to-response through the loopback, and memory per active game.

Run: ``.venv/bin/python bench/bench_tables.py [--games 50] [--clicks 200]``. Prints figures;
never fails on time.

* Click to response: with N Quantum dice games in progress at once (two people each), the time
  from a die-toggle click to the interaction's answer, and to the table message edit landing,
  next to the round trip of a command that does almost nothing (``/about``).
* Memory per active game: tracemalloc growth per started table held by the hosting core.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.client import QuantumTableBot
from bot.config import Settings
from bot.games import all_games
from bot.sandbox.loopback import LoopbackDiscord
from bot.sandbox.loopback.testing import run_bot_against, stop_bot
from bot.storage.db import Database
from bot.tables.manager import Person, TableManager


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (
        f"median {statistics.median(ordered) * 1000:7.2f} ms   "
        f"mean {statistics.fmean(ordered) * 1000:7.2f} ms   p95 {p95 * 1000:7.2f} ms"
    )


async def click_latency(games: int, clicks: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with LoopbackDiscord() as fake:
            guild = fake.add_guild("Bench")
            alice, bob = fake.add_user("alice"), fake.add_user("bob")
            fake.add_member(guild, alice)
            fake.add_member(guild, bob)
            settings = Settings(
                _env_file=None,  # type: ignore[call-arg]
                discord_token=fake.token,
                database_path=Path(folder) / "bench.db",
                ai_delay=0,
            )
            bot = QuantumTableBot(settings)
            task = await run_bot_against(fake, bot)
            await bot.restored.wait()
            people = {alice.id: alice, bob.id: bob}
            rooms = []
            for i in range(games):
                room = fake.add_channel(guild, f"bench-{i}")
                lobby = (await fake.slash(alice, "qdice start", channel=room)).message
                await fake.click(bob, lobby, label="Join")
                await fake.click(alice, lobby.refresh(), label="Start")
                rooms.append(room)
            print(f"{len(bot.tables.tables())} games in progress")

            noop = []
            for i in range(min(clicks, 100)):
                start = time.perf_counter()
                await fake.slash(alice, "about", channel=rooms[i % games], wait=False)
                noop.append(time.perf_counter() - start)
            await fake.wait_idle()

            answer, landed = [], []
            for i in range(clicks):
                room = rooms[i % games]
                table = bot.tables.in_location(room.id)
                assert table is not None and table.state is not None
                user = people[table.seats[table.state.current].user_id]  # type: ignore[attr-defined]
                message = [m for m in fake.messages(room, viewer=alice) if not m.ephemeral][
                    -1
                ].refresh()
                edits = message.edits
                start = time.perf_counter()
                await fake.click(user, message, custom_id=message.buttons[0].custom_id, wait=False)
                answer.append(time.perf_counter() - start)
                while message.refresh().edits == edits:  # noqa: ASYNC110 - polling the fake
                    await asyncio.sleep(0.001)
                landed.append(time.perf_counter() - start)
            await fake.wait_idle()

            burst_start = time.perf_counter()
            burst = []
            for room in rooms:
                table = bot.tables.in_location(room.id)
                user = people[table.seats[table.state.current].user_id]  # type: ignore[union-attr]
                message = [m for m in fake.messages(room, viewer=alice) if not m.ephemeral][
                    -1
                ].refresh()
                burst.append(
                    fake.click(user, message, custom_id=message.buttons[0].custom_id, wait=False)
                )
            await asyncio.gather(*burst)
            await fake.wait_idle()
            burst_time = time.perf_counter() - burst_start

            print(f"no-op command (/about) round trip     {_ms(noop)}")
            print(f"die click -> interaction answered     {_ms(answer)}")
            print(f"die click -> table message edited     {_ms(landed)}")
            print(
                f"{games} clicks at once, one per game: all answered and edited in {burst_time * 1000:.0f} ms"
            )
            fake.assert_no_errors()
            await stop_bot(bot, task)


async def memory_per_game(count: int) -> None:
    class Nowhere:
        async def show(self, table: object, panel: object) -> None: ...
        async def announce(self, table: object, text: str, mention: int | None = None) -> None: ...

    db = await Database.open(":memory:")
    manager = TableManager(db, all_games(), Nowhere(), ai_delay=3600)
    host, guest = Person(1, "Alice"), Person(2, "Bob")
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for i in range(count):
        table = await manager.create("qdice", guild_id=1, channel_id=1000 + i, host=host, seed=i)
        await manager.join(table.id, guest)
        await manager.start(table.id, host)
    after = tracemalloc.take_snapshot()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    tracemalloc.stop()
    print(f"memory per active game (core, {count} games): {grown / count / 1024:.1f} KiB")
    await manager.close()
    await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--clicks", type=int, default=200)
    args = parser.parse_args()
    asyncio.run(memory_per_game(200))
    asyncio.run(click_latency(args.games, args.clicks))


if __name__ == "__main__":
    main()
