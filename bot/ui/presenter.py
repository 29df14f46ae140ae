"""Shows tables in Discord: the table message, announcements and turn pings, and each seated
person's private reply kept current."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field

import discord

from bot.engines.base import GameError
from bot.tables.manager import TableManager
from bot.tables.table import Table
from bot.tables.views import Panel
from bot.ui.parts import carried_picture, edit_parts, message_parts

log = logging.getLogger(__name__)

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
