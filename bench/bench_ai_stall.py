"""Do busy AI tables slow everyone else? The event loop's worst stall and ``/about``'s answer
time with AI tables playing, next to the same bot idle.

Run: ``.venv/bin/python bench/bench_ai_stall.py [--samples 200] [--wait 62]``. Prints figures;
never fails on time.

The bot runs as a real subprocess (``python -m bot``, SQLite, ``LOOP_REPORT=1`` so it logs
its event loop's worst stall every second) against a loopback Discord in this process. First
it is idle; then three 8-seat Quantum Fingers tables (one person and seven AI players) and
three Flume tables (one person and three hard AI players) are opened with a one-minute turn
timer, and once the person at each has run out of time (an AI covers for them) every seat at
those six tables is an AI, playing at the bot's usual pace (``--ai-delay 0``: flat out). In each phase ``/about`` is
timed one at a time, and the loop's worst stall is read from the bot's log.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import percentile
from bot.sandbox.loopback import Channel, Guild, LoopbackDiscord, User
from tests.support.processes import BotProcess

STALL = re.compile(r"worst stall ([0-9.]+) ms")


async def about_times(
    fake: LoopbackDiscord, user: User, room: Channel, samples: int
) -> list[float]:
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        await fake.slash(user, "about", channel=room, wait=False)
        times.append(time.perf_counter() - start)
        await asyncio.sleep(0.05)
    return times


def stalls(bot: BotProcess, since: int) -> list[float]:
    return [float(m[1]) for line in bot.lines[since:] if (m := STALL.search(line))]


async def open_ai_table(
    fake: LoopbackDiscord, guild: Guild, host: User, game: str, label: str, ai: int
) -> None:
    room = fake.add_channel(guild, f"{game}-{len(guild.channels)}")
    lobby = (
        await fake.slash(host, f"{game} start", channel=room, options={"turn_minutes": 1})
    ).message
    assert lobby is not None and not lobby.ephemeral, lobby and lobby.text()
    for _ in range(ai):
        await fake.click(host, lobby, label=label)
    await fake.click(host, lobby, label="Start")


def report(name: str, about: list[float], worst: list[float]) -> None:
    print(
        f"{name:<34} /about ms p50 {percentile(about, 0.5) * 1000:6.1f}  "
        f"p95 {percentile(about, 0.95) * 1000:6.1f}  max {max(about) * 1000:6.1f}   "
        f"event loop worst stall {max(worst, default=0):6.1f} ms "
        f"(median of 1 s windows {percentile(worst, 0.5) if worst else 0:5.1f})",
        flush=True,
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--wait", type=float, default=62, help="seconds until autopilot")
    parser.add_argument("--workers", default="", help="AI_WORKERS for the bot (default: cores)")
    parser.add_argument(
        "--ai-delay", default="1.2", help="AI_DELAY: the bot's pause before each AI move"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        async with LoopbackDiscord() as fake:
            fake.ack_deadline = 30.0
            guild = fake.add_guild("Bench")
            alice = fake.add_user("alice")
            fake.add_member(guild, alice)
            room = fake.add_channel(guild, "lounge")
            env = {
                "DATABASE_PATH": f"{folder}/bench.db",
                "LOOP_REPORT": "1",
                "AI_DELAY": args.ai_delay,
                "AI_WORKERS": args.workers,
            }
            bot = BotProcess("stall", fake.url, fake.token, env)
            await bot.start(cwd=Path(folder))
            await asyncio.sleep(2)
            mark = len(bot.lines)
            idle = await about_times(fake, alice, room, args.samples)
            report("idle bot", idle, stalls(bot, mark))

            for _ in range(3):
                await open_ai_table(fake, guild, alice, "fingers", "Add AI", 7)
                await open_ai_table(fake, guild, alice, "flume", "Add hard AI", 3)
            print(f"6 AI tables open; waiting {args.wait:.0f} s for the person's timer", flush=True)
            await asyncio.sleep(args.wait)
            moves_before = sum("ran out of time" in m.text() for m in fake.world.messages.values())
            mark = len(bot.lines)
            busy = await about_times(fake, alice, room, args.samples)
            report("3 Fingers (8 AI) + 3 Flume (hard)", busy, stalls(bot, mark))
            ratio = percentile(busy, 0.95) / percentile(idle, 0.95)
            print(
                f"/about p95 busy / idle = {ratio:.2f}x   "
                f"(seats handed to an AI after the timer: {moves_before})",
                flush=True,
            )
            await bot.stop()
            errors = bot.errors()
            if errors:
                print(f"  {len(errors)} error line(s) in the bot log, first: {errors[0]}")


if __name__ == "__main__":
    asyncio.run(main())
