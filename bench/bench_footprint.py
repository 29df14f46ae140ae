"""What one bot process costs: memory with live games, the edits a restart sends, start-up.

Run: ``.venv/bin/python bench/bench_footprint.py [--games 10,100,1000] [--clicks 2000]
[--ai-tables 4]``. Prints figures; never fails on time. The bot runs as a real subprocess
(``python -m bot``, AI decisions in its worker processes) against a loopback Discord in this
process, on SQLite.

* Memory: Quantum dice tables (two people each) are opened up to each step of ``--games``;
  1 s and 12 s after the bot went idle, the resident memory (RSS) of the bot process, and
  per AI worker its RSS, its proportional share (PSS: pages shared with the other workers
  and their fork server counted once among them) and its private memory (USS). Then
  ``--clicks`` die clicks on random tables, and the same figures again.
* Restart: the bot is stopped (SIGTERM) and started again on the same database: the time
  from starting the process to its "Restored N live table(s)" line, the bot's RSS right
  then, and the table-message edits it sent (``PATCH`` of a channel message, counted at the
  loopback until the bot is idle). Then again after every game moved on while the bot was
  down (one move saved in the database per game, as when a bot is killed between saving a
  move and editing the message): every table message must be edited then.
* Start-up: the time to import the bot's libraries (a bare ``python -c "import ..."``), and
  start-to-ready of ``python -m bot`` with an empty database and with ``--ai-tables`` tables
  where an AI is to move (a hard Quantum dice AI and a person an AI covers; the bot was
  stopped before they moved), with the time until the first of those AI moves shows.

Figures (2-core machine, 2026-11-27, the code of 1689e56 and of this day run one after the
other with this benchmark and loopback; bot RSS 12 s after going idle):

=============================  ===================  ===================
                               1689e56 (before)     this day (after)
=============================  ===================  ===================
no game                        71 MiB               73 MiB
10 live games                  119 MiB              84 MiB
100 live games                 198 MiB              96-98 MiB
1,000 live games               867 MiB              131-135 MiB
after 2,000 further clicks     957 MiB              136-140 MiB
restart, 1,000 idle games      862 MiB, 1,052       91 MiB, 0 edits
                               edits + 152 posts
restart, 1,000 changed games   866 MiB, 1,055       122-126 MiB (145 at
                               edits                ready), 1,000 edits
each AI worker (RSS/PSS/USS)   73 / 56 / 49 MiB     59 / 22 / 5 MiB
start to ready, empty database 3.98-4.09 s (9.1x    0.61-0.66 s (1.4x
                               the imports, 0.44 s) the imports, 0.43 s)
first AI move after a start    4.0-4.1 s            2.1 s (workers warm
                                                    meanwhile: 1.5 s)
=============================  ===================  ===================

(The 1,000 games before cost 750 KB each mostly in the Pillow mapping table every table's
colours kept; the issue that asked for this measured 260 MiB on an earlier commit.)
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_tables import Room, click_once, open_many
from bot.sandbox.loopback import LoopbackDiscord, Message
from tests.support.processes import BotProcess

MIB = 1024 * 1024
LIBRARIES = (
    "discord, discord.ext.commands, aiohttp, aiosqlite, asyncpg, pydantic, pydantic_settings,"
    " PIL.Image, PIL.ImageDraw, PIL.ImageFont, openskill.models, numpy, zlib_ng,"
    " prometheus_client"
)
EDIT = re.compile(r"^/channels/\d+/messages/\d+$")
SETTLED = 12.0
"""Seconds after going idle the memory is read a second time (the bot hands free memory
back to the system every ten seconds)."""
IDENTIFY_WINDOW = 5.5
"""Seconds between two starts measured: Discord (and the loopback) let a bot start a
session once per 5 s; a start sooner waits for its turn."""


def smaps(pid: int) -> dict[str, int]:
    """Rss, Pss, Private_* ... of a process in bytes (Linux /proc/<pid>/smaps_rollup)."""
    found: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[-1] == "kB":
            found[name] = int(parts[0]) * 1024
    return found


def children_of(pid: int) -> list[int]:
    children: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with open(task / "children") as listing:
            children += [int(c) for c in listing.read().split()]
    return children


def workers_of(pid: int) -> list[int]:
    """The bot's AI worker processes: its spawned children, or the children of its fork
    server (the resource tracker and the fork server itself aside)."""
    found = []
    for child in children_of(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if b"spawn_main" in command and b"resource_tracker" not in command:
            found.append(child)
        elif b"forkserver import main" in command:
            found += children_of(child)
    return sorted(found)


def memory_line(label: str, pid: int | None) -> str:
    assert pid is not None
    bot = smaps(pid)
    text = f"{label:<18} bot RSS {bot['Rss'] / MIB:6.1f} MiB"
    shown = []
    for worker in workers_of(pid):
        m = smaps(worker)
        private = m.get("Private_Clean", 0) + m.get("Private_Dirty", 0)
        shown.append(
            f"RSS {m['Rss'] / MIB:5.1f} PSS {m['Pss'] / MIB:5.1f} USS {private / MIB:5.1f}"
        )
    if shown:
        text += "; AI workers (MiB): " + " | ".join(shown)
    return text


async def settle(fake: LoopbackDiscord, seconds: float = 1.0) -> None:
    await fake.wait_idle(timeout=600)
    await asyncio.sleep(seconds)


def table_edits(fake: LoopbackDiscord, since: int) -> tuple[int, int, int]:
    """Table-message edits and new channel messages Discord took since request ``since``,
    and the requests it refused (429: over the global limit of 50 a second)."""
    edits = posts = refused = 0
    for request in fake.requests[since:]:
        if request.status == 429:
            refused += 1
        elif request.method == "PATCH" and EDIT.match(request.path):
            edits += 1
        elif request.method == "POST" and request.path.endswith("/messages"):
            posts += 1
    return edits, posts, refused


async def restart(fake: LoopbackDiscord, bot: BotProcess, folder: Path, label: str) -> None:
    await bot.stop()
    mark = len(fake.requests)
    started = time.perf_counter()
    await bot.start(cwd=folder, timeout=900)
    ready = time.perf_counter() - started
    print(memory_line(f"{label}: right after ready", bot.pid), flush=True)
    await settle(fake, 1.0)
    edits, posts, refused = table_edits(fake, mark)
    print(
        f"  start to ready {ready:5.1f} s; table messages edited {edits} (new messages {posts};"
        f" requests refused over the rate limit {refused})",
        flush=True,
    )
    await settled(fake, bot)


async def settled(fake: LoopbackDiscord, bot: BotProcess) -> None:
    """The bot's memory a moment after it went idle, and once it has been idle a while."""
    await settle(fake, 1.0)
    print(memory_line("  idle 1 s", bot.pid), flush=True)
    await asyncio.sleep(SETTLED - 1.0)
    print(memory_line(f"  idle {SETTLED:.0f} s", bot.pid), flush=True)


async def move_every_game(path: Path) -> int:
    """Save one move of every live game, as another process (or a killed bot) would have."""
    from bot.games import all_games
    from bot.storage.db import Database
    from bot.storage.models import ActionRecord
    from bot.tables.table import Table

    games = all_games()
    moved = 0
    async with Database.open(path) as db:
        for record in await db.active_games():
            table = Table(record=record, spec=games[record.game])
            if record.status != "active" or not record.state_json:
                continue
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
                record.id,
                version=version,
                expected_version=record.version,
                state_json=table.snapshot_json(trial, lines, history),
                actions=[
                    ActionRecord(
                        version=version, seat=seat, action=action, user_id=None, at=time.time()
                    )
                ],
            )
            moved += 1
    return moved


async def memory_and_restarts(steps: list[int], clicks: int) -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        async with LoopbackDiscord() as fake:
            fake.ack_deadline = 30.0
            guild = fake.add_guild("Bench")
            alice, bob = fake.add_user("alice"), fake.add_user("bob")
            fake.add_member(guild, alice)
            fake.add_member(guild, bob)
            bot = BotProcess("footprint", fake.url, fake.token, {"DATABASE_PATH": "f.db"})
            started = time.perf_counter()
            await bot.start(cwd=folder)
            print(f"start to ready, empty database: {time.perf_counter() - started:.1f} s")
            print("no game", flush=True)
            await settled(fake, bot)
            room = Room(fake, guild, alice, bob)
            for step in steps:
                await open_many(room, step - len(room.tables))
                gc.collect()
                print(f"{step} live games", flush=True)
                await settled(fake, bot)
            gc.freeze()
            rng = random.Random(5)
            done = 0
            while done < clicks:
                if await click_once(room, rng.choice(room.tables)) is not None:
                    done += 1
            print(f"after {clicks} further clicks", flush=True)
            await settled(fake, bot)
            games = len(room.tables)
            await restart(fake, bot, folder, f"restart, {games} idle games")
            await bot.stop()
            moved = await move_every_game(folder / "f.db")
            print(f"{moved} games moved on while the bot was down", flush=True)
            await restart(fake, bot, folder, f"restart, {moved} changed games")
            await bot.stop()
            if errors := bot.errors():
                print(f"  {len(errors)} error line(s) in the bot log, first: {errors[0]}")
                log = Path(tempfile.gettempdir()) / "bench_footprint_bot.log"
                log.write_text("\n".join(bot.lines))
                print(f"  (the bot's log: {log})")


def import_seconds(runs: int = 3) -> float:
    """Seconds a bare interpreter takes to import the bot's libraries (best of ``runs``)."""
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", f"import {LIBRARIES}"], check=True)
        best = min(best, time.perf_counter() - started)
    return best


def progress(message: Message) -> int:
    """The table version the message shows (its controls carry it): a move adds one."""
    ids = [b.custom_id or "" for b in message.refresh().buttons]
    return max((int(i.split(":")[2]) for i in ids if i.startswith("qt:")), default=-1)


async def open_ai_waiting(room: Room, count: int) -> list[Message]:
    """Quantum dice tables of alice, a hard AI and bob, where alice left before her first
    move: an AI covers her seat, and its move is the next."""
    fake = room.fake
    tables = []
    for _ in range(count):
        channel = room.channel()
        lobby = (await fake.slash(room.alice, "qdice start", channel=channel)).message
        assert lobby is not None
        await fake.click(room.alice, lobby, label="Add hard AI")
        await fake.click(room.bob, lobby, label="Join")
        await fake.click(room.alice, lobby, label="Start")
        ask = (await fake.click(room.alice, lobby, label="Leave")).message
        assert ask is not None, "no question before leaving"
        await fake.click(room.alice, ask, label="Leave")
        tables.append(lobby)
    await fake.wait_idle(timeout=60)
    return tables


async def start_up(ai_tables: int) -> None:
    imports = import_seconds()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        async with LoopbackDiscord() as fake:
            guild = fake.add_guild("Bench")
            alice, bob = fake.add_user("alice"), fake.add_user("bob")
            fake.add_member(guild, alice)
            fake.add_member(guild, bob)
            # AI players wait 30 s before moving: none moves before the bot stops.
            bot = BotProcess("start", fake.url, fake.token, {"DATABASE_PATH": "s.db"})
            waiting = BotProcess(
                "start", fake.url, fake.token, {"DATABASE_PATH": "s.db", "AI_DELAY": "30"}
            )
            empty = []
            for _ in range(3):
                started = time.perf_counter()
                await bot.start(cwd=folder)
                empty.append(time.perf_counter() - started)
                await bot.stop()
                await asyncio.sleep(IDENTIFY_WINDOW)  # Discord's one start per 5 s
            await waiting.start(cwd=folder)
            room = Room(fake, guild, alice, bob)
            tables = await open_ai_waiting(room, ai_tables)
            before = [progress(m) for m in tables]
            await waiting.stop()
            await asyncio.sleep(IDENTIFY_WINDOW)
            started = time.perf_counter()
            mark = await bot.spawn(cwd=folder)
            first = None
            ready = None
            while first is None or ready is None:
                now = time.perf_counter() - started
                if ready is None and any("Restored" in line for line in bot.lines[mark:]):
                    ready = now
                if first is None and any(
                    progress(m) > b for m, b in zip(tables, before, strict=True)
                ):
                    first = now
                if now > 120:
                    break
                await asyncio.sleep(0.01)
            decided = [ln for ln in bot.lines[mark:] if "AI worker" in ln or "no move" in ln]
            await fake.wait_idle(timeout=60)
            moved = sum(progress(m) > b for m, b in zip(tables, before, strict=True))
            await bot.stop()
            print(
                f"library imports {imports:4.2f} s; start to ready, empty database "
                + ", ".join(f"{s:4.2f}" for s in empty)
                + f" s (best {min(empty) / imports:.1f}x the imports)\n"
                f"with {ai_tables} tables where an AI is to move: ready {ready or float('nan'):4.2f}"
                f" s, first AI move shown {first or float('nan'):4.2f} s after the start,"
                f" {moved}/{ai_tables} tables moved",
                flush=True,
            )
            for line in decided:
                print(f"  log: {line[-110:]}")
            if errors := bot.errors() + waiting.errors():
                print(f"  {len(errors)} error line(s) in the bot log, first: {errors[0]}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", default="10,100,1000")
    parser.add_argument("--clicks", type=int, default=2000)
    parser.add_argument("--ai-tables", type=int, default=4)
    parser.add_argument("--only", choices=("memory", "start"), default=None)
    args = parser.parse_args()
    print(
        f"loopback Discord in this process; the bot in its own (python -m bot), SQLite; "
        f"{os.cpu_count()} cores"
    )
    if args.only in (None, "start"):
        await start_up(args.ai_tables)
    if args.only in (None, "memory"):
        steps = [int(s) for s in args.games.split(",")]
        await memory_and_restarts(steps, args.clicks)


if __name__ == "__main__":
    asyncio.run(main())
