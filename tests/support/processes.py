"""``python -m bot`` as real subprocesses against a loopback Discord, for end-to-end tests
and benchmarks: start one with its own settings, read its log, kill it hard, start it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
import time
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SITECUSTOMIZE = ROOT / "bot" / "sandbox" / "sitecustomize"
READY_LINE = re.compile(r"Restored \d+ live table\(s\)")
STANDBY_LINE = re.compile(r"Standby: ")


class BotProcess:
    """One bot process redirected to a loopback Discord by ``QT_LOOPBACK_URL``."""

    def __init__(self, name: str, loopback_url: str, token: str, settings: Mapping[str, str]):
        self.name = name
        self.env = {
            k: v
            for k, v in os.environ.items()
            if k
            not in {
                "DISCORD_TOKEN",
                "DEV_GUILD_ID",
                "DATABASE_URL",
                "SHARD_IDS",
                "SHARD_COUNT",
                "SHARDS_PER_PROCESS",
                "LEASE_SECONDS",
            }
        }
        self.env.update(
            PYTHONPATH=os.pathsep.join([str(SITECUSTOMIZE), str(ROOT)]),
            QT_LOOPBACK_URL=loopback_url,
            DISCORD_TOKEN=token,
            AI_DELAY="0",
            LOG_LEVEL="INFO",
            PYTHONUNBUFFERED="1",
        )
        self.env.update(settings)
        self.lines: list[str] = []
        self.starts = 0
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.returncode is None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    async def start(
        self, *, cwd: Path, timeout: float = 90, ready: re.Pattern[str] = READY_LINE
    ) -> None:
        """Start the bot and wait until it has restored its tables (it is serving then), or
        until it logs ``ready`` (``STANDBY_LINE``: it waits as a standby)."""
        mark = await self.spawn(cwd=cwd)
        await self.wait_for(ready, timeout=timeout, after=mark)

    async def spawn(self, *, cwd: Path) -> int:
        """Start the bot without waiting; the index of its first log line."""
        assert not self.running, f"{self.name} is already running"
        mark = len(self.lines)
        self._process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=cwd,
            env=self.env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        self.starts += 1
        self._reader = asyncio.create_task(self._read(self._process), name=f"{self.name}-log")
        return mark

    async def exit_code(self, timeout: float = 60) -> int:
        """Wait for the process to end by itself; its exit code."""
        assert self._process is not None
        code = await asyncio.wait_for(self._process.wait(), timeout)
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._reader, 5)
        return code

    def pause(self) -> None:
        """SIGSTOP: the process stops dead (a stalled machine), its sockets stay open."""
        assert self._process is not None and self.running
        self._process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT after :meth:`pause`."""
        assert self._process is not None
        self._process.send_signal(signal.SIGCONT)

    async def _read(self, process: asyncio.subprocess.Process) -> None:
        assert process.stderr is not None
        while line := await process.stderr.readline():
            self.lines.append(line.decode(errors="replace").rstrip("\n"))

    async def wait_for(
        self, pattern: re.Pattern[str] | str, *, timeout: float, after: int = 0
    ) -> str:
        """The first log line from index ``after`` on that matches ``pattern``."""
        regex = re.compile(pattern) if isinstance(pattern, str) else pattern
        deadline = time.monotonic() + timeout
        seen = after
        while True:
            for line in self.lines[seen:]:
                if regex.search(line):
                    return line
            seen = len(self.lines)
            if not self.running and self._reader is not None and self._reader.done():
                raise AssertionError(f"{self.name} exited:\n" + self.log_tail())
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"{self.name} never logged {regex.pattern!r}:\n" + self.log_tail()
                )
            await asyncio.sleep(0.05)

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.lines[-lines:])

    def errors(self) -> list[str]:
        """Logged errors and tracebacks (a killed process's last lines are not errors)."""
        return [line for line in self.lines if " ERROR " in line or "Traceback" in line]

    async def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as when a machine dies."""
        if self._process is None or not self.running:
            return
        self._process.send_signal(signal.SIGKILL)
        await self._process.wait()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._reader, 5)

    async def stop(self, timeout: float = 30) -> int | None:
        """SIGTERM and wait (SIGKILL if it hangs); the exit code."""
        if self._process is None:
            return None
        if self.running:
            self._process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self._process.wait(), timeout)
            except TimeoutError:
                self._process.kill()
                await self._process.wait()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._reader, 5)
        return self._process.returncode
