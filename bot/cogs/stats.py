"""/stats: a person's record on this server, game by game, with their rating over time."""

from __future__ import annotations

import asyncio
import io
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.described import described
from bot.engines.base import plural
from bot.render.stats import RatingSeries, render_rating_chart_png
from bot.storage import PROVISIONAL_GAMES, RatingPoint, UserStats
from bot.words.text import safe_name

if TYPE_CHECKING:
    from bot.client import QuantumTableBot

CHART_FILE = "rating.png"


def rating_series(
    stats: Sequence[UserStats], history: Sequence[RatingPoint], titles: Mapping[str, str]
) -> list[RatingSeries]:
    """One chart line per game the person has a record in, most played first: the rating
    before their first game, then after each game."""
    points: dict[str, list[RatingPoint]] = defaultdict(list)
    for point in history:
        points[point.game].append(point)
    series = [
        (
            row.games,
            RatingSeries(
                title=titles.get(row.game, row.game),
                ratings=[points[row.game][0].rating_before]
                + [p.rating_after for p in points[row.game]],
                shown=row.shown_rating,
                provisional=row.provisional,
            ),
        )
        for row in stats
        if points[row.game]
    ]
    series.sort(key=lambda item: (-item[0], item[1].title))
    return [s for _, s in series]


def _points(value: float) -> str:
    return plural(round(value) if float(value).is_integer() else f"{value:,.1f}", "point")


def record_line(row: UserStats) -> str:
    """One game's line in /stats: place, rating (the board's number) and tallies."""
    place = f"#{row.position:,} of {row.board_size:,} · rating **{row.shown_rating:,}**"
    if row.provisional:
        place += f" · provisional ({row.games:,} of {plural(PROVISIONAL_GAMES, 'game')})"
    return f"{place}\n{row.games:,} played · {row.wins:,} won · {_points(row.points)}"


class Stats(commands.Cog):
    def __init__(self, bot: QuantumTableBot) -> None:
        self.bot = bot

    @app_commands.command(name="stats", description=described("command-stats"))
    @app_commands.describe(player=described("command-stats", "player"))
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, player: discord.Member | None = None
    ) -> None:
        assert interaction.guild_id is not None
        who = player or interaction.user
        name = safe_name(who.display_name)
        db = self.bot.db
        rows = await db.user_stats(interaction.guild_id, who.id)
        if not rows:
            whose = "You have" if who.id == interaction.user.id else f"{name} has"
            await interaction.response.send_message(
                f"No finished games on this server yet: {whose} no record or rating here. "
                "Start a table with `/<game> start` (see `/help`).",
                ephemeral=True,
            )
            return
        titles = {key: spec.title for key, spec in self.bot.games.items()}
        embed = discord.Embed(title=f"{name}'s record", colour=0x5865F2)
        for row in rows:
            embed.add_field(
                name=titles.get(row.game, row.game), value=record_line(row), inline=False
            )
        against = await db.results_against_ai(interaction.guild_id, who.id)
        if against:
            embed.add_field(
                name="Against AI players (by the strongest at the table)",
                value="\n".join(
                    f"{r.level.capitalize()}: {r.wins:,} won of {r.games:,} "
                    f"({100 * r.wins / r.games:.0f}%)"
                    for r in against
                ),
                inline=False,
            )
        history = await db.rating_history(interaction.guild_id, who.id)
        series = rating_series(rows, history, titles)
        if not series:  # a record without stored rating changes (should not happen)
            await interaction.response.send_message(embed=embed, ephemeral=True)
            return
        png = await asyncio.to_thread(
            render_rating_chart_png, who.display_name, series, provisional_games=PROVISIONAL_GAMES
        )
        embed.set_image(url=f"attachment://{CHART_FILE}")
        embed.set_footer(
            text="The chart shows the rating after each game; the board ranks by the same number."
        )
        await interaction.response.send_message(
            embed=embed, file=discord.File(io.BytesIO(png), CHART_FILE), ephemeral=True
        )


async def setup(bot: QuantumTableBot) -> None:
    await bot.add_cog(Stats(bot))
