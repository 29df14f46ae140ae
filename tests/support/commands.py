"""Run one of the project's commands (``python -m ...``) as a real subprocess, in a chosen
folder and with only the settings a test gives it, and collect what it printed."""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SITECUSTOMIZE = ROOT / "bot" / "sandbox" / "sitecustomize"
# Settings the developer's shell may hold that would change what a test runs against.
CLEARED = frozenset(
    {"DISCORD_TOKEN", "DEV_GUILD_ID", "DATABASE_URL", "DATABASE_PATH", "SHARD_IDS", "SHARD_COUNT"}
    | {"PGPASSWORD", "PGUSER", "PGHOST", "PGPORT", "PGDATABASE", "QT_LOOPBACK_URL"}
)


@dataclass(frozen=True)
class Finished:
    code: int
    out: str
    err: str

    @property
    def text(self) -> str:
        return self.out + self.err


async def run_module(
    *args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 120
) -> Finished:
    """``python -m args...`` in ``cwd`` with the project importable and ``env`` on top of a
    cleaned environment; waits for it to exit."""
    base = {k: v for k, v in os.environ.items() if k not in CLEARED}
    base.update(PYTHONPATH=os.pathsep.join([str(SITECUSTOMIZE), str(ROOT)]), PYTHONUNBUFFERED="1")
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        *args,
        cwd=cwd,
        env={**base, **(env or {})},
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    assert process.returncode is not None
    return Finished(process.returncode, out.decode(errors="replace"), err.decode(errors="replace"))
