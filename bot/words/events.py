"""Events and log entries as sentences.

The game log keeps what happened as data (:meth:`bot.engines.base.Event.entry`):
``{"kind": "bank", "seat": 2, "data": {"points": 350}}``. A game's kinds are worded by its
catalogue message ``<game>-<kind>`` (``qdice-bank``); the hosting core's own notes have kinds
that start with ``table-`` and are worded by that message. Every message gets ``$player``
(the name of ``seat``), ``$p0``, ``$p1`` … (every seat's name) and the scalar values of
``data``; a game's presenter adds what needs wording first (:class:`GamePresenter`).

Logs saved before events were data hold finished sentences (strings): they are shown as
they were written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.engines.base import Event
from bot.words import Words, current

Entry = str | Mapping[str, Any] | Event


def message_id(game: str, kind: str) -> str:
    """The catalogue message that words an event of ``kind`` in ``game``."""
    return kind if kind.startswith("table-") else f"{game}-{kind}"


def base_args(seat: int | None, data: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """The arguments every event message gets: names of seats and the data's scalars."""
    args: dict[str, Any] = {f"p{index}": name for index, name in enumerate(names)}
    if seat is not None and 0 <= seat < len(names):
        args["player"] = names[seat]
    for key, value in data.items():
        if isinstance(value, str | int | float | bool) or value is None:
            args[key] = value
    return args


class GamePresenter:
    """How one game's events read. A game's UI inherits it and sets :attr:`game`; where an
    event's data needs wording before it goes into a message (cards, lists, seats named in
    the data) it overrides :meth:`event_args`."""

    game: ClassVar[str] = ""

    def event_args(
        self,
        kind: str,
        seat: int | None,
        data: Mapping[str, Any],
        names: Sequence[str],
        words: Words,
    ) -> dict[str, Any]:
        """Arguments for the event's message beyond :func:`base_args`."""
        return {}

    def event_line(self, entry: Entry, names: Sequence[str], words: Words | None = None) -> str:
        """One event or log entry as a sentence in ``words``' language."""
        if isinstance(entry, str):
            return entry
        words = words or current()
        if isinstance(entry, Event):
            kind, seat, data, text = entry.kind, entry.seat, entry.data, entry.text
        else:
            kind, seat = entry["kind"], entry.get("seat")
            data, text = entry.get("data", {}), entry.get("text", "")
        ident = message_id(self.game, kind)
        if text and not words.has(ident):  # transitional: an engine's own sentence
            return str(text).format(**{f"p{i}": name for i, name in enumerate(names)})
        args = base_args(seat, data, names)
        args.update(self.event_args(kind, seat, data, names, words))
        return words(ident, **args)

    def log_lines(self, log: Sequence[Entry], names: Sequence[str]) -> list[str]:
        """The table's recent log, worded."""
        words = current()
        return [self.event_line(entry, names, words) for entry in log]
