"""/qpoker: QuantumPoker tables."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import game_group, start_table
from bot.cogs.described import described, start_options
from bot.cogs.options import Bounded, TurnMinutes


@app_commands.command(name="start", description=described("command-start-qpoker"))
@app_commands.describe(**start_options("qpoker", "chips", "rounds", "community", "calling"))
async def start(
    interaction: discord.Interaction,
    chips: app_commands.Transform[int, Bounded("chips", 4, 1000)] = 20,
    rounds: app_commands.Transform[int, Bounded("rounds", 1, 50)] = 5,
    community: Literal["five", "per_player"] = "five",
    calling: bool = True,
    thread: bool = False,
    hints: bool = False,
    turn_minutes: TurnMinutes | None = None,
) -> None:
    options = {"chips": chips, "rounds": rounds, "community": community, "calling": calling}
    await start_table(
        interaction, "qpoker", options, thread=thread, minutes=turn_minutes, hints=hints
    )


GROUP = game_group("qpoker", "QuantumPoker", start)


async def setup(bot: commands.Bot) -> None:
    bot.tree.add_command(GROUP)


async def teardown(bot: commands.Bot) -> None:
    bot.tree.remove_command(GROUP.name)
