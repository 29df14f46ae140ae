"""``python -m bot --processes 2 --shards 1`` without a token, as a real subprocess: the
sandbox runs the loopback Discord and the page, and two real bot processes on the suite's
PostgreSQL, one holding the shard, one waiting as a standby. The page's cluster endpoint
shows who holds what (from the leases), and its signals make the standby take over: a kill
at once, a pause once the lease runs out. Ending the sandbox ends both processes.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
from aiohttp.test_utils import TestClient, TestServer
from playwright.async_api import Page, expect

from bot.sandbox.web import SandboxDiscord, build_world, create_app
from tests.support.commands import CLEARED, ROOT, SITECUSTOMIZE, run_module

LEASE = 4.0
URL_LINE = re.compile(r"(http://127\.0\.0\.1:\d+/)")


@dataclass
class Running:
    """The sandbox's process, its page's address and everything it printed on stderr."""

    process: asyncio.subprocess.Process
    url: str
    session: aiohttp.ClientSession
    lines: list[str] = field(default_factory=list)

    async def cluster(self) -> dict[str, Any]:
        async with self.session.get(self.url + "api/cluster") as response:
            assert response.status == 200, await response.text()
            return await response.json()  # type: ignore[no-any-return]

    async def act(self, process: str, action: str) -> dict[str, Any]:
        body = {"process": process, "action": action}
        async with self.session.post(self.url + "api/cluster", json=body) as response:
            assert response.status == 200, await response.text()
            return await response.json()  # type: ignore[no-any-return]

    async def until(
        self, check: Callable[[dict[str, Any]], bool], what: str, timeout: float = 60
    ) -> dict[str, Any]:
        """The cluster as the endpoint shows it, once ``check`` holds."""
        deadline = time.monotonic() + timeout
        while True:
            seen = await self.cluster()
            if check(seen):
                return seen
            if self.process.returncode is not None or time.monotonic() > deadline:
                raise AssertionError(f"never {what}: {seen}\n" + "\n".join(self.lines[-40:]))
            await asyncio.sleep(0.25)


def state_of(seen: dict[str, Any], name: str) -> str:
    return next(p["state"] for p in seen["processes"] if p["name"] == name)


def holder_and_standby(seen: dict[str, Any]) -> tuple[str, str] | None:
    """(the process holding the one shard, the other one) once the holder serves it and the
    other waits as a standby; None before."""
    (shard,) = seen["shards"]
    holder = shard["process"]
    if not shard["live"] or holder is None or state_of(seen, holder) != "active":
        return None
    other = next(p["name"] for p in seen["processes"] if p["name"] != holder)
    return (holder, other) if state_of(seen, other) == "standby" else None


async def _read(stream: asyncio.StreamReader, into: list[str]) -> None:
    while line := await stream.readline():
        into.append(line.decode(errors="replace").rstrip("\n"))


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def running(postgres, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Running]:  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("cluster")
    env = {k: v for k, v in os.environ.items() if k not in CLEARED}
    env.update(
        PYTHONPATH=os.pathsep.join([str(SITECUSTOMIZE), str(ROOT)]),
        PYTHONUNBUFFERED="1",
        DATABASE_URL=await postgres.create_database(),
        SANDBOX_PORT="0",
        LEASE_SECONDS=str(LEASE),
        AI_WORKERS="0",
        AI_DELAY="0",
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "--processes",
        "2",
        "--shards",
        "1",
        cwd=folder,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    lines: list[str] = []
    reader = asyncio.create_task(_read(process.stderr, lines))
    first = await asyncio.wait_for(process.stdout.readline(), 60)
    found = URL_LINE.search(first.decode())
    assert found, (first, lines)
    session = aiohttp.ClientSession()
    run = Running(process, found.group(1), session, lines)
    pids: set[int] = set()
    try:
        seen = await run.until(lambda s: holder_and_standby(s) is not None, "had a standby")
        pids = {p["pid"] for p in seen["processes"]}
        yield run
        seen = await run.cluster()
        pids |= {p["pid"] for p in seen["processes"] if p["pid"]}
    finally:
        await session.close()
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(process.wait(), 60)
        await asyncio.wait_for(reader, 10)
    log = "\n".join(lines)
    assert code == 0, log
    for pid in pids:  # every bot process ended with the sandbox
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert "did not stop within" not in log, log
    assert re.search(r"^bot-1 \| .*Received SIGTERM; shutting down cleanly", log, re.M), log
    assert re.search(r"^bot-2 \| .*Received SIGTERM; shutting down cleanly", log, re.M), log
    assert "Traceback" not in log and " ERROR " not in log, log


async def test_the_endpoint_shows_the_holder_and_a_kill_hands_the_shard_over(
    running: Running,
) -> None:
    seen = await running.cluster()
    pair = holder_and_standby(seen)
    assert pair is not None, seen
    holder, standby = pair
    (shard,) = seen["shards"]
    assert shard["server"] == "Quantum Table Sandbox" and shard["expires_in"] <= LEASE
    assert seen["standby"] == [standby] and seen["shard_count"] == 1
    pids = {p["name"]: p["pid"] for p in seen["processes"]}
    assert shard["pid"] == pids[holder] and pids[holder] != pids[standby]
    assert all(p["health"].endswith("/healthz") for p in seen["processes"])
    epoch = shard["epoch"]

    assert await running.act(holder, "kill") == {"ok": True}
    after = await running.until(
        lambda s: (
            all(x["live"] and x["process"] == standby for x in s["shards"])
            and state_of(s, standby) == "active"
        ),
        f"{standby} held and served every shard",
    )
    assert after["shards"][0]["epoch"] == epoch + 1
    assert state_of(after, holder) == "exited" and state_of(after, standby) == "active"
    assert (await running.act(holder, "stop"))["error"] == f"{holder} is not running."

    assert await running.act(holder, "start") == {"ok": True}
    again = await running.until(lambda s: state_of(s, holder) == "standby", "a standby again")
    assert again["shards"][0]["process"] == standby


async def test_a_pause_past_the_lease_hands_the_shard_over_and_resume_makes_a_standby(
    running: Running,
) -> None:
    pair = holder_and_standby(
        await running.until(lambda s: holder_and_standby(s) is not None, "had a standby")
    )
    assert pair is not None
    holder, standby = pair
    epoch = (await running.cluster())["shards"][0]["epoch"]
    assert await running.act(holder, "pause") == {"ok": True}
    assert (await running.act(holder, "stop"))["error"].startswith(f"{holder} is paused")
    paused = await running.cluster()
    assert state_of(paused, holder) == "paused" and paused["shards"][0]["process"] == holder
    after = await running.until(
        lambda s: s["shards"][0]["process"] == standby, "taken over", timeout=LEASE * 10
    )
    assert after["shards"][0]["epoch"] == epoch + 1
    assert await running.act(holder, "resume") == {"ok": True}
    await running.until(lambda s: state_of(s, holder) == "standby", "a standby after resuming")


async def test_the_page_shows_the_cluster_panel(running: Running, page: Page) -> None:
    seen = await running.until(lambda s: holder_and_standby(s) is not None, "had a standby")
    pair = holder_and_standby(seen)
    assert pair is not None
    holder, standby = pair
    await page.goto(running.url)
    await expect(page.locator("#cluster-panel")).to_be_visible()
    shard = page.locator('#cluster-shards li[data-shard="0"]')
    await expect(shard).to_have_attribute("data-process", holder)
    await expect(shard).to_contain_text(f"{holder} (pid ")
    await expect(page.locator("#cluster-standby")).to_contain_text(standby)
    row = page.locator(f'#cluster-processes li[data-process-name="{holder}"]')
    await expect(row.locator('button[data-action="start"]')).to_be_disabled()
    await row.locator('button[data-action="stop"]').click()  # SIGTERM: handed over at once
    await expect(shard).to_have_attribute("data-process", standby)
    await expect(row).to_have_attribute("data-state", "exited")
    await row.locator('button[data-action="start"]').click()
    await expect(row).to_have_attribute("data-state", "standby", timeout=60_000)


async def test_the_page_switches_between_the_servers_of_the_shards(page: Page) -> None:
    """A world of three shards (no bot needed): the page lists a server per shard, shows
    the one picked with its own channels, and keeps it after a reload; no Cluster panel
    without a cluster."""
    fake = SandboxDiscord(shards=3)
    world = build_world(fake)
    await fake.start()
    try:
        async with TestClient(TestServer(create_app(world), host="127.0.0.1")) as client:
            await page.goto(str(client.make_url("/")))
            await expect(page.locator("body")).to_have_attribute("data-ready", "true")
            switch = page.locator("#server-switch")
            await expect(switch.locator("option")).to_have_count(3)
            await expect(page.locator("#server-name")).to_have_text(world.guild.name)
            third = world.servers[2]
            await switch.select_option(str(third.id))
            await expect(page.locator("#server-name")).to_have_text(third.name)
            general = world.channels(third)[0]
            await expect(page.locator("#messages")).to_have_attribute(
                "data-channel", str(general.id)
            )
            await page.locator('#channels button[data-channel="games"]').click()
            games = world.channels(third)[1]
            await expect(page.locator("#messages")).to_have_attribute("data-channel", str(games.id))
            await page.reload()
            await expect(page.locator("body")).to_have_attribute("data-ready", "true")
            await expect(page.locator("#server-name")).to_have_text(third.name)
            await expect(page.locator("#cluster-panel")).to_be_hidden()
            # Leave the page before its server stops: it would try to reconnect to it.
            await page.goto("about:blank")
    finally:
        await fake.stop()


async def test_several_processes_on_sqlite_are_refused_in_one_line(tmp_path: Path) -> None:
    done = await run_module("bot", "--processes", "2", cwd=tmp_path)
    assert done.code == 2, done.text
    assert done.out == "" and done.err.count("\n") == 1, done.text
    assert done.err.startswith("Several processes need PostgreSQL: set DATABASE_URL"), done.text
    assert not (tmp_path / "data").exists()  # nothing was opened


async def test_processes_with_a_real_token_are_refused_in_one_line(tmp_path: Path) -> None:
    done = await run_module(
        "bot", "--processes", "3", cwd=tmp_path, env={"DISCORD_TOKEN": "not.a.token"}
    )
    assert done.code == 2, done.text
    assert done.out == "" and done.err.count("\n") == 1, done.text
    assert "start one `python -m bot` per machine or unit instead" in done.err, done.text
