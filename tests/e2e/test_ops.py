"""The operator's view of a real ``python -m bot`` process against the loopback Discord:
``/healthz`` says 503 until its shard is connected and its tables restored, then 200;
``/metrics`` is Prometheus' text format with every metric, and the numbers move when people
click, an AI moves and Discord answers 429. Without ``METRICS_PORT`` nothing listens.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.games import all_games
from bot.sandbox.loopback import LoopbackDiscord
from bot.storage import Database
from tests.e2e.conftest import SPEC
from tests.support.processes import BotProcess
from tests.support.remote_play import play_one

SERVING = re.compile(r"Health and metrics at (http://\S+)/healthz")
METRICS = (
    ("quantum_table_shards_connected", "gauge"),
    ("quantum_table_shards_expected", "gauge"),
    ("quantum_table_shard_leases_held", "gauge"),
    ("quantum_table_shard_epoch", "gauge"),
    ("quantum_table_live_tables", "gauge"),
    ("quantum_table_interaction_answer_seconds", "histogram"),
    ("quantum_table_ai_decision_seconds", "histogram"),
    ("quantum_table_event_loop_stall_seconds", "histogram"),
    ("quantum_table_event_loop_worst_stall_seconds", "gauge"),
    ("quantum_table_storage_errors", "counter"),
    ("quantum_table_discord_rate_limits", "counter"),
    ("process_resident_memory_bytes", "gauge"),
)


def listening_ports(pid: int) -> set[int]:
    """The TCP ports a process listens on (its sockets, found in /proc)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue  # closed meanwhile
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    ports = set()
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


class Scraper:
    def __init__(self, http: aiohttp.ClientSession, base: str) -> None:
        self.http = http
        self.base = base

    async def health(self) -> tuple[int, dict[str, Any]]:
        async with self.http.get(f"{self.base}/healthz") as response:
            return response.status, await response.json()

    async def metrics(self) -> dict[str, Any]:
        async with self.http.get(f"{self.base}/metrics") as response:
            assert response.status == 200
            assert response.headers["Content-Type"].startswith("text/plain")
            text = await response.text()
        return {family.name: family for family in text_string_to_metric_families(text)}

    async def value(self, sample: str, **labels: str) -> float:
        """One sample's value (0 if the series has none yet)."""
        families = await self.metrics()
        for family in families.values():
            for found in family.samples:
                if found.name == sample and found.labels == labels:
                    return found.value
        return 0.0

    async def until(
        self, sample: str, holds: Callable[[float], bool], timeout: float = 30, **labels: str
    ) -> float:
        """Scrape until ``sample`` satisfies ``holds``; its value then."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            value = await self.value(sample, **labels)
            if holds(value):
                return value
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"{sample}{labels} stayed at {value}")
            await asyncio.sleep(0.1)


async def test_health_and_metrics_of_a_bot_process(tmp_path: Path) -> None:
    games = all_games()
    async with LoopbackDiscord(spec=SPEC if SPEC.exists() else None) as fake:
        guild = fake.add_guild("Ops")
        alice = fake.add_user("alice")
        fake.add_member(guild, alice)
        room = fake.add_channel(guild, "ops")
        # Keep the bot from its shard a little longer: its first GET /gateway/bot fails and
        # discord.py tries again a second later, while /healthz already answers.
        fake.faults.server_error("GET", r"^/gateway/bot$", status=502)
        process = BotProcess(
            "bot-ops",
            fake.url,
            fake.token,
            {"DATABASE_PATH": str(tmp_path / "ops.db"), "METRICS_PORT": "0"},
        )
        starting = asyncio.create_task(process.start(cwd=tmp_path))
        db: Database | None = None
        try:
            line = await process.wait_for(SERVING, timeout=60)
            match = SERVING.search(line)
            assert match is not None
            base = match.group(1)
            async with aiohttp.ClientSession() as http:
                scrape = Scraper(http, base)
                status, body = await scrape.health()
                assert status == 503, body
                assert body["ready"] is False and body["restored"] is False
                assert "tables not restored yet" in body["missing"]

                await starting
                assert fake.faults.pending == 0  # the gateway fault did fire
                status, body = await scrape.health()
                assert status == 200, body
                assert body == {
                    "ready": True,
                    "standby": False,
                    "leases": {"0": 1},
                    "shards": {"expected": [0], "connected": [0]},
                    "restored": True,
                    "missing": [],
                }
                assert process.pid is not None
                assert listening_ports(process.pid) == {int(base.rsplit(":", 1)[1])}

                families = await scrape.metrics()
                for name, kind in METRICS:
                    assert name in families, name
                    assert families[name].type == kind, name
                assert await scrape.value("quantum_table_shards_connected") == 1
                assert await scrape.value("quantum_table_shards_expected") == 1
                assert await scrape.value("quantum_table_shard_leases_held") == 1
                assert await scrape.value("quantum_table_shard_epoch", shard="0") == 1
                assert await scrape.value("quantum_table_live_tables") == 0
                clicks = "quantum_table_interaction_answer_seconds_count"
                assert await scrape.value(clicks, type="component") == 0
                await scrape.until("quantum_table_event_loop_stall_seconds_count", lambda n: n > 0)

                # A table with an AI seat: the clicks are timed, the table is counted.
                lobby = (
                    await fake.slash(alice, "qdice start", channel=room, options={"target": 1000})
                ).message
                assert lobby is not None
                await fake.click(alice, lobby, label="Add AI")
                await fake.click(alice, lobby, label="Start")
                await scrape.until(clicks, lambda n: n >= 2, type="component")
                assert await scrape.value(clicks, type="application_command") >= 1
                assert await scrape.value("quantum_table_live_tables") == 1

                # Play until the AI has made a decision; each is timed.
                db = await Database.open(tmp_path / "ops.db")
                (record,) = await db.active_games(guild_id=guild.id)
                decisions = "quantum_table_ai_decision_seconds_count"
                for _ in range(100):
                    if await scrape.value(decisions, game="qdice", level="normal") > 0:
                        break
                    if not await play_one(fake, db, games, record.id, lobby, {alice.id: alice}):
                        await asyncio.sleep(0.1)  # the AI is to move
                assert await scrape.value(decisions, game="qdice", level="normal") > 0

                # Discord answers 429, once for a route's bucket and once globally.
                limits = "quantum_table_discord_rate_limits_total"
                assert await scrape.value(limits, scope="bucket") == 0
                assert await scrape.value(limits, scope="global") == 0
                fake.faults.rate_limit("POST", r"/callback$", retry_after=0.1)
                await fake.slash(alice, "help", channel=room)
                fake.faults.rate_limit("POST", r"/callback$", retry_after=0.1, global_=True)
                await fake.slash(alice, "help", channel=room)
                await scrape.until(limits, lambda n: n == 1, scope="bucket")
                await scrape.until(limits, lambda n: n == 1, scope="global")
        finally:
            if db is not None:
                await db.close()
            code = await process.stop()
            if not starting.done():
                starting.cancel()
        assert code == 0, process.log_tail()
        assert not process.errors(), process.errors()
        fake.assert_no_errors()


async def test_without_metrics_port_nothing_listens(tmp_path: Path) -> None:
    async with LoopbackDiscord(spec=SPEC if SPEC.exists() else None) as fake:
        fake.add_guild("Quiet")
        process = BotProcess(
            "bot-quiet", fake.url, fake.token, {"DATABASE_PATH": str(tmp_path / "quiet.db")}
        )
        process.env.pop("METRICS_PORT", None)
        try:
            await process.start(cwd=tmp_path)
            assert process.pid is not None
            assert listening_ports(process.pid) == set()
            assert not any(SERVING.search(line) for line in process.lines)
        finally:
            await process.stop()
