"""Owner-only maintenance: sync the command set on request (global sync is rate limited)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.described import described

if TYPE_CHECKING:
    from bot.client import QuantumTableBot


async def _is_owner(interaction: discord.Interaction) -> bool:
    bot: QuantumTableBot = interaction.client  # type: ignore[assignment]
    return await bot.is_owner(interaction.user)


class Admin(commands.Cog):
    def __init__(self, bot: QuantumTableBot) -> None:
        self.bot = bot

    @app_commands.command(name="sync", description=described("command-sync"))
    @app_commands.check(_is_owner)
    @app_commands.default_permissions(administrator=True)
    async def sync(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await self.bot.sync_commands(force=True)
        await interaction.followup.send(f"Done: {result}.", ephemeral=True)


async def setup(bot: QuantumTableBot) -> None:
    await bot.add_cog(Admin(bot))
