"""Pieces every game's command group shares: start a table, and the table subcommands.

Each game cog builds its ``/<game>`` group with :func:`game_group`, supplying only its own
``start`` command (whose options differ per game). ``hand``, ``status``, ``leave``,
``rejoin``, ``cancel`` and ``kick`` behave the same for every game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.cogs.described import described
from bot.engines.base import GameError
from bot.tables import practice
from bot.tables.confirm import kick_action
from bot.tables.table import Table
from bot.tables.views import CANCEL, LEAVE
from bot.ui import answers
from bot.ui.context import person
from bot.ui.parts import message_parts
from bot.ui.router import ask_to_confirm, send_private

if TYPE_CHECKING:
    from bot.client import QuantumTableBot


def _bot(interaction: discord.Interaction) -> QuantumTableBot:
    return interaction.client  # type: ignore[return-value]


def _jump(table: Table, guild_id: int | None) -> str:
    if table.record.message_id is None:
        return f"<#{table.location_id}>"
    return f"https://discord.com/channels/{guild_id}/{table.location_id}/{table.record.message_id}"


def table_here(interaction: discord.Interaction, game: str) -> Table:
    """The live table of ``game`` in the channel (or thread) the command was used in."""
    table = _bot(interaction).tables.in_location(interaction.channel_id or 0)
    if table is None or table.record.game != game:
        title = _bot(interaction).games[game].title
        raise GameError("error-no-game-here", title=title, game=game)
    return table


def _free_channel(interaction: discord.Interaction, otherwise: str) -> tuple[int, int]:
    """Refuse unless ``interaction`` is in a server channel with no table running in it
    (``otherwise``: what to do instead, "start" or "practice"); the server's and the channel's
    ids."""
    if interaction.guild is None or interaction.channel is None:
        raise GameError("error-not-in-server")
    where = (interaction.guild.id, interaction.channel.id)
    busy = _bot(interaction).tables.in_location(interaction.channel.id)
    if busy is not None:
        raise GameError(
            "error-channel-busy",
            title=busy.spec.title,
            where=_jump(busy, interaction.guild_id),
            otherwise=otherwise,
        )
    return where


async def start_table(
    interaction: discord.Interaction,
    game: str,
    options: dict[str, Any],
    *,
    thread: bool,
    minutes: int | None,
    hints: bool = False,
) -> None:
    """Open a lobby here, or in a new thread, and post its table message. ``hints``: the
    players may ask for hints (see :mod:`bot.tables.coaching`)."""
    bot = _bot(interaction)
    guild_id, channel_id = _free_channel(interaction, "start")
    spec = bot.games[game]
    timeout = minutes * 60 if minutes else None
    if thread:
        if not isinstance(interaction.channel, discord.TextChannel):
            raise GameError("error-thread-needs-text-channel")
        await interaction.response.defer(ephemeral=True, thinking=True)
        room = await interaction.channel.create_thread(
            name=f"{spec.title} with {interaction.user.display_name}",
            type=discord.ChannelType.public_thread,
            auto_archive_duration=1440,
        )
        table = await bot.tables.create(
            game,
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=room.id,
            host=person(interaction.user),
            options=options,
            turn_timeout=timeout,
            hints=hints,
        )
        panel = bot.tables.public_panel(table)
        message = await room.send(**message_parts(panel, table.id))
        await bot.tables.attach_message(table, message.id)
        await interaction.followup.send(f"Your table is open in {room.mention}.", ephemeral=True)
        return
    async with answers.in_time(interaction, public=True):
        table = await bot.tables.create(
            game,
            guild_id=guild_id,
            channel_id=channel_id,
            host=person(interaction.user),
            options=options,
            turn_timeout=timeout,
            hints=hints,
        )
        panel = bot.tables.public_panel(table)
        message_id = await answers.send(interaction, **message_parts(panel, table.id))
        await bot.tables.attach_message(table, message_id)


async def learn_table(interaction: discord.Interaction, game: str) -> None:
    """Open a practice table here (see :mod:`bot.tables.practice`) and post its message."""
    bot = _bot(interaction)
    guild_id, channel_id = _free_channel(interaction, "practice")
    async with answers.in_time(interaction, public=True):
        table = await practice.open_practice(
            bot.tables,
            game,
            guild_id=guild_id,
            channel_id=channel_id,
            person=person(interaction.user),
        )
        panel = bot.tables.public_panel(table)
        message_id = await answers.send(interaction, **message_parts(panel, table.id))
        await bot.tables.attach_message(table, message_id)


def game_group(
    game: str, title: str, start: app_commands.Command[Any, ..., Any]
) -> app_commands.Group:
    """``/<game>`` with ``start`` plus the subcommands every table has."""
    group = app_commands.Group(
        name=game, description=described("command-game", game=title), guild_only=True
    )
    group.add_command(start)

    @app_commands.command(name="hand", description=described("command-hand"))
    async def hand(interaction: discord.Interaction) -> None:
        table = table_here(interaction, game)
        async with answers.in_time(interaction):
            panel = await _bot(interaction).tables.private_panel(table.id, interaction.user.id)
            await send_private(interaction, table, panel, edit=False)

    @app_commands.command(name="status", description=described("command-status"))
    async def status(interaction: discord.Interaction) -> None:
        table = table_here(interaction, game)
        panel = _bot(interaction).tables.public_panel(table)
        panel.controls = []
        parts = message_parts(panel, table.id)
        parts.pop("view")
        await interaction.response.send_message(ephemeral=True, **parts)

    @app_commands.command(name="leave", description=described("command-leave"))
    async def leave(interaction: discord.Interaction) -> None:
        table = table_here(interaction, game)
        if table.record.status == "active":  # asks first, as the Leave button does
            await ask_to_confirm(interaction, table, LEAVE)
            return
        async with answers.in_time(interaction):
            await _bot(interaction).tables.leave(table.id, person(interaction.user))
            await answers.send(interaction, content="You left the table.", ephemeral=True)
        await _bot(interaction).tables.refresh(table)

    @app_commands.command(name="rejoin", description=described("command-rejoin"))
    async def rejoin(interaction: discord.Interaction) -> None:
        table = table_here(interaction, game)
        tables = _bot(interaction).tables
        async with answers.in_time(interaction):
            await tables.rejoin(table.id, person(interaction.user))
            panel = await tables.private_panel(table.id, interaction.user.id)
            await send_private(interaction, table, panel, edit=False)
        await tables.refresh(table)

    @app_commands.command(name="cancel", description=described("command-cancel"))
    async def cancel(interaction: discord.Interaction) -> None:
        table = table_here(interaction, game)
        await ask_to_confirm(interaction, table, CANCEL)  # the Cancel button's question

    @app_commands.command(name="kick", description=described("command-kick"))
    @app_commands.describe(player=described("command-kick", "player"))
    async def kick(interaction: discord.Interaction, player: discord.Member) -> None:
        table = table_here(interaction, game)
        await ask_to_confirm(interaction, table, kick_action(player.id))

    @app_commands.command(
        name="learn",
        description=described("command-learn", game=title),
    )
    async def learn(interaction: discord.Interaction) -> None:
        await learn_table(interaction, game)

    commands: tuple[app_commands.Command[Any, ..., Any], ...] = (
        hand, status, leave, rejoin, cancel, kick, learn
    )  # fmt: skip
    for command in commands:
        group.add_command(command)
    return group
