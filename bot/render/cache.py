"""One byte budget for every picture this process remembers between moves.

Redrawing a table after a move reuses what the last move left behind: the parts of the
picture that did not change (:mod:`bot.render.parts`), the table's last picture as
compressed bands and the colours chosen for it (:mod:`bot.render.frames`). All of it lives in
one :class:`PictureCache`, least recently used forgotten first, so the process holds at most
:attr:`PictureCache.budget` bytes of it (``PICTURE_CACHE_MB``) however many tables it hosts:
a table whose pictures were forgotten is drawn and encoded in full on its next move, as it
was on its first, and looks the same.

What an entry costs is counted as the bytes of its pixels or compressed data (the small
Python objects around them aside); a table's colours count the mapping table Pillow keeps
with them once used (:data:`PALETTE_COST`).
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Hashable
from typing import Any

MIB = 1024 * 1024

DEFAULT_BUDGET = 16 * MIB
"""Bytes of pictures kept by default (``PICTURE_CACHE_MB``): the last pictures of about 400
tables with the parts they are drawn from. Each table's last picture is 25-60 KB; the colours
of a game's tables 0.5 MB (shared by every table they cover)."""

PALETTE_COST = 64 * 64 * 64 * 2 + 1024
"""Bytes a palette costs once a picture was mapped onto it: Pillow keeps a 64x64x64 table of
16-bit colour indices with it (freed with the palette)."""


class PictureCache:
    """Values by key within a byte budget, least recently used forgotten first (thread-safe).

    Keys are tuples whose first item names the kind of entry (``"part"``, ``"frame"``,
    ``"palette"``, ``"patch"``), so :meth:`usage` can say what the bytes are spent on.
    """

    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        self.budget = budget
        self.size = 0
        self._entries: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        """The value kept for ``key`` (now the most recently used), or None."""
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            self._entries.move_to_end(key)
            return found[0]

    def put(self, key: Hashable, value: Any, cost: int) -> None:
        """Keep ``value`` (replacing what ``key`` held), forgetting the least recently used
        entries while over budget. A value dearer than the whole budget is not kept."""
        with self._lock:
            gone = self._entries.pop(key, None)
            if gone is not None:
                self.size -= gone[1]
            if cost > self.budget:
                return
            self._entries[key] = (value, cost)
            self.size += cost
            self._shrink()

    def pop(self, key: Hashable) -> Any:
        with self._lock:
            gone = self._entries.pop(key, None)
            if gone is None:
                return None
            self.size -= gone[1]
            return gone[0]

    def resize(self, budget: int) -> None:
        """A new budget, effective at once."""
        with self._lock:
            self.budget = budget
            self._shrink()

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.size = 0

    def _shrink(self) -> None:
        while self.size > self.budget and self._entries:
            _key, (_value, cost) = self._entries.popitem(last=False)
            self.size -= cost

    def count(self, kind: str) -> int:
        """How many entries of a kind are kept."""
        with self._lock:
            return sum(1 for key in self._entries if _kind(key) == kind)

    def usage(self) -> dict[str, tuple[int, int]]:
        """Per kind of entry: how many are kept and their bytes."""
        counts: Counter[str] = Counter()
        sizes: Counter[str] = Counter()
        with self._lock:
            for key, (_value, cost) in self._entries.items():
                counts[_kind(key)] += 1
                sizes[_kind(key)] += cost
        return {kind: (counts[kind], sizes[kind]) for kind in counts}

    def __len__(self) -> int:
        return len(self._entries)


def _kind(key: Hashable) -> str:
    return str(key[0]) if isinstance(key, tuple) and key else "other"


PICTURES = PictureCache()
"""The process's one picture cache (its budget set from ``PICTURE_CACHE_MB`` at start)."""
