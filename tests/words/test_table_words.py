"""The English of the hosting core's refusals, pinned: raised as codes by the core, worded by
the catalogue (errors.ftl) exactly as players read them before; and every ``error-`` id the
code raises exists in the catalogue."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bot.engines.base import GameError
from bot.tables.manager import Person, TableManager
from bot.words import error_text, words_for
from tests.tables.test_manager import CHANNEL, GUILD, Recorder
from tests.tables.toy import TOY

ROOT = Path(__file__).resolve().parents[2]
ALICE, BOB = Person(1, "Alice"), Person(2, "Bob")
EN = words_for("en")


@pytest.fixture
async def manager(tmp_path: Path):
    from bot.storage.db import Database as Db

    db = await Db.open(tmp_path / "words.db")
    core = TableManager(db, {"toy": TOY}, Recorder(), ai_delay=0, turn_timeout=60)
    yield core
    await core.close()
    await db.close()


async def _refusal(call) -> str:
    with pytest.raises(GameError) as caught:
        await call
    return error_text(caught.value, EN)


async def test_lobby_refusals_read_as_before(manager: TableManager) -> None:
    table = await manager.create("toy", guild_id=GUILD, channel_id=CHANNEL, host=ALICE)
    assert await _refusal(manager.start(table.id, ALICE)) == (
        "Toy race needs at least 2 players: 1 more must Join, or press Add AI."
    )
    assert await _refusal(manager.join(table.id, ALICE)) == (
        "You already have a seat at this table."
    )
    assert await _refusal(manager.start(table.id, BOB)) == (
        "Only the host or someone with Manage Server can start the game."
    )
    assert await _refusal(manager.remove_ai(table.id, ALICE)) == (
        "There is no AI player to remove."
    )
    assert await _refusal(manager.add_ai(table.id, ALICE, "mega")) == (
        "There is no AI level 'mega': choose easy, normal or hard."
    )
    busy = manager.create("toy", guild_id=GUILD, channel_id=CHANNEL, host=BOB)
    assert await _refusal(busy) == f"A game of Toy race is already running here (game #{table.id})."


async def test_play_refusals_read_as_before(manager: TableManager) -> None:
    table = await manager.create("toy", guild_id=GUILD, channel_id=CHANNEL, host=ALICE)
    await manager.join(table.id, BOB)
    await manager.start(table.id, ALICE)
    mover = table.names[table.state.current]  # type: ignore[union-attr]
    other = BOB if mover == "Alice" else ALICE
    assert await _refusal(manager.act(table.id, other.id, "add1", None)) == (
        f"It's not your move: waiting for {mover}."
    )
    assert await _refusal(manager.act(table.id, 99, "add1", None)) == (
        "You're not playing at this table, so you can't make moves here."
    )
    assert await _refusal(manager.hint(table.id, ALICE.id)) == (
        "Hints are off at this table: the host chooses them when opening it "
        "(`/toy start hints:True`)."
    )
    assert await _refusal(manager.act(10**6, ALICE.id, "add1", None)) == (
        "That game has ended or no longer exists."
    )


def test_the_fixed_replies_and_a_full_table() -> None:
    assert EN("error-table-full", seats=4, kept=True) == (
        "The table is full (4 seats (some are kept for the players invited to the rematch)). "
        "Ask the host to remove an AI player."
    )
    assert EN("error-table-full", seats=4, kept=False) == (
        "The table is full (4 seats). Ask the host to remove an AI player."
    )
    assert EN("error-cooldown", seconds=3.2) == "Slow down a little: try again in 3 s."
    assert EN("error-save-failed") == (
        "That couldn't be saved just now, so nothing changed. Please try again in a moment."
    )


_ID = re.compile(r"^(error|table)-[a-z0-9-]+$")


def _ids_in_code() -> set[str]:
    """Every string literal in the hosting core and the Discord side that looks like an
    ``error-``/``table-`` message id."""
    found: set[str] = set()
    folders = [ROOT / "bot" / "tables", ROOT / "bot" / "ui", ROOT / "bot" / "cogs"]
    for folder in folders:
        for path in folder.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                literal = isinstance(node, ast.Constant) and isinstance(node.value, str)
                if literal and _ID.match(node.value):
                    found.add(node.value)
    return found


def test_every_id_the_code_uses_is_in_the_catalogue() -> None:
    ids = _ids_in_code()
    assert "error-table-busy" in ids and "error-save-failed" in ids
    missing = sorted(i for i in ids if not EN.has(i))
    assert missing == []


@pytest.mark.parametrize("what", ["cancel", "kick", "add-ai", "remove-ai", "start"])
def test_host_only_words_each_action(what: str) -> None:
    text = EN("error-host-only", what=what)
    assert text.startswith("Only the host or someone with Manage Server can ")
    assert "{" not in text and text.endswith(".")
