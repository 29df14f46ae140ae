"""How late the event loop wakes up: its worst stall over each period, in the log.

Everything the bot does for every table runs on one event loop, so a long piece of work on
it (a big drawing, an AI that thinks in place) delays everyone's clicks. The monitor sleeps
for a short tick again and again and notes how much later than asked it woke: that overshoot
is the stall. Turned on by ``LOOP_REPORT`` (seconds between reports); the benchmarks read it.
"""

from __future__ import annotations

import asyncio
import logging

log = logging.getLogger(__name__)


async def report_stalls(period: float, *, tick: float = 0.005) -> None:
    """Log the event loop's worst stall every ``period`` seconds, until cancelled."""
    loop = asyncio.get_running_loop()
    worst = 0.0
    started = loop.time()
    while True:
        before = loop.time()
        await asyncio.sleep(tick)
        worst = max(worst, loop.time() - before - tick)
        if loop.time() - started >= period:
            log.info("Event loop: worst stall %.1f ms in the last %.0f s", worst * 1000, period)
            worst, started = 0.0, loop.time()
