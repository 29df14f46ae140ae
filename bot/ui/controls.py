"""Buttons and menus routed by the pattern of their custom_id, on any message, before or
after a restart (discord.py's dynamic items): the table's, a replay's, a leaderboard's."""

from __future__ import annotations

import re
from typing import Any, Generic, Self, TypeVar

import discord

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])

NEVER = re.compile(r"(?!)")
"""This base class routes nothing itself: each control gives its own pattern."""


class Routed(discord.ui.DynamicItem[ItemT], Generic[ItemT], template=NEVER):
    """A control found by its custom_id's pattern (``template=`` of the subclass), handled by
    :meth:`handle`.

    discord.py builds a view of the clicked message's components around the control (each
    item refers to the view, the view to its items); it is unlinked once the click is handled
    or failed, so it is freed at once instead of by the cycle collector.
    """

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ItemT, match: re.Match[str], /
    ) -> Self:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.handle(interaction)
        finally:
            if self.view is not None:
                self.view.clear_items()

    async def handle(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError
