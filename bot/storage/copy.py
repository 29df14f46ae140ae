"""Copy a whole Quantum Table database into an empty one: SQLite into PostgreSQL when a bot
outgrows one process, or back.

    python -m bot.storage.copy data/quantum_table.db            # into DATABASE_URL
    python -m bot.storage.copy data/quantum_table.db postgresql://qt:secret@127.0.0.1/qt

Without a target the copy goes into ``DATABASE_URL`` as the bot reads it (the environment,
else ``.env``). A target must be a ``postgresql://`` URL or a path ending in ``.db``: an
empty one (an unset shell variable), ``.``, a folder or the source itself is refused, so a
typo cannot copy into a throwaway file. Passwords are never printed.

Both ends are opened (and so migrated) as the bot opens them; the target must hold no games
and no players yet. Everything is written in one transaction, ids kept, so either the whole
database arrives or nothing does. Stop the bot while it runs: moves made during the copy
would not be in it.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.config import ConfigurationError, load_settings

from .backends import Conn, is_postgres_url
from .db import Database
from .errors import StorageError
from .urls import parts, redact

# Parents before children (foreign keys), each with the key that orders its rows.
TABLES: tuple[tuple[str, str], ...] = (
    ("games", "id"),
    ("seats", "game_id, seat"),
    ("snapshots", "game_id"),
    ("actions", "game_id, version"),
    ("results", "game_id, seat"),
    ("players", "guild_id, game, user_id"),
    ("person_settings", "guild_id, user_id"),
    ("reviews", "game_id, seat"),
    ("shown_panels", "game_id"),
)
BATCH = 2000
ACCEPTED = "a postgresql:// URL or a path ending in .db"


class BadTarget(StorageError):
    """The target is missing, implicit (empty, a folder, the source) or not a database."""


class TargetNotEmpty(StorageError):
    """The copy would mix two databases; it only fills an empty one."""


@dataclass(frozen=True)
class CopyReport:
    source: str
    target: str
    rows: dict[str, int]

    def __str__(self) -> str:
        counts = ", ".join(f"{n} {table}" for table, n in self.rows.items())
        return f"Copied {counts} from {self.source} to {self.target}."


async def _columns(db: Database, conn: Conn, table: str) -> list[str]:
    if db.dialect == "postgresql":
        sql = (
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position"
        )
    else:
        sql = "SELECT name FROM pragma_table_info(?) ORDER BY cid"
    return [str(row[0]) for row in await conn.fetchall(sql, (table,))]


async def copy_database(source: Database, target: Database) -> CopyReport:
    """Copy every game, seat, snapshot, action, result and player row into ``target``."""
    if await source.schema_version() != await target.schema_version():
        raise StorageError("source and target are at different schema versions")
    rows: dict[str, int] = {}
    async with source._read() as reader, target._write() as writer:
        for table in ("games", "players"):
            found = await writer.fetchone(f"SELECT COUNT(*) FROM {table}")
            if found is not None and int(found[0]):
                raise TargetNotEmpty(
                    f"the target already has {found[0]} row(s) in {table}; "
                    "copy only into a new, empty database"
                )
        for table, order in TABLES:
            columns = await _columns(source, reader, table)
            if columns != await _columns(target, writer, table):
                raise StorageError(f"the two databases disagree on the columns of {table}")
            names = ", ".join(columns)
            insert = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' for _ in columns)})"
            copied = 0
            while True:
                batch: Sequence[Any] = await reader.fetchall(
                    f"SELECT {names} FROM {table} ORDER BY {order} LIMIT ? OFFSET ?",
                    (BATCH, copied),
                )
                if not batch:
                    break
                await writer.executemany(insert, [tuple(row) for row in batch])
                copied += len(batch)
            rows[table] = copied
        if target.dialect == "postgresql":  # ids were given explicitly: move the counter on
            await writer.execute(
                "SELECT setval(pg_get_serial_sequence('games', 'id'),"
                " COALESCE(MAX(id), 1), MAX(id) IS NOT NULL) FROM games"
            )
    return CopyReport(redact(source.path), redact(target.path), rows)


def _same(source: str | Path, target: str | Path) -> bool:
    if is_postgres_url(source) and is_postgres_url(target):
        a, b = parts(str(source)), parts(str(target))
        if a is None or b is None:
            return str(source) == str(target)
        return (a.host, a.port, a.database) == (b.host, b.port, b.database)
    if is_postgres_url(source) or is_postgres_url(target):
        return False
    return Path(source).resolve() == Path(target).resolve()


def check_target(source: str | Path, target: str | Path) -> None:
    """Refuse a target that cannot be what was meant; :class:`BadTarget` says why."""
    text = str(target)
    if not text.strip():
        raise BadTarget(
            f"the target is empty (an unset shell variable?): give {ACCEPTED}, "
            "or leave it out to copy into DATABASE_URL"
        )
    if not is_postgres_url(text):
        if text.strip() in {".", ".."} or Path(text).is_dir():
            raise BadTarget(f"the target {text} is a folder: give {ACCEPTED}")
        if Path(text).suffix != ".db":
            raise BadTarget(f"the target {redact(text)} is not a database: give {ACCEPTED}")
    if _same(source, target):
        raise BadTarget("the source and the target are the same database")


def _setting(end: str, address: str | Path) -> str:
    return f"the {end} {'URL' if is_postgres_url(address) else 'path'}"


async def copy(
    source: str | Path, target: str | Path, *, target_setting: str | None = None
) -> CopyReport:
    """Copy ``source`` into the empty ``target``. ``target_setting`` is what an error tells
    to fix when the target cannot be opened (the command passes ``DATABASE_URL`` when the
    target came from there)."""
    check_target(source, target)
    if not is_postgres_url(source) and not await asyncio.to_thread(Path(source).is_file):
        raise StorageError(f"no database at {source}")
    async with (
        Database.open(source, setting=_setting("source", source)) as src,
        Database.open(target, setting=target_setting or _setting("target", target)) as dst,
    ):
        return await copy_database(src, dst)


def target_from_settings() -> str:
    """``DATABASE_URL`` as the bot reads it: the environment, else ``.env``."""
    url = load_settings().database_url
    if not url:
        raise BadTarget(
            "no target given and DATABASE_URL is not set (in the environment or .env): "
            f"set it, or give the target, {ACCEPTED}"
        )
    return url


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.storage.copy",
        description="Copy a Quantum Table database (SQLite file or postgresql:// URL) into a "
        "new, empty one. Stop the bot first. Passwords are never printed.",
    )
    parser.add_argument("source", help="the database to copy: a file path or postgresql:// URL")
    parser.add_argument(
        "target",
        nargs="?",
        help=f"the empty database to fill: {ACCEPTED} (default: DATABASE_URL, from the "
        "environment or .env)",
    )
    args = parser.parse_args(argv)
    try:
        if args.target is None:
            report = asyncio.run(
                copy(args.source, target_from_settings(), target_setting="DATABASE_URL")
            )
        else:
            report = asyncio.run(copy(args.source, args.target))
    except ConfigurationError as error:
        print(error, file=sys.stderr)
        return 2
    except (StorageError, OSError) as error:
        print(f"Copy failed, nothing was copied: {error}", file=sys.stderr)
        return 1
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
