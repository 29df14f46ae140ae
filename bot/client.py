"""The bot: owns the database and the table manager, loads the cogs, syncs commands."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from discord.gateway import DiscordWebSocket

from bot import ops, words
from bot.cluster.keeper import LeaseKeeper
from bot.cluster.sharding import ShardSet, shard_of
from bot.cluster.speech import ShardPresenter
from bot.config import Settings
from bot.games import all_games
from bot.ops import memory
from bot.ops.monitor import report_stalls
from bot.render.cache import MIB, PICTURES
from bot.storage.db import Database
from bot.storage.housekeeping import keep_replays
from bot.storage.leases import Holder, LeaseStore
from bot.storage.reviews import ReviewStore
from bot.tables.manager import TableManager
from bot.tables.protocols import GameSpec
from bot.tables.thinking import Thinker
from bot.ui.answers import watch as watch_interaction
from bot.ui.controls import Controls
from bot.ui.errors import reply_error
from bot.ui.presenter import DiscordPresenter
from bot.ui.router import TableComponent, on_modal_submit

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


IDENTIFY_WINDOW = 5.25
"""Seconds between two IDENTIFYs of one rate-limit bucket, across every process of the bot:
Discord's five, and a little for the clocks of the database and of Discord."""


def invite_url(application_id: int) -> str:
    return discord.utils.oauth_url(
        application_id, permissions=PERMISSIONS, scopes=("bot", "applications.commands")
    )


class QuantumTableBot(commands.AutoShardedBot):
    """Quantum Table. No privileged intents: slash commands and components only.

    Auto-sharded: without ``SHARD_COUNT`` it connects every shard Discord recommends; with
    ``SHARD_COUNT`` and ``SHARD_IDS`` only those shards, and it hosts only the tables of the
    servers on them (other processes run the rest, on the same database). Before it
    connects a shard it holds that shard's lease (``bot.cluster.keeper``): with
    ``SHARD_IDS=auto`` it takes free shards or waits as a standby; a shard it loses is
    closed at once and its tables let go.
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
        self.metrics = ops.Metrics()  # served on METRICS_PORT (see bot.ops)
        # No voice here: discord.py's start-up notes about missing voice libraries are noise.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            owner_ids=set(settings.owner_ids) or None,
            http_trace=self.metrics.http_trace,
        )
        self.settings = settings
        words.set_default(settings.language)  # what players read (LANGUAGE)
        self.log_invite = log_invite
        self.games: dict[str, GameSpec] = games if games is not None else all_games()
        self.started_at = time.time()
        self.restored = asyncio.Event()
        self._sessions: set[int] = set()
        self._connected = asyncio.Event()
        """Set once every shard of this process has its gateway session."""
        self._ops: ops.OpsServer | None = None
        self.controls = Controls()
        """Buttons and menus routed by custom_id (the table's, replays', leaderboards'...)."""
        self.db: Database
        self.tables: TableManager
        self.keeper: LeaseKeeper | None = None
        self._claimed: dict[int, int] = {}
        """Shards claimed before logging in (see :meth:`login`)."""
        self.max_concurrency = 1
        """Discord's ``session_start_limit.max_concurrency``: IDENTIFY buckets per 5 s."""
        self.wait_for_shards = False
        """Wait as a standby for the shards instead of refusing to start when they are held
        (set for a process that lost its shards and starts again)."""
        self.lost_every_shard = False
        """True once every shard of this process was taken over: it closed, and
        ``python -m bot`` starts a fresh one that waits as a standby."""
        self._closing = False

    async def login(self, token: str) -> None:
        """Refuse before logging in to Discord or opening a port: with the shard count
        known (``SHARD_COUNT``), a process for shards a live process holds (exact
        ``SHARD_IDS``) claims them now, and any process checks the cluster's shard count,
        so a refused one says its one line having touched nothing else."""
        count = self.settings.shard_count
        if count is not None and not self.wait_for_shards:
            self.db = await Database.open(self.settings.database)
            keeper = self._new_keeper(count)
            if keeper.wanted is not None:
                self._claimed = await keeper.acquire(wait=False)
            else:
                await keeper.store.check_count(keeper.holder, count)
        try:
            await super().login(token)
        except BaseException:
            if self.keeper is not None and self._claimed:
                await self.keeper.release()
            raise

    async def setup_hook(self) -> None:
        PICTURES.resize(int(self.settings.picture_cache_mb * MIB))
        if not hasattr(self, "db"):
            self.db = await Database.open(self.settings.database)
        self._ops = await ops.serve(self)  # /healthz and /metrics answer from here on
        if not await self._hold_shards():
            return  # stopped while waiting as a standby
        self.tables = TableManager(
            self.db,
            self.games,
            ShardPresenter(DiscordPresenter(self), self.may_act),
            ai_delay=self.settings.ai_delay,
            turn_timeout=self.settings.turn_timeout,
            thinker=Thinker(
                self.games.values(),
                budget=self.settings.ai_budget,
                workers=self.settings.ai_workers,
            ),
        )
        self.tables.may_act = self.may_act
        self._guard_interactions()
        ops.wire(self)
        # AI decisions run in worker processes, started (and warmed) while we connect.
        await self.tables.thinker.start()
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        self.controls.add(TableComponent)
        self.add_listener(self.controls.dispatch, "on_interaction")  # clicks, by custom_id
        self.add_listener(on_modal_submit, "on_interaction")  # table modals (text prompts)
        self.add_listener(self._watch, "on_interaction")  # every interaction is answered
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.tables.shards = self.shard_set()
        if self.syncs_commands:
            await self.sync_commands()
        else:
            log.info("Commands are synced by the process that runs shard 0")
        self._restore_task = asyncio.create_task(self._restore(), name="restore-tables")
        if self.syncs_commands and self.settings.replay_days > 0:
            self._housekeeping = asyncio.create_task(
                keep_replays(self.db, days=self.settings.replay_days, also=[ReviewStore(self.db)]),
                name="keep-replays",
            )
        self._trimmer = asyncio.create_task(memory.keep_trimmed(), name="memory-trim")
        if self.settings.loop_report > 0 or self._ops is not None:
            self._monitor = asyncio.create_task(
                report_stalls(
                    self.settings.loop_report,
                    observe=self.metrics.loop_stalled,
                    worst_of_window=self.metrics.loop_window,
                ),
                name="loop-monitor",
            )

    # --- shards and their leases -------------------------------------------------------

    async def _gateway_limits(self) -> tuple[int, int]:
        """The shard count (``SHARD_COUNT``, else Discord's recommendation) and Discord's
        ``max_concurrency`` from ``GET /gateway/bot``."""
        recommended, _url, limits = await self.http.get_bot_gateway()
        count = self.settings.shard_count or recommended
        return count, max(1, int(limits.get("max_concurrency", 1)))

    async def _hold_shards(self) -> bool:
        """Claim this process's shards before connecting any (False: stopped meanwhile)."""
        count, self.max_concurrency = await self._gateway_limits()
        keeper = self.keeper or self._new_keeper(count)
        claimed = self._claimed or await keeper.acquire(
            wait=keeper.wanted is None or self.wait_for_shards
        )
        if not claimed:
            return False
        self.shard_count = count
        self.shard_ids = keeper.shard_ids
        self.db.fence = keeper.fence
        for shard_id, epoch in claimed.items():
            self.metrics.set_lease(shard_id, epoch)
        keeper.start(
            self._shards_lost,
            self._database_back,
            on_gained=self._shards_gained,
            on_handover=self._hand_over,
        )
        return True

    def _new_keeper(self, count: int) -> LeaseKeeper:
        """The keeper of this process's shard leases, for a cluster of ``count`` shards."""
        wanted = self.settings.shard_ids
        shard_ids = None if wanted == "auto" else list(wanted or range(count))
        self.keeper = keeper = LeaseKeeper(
            LeaseStore(self.db),
            shard_count=count,
            shard_ids=shard_ids,
            per_process=self.settings.shards_per_process,
            ceiling=self.settings.shards_ceiling,
            ttl=self.settings.lease_seconds,
            holder=Holder.here(self.settings.host_name),
        )
        keeper.on_outage = self.metrics.database_outages.inc
        return keeper

    def may_act(self, guild_id: int | None) -> bool:
        """Whether this process may act for a server now: it holds the server's shard, has
        renewed the lease lately, and is not shutting down."""
        keeper = self.keeper
        if keeper is None or self._closing:
            return False
        return keeper.valid(shard_of(guild_id, keeper.shard_count))

    def _riding_out(self, guild_id: int | None) -> bool:
        """Whether the server's shard is this process's but the database is away: its
        interactions are answered (a move gets the polite "couldn't be saved just now"),
        since nobody else can hold the shard meanwhile; the table writes nothing, as every
        write needs the database and is fenced there."""
        keeper = self.keeper
        if keeper is None or self._closing:
            return False
        return keeper.riding_out(shard_of(guild_id, keeper.shard_count))

    async def _shards_gained(self, shards: set[int]) -> None:
        """Shards nobody held are this process's now: their tables are restored first (a
        click finds them), then their gateway sessions connect (Discord's start limit
        between them, booked across processes)."""
        keeper = self.keeper
        assert keeper is not None
        for shard_id in shards:
            self.metrics.set_lease(shard_id, keeper.epochs[shard_id])
        self.shard_ids = keeper.shard_ids
        self._connection.shard_ids = self.shard_ids
        if hasattr(self, "tables"):
            self.tables.shards = self.shard_set()
            restored = await self.tables.restorer.restore(
                only=ShardSet(tuple(sorted(shards)), keeper.shard_count)
            )
        else:
            restored = 0
        log.warning(
            "Took shard(s) %s over: %d table(s) restored; connecting them",
            ",".join(map(str, sorted(shards))),
            restored,
        )
        for shard_id in sorted(shards):
            if not self._closing:
                await self.launch_shard(DiscordWebSocket.DEFAULT_GATEWAY, shard_id)

    async def _hand_over(self, shards: set[int]) -> None:
        """Shards this process holds beyond its share go to a process that waits: their
        tables are let go (moves under way finish saving first) and their sessions close;
        the keeper then releases the leases."""
        keeper = self.keeper
        assert keeper is not None
        self.shard_ids = keeper.shard_ids
        self._connection.shard_ids = self.shard_ids
        if hasattr(self, "tables"):
            await self.tables.settle()
            await self.tables.drop_shards(self.shard_set())
        for shard_id in shards:
            self.metrics.clear_lease(shard_id)
            self._sessions.discard(shard_id)
            info = self.get_shard(shard_id)
            if info is not None:
                await info.disconnect()

    async def _database_back(self, away: float) -> None:
        """The database answers again and the shards are still ours: the time it was away
        is forgiven on every turn clock, and the tables carry on."""
        if not hasattr(self, "tables"):
            return
        forgiven = await self.tables.restorer.forgive_outage()
        log.info(
            "Carrying on after %.1f s without the database: %d table(s), %d turn clock(s) moved on",
            away,
            len(self.tables.tables()),
            forgiven,
        )

    def _guard_interactions(self) -> None:
        """Drop interactions for shards this process may not act for before discord.py
        sees them: Discord delivers a shard's interactions to every session connected for
        it, and only the shard's holder may answer."""
        parsers = self._connection.parsers
        parse = parsers["INTERACTION_CREATE"]

        def guarded(data: dict[str, Any]) -> None:
            raw = data.get("guild_id")
            guild_id = int(raw) if raw is not None else None
            if self.may_act(guild_id) or self._riding_out(guild_id):
                parse(data)
            else:
                log.warning(
                    "Ignored an interaction for server %s: this process does not hold its shard",
                    guild_id,
                )

        parsers["INTERACTION_CREATE"] = guarded

    async def launch_shards(self) -> None:
        """Connect this process's shards, unless the bot is closing (a standby stopped while
        it waited holds none, and its HTTP session is already closed)."""
        if self._closing:
            return
        await super().launch_shards()

    async def launch_shard(self, gateway: Any, shard_id: int, *, initial: bool = False) -> None:
        """Connect a shard, unless the bot is closing: a standby stopped while it waited
        would otherwise connect after ``setup_hook`` (the close is still under way), and
        discord.py retries a failed connection for ever. A connection that fails because
        the bot closed meanwhile (stopped while waiting for its IDENTIFY slot) is expected:
        discord.py's error line for it is told as what it is."""
        if self._closing:
            return
        quiet = _ClosingShardFilter(self)
        shard_log = logging.getLogger("discord.shard")
        shard_log.addFilter(quiet)
        try:
            await super().launch_shard(gateway, shard_id, initial=initial)
        finally:
            shard_log.removeFilter(quiet)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Discord starts ``max_concurrency`` sessions per 5 seconds, one per bucket
        (``shard_id % max_concurrency``), across all of the bot's processes: book the
        bucket's next slot in the shared database and wait for it. Shards of different
        buckets start together."""
        if self.keeper is None or shard_id is None:
            return await super().before_identify_hook(shard_id, initial=initial)
        try:
            delay = await self.keeper.store.reserve_identify(
                shard_id, self.max_concurrency, IDENTIFY_WINDOW
            )
        except Exception:
            log.warning("Could not book an IDENTIFY slot; waiting %.1f s", IDENTIFY_WINDOW)
            delay = IDENTIFY_WINDOW
        if delay > 0:
            log.info("Shard %s identifies in %.1f s (Discord's start limit)", shard_id, delay)
            await asyncio.sleep(delay)

    async def _shards_lost(self, shards: set[int], reason: str) -> None:
        """Another process holds these shards now: stop driving their tables, close their
        gateway connections (so this process hears and answers nothing for them)."""
        keeper = self.keeper
        assert keeper is not None
        remaining = keeper.shard_ids
        for shard_id in shards:
            self.metrics.clear_lease(shard_id)
        dropped = 0
        if hasattr(self, "tables"):
            dropped = await self.tables.drop_shards(ShardSet(tuple(remaining), keeper.shard_count))
        log.warning(
            "Shard(s) %s are no longer ours (%s): let %d table(s) go; closing their connections",
            ",".join(map(str, sorted(shards))),
            reason,
            dropped,
        )
        if not remaining:
            self.lost_every_shard = True
            await self.close()
            return
        for shard_id in shards:
            info = self.get_shard(shard_id)
            if info is not None:
                await info.disconnect()

    @property
    def syncs_commands(self) -> bool:
        """Commands are global: one process syncs them, the one that runs shard 0."""
        return self.shard_ids is None or 0 in self.shard_ids

    def shard_set(self) -> ShardSet | None:
        """The shards this process holds now, or None when it holds them all."""
        if self.keeper is None:
            return ShardSet((), 1)
        shards = ShardSet(tuple(self.keeper.shard_ids), self.keeper.shard_count)
        return None if shards.is_everything else shards

    async def on_shard_connect(self, shard_id: int) -> None:
        """A shard has its gateway session (READY): its interactions reach us from now on."""
        self._sessions.add(shard_id)
        if self.shard_ids is None or set(self.shard_ids) <= self._sessions:
            self._connected.set()

    async def _restore(self) -> None:
        """Bring the tables back while the shards connect (messages are edited over REST,
        which needs no gateway session); ready once both are done. discord.py's own
        ``on_ready`` comes later still (it waits for quiet after the last server arrives)."""
        try:
            self.tables.shards = self.shard_set()
            count = await self.tables.restore()
            await self._connected.wait()
            log.info("Restored %d live table(s) (%s)", count, self.tables.shards or "all shards")
        except Exception:
            log.exception("Restoring tables failed")
        finally:
            memory.settle()
            self.restored.set()

    def health(self) -> dict[str, Any]:
        """What /healthz answers: ready once every shard this process runs is connected and
        its tables are restored; ``missing`` says what is not there yet."""
        keeper = self.keeper
        expected = keeper.shard_ids if keeper is not None else []
        connected = sorted(i for i, shard in self.shards.items() if not shard.is_closed())
        missing = [f"shard {i} not connected" for i in expected if i not in connected]
        if keeper is None:
            missing.append("no shard lease claimed yet")
        elif keeper.standby:
            missing.append("standby: waiting for a shard lease to come free")
        elif not expected:
            missing.append("holds no shard")
        if keeper is not None and keeper.away_since is not None:
            missing.append(f"database away for {keeper.clock() - keeper.away_since:.0f} s")
        if keeper is not None:
            missing += [
                f"shard {i} lease not renewed lately" for i in expected if not keeper.valid(i)
            ]
        if not self.restored.is_set():
            missing.append("tables not restored yet")
        return {
            "ready": not missing,
            "standby": bool(keeper and keeper.standby),
            "leases": {str(i): e for i, e in sorted((keeper.epochs if keeper else {}).items())},
            "shards": {"expected": expected, "connected": connected},
            "restored": self.restored.is_set(),
            "missing": missing,
        }

    async def on_ready(self) -> None:
        assert self.user is not None
        log.info("Online as %s in %d server(s)", self.user, len(self.guilds))
        if self.application_id and self.log_invite:
            log.info("Invite me with: %s", invite_url(self.application_id))

    async def _watch(self, interaction: discord.Interaction) -> None:
        await watch_interaction(interaction, handled=self.controls.handles)

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
        """Shut down in the order that hands over cleanly: stop answering and acting, let
        moves under way finish saving, stop the tables, let the shards' leases go (a standby
        takes them at once), close the database, then the gateway connections."""
        if self._closing:
            return await super().close()
        self._closing = True
        if self.keeper is not None:
            self.keeper.stop()
        if self._ops is not None:
            await self._ops.stop()
        restoring = getattr(self, "_restore_task", None)
        if restoring is not None and not restoring.done():
            restoring.cancel()
        for name in ("_monitor", "_housekeeping", "_trimmer"):
            task = getattr(self, name, None)
            if task is not None:
                task.cancel()
        if hasattr(self, "tables"):
            await self.tables.settle()
            await self.tables.close()
        if self.keeper is not None:
            await self.keeper.release()
        if hasattr(self, "db"):
            await self.db.close()
        await super().close()


class _ClosingShardFilter(logging.Filter):
    """discord.py logs a shard that could not connect as an error with its traceback; when
    the bot was closing meanwhile, that is the shutdown at work: one info line instead."""

    def __init__(self, bot: QuantumTableBot) -> None:
        super().__init__()
        self.bot = bot

    def filter(self, record: logging.LogRecord) -> bool:
        if self.bot._closing and record.getMessage().startswith("Failed to connect for shard"):
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.msg, record.args, record.exc_info, record.exc_text = (
                "Shard not connected: the bot is closing",
                (),
                None,
                None,
            )
        return True
