"""Test helpers shared by the engine tests."""

from __future__ import annotations

from bot.engines.base import Event, Rng
from bot.engines.qdice.engine import Die, QDiceConfig, QDiceEngine, QDiceState

ENGINE = QDiceEngine()


class ScriptedRng(Rng):
    """An Rng whose dice come from a script (then from the seed as usual)."""

    script: list[list[int]] = []

    def dice(self, count: int, sides: int = 6) -> list[int]:
        if self.script:
            values = self.script.pop(0)
            assert len(values) == count, f"script gave {values} for {count} dice"
            self.calls += 1
            return values
        return super().dice(count, sides)


def table(spec: str) -> list[Die]:
    """``"1A 5B"`` -> dice on the table."""
    return [Die(value=int(w[0]), colour=w[1]) for w in spec.split()]  # type: ignore[arg-type]


def make_state(
    roll: str,
    *,
    n_players: int = 2,
    script: list[list[int]] | None = None,
    scores: list[int] | None = None,
    on_board: list[bool] | None = None,
    kept: str = "",
    turn_total: int = 0,
    current: int = 0,
    target: int = 10_000,
    seed: int = 1,
) -> QDiceState:
    """A game with a chosen roll on the table and scripted rolls to come."""
    state = ENGINE.new_game(QDiceConfig(target=target), n_players, seed=seed)
    state.rng = ScriptedRng(seed=seed, script=[list(s) for s in script or []])
    state.dice = table(roll)
    state.kept = table(kept) if kept else []
    state.turn_total = turn_total
    state.current = current
    if scores is not None:
        state.scores = scores
    if on_board is not None:
        state.on_board = on_board
    return state


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]
