"""Hints in words: each game's presentation names the move, says why from the figures the AI
computed, and compares the best few moves."""

from __future__ import annotations

from bot.engines.analysis import Analysis, MoveValue
from bot.engines.flume.engine import FlumeConfig, FlumeEngine
from bot.engines.qdice import ai as qdice_ai
from bot.engines.qdice.engine import Die, QDiceConfig, QDiceEngine
from bot.engines.qpoker.engine import QPokerConfig, QPokerEngine
from bot.games import coach
from bot.games.flume import FlumeUI
from bot.games.qdice import QDiceUI
from bot.games.qpoker import QPokerUI, move_text

NAMES = ["Ana", "Ben", "Cleo", "Dan"]


def test_percentages_and_signed_amounts() -> None:
    assert [coach.percent(x) for x in (0.0, 0.004, 0.5, 0.996, 1.0)] == [
        "0%", "under 1%", "50%", "over 99%", "100%",
    ]  # fmt: skip
    assert coach.percent(0.5123, 1) == "51.2%"
    assert coach.signed(1.44, "points") == "+1.4 points"
    assert coach.signed(-0.04, "chips") == "±0 chips"


def test_qdice_compares_banking_with_rolling_on_in_chances_to_win() -> None:
    engine = QDiceEngine()
    state = engine.new_game(QDiceConfig(), 2, seed=1)
    state.scores, state.on_board, state.turn_total = [5000, 6000], [True, True], 300
    state.dice = [Die(value=v, colour=c) for v, c in [(1, "A"), (5, "A"), (2, "B"), (3, "B")]]
    obs = engine.observe(state, 0)
    found = qdice_ai.analyse(obs)
    assert found.reason == "table"
    text = QDiceUI().hint_text(obs, found, NAMES[:2])
    first = text.split("\n")[0]
    assert first.startswith("**Keep 1 · A")
    other = "banking now would give" if found.move.startswith("roll") else "rolling on would give"
    assert "chance to win the game" in first and other in first
    rows = text.split("\n")[1:]
    assert 2 <= len(rows) <= 3 and rows[0].startswith("→ ") and "% to win the game" in rows[0]


def test_a_rule_is_explained_without_figures() -> None:
    engine = FlumeEngine()
    state = engine.new_game(FlumeConfig(), 4, seed=4)
    obs = engine.observe(state, 0)
    text = FlumeUI().hint_text(obs, Analysis.rule("discard:2C,3C", "discard"), NAMES)
    assert text.startswith("**Discard 2♣ 3♣.** The hard AI doesn't search discards")
    assert "\n" not in text


def test_a_search_names_its_samples_and_a_close_call() -> None:
    engine = QPokerEngine()
    state = engine.new_game(QPokerConfig(), 3, seed=2)
    (seat,) = engine.to_act(state)
    obs = engine.observe(state, seat)
    found = Analysis.of(
        "X:0",
        "chips",
        [MoveValue(move="X:0", value=0.5, win=0.40, samples=32),
         MoveValue(move="CX:1.2", value=0.6, win=0.45, samples=32),
         MoveValue(move="call", value=-1.0, win=0.10, samples=32)],
        scope="round", samples=32, reason="search",
    )  # fmt: skip
    text = QPokerUI().hint_text(obs, found, NAMES[:3])
    assert text.startswith(f"**{move_text('X:0', NAMES)}.** Over 32 sampled deals")
    assert "you win the round 40% of the time" in text and "+0.5 chips" in text
    assert "CX on Ben's qubit 3 (flip it) came out a little ahead" in text  # within the noise
    assert text.endswith("· Call measurement: wins the round 10% · -1.0 chips")
    assert move_text("SWAP:2:1.0", NAMES) == "SWAP your qubit 3 for Ben's qubit 1"
