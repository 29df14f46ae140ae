"""/flux: Flux tables, with the variants as one option (``"1,4,17"``) and autocomplete."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import game_group, start_table
from bot.cogs.described import described, start_options
from bot.cogs.options import Bounded, Limited, TurnMinutes
from bot.engines.flux.rules import VARIANTS
from bot.words import current as current_words


def variant_choices(current: str) -> list[app_commands.Choice[str]]:
    """Completions for the variants being typed: earlier entries kept, the last one matched."""
    head, _, last = current.rpartition(",")
    done = [k.strip() for k in head.split(",") if k.strip()]
    prefix = ",".join(done) + ("," if done else "")
    word = last.strip().lower()
    words = current_words()
    choices: list[app_commands.Choice[str]] = []
    if not word and done:
        finished = words("flux-autocomplete-done", variants=prefix.rstrip(","))
        choices.append(app_commands.Choice(name=finished, value=prefix.rstrip(",")))
    for key in VARIANTS:
        if key in done:
            continue
        title = words(f"flux-variant-{key}")
        if word and not (key.startswith(word) or word in title.lower()):
            continue
        summary = words.attribute(f"flux-variant-{key}", "summary")
        name = words(
            "flux-autocomplete-variant", chosen=prefix, key=key, name=title, summary=summary
        )
        choices.append(app_commands.Choice(name=name[:100], value=(prefix + key)[:100]))
    return choices[:25]


async def _autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return variant_choices(current)


@app_commands.command(name="start", description=described("command-start-flux"))
@app_commands.describe(**start_options("flux", "variants", "decks", "deals", "limit"))
@app_commands.autocomplete(variants=_autocomplete)
async def start(
    interaction: discord.Interaction,
    variants: app_commands.Transform[str, Limited("variants", 100)] = "",
    decks: app_commands.Transform[int, Bounded("decks", 1, 6)] | None = None,
    deals: app_commands.Transform[int, Bounded("deals", 1, 10)] | None = None,
    limit: app_commands.Transform[int, Bounded("limit", 10, 1000)] | None = None,
    thread: bool = False,
    hints: bool = False,
    turn_minutes: TurnMinutes | None = None,
) -> None:
    options: dict[str, Any] = {"variants": variants, "decks": decks, "deals": deals, "limit": limit}
    options = {k: v for k, v in options.items() if v is not None}
    await start_table(
        interaction, "flux", options, thread=thread, minutes=turn_minutes, hints=hints
    )


GROUP = game_group("flux", "Flux", start)


async def setup(bot: commands.Bot) -> None:
    bot.tree.add_command(GROUP)


async def teardown(bot: commands.Bot) -> None:
    bot.tree.remove_command(GROUP.name)
