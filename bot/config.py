"""Settings from the environment and ``.env``, validated by pydantic-settings.

Every setting is optional except the token, and even that is only needed to reach the real
Discord. A malformed value is reported as one readable line by :func:`load_settings`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal, Self

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

DEFAULT_DATABASE = Path("data") / "quantum_table.db"


class ConfigurationError(Exception):
    """A setting is missing or malformed; the message is one line a person can act on."""


class Settings(BaseSettings):
    """Quantum Table's configuration. Field names map to upper-case environment variables."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", case_sensitive=False
    )

    discord_token: str | None = Field(
        default=None, description="The bot token from the Discord developer portal."
    )
    dev_guild_id: int | None = Field(
        default=None, description="A server to sync commands to at once while developing."
    )
    database_path: Path = Field(default=DEFAULT_DATABASE, description="SQLite database file.")
    database_url: str | None = Field(
        default=None,
        description="postgresql://user:password@host:port/name: use PostgreSQL, not SQLite.",
    )
    shard_count: int | None = Field(
        default=None, ge=1, le=10_000, description="How many shards the bot has in all."
    )
    shard_ids: Annotated[list[int] | Literal["auto"] | None, NoDecode] = Field(
        default=None,
        description="The shards this process connects, e.g. 0,1 (needs SHARD_COUNT), or auto:"
        " whichever are free, waiting as a standby when none is.",
    )
    shards_per_process: int | None = Field(
        default=None,
        ge=1,
        le=10_000,
        description="With SHARD_IDS=auto, how many shards this process takes at most (default:"
        " every free one).",
    )
    shards_ceiling: int | None = Field(
        default=None,
        ge=1,
        le=10_000,
        description="With SHARD_IDS=auto, the most shards this process holds when it takes over"
        " those of a process that died and no standby did (default: every shard).",
    )
    lease_seconds: float = Field(
        default=15.0,
        ge=2,
        le=600,
        description="How long a shard lease lasts without renewal (renewed every third of it);"
        " a standby takes over a dead process's shards after about this long.",
    )
    host_name: str | None = Field(
        default=None,
        description="The machine's name in shard leases (default: its host name); give each"
        " container its own when several share one.",
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    language: str = Field(
        default="en",
        description="The language players read: a locale with message catalogues"
        " (bot/words/locales), or en-XA, the pseudo-locale that shows text not from one.",
    )
    ai_delay: float = Field(
        default=1.2, ge=0, le=30, description="Seconds an AI waits before each move."
    )
    ai_budget: float = Field(
        default=1.0,
        ge=0.05,
        le=30,
        description="Seconds an AI decision may think (a searching level stops there).",
    )
    ai_workers: int | None = Field(
        default=None,
        ge=0,
        le=256,
        description="Worker processes for AI decisions (default: one per core; 0: threads).",
    )
    picture_cache_mb: float = Field(
        default=16,
        ge=0,
        le=4096,
        description="MiB of table pictures kept between moves (the last picture of the"
        " busiest tables, their colours and parts); 0: none.",
    )
    loop_report: float = Field(
        default=0,
        ge=0,
        le=3600,
        description="Seconds between log lines with the event loop's worst stall (0: off).",
    )
    replay_days: float = Field(
        default=30,
        ge=0,
        le=36_500,
        description="Days a finished game's moves are kept for replays (0: forever).",
    )
    turn_timeout: int = Field(
        default=300, ge=30, le=86_400, description="Default seconds a player has for a move."
    )
    owner_ids: list[int] = Field(
        default_factory=list, description="Discord user ids allowed to run owner commands."
    )
    metrics_port: int | None = Field(
        default=None,
        ge=0,
        le=65535,
        description="Port of /healthz and /metrics (unset: not served; 0: any free port).",
    )
    metrics_host: str = Field(
        default="127.0.0.1", description="Address /healthz and /metrics listen on."
    )
    sandbox_port: int = Field(
        default=8765,
        ge=0,
        le=65535,
        description="Port of the local sandbox page (127.0.0.1) without a token; 0: any free.",
    )

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator(
        "discord_token",
        "dev_guild_id",
        "database_url",
        "shard_count",
        "shard_ids",
        "shards_per_process",
        "shards_ceiling",
        "host_name",
        "ai_workers",
        "metrics_port",
        mode="before",
    )
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("language", mode="before")
    @classmethod
    def _known_language(cls, value: object) -> object:
        from bot.words import catalogue  # the catalogues say which languages there are

        if value is None or (isinstance(value, str) and not value.strip()):
            return catalogue.SOURCE
        if isinstance(value, str):
            value = value.strip()
            if value not in catalogue.available():
                raise ValueError(f"must be one of {', '.join(catalogue.available())}")
        return value

    @field_validator("metrics_host", mode="before")
    @classmethod
    def _blank_host_is_local(cls, value: object) -> object:
        return "127.0.0.1" if isinstance(value, str) and not value.strip() else value

    @field_validator("database_url")
    @classmethod
    def _postgres_only(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip()
        if not value.startswith(("postgresql://", "postgres://")):
            raise ValueError("must start with postgresql:// (leave it empty to use SQLite)")
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_list(cls, value: object) -> object:
        if isinstance(value, str):
            text = value.strip().strip("[]")
            if not text.strip():
                return None
            if text.strip().lower() == "auto":
                return "auto"
            try:
                return [int(part) for part in text.split(",") if part.strip()]
            except ValueError:
                raise ValueError(
                    "must be shard numbers separated by commas, e.g. 0,1, or auto"
                ) from None
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Self:
        if self.shards_per_process is not None and self.shard_ids != "auto":
            raise ValueError("SHARDS_PER_PROCESS goes with SHARD_IDS=auto")
        if self.shards_ceiling is not None and self.shard_ids != "auto":
            raise ValueError("SHARDS_CEILING goes with SHARD_IDS=auto")
        if (
            self.shards_ceiling is not None
            and self.shards_per_process is not None
            and self.shards_ceiling < self.shards_per_process
        ):
            raise ValueError("SHARDS_CEILING is below SHARDS_PER_PROCESS")
        if self.shard_ids is None or self.shard_ids == "auto":
            return self
        if self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (how many shards there are in all)")
        if not self.shard_ids:
            raise ValueError("SHARD_IDS names no shard")
        if len(set(self.shard_ids)) != len(self.shard_ids):
            raise ValueError("SHARD_IDS names a shard twice")
        outside = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
        if outside:
            raise ValueError(
                f"SHARD_IDS {outside} outside 0..{self.shard_count - 1} (SHARD_COUNT is "
                f"{self.shard_count})"
            )
        return self

    @property
    def database(self) -> str | Path:
        """What to open: the PostgreSQL URL when set, else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def token(self) -> str | None:
        return self.discord_token.strip() if self.discord_token else None


def load_settings(**overrides: object) -> Settings:
    """Read the settings, turning a validation failure into one clear line."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as error:
        problems = []
        for item in error.errors():
            name = ".".join(str(part) for part in item["loc"]).upper()
            message = item["msg"].removeprefix("Value error, ")
            given = item.get("input")
            if isinstance(given, str):
                from bot.storage.urls import redact  # a mistyped DATABASE_URL: hide its password

                given = redact(given)
            shown = f" (got {given!r})" if name and isinstance(given, str | int | float) else ""
            problems.append(f"{name}: {message}{shown}" if name else message)
        raise ConfigurationError("Configuration error: " + "; ".join(problems)) from None
