"""Helpers shared by the storage tests: seats, games and results in few words."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from bot.storage import Database, GameRecord, SeatRecord, SeatResult
from tests.postgres import TempPostgres

GUILD = 111
CHANNEL = 222


def human(seat: int, user_id: int, name: str | None = None) -> SeatRecord:
    return SeatRecord(seat=seat, user_id=user_id, name=name or f"user{user_id}", is_ai=False)


def ai(seat: int) -> SeatRecord:
    return SeatRecord(seat=seat, user_id=None, name=f"Bot {seat}", is_ai=True)


async def new_game(
    db: Database,
    seats: Sequence[SeatRecord] | None = None,
    *,
    game: str = "qdice",
    guild_id: int = GUILD,
    channel_id: int = CHANNEL,
    thread_id: int | None = None,
) -> GameRecord:
    return await db.create_game(
        guild_id=guild_id,
        channel_id=channel_id,
        game=game,
        host_id=1,
        config={"rounds": 3, "variant": "classic"},
        seed=42,
        seats=list(seats) if seats is not None else [human(0, 1), ai(1)],
        thread_id=thread_id,
    )


def result(seat: SeatRecord, rank: int, score: float = 0.0, won: bool | None = None) -> SeatResult:
    return SeatResult(
        seat=seat.seat,
        user_id=seat.user_id,
        name=seat.name,
        is_ai=seat.is_ai,
        rank=rank,
        score=score,
        won=rank == 1 if won is None else won,
    )


async def play_out(
    db: Database,
    ranking: Sequence[Sequence[SeatRecord]],
    *,
    game: str = "qdice",
    guild_id: int = GUILD,
    ended_at: float = 1000.0,
) -> int:
    """Create a game with these seats and finish it; ``ranking[i]`` holds rank ``i + 1``."""
    seats = [seat for group in ranking for seat in group]
    record = await new_game(db, seats, game=game, guild_id=guild_id)
    results = [
        result(seat, rank, score=10.0 * (len(ranking) - rank))
        for rank, group in enumerate(ranking, start=1)
        for seat in group
    ]
    await db.finish_game(
        record.id, guild_id=guild_id, game=game, results=results, ended_at=ended_at
    )
    return record.id


PASSWORD = "s3cret-Pa55"
_roles = itertools.count()


async def locked_database(server: TempPostgres) -> tuple[str, str]:
    """A role that must give its password and a database it owns: (role, URL without
    credentials after the user, e.g. ``postgresql://role:{}@host:port/name``)."""
    role = f"qt_role_{next(_roles)}"
    await server.create_role(role, PASSWORD)
    admin_url = await server.create_database(owner=role)
    name = admin_url.rsplit("/", 1)[1]
    return role, f"postgresql://{role}:{{}}@127.0.0.1:{server.port}/{name}"
