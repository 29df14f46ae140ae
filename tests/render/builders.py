"""Observation builders shared by the renderer tests."""

from __future__ import annotations

from typing import Any

from bot.engines.qdice.engine import Die, QDiceObservation


def dice(spec: str) -> list[Die]:
    """``"1A 5B"`` → two dice: a 1 of colour A and a 5 of colour B."""
    return [Die(value=int(token[0]), colour=token[1]) for token in spec.split()]  # type: ignore[arg-type]


def make_obs(n_players: int = 4, **overrides: Any) -> QDiceObservation:
    """A mid-turn observation for ``n_players`` seats; any field can be overridden."""
    fields: dict[str, Any] = {
        "seat": None,
        "n_players": n_players,
        "scores": [(i * 1850) % 9000 for i in range(n_players)],
        "on_board": [i % 3 != 1 for i in range(n_players)],
        "current": 1 % n_players,
        "dice": dice("1A 5B 3A 3B 3A 6B"),
        "kept": [],
        "selected": [],
        "selection_score": None,
        "turn_total": 0,
        "rolled_six": True,
        "final_round": False,
        "contingent_winner": None,
        "finished_last_turn": [False] * n_players,
        "winner": None,
        "target": 10_000,
        "entry": 1_000,
    }
    fields.update(overrides)
    return QDiceObservation(**fields)


def names(n_players: int) -> list[str]:
    return ["Alice", "Bob", "Chen", "Dana", "Evan", "Fiona", "Gus", "Hana"][:n_players]
