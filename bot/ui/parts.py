"""Panels to Discord messages: the keyword arguments to send or edit one (content, embed,
picture, buttons and menus), and which attachment of a table message already shows a picture.

Every control's custom_id is ``qt:<game id>:<version>:<action>`` (:func:`custom_id`), so one
route takes clicks on any table message, including messages sent before a restart
(:mod:`bot.ui.router`, :mod:`bot.ui.controls`).
"""

from __future__ import annotations

import functools
import io
import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.tables.table import Table
from bot.tables.views import Control, Panel
from bot.words.text import plain_text

CUSTOM_ID = re.compile(r"qt:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<action>.{1,80})")
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def custom_id(game_id: int, version: int, action: str) -> str:
    return f"qt:{game_id}:{version}:{action}"


ROW_WIDTH, ROWS = 5, 5
"""Discord's grid: five rows, each five buttons wide; a select menu takes a whole row."""


class LaidOut(discord.ui.View):
    """A message's buttons and menus as the components it sends, laid out in rows the way
    discord.py lays out its items. It holds no item: clicks on them reach their handler by
    custom_id (:mod:`bot.ui.controls`), not through this view, so discord.py never keeps it,
    and nothing refers back to it once the message is sent (a view of items is a reference
    cycle, freed only by the cycle collector)."""

    def __init__(self, components: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self._components = components

    @classmethod
    def of(cls, view: discord.ui.View) -> LaidOut:
        """The components of a view of discord.py's items, as discord.py lays them out."""
        components = view.to_components()
        view.clear_items()  # (unlinks the items from the view: no cycle left behind)
        return cls(components)

    def to_components(self) -> list[dict[str, Any]]:
        return self._components


def build_view(panel: Panel, game_id: int, version: int) -> discord.ui.View | None:
    """The panel's controls laid out in rows. A button's component is made by discord.py
    once and kept (:func:`_button_dict`): only its custom_id, which carries the table's
    version, is new for each message."""
    if not panel.controls:
        return None
    rows: list[list[dict[str, Any]]] = [[] for _ in range(ROWS)]
    for control, row in zip(panel.controls, _rows(panel.controls), strict=True):
        cid = control.custom_id or custom_id(game_id, version, control.action)
        if control.is_select:  # (a hand's cards: seldom the same twice, not worth keeping)
            rows[row].append(_component(control, cid).to_component_dict())
        else:
            rows[row].append({**_button_dict(control), "custom_id": cid})
    return LaidOut([{"type": 1, "components": row} for row in rows if row])


def _rows(controls: list[Control]) -> list[int]:
    """The row of each control, as discord.py places items added in order: where the
    control asks, else the first row with room for it."""
    if len(controls) > ROWS * ROW_WIDTH:
        raise ValueError(f"{len(controls)} controls: a message holds at most 25")
    used = [0] * ROWS
    placed = []
    for control in controls:
        width = ROW_WIDTH if control.is_select else 1
        row = control.row
        if row is None:
            row = next((i for i, w in enumerate(used) if w + width <= ROW_WIDTH), None)
            if row is None:
                raise ValueError(f"no room left for {control.label!r}")
        elif used[row] + width > ROW_WIDTH:
            raise ValueError(f"{control.label!r} does not fit in row {row}")
        used[row] += width
        placed.append(row)
    return placed


@functools.lru_cache(maxsize=2048)
def _button_dict(control: Control) -> dict[str, Any]:
    """The button's component as discord.py writes it, its custom_id set per message.
    Tables show the same few buttons again and again: made once, not at every click
    (at most 2,048 kept, under a kilobyte each)."""
    return dict(_component(control, "").to_component_dict())


def _component(control: Control, cid: str) -> discord.ui.Item[Any]:
    """discord.py's item for a control (only rendered: never listened to)."""
    if control.is_select:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=cid,
            placeholder=plain_text(control.placeholder or control.label),
            options=[
                discord.SelectOption(
                    label=plain_text(o.label),
                    value=o.value,
                    description=None if o.description is None else plain_text(o.description),
                    emoji=o.emoji,
                    default=o.default,
                )
                for o in control.options
            ],
            disabled=control.disabled,
            row=control.row,
        )
        return select
    button: discord.ui.Button[Any] = discord.ui.Button(
        custom_id=cid,
        label=plain_text(control.label),
        style=STYLES[control.style],
        emoji=control.emoji,
        disabled=control.disabled,
        row=control.row,
    )
    return button


def message_parts(panel: Panel, game_id: int) -> dict[str, Any]:
    """Keyword arguments for send/edit: content, embed, attachments and view.

    Names in the panel are in their escaped form (:func:`bot.words.text.safe_name`); the footer,
    like every button label and select option, shows text as it is (no markdown), so there
    they are given back as written (:func:`bot.words.text.plain_text`)."""
    embed = discord.Embed(
        title=panel.title, description=panel.description or None, colour=panel.colour
    )
    for item in panel.fields:
        embed.add_field(name=item.name, value=item.value, inline=item.inline)
    if panel.footer:
        embed.set_footer(text=plain_text(panel.footer))
    files: list[discord.File] = []
    if panel.image_png is not None:
        files.append(discord.File(io.BytesIO(panel.image_png), filename=panel.image_name))
        embed.set_image(url=f"attachment://{panel.image_name}")
    return {
        "content": panel.content,
        "embed": embed,
        "files": files,
        "view": build_view(panel, game_id, panel.version),
    }


@dataclass(frozen=True)
class KeptAttachment:
    """An attachment the edited message has already and keeps (listed by its id)."""

    id: int

    def to_dict(self) -> dict[str, Any]:
        return {"id": str(self.id)}


def edit_parts(panel: Panel, game_id: int, kept: int | None = None) -> dict[str, Any]:
    """Like :func:`message_parts`, for editing: new attachments replace the old ones. A
    panel without its picture (the message carries it already) keeps attachment ``kept``."""
    parts = message_parts(panel, game_id)
    parts["attachments"] = parts.pop("files")
    if panel.image_png is None and panel.picture is not None and kept is not None:
        parts["embed"].set_image(url=f"attachment://{panel.image_name}")
        parts["attachments"] = [KeptAttachment(kept)]
    return parts


def kept_picture(table: Table, panel: Panel) -> int | None:
    """The attachment of the table message that already shows ``panel``'s picture."""
    carried = table.shown_picture
    if carried is None or panel.picture is None:
        return None
    message_id, picture, attachment_id = carried
    if message_id != table.record.message_id or picture != panel.picture:
        return None
    return attachment_id


def carried_picture(table: Table, panel: Panel, message: discord.Message | None) -> None:
    """Remember which attachment of the table message (as Discord answered an edit with it)
    shows ``panel``'s picture, so an answer with the same picture keeps it."""
    found = None
    if message is not None and panel.picture is not None and panel.image_name:
        found = next((a for a in message.attachments if a.filename == panel.image_name), None)
    if found is None or message is None or panel.picture is None:
        table.shown_picture = None
    else:
        table.shown_picture = (message.id, panel.picture, found.id)
