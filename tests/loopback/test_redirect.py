"""patch_discord and the sitecustomize that redirects a subprocess; routes vs Discord's spec."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import discord
import pytest

from bot.sandbox import redirect
from bot.sandbox.loopback import LoopbackDiscord
from bot.sandbox.loopback.spec import ApiSpec

from .conftest import SPEC

SITECUSTOMIZE = Path(redirect.__file__).parent / "sitecustomize"


def test_patch_discord_sets_rest_base_and_gateway(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket,
        "DEFAULT_GATEWAY",
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
    )
    redirect.patch_discord("http://127.0.0.1:4321")
    assert discord.http.Route.BASE == "http://127.0.0.1:4321/api/v10"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:4321/"


def run_python(code: str, **env: str) -> str:
    full_env = {k: v for k, v in os.environ.items() if k != "QT_LOOPBACK_URL"}
    full_env.update(PYTHONPATH=str(SITECUSTOMIZE), **env)
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=full_env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return out.stdout.strip()


def test_sitecustomize_redirects_a_subprocess() -> None:
    code = "import discord.http, discord.gateway as g; print(discord.http.Route.BASE, g.DiscordWebSocket.DEFAULT_GATEWAY)"
    assert run_python(code, QT_LOOPBACK_URL="http://127.0.0.1:9999") == (
        "http://127.0.0.1:9999/api/v10 ws://127.0.0.1:9999/"
    )
    assert run_python(code) == "https://discord.com/api/v10 wss://gateway.discord.gg/"


def test_sitecustomize_survives_without_discord(tmp_path: Path) -> None:
    blocker = tmp_path / "discord"
    blocker.mkdir()
    (blocker / "__init__.py").write_text("raise ImportError('no discord here')\n")
    env = {
        "QT_LOOPBACK_URL": "http://127.0.0.1:9999",
        "PYTHONPATH": f"{SITECUSTOMIZE}{os.pathsep}{tmp_path}",
    }
    full_env = {**os.environ, **env}
    out = subprocess.run(
        [sys.executable, "-c", "print('alive')"],
        env=full_env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0 and out.stdout.strip() == "alive"


@pytest.mark.skipif(not SPEC.exists(), reason="Discord's openapi.json is not at hand")
def test_every_route_is_in_discords_spec() -> None:
    assert ApiSpec(SPEC).undocumented(LoopbackDiscord().rest.routes) == []
