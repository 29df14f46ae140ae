"""The bot: owns the database and the table manager, loads the cogs, syncs commands."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import memory
from bot.answers import watch as watch_interaction
from bot.config import Settings
from bot.games import all_games
from bot.housekeeping import keep_replays
from bot.monitor import report_stalls
from bot.sharding import ShardSet
from bot.storage.db import Database
from bot.tables.manager import TableManager
from bot.tables.protocols import GameSpec
from bot.tables.thinking import Thinker
from bot.ui import DiscordPresenter, TableComponent, on_modal_submit, reply_error

log = logging.getLogger(__name__)

EXTENSIONS = (
    "bot.cogs.general",
    "bot.cogs.leaderboard",
    "bot.cogs.stats",
    "bot.cogs.history",
    "bot.cogs.admin",
    "bot.cogs.qdice",
    "bot.cogs.qpoker",
    "bot.cogs.flume",
    "bot.cogs.flux",
    "bot.cogs.fingers",
)

# What the bot needs in a channel: read and post, embed the table, attach its picture, and
# open a thread when a game asks for one.
PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)


def invite_url(application_id: int) -> str:
    return discord.utils.oauth_url(
        application_id, permissions=PERMISSIONS, scopes=("bot", "applications.commands")
    )


class QuantumTableBot(commands.AutoShardedBot):
    """Quantum Table. No privileged intents: slash commands and components only.

    Auto-sharded: without ``SHARD_COUNT`` it connects every shard Discord recommends; with
    ``SHARD_COUNT`` and ``SHARD_IDS`` only those shards, and it hosts only the tables of the
    servers on them (other processes run the rest, on the same database).
    """

    def __init__(
        self,
        settings: Settings,
        *,
        games: dict[str, GameSpec] | None = None,
        log_invite: bool = True,
    ) -> None:
        """``log_invite``: log the invite link once online (not against the sandbox, whose
        application id invites nobody)."""
        intents = discord.Intents.none()
        intents.guilds = True
        # No voice here: discord.py's start-up notes about missing voice libraries are noise.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            owner_ids=set(settings.owner_ids) or None,
            shard_count=settings.shard_count,
            shard_ids=settings.shard_ids,
        )
        self.settings = settings
        self.log_invite = log_invite
        self.games: dict[str, GameSpec] = games if games is not None else all_games()
        self.started_at = time.time()
        self.restored = asyncio.Event()
        self._controls: list[re.Pattern[str]] = []  # custom_ids that some handler takes
        self.db: Database
        self.tables: TableManager

    async def setup_hook(self) -> None:
        self.db = await Database.open(self.settings.database)
        self.tables = TableManager(
            self.db,
            self.games,
            DiscordPresenter(self),
            ai_delay=self.settings.ai_delay,
            turn_timeout=self.settings.turn_timeout,
            thinker=Thinker(
                self.games.values(),
                budget=self.settings.ai_budget,
                workers=self.settings.ai_workers,
            ),
        )
        # AI decisions run in worker processes; they build their tables before we connect.
        await self.tables.thinker.start()
        self.tree.on_error = self.on_app_command_error
        self.add_dynamic_items(TableComponent)
        self.add_listener(on_modal_submit, "on_interaction")  # table modals (text prompts)
        self.add_listener(self._watch, "on_interaction")  # every interaction is answered
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.shard_count is not None:
            self.tables.shards = self.shard_set()
        if self.syncs_commands:
            await self.sync_commands()
        else:
            log.info("Commands are synced by the process that runs shard 0")
        self._restore_task = asyncio.create_task(self._restore(), name="restore-tables")
        if self.syncs_commands and self.settings.replay_days > 0:
            self._housekeeping = asyncio.create_task(
                keep_replays(self.db, days=self.settings.replay_days), name="keep-replays"
            )
        if self.settings.loop_report > 0:
            self._monitor = asyncio.create_task(
                report_stalls(self.settings.loop_report), name="loop-monitor"
            )

    @property
    def syncs_commands(self) -> bool:
        """Commands are global: one process syncs them, the one that runs shard 0."""
        return self.shard_ids is None or 0 in self.shard_ids

    def shard_set(self) -> ShardSet | None:
        """The shards this process runs, or None when it runs them all."""
        count = self.shard_count or 1
        shards = ShardSet(tuple(self.shard_ids or range(count)), count)
        return None if shards.is_everything else shards

    async def _restore(self) -> None:
        await self.wait_until_ready()
        try:
            self.tables.shards = self.shard_set()
            count = await self.tables.restore()
            log.info("Restored %d live table(s) (%s)", count, self.tables.shards or "all shards")
        except Exception:
            log.exception("Restoring tables failed")
        finally:
            memory.settle()
            self.restored.set()

    async def on_ready(self) -> None:
        assert self.user is not None
        log.info("Online as %s in %d server(s)", self.user, len(self.guilds))
        if self.application_id and self.log_invite:
            log.info("Invite me with: %s", invite_url(self.application_id))

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        self._controls.extend(item.__discord_ui_compiled_template__ for item in items)

    def handles_control(self, interaction: discord.Interaction) -> bool:
        """Whether a click or form submit reaches a handler here: its custom_id is one that
        some handler takes and, for a click, the message it came from carries it (discord.py
        calls no handler for a control the message does not have)."""
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if not any(pattern.fullmatch(custom_id) for pattern in self._controls):
            return False
        if interaction.type is discord.InteractionType.component and interaction.message:
            return custom_id in _custom_ids(interaction.message.components)
        return True

    async def _watch(self, interaction: discord.Interaction) -> None:
        await watch_interaction(interaction, handled=self.handles_control)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await reply_error(interaction, error)

    # --- command sync ------------------------------------------------------------------

    def _command_hash(self) -> str:
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands()]
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()

    def _hash_file(self) -> Path:
        return Path(self.settings.database_path).with_suffix(".commands.sha256")

    async def sync_commands(self, *, force: bool = False) -> str:
        """Sync to the development guild at once; globally only when the commands changed.

        Global sync is rate limited by Discord, so the hash of the last synced command set is
        kept beside the database and a restart with the same commands skips it.
        """
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("Synced %d commands to the development server %s", len(synced), guild_id)
            return f"synced {len(synced)} commands to the development server"
        digest = self._command_hash()
        marker = self._hash_file()
        if not force and marker.exists() and marker.read_text().strip() == digest:
            log.info("Commands unchanged since the last global sync; not syncing")
            return "commands unchanged; nothing to sync"
        synced = await self.tree.sync()
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(digest)
        log.info("Synced %d global commands", len(synced))
        return f"synced {len(synced)} global commands"

    async def close(self) -> None:
        restoring = getattr(self, "_restore_task", None)
        if restoring is not None and not restoring.done():
            restoring.cancel()
        for name in ("_monitor", "_housekeeping"):
            task = getattr(self, name, None)
            if task is not None:
                task.cancel()
        if hasattr(self, "tables"):
            await self.tables.close()
        if hasattr(self, "db"):
            await self.db.close()
        await super().close()


def _custom_ids(components: Sequence[Any]) -> set[str]:
    """Every custom_id in a message's components, rows and containers included."""
    found: set[str] = set()
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if custom_id:
            found.add(custom_id)
        found |= _custom_ids(getattr(component, "children", None) or [])
    return found
