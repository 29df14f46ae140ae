"""What a table shows, as plain data. The Discord layer turns these into messages.

Nothing here knows about discord.py: a :class:`Control` is a button or a select menu by
label and action string, and the cog decides the custom_id (which carries the table id and
version so that buttons keep working after a restart).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Literal

Style = Literal["primary", "secondary", "success", "danger"]

# Core verbs start with "!" so they can never clash with a game's action strings.
JOIN, LEAVE, START, CANCEL, HAND = "!join", "!leave", "!start", "!cancel", "!hand"
ADD_AI, REMOVE_AI = "!addai", "!delai"
SURE, STAY = "!sure", "!stay"  # "!sure:!leave" confirms leaving a running game; STAY backs out
KICK = "!kick"  # "!sure:!kick:<user id>" confirms removing that person
REJOIN = "!rejoin"  # a person takes their seat back from the AI covering it
REMATCH = "!rematch"  # on a finished table: a new lobby with the same game, options and seats
REJOIN_LABEL = "Take my seat back"
HINT = "!hint"  # in a seat's private view, with the table option hints on (bot.tables.coaching)
HINT_LABEL = "Hint"

# An action starting with "?" (a button's action or a select option's value) first asks the
# player for a line of text in a modal; the move is then the action without the "?", a colon
# and the text (button "?new:2" -> modal -> move "new:2:juniper"). The game's UI describes the
# modal with ``modal(observation, action) -> ModalSpec | None``.
ASK_TEXT = "?"


@dataclass(frozen=True)
class Option:
    label: str
    value: str
    description: str | None = None
    emoji: str | None = None
    default: bool = False


@dataclass(frozen=True)
class Control:
    """A button (no ``options``) or a select menu whose chosen value is the action."""

    action: str
    label: str
    style: Style = "secondary"
    row: int | None = None
    disabled: bool = False
    emoji: str | None = None
    options: tuple[Option, ...] = ()
    placeholder: str | None = None
    custom_id: str | None = None
    """Set for a control handled outside the table core, under this custom_id instead
    (Show hands and Replay on a finished table)."""

    @property
    def is_select(self) -> bool:
        return bool(self.options)


@dataclass(frozen=True)
class ModalSpec:
    """A one-line text prompt (a Discord modal) shown before a ``?`` action is played."""

    title: str  # at most 45 characters
    label: str  # at most 45 characters
    max_length: int = 100
    min_length: int = 1
    placeholder: str | None = None


@dataclass(frozen=True)
class Field:
    name: str
    value: str
    inline: bool = True


@dataclass
class Panel:
    """One message's worth of content: an embed with an optional PNG and controls."""

    title: str
    description: str = ""
    fields: list[Field] = field(default_factory=list)
    colour: int = 0x5865F2
    image_png: bytes | None = None
    image_name: str = "table.png"
    footer: str | None = None
    content: str | None = None
    controls: list[Control] = field(default_factory=list)
    version: int = 0  # the table version this panel shows; its controls carry it
    picture: str | None = None
    """What the picture shows: a digest of what it is drawn from and how (set by the table
    core, so that what a message shows can be compared without drawing the picture)."""

    def digest(self) -> str:
        """A digest of everything the message shows (the picture by :attr:`picture`, or by
        its bytes): equal digests, equal messages."""
        picture = self.picture
        if picture is None and self.image_png is not None:
            picture = hashlib.blake2b(self.image_png, digest_size=16).hexdigest()
        shown = (
            self.title,
            self.description,
            self.fields,
            self.colour,
            self.image_name if picture is not None else None,
            picture,
            self.footer,
            self.content,
            self.controls,
            self.version,
        )
        return hashlib.blake2b(repr(shown).encode(), digest_size=16).hexdigest()
