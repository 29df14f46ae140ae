"""Slash-command options checked by the bot itself, not only by Discord.

Discord's client keeps option values within the ranges, lengths and choices a command
declares, but a modified client or a hand-made request does not, and discord.py passes such
values through. Each transformer here declares the limit to Discord (so the client shows it)
and checks it again when the value arrives, refusing it with a reply that says what fits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.engines.base import GameError


class BadOption(app_commands.AppCommandError, GameError):
    """An option value outside what the command accepts (shown to the person as is)."""


class Bounded(app_commands.Transformer):
    """A whole number from ``low`` to ``high``."""

    def __init__(self, name: str, low: int, high: int) -> None:
        self.name, self.low, self.high = name, low, high

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.integer

    @property
    def min_value(self) -> int:
        return self.low

    @property
    def max_value(self) -> int:
        return self.high

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> int:
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not (self.low <= value <= self.high)
        ):
            raise BadOption(
                f"{self.name} must be a whole number from {self.low:,} to {self.high:,}."
            )
        return value


class Limited(app_commands.Transformer):
    """Text of at most ``length`` characters."""

    def __init__(self, name: str, length: int) -> None:
        self.name, self.length = name, length

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def max_value(self) -> int:
        return self.length  # discord.py sends this as the option's max_length for text

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> str:
        if not isinstance(value, str) or len(value) > self.length:
            raise BadOption(f"{self.name} can be at most {self.length} characters long.")
        return value


class OneOf(app_commands.Transformer):
    """One of a fixed list of choices (their values are text)."""

    def __init__(self, name: str, choices: Sequence[app_commands.Choice[str]]) -> None:
        self.name = name
        self._choices: list[app_commands.Choice[int | float | str]] = list(choices)  # type: ignore[arg-type]

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def choices(self) -> list[app_commands.Choice[int | float | str]]:
        return self._choices

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> str:
        if value not in [choice.value for choice in self._choices]:
            names = ", ".join(choice.name for choice in self._choices)
            raise BadOption(f"{self.name} must be one of: {names}.")
        return str(value)


TurnMinutes = app_commands.Transform[int, Bounded("turn_minutes", 1, 60)]
"""Minutes a player has for a move before an AI covers."""
