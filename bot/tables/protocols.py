"""The two seams of the hosting core: a game's presentation, and the place it is shown."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from PIL import Image

from bot.engines.analysis import Analysis
from bot.engines.base import Engine, GameError
from bot.tables.views import Control, Field, ModalSpec, Panel

if TYPE_CHECKING:
    from bot.tables.table import Table


class GameUI(Protocol):
    """How one game looks: pure functions of an observation (no Discord, no I/O)."""

    def table_image(self, observation: Any, names: list[str], log: list[str]) -> Image.Image:
        """The public table picture (from a spectator's observation), not yet encoded;
        ``log`` is the recent events, worded (:meth:`log_lines`)."""

    def event_line(self, entry: Any, names: Sequence[str]) -> str:
        """An event (or an entry of the table's log) as a sentence."""

    def log_lines(self, log: Sequence[Any], names: Sequence[str]) -> list[str]:
        """The table's recent log, worded."""

    def turn_text(self, observation: Any, names: list[str]) -> str:
        """A line or two under the title: whose turn it is and what they are deciding."""

    def public_controls(self, observation: Any, legal: list[str]) -> list[Control]:
        """Buttons on the public table for the seat to act (empty for hidden-hand games)."""

    def private_panel(self, observation: Any, legal: list[str], names: list[str]) -> Panel:
        """A seat's own view, sent only to that player, with the moves open to them."""

    def options_text(self, config: Any) -> str:
        """The table options in a short sentence for the lobby."""


class PictureUI(Protocol):
    """Optional extra of a :class:`GameUI` whose table picture leaves out part of what the
    table shows elsewhere (in its buttons and text)."""

    def picture_observation(self, observation: Any) -> Any:
        """The observation with only what the picture shows: moves that change nothing else
        (a die picked, shown by its button) leave the picture, and its upload, as it was."""


class TextPromptUI(Protocol):
    """Optional extra of a :class:`GameUI` whose controls carry ``?`` actions (see views)."""

    def modal(self, observation: Any, action: str) -> ModalSpec | None:
        """The text prompt for ``action`` (which starts with ``?``), or None to refuse it."""


class ForcedMoveUI(Protocol):
    """Optional extra of a :class:`GameUI` whose players sometimes have one move only and
    nothing to decide (Flux's lone "Play on"): the table makes it for them after a short
    pause people can see. Derived from the saved state alone, so it survives a restart."""

    def forced_move(self, observation: Any, legal: list[str]) -> str | None:
        """The move to make for the observed seat, whose legal moves are ``legal``; None
        when the player has something to decide."""


class RevealUI(Protocol):
    """Optional extra of a :class:`GameUI` for games with secrets: once a game is over, what
    was hidden in words (for its replay, beside the picture)."""

    def revealed_fields(self, observation: Any, names: list[str]) -> list[Field]:
        """Every seat's secrets in an engine's revealed observation (see ``Engine.revealed``)."""


class CoachUI(Protocol):
    """Optional extra of a :class:`GameUI` whose AI has ``analyse``: an analysis in words."""

    def hint_text(self, observation: Any, analysis: Analysis, names: list[str]) -> str:
        """The suggested move and why, in a sentence or two, then the best moves compared
        (a few short lines)."""


class SecretMoveUI(Protocol):
    """Optional extra of a :class:`CoachUI` whose players sometimes choose in secret (the
    table only says that they chose): the choice in words, for that person's review."""

    def secret_move_text(self, observation: Any, move: str, names: list[str]) -> str | None:
        """``move`` (one-step form) in words where the table kept it secret, else None."""


class FinalFieldsUI(Protocol):
    """Optional extra of a :class:`GameUI`: more on the finished table than the standings."""

    def final_fields(self, observation: Any, names: list[str]) -> list[Field]:
        """Fields shown under the final standings (for example how the scores were made)."""


LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
"""AI levels, gentlest first. "normal" also covers for a person who ran out of time."""


@dataclass(frozen=True)
class GameAI:
    """A game's AI players, paired with its engine in the game's spec.

    ``decide(observation, level, rng, deadline)`` picks a move for the observed seat from
    that observation alone; ``deadline`` is a ``time.monotonic()`` instant by which a
    searching level returns its best move so far. Both functions are module-level so they
    can run in worker processes.
    """

    decide: Callable[[Any, str, random.Random, float | None], str]
    warm_up: Callable[[], None] | None = None
    """Builds what decisions precompute (tables of odds), once per process."""
    analyse: Callable[[Any, random.Random, float | None], Analysis] | None = None
    """``analyse(observation, rng, deadline)``: the hard level's decision with what it
    computed (:mod:`bot.engines.analysis`); its move is the one ``decide`` plays at "hard"
    from the same observation and random source. Hints are built from it (None: no hints)."""


@dataclass(frozen=True)
class GameSpec:
    engine: Engine[Any, Any, Any]
    ui: GameUI
    emoji: str = "🎲"
    blurb: str = ""
    ai: GameAI | None = None
    """Its AI players (None: AI seats play the first legal move, for test games)."""

    @property
    def name(self) -> str:
        return self.engine.name

    @property
    def title(self) -> str:
        return self.engine.title


class Presenter(Protocol):
    """Where tables appear. The Discord layer implements it; tests may use a fake."""

    async def show(self, table: Table, panel: Panel) -> int | None:
        """Replace the table's public message with ``panel`` (edit in place).

        Returns the id of a new message if the old one was gone and the table was reposted.
        """

    async def announce(self, table: Table, text: str, mention: int | None = None) -> None:
        """Post a short public message in the table's channel, optionally pinging a user."""

    async def ping(self, table: Table, user_id: int, text: str) -> int | None:
        """Post ``text`` mentioning one person (they are notified); the message's id."""

    async def unping(self, table: Table, message_id: int) -> None:
        """Take a message :meth:`ping` posted away again."""

    def private_changed(self, table: Table) -> None:
        """The table moved on: bring the private views people have open up to date (soon,
        in the background)."""


class NotSeated(GameError):
    """The person is not playing at this table."""


class NotYourTurn(GameError):
    """The person is seated but it is not their move."""


class NotAllowed(GameError):
    """Only the host (or a server manager) may do this."""


class StaleAction(GameError):
    """A click on controls from an earlier moment of the game."""


class TableNotFound(GameError):
    """No such table, or it has ended."""


class TableMovedOn(StaleAction):
    """The stored table is newer than ours (another process saved it); it was reloaded."""


class Shards(Protocol):
    """Which Discord shards this process runs; a table belongs to its server's shard."""

    @property
    def shard_ids(self) -> Sequence[int]: ...

    @property
    def shard_count(self) -> int: ...

    def owns(self, guild_id: int | None) -> bool: ...
