"""Imported once by the AI workers' fork server, before it forks any worker.

It lowers the server's CPU priority (the bot is starting meanwhile), imports every game's AI
and builds what they precompute (:attr:`~bot.tables.protocols.GameAI.warm_up`), then moves
it all out of reach of the garbage collector: every worker is forked from this process with
these tables already built, and shares their memory pages with it and with the other
workers instead of holding a copy of its own (see :mod:`bot.tables.thinking`).
"""

from __future__ import annotations

import contextlib
import gc

from bot.tables.thinking import lower_priority

lower_priority()

from bot.games import all_games  # noqa: E402 - after lowering the priority

for _spec in all_games().values():
    if _spec.ai is not None and _spec.ai.warm_up is not None:
        with contextlib.suppress(Exception):  # a table not built here is built when needed
            _spec.ai.warm_up()

gc.collect()
gc.freeze()  # the collector never writes to these objects: their pages stay shared
