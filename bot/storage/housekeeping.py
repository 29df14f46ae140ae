"""Housekeeping: a finished game's moves are kept for replays for ``REPLAY_DAYS``, then
dropped; its results, ratings and /history line stay for good.

Without it the action log and snapshots of every game ever played would grow the database
without end. One process does it (the one that syncs commands, see
:attr:`bot.client.QuantumTableBot.syncs_commands`); pruning is idempotent, so a second one
doing it as well would only repeat work.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Protocol

log = logging.getLogger(__name__)

EVERY = 6 * 3600.0
"""Seconds between two prunes: old games only ever become older, a few hours late is fine."""


class Prunable(Protocol):
    async def prune(self, *, older_than_days: float = 30.0, now: float | None = None) -> int: ...


async def keep_replays(
    db: Prunable, *, days: float, every: float = EVERY, also: Sequence[Prunable] = ()
) -> None:
    """Prune games that ended more than ``days`` ago now and every ``every`` seconds, until
    cancelled. ``days`` 0 keeps every game's moves forever (returns at once). A failed prune
    (the database briefly away) is logged and tried again next time. ``also``: what else goes
    with the moves (reviews), pruned after them alike."""
    if days <= 0:
        return
    while True:
        try:
            dropped = await db.prune(older_than_days=days)
            for more in also:
                await more.prune(older_than_days=days)
        except Exception:
            log.exception("Pruning old games' moves failed; trying again in %.0f s", every)
        else:
            if dropped:
                log.info(
                    "Dropped the moves of %d game(s) that ended over %g days ago", dropped, days
                )
        await asyncio.sleep(every)
