"""/help, /about and /rules: what the bot is, how it is doing, and how each game is played."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import __version__
from bot.cogs.described import described
from bot.cogs.options import OneOf
from bot.engines.base import GameError, plural
from bot.games import all_games
from bot.storage import PROVISIONAL_GAMES

if TYPE_CHECKING:
    from bot.client import QuantumTableBot

GAME_CHOICES = [app_commands.Choice(name=s.title, value=s.name) for s in all_games().values()]
RULES_DIR = Path(__file__).resolve().parents[2] / "docs" / "rules"
EMBED_LIMIT = 4000


def rule_pages(body: str, limit: int = EMBED_LIMIT) -> list[str]:
    """Split a rules page into pages of at most ``limit`` characters, between paragraphs
    where possible (then between lines, then anywhere)."""
    pages: list[str] = []
    current = ""
    for block in body.strip().split("\n\n"):
        candidate = f"{current}\n\n{block}" if current else block
        if len(candidate) <= limit:
            current = candidate
            continue
        if current:
            pages.append(current)
        while len(block) > limit:
            cut = block.rfind("\n", 0, limit)
            cut = cut if cut > 0 else limit
            pages.append(block[:cut])
            block = block[cut:].lstrip("\n")
        current = block
    if current or not pages:
        pages.append(current)
    return pages


def rules_text(game: str) -> str:
    path = RULES_DIR / f"{game}.md"
    if not path.exists():
        raise GameError("The rules page for that game is not written yet.")
    return path.read_text(encoding="utf-8")


def _uptime(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    parts = [f"{days}d"] if days else []
    return " ".join([*parts, f"{hours}h {minutes}m {secs}s"])


class General(commands.Cog):
    def __init__(self, bot: QuantumTableBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description=described("command-help"))
    async def help(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(
            title="Quantum Table",
            description=(
                "Card and dice games for your server. Start a table with `/<game> start`: a lobby "
                "appears where people press **Join**, the host fills empty seats with **Add AI** "
                "and presses **Start**. The table picture updates as the game moves; anything "
                "secret (your hand) is shown only to you through **My hand** or `/<game> hand`."
            ),
            colour=0x5865F2,
        )
        for spec in self.bot.games.values():
            embed.add_field(
                name=f"{spec.emoji} /{spec.name} · {spec.title}",
                value=f"{spec.blurb}\n{spec.engine.min_players}–{spec.engine.max_players} players",
                inline=False,
            )
        embed.add_field(
            name="AI players and results",
            value="AI players come at three levels: easy, normal and hard (**Add AI** adds a "
            "normal one). When you run out of time or leave, an AI plays your seat: take it back "
            "while the game runs with **Take my seat back** or `/<game> rejoin` (not after the "
            "host removed you). "
            "A seat an AI played for most of its moves counts as abandoned: it is ranked last "
            "and earns no win and no rating. `/settings` turns off the message that tells you "
            "your turn has come. Open a table with `hints:True` and the player to move finds "
            "**Hint** in their own view: the hard AI's move for them, and why. After the game, "
            "**Review** shows you the moves where it would have played otherwise. New to a game? "
            "`/<game> learn` is a guided practice game against easy AIs (not rated).",
            inline=False,
        )
        embed.add_field(
            name="Who may cancel a table or remove a player",
            value="The host (who opened the table; it passes on if they leave) and anyone with "
            "the **Manage Server** permission, at any table: **Cancel** in the lobby or "
            "`/<game> cancel` ends it for everyone, and `/<game> kick` removes a player (an AI "
            "plays their seat; they can't take it back). Each asks for a second click first, "
            "as leaving a game does.",
            inline=False,
        )
        embed.add_field(
            name="Leaderboards and ratings",
            value="Each game has a board per server, ranked by **rating**: a cautious estimate "
            "of skill that starts at 1,000 and rises as you win, most against strong players. "
            f"With fewer than {plural(PROVISIONAL_GAMES, 'game')} you are **provisional**: "
            "tagged on the board and listed after the ranked players until your rating settles. "
            "`/stats` charts your rating game by game.",
            inline=False,
        )
        embed.add_field(
            name="After a game",
            value="Any of its players can press **Rematch**: a new lobby opens here with the "
            "same game, options and AI players, and the others keep their seats by pressing "
            "**Join**. **Show hands** shows every card that was hidden, face up, and **Replay** "
            "the game again move by move. `/history` lists the server's recent games, or one "
            "person's with `user:`, to replay any of them.",
            inline=False,
        )
        embed.add_field(
            name="More",
            value="`/rules` how a game is played · `/leaderboard` server standings · "
            "`/stats` a player's record · `/history` recent games, to replay · "
            "`/settings` your settings · `/about` the bot",
            inline=False,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="settings", description=described("command-settings"))
    @app_commands.describe(turn_pings=described("command-settings", "turn_pings"))
    @app_commands.guild_only()
    async def settings(
        self, interaction: discord.Interaction, turn_pings: bool | None = None
    ) -> None:
        assert interaction.guild_id is not None
        db = self.bot.db
        if turn_pings is not None:
            await db.set_turn_pings(interaction.guild_id, interaction.user.id, turn_pings)
        on = (await db.turn_pings(interaction.guild_id, [interaction.user.id]))[interaction.user.id]
        state = "on" if on else "off"
        change = "saved. " if turn_pings is not None else ""
        await interaction.response.send_message(
            f"Your settings on this server: {change}\n"
            f"- Turn messages: **{state}** (a message that mentions you when your turn starts "
            f"after others have moved; change with `/settings turn_pings:{'False' if on else 'True'}`).",
            ephemeral=True,
        )

    @app_commands.command(name="about", description=described("command-about"))
    async def about(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="About Quantum Table", colour=0x5865F2)
        embed.add_field(name="Version", value=__version__)
        embed.add_field(name="Uptime", value=_uptime(time.time() - self.bot.started_at))
        embed.add_field(name="Servers", value=str(len(self.bot.guilds)))
        embed.add_field(name="Active games", value=str(len(self.bot.tables.tables())))
        embed.add_field(
            name="Games offered", value=", ".join(s.title for s in self.bot.games.values())
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="rules", description=described("command-rules"))
    @app_commands.describe(game=described("command-rules", "game"))
    async def rules(
        self,
        interaction: discord.Interaction,
        game: app_commands.Transform[str, OneOf("game", GAME_CHOICES)],
    ) -> None:
        spec = self.bot.games.get(game)
        if spec is None:
            raise GameError(
                f"There is no game called {game!r}. Try one of: {', '.join(self.bot.games)}."
            )
        title, _, body = rules_text(game).partition("\n")
        pages = rule_pages(body)
        # Discord caps the embeds of one message at 6,000 characters in all: one page each.
        for i, page in enumerate(pages):
            embed = discord.Embed(
                title=title.lstrip("# ") if i == 0 else None, description=page, colour=0x5865F2
            )
            if len(pages) > 1:
                embed.set_footer(text=f"Page {i + 1} of {len(pages)}")
            if i == 0:
                await interaction.response.send_message(embed=embed, ephemeral=True)
            else:
                await interaction.followup.send(embed=embed, ephemeral=True)


async def setup(bot: QuantumTableBot) -> None:
    await bot.add_cog(General(bot))
