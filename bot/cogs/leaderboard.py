"""/leaderboard: per-server standings for each game, ranked by skill rating."""

from __future__ import annotations

import asyncio
import io
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.described import described
from bot.cogs.general import GAME_CHOICES
from bot.cogs.options import Bounded, OneOf
from bot.engines.base import GameError, plural
from bot.render.leaderboard import render_leaderboard_png
from bot.storage import PROVISIONAL_GAMES
from bot.ui import answers
from bot.ui.controls import Routed
from bot.ui.errors import reply_error
from bot.ui.parts import LaidOut

if TYPE_CHECKING:
    from bot.client import QuantumTableBot

PAGE_SIZE = 10
PAGE_ID = re.compile(r"lb:(?P<game>[a-z]+):(?P<page>[0-9]+):(?P<dir>prev|next)")


def _bot(interaction: discord.Interaction) -> QuantumTableBot:
    return interaction.client  # type: ignore[return-value]


def board_caption(total: int) -> str:
    """How the board is ordered, in a few words under its title."""
    return (
        f"{plural(total, 'player')} ranked by **rating**, the number on the right: a cautious "
        "estimate of skill that starts at 1,000 and rises as you win, most against strong "
        f"players. Anyone with fewer than {plural(PROVISIONAL_GAMES, 'game')} is "
        "**provisional** (tagged in the picture): their rating is still settling, so they are "
        f"listed after everyone who has played {PROVISIONAL_GAMES} or more."
    )


async def leaderboard_parts(
    bot: QuantumTableBot, guild_id: int, game: str, page: int
) -> dict[str, Any]:
    """The message for one page of a game's board: picture, caption and page buttons."""
    spec = bot.games.get(game)
    if spec is None:
        raise GameError(f"There is no game called {game!r}.")
    page = max(page, 1)
    rows, total = await bot.db.leaderboard(
        guild_id, game, offset=(page - 1) * PAGE_SIZE, limit=PAGE_SIZE
    )
    pages = max(1, -(-total // PAGE_SIZE))
    if page > pages:  # asked past the end: show the last page instead
        page = pages
        rows, total = await bot.db.leaderboard(
            guild_id, game, offset=(page - 1) * PAGE_SIZE, limit=PAGE_SIZE
        )
    shown = [
        {
            "rank": row.position,
            "name": row.name,
            "games": row.games,
            "wins": row.wins,
            "points": round(row.points),
            "rating": row.shown_rating,  # the number the board is sorted by
            "provisional": row.provisional,
        }
        for row in rows
    ]
    title = f"{spec.title} leaderboard"
    png = await asyncio.to_thread(
        render_leaderboard_png, title, shown, page, pages, provisional_games=PROVISIONAL_GAMES
    )
    embed = discord.Embed(
        title=title,
        description=(board_caption(total) if total else "No finished games yet: start one!"),
        colour=0xF1C40F,
    )
    embed.set_image(url="attachment://leaderboard.png")
    embed.set_footer(text=f"Page {page} of {pages}")
    view = discord.ui.View(timeout=None)
    for direction, label in (("prev", "◀ Previous"), ("next", "Next ▶")):
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label,
            custom_id=f"lb:{game}:{page}:{direction}",
            disabled=(direction == "prev" and page <= 1) or (direction == "next" and page >= pages),
        )
        view.add_item(button)
    return {
        "embed": embed,
        "file": discord.File(io.BytesIO(png), "leaderboard.png"),
        "view": LaidOut.of(view),
    }


class PageButton(Routed, template=PAGE_ID):
    """Previous/next on a leaderboard message; the page lives in the custom_id."""

    async def handle(self, interaction: discord.Interaction, match: re.Match[str]) -> None:
        if interaction.guild_id is None:
            return
        page = int(match["page"]) + (1 if match["dir"] == "next" else -1)
        try:
            parts = await leaderboard_parts(
                _bot(interaction), interaction.guild_id, match["game"], page
            )
            parts["attachments"] = [parts.pop("file")]
            await answers.edit(interaction, **parts)
        except Exception as error:
            await reply_error(interaction, error)


class Leaderboard(commands.Cog):
    def __init__(self, bot: QuantumTableBot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description=described("command-leaderboard"))
    @app_commands.describe(
        game=described("command-leaderboard", "game"),
        page=described("command-leaderboard", "page"),
    )
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: app_commands.Transform[str, OneOf("game", GAME_CHOICES)],
        page: app_commands.Transform[int, Bounded("page", 1, 1000)] = 1,
    ) -> None:
        assert interaction.guild_id is not None
        parts = await leaderboard_parts(self.bot, interaction.guild_id, game, page)
        await interaction.response.send_message(**parts)


async def setup(bot: QuantumTableBot) -> None:
    bot.controls.add(PageButton)
    await bot.add_cog(Leaderboard(bot))
