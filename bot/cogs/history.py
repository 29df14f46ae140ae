"""/history, and looking back on finished games: Show hands and replays, step by step.

Everything here answers only the person who asked (ephemeral), and carries its state in its
custom_ids: a history page is ``qh:<user or 0>:<game or all>:<page>[:<tag>]``, a replay step
``qr:<game>:<step>:<tag>`` (see :mod:`bot.tables.replay`), so the buttons keep working after
a restart.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.described import described
from bot.cogs.general import GAME_CHOICES
from bot.cogs.options import OneOf
from bot.engines.base import GameError, plural
from bot.storage.models import PastGame
from bot.tables.replay import REPLAY_ID, Replays
from bot.tables.review import REVIEW_ID
from bot.ui import answers
from bot.ui.controls import Routed
from bot.ui.errors import reply_error
from bot.ui.parts import LaidOut, message_parts
from bot.words.text import plain_text

if TYPE_CHECKING:
    from bot.client import QuantumTableBot

PAGE_SIZE = 10
SHOWN_PLAYERS = 4
"""Players named in a history entry besides the winners (the rest are counted)."""
HISTORY_ID = re.compile(
    r"qh:(?P<user>[0-9]+):(?P<game>[a-z]+):(?P<page>[0-9]+)(?::(?P<tag>[a-z]+))?"
)


def _bot(interaction: discord.Interaction) -> QuantumTableBot:
    return interaction.client  # type: ignore[return-value]


def _replays(interaction: discord.Interaction) -> Replays:
    cog = _bot(interaction).get_cog("History")
    assert isinstance(cog, History)
    return cog.replays


def _day(timestamp: float | None) -> str:
    if timestamp is None:
        return "date unknown"
    moment = datetime.fromtimestamp(timestamp, UTC)
    return f"{moment.day} {moment:%b %Y}"


def _winners(game: PastGame) -> list[str]:
    return [r.name for r in game.results if r.won]


def _entry(bot: QuantumTableBot, game: PastGame) -> str:
    spec = bot.games.get(game.game)
    title = f"{spec.emoji} {spec.title}" if spec else game.game
    when = f"<t:{int(game.ended_at)}:f>" if game.ended_at is not None else "date unknown"
    winners = _winners(game)
    result = f"🏆 {', '.join(winners)}" if winners else "no winner"
    others = [r.name for r in game.results if not r.won]
    if len(others) > SHOWN_PLAYERS:  # eight long names each would overflow the page
        others = [*others[: SHOWN_PLAYERS - 1], f"{len(others) - SHOWN_PLAYERS + 1} more"]
    players = f" · with {', '.join(others)}" if others else ""
    kept = "" if game.replayable else " · _no replay: its moves are no longer kept_"
    return f"**#{game.game_id}** {title} · {when}\n{result}{players}{kept}"


def _option(bot: QuantumTableBot, game: PastGame) -> discord.SelectOption:
    spec = bot.games.get(game.game)
    title = spec.title if spec else game.game
    winners = [plain_text(name) for name in _winners(game)]
    won = f"{', '.join(winners)} won" if winners else "no winner"
    if game.replayable:
        who = ", ".join(plain_text(r.name) for r in game.results)
        description = f"{_day(game.ended_at)} · {who}"
    else:
        description = f"{_day(game.ended_at)} · moves no longer kept: no replay"
    return discord.SelectOption(
        label=f"#{game.game_id} {title} · {won}"[:100],
        value=str(game.game_id),
        description=description[:100],
    )


async def history_parts(
    bot: QuantumTableBot, guild_id: int, user_id: int | None, game: str | None, page: int
) -> dict[str, Any]:
    """One page of a server's (or a person's) finished games, newest first, with a menu to
    replay one and buttons to the newer and older pages."""
    page = max(page, 1)
    games, total = await bot.db.history(
        guild_id, user_id=user_id, game=game, offset=(page - 1) * PAGE_SIZE, limit=PAGE_SIZE
    )
    pages = max(1, -(-total // PAGE_SIZE))
    if page > pages:  # asked past the end (or games were pruned meanwhile): the last page
        page = pages
        games, total = await bot.db.history(
            guild_id, user_id=user_id, game=game, offset=(page - 1) * PAGE_SIZE, limit=PAGE_SIZE
        )
    spec = bot.games.get(game) if game else None
    kind = f"{spec.title} games" if spec else "games"
    whose = f"<@{user_id}>'s recent {kind}" if user_id else f"Recent {kind} on this server"
    embed = discord.Embed(title="Game history", colour=0x9B59B6)
    if games:
        entries = "\n".join(_entry(bot, g) for g in games)
        embed.description = (
            f"{whose}, newest first. Pick one in the menu to replay it step by step, with "
            f"nothing hidden.\n\n{entries}"
        )
        days = bot.settings.replay_days
        kept = f" · replays kept {plural(format(days, 'g'), 'day')}" if days > 0 else ""
        embed.set_footer(text=f"Page {page} of {pages} · {plural(total, 'game')}{kept}")
    else:
        embed.description = f"{whose}: none finished yet. Start one with `/<game> start`!"
    view = discord.ui.View(timeout=None)
    base = f"qh:{user_id or 0}:{game or 'all'}"
    if games:
        menu: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"{base}:{page}:pick",
            placeholder="Replay a game…",
            options=[_option(bot, g) for g in games],
            row=0,
        )
        view.add_item(menu)
    if pages > 1:
        for target, label, tag in ((page - 1, "◀ Newer", "prev"), (page + 1, "Older ▶", "next")):
            button: discord.ui.Button[Any] = discord.ui.Button(
                label=label,
                custom_id=f"{base}:{max(1, min(target, pages))}:{tag}",
                disabled=not 1 <= target <= pages,
                row=1,
            )
            view.add_item(button)
    return {"embed": embed, "view": LaidOut.of(view)}


async def open_replay(
    interaction: discord.Interaction, game_id: int, target: str, *, edit: bool
) -> None:
    """Show hands (``target`` "hands") or a replay step, by editing the replay message the
    click came from (``edit``) or in a new reply only the person sees."""
    replays = _replays(interaction)
    async with answers.in_time(interaction, new_message=not edit):
        if target == "hands":
            panel = await replays.hands(game_id, interaction.guild_id)
        else:
            panel = await replays.step(game_id, int(target), interaction.guild_id)
        if edit:
            parts = message_parts(panel, game_id)
            parts["attachments"] = parts.pop("files")
            await answers.edit(interaction, **parts)
        else:
            await answers.send(interaction, ephemeral=True, **message_parts(panel, game_id))


class ReplayControl(Routed, template=REPLAY_ID):
    """Show hands and Replay on a finished table, and the buttons of a replay."""

    async def handle(self, interaction: discord.Interaction, match: re.Match[str]) -> None:
        # A replay's own buttons move it in place; the table's open a new private reply.
        inside = bool(interaction.message and interaction.message.flags.ephemeral)
        try:
            await open_replay(interaction, int(match["game"]), match["target"], edit=inside)
        except Exception as error:
            await reply_error(interaction, error)


class ReviewControl(Routed, template=REVIEW_ID):
    """Review on a finished table: the person's own review, in a reply only they see."""

    async def handle(self, interaction: discord.Interaction, match: re.Match[str]) -> None:
        game_id = int(match["game"])
        try:
            async with answers.in_time(interaction, new_message=True):
                panel = await _bot(interaction).tables.reviews.show(
                    game_id, interaction.user.id, interaction.guild_id
                )
                await answers.send(interaction, ephemeral=True, **message_parts(panel, game_id))
        except Exception as error:
            await reply_error(interaction, error)


class HistoryControl(Routed, template=HISTORY_ID):
    """The menu and page buttons of a /history message."""

    async def handle(self, interaction: discord.Interaction, match: re.Match[str]) -> None:
        data = cast("dict[str, Any]", interaction.data or {})
        if interaction.guild_id is None:
            return
        try:
            if match["tag"] == "pick":
                values = data.get("values") or []
                if len(values) != 1 or not str(values[0]).isdigit():
                    raise GameError("Pick one game in the menu.")
                await open_replay(interaction, int(values[0]), "0", edit=False)
                return
            user = int(match["user"]) or None
            game = None if match["game"] == "all" else match["game"]
            async with answers.in_time(interaction):
                parts = await history_parts(
                    _bot(interaction), interaction.guild_id, user, game, int(match["page"])
                )
                await answers.edit(interaction, **parts)
        except Exception as error:
            await reply_error(interaction, error)


class History(commands.Cog):
    def __init__(self, bot: QuantumTableBot) -> None:
        self.bot = bot
        self._replays: Replays | None = None

    @property
    def replays(self) -> Replays:
        """Finished games being looked back on (made at first use: the database opens
        after the cogs load)."""
        if self._replays is None:
            self._replays = Replays(self.bot.db, self.bot.games)
        return self._replays

    @app_commands.command(name="history", description=described("command-history"))
    @app_commands.describe(
        user=described("command-history", "user"), game=described("command-history", "game")
    )
    @app_commands.guild_only()
    async def history(
        self,
        interaction: discord.Interaction,
        user: discord.Member | None = None,
        game: app_commands.Transform[str, OneOf("game", GAME_CHOICES)] | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        async with answers.in_time(interaction):
            parts = await history_parts(
                self.bot, interaction.guild_id, user.id if user else None, game, 1
            )
            await answers.send(interaction, ephemeral=True, **parts)


async def setup(bot: QuantumTableBot) -> None:
    bot.controls.add(ReplayControl, ReviewControl, HistoryControl)
    await bot.add_cog(History(bot))
