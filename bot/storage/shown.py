"""What each live table's message shows: a digest of its content, kept with the game.

A restart, or a process taking a shard over, compares each table's content as it would be
shown now with the digest stored here and edits only the messages that differ (a move saved
but never shown, a deadline that ran out, a new version of the bot that draws otherwise);
the others are left alone, so a restart of many quiet tables sends no edit at all.

Rows are written some time after the edit they describe, in batches (see
:class:`bot.tables.shown.ShownLog`), and a row is only ever as new as an edit that did
happen: a row missing or older than the message means one edit more after a restart, never
one fewer.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .backends import Conn
    from .db import Database

_CHUNK = 500  # ids per IN (...) list, well under SQLite's limit


class ShownPanels:
    """The SQL of shown-content digests (table ``shown_panels``)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def digests(self, game_ids: Sequence[int]) -> dict[int, str]:
        """The stored digest of each of these games that has one."""
        found: dict[int, str] = {}
        ids = list(game_ids)
        async with self._db._read() as conn:
            for start in range(0, len(ids), _CHUNK):
                chunk = ids[start : start + _CHUNK]
                marks = ", ".join("?" * len(chunk))
                rows = await conn.fetchall(
                    f"SELECT game_id, digest FROM shown_panels WHERE game_id IN ({marks})",
                    chunk,
                )
                found.update((int(row["game_id"]), str(row["digest"])) for row in rows)
        return found

    async def save(self, digests: Mapping[int, str | None]) -> None:
        """Store these digests in one transaction (None: forget the game's, it ended)."""
        now = time.time()
        shown = [(game_id, digest, now) for game_id, digest in digests.items() if digest]
        gone = [(game_id,) for game_id, digest in digests.items() if not digest]

        async def body(conn: Conn) -> None:
            if shown:
                await conn.executemany(
                    "INSERT INTO shown_panels (game_id, digest, shown_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (game_id) DO UPDATE"
                    " SET digest = excluded.digest, shown_at = excluded.shown_at",
                    shown,
                )
            if gone:
                await conn.executemany("DELETE FROM shown_panels WHERE game_id = ?", gone)

        await self._db._transact(body)
