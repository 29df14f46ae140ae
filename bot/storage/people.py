"""A person's own settings per server (turn pings)."""

from __future__ import annotations

import time
from collections.abc import Sequence

from .base import Store


class PersonStore(Store):
    """Per-person settings."""

    async def turn_pings(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, bool]:
        """Whether each person wants a message when their turn starts (yes unless they said
        no on this server)."""
        wanted = {user_id: True for user_id in user_ids}
        if not wanted:
            return wanted
        marks = ", ".join("?" * len(wanted))
        async with self._read() as conn:
            rows = await conn.fetchall(
                "SELECT user_id, turn_pings FROM person_settings"
                f" WHERE guild_id = ? AND user_id IN ({marks})",
                (guild_id, *wanted),
            )
        wanted.update({int(r["user_id"]): bool(r["turn_pings"]) for r in rows})
        return wanted

    async def set_turn_pings(self, guild_id: int, user_id: int, on: bool) -> None:
        """Remember a person's choice about turn messages on a server."""
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO person_settings (guild_id, user_id, turn_pings, updated_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
                " turn_pings = excluded.turn_pings, updated_at = excluded.updated_at",
                (guild_id, user_id, int(on), time.time()),
            )
