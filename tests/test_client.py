"""Command sync policy and settings, without a network."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest

from bot.client import EXTENSIONS, QuantumTableBot, invite_url
from bot.config import ConfigurationError, Settings, load_settings


async def _bot(tmp_path: Path, **settings: Any) -> tuple[QuantumTableBot, list[Any]]:
    bot = QuantumTableBot(Settings(_env_file=None, database_path=tmp_path / "x.db", **settings))  # type: ignore[call-arg]
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    calls: list[Any] = []

    async def fake_sync(*, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        calls.append(guild.id if guild else "global")
        return []

    bot.tree.sync = fake_sync  # type: ignore[method-assign]
    return bot, calls


async def test_global_sync_only_when_commands_change_or_forced(tmp_path: Path) -> None:
    bot, calls = await _bot(tmp_path)
    assert "synced" in await bot.sync_commands()
    assert "unchanged" in await bot.sync_commands()
    assert calls == ["global"]
    await bot.sync_commands(force=True)  # the owner's /sync
    assert calls == ["global", "global"]
    bot.tree.remove_command("about")  # the command set changed
    await bot.sync_commands()
    assert calls == ["global"] * 3


async def test_development_guild_syncs_every_start(tmp_path: Path) -> None:
    bot, calls = await _bot(tmp_path, dev_guild_id=1234)
    await bot.sync_commands()
    await bot.sync_commands()
    assert calls == [1234, 1234]


def test_invite_url_has_scopes_and_permissions() -> None:
    url = invite_url(42)
    assert "client_id=42" in url and "applications.commands" in url and "bot" in url
    permissions = discord.Permissions(int(url.split("permissions=")[1].split("&")[0]))
    assert permissions.send_messages and permissions.attach_files and permissions.embed_links
    assert not permissions.administrator


def test_settings_errors_are_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AI_DELAY", "-1")
    with pytest.raises(ConfigurationError) as caught:
        load_settings(_env_file=None)
    assert "AI_DELAY" in str(caught.value) and "\n" not in str(caught.value)


def test_blank_token_counts_as_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "   ")
    assert load_settings(_env_file=None).token is None


def test_database_url_chooses_postgresql(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://qt@127.0.0.1:5432/qt")
    assert load_settings(_env_file=None).database == "postgresql://qt@127.0.0.1:5432/qt"
    monkeypatch.setenv("DATABASE_URL", "")
    settings = load_settings(_env_file=None, database_path="x.db")
    assert settings.database == Path("x.db")
    monkeypatch.setenv("DATABASE_URL", "mysql://nope")
    with pytest.raises(ConfigurationError, match="DATABASE_URL: must start with postgresql://"):
        load_settings(_env_file=None)


def test_shard_settings_read_a_comma_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "2, 3")
    settings = load_settings(_env_file=None)
    assert settings.shard_count == 4 and settings.shard_ids == [2, 3]


def test_auto_shards_need_no_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_IDS", " Auto ")
    monkeypatch.setenv("SHARDS_PER_PROCESS", "2")
    settings = load_settings(_env_file=None)
    assert settings.shard_ids == "auto" and settings.shards_per_process == 2
    assert settings.shard_count is None and settings.lease_seconds == 15


def test_shards_per_process_goes_with_auto(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "0,1")
    monkeypatch.setenv("SHARDS_PER_PROCESS", "2")
    with pytest.raises(ConfigurationError, match="SHARDS_PER_PROCESS goes with SHARD_IDS=auto"):
        load_settings(_env_file=None)


@pytest.mark.parametrize(
    ("count", "ids", "problem"),
    [
        ("", "0,1", "SHARD_IDS needs SHARD_COUNT"),
        ("4", "1,1", "names a shard twice"),
        ("4", "3,4", "outside 0..3"),
        ("4", "one", "SHARD_IDS: must be shard numbers"),
        ("0", "", "SHARD_COUNT"),
    ],
)
def test_impossible_shard_settings_say_what_is_wrong(
    monkeypatch: pytest.MonkeyPatch, count: str, ids: str, problem: str
) -> None:
    monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)
    with pytest.raises(ConfigurationError) as caught:
        load_settings(_env_file=None)
    assert problem in str(caught.value) and "\n" not in str(caught.value)


def test_the_example_env_file_loads_as_the_defaults() -> None:
    settings = load_settings(_env_file=Path(__file__).parents[1] / ".env.example")
    assert settings.database_url is None and settings.shard_ids is None
    assert settings.shard_count is None and settings.token is None
    assert settings.metrics_port is None and settings.metrics_host == "127.0.0.1"
    assert settings.shards_per_process is None and settings.lease_seconds == 15


def test_metrics_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("METRICS_PORT", raising=False)
    assert load_settings(_env_file=None).metrics_port is None  # off unless asked for
    monkeypatch.setenv("METRICS_PORT", "")
    monkeypatch.setenv("METRICS_HOST", " ")
    settings = load_settings(_env_file=None)
    assert settings.metrics_port is None and settings.metrics_host == "127.0.0.1"
    monkeypatch.setenv("METRICS_PORT", "9101")
    monkeypatch.setenv("METRICS_HOST", "0.0.0.0")
    settings = load_settings(_env_file=None)
    assert settings.metrics_port == 9101 and settings.metrics_host == "0.0.0.0"
    monkeypatch.setenv("METRICS_PORT", "70000")
    with pytest.raises(ConfigurationError, match="METRICS_PORT"):
        load_settings(_env_file=None)
