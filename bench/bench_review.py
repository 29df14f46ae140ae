"""Benchmark reviews after the game: how long a person's review of a full game takes.

For each of the five games a full seeded game with the default options is played by normal
AIs, seat 0 standing for a person (its moves logged as theirs), and stored as the bot stores
one. Then seat 0's review is worked out as the bot does when a game ends
(:meth:`bot.tables.review.Reviews.compute`: the game rebuilt in a thread, each of the
person's moves analysed by the hard AI in the AI worker processes with the given budget).
Prints the moves looked at, the review's entries, the time in all and per move, and the worst
the event loop went without running meanwhile. Figures only: nothing here asserts on time.

Run: ``.venv/bin/python bench/bench_review.py [budget seconds per move, default 1.0] [games]``
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_replay import loop_lag
from bot.games import all_games
from bot.storage.db import Database
from bot.storage.models import SeatRecord
from bot.tables.protocols import GameSpec
from bot.tables.review import Reviews
from bot.tables.thinking import Thinker
from tests.support.logged_games import play_logged, save_played

PLAYERS = {"qdice": 2, "qpoker": 2, "flume": 4, "flux": 3, "fingers": 3}
SEED = 11


async def store_game(db: Database, spec: GameSpec, players: int) -> tuple[int, int]:
    """A finished game played by normal AIs, seat 0's moves logged as a person's."""
    engine = spec.engine
    assert spec.ai is not None
    seats = [
        SeatRecord(seat=i, user_id=1 if i == 0 else None, name=f"P{i + 1}", is_ai=i != 0)
        for i in range(players)
    ]
    record = await db.create_game(
        guild_id=1, channel_id=1, game=spec.name, host_id=1, config={"options": {}},
        seed=SEED, seats=seats,
    )  # fmt: skip
    state = engine.new_game(engine.parse_config({}), players, SEED)
    rng = random.Random(SEED)
    ai = spec.ai
    actions = play_logged(
        engine,
        state,
        lambda s, seat: ai.decide(engine.observe(s, seat), "normal", rng, None),
        lambda seat: 1 if seat == 0 else None,
    )
    await save_played(db, record.id, engine, state, actions)
    return record.id, len(actions)


async def main() -> None:
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    names = sys.argv[2].split(",") if len(sys.argv) > 2 else list(PLAYERS)
    games = all_games()
    thinker = Thinker(games.values(), budget=budget)
    await thinker.start()
    print(f"Review of seat 0's moves, hard AI at {budget:g} s a move, {thinker.workers} worker(s)")
    async with await Database.open(":memory:") as db:
        reviews = Reviews(db, games, thinker)
        for name in names:
            spec = games[name]
            game_id, moves = await store_game(db, spec, PLAYERS[name])
            record = await db.load_game(game_id)
            assert record is not None
            actions = await db.actions(game_id)
            stop = asyncio.Event()
            watcher = asyncio.create_task(loop_lag(stop))
            start = time.perf_counter()
            review = await reviews.compute(record, spec, actions, 0, 1)
            took = time.perf_counter() - start
            stop.set()
            lag = await watcher
            per = took / max(1, review.positions)
            print(
                f"{spec.title} ({PLAYERS[name]} players, {moves:,} moves in all): "
                f"{review.positions} of the person's moves, {len(review.entries)} entries; "
                f"{took:.1f} s in all, {per * 1000:.0f} ms a move; "
                f"worst event-loop lag {lag * 1000:.1f} ms"
            )


if __name__ == "__main__":
    asyncio.run(main())
