"""``python -m bot`` as a real subprocess: it comes online against the loopback and answers."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import aiohttp

from bot.sandbox.loopback import LoopbackDiscord

ROOT = Path(__file__).resolve().parents[2]
SITECUSTOMIZE = ROOT / "bot" / "sandbox" / "sitecustomize"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "DEV_GUILD_ID"}}
    env.update(extra)
    return env


async def test_without_token_opens_the_sandbox(tmp_path: Path) -> None:
    """No token: the sandbox page comes up on 127.0.0.1, answers, and stops cleanly."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,  # no .env here
        env=_env(PYTHONPATH=str(ROOT), DATABASE_PATH=str(tmp_path / "x.db"), SANDBOX_PORT="0"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    try:
        line = (await asyncio.wait_for(process.stdout.readline(), 60)).decode()
        match = re.fullmatch(r"Quantum Table sandbox: (http://127\.0\.0\.1:\d+/)\n", line)
        assert match, line
        async with aiohttp.ClientSession() as session:
            async with session.get(match[1]) as page:
                assert page.status == 200 and "Quantum Table sandbox" in await page.text()
            async with session.get(
                match[1] + "api/commands", params=await _channel(session, match[1])
            ) as answer:
                paths = [c["path"] for c in (await answer.json())["commands"]]
                assert "qdice start" in paths
    finally:
        process.send_signal(signal.SIGINT)
        _out, err = await asyncio.wait_for(process.communicate(), 30)
    text = err.decode()
    assert process.returncode == 0, text
    assert "DISCORD_TOKEN" in text and "sandbox" in text and "README" in text
    assert "shutting down cleanly" in text
    assert "Invite me" not in text and "oauth2" not in text  # the sandbox's id invites nobody
    assert "Traceback" not in text
    assert "PyNaCl" not in text and "davey" not in text, text  # no voice, no voice notes


async def _channel(session: aiohttp.ClientSession, url: str) -> dict[str, str]:
    async with session.get(url + "api/state") as state:
        return {"channel": (await state.json())["channels"][0]["id"]}


async def test_malformed_setting_is_one_line(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=_env(PYTHONPATH=str(ROOT), DISCORD_TOKEN="x", DEV_GUILD_ID="not-a-number"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1 and "DEV_GUILD_ID" in lines[0]


async def test_bot_process_comes_online_and_answers(tmp_path: Path) -> None:
    async with LoopbackDiscord() as fake:
        guild = fake.add_guild("Smoke")
        alice = fake.add_user("alice")
        fake.add_member(guild, alice)
        room = fake.add_channel(guild, "smoke")
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=tmp_path,
            env=_env(
                PYTHONPATH=os.pathsep.join([str(SITECUSTOMIZE), str(ROOT)]),
                QT_LOOPBACK_URL=fake.url,
                DISCORD_TOKEN=fake.token,
                DATABASE_PATH=str(tmp_path / "smoke.db"),
            ),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        try:
            for _ in range(300):
                if fake.gateway.connected and any(c["name"] == "about" for c in fake.commands()):
                    break
                assert process.returncode is None, "the bot exited early"
                await asyncio.sleep(0.1)
            await asyncio.sleep(2.5)  # on_ready follows GUILD_CREATE by about 2 s
            result = await fake.slash(alice, "about", channel=room)
            assert "Uptime" in result.message.text()
        finally:
            process.send_signal(signal.SIGTERM)
            output, _ = await asyncio.wait_for(process.communicate(), 30)
        log = output.decode()
        assert process.returncode == 0, log
        assert "Invite me with" in log and "applications.commands" in log
        assert "shutting down cleanly" in log
        assert "Traceback" not in log
        # The bot uses no voice: discord.py's notes about missing voice libraries are noise.
        assert "PyNaCl" not in log and "davey" not in log, log
