"""The one small protocol every game engine follows.

Engines are pure rules: synchronous, deterministic from a seed, and free of discord,
aiosqlite and PIL. The hosting core (``bot.tables``) knows games only through this module.

Shape (after OpenSpiel and pokerkit):

* ``new_game(config, n_players, seed)`` builds a state. Chance (dealing, dice) is drawn from
  the state's own :class:`Rng`, so a game replays exactly from its seed and action log.
* ``to_act(state)`` names the seats that must act now (several for simultaneous choices).
* ``legal_actions(state, seat)`` lists what a UI should offer. ``apply`` may accept more
  spellings of the same move (for example an AI's one-step ``roll:013``).
* ``apply(state, seat, action)`` verifies first, then changes ``state`` in place and returns
  public :class:`Event` records. A move against the rules raises :class:`IllegalAction`
  with a sentence a player can read, and leaves the state untouched.
* ``observe(state, seat)`` is the only way hidden information leaves an engine; ``None`` is a
  spectator. AI players decide from exactly this observation (their
  module is paired with the engine in the game's spec, not imported by the engine).
* ``revealed(state)`` is the spectator's view with every secret face up, and ``deal_of(state)``
  counts the secret deals: they serve a finished game's Show hands and replay only (the
  hosting core never offers them while a game is played).

Actions are short strings (they travel inside Discord component custom_ids, at most
100 characters together with the table id).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import MutableSequence, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field


def plural(count: int | str, word: str, many: str | None = None) -> str:
    """``count`` and ``word`` agreeing: "1 die", "2 dice", "1,000 points" ("1-3 cards").

    Transitional: engines return data and the presenters word it (``bot.words``); this goes
    once no engine words a sentence."""
    shown = f"{count:,}" if isinstance(count, int) else str(count)
    return f"{shown} {word if count in (1, '1') else (many or word + 's')}"


def ordinal(number: int) -> str:
    """A place as people write it: 1st, 2nd, 3rd, 4th, 11th, 21st (transitional, as
    :func:`plural`)."""
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


class GameError(Exception):
    """A refusal a player may read, as data: ``code`` names the catalogue message that words
    it (``bot/words/locales``) and ``args`` fill it in.

    ``GameError("qdice-error-no-score", dice="1 4 6")``. ``str(error)`` is for logs only:
    the code and its arguments. A code with a space in it is a sentence from before the
    catalogues (shown as it is; transitional).
    """

    def __init__(self, code: str, /, **args: Any) -> None:
        super().__init__(code)
        self.code = code
        self.args_ = args

    @property
    def params(self) -> dict[str, Any]:
        """The arguments the message is filled in with."""
        return self.args_

    @property
    def is_sentence(self) -> bool:
        """True for a legacy error that carries its English sentence instead of a code."""
        return " " in self.code

    def __str__(self) -> str:
        if not self.args_:
            return self.code
        return f"{self.code} {self.args_!r}"

    def __reduce__(self) -> tuple[Any, ...]:  # pickled into and out of AI worker processes
        return (_rebuild_error, (type(self), self.code, self.args_))


def _rebuild_error(cls: type[GameError], code: str, args: dict[str, Any]) -> GameError:
    return cls(code, **args)


class IllegalAction(GameError):
    """The move is well formed but the rules do not allow it now."""


class InvalidAction(GameError):
    """The move could not be understood at all (bad syntax or an unknown action)."""


class ConfigError(GameError):
    """A table option, or a combination of options, that cannot be played."""


class Rng(BaseModel):
    """A seeded random source that serialises as two integers.

    Every draw builds a fresh ``random.Random`` from ``(seed, calls)``, so the stream depends
    only on the seed and how many draws came before it, and survives a JSON round trip.
    """

    model_config = ConfigDict(validate_assignment=False)

    seed: int
    calls: int = 0

    def _next(self) -> random.Random:
        generator = random.Random(f"{self.seed}:{self.calls}")
        self.calls += 1
        return generator

    def randint(self, low: int, high: int) -> int:
        return self._next().randint(low, high)

    def random(self) -> float:
        return self._next().random()

    def choice(self, options: Sequence[Any]) -> Any:
        return self._next().choice(options)

    def shuffle(self, items: MutableSequence[Any]) -> None:
        self._next().shuffle(items)

    def dice(self, count: int, sides: int = 6) -> list[int]:
        generator = self._next()
        return [generator.randint(1, sides) for _ in range(count)]


class Event(BaseModel):
    """Something that happened, as data everyone at the table may read.

    ``kind`` is a short tag (``"roll"``, ``"bank"``, ``"bust"`` …) and ``data`` its details
    (JSON values only); ``seat`` is who did it, if anyone. The game's presenter words it
    (message ``<game>-<kind>`` in the catalogues). Events are public: an engine never puts
    hidden information in one.

    ``text`` is transitional: a sentence an engine still words itself (``{p0}``, ``{p1}`` …
    for seats), shown when the catalogue has no message for the kind.
    """

    kind: str
    seat: int | None = None
    data: dict[str, Any] = Field(default_factory=dict)
    text: str = ""

    def render(self, names: Sequence[str]) -> str:
        return self.text.format(**{f"p{i}": name for i, name in enumerate(names)})

    def entry(self) -> dict[str, Any]:
        """The event as the game log keeps it."""
        entry: dict[str, Any] = {"kind": self.kind}
        if self.seat is not None:
            entry["seat"] = self.seat
        if self.data:
            entry["data"] = self.data
        if self.text:  # transitional
            entry["text"] = self.text
        return entry


class Outcome(BaseModel):
    """How a finished game ended, seat by seat.

    ``ranks[i]`` is 0 for first place; tied seats share a rank. ``scores`` are the game's own
    points (shown on the leaderboard). ``winners`` lists the seats ranked first, empty on a
    draw.
    """

    scores: list[float]
    ranks: list[int]
    winners: list[int]
    draw: bool = False
    summary: str = ""
    unit: str = "point"
    """What ``scores`` count, singular ("point", "chip", "book"), for the standings."""

    @classmethod
    def from_scores(cls, scores: Sequence[float], summary: str = "") -> Outcome:
        """Rank seats by score, highest first, ties sharing a rank."""
        ordered = sorted(set(scores), reverse=True)
        ranks = [ordered.index(s) for s in scores]
        winners = [i for i, r in enumerate(ranks) if r == 0]
        return cls(scores=list(scores), ranks=ranks, winners=winners, summary=summary)


ConfigT = TypeVar("ConfigT", bound=BaseModel)
StateT = TypeVar("StateT", bound=BaseModel)
ObsT = TypeVar("ObsT", bound=BaseModel)


class Engine(ABC, Generic[ConfigT, StateT, ObsT]):
    """One game's rules. Subclasses set the class attributes and implement the methods."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    config_model: ClassVar[type[BaseModel]]
    state_model: ClassVar[type[BaseModel]]

    @abstractmethod
    def new_game(self, config: ConfigT, n_players: int, seed: int) -> StateT: ...

    @abstractmethod
    def to_act(self, state: StateT) -> frozenset[int]: ...

    @abstractmethod
    def legal_actions(self, state: StateT, seat: int) -> list[str]: ...

    @abstractmethod
    def apply(self, state: StateT, seat: int, action: str) -> list[Event]: ...

    @abstractmethod
    def observe(self, state: StateT, seat: int | None) -> ObsT: ...

    @abstractmethod
    def is_over(self, state: StateT) -> bool: ...

    @abstractmethod
    def outcome(self, state: StateT) -> Outcome: ...

    # After the game: nothing is secret any more -----------------------------------------

    def revealed(self, state: StateT) -> ObsT:
        """The table with nothing hidden: a spectator's observation with every hand (and
        every other secret) face up.

        For a game that is over and the replay of one: the hosting core shows it for finished
        games only, never for a game being played. Games with nothing hidden keep this
        default (the spectator's view is already everything).
        """
        return self.observe(state, None)

    def deal_of(self, state: StateT) -> int | None:
        """Which secret deal (hand or round) ``state`` is in, counting up through the game;
        None for games where nothing is ever dealt face down. "Show hands" opens the replay
        where the last deal began."""
        return None

    def deal_name(self, state: StateT) -> str:
        """The deal ``state`` is in, as the table names it ("hand 3", "round 2 of 5"): the
        heading of Show hands."""
        return f"deal {self.deal_of(state)}"

    # Conveniences shared by every engine -------------------------------------------------

    def parse_config(self, options: dict[str, Any] | None = None) -> ConfigT:
        """Validate table options into this game's config model."""
        return self.config_model.model_validate(options or {})  # type: ignore[return-value]

    def load_state(self, data: str | dict[str, Any]) -> StateT:
        if isinstance(data, str):
            return self.state_model.model_validate_json(data)  # type: ignore[return-value]
        return self.state_model.model_validate(data)  # type: ignore[return-value]

    def dump_state(self, state: StateT) -> str:
        return state.model_dump_json()

    def copy_state(self, state: StateT) -> StateT:
        """An independent copy of ``state`` (to try a move on): the state as it is saved and
        loaded, which pydantic's compiled core makes in a third of a deep copy's time. A
        state is all data that survives its JSON (restoring a game after a restart relies
        on that too)."""
        return self.load_state(self.dump_state(state))

    def check_player_count(self, n_players: int) -> None:
        if not self.min_players <= n_players <= self.max_players:
            raise ConfigError(
                "error-player-count",
                game=self.title,
                low=self.min_players,
                high=self.max_players,
                count=n_players,
            )
