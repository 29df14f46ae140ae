"""/flume: Flume tables."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import game_group, start_table
from bot.cogs.described import described, start_options
from bot.cogs.options import Bounded, TurnMinutes


@app_commands.command(name="start", description=described("command-start-flume"))
@app_commands.describe(**start_options("flume", "target", "four_colour"))
async def start(
    interaction: discord.Interaction,
    target: app_commands.Transform[int, Bounded("target", 5, 99)] = 21,
    four_colour: bool = False,
    turn_minutes: TurnMinutes | None = None,
    thread: bool = False,
    hints: bool = False,
) -> None:
    options = {"target": target, "four_colour": four_colour}
    await start_table(
        interaction, "flume", options, thread=thread, minutes=turn_minutes, hints=hints
    )


GROUP = game_group("flume", "Flume", start)


async def setup(bot: commands.Bot) -> None:
    bot.tree.add_command(GROUP)


async def teardown(bot: commands.Bot) -> None:
    bot.tree.remove_command(GROUP.name)
