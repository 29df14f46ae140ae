"""/qdice: Quantum dice tables."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import game_group, start_table
from bot.cogs.described import described, start_options
from bot.cogs.options import Bounded, TurnMinutes


@app_commands.command(name="start", description=described("command-start-qdice"))
@app_commands.describe(**start_options("qdice", "target"))
async def start(
    interaction: discord.Interaction,
    target: app_commands.Transform[int, Bounded("target", 1_000, 100_000)] = 10_000,
    thread: bool = False,
    hints: bool = False,
    turn_minutes: TurnMinutes | None = None,
) -> None:
    await start_table(
        interaction, "qdice", {"target": target}, thread=thread, minutes=turn_minutes, hints=hints
    )


GROUP = game_group("qdice", "Quantum dice", start)


async def setup(bot: commands.Bot) -> None:
    bot.tree.add_command(GROUP)


async def teardown(bot: commands.Bot) -> None:
    bot.tree.remove_command(GROUP.name)
