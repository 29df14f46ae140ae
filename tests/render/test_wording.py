"""Counts in what the games say read right: "1 round", "1 card", "1,000 chips"."""

from __future__ import annotations

from bot.cogs.stats import _points
from bot.engines.flume.engine import FlumeConfig, FlumeEngine
from bot.engines.flux.engine import FluxConfig, FluxEngine
from bot.engines.qpoker.engine import QPokerConfig
from bot.games.flume import FlumeUI
from bot.games.flux import FluxUI
from bot.games.qpoker import QPokerUI


def test_table_options_count_in_words_people_use() -> None:
    text = QPokerUI().options_text(QPokerConfig(chips=1000, rounds=1))
    assert text.startswith("1,000 chips each, 1 round,")
    assert "after 1 deal each" in FluxUI().options_text(FluxConfig(variants="15", deals=1))
    assert "1 deck." in FluxUI().options_text(FluxConfig(decks=1, variants="18"))


def test_a_stock_of_one_card() -> None:
    engine = FlumeEngine()
    state = engine.new_game(FlumeConfig(), 4, seed=4)
    for move in ["bid:3", "pass", "pass", "pass", "trump:H"]:
        (seat,) = engine.to_act(state)
        engine.apply(state, seat, move)
    state.stock = state.stock[:1]
    text = FlumeUI().turn_text(engine.observe(state, None), ["a", "b", "c", "d"])
    assert "1 card in the stock" in text


def test_leaderboard_points() -> None:
    assert [_points(1), _points(12_400.0), _points(2.5)] == [
        "1 point",
        "12,400 points",
        "2.5 points",
    ]


def test_a_lone_play_on_is_not_asked_for() -> None:
    engine, ui = FluxEngine(), FluxUI()
    state = engine.new_game(engine.parse_config({}), 2, 1)  # neither hand at the target
    obs = engine.observe(state, 0)
    legal = engine.legal_actions(state, 0)
    assert legal == ["pass"] and ui.forced_move(obs, legal) == "pass"
    panel = ui.private_panel(obs, legal, ["a", "b"])
    assert "plays on for you" in panel.description and not panel.controls
    state = engine.new_game(engine.parse_config({}), 2, 100)  # seat 0's hand is at the target
    obs = engine.observe(state, 0)
    legal = engine.legal_actions(state, 0)
    assert ui.forced_move(obs, legal) is None
    labels = [c.label for c in ui.private_panel(obs, legal, ["a", "b"]).controls]
    assert labels == ["Claim original hand", "Play on"]
