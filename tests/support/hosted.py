"""Tables hosted by bot *processes*, seen from outside: servers on every shard, one table of
each game opened through the loopback, their stored versions, and the check that every log
replays exactly to its stored state. Shared by the scale-out and cluster tests."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from bot.games import all_games
from bot.sandbox.loopback import Guild, LoopbackDiscord, Message, User
from bot.storage import GameRecord
from bot.storage.db import Database
from tests.support.remote_play import load_table, replay_matches

GAMES = all_games()
TABLES = (  # (slash command, options, AI seats): short games, one person each
    ("qdice", {"target": 1000}, 1),
    ("flume", {"target": 5}, 3),
    ("flux", {}, 2),
    ("fingers", {"fingers": 3}, 2),
    ("qpoker", {"rounds": 2}, 2),
)


@dataclass
class Hosted:
    game_id: int
    kind: str
    guild: Guild
    message: Message

    def shard(self, shard_count: int) -> int:
        return (self.guild.id >> 22) % shard_count


def servers_on_every_shard(fake: LoopbackDiscord, shards: int) -> dict[int, Guild]:
    """Servers until each shard has one (a server's shard is in its id's time bits)."""
    found: dict[int, Guild] = {}
    while len(found) < shards:
        guild = fake.add_guild(f"Server {len(fake.world.guilds) + 1}")
        found.setdefault((guild.id >> 22) % shards, guild)
        time.sleep(0.001)
    return found


def people_everywhere(fake: LoopbackDiscord, names: Sequence[str]) -> dict[int, User]:
    """Simulated people, each a member of every server."""
    people = {}
    for name in names:
        user = fake.add_user(name)
        people[user.id] = user
        for guild in fake.world.guilds.values():
            fake.add_member(guild, user)
    return people


async def open_table(
    fake: LoopbackDiscord, db: Database, guild: Guild, host: User, kind: str, name: str
) -> Hosted:
    """A table of ``kind`` (options and AI seats from :data:`TABLES`) started by ``host``."""
    options, ai = next((o, a) for k, o, a in TABLES if k == kind)
    room = fake.add_channel(guild, name)
    lobby = (await fake.slash(host, f"{kind} start", channel=room, options=options)).message
    assert lobby is not None and not lobby.ephemeral, lobby
    for _ in range(ai):
        await fake.click(host, lobby, label="Add AI")
    await fake.click(host, lobby, label="Start")
    (record,) = [g for g in await db.active_games(guild_id=guild.id) if g.channel_id == room.id]
    return Hosted(record.id, kind, guild, lobby.refresh())


async def stored(db: Database, tables: Sequence[Hosted]) -> dict[int, GameRecord]:
    """Each table's stored game, by id."""
    out = {}
    for table in tables:
        record = await db.load_game(table.game_id)
        assert record is not None
        out[table.game_id] = record
    return out


async def versions(db: Database, tables: Sequence[Hosted]) -> dict[int, int]:
    """Each table's stored version."""
    return {game_id: r.version for game_id, r in (await stored(db, tables)).items()}


async def assert_logs_replay(db: Database, tables: Sequence[Hosted]) -> None:
    """No move applied twice or lost: every log is gap-free and replays to the stored state."""
    for table in tables:
        stored = await load_table(db, GAMES, table.game_id)
        log = await db.actions(table.game_id)
        assert [a.version for a in log] == list(range(2, 2 + len(log))), table
        assert replay_matches(stored, [(a.seat, a.action) for a in log]), table
