"""A cluster on one machine: the sandbox's loopback Discord and page, and several real
``python -m bot`` processes redirected to it, sharing one database through shard leases.

``python -m bot --processes N [--shards M]`` without a token runs :func:`run_cluster`. The
loopback runs ``M`` shards with a server on each; each process takes free shards
(``SHARD_IDS=auto``, at most ``ceil(M/N)``) or waits as a standby. The page gets a Cluster
panel: which process holds which shard, read from the leases, and buttons that signal a
process (stop, kill, pause, resume) or start it again, to watch a fail-over before going
live. Each process's log comes out on this one's stderr, each line after its name.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import math
import os
import re
import signal
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bot.storage import Database
from bot.storage.errors import StorageError
from bot.storage.leases import Lease, LeaseStore

from .app import create_app
from .run import HOST, PageUnavailable, serve_page
from .world import SandboxDiscord, SandboxWorld, build_world

if TYPE_CHECKING:
    from aiohttp import web

    from bot.config import Settings

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[3]
SITECUSTOMIZE = ROOT / "bot" / "sandbox" / "sitecustomize"
STOP_TIMEOUT = 30.0
"""Seconds a process has to shut down after SIGTERM before it is killed."""
SET_HERE = (  # settings the cluster gives each process, whatever the environment says
    "DISCORD_TOKEN",
    "DEV_GUILD_ID",
    "DATABASE_URL",
    "DATABASE_PATH",
    "SHARD_IDS",
    "SHARD_COUNT",
    "SHARDS_PER_PROCESS",
    "METRICS_PORT",
    "QT_LOOPBACK_URL",
)
STANDBY_LINE = re.compile(r"Standby: ")
HOLDING_LINE = re.compile(r"Holding shard\(s\) ")
READY_LINE = re.compile(r"Restored \d+ live table\(s\)")
HEALTH_LINE = re.compile(r"Health and metrics at (\S+)/healthz")
LOG_LIMIT = 1 << 20  # the longest log line read whole


def _parent_death_signal() -> Callable[[], None] | None:
    """Linux: a function for the child, run between fork and exec, that has the kernel send
    it SIGTERM when this process ends, even by SIGKILL (no bot is left running)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl  # resolved before any fork
    except (OSError, AttributeError):
        return None

    def die_with_parent() -> None:
        prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG

    return die_with_parent


class Child:
    """One ``python -m bot`` of the cluster; its log goes to ``out``, each line after its
    name. Started again as often as the operator likes."""

    def __init__(self, name: str, env: dict[str, str], cwd: Path, out: TextIO) -> None:
        self.name = name
        self.env = env
        self.cwd = cwd
        self.out = out
        self.process: asyncio.subprocess.Process | None = None
        self.paused = False
        self.stopping = False
        self.standby = False
        self.ready = False
        """It restored its shards' tables: it serves them."""
        self.health: str | None = None
        self._reader: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    @property
    def exit_code(self) -> int | None:
        return self.process.returncode if self.process is not None else None

    async def start(self) -> None:
        if self.running:
            raise RuntimeError(f"{self.name} is already running")
        self.paused = self.stopping = self.standby = self.ready = False
        self.health = None
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=self.cwd,
            env=self.env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            limit=LOG_LIMIT,
            preexec_fn=_parent_death_signal(),
        )
        log.info("Started %s (pid %d)", self.name, self.process.pid)
        self._reader = asyncio.create_task(self._read(self.process), name=f"{self.name}-log")

    def send(self, sig: signal.Signals) -> None:
        assert self.process is not None and self.running
        self.process.send_signal(sig)
        if sig == signal.SIGSTOP:
            self.paused = True
        elif sig == signal.SIGCONT:
            self.paused = False
        elif sig == signal.SIGTERM:
            self.stopping = True

    async def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        """SIGTERM (after SIGCONT if paused) and wait; SIGKILL if it does not end in time."""
        process = self.process
        if process is not None and self.running:
            if self.paused:
                self.send(signal.SIGCONT)
            self.send(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), timeout)
            except TimeoutError:
                log.warning("%s did not stop within %.0f s; killing it", self.name, timeout)
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._reader, 5)

    def _note(self, line: str) -> None:
        if STANDBY_LINE.search(line):
            self.standby, self.ready = True, False
        elif HOLDING_LINE.search(line):
            self.standby = False
        elif READY_LINE.search(line):
            self.ready = True
        elif found := HEALTH_LINE.search(line):
            self.health = found.group(1) + "/healthz"

    def _write(self, line: str) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.out.write(f"{self.name} | {line}\n")
            self.out.flush()

    async def _read(self, process: asyncio.subprocess.Process) -> None:
        stream = process.stdout
        assert stream is not None
        while True:
            try:
                raw = await stream.readline()
            except ValueError:  # a line longer than LOG_LIMIT: take it in pieces
                raw = await stream.read(LOG_LIMIT)
            if not raw:
                break
            line = raw.decode(errors="replace").rstrip("\n")
            self._note(line)
            self._write(line)
        code = await process.wait()
        self.paused = self.standby = self.ready = False
        log.info("%s (pid %d) exited with code %d", self.name, process.pid, code)


class SandboxCluster:
    """The loopback Discord with a server on each of ``shards`` shards, the page with its
    Cluster panel, and ``processes`` bot processes; ``async with`` it, then open ``url``."""

    def __init__(
        self,
        settings: Settings,
        *,
        processes: int,
        shards: int,
        port: int | None = None,
        out: TextIO | None = None,
    ) -> None:
        if processes < 1 or shards < 1:
            raise ValueError("a cluster has at least one process and one shard")
        self.settings = settings
        self.shards = shards
        self.port = settings.sandbox_port if port is None else port
        self.out = out or sys.stderr
        self.fake = SandboxDiscord(shards=shards, max_concurrency=shards)
        self.world: SandboxWorld
        self.db: Database | None = None
        self.leases: LeaseStore
        self.children = [Child(f"bot-{i + 1}", {}, Path.cwd(), self.out) for i in range(processes)]
        self.host = settings.host_name or socket.gethostname()
        self.url = ""
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """The loopback, the database (created and migrated before any process starts),
        the page, then every process (without waiting for them: the panel shows them)."""
        await self.fake.start(HOST, 0)
        self.world = build_world(self.fake)
        try:
            self.db = await Database.open(self.settings.database)
            self.leases = LeaseStore(self.db)
            self._runner, self.url = await serve_page(create_app(self.world, self), self.port)
            env = self.child_env()
            for child in self.children:
                child.env = env
                await child.start()
        except BaseException:
            await self.stop()
            raise

    def child_env(self) -> dict[str, str]:
        """A process's environment: this one's, pointed at the loopback, sharing the shards."""
        env = {k: v for k, v in os.environ.items() if k not in SET_HERE}
        paths = [str(SITECUSTOMIZE), str(ROOT)]
        if os.environ.get("PYTHONPATH"):
            paths.append(os.environ["PYTHONPATH"])
        env.update(
            PYTHONPATH=os.pathsep.join(paths),
            PYTHONUNBUFFERED="1",
            QT_LOOPBACK_URL=self.fake.url,
            DISCORD_TOKEN=self.fake.token,
            DEV_GUILD_ID=str(self.world.guild.id),
            DATABASE_PATH=str(Path(self.settings.database_path).resolve()),
            SHARD_IDS="auto",
            SHARD_COUNT=str(self.shards),
            SHARDS_PER_PROCESS=str(math.ceil(self.shards / len(self.children))),
            METRICS_PORT="0",
        )
        if self.settings.database_url:
            env["DATABASE_URL"] = self.settings.database_url
        return env

    async def stop(self) -> None:
        """SIGTERM every process and wait for them all (they hand their shards back), then
        close the page, the database and the loopback."""
        await asyncio.gather(*(child.stop() for child in self.children))
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.db is not None:
            await self.db.close()
            self.db = None
        await self.fake.stop()

    async def __aenter__(self) -> SandboxCluster:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def child(self, name: str) -> Child | None:
        return next((c for c in self.children if c.name == name), None)

    # --- the Cluster panel ----------------------------------------------------------------

    async def snapshot(self) -> dict[str, Any]:
        """Every shard (its server, holder, epoch, seconds left on its lease) and every
        process (its state, the shards it holds live), from the leases as stored now."""
        problem = None
        try:
            assert self.db is not None
            rows, now = await self.leases.all(), await self.leases.now()
        except (StorageError, OSError, AssertionError) as error:
            rows, now, problem = [], 0.0, f"The shard leases cannot be read now: {error}"
        by_pid = {c.pid: c for c in self.children if c.running}
        leases = {lease.shard_id: lease for lease in rows if lease.shard_count == self.shards}
        servers = {self.world.shard(g): g.name for g in self.world.servers}
        held: dict[str, list[int]] = {c.name: [] for c in self.children}
        shards = []
        for shard_id in range(self.shards):
            lease = leases.get(shard_id)
            child = self._holder(lease, by_pid)
            live = lease is not None and lease.live(now)
            if live and child is not None:
                held[child.name].append(shard_id)
            shards.append(
                {
                    "shard": shard_id,
                    "server": servers.get(shard_id, ""),
                    "live": live,
                    "process": child.name if child is not None else None,
                    "holder": lease.who() if lease is not None else None,
                    "pid": lease.pid if lease is not None else None,
                    "epoch": lease.epoch if lease is not None else 0,
                    "expires_in": round(lease.expires_at - now, 1) if lease is not None else None,
                    "released": lease.released if lease is not None else False,
                }
            )
        processes = [
            {
                "name": c.name,
                "pid": c.pid,
                "state": self._state(c, held[c.name]),
                "shards": held[c.name],
                "health": c.health if c.running else None,
                "exit_code": c.exit_code,
            }
            for c in self.children
        ]
        return {
            "shard_count": self.shards,
            "lease_seconds": self.settings.lease_seconds,
            "shards": shards,
            "processes": processes,
            "standby": [p["name"] for p in processes if p["state"] == "standby"],
            "error": problem,
        }

    def _holder(self, lease: Lease | None, by_pid: dict[int | None, Child]) -> Child | None:
        if lease is None or lease.host != self.host:
            return None
        return by_pid.get(lease.pid)

    @staticmethod
    def _state(child: Child, shards: list[int]) -> str:
        if child.process is None:
            return "not started"
        if not child.running:
            return "exited"
        if child.paused:
            return "paused"
        if child.stopping:
            return "stopping"
        if shards and child.ready:
            return "active"
        return "standby" if child.standby and not shards else "starting"

    async def act(self, process: str, action: str) -> str | None:
        """``stop`` (SIGTERM), ``kill`` (SIGKILL), ``pause`` (SIGSTOP), ``resume`` (SIGCONT)
        or ``start`` (again, once it ended); None, or why not."""
        child = self.child(process)
        if child is None:
            return f"No process {process!r} in this cluster."
        signals = {
            "stop": signal.SIGTERM,
            "kill": signal.SIGKILL,
            "pause": signal.SIGSTOP,
            "resume": signal.SIGCONT,
        }
        if action == "start":
            if child.running:
                return f"{child.name} is running: stop or kill it first."
            await child.start()
            return None
        sig = signals.get(action)
        if sig is None:
            return f"Unknown action {action!r}: stop, kill, pause, resume or start."
        if not child.running:
            return f"{child.name} is not running."
        if action == "resume" and not child.paused:
            return f"{child.name} is not paused."
        if action in ("stop", "pause") and child.paused:
            return f"{child.name} is paused: resume it first (or kill it)."
        log.info("%s %s (pid %s) with %s", action.capitalize(), child.name, child.pid, sig.name)
        child.send(sig)
        return None


async def run_cluster(settings: Settings, *, processes: int, shards: int) -> int:
    """``python -m bot --processes N --shards M`` without a token: serve the cluster until
    SIGINT or SIGTERM, then stop every process."""
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()

    def stop(signame: str) -> None:
        if not stopping.is_set():
            log.info("Received %s; stopping every bot process", signame)
            stopping.set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop, sig.name)
    cluster = SandboxCluster(settings, processes=processes, shards=shards)
    try:
        await cluster.start()
    except (PageUnavailable, StorageError) as error:  # the port, or the database: one line
        print(error, file=sys.stderr)
        return 1
    print(
        f"Quantum Table sandbox ({processes} processes, {shards} shards): {cluster.url}",
        flush=True,
    )
    try:
        await stopping.wait()
    finally:
        await cluster.stop()
    return 0
