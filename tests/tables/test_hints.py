"""Hints in the hosting core: the table option, the Hint button, the hint itself (the hard
AI's move from the seat's own observation, in the AI workers), its count in the results."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from bot.engines.base import GameError
from bot.engines.qdice import ai as qdice_ai
from bot.games import all_games
from bot.storage.db import Database
from bot.tables.manager import Person, TableManager
from bot.tables.protocols import GameAI, NotSeated, NotYourTurn
from bot.tables.table import Table
from bot.tables.thinking import Thinker
from bot.tables.views import HINT, Panel
from tests.tables.test_manager import CHANNEL, GUILD, Recorder

ALICE, BOB, CAROL = Person(1, "Alice"), Person(2, "Bob"), Person(3, "Carol")
GAMES = all_games()


@pytest.fixture
async def db(tmp_path: Path):
    database = await Database.open(tmp_path / "hints.db")
    yield database
    await database.close()


def _manager(db: Database, games: dict | None = None, budget: float = 5.0) -> TableManager:
    games = games or GAMES
    thinker = Thinker(games.values(), workers=0, budget=budget)
    return TableManager(db, games, Recorder(), ai_delay=0, turn_timeout=60, thinker=thinker)


async def _qdice(core: TableManager, *, hints: bool, seed: int = 3) -> Table:
    table = await core.create(
        "qdice", guild_id=GUILD, channel_id=CHANNEL, host=ALICE, seed=seed, hints=hints
    )
    await core.attach_message(table, 999)
    await core.join(table.id, BOB)
    return table


def _hint_field(panel: Panel) -> str:
    (field,) = [f for f in panel.fields if f.name == "💡 Hint"]
    return field.value


def _to_act(table: Table) -> tuple[int, Person]:
    assert table.state is not None
    (seat,) = table.spec.engine.to_act(table.state)
    return seat, (ALICE, BOB)[seat]


async def test_without_the_option_there_is_no_hint(db: Database) -> None:
    core = _manager(db)
    table = await _qdice(core, hints=False)
    assert "Hints: off" in str(core.public_panel(table).fields)
    await core.start(table.id, ALICE)
    _, who = _to_act(table)
    panel = await core.private_panel(table.id, who.id)
    assert all(c.action != HINT for c in panel.controls)
    with pytest.raises(GameError, match=r"^error-hints-off\b"):
        await core.hint(table.id, who.id)
    await core.close()


async def test_a_hint_is_the_hard_move_for_the_seat_to_act_only(db: Database) -> None:
    core = _manager(db)
    table = await _qdice(core, hints=True)
    lobby = core.public_panel(table)
    assert "Hints: on" in next(f.value for f in lobby.fields if f.name == "Options")
    await core.start(table.id, ALICE)
    seat, who = _to_act(table)
    waiting = (ALICE, BOB)[1 - seat]
    mine = await core.private_panel(table.id, who.id)
    assert [c.label for c in mine.controls if c.action == HINT] == ["Hint"]
    theirs = await core.private_panel(table.id, waiting.id)
    assert all(c.action != HINT for c in theirs.controls)
    with pytest.raises(NotYourTurn):
        await core.hint(table.id, waiting.id)
    with pytest.raises(NotSeated):
        await core.hint(table.id, CAROL.id)

    panel = await core.hint(table.id, who.id)
    assert table.state is not None
    obs = table.spec.engine.observe(table.state, seat)
    seed = table.ai_seed(table.record.version, seat)
    hard = qdice_ai.decide(obs, "hard", random.Random(seed), None)
    expected = qdice_ai.analyse(obs, random.Random(seed), None)
    assert expected.move == hard
    assert _hint_field(panel) == GAMES["qdice"].ui.hint_text(obs, expected, table.names)
    assert _hint_field(panel).startswith("**Keep ")
    (button,) = [c for c in panel.controls if c.action == HINT]
    assert button.disabled  # spent: the hint is on show
    # the private view drawn for others (and for this seat later) is not changed by it
    again = await core.private_panel(table.id, who.id)
    assert all(f.name != "💡 Hint" for f in again.fields)
    assert table.record.config["hints_used"] == {str(seat): 1}
    await core.hint(table.id, who.id)  # the same moment: the same hint, counted once
    assert table.record.config["hints_used"] == {str(seat): 1}
    stored = await db.load_game(table.id)
    assert stored is not None and stored.config["hints_used"] == {str(seat): 1}
    await core.close()


async def test_the_results_say_hints_were_on_and_who_asked(db: Database) -> None:
    core = _manager(db)
    table = await _qdice(core, hints=True, seed=5)
    await core.start(table.id, ALICE)
    asked = 0
    engine = table.spec.engine
    rng = random.Random(1)
    while table.record.status == "active":
        assert table.state is not None
        seat, who = _to_act(table)
        if seat == 0 and asked < 2 and table.state.turns > asked:  # type: ignore[attr-defined]
            await core.hint(table.id, who.id)
            asked += 1
        move = qdice_ai.decide(engine.observe(table.state, seat), "normal", rng)
        await core.act(table.id, who.id, move, None)
    assert asked == 2
    finished = core.public_panel(table)
    (hints,) = [f for f in finished.fields if f.name == "Hints"]
    assert hints.value == "On: asked by Alice 2 times."
    rematch, opened = await core.rematch(table.id, ALICE)
    assert opened and rematch.record.config["hints"] is True
    assert "hints_used" not in rematch.record.config  # the new game counts afresh
    assert "Hints: on" in next(
        f.value for f in core.public_panel(rematch).fields if f.name == "Options"
    )
    await core.close()


def _failing(observation: object, rng: random.Random, deadline: float | None) -> object:
    raise RuntimeError("this analysis always fails")


async def test_a_failed_hint_says_so_and_is_not_counted(db: Database) -> None:
    spec = GAMES["qdice"]
    assert spec.ai is not None
    broken = dataclasses.replace(spec, ai=dataclasses.replace(spec.ai, analyse=_failing))
    core = _manager(db, {"qdice": broken})
    table = await _qdice(core, hints=True)
    await core.start(table.id, ALICE)
    _, who = _to_act(table)
    panel = await core.hint(table.id, who.id)
    assert "couldn't work out a hint" in _hint_field(panel)
    (button,) = [c for c in panel.controls if c.action == HINT]
    assert not button.disabled  # press again to try again
    assert "hints_used" not in table.record.config
    await core.close()


async def test_no_hint_button_for_a_game_without_an_analysis(db: Database) -> None:
    spec = GAMES["qdice"]
    assert spec.ai is not None
    plain = dataclasses.replace(spec, ai=GameAI(decide=spec.ai.decide))
    core = _manager(db, {"qdice": plain})
    table = await _qdice(core, hints=True)
    assert "Hints: off" in str(core.public_panel(table).fields)
    await core.start(table.id, ALICE)
    _, who = _to_act(table)
    panel = await core.private_panel(table.id, who.id)
    assert all(c.action != HINT for c in panel.controls)
    await core.close()


async def test_the_hint_runs_off_the_event_loop_in_a_worker(db: Database) -> None:
    """With worker processes the analysis runs in one of them (the pool the AI uses)."""
    games = {"qdice": GAMES["qdice"]}
    thinker = Thinker(games.values(), workers=1, budget=5.0)
    await thinker.start()
    core = TableManager(db, games, Recorder(), ai_delay=0, thinker=thinker)
    table = await _qdice(core, hints=True)
    await core.start(table.id, ALICE)
    seen: list[tuple[str, str]] = []
    thinker.on_decision = lambda game, level, seconds: seen.append((game, level))
    _, who = _to_act(table)
    panel = await core.hint(table.id, who.id)
    assert _hint_field(panel).startswith("**Keep ") and seen == [("qdice", "hint")]
    await core.close()
