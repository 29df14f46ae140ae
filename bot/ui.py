"""The Discord side of tables: panels to messages, clicks to table calls, errors to replies.

Every control's custom_id is ``qt:<game id>:<version>:<action>``, so one
:class:`~discord.ui.DynamicItem` per component type routes clicks on any table message,
including messages sent before a restart.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import answers
from bot.engines.base import GameError
from bot.storage.backends import is_unavailable
from bot.storage.leases import LeaseLost
from bot.tables import confirm
from bot.tables.manager import Person, TableManager
from bot.tables.panels import take_back_hint
from bot.tables.protocols import NotSeated, NotYourTurn
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
    Control,
    ModalSpec,
    Panel,
)
from bot.text import check_typed, plain_text, safe_name

if TYPE_CHECKING:
    from bot.client import QuantumTableBot

log = logging.getLogger(__name__)

CUSTOM_ID = re.compile(r"qt:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<action>.{1,80})")
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def custom_id(game_id: int, version: int, action: str) -> str:
    return f"qt:{game_id}:{version}:{action}"


def person(user: discord.abc.User) -> Person:
    """The person behind ``user``; their display name made safe to show (see :mod:`bot.text`)."""
    return Person(
        id=user.id, name=safe_name(user.display_name, fallback=f"Player {user.id % 1000}")
    )


def is_manager(interaction: discord.Interaction) -> bool:
    """Whether the user may cancel games and remove players in this channel."""
    return bool(interaction.permissions.manage_guild)


# --- panels to message parts --------------------------------------------------------------


class LaidOut(discord.ui.View):
    """A message's buttons and menus, laid out once by discord.py (its items, its rows) and
    kept as the components it sends. It holds no item: clicks on them reach the table through
    :class:`TableComponent`, not through this view, so discord.py never keeps it, and nothing
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
        return select if control.custom_id else TableComponent(select)
    button: discord.ui.Button[Any] = discord.ui.Button(
        custom_id=cid,
        label=plain_text(control.label),
        style=STYLES[control.style],
        emoji=control.emoji,
        disabled=control.disabled,
        row=control.row,
    )
    return button if control.custom_id else TableComponent(button)


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


# --- the presenter ------------------------------------------------------------------------


PING_TRIES = 3
"""Times a turn message is sent while Discord answers that the bot sends too much."""
TOKEN_LIFETIME = 14 * 60.0
"""Seconds an interaction's token is used to edit its private reply (Discord allows 15 min)."""


@dataclass
class LiveView:
    """A person's open private reply at a table, kept up to date through an interaction token."""

    interaction: discord.Interaction
    message_id: int
    version: int
    since: float = field(default_factory=time.monotonic)

    @property
    def expired(self) -> bool:
        return time.monotonic() - self.since > TOKEN_LIFETIME


class DiscordPresenter:
    """Shows tables in Discord: edits the table message, posts short announcements, and keeps
    each seated person's private reply current (edited in place while Discord allows)."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self.live: dict[tuple[int, int], LiveView] = {}
        """(game id, user id) -> the person's newest private reply at that table."""
        self._updating: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()

    async def ping(self, table: Table, user_id: int, text: str) -> int | None:
        channel = self.bot.get_partial_messageable(table.location_id)
        jump = ""
        if table.record.message_id is not None and table.record.guild_id:
            jump = (
                f" https://discord.com/channels/{table.record.guild_id}/"
                f"{table.location_id}/{table.record.message_id}"
            )
        for attempt in range(PING_TRIES):
            try:
                message = await channel.send(
                    f"<@{user_id}> {text}{jump}",
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
                    suppress_embeds=True,
                )
            except discord.HTTPException as error:
                # A burst of new turns (many tables starting at once) can outlast
                # discord.py's own retries of Discord's global limit: a turn message can
                # wait a little longer.
                if error.status != 429 or attempt == PING_TRIES - 1:
                    raise
                await asyncio.sleep(1.0 + attempt)
            else:
                return message.id
        return None

    async def unping(self, table: Table, message_id: int) -> None:
        channel = self.bot.get_partial_messageable(table.location_id)
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.NotFound:
            pass  # someone removed it already

    def remember(
        self, table: Table, interaction: discord.Interaction, message_id: int, version: int
    ) -> None:
        """``interaction`` answered with the person's private view (``message_id``)."""
        self.live[(table.id, interaction.user.id)] = LiveView(interaction, message_id, version)
        if version != table.record.version:
            # The table moved on while this answer was drawn (an AI is quick): bring it up
            # to date now, since the background update may have come before this answer.
            self.private_changed(table)

    def private_changed(self, table: Table) -> None:
        if not any(game_id == table.id for game_id, _ in self.live):
            return
        if table.id in self._updating:
            self._again.add(table.id)  # one more pass once the running one is done
            return
        task = asyncio.create_task(self._update_views(table), name=f"private-{table.id}")
        self._updating[table.id] = task
        task.add_done_callback(lambda _: self._updating.pop(table.id, None))

    async def _update_views(self, table: Table) -> None:
        while True:
            self._again.discard(table.id)
            for (game_id, user_id), live in list(self.live.items()):
                if game_id == table.id:
                    await self._update_view(table, user_id, live)
            if table.id not in self._again:
                return

    async def _update_view(self, table: Table, user_id: int, live: LiveView) -> None:
        key = (table.id, user_id)
        if live.expired:
            del self.live[key]  # the next click on the table or My hand opens a fresh one
            return
        if live.version == table.record.version and table.record.is_live:
            return  # already showing this (the person's own click answered with it)
        manager: TableManager = self.bot.tables  # type: ignore[attr-defined]
        version = table.record.version
        try:
            if table.record.status == "active":
                panel = await manager.private_panel(table.id, user_id, returning=False)
                parts = edit_parts(panel, table.id)
            else:
                word = "is over" if table.record.status == "finished" else "was cancelled"
                parts = {
                    "content": f"The game {word}: see the table for how it ended.",
                    "embed": None,
                    "attachments": [],
                    "view": None,
                }
            await live.interaction.followup.edit_message(live.message_id, **parts)
        except GameError:
            self.live.pop(key, None)  # no longer seated
            return
        except discord.HTTPException as error:
            # Dismissed by the person, or the token ran out early: stop following it.
            log.info("Private view of game %s stopped updating: %s", table.id, error)
            self.live.pop(key, None)
            return
        if not table.record.is_live:
            self.live.pop(key, None)
        elif self.live.get(key) is live:
            # Only the reply we edited: an answer that replaced it meanwhile keeps its own
            # version, so the next pass brings that one up to date too.
            live.version = version

    async def show(self, table: Table, panel: Panel) -> int | None:
        if table.record.message_id is None:
            return None
        channel = self.bot.get_partial_messageable(table.location_id)
        message = channel.get_partial_message(table.record.message_id)
        try:
            edited = await message.edit(**edit_parts(panel, table.id))
        except discord.NotFound:
            # Someone deleted the table message: post the table again rather than lose it.
            table.shown_picture = None
            if not table.record.is_live:
                return None
            log.info("Table message of game %s is gone; posting it again", table.id)
            reposted = await channel.send(**message_parts(panel, table.id))
            carried_picture(table, panel, reposted)
            return reposted.id
        carried_picture(table, panel, edited)
        return None

    async def announce(self, table: Table, text: str, mention: int | None = None) -> None:
        channel = self.bot.get_partial_messageable(table.location_id)
        content = f"<@{mention}> {text}" if mention else text
        allowed = discord.AllowedMentions(users=[discord.Object(mention)] if mention else False)
        await channel.send(content, allowed_mentions=allowed)


# --- errors -------------------------------------------------------------------------------


SAVE_FAILED = "That couldn't be saved just now, so nothing changed. Please try again in a moment."


async def reply_error(
    interaction: discord.Interaction, error: BaseException, *, view: discord.ui.View | None = None
) -> None:
    """The one place errors become replies: readable for players, logged for us. ``view``:
    a way on from a refusal a player can read (not given with any other error)."""
    original = getattr(error, "original", error)
    if isinstance(original, LeaseLost):
        # Another process holds this server's shard now, and it answers the interaction.
        log.warning("Not answering an interaction: %s", original)
        answers.keep_silent(interaction)
        return
    if isinstance(original, GameError):
        text = str(original)
    elif isinstance(error, app_commands.CommandOnCooldown):
        text = f"Slow down a little: try again in {error.retry_after:.0f} s."
    elif isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
        text = "You don't have permission to do that here."
    elif isinstance(original, discord.Forbidden):
        text = "I'm missing a permission in this channel (I need to send messages, embed links and attach files)."
        log.warning("Forbidden: %s", original)
    elif is_unavailable(original):
        text = SAVE_FAILED
        _tables(interaction).storage_failed(original)
        log.warning("Storage unavailable during an interaction: %r", original)
    else:
        text = "Something went wrong on our side. It has been logged; please try again."
        log.error("Unhandled error in an interaction", exc_info=original)
    if not isinstance(original, GameError):
        view = None
    try:
        await answers.send(interaction, content=text, ephemeral=True, view=view)
    except discord.HTTPException:
        log.warning("Could not deliver an error reply: %s", text)


# --- clicks -------------------------------------------------------------------------------


def _tables(interaction: discord.Interaction) -> TableManager:
    bot: QuantumTableBot = interaction.client  # type: ignore[assignment]
    return bot.tables


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
    remember = getattr(_tables(interaction).presenter, "remember", None)
    if message_id is not None and remember is not None:  # (a test's presenter may keep none)
        remember(table, interaction, message_id, panel.version)


async def handle_click(
    interaction: discord.Interaction, game_id: int, version: int, action: str
) -> None:
    """A click (or modal submit) on a table: answered within Discord's deadline even when
    storage is slow (see :mod:`bot.answers`)."""
    if action.startswith(ASK_TEXT):
        table = await _tables(interaction).fetch(game_id)
        await open_modal(interaction, table, version, action)  # must be the first answer
        return
    if action == REMATCH:
        async with answers.in_time(interaction, public=True, new_message=True):
            await open_rematch(interaction, game_id)
        return
    async with (
        answers.in_time(interaction, new_message=action in (HAND, REJOIN)),
        _tables(interaction).answering(),
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
    manager = _tables(interaction)
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
    manager = _tables(interaction)
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
            try:
                edited = await answers.edit(interaction, **edit_parts(panel, table.id, kept))
            except BaseException:
                table.shown_picture = None  # not known what the message carries now
                raise
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
    manager, who = _tables(interaction), person(interaction.user)
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
        raise GameError("That control isn't one I know.")
    await answers.edit(interaction, content=done, view=None)
    await manager.refresh(table)


class TableComponent(discord.ui.DynamicItem[discord.ui.Item[Any]], template=CUSTOM_ID):
    """Any button or select menu on any table message, before or after a restart.

    One class serves both kinds: discord.py keeps one dynamic item per custom_id pattern, so
    two classes sharing the pattern would replace each other. A select's chosen value is the
    action; a button's action is in its custom_id.
    """

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableComponent:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        cid = str((interaction.data or {}).get("custom_id") or "")
        try:
            await _dispatch(interaction, cid, values[0] if values else None)
        finally:
            # discord.py built a view of the clicked message's components around this item
            # (they refer to each other); unlinked here, it is freed without the collector.
            if self.view is not None:
                self.view.clear_items()


async def _dispatch(interaction: discord.Interaction, cid: str, value: str | None) -> None:
    match = CUSTOM_ID.fullmatch(cid)
    if match is None:
        return
    action = value if value is not None else match["action"]
    try:
        await handle_click(interaction, int(match["game"]), int(match["version"]), action)
    except Exception as error:
        await reply_error(interaction, error)


# --- text prompts (modals) ----------------------------------------------------------------


def modal_spec(table: Table, user_id: int, action: str) -> ModalSpec:
    """The prompt for a ``?`` action of the person to move, or a GameError saying why not."""
    seat = table.seat_of(user_id)
    if seat is None:
        raise NotSeated("You're not playing at this table, so you can't make moves here.")
    engine, state = table.spec.engine, table.state
    if table.record.status != "active" or state is None:
        raise GameError("The game hasn't started yet.")
    if seat not in engine.to_act(state):
        raise NotYourTurn("It's not your move.")
    prompt = getattr(table.spec.ui, "modal", None)
    spec = prompt(engine.observe(state, seat), action) if prompt is not None else None
    if spec is None:
        raise GameError("That move can't be made now.")
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


def _typed_text(data: Any) -> str:
    """The first text input's value in a modal submit's data (rows or label wrappers)."""
    for top in (data or {}).get("components") or []:
        inner = top.get("components") or ([top["component"]] if "component" in top else [])
        for item in inner:
            if "value" in item:
                return str(item["value"])
    return ""


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
        table = await _tables(interaction).fetch(int(match["game"]))
        spec = modal_spec(table, interaction.user.id, match["action"])
        typed = check_typed(_typed_text(data), spec.label.lower(), limit=spec.max_length)
        action = f"{match['action'][len(ASK_TEXT) :]}:{typed}"
        await handle_click(interaction, int(match["game"]), int(match["version"]), action)
    except Exception as error:
        await reply_error(interaction, error, view=await _type_again(interaction, match))


async def _type_again(
    interaction: discord.Interaction, match: re.Match[str]
) -> discord.ui.View | None:
    """A button that opens the same prompt again, for a refused text whose move is still
    open: the choice that led to it (a Fingers ask) is kept, only the text is typed anew."""
    try:
        table = await _tables(interaction).fetch(int(match["game"]))
        spec = modal_spec(table, interaction.user.id, match["action"])
    except Exception:
        return None  # the move is gone (not their turn any more, the game ended, ...)
    retry = Control(
        match["action"], f"Type another {spec.label.lower()}"[:80], "primary", emoji="✏️"
    )
    return build_view(Panel(title="", controls=[retry]), table.id, int(match["version"]))
