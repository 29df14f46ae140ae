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
from bot.words import error_text, t

log = logging.getLogger(__name__)

SAVE_FAILED_ID = "error-save-failed"


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
        text = t("error-cooldown", seconds=error.retry_after)
    elif isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
        text = t("error-no-permission")
    elif isinstance(original, discord.Forbidden):
        text = t("error-bot-forbidden")
        log.warning("Forbidden: %s", original)
    elif is_unavailable(original):
        text = t(SAVE_FAILED_ID)
        tables_of(interaction).storage_failed(original)
        log.warning("Storage unavailable during an interaction: %r", original)
    else:
        text = t("error-internal")
        log.error("Unhandled error in an interaction", exc_info=original)
    if not isinstance(original, GameError):
        view = None
    try:
        await answers.send(interaction, content=text, ephemeral=True, view=view)
    except discord.HTTPException:
        log.warning("Could not deliver an error reply: %s", text)
