"""Hosting benchmark: what a click costs next to a command that does nothing, with the bot in
its own process, and how long 1,000 live games take to come back after a restart.

Run: ``.venv/bin/python bench/bench_tables.py [--games 50] [--samples 3000] [--ai-tables 4]
[--restore 1000]``. Prints figures; never fails on time.

* Click against no-op: the bot runs as a real subprocess (``python -m bot``) against a
  loopback Discord in this process, on SQLite. ``--games`` Quantum dice tables with two
  people each, and ``--ai-tables`` Flume tables where only AI seats play (the person at each
  runs out of time on a one-minute timer and an AI covers) moving in the background. One at a time, a
  die click by the person whose move it is (answered with the redrawn table) alternates with
  ``/about`` (answered with a small embed); each is timed from sending to Discord's answer.
* Restore: ``--restore`` live games in the database; the time from starting the process to
  its "Restored N live table(s)" line (every table in memory and its message refreshed),
  next to the same start with an empty database.

This process plays Discord; it freezes its own heap after setting up the tables so that its
collector's pauses are not counted against the bot.

Figures (2-core machine, other benchmarks paused, ``--games 30 --samples 400 --ai-tables 4
--restore 1000``, five runs of the same code on 2026-11-23), click p95 over ``/about`` p95:
idle 4.2x, 3.7x, 3.7x, 3.7x, 3.6x (click p50 9.0-13.5 ms, p95 12.7-17.3 ms; ``/about`` p95
3.0-4.6 ms); with the 4 AI tables moving 3.7x, 3.3x, 2.9x (click p95 17.7-20.3 ms;
``/about`` p95 4.8-7.1 ms: commands are not held ahead of AI redraws, clicks are).
Start-up: empty database 7.3-7.6 s, 1,000 live games 18.9-19.6 s, every table playable
0.1 s after restoring began. Before the work of that day: idle 5.5x (click p50 16.3, p95
22.4 ms), with AI tables 5.9x.

2026-11-27 (same machine, nothing else running, ``--games 50 --samples 300 --restore 0``, the
code of 1689e56 and of this day alternated, the loopback and benchmark of this day for both),
click p95 over ``/about`` p95:

* 1689e56 (before): idle 4.0x, 3.7x (click p50 6.0-6.3 ms, p95 7.7-8.0 ms; ``/about`` p95
  2.0-2.1 ms); 4 AI tables moving 4.9x, 4.0x (click p95 9.4-9.8 ms).
* one picture cache, the kept attachment, AI moves holding back while a click is answered:
  idle 2.0x, 2.0x (click p50 2.9-3.2 ms, p95 4.3 ms); AI tables moving 3.7x, 3.0x (click p95
  7.9-8.5 ms).
* and AI moves in a row shown together (``driver.AI_EDIT_GAP``): idle 1.6-2.0x over six runs
  (click p95 3.8-4.6 ms); AI tables moving 2.4x, 2.7x, 2.8x, 2.6x (click p95 5.8-6.3 ms).

What is left with AI tables moving was traced (timestamps in the bot, correlated with every
picture drawn and AI move): clicks that coincide with another table's picture being drawn in
a thread wait for the interpreter (their save's round trips to the SQLite thread take 5-12 ms
instead of 0.5); the bot process uses 27% of one core and the AI workers under 1%. With the
background pictures not drawn at all (an experiment) the ratio is still 2.3-2.4x, so drawing
them in another process would not reach 2x by itself; a shorter interpreter switch interval
while a click is answered, the AI workers at ``SCHED_IDLE`` and the drawing thread at a lower
priority each changed nothing measurable.

Later on 2026-11-27, a save made one trip to SQLite's thread instead of one per statement
(``Store._transact``), and a move's snapshot written in one pass. Alternated with 592134a,
``--samples 3000`` (about 45 s of clicks a phase), click p95 over ``/about`` p95:

* 592134a (before): idle 2.0x, 1.9x (click p95 5.2, 4.5 ms); 4 AI tables moving 2.6x, 2.6x
  (click p95 6.0, 6.0 ms; ``/about`` 2.3 ms).
* 13647e1 (after): idle 1.9x, 1.9x (click p95 5.0, 4.9 ms); 4 AI tables moving 2.1x, 2.1x
  (click p95 5.5, 5.3 ms; ``/about`` 2.5-2.6 ms).

With ``--samples 1000`` the same code varies from run to run: after, with AI tables moving,
1.9-2.4x over fifteen runs, 2.2x the median (idle 1.6-1.9x). Traced in the bot (the clicks
of one run with AI tables moving): from the click's handler to Discord's answer p50 2.3 ms,
p95 4.0 ms, of which the request answering the click (building it, sending, Discord's loopback handling it) is
1.6 ms at p50 and the save 0.3 ms. Also measured and not adopted: drawing no background
picture at all 2.0x, 2.2x; calm checked before every step of an AI move 2.2x, 2.2x, 2.3x; a
1 ms interpreter switch interval 1.7x, 2.2x; this process's collector off while measuring
2.2x, 2.2x. The bot's own collector: each click leaves about 2,000 objects in reference cycles
(discord.py's views, interactions and their parts point at each other), so a young
collection (0.33 ms) runs every fourth or fifth click, an older one (2.5 ms) every fiftieth,
and a full one (30 ms) every 8.5 s; a young generation of 10,000 cut the collector's time to
a quarter but moved the pauses into p99 (2.0x, 2.2x against 2.1x, 2.3x).

Tried last and not kept: the collector run between clicks (the automatic collector off, the
same collections run from a task when no click is being answered). Alternated with ebce263,
it brought the click down with AI tables moving (``--samples 3000``: 1.8x, 1.9x against 2.2x,
2.2x, click p95 3.9-4.6 against 4.6-4.8 ms; ``--samples 1000``: 1.8x, 2.2x, 2.0x against 2.3x,
2.2x, 2.0x), but ``bench_footprint.py`` showed the bot at 154-157 MiB with 1,000 live games
against 140-145 MiB (both measured while the tests ran beside them): opening a thousand
tables keeps clicks in flight, and garbage piled up between the task's collections, also
when it did not wait for them past four times the young threshold. Collecting between
clicks without that cost is the next thing to try.

Later still (77888e1): a table message's buttons and menus are sent without discord.py items
behind them (laid out once, ``bot.ui.parts.LaidOut``), and the view discord.py builds around
a click is unlinked once the click is handled. Each click used to leave two views (about 75
objects) in reference cycles; counted with ``--gc`` (the bot's own ``/metrics``, 2,000 samples),
the bot's cycle collections per 1,000 clicks and ``/about`` went from young 214-218, older 20,
full 2 (objects they freed per click 116-142) to young 122-126, older 11-12, full 1 (47-60).
The rest is discord.py's interactions, kept 2.3 s by ``answers.watch`` and freed by full
collections. Alternated with 7c4eb02, ``--samples 3000``, click p95 over ``/about`` p95 with
4 AI tables moving (p95 in ms):

* 7c4eb02 (before): 2.18 (4.8/2.2), 2.04 (4.7/2.3), 2.19 (4.6/2.1), 2.22 (5.1/2.3),
  2.13 (5.1/2.4), and with ``--gc`` 2.21 (5.3/2.4); idle 1.7-1.9x.
* 77888e1 (after): 2.04 (4.9/2.4), 1.96 (4.5/2.3), 2.00 (5.2/2.6), 1.96 (4.7/2.4),
  2.14 (4.7/2.2), and with ``--gc`` 2.00 (5.4/2.7); idle 1.7-1.9x.

The ratio's median went from 2.2x to 2.0x, but not because the click got quicker: its p95
is the same (4.5-5.4 ms against 4.6-5.3), while ``/about``'s rose by about 0.15 ms (2.2-2.7
against 2.1-2.4), presumably the fewer young collections now landing on it more often than on
the click. Also tried and taken back: a young collection run as soon as the last click being
answered has its answer (``gc.collect`` when the young generation was half full): 1.5x, 1.6x
against 2.2x, but only because the collection then delayed the ``/about`` sent right after
the click (its p95 2.6-3.1 ms against 2.0 ms; the click's unchanged).

Later (8713dfc, c109cdd): a click is routed by its custom_id from ``on_interaction``
(``bot.ui.controls``) instead of discord.py's dynamic items, which first made a view of every
component of the clicked message; a button's component is made by discord.py once and kept
(its custom_id set per message); a move is tried on a copy of the state made through its
JSON. Measured alone (``process_time``, 11-button dice table): the components 98 -> 18 us,
routing 78 -> 3 us, the copy 37 -> 12 us, about 0.18 ms of CPU per click. Alternated with
75ad79d, ``--samples 3000``, with 4 AI tables moving (p95 in ms):

* 75ad79d (before): 2.08 (5.6/2.7), 1.93 (5.5/2.9), 2.00 (4.9/2.4); idle 1.72-1.82x.
* 8713dfc (after): 1.98 (5.4/2.7), 2.02 (4.1/2.0), 1.92 (4.8/2.5 at 7fc7ae6); idle
  1.67-1.73x.

Within the noise between runs. What the click has that ``/about`` has not, measured by
leaving one piece out (an experiment, not kept): without saving the move (the state still
written to JSON), 1.45x and 1.56x with AI tables moving, 1.38x and 1.45x idle (click p50
2.1-2.6 ms against 2.9-3.1 with the save). In the bot, a save takes 0.34 ms at p50, 0.69 at
p90 and 1.0 at p95 (one trip to SQLite's thread: begin, the game's row, the fence, the
snapshot, the action, the version, commit; 0.18 ms on an idle machine, an empty transaction
0.11 ms): the largest part of a click's excess over the no-op, and the one that must stay
before the answer (a move is not shown before it is saved). Overlapping the save with
building the answer instead (the panel built from the state being saved while SQLite's thread
commits it, sent only once it has; an experiment, not kept), alternated with 72257a1: 1.98x,
2.01x against 1.92x, 1.94x (idle 1.75x, 1.74x against 1.75x, 1.61x): the panel is Python and
so is most of the save's work on its thread, and they share one interpreter lock.

Later still (70e9ea5, 25822d5). Traced in the bot first (an experiment: timestamps from
the gateway frame to Discord's answer, 3,000 clicks and ``/about`` with 4 AI tables moving,
p50/p95 in ms): a click 1.98/3.65, ``/about`` 1.19/1.84, the benchmark's 2x again. Of the
click: discord.py reading the interaction (the clicked message comes with it) 0.21/0.31
against 0.09/0.13 for ``/about``; the move tried 0.18/0.29; its save 0.32/0.84; the answer's
panel and parts 0.26/0.39; the answering request 0.88/1.68 (``/about``'s own 0.94/1.47). The
excess is the move's own work (read, tried, saved, shown), spread over steps of 0.1-0.3 ms.

* A click's answer asks Discord for the edited message back only when it carries a new
  picture, whose attachment id is needed (``answers.edit(echo=...)``): discord.py asks every
  time and makes a ``Message`` of the answer, about 50 us of the bot's CPU for a dice table
  (JSON 19 us, the message 27 us). Alternated with e9bfcf3, 4 AI tables moving: 2.06x,
  1.92x, 1.91x, 1.93x against 1.93x, 1.98x, 1.97x, 1.93x (click p95 4.0-4.6 ms both).
* An interaction's response is unlinked from it once its answer watch is over
  (``answers._unlink``): objects a click and a command leave to the cycle collector went
  from 59 to none (``tests/e2e/test_qdice.py``), so the full collections that held up a
  click or ``/about`` for 100-170 ms are gone. Alternated with 70e9ea5: ``/about`` p95 1.8,
  2.2 ms against 2.1, 2.1 and its max 6.9, 8.9 ms against 154, 126; click p95 3.9, 4.3
  against 4.0, 4.2 (idle 2.9, 3.1 against 3.5, 3.6). The ratio: 2.19x, 1.95x against 1.91x,
  1.97x: the no-op got quicker, the click's move did not. ``bench_footprint.py --only
  memory`` alternated with 70e9ea5: the bot after 2,000 further clicks 138.5, 139.4 MiB
  against 148.1, 147.7 (1,000 live games 136.9, 138.0 against 138.1, 138.7).
* A 1 ms interpreter switch interval (an experiment, not kept), alternated with 70e9ea5:
  2.06x, 1.96x against 1.89x, 1.93x, 1.97x.

Where each time goes (later on 2026-11-27): the fake now notes when an interaction's frame
went to the bot's socket and when the request with its answer arrived, and each phase also
prints the bot's part of the times (between those two) and the fake's own work (finding the
button and writing the interaction with its message before; reading, checking and applying
the answer after). With 4 AI tables moving, the whole time's ratio on 6f00897 was 1.98x,
1.97x, 2.05x, 2.30x, and with the split 1.93x, 1.77x: there the bot's part p50 1.54, 1.69 ms
for a click against 0.72, 0.78 for ``/about`` (p95 2.62, 3.20 against 1.34, 1.79: 1.96x,
1.79x), the fake's own work p50 0.72, 0.77 ms against 0.36, 0.38. The bot's click is about
twice its no-op at the median too; idle, its part's p95 ratio is 1.6-1.8x. Measured alone on an idle machine (one process, 3,000 times): discord.py reading
the click 31 us (the clicked message 22 us) against 6 us for the command, the copy of the
state 10 us, the panel 44 us and its parts 17 us, the save 134 us of which a bare trip to
SQLite's thread and back is 83 us.

* orjson, which discord.py uses for the gateway's JSON and request bodies when it is
  installed (an experiment, not kept), alternated: 1.82x, 2.06x against 1.93x, 1.77x with
  AI tables moving; the bot's CPU per click and ``/about`` 3.2, 3.3 ms against 3.3, 3.7
  (idle 2.4, 2.5 against 2.6, 2.5), every time lower by 0.05-0.1 ms, click and no-op alike.
  With zstandard as well (the gateway's zstd-stream): 2.14x, 2.22x against 2.05x, 2.30x.

The default is 3,000 samples a phase: the p95 of 300 is the 15th slowest click, and runs of
the same code differed by 0.5x.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bench.stats import percentile
from bot.sandbox.loopback import (
    Channel,
    Guild,
    InteractionResult,
    LoopbackDiscord,
    Message,
    User,
)
from tests.support.processes import BotProcess


def cpu_seconds(pid: int | None) -> float:
    """CPU time (user + system) the process has used so far, from /proc (Linux)."""
    if pid is None:
        return float("nan")
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def figures(values: list[float]) -> str:
    return "  ".join(
        f"{name} {percentile(values, q) * 1000:6.1f}"
        for name, q in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99), ("max", 1.0))
    )


SERVING = re.compile(r"Health and metrics at (http://\S+)/healthz")
GENERATIONS = ("young", "older", "full")


async def collector(bot: BotProcess) -> tuple[list[float], float]:
    """The bot's cycle collections so far by generation, and the objects they freed (from
    its own ``/metrics``: prometheus_client's collector counts)."""
    found = next((m for line in bot.lines if (m := SERVING.search(line))), None)
    if found is None:
        return [float("nan")] * 3, float("nan")
    async with aiohttp.ClientSession() as http, http.get(f"{found[1]}/metrics") as response:
        text = await response.text()
    runs, freed = [0.0] * 3, 0.0
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "python_gc_collections_total":
                runs[int(sample.labels["generation"])] = sample.value
            elif sample.name == "python_gc_objects_collected_total":
                freed += sample.value
    return runs, freed


def collections(
    before: tuple[list[float], float], after: tuple[list[float], float], clicks: int
) -> str:
    runs = ", ".join(
        f"{name} {(b - a) * 1000 / clicks:.0f}"
        for name, a, b in zip(GENERATIONS, before[0], after[0], strict=True)
    )
    freed = (after[1] - before[1]) / clicks
    return f"per 1,000 clicks and /about {runs}; objects they freed per click {freed:.0f}"


@dataclass
class Room:
    fake: LoopbackDiscord
    guild: Guild
    alice: User
    bob: User
    tables: list[tuple[Channel, Message]] = field(default_factory=list)
    rooms: int = 0

    def channel(self) -> Channel:
        self.rooms += 1
        return self.fake.add_channel(self.guild, f"bench-{self.rooms}")


async def open_dice(room: Room) -> None:
    channel = room.channel()
    lobby = (await room.fake.slash(room.alice, "qdice start", channel=channel, wait=False)).message
    assert lobby is not None, "no lobby"
    for _ in range(500):  # acknowledged first in a burst, the lobby comes a moment later
        if not lobby.refresh().loading:
            break
        await asyncio.sleep(0.02)
    await room.fake.click(room.bob, lobby, label="Join", wait=False)
    await room.fake.click(room.alice, lobby, label="Start", wait=False)
    room.tables.append((channel, lobby))


async def open_many(room: Room, count: int, batch: int = 16) -> None:
    target = len(room.tables) + count
    while len(room.tables) < target:
        await asyncio.gather(
            *(open_dice(room) for _ in range(min(batch, target - len(room.tables))))
        )
    await room.fake.wait_idle(timeout=300)


async def open_ai_tables(room: Room, count: int) -> list[Message]:
    """Flume tables of one person and three AI players with a one-minute timer: once the
    person's time runs out an AI covers for them, and every seat plays by itself."""
    lobbies = []
    for _ in range(count):
        channel = room.channel()
        fake = room.fake
        lobby = (
            await fake.slash(
                room.alice, "flume start", channel=channel, options={"turn_minutes": 1}
            )
        ).message
        assert lobby is not None
        for _ in range(3):
            await fake.click(room.alice, lobby, label="Add AI")
        await fake.click(room.alice, lobby, label="Start")
        lobbies.append(lobby)
    return lobbies


def to_act(message: Message) -> str | None:
    footer = (message.embeds[0].get("footer") or {}).get("text", "") if message.embeds else ""
    return footer.removeprefix("To act: ").strip() or None


@dataclass
class Timed:
    """One click or ``/about``, from sending it to Discord's answer, and where that went: the
    fake Discord's own work before the bot's socket has the interaction (finding the button,
    writing the interaction with its message), the bot's (from there until its answer reaches
    the fake: reading it, the move, the request), and the fake's after (reading and
    checking the answer, applying it to the message)."""

    total: float
    before: float
    bot: float
    after: float

    @classmethod
    def of(cls, start: float, result: InteractionResult, end: float) -> Timed:
        it = result.interaction
        sent = it.sent if it.sent is not None else start
        arrived = it.arrived if it.arrived is not None else end
        return cls(end - start, sent - start, arrived - sent, end - arrived)


async def click_once(room: Room, table: tuple[Channel, Message]) -> Timed | None:
    _channel, message = table
    name = to_act(message.refresh())
    if name not in ("alice", "bob"):
        return None
    die = next((b for b in message.buttons if (b.custom_id or "").endswith(":t0")), None)
    if die is None or die.disabled:
        return None
    person = room.alice if name == "alice" else room.bob
    start = time.perf_counter()
    result = await room.fake.click(person, message, custom_id=die.custom_id, wait=False)
    return Timed.of(start, result, time.perf_counter())


async def about_once(room: Room, channel: Channel) -> Timed:
    start = time.perf_counter()
    result = await room.fake.slash(room.alice, "about", channel=channel, wait=False)
    return Timed.of(start, result, time.perf_counter())


def shares(clicks: list[Timed], noop: list[Timed]) -> str:
    """The bot's part of the times (p50/p95) and its ratio, and the fake's own part."""

    def ms(values: list[float], q: float) -> float:
        return percentile(values, q) * 1000

    bot_click, bot_noop = [t.bot for t in clicks], [t.bot for t in noop]
    fake_click = [t.before + t.after for t in clicks]
    fake_noop = [t.before + t.after for t in noop]
    return (
        f"the bot's part (interaction written to its socket -> its answer at Discord): "
        f"click p50 {ms(bot_click, 0.5):.2f} p95 {ms(bot_click, 0.95):.2f} ms, /about p50 "
        f"{ms(bot_noop, 0.5):.2f} p95 {ms(bot_noop, 0.95):.2f} ms, p95 ratio "
        f"{percentile(bot_click, 0.95) / percentile(bot_noop, 0.95):.2f}x; the fake Discord's "
        f"own work p50 click {ms(fake_click, 0.5):.2f}, /about {ms(fake_noop, 0.5):.2f} ms"
    )


async def click_against_noop(
    games: int, samples: int, ai_tables: int, ai_delay: float, ai_wait: float, gc_counts: bool
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with LoopbackDiscord() as fake:
            fake.ack_deadline = 30.0  # measure slow answers instead of failing them
            guild = fake.add_guild("Bench")
            alice, bob = fake.add_user("alice"), fake.add_user("bob")
            fake.add_member(guild, alice)
            fake.add_member(guild, bob)
            bot = BotProcess(
                "bench",
                fake.url,
                fake.token,
                {
                    "DATABASE_PATH": f"{folder}/bench.db",
                    "AI_DELAY": str(ai_delay),
                    # /metrics (and with it the event loop's stall monitor) only when asked
                    **({"METRICS_PORT": "0"} if gc_counts else {}),
                },
            )
            await bot.start(cwd=Path(folder))
            room = Room(fake, guild, alice, bob)
            await open_many(room, games)
            # This process plays Discord: keep its own collector's pauses (its world holds
            # every message) out of the times it measures for the bot.
            gc.collect()
            gc.freeze()
            for label, background in (("idle", 0), (f"{ai_tables} AI tables moving", ai_tables)):
                if background:
                    ai = await open_ai_tables(room, background)
                    print(f"  waiting {ai_wait:.0f} s for the AI tables' timers", flush=True)
                    await asyncio.sleep(ai_wait)
                    moved = sum(m.refresh().text().count("•") for m in ai)
                rng = random.Random(11)
                clicks: list[Timed] = []
                noop: list[Timed] = []
                cpu_before = cpu_seconds(bot.pid)
                gc_before = await collector(bot) if gc_counts else None
                while len(clicks) < samples:
                    table = rng.choice(room.tables)
                    took = await click_once(room, table)
                    if took is not None:
                        clicks.append(took)
                    noop.append(await about_once(room, table[0]))
                    await asyncio.sleep(0.01)  # one at a time: no queueing behind each other
                cpu = (cpu_seconds(bot.pid) - cpu_before) / len(clicks)
                gc_after = await collector(bot) if gc_counts else None
                click_ms, noop_ms = [t.total for t in clicks], [t.total for t in noop]
                ratio = percentile(click_ms, 0.95) / percentile(noop_ms, 0.95)
                print(
                    f"{games} dice tables, {label:<20} click  ms {figures(click_ms)}\n"
                    f"{'':>16}{'':<20} /about ms {figures(noop_ms)}\n"
                    f"{'':>16}{'':<20} click p95 / no-op p95 = {ratio:.2f}x "
                    f"(n={len(clicks)}"
                    + (f"; AI tables still moving: {moved > 0}" if background else "")
                    + f"; bot CPU per click and /about: {cpu * 1000:.1f} ms)"
                    + (
                        f"\n{'':>16}{'':<20} bot's cycle collections "
                        + collections(gc_before, gc_after, len(clicks))
                        if gc_before and gc_after
                        else ""
                    )
                    + f"\n{'':>16}{'':<20} {shares(clicks, noop)}",
                    flush=True,
                )
                await fake.wait_idle(timeout=120)
            await bot.stop()
            if errors := bot.errors():
                print(f"  {len(errors)} error line(s) in the bot log, first: {errors[0]}")


async def restore_time(games: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with LoopbackDiscord() as fake:
            guild = fake.add_guild("Bench")
            alice, bob = fake.add_user("alice"), fake.add_user("bob")
            fake.add_member(guild, alice)
            fake.add_member(guild, bob)
            bot = BotProcess("restore", fake.url, fake.token, {"DATABASE_PATH": f"{folder}/r.db"})
            started = time.perf_counter()
            await bot.start(cwd=Path(folder))
            empty = time.perf_counter() - started
            room = Room(fake, guild, alice, bob)
            await open_many(room, games)
            await bot.stop()
            started = time.perf_counter()
            await bot.start(cwd=Path(folder), timeout=600)
            full = time.perf_counter() - started
            loaded = next((ln for ln in bot.lines[::-1] if "loaded and playable" in ln), "")
            seconds = re.search(r"playable in ([0-9.]+) s", loaded)
            await bot.stop()
            print(
                f"start to ready: empty database {empty:5.1f} s; {games} live games {full:5.1f} s "
                f"(every table playable {seconds[1] if seconds else '?'} s after restoring began; "
                "the rest is refreshing their messages within Discord's rate limits)",
                flush=True,
            )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--samples", type=int, default=3000)
    parser.add_argument("--ai-tables", type=int, default=4)
    parser.add_argument("--ai-delay", type=float, default=0.3)
    parser.add_argument("--restore", type=int, default=1000)
    parser.add_argument("--ai-wait", type=float, default=62, help="seconds until AI covers")
    parser.add_argument(
        "--gc",
        action="store_true",
        help="also count the bot's cycle collections (served /metrics: a little more load)",
    )
    args = parser.parse_args()
    print("loopback Discord in this process; the bot in its own (python -m bot), SQLite")
    await click_against_noop(
        args.games, args.samples, args.ai_tables, args.ai_delay, args.ai_wait, args.gc
    )
    if args.restore:
        await restore_time(args.restore)


if __name__ == "__main__":
    asyncio.run(main())
