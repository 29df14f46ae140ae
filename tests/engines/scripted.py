"""Test helpers shared by the engine tests."""

from __future__ import annotations

from bot.engines.base import Rng


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
