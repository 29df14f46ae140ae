"""A tiny game for testing the hosting core on its own: add 1 or 2 in turn; first to 10 wins."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Sequence

from PIL import Image
from pydantic import BaseModel, Field

from bot.engines.base import Engine, Event, IllegalAction, Outcome, Rng
from bot.tables.protocols import GameAI, GameSpec
from bot.tables.views import Control, Panel
from bot.words import Words
from bot.words.events import Entry, GamePresenter


class ToyConfig(BaseModel):
    goal: int = Field(default=10, ge=2, le=100)


class ToyState(BaseModel):
    goal: int
    totals: list[int]
    current: int = 0
    rng: Rng


class ToyObs(BaseModel):
    seat: int | None
    totals: list[int]
    current: int | None
    goal: int


class ToyEngine(Engine[ToyConfig, ToyState, ToyObs]):
    name = "toy"
    title = "Toy race"
    min_players = 2
    max_players = 4
    config_model = ToyConfig
    state_model = ToyState

    def new_game(self, config: ToyConfig, n_players: int, seed: int) -> ToyState:
        self.check_player_count(n_players)
        return ToyState(goal=config.goal, totals=[0] * n_players, rng=Rng(seed=seed))

    def to_act(self, state: ToyState) -> frozenset[int]:
        return frozenset() if self.is_over(state) else frozenset({state.current})

    def legal_actions(self, state: ToyState, seat: int) -> list[str]:
        return ["add1", "add2"] if seat in self.to_act(state) else []

    def apply(self, state: ToyState, seat: int, action: str) -> list[Event]:
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(f"{action!r} is not a move you can make now.")
        state.totals[seat] += int(action[-1])
        state.current = (seat + 1) % len(state.totals)
        return [Event(kind="add", seat=seat, data={"value": int(action[-1])})]

    def observe(self, state: ToyState, seat: int | None) -> ToyObs:
        current = None if self.is_over(state) else state.current
        return ToyObs(seat=seat, totals=list(state.totals), current=current, goal=state.goal)

    def is_over(self, state: ToyState) -> bool:
        return max(state.totals) >= state.goal

    def outcome(self, state: ToyState) -> Outcome:
        return Outcome.from_scores(state.totals)


class ToyUI(GamePresenter):
    """The toy game's looks. A test game has no catalogue: its one event is worded here."""

    game = "toy"

    def event_line(self, entry: Entry, names: Sequence[str], words: Words | None = None) -> str:
        if isinstance(entry, str):
            return entry
        if isinstance(entry, Event):
            entry = entry.entry()
        if entry["kind"] != "add":
            return super().event_line(entry, names, words)
        return f"{names[entry['seat']]} added {entry['data']['value']}."

    def table_image(self, observation: ToyObs, names: list[str], log: list[str]) -> Image.Image:
        shade = min(255, 10 * sum(observation.totals))
        return Image.new("RGB", (32, 16), (shade, 40, 60))

    def turn_text(self, observation: ToyObs, names: list[str]) -> str:
        return "" if observation.current is None else f"{names[observation.current]} to play"

    def public_controls(self, observation: ToyObs, legal: list[str]) -> list[Control]:
        return [Control(a, a) for a in legal]

    def private_panel(self, observation: ToyObs, legal: list[str], names: list[str]) -> Panel:
        return Panel(title="You", description=f"total {observation.totals[observation.seat or 0]}")

    def options_text(self, config: ToyConfig) -> str:
        return f"goal {config.goal}"


def toy_ai(observation: ToyObs, level: str, rng: random.Random, deadline: float | None) -> str:
    """Adds 2; "easy" adds 1 (a worker process runs it)."""
    return "add1" if level == "easy" else "add2"


TOY = GameSpec(engine=ToyEngine(), ui=ToyUI(), emoji="🧸", blurb="A toy", ai=GameAI(decide=toy_ai))


def pid_ai(observation: ToyObs, level: str, rng: random.Random, deadline: float | None) -> str:
    """Says which process decided (for the tests of where decisions run)."""
    return f"pid:{os.getpid()}:{level}:{deadline is not None}"


def broken_ai(observation: ToyObs, level: str, rng: random.Random, deadline: float | None) -> str:
    raise RuntimeError("this AI always fails")


def slow_ai(observation: ToyObs, level: str, rng: random.Random, deadline: float | None) -> str:
    """Thinks for 1.5 s whatever its budget, then adds 2."""
    time.sleep(1.5)
    return "add2"


_WARM = {"done": False}


def slow_warm_up() -> None:
    """Builds nothing, slowly (the time an AI's tables take to build)."""
    time.sleep(1.5)
    _WARM["done"] = True


def warm_ai(observation: ToyObs, level: str, rng: random.Random, deadline: float | None) -> str:
    """Says whether its process was warm and how much of its budget was left to think."""
    left = (deadline or time.monotonic()) - time.monotonic()
    return f"{_WARM['done']}:{left:.2f}"


def qdice_tables_built() -> list[tuple[int, bool]]:
    """The Quantum dice AI tables built in this process (entry, on the board)."""
    from bot.engines.qdice import ai as qdice_ai

    return sorted(qdice_ai._BUILT)
