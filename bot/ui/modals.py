"""Text prompts: the modal a ``?`` action opens, what was typed in it, and a way to type again
after a refusal (the submit itself is routed by :func:`bot.ui.router.on_modal_submit`)."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.engines.base import GameError
from bot.tables.protocols import NotSeated, NotYourTurn
from bot.tables.table import Table
from bot.tables.views import Control, ModalSpec, Panel
from bot.ui.context import tables_of
from bot.ui.parts import build_view, custom_id
from bot.words.text import plain_text


def modal_spec(table: Table, user_id: int, action: str) -> ModalSpec:
    """The prompt for a ``?`` action of the person to move, or a GameError saying why not."""
    seat = table.seat_of(user_id)
    if seat is None:
        raise NotSeated("error-not-playing-moves")
    engine, state = table.spec.engine, table.state
    if table.record.status != "active" or state is None:
        raise GameError("error-not-started")
    if seat not in engine.to_act(state):
        raise NotYourTurn("error-not-your-move-short")
    prompt = getattr(table.spec.ui, "modal", None)
    spec = prompt(engine.observe(state, seat), action) if prompt is not None else None
    if spec is None:
        raise GameError("error-move-not-now")
    return spec


async def open_modal(
    interaction: discord.Interaction, table: Table, version: int, action: str
) -> None:
    """Ask for the text of a ``?`` action; the submit comes back to :func:`on_modal_submit`.

    The modal's custom_id is ``qt:<game>:<version>:<action>``, so the submit is routed by
    its custom_id alone (and still works after a restart).
    """
    spec = modal_spec(table, interaction.user.id, action)
    modal = discord.ui.Modal(
        title=plain_text(spec.title)[:45],
        custom_id=custom_id(table.id, version, action),
        timeout=None,
    )
    modal.add_item(
        discord.ui.TextInput(
            label=plain_text(spec.label)[:45],
            custom_id="text",
            min_length=spec.min_length,
            max_length=spec.max_length,
            placeholder=None if spec.placeholder is None else plain_text(spec.placeholder),
        )
    )
    await interaction.response.send_modal(modal)
    modal.stop()  # not kept in memory: every submit goes through on_modal_submit


def typed_text(data: Any) -> str:
    """The first text input's value in a modal submit's data (rows or label wrappers)."""
    for top in (data or {}).get("components") or []:
        inner = top.get("components") or ([top["component"]] if "component" in top else [])
        for item in inner:
            if "value" in item:
                return str(item["value"])
    return ""


async def type_again(
    interaction: discord.Interaction, match: re.Match[str]
) -> discord.ui.View | None:
    """A button that opens the same prompt again, for a refused text whose move is still
    open: the choice that led to it (a Fingers ask) is kept, only the text is typed anew."""
    try:
        table = await tables_of(interaction).fetch(int(match["game"]))
        spec = modal_spec(table, interaction.user.id, match["action"])
    except Exception:
        return None  # the move is gone (not their turn any more, the game ended, ...)
    retry = Control(
        match["action"], f"Type another {spec.label.lower()}"[:80], "primary", emoji="✏️"
    )
    return build_view(Panel(title="", controls=[retry]), table.id, int(match["version"]))
