"""Panels to Discord messages: the keyword arguments to send or edit one (content, embed,
picture, buttons and menus), and which attachment of a table message already shows a picture.

Every control's custom_id is ``qt:<game id>:<version>:<action>`` (:func:`custom_id`), so one
dynamic item routes clicks on any table message, including messages sent before a restart
(:mod:`bot.ui.router`).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.tables.table import Table
from bot.tables.views import Control, Panel
from bot.text import plain_text

CUSTOM_ID = re.compile(r"qt:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<action>.{1,80})")
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def custom_id(game_id: int, version: int, action: str) -> str:
    return f"qt:{game_id}:{version}:{action}"


class LaidOut(discord.ui.View):
    """A message's buttons and menus, laid out once by discord.py (its items, its rows) and
    kept as the components it sends. It holds no item: clicks on them reach the table through
    :class:`bot.ui.router.TableComponent`, not through this view, so discord.py never keeps it, and nothing
    refers back to it once the message is sent (a view of items is a reference cycle, freed
    only by the cycle collector: a table click used to leave two, each of some forty objects,
    which made the collector pause one click in five)."""

    def __init__(self, view: discord.ui.View) -> None:
        super().__init__(timeout=None)
        self._components = view.to_components()
        view.clear_items()  # (unlinks the items from the view: no cycle left behind)

    def to_components(self) -> list[dict[str, Any]]:
        return self._components


def build_view(panel: Panel, game_id: int, version: int) -> discord.ui.View | None:
    if not panel.controls:
        return None
    view = discord.ui.View(timeout=None)
    for control in panel.controls:
        view.add_item(_component(control, game_id, version))
    return LaidOut(view)


def _component(control: Control, game_id: int, version: int) -> discord.ui.Item[Any]:
    """discord.py's item for a control (only laid out and rendered: never listened to)."""
    cid = control.custom_id or custom_id(game_id, version, control.action)
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

    Names in the panel are in their escaped form (:func:`bot.text.safe_name`); the footer,
    like every button label and select option, shows text as it is (no markdown), so there
    they are given back as written (:func:`bot.text.plain_text`)."""
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
    table.shown_picture = None if found is None else (message.id, panel.picture, found.id)  # type: ignore[union-attr]
