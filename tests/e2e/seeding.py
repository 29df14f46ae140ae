"""Fixing a lobby's seed, so a game played through the loopback deals the same every run."""

from __future__ import annotations

from bot.sandbox.loopback import Channel, LoopbackDiscord, Message, User
from bot.tables.manager import TableManager


async def seed_lobby(tables: TableManager, channel_id: int, seed: int) -> None:
    """Give the lobby in the channel this seed, in memory and in storage alike (a replay
    rebuilds the game from the stored seed)."""
    table = tables.in_location(channel_id)
    assert table is not None and table.record.status == "lobby"
    table.record.seed = seed
    await tables.db._run("UPDATE games SET seed = ? WHERE id = ?", (str(seed), table.id))


async def open_game(
    fake: LoopbackDiscord,
    channel: Channel,
    game: str,
    host: User,
    guests: list[User],
    *,
    ai: int = 0,
    options: dict[str, object] | None = None,
    tables: TableManager | None = None,
    seed: int | None = None,
) -> Message:
    """Start a lobby of ``game``, seat the guests and AI players, press Start; return the
    table message. With ``seed`` (and the bot's ``tables``) the deal is fixed, so the game
    plays and replays the same every run."""
    lobby = (
        await fake.slash(host, f"{game} start", channel=channel, options=options or {})
    ).message
    assert lobby is not None and not lobby.ephemeral, lobby.text() if lobby else None
    if seed is not None:
        assert tables is not None, "fixing the seed needs the bot's tables"
        await seed_lobby(tables, channel.id, seed)
    for guest in guests:
        await fake.click(guest, lobby, label="Join")
    for _ in range(ai):
        await fake.click(host, lobby, label="Add AI")
    await fake.click(host, lobby, label="Start")
    return lobby.refresh()


async def open_seeded(
    fake: LoopbackDiscord,
    tables: TableManager,
    channel: Channel,
    game: str,
    host: User,
    guests: list[User],
    *,
    seed: int,
    ai: int = 0,
    options: dict[str, object] | None = None,
) -> Message:
    """:func:`open_game` with the seed fixed."""
    return await open_game(
        fake, channel, game, host, guests, ai=ai, options=options, tables=tables, seed=seed
    )
