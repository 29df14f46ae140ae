"""Which process hosts which servers: Discord's shard of a server, and a process's shards.

A server belongs to shard ``(guild_id >> 22) % shard_count`` (Discord's rule; direct
messages go to shard 0). A process that runs some of the shards hosts exactly the tables of
the servers on them.
"""

from __future__ import annotations

from dataclasses import dataclass


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard of a server; direct messages (no server) are shard 0."""
    if shard_count < 1:
        raise ValueError("shard_count must be at least 1")
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class ShardSet:
    """The shards one process runs, out of ``shard_count`` (none, once it lost them all)."""

    shard_ids: tuple[int, ...]
    shard_count: int

    def __post_init__(self) -> None:
        if self.shard_count < 1:
            raise ValueError("shard_count must be at least 1")
        if any(not 0 <= i < self.shard_count for i in self.shard_ids):
            raise ValueError(f"shard ids {self.shard_ids} not within 0..{self.shard_count - 1}")
        object.__setattr__(self, "shard_ids", tuple(sorted(set(self.shard_ids))))

    @classmethod
    def everything(cls, shard_count: int = 1) -> ShardSet:
        return cls(tuple(range(shard_count)), shard_count)

    @property
    def is_everything(self) -> bool:
        return len(self.shard_ids) == self.shard_count

    def owns(self, guild_id: int | None) -> bool:
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    def __str__(self) -> str:
        if not self.shard_ids:
            return f"no shard of {self.shard_count}"
        return f"shards {','.join(map(str, self.shard_ids))} of {self.shard_count}"
