"""/fingers: Quantum Fingers tables."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import game_group, start_table
from bot.cogs.described import described, start_options
from bot.cogs.options import Bounded, TurnMinutes


@app_commands.command(name="start", description=described("command-start-fingers"))
@app_commands.describe(**start_options("fingers", "fingers"))
async def start(
    interaction: discord.Interaction,
    fingers: app_commands.Transform[int, Bounded("fingers", 3, 6)] = 4,
    thread: bool = False,
    hints: bool = False,
    turn_minutes: TurnMinutes | None = None,
) -> None:
    await start_table(
        interaction,
        "fingers",
        {"per_flavour": fingers},
        thread=thread,
        minutes=turn_minutes,
        hints=hints,
    )


GROUP = game_group("fingers", "Quantum Fingers", start)


async def setup(bot: commands.Bot) -> None:
    bot.tree.add_command(GROUP)


async def teardown(bot: commands.Bot) -> None:
    bot.tree.remove_command(GROUP.name)
