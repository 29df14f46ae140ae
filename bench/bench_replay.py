"""Benchmark replays of finished games: rebuilding one, one step, and the event loop meanwhile.

Plays a long seeded Flux game by its AI (six players, Variant 15 with ten deals each: the
longest table the options allow), stores it as the bot does (seed, options, action log, final
snapshot) and opens its replay through :class:`bot.tables.replay.Replays`, as /history does.
Prints how long the rebuild takes, how long one step takes (the state rebuilt from the nearest
saved copy, and the picture drawn), and the longest the event loop went without running while
that happened (the work runs in a worker thread, so this should stay small). Figures only:
nothing here asserts on time.

Run: ``.venv/bin/python bench/bench_replay.py [deals] [players]``
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import percentile
from bot.engines.flux.ai import choose_action
from bot.games import all_games
from bot.storage.db import Database
from bot.storage.models import SeatRecord
from bot.tables.replay import Replays
from tests.support.logged_games import play_logged, save_played


async def store_long_game(db: Database, deals: int, players: int) -> tuple[int, int]:
    """A finished Flux game played by its AI, stored as the bot stores one; its id and moves."""
    spec = all_games()["flux"]
    engine = spec.engine
    options = {"variants": "15", "deals": deals}
    seats = [
        SeatRecord(seat=i, user_id=None, name=f"AI {i + 1}", is_ai=True) for i in range(players)
    ]
    record = await db.create_game(
        guild_id=1, channel_id=1, game="flux", host_id=1, config={"options": options}, seed=7,
        seats=seats,
    )  # fmt: skip
    state = engine.new_game(engine.parse_config(options), players, 7)
    rng = random.Random(7)
    actions = play_logged(
        engine, state, lambda s, seat: choose_action(engine.observe(s, seat), rng), lambda _: None
    )
    await save_played(db, record.id, engine, state, actions)
    return record.id, len(actions)


async def loop_lag(stop: asyncio.Event, every: float = 0.005) -> float:
    """The longest the loop ran late for a timer of ``every`` seconds, until ``stop``."""
    worst = 0.0
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(every)
        worst = max(worst, time.perf_counter() - start - every)
    return worst


async def timed(work: asyncio.Future[object] | object) -> tuple[float, float]:
    """Seconds ``work`` took, and the worst event-loop lag meanwhile."""
    stop = asyncio.Event()
    watcher = asyncio.create_task(loop_lag(stop))
    await asyncio.sleep(0.02)
    start = time.perf_counter()
    await work  # type: ignore[misc]
    took = time.perf_counter() - start
    stop.set()
    return took, await watcher


async def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    async with await Database.open(":memory:") as db:
        game_id, moves = await store_long_game(db, deals, players)
        replays = Replays(db, all_games())
        took, lag = await timed(replays.open(game_id, 1))
        replay = await replays.open(game_id, 1)
        print(
            f"Flux, {players} players, Variant 15 with {deals} deals each: {moves:,} moves, "
            f"{replay.last:,} replay steps"
        )
        print(f"rebuild (load, apply every move, check the end): {took * 1000:.0f} ms, "
              f"worst event-loop lag meanwhile {lag * 1000:.1f} ms")  # fmt: skip
        rng = random.Random(1)
        steps = [rng.randrange(replay.last + 1) for _ in range(40)]
        states, panels, lags = [], [], []
        for step in steps:
            start = time.perf_counter()
            replay.state_at(step)
            states.append(time.perf_counter() - start)
            took, lag = await timed(replays.step(game_id, step, 1))
            panels.append(took)
            lags.append(lag)
        print(f"one step's state from the nearest saved copy: median {percentile(states, 0.5) * 1000:.1f} ms, "
              f"worst {max(states) * 1000:.1f} ms")  # fmt: skip
        print(f"one step's message (state and picture, in a thread): median "
              f"{percentile(panels, 0.5) * 1000:.0f} ms, p95 {percentile(panels, 0.95) * 1000:.0f} ms; "
              f"worst event-loop lag {max(lags) * 1000:.1f} ms")  # fmt: skip
        start = time.perf_counter()
        for step in range(replay.last + 1):
            replay.state_at(step)
        print(f"every step's state in turn: {(time.perf_counter() - start) * 1000:.0f} ms in all")


if __name__ == "__main__":
    asyncio.run(main())
