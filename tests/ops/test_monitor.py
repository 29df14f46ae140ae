"""The event-loop monitor reports a stall someone caused by blocking the loop."""

from __future__ import annotations

import asyncio
import logging
import re
import time

import pytest

from bot.ops.monitor import report_stalls


async def test_a_blocked_loop_shows_up_as_a_stall(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="bot.ops.monitor"):
        monitor = asyncio.create_task(report_stalls(0.3))
        await asyncio.sleep(0.05)
        time.sleep(0.25)  # noqa: ASYNC251 - work done on the loop itself, on purpose
        await asyncio.sleep(0.4)
        monitor.cancel()
    worst = [float(m) for m in re.findall(r"worst stall ([0-9.]+) ms", caplog.text)]
    assert worst and max(worst) >= 200  # at least the 250 ms it was held, less timer slack


async def test_stalls_reach_the_metrics_without_a_log(caplog: pytest.LogCaptureFixture) -> None:
    """With metrics on and LOOP_REPORT 0 the monitor runs, logging nothing."""
    stalls: list[float] = []
    windows: list[float] = []
    with caplog.at_level(logging.INFO, logger="bot.ops.monitor"):
        monitor = asyncio.create_task(
            report_stalls(0, observe=stalls.append, worst_of_window=windows.append, window=0.3)
        )
        await asyncio.sleep(0.05)
        time.sleep(0.25)  # noqa: ASYNC251 - work done on the loop itself, on purpose
        await asyncio.sleep(0.4)
        monitor.cancel()
    assert "worst stall" not in caplog.text
    assert len(stalls) > 10 and max(stalls) >= 0.2
    assert windows and max(windows) >= 0.2
