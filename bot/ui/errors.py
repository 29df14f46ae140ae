"""The one place errors become replies: readable for players, logged for us."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.engines.base import GameError
from bot.storage.backends import is_unavailable
from bot.storage.leases import LeaseLost
from bot.ui import answers
from bot.ui.context import tables_of
from bot.words import error_text

log = logging.getLogger(__name__)

SAVE_FAILED = "That couldn't be saved just now, so nothing changed. Please try again in a moment."


async def reply_error(
    interaction: discord.Interaction, error: BaseException, *, view: discord.ui.View | None = None
) -> None:
    """The one place errors become replies: readable for players, logged for us. ``view``:
    a way on from a refusal a player can read (not given with any other error)."""
    original = getattr(error, "original", error)
    if isinstance(original, LeaseLost):
        # Another process holds this server's shard now, and it answers the interaction.
        log.warning("Not answering an interaction: %s", original)
        answers.keep_silent(interaction)
        return
    if isinstance(original, GameError):
        text = error_text(original)
    elif isinstance(error, app_commands.CommandOnCooldown):
        text = f"Slow down a little: try again in {error.retry_after:.0f} s."
    elif isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
        text = "You don't have permission to do that here."
    elif isinstance(original, discord.Forbidden):
        text = "I'm missing a permission in this channel (I need to send messages, embed links and attach files)."
        log.warning("Forbidden: %s", original)
    elif is_unavailable(original):
        text = SAVE_FAILED
        tables_of(interaction).storage_failed(original)
        log.warning("Storage unavailable during an interaction: %r", original)
    else:
        text = "Something went wrong on our side. It has been logged; please try again."
        log.error("Unhandled error in an interaction", exc_info=original)
    if not isinstance(original, GameError):
        view = None
    try:
        await answers.send(interaction, content=text, ephemeral=True, view=view)
    except discord.HTTPException:
        log.warning("Could not deliver an error reply: %s", text)
