"""The presenter of a process that may not act for a shard says nothing about its tables."""

from __future__ import annotations

from typing import Any

from bot.cluster.speech import ShardPresenter


class Record:
    def __init__(self, guild_id: int) -> None:
        self.guild_id = guild_id


class FakeTable:
    def __init__(self, guild_id: int) -> None:
        self.id = guild_id
        self.record = Record(guild_id)


class Inner:
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    async def show(self, table: Any, panel: Any) -> int | None:
        self.calls.append(("show", table.id))
        return 7

    async def announce(self, table: Any, text: str, mention: int | None = None) -> None:
        self.calls.append(("announce", table.id))

    async def ping(self, table: Any, user_id: int, text: str) -> int | None:
        self.calls.append(("ping", table.id))
        return 8

    async def unping(self, table: Any, message_id: int) -> None:
        self.calls.append(("unping", table.id))

    def private_changed(self, table: Any) -> None:
        self.calls.append(("private", table.id))

    def remember(self, table: Any, *args: Any) -> None:
        self.calls.append(("remember", table.id))


async def test_only_tables_of_shards_held_are_spoken_for() -> None:
    inner = Inner()
    ours, theirs = FakeTable(1), FakeTable(2)
    presenter = ShardPresenter(inner, lambda guild_id: guild_id == 1)  # type: ignore[arg-type]
    for table in (ours, theirs):
        await presenter.show(table, None)  # type: ignore[arg-type]
        await presenter.announce(table, "hello")  # type: ignore[arg-type]
        await presenter.ping(table, 5, "your turn")  # type: ignore[arg-type]
        await presenter.unping(table, 9)  # type: ignore[arg-type]
        presenter.private_changed(table)  # type: ignore[arg-type]
        presenter.remember(table, None, 3, 4)  # type: ignore[arg-type]
    kinds = ["show", "announce", "ping", "unping", "private", "remember"]
    assert inner.calls == [(kind, 1) for kind in kinds[:5]] + [("remember", 1), ("remember", 2)]
    assert await presenter.show(theirs, None) is None  # type: ignore[arg-type]
