"""AI decisions run in worker processes within a budget; a failed or late one is replaced by
a legal move, and a restart while an AI thinks loses nothing."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import time
from pathlib import Path

import pytest

from bot.storage.db import Database
from bot.tables.manager import Person, TableManager
from bot.tables.protocols import GameAI
from bot.tables.thinking import Thinker
from tests.tables.test_manager import CHANNEL, GUILD, Recorder
from tests.tables.toy import (
    TOY,
    ToyObs,
    broken_ai,
    pid_ai,
    qdice_tables_built,
    slow_ai,
    slow_warm_up,
    warm_ai,
)

ALICE = Person(1, "Alice")
ROOT = Path(__file__).resolve().parents[2]
OBS = ToyObs(totals=[0, 0], current=1, seat=1, goal=10)


def toy_with(decide) -> object:  # type: ignore[no-untyped-def]
    return dataclasses.replace(TOY, ai=GameAI(decide=decide))


async def test_decisions_run_in_another_process_with_a_deadline() -> None:
    thinker = Thinker([TOY], workers=1, budget=0.5)
    await thinker.start()
    move = await thinker.decide(toy_with(pid_ai), OBS, "hard", "seed", ["add1"])  # type: ignore[arg-type]
    pid, level, has_deadline = move.split(":")[1:]
    assert int(pid) != os.getpid() and level == "hard" and has_deadline == "True"


async def test_a_decision_before_the_workers_are_warm_waits_for_them() -> None:
    """Workers start in the background: a decision asked for meanwhile waits for them (the
    event loop runs on), and its budget starts only once a warm worker takes it."""
    spec = dataclasses.replace(TOY, ai=GameAI(decide=warm_ai, warm_up=slow_warm_up))
    thinker = Thinker([spec], workers=3, budget=0.5, grace=0.5)  # a pool of its own
    await thinker.start()
    assert thinker._ready is not None and not thinker._ready.done()  # still warming up
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.create_task(tick())
    move = await thinker.decide(spec, OBS, "hard", "s", ["add1"])  # type: ignore[arg-type]
    ticker.cancel()
    warm, left = move.split(":")
    assert warm == "True" and float(left) > 0.3 and thinker.fallbacks == 0
    assert ticks >= 20  # the loop kept running while the workers warmed up
    assert len(thinker.pids) == 3 and all(thinker.memory()[pid]["rss"] > 0 for pid in thinker.pids)


async def test_a_failing_ai_is_replaced_by_a_legal_move(caplog: pytest.LogCaptureFixture) -> None:
    thinker = Thinker([TOY], workers=1)
    with caplog.at_level(logging.ERROR):
        move = await thinker.decide(toy_with(broken_ai), OBS, "normal", "s", ["add1", "add2"])  # type: ignore[arg-type]
    assert move in ("add1", "add2") and thinker.fallbacks == 1
    assert "always fails" in caplog.text


async def test_a_late_ai_is_replaced_by_a_legal_move(caplog: pytest.LogCaptureFixture) -> None:
    thinker = Thinker([TOY], workers=1, budget=0.05, grace=0.3)
    with caplog.at_level(logging.WARNING):
        move = await thinker.decide(toy_with(slow_ai), OBS, "hard", "s", ["add1"])  # type: ignore[arg-type]
    assert move == "add1" and thinker.fallbacks == 1
    assert "gave no move" in caplog.text
    await asyncio.sleep(1.5)  # let the worker finish its sleep before other tests use it


async def test_levels_reach_the_ai(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "t.db")
    core = TableManager(db, {"toy": TOY}, Recorder(), ai_delay=0, thinker=Thinker([TOY], workers=1))
    table = await core.create("toy", guild_id=GUILD, channel_id=CHANNEL, host=ALICE, seed=1)
    await core.add_ai(table.id, ALICE, "easy")
    await core.add_ai(table.id, ALICE, "hard")
    assert [s.name for s in table.seats] == ["Alice", "Ada (AI, easy)", "Babbage (AI, hard)"]
    assert [s.level for s in table.seats] == [None, "easy", "hard"]
    assert table.ai_level(1) == "easy" and table.ai_level(0) == "normal"
    with pytest.raises(Exception, match=r"^error-no-ai-level\b"):
        await core.add_ai(table.id, ALICE, "godlike")
    await core.start(table.id, ALICE)
    await core.act(table.id, ALICE.id, "add1", None)
    for _ in range(200):
        if table.state is not None and table.state.current == 0:  # type: ignore[attr-defined]
            break
        await asyncio.sleep(0.02)
    assert table.state.totals == [1, 1, 2]  # type: ignore[attr-defined]  # easy adds 1, hard 2
    stored = await db.load_game(table.id)
    assert stored is not None and [s.level for s in stored.seats] == [None, "easy", "hard"]
    await core.close()
    await db.close()


async def test_a_restart_while_an_ai_thinks_loses_nothing(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "t.db")
    slow = toy_with(slow_ai)
    first = TableManager(
        db, {"toy": slow}, Recorder(), ai_delay=0, thinker=Thinker([slow], workers=1)
    )  # type: ignore[dict-item, list-item]
    table = await first.create("toy", guild_id=GUILD, channel_id=CHANNEL, host=ALICE, seed=1)
    await first.add_ai(table.id, ALICE)
    await first.start(table.id, ALICE)
    await first.act(table.id, ALICE.id, "add1", None)  # now the AI thinks for 1.5 s
    await asyncio.sleep(0.3)
    version = table.record.version
    started = time.monotonic()
    await first.close()  # a restart: the runner stops without waiting for the thought
    assert time.monotonic() - started < 1.0
    stored = await db.load_game(table.id)
    assert stored is not None and stored.version == version  # nothing half-applied

    second = TableManager(
        db, {"toy": TOY}, Recorder(), ai_delay=0, thinker=Thinker([TOY], workers=1)
    )
    assert await second.restore() == 1
    again = second.get(table.id)
    for _ in range(200):
        if again.record.version > version:
            break
        await asyncio.sleep(0.02)
    assert again.record.version == version + 1  # the AI moved, once
    assert again.state.totals == [1, 2]  # type: ignore[attr-defined]
    await second.close()
    await db.close()


SCRIPT = """
import asyncio, sys
from bot.tables.thinking import Thinker, _pools
from tests.tables.toy import TOY

async def main():
    thinker = Thinker([TOY], workers=2)
    await thinker.ready()
    pool = _pools[2]
    print(" ".join(str(p) for p in pool._processes), flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


async def test_workers_die_with_a_killed_bot(tmp_path: Path) -> None:
    import signal
    import sys

    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        SCRIPT,
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), 60)
    workers = [int(p) for p in line.split()]
    assert len(workers) == 2
    process.send_signal(signal.SIGKILL)  # no shutdown code runs
    await asyncio.wait_for(process.wait(), 10)  # the log pipes close too: nothing holds them

    def alive(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True

    for _ in range(100):
        if not any(alive(p) for p in workers):
            break
        await asyncio.sleep(0.05)
    assert not any(alive(p) for p in workers)


async def test_workers_share_the_tables_the_fork_server_built() -> None:
    """Every game's AI tables are built once, before the workers are forked: each worker has
    them from its first decision on, and holds little memory of its own."""
    from bot.games import all_games
    from bot.tables.thinking import _pools

    thinker = Thinker(all_games().values(), workers=2)
    await thinker.ready()
    for pid in thinker.pids:
        memory = thinker.memory()[pid]
        # (a clean-clone CI run on a busy machine measured 37 of 80 MiB its own)
        assert 0 < memory["private"] < memory["rss"] * 0.6
    loop = asyncio.get_running_loop()
    built = await loop.run_in_executor(_pools[2], qdice_tables_built)
    assert (1000, True) in built and (1000, False) in built
