"""Buttons and menus routed by the pattern of their custom_id, on any message, before or
after a restart: the table's, a replay's, a review's, a history's, a leaderboard's.

A click is routed here straight from the interaction (a listener of ``on_interaction``), as
discord.py's dynamic items would route it, but without what they build first: a view of the
clicked message's every component, made into items, for each click. Only a control the
clicked message carries is routed (as with discord.py's items: a custom_id made up by the
client reaches nothing).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, cast

import discord

NEVER = re.compile(r"(?!)")
"""This base class routes nothing itself: each control gives its own pattern."""


class Routed:
    """A control found by its custom_id's pattern (``template=`` of the subclass), handled by
    :meth:`handle` with that pattern's match; one instance per click."""

    template: ClassVar[re.Pattern[str]] = NEVER

    def __init_subclass__(cls, *, template: re.Pattern[str] | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if template is not None:
            cls.template = template

    async def handle(self, interaction: discord.Interaction, match: re.Match[str]) -> None:
        raise NotImplementedError


Route = tuple[type[Routed], re.Match[str]]
"""The control a custom_id is for, and its pattern's match."""


class Controls:
    """Which :class:`Routed` control a click is for, and handing it the click."""

    def __init__(self) -> None:
        self._routes: list[type[Routed]] = []

    def add(self, *controls: type[Routed]) -> None:
        self._routes.extend(controls)

    def takes(self, custom_id: str) -> Route | None:
        """The control whose pattern the custom_id has, if any, with the match."""
        for control in self._routes:
            if (match := control.template.fullmatch(custom_id)) is not None:
                return control, match
        return None

    def route(self, interaction: discord.Interaction) -> Route | None:
        """The control a click (not a form) is for: one the clicked message carries."""
        if interaction.type is not discord.InteractionType.component:
            return None
        custom_id = str(cast("dict[str, Any]", interaction.data or {}).get("custom_id", ""))
        found = self.takes(custom_id)
        message = interaction.message
        if found is None or message is None or custom_id not in custom_ids(message.components):
            return None
        return found

    def handles(self, interaction: discord.Interaction) -> bool:
        """Whether a click or form submit reaches a handler here: its custom_id is one that
        some handler takes and, for a click, the message it came from carries it."""
        if interaction.type is discord.InteractionType.component:
            return self.route(interaction) is not None
        data = cast("dict[str, Any]", interaction.data or {})
        return self.takes(str(data.get("custom_id", ""))) is not None

    async def dispatch(self, interaction: discord.Interaction) -> None:
        """``on_interaction``: hand a click to its control."""
        found = self.route(interaction)
        if found is not None:
            control, match = found
            await control().handle(interaction, match)


def custom_ids(components: Sequence[Any] | Iterable[Any]) -> set[str]:
    """Every custom_id in a message's components, rows and containers included."""
    found: set[str] = set()
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if custom_id:
            found.add(custom_id)
        found |= custom_ids(getattr(component, "children", None) or [])
    return found
