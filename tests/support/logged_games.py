"""Finished games made for tests and benchmarks: played on by a chooser, each move logged as
the bot logs it, and stored as the bot stores a game (snapshot, action log, status)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from bot.storage.db import Database
from bot.storage.models import ActionRecord


def play_logged(
    engine: Any,
    state: Any,
    choose: Callable[[Any, int], str],
    user_of: Callable[[int], int | None],
    *,
    at: float = 0.0,
    moves: int | None = None,
) -> list[ActionRecord]:
    """Play ``state`` on (to its end, or ``moves`` moves): the lowest seat to act plays
    ``choose(state, seat)``, logged as ``user_of(seat)``'s (None: an AI's)."""
    actions: list[ActionRecord] = []
    while not engine.is_over(state) and (moves is None or len(actions) < moves):
        seat = min(engine.to_act(state))
        action = choose(state, seat)
        engine.apply(state, seat, action)
        actions.append(
            ActionRecord(
                version=len(actions) + 1, seat=seat, action=action, user_id=user_of(seat), at=at
            )
        )
    return actions


async def save_played(
    db: Database,
    game_id: int,
    engine: Any,
    state: Any,
    actions: list[ActionRecord],
    *,
    finished: bool = True,
) -> None:
    """Store the game as the bot does after its last move."""
    snapshot = {"state": json.loads(engine.dump_state(state)), "log": [], "history": []}
    await db.save_progress(
        game_id,
        version=len(actions),
        state_json=json.dumps(snapshot),
        actions=actions,
        status="finished" if finished else None,
    )
