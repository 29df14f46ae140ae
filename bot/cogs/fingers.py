"""/fingers: Quantum Fingers tables."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import game_group, start_table
from bot.cogs.options import Bounded, TurnMinutes


@app_commands.command(name="start", description="Open a Quantum Fingers table in this channel")
@app_commands.describe(
    fingers="Fingers of each flavour, and in each starting hand (default 4)",
    thread="Host the game in a new thread",
    hints="Players may ask for a hint on their move: the hard AI's move, and why (default off)",
    turn_minutes="Minutes a player has for a move before an AI covers (default 5)",
)
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
