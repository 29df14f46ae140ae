"""How late the event loop wakes up: its worst stall over each period, in the log.

Everything the bot does for every table runs on one event loop, so a long piece of work on
it (a big drawing, an AI that thinks in place) delays everyone's clicks. The monitor sleeps
for a short tick again and again and notes how much later than asked it woke: that overshoot
is the stall. Turned on by ``LOOP_REPORT`` (seconds between reports); the benchmarks read it.
With ``METRICS_PORT`` set it runs too, and hands every stall to /metrics (see bot.ops).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

WINDOW = 10.0
"""Seconds over which the worst stall is taken when nothing is logged (``period`` 0)."""


async def report_stalls(
    period: float,
    *,
    tick: float = 0.005,
    observe: Callable[[float], None] | None = None,
    worst_of_window: Callable[[float], None] | None = None,
    window: float | None = None,
) -> None:
    """Log the event loop's worst stall every ``period`` seconds (0: never), until cancelled.

    ``observe`` is given every tick's stall in seconds, ``worst_of_window`` the worst one of
    each ``window`` (by default the period, or :data:`WINDOW` seconds when ``period`` is 0).
    """
    loop = asyncio.get_running_loop()
    if window is None:
        window = period if period > 0 else WINDOW
    worst = 0.0
    started = loop.time()
    while True:
        before = loop.time()
        await asyncio.sleep(tick)
        stall = max(0.0, loop.time() - before - tick)
        worst = max(worst, stall)
        if observe is not None:
            observe(stall)
        if loop.time() - started >= window:
            if period > 0:
                log.info("Event loop: worst stall %.1f ms in the last %.0f s", worst * 1000, period)
            if worst_of_window is not None:
                worst_of_window(worst)
            worst, started = 0.0, loop.time()
