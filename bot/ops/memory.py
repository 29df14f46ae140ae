"""What the bot process holds in memory, and keeping collector pauses out of clicks.

Python's cycle collector walks every tracked object of the generations it collects. After
start-up the bot holds tens of thousands of objects that live as long as the process
(discord.py's caches, the command tree, fonts, every restored table); a full collection
walks them all again, 50-100 ms in which no click is answered (measured through the loopback
with ``bench/bench_tables.py``). :func:`settle` moves everything alive once the bot is ready
into the permanent generation (:func:`gc.freeze`), so later collections walk only what was
made since.

Pictures are drawn in worker threads, a few MB of pixels each, freed once encoded. The C
allocator (glibc) gives each thread that allocates at the same time as another an arena of
its own and keeps what is freed in them for later: after a burst of drawing (a thousand
tables opened, a restart) the process held 30-50 MB it no longer used
(``bench/bench_footprint.py``). :func:`tune_allocator` keeps the arenas to two and
:func:`trim` hands free memory back to the system; :func:`keep_trimmed` does so every
:data:`TRIM_EVERY` seconds.
Elsewhere (not glibc) they do nothing.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import logging
from functools import cache

log = logging.getLogger(__name__)

M_ARENA_MAX = -8  # mallopt(3)
ARENAS = 2
"""Allocator arenas at most: threads beyond share them (drawing waits little on that)."""
TRIM_EVERY = 2.0
"""Seconds between two hand-backs of free memory to the system (0.03 ms when there is
nothing to hand back, about 2 ms after a burst of a thousand new tables)."""


@cache
def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        libc.malloc_trim  # noqa: B018 - glibc only
        libc.mallopt  # noqa: B018
    except (OSError, AttributeError, TypeError):
        return None
    return libc


def tune_allocator() -> bool:
    """Keep the C allocator to :data:`ARENAS` arenas (call before threads start); False
    where that cannot be done."""
    libc = _libc()
    return libc is not None and bool(libc.mallopt(M_ARENA_MAX, ARENAS))


def trim() -> None:
    """Hand the memory the C allocator holds free back to the system (a few ms)."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)


def settle() -> None:
    """Collect once, keep what is alive out of every later collection, and hand free memory
    back (call when the bot is ready and its tables are back)."""
    gc.collect()
    gc.freeze()
    trim()


async def keep_trimmed(every: float = TRIM_EVERY) -> None:
    """Hand free memory back every ``every`` seconds, off the event loop."""
    if _libc() is None:
        return
    while True:
        await asyncio.sleep(every)
        await asyncio.to_thread(trim)
