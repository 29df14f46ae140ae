"""Clicks to table calls: every button and menu on a table message (and the modal submits of
its ``?`` actions) comes here by its custom_id, is checked against the person and the table
version it was shown at, and is answered (see :mod:`bot.ui.answers`)."""

from __future__ import annotations

import asyncio
import re
from typing import Any, cast

import discord

from bot.engines.base import GameError
from bot.tables import confirm
from bot.tables.panels import take_back_hint
from bot.tables.table import Table
from bot.tables.views import (
    ADD_AI,
    ASK_TEXT,
    CANCEL,
    HAND,
    HINT,
    JOIN,
    KICK,
    LEAVE,
    REJOIN,
    REMATCH,
    REMOVE_AI,
    START,
    STAY,
    SURE,
    Panel,
)
from bot.ui import answers
from bot.ui.context import is_manager, person, tables_of
from bot.ui.controls import Routed
from bot.ui.errors import reply_error
from bot.ui.modals import modal_spec, open_modal, type_again, typed_text
from bot.ui.parts import (
    CUSTOM_ID,
    build_view,
    carried_picture,
    edit_parts,
    kept_picture,
    message_parts,
)
from bot.words.text import check_typed


async def send_private(
    interaction: discord.Interaction, table: Table, panel: Panel, *, edit: bool
) -> None:
    """Send (or update, for clicks inside it) a player's ephemeral view."""
    if edit:
        await answers.edit(interaction, **edit_parts(panel, table.id))
        message_id = interaction.message.id if interaction.message else None
    else:
        message_id = await answers.send(
            interaction, ephemeral=True, **message_parts(panel, table.id)
        )
    remember = getattr(tables_of(interaction).presenter, "remember", None)
    if message_id is not None and remember is not None:  # (a test's presenter may keep none)
        remember(table, interaction, message_id, panel.version)


async def handle_click(
    interaction: discord.Interaction, game_id: int, version: int, action: str
) -> None:
    """A click (or modal submit) on a table: answered within Discord's deadline even when
    storage is slow (see :mod:`bot.ui.answers`)."""
    if action.startswith(ASK_TEXT):
        table = await tables_of(interaction).fetch(game_id)
        await open_modal(interaction, table, version, action)  # must be the first answer
        return
    if action == REMATCH:
        async with answers.in_time(interaction, public=True, new_message=True):
            await open_rematch(interaction, game_id)
        return
    async with (
        answers.in_time(interaction, new_message=action in (HAND, REJOIN)),
        tables_of(interaction).answering(),
    ):
        await _handle_click(interaction, game_id, version, action)


def table_link(table: Table) -> str:
    """A link to the table message (or its channel while it has none)."""
    record = table.record
    if record.message_id is None:
        return f"<#{table.location_id}>"
    return f"https://discord.com/channels/{record.guild_id}/{table.location_id}/{record.message_id}"


async def open_rematch(interaction: discord.Interaction, game_id: int) -> None:
    """Rematch on a finished table: post the new lobby here, mentioning the invited players,
    or point to the one already open."""
    manager = tables_of(interaction)
    table, opened = await manager.rematch(game_id, person(interaction.user))
    if not opened:
        await answers.send(
            interaction,
            ephemeral=True,
            content=f"The rematch is already open: game #{table.id} {table_link(table)}",
        )
        return
    panel = manager.public_panel(table)
    invited = [discord.Object(s.user_id) for s in table.seats if s.invited and s.user_id]
    try:
        message_id = await answers.send(
            interaction,
            allowed_mentions=discord.AllowedMentions(users=invited),
            **message_parts(panel, table.id),
        )
    except Exception:
        # A lobby nobody can see would block the channel: close it (Rematch opens another).
        await manager.rematches.withdraw(table)
        raise
    await manager.attach_message(table, message_id)


async def _handle_click(
    interaction: discord.Interaction, game_id: int, version: int, action: str
) -> None:
    manager = tables_of(interaction)
    table = await manager.fetch(game_id)
    who = person(interaction.user)
    private = bool(interaction.message and interaction.message.flags.ephemeral)
    if action == HAND:
        panel = await manager.private_panel(game_id, who.id)
        await send_private(interaction, table, panel, edit=False)
        return
    if action == HINT:  # in the person's own view: answered there, and only to them
        panel = await manager.hint(game_id, who.id)
        await send_private(interaction, table, panel, edit=private)
        return
    if action == REJOIN:
        # The seat is theirs again: answer with their own view, so they can move at once.
        await manager.rejoin(game_id, who)
        panel = await manager.private_panel(game_id, who.id)
        await send_private(interaction, table, panel, edit=False)
        await manager.refresh(table)
        return
    if action == CANCEL or (action == LEAVE and table.record.status == "active"):
        await ask_to_confirm(interaction, table, action)
        return
    if action == STAY:
        await answers.edit(interaction, content="Nothing changed.", view=None)
        return
    if action.startswith(f"{SURE}:"):
        await do_confirmed(interaction, table, action.partition(":")[2])
        return
    lobby_verbs = {
        JOIN: lambda: manager.join(game_id, who),
        ADD_AI: lambda: manager.add_ai(game_id, who),
        REMOVE_AI: lambda: manager.remove_ai(game_id, who),
        START: lambda: manager.start(game_id, who),
        LEAVE: lambda: manager.leave(game_id, who),
    }
    if action in lobby_verbs:
        await lobby_verbs[action]()
    elif action.startswith(f"{ADD_AI}:"):
        await manager.add_ai(game_id, who, action.partition(":")[2])
    else:
        await manager.act(game_id, who.id, action, version)
    if private:
        if table.record.status == "active":
            panel = await manager.private_panel(game_id, who.id)
            await send_private(interaction, table, panel, edit=True)
        else:
            await answers.defer(interaction)
        await manager.refresh(table)
    elif interaction.message is not None and interaction.message.id == table.record.message_id:
        # A click on the table itself: answer it with the updated table (edit in place).
        async def respond(panel: Panel) -> None:
            kept = kept_picture(table, panel)
            if panel.image_png is None and kept is None:  # not known after all: draw it
                panel = await asyncio.to_thread(manager.public_panel, table)
            upload = kept is None and panel.picture is not None
            try:  # Discord's copy of the message is only needed for a new picture's id
                edited = await answers.edit(
                    interaction, echo=upload, **edit_parts(panel, table.id, kept)
                )
            except BaseException:
                table.shown_picture = None  # not known what the message carries now
                raise
            if kept is None:  # a kept picture keeps its attachment (and its id)
                carried_picture(table, panel, edited)

        await manager.refresh(table, respond=respond)
    else:
        await answers.defer(interaction)
        await manager.refresh(table)


async def ask_to_confirm(interaction: discord.Interaction, table: Table, action: str) -> None:
    """Leaving a running game, cancelling a table or removing a player takes a second
    click, in a reply only the person sees (see :mod:`bot.tables.confirm`): the buttons'
    clicks and the commands alike."""
    asked = confirm.question(table, action, interaction.user.id, is_admin=is_manager(interaction))
    view = build_view(Panel(title="", controls=asked.controls), table.id, table.record.version)
    await answers.send(interaction, ephemeral=True, content=asked.text, view=view)


async def do_confirmed(interaction: discord.Interaction, table: Table, action: str) -> None:
    """The second click: do what the person confirmed, and say so in their reply."""
    manager, who = tables_of(interaction), person(interaction.user)
    verb, _, target = action.partition(":")
    if action == LEAVE:
        await manager.leave(table.id, who)
        done = "You left the table."
        if table.record.status == "active":
            done += f" To take your seat back while the game runs: {take_back_hint(table)}."
    elif action == CANCEL:
        what = "lobby" if table.record.status == "lobby" else "game"
        await manager.cancel(table.id, who, is_admin=is_manager(interaction))
        done = f"The {what} is cancelled."
    elif verb == KICK and target.isdigit():
        done = await manager.kick(table.id, who, int(target), is_admin=is_manager(interaction))
        await manager.presenter.announce(table, done)  # the one public word on it
    else:
        raise GameError("error-unknown-control")
    await answers.edit(interaction, content=done, view=None)
    await manager.refresh(table)


class TableComponent(Routed, template=CUSTOM_ID):
    """Any button or select menu on any table message, before or after a restart.

    One class serves both kinds (one pattern, one route). A select's chosen value is the
    action; a button's action is in its custom_id.
    """

    async def handle(self, interaction: discord.Interaction, match: re.Match[str]) -> None:
        values = cast("dict[str, Any]", interaction.data or {}).get("values") or []
        action = values[0] if values else match["action"]
        try:
            await handle_click(interaction, int(match["game"]), int(match["version"]), action)
        except Exception as error:
            await reply_error(interaction, error)


# --- modal submits -----------------------------------------------------------------------


async def on_modal_submit(interaction: discord.Interaction) -> None:
    """Route a submitted table modal: the move is the ``?`` action plus the typed text."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return
    data: Any = interaction.data or {}
    match = CUSTOM_ID.fullmatch(str(data.get("custom_id", "")))
    if match is None or not match["action"].startswith(ASK_TEXT):
        return
    try:
        # What was typed is checked here, not trusted to the form's own limits.
        table = await tables_of(interaction).fetch(int(match["game"]))
        spec = modal_spec(table, interaction.user.id, match["action"])
        typed = check_typed(typed_text(data), spec.label.lower(), limit=spec.max_length)
        action = f"{match['action'][len(ASK_TEXT) :]}:{typed}"
        await handle_click(interaction, int(match["game"]), int(match["version"]), action)
    except Exception as error:
        await reply_error(interaction, error, view=await type_again(interaction, match))
