"""Who and where an interaction is: the person behind it, whether they manage the channel,
and the bot's tables it reaches."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.tables.manager import Person, TableManager
from bot.words.text import safe_name

if TYPE_CHECKING:
    from bot.client import QuantumTableBot


def person(user: discord.abc.User) -> Person:
    """The person behind ``user``; their display name made safe to show (see :mod:`bot.words.text`)."""
    return Person(
        id=user.id, name=safe_name(user.display_name, fallback=f"Player {user.id % 1000}")
    )


def is_manager(interaction: discord.Interaction) -> bool:
    """Whether the user may cancel games and remove players in this channel."""
    return bool(interaction.permissions.manage_guild)


def tables_of(interaction: discord.Interaction) -> TableManager:
    """The table manager of the bot the interaction came to."""
    bot: QuantumTableBot = interaction.client  # type: ignore[assignment]
    return bot.tables
