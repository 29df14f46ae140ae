"""Keeping the garbage collector's pauses out of clicks.

Python's cycle collector walks every tracked object of the generations it collects. After
start-up the bot holds tens of thousands of objects that live as long as the process
(discord.py's caches, the command tree, fonts, every restored table); a full collection
walks them all again, 50-100 ms in which no click is answered (measured through the loopback
with ``bench/bench_tables.py``). :func:`settle` moves everything alive once the bot is ready
into the permanent generation (:func:`gc.freeze`), so later collections walk only what was
made since.
"""

from __future__ import annotations

import gc


def settle() -> None:
    """Collect once, then keep what is alive out of every later collection (call when the
    bot is ready and its tables are back)."""
    gc.collect()
    gc.freeze()
