"""The games the bot hosts: each pairs an engine (rules) with a UI (how it looks)."""

from __future__ import annotations

from bot.tables.protocols import GameSpec


def all_games() -> dict[str, GameSpec]:
    """Every hosted game by command name. Imported lazily so start-up stays cheap."""
    from bot.games.fingers import SPEC as FINGERS
    from bot.games.flume import SPEC as FLUME
    from bot.games.flux import SPEC as FLUX
    from bot.games.qdice import SPEC as QDICE
    from bot.games.qpoker import SPEC as QPOKER

    return {spec.name: spec for spec in (QDICE, QPOKER, FLUME, FLUX, FINGERS)}
