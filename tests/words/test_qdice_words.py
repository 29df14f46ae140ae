"""Quantum dice in words: the English of real events, refusals, the reasons a keep does not
score, panels, controls, hints and the picture (golden: a reviewer sees the wording here), and
whole seeded games worded in English and in the pseudo-locale with no message missing."""

from __future__ import annotations

import inspect
import logging
import random
import re
from typing import Any

import pytest

from bot.engines.analysis import Analysis
from bot.engines.base import Event, GameError
from bot.engines.qdice import ai, engine
from bot.engines.qdice.engine import QDiceConfig, QDiceState
from bot.engines.qdice.scoring import no_score_reasons
from bot.games.qdice import SPEC, QDiceUI, why_text
from bot.render.common import recording_text
from bot.render.qdice import render_qdice
from bot.words import catalogue, error_text, using, words_for
from tests.engines.scripted import ENGINE, ScriptedRng, make_state, table

UI = QDiceUI()
NAMES = ["Ada", "Bo", "Cy"]
EN = words_for("en")


def lines(events: list[Event], names: list[str] = NAMES) -> list[str]:
    return [UI.event_line(event.entry(), names, EN) for event in events]


def refusal(state: QDiceState, seat: int, action: str) -> str:
    with pytest.raises(GameError) as refused:
        ENGINE.apply(ENGINE.copy_state(state), seat, action)
    return error_text(refused.value, EN)


def test_a_turn_keeps_rolls_and_busts_in_english() -> None:
    state = make_state("1A 4A 5A 6B 2B 3B", script=[[1, 1, 5, 2, 3], [2, 3], [6, 6, 4, 2, 3, 3]])
    assert lines(ENGINE.apply(state, 0, "roll:0")) == [
        "Ada kept 1 (single 1 100) for 100; turn total 100.",
        "Ada rolled 1 1 5 2 3.",
    ]
    assert lines(ENGINE.apply(state, 0, "roll:012"))[:5] == [
        "Ada kept 1 1 5 (single 1 100, single 1 100, single 5 50) for 250; turn total 350.",
        "Ada rolled 2 3.",
        "Ada busted and loses this turn's 350.",
        "Bo rolled 6 6 4 2 3 3.",
        "Bo busted and loses this turn's 0.",
    ]


def test_hot_dice_black_hole_and_quantum_in_english() -> None:
    state = make_state(
        "1A 5B 5B",
        kept="1A 1A 5B",
        turn_total=1200,
        scores=[6400, 0],
        on_board=[True, False],
        script=[[2] * 6, [1, 2, 3, 3, 4, 6]],
    )
    assert lines(ENGINE.apply(state, 0, "roll:012"))[1:4] == [
        "Hot dice! All six dice score; Ada rolls six fresh dice with 1,400 riding.",
        "Ada rolled 2 2 2 2 2 2.",
        "Black hole! Six 2s: Ada loses this turn's 1,400 and falls back to 1,000.",
    ]
    state = make_state("1A 5B 5B", kept="1A 1A 5B", turn_total=250, script=[[4] * 6])
    assert lines(ENGINE.apply(state, 0, "roll:012"))[-1] == (
        "QUANTUM! Ada rolled six 4s, worth 5,000."
    )
    assert lines(ENGINE.apply(state, 0, "bank:012345"))[:2] == [
        "Ada kept 4 4 4 4 4 4 (Quantum (six 4s) 5,000) for 5,000; turn total 5,450.",
        "Ada banked 5,450 and has 5,450 (on the board).",
    ]


def test_the_last_turns_in_english() -> None:
    state = make_state(
        "1A 1A 1A 6B 2B 3B",
        n_players=3,
        scores=[9500, 9000, 8000],
        on_board=[True, True, True],
        turn_total=300,
    )
    state.rng = ScriptedRng(seed=1, script=[[1, 1, 1, 5, 5, 5]])
    assert lines(ENGINE.apply(state, 0, "bank:012"))[:3] == [
        "Ada kept 1 1 1 (three 1s, one colour 1,100) for 1,100; turn total 1,400.",
        "Ada banked 1,400 and has 10,900.",
        "Ada reached 10,900 and is the contingent winner: everyone else has one last turn to "
        "beat that score.",
    ]
    state.turn_total = 1250
    assert lines(ENGINE.apply(state, 1, "bank:012345"))[:3] == [
        "Bo kept 1 1 1 5 5 5 (three 1s, one colour 1,100, three 5s, one colour 600) for 1,700; "
        "turn total 2,950.",
        "Bo banked 2,950 and has 11,950.",
        "Bo beats Ada with 11,950 and is the new contingent winner; Ada is out.",
    ]
    state.dice = table("2A 3A 4A 6B 6B 1B")
    assert lines(ENGINE.apply(state, 2, "bank:5"))[-2:] == [
        "Cy could not beat 11,950 and is out.",
        "Bo wins with 11,950!",
    ]


def test_a_keep_saved_with_english_combination_names_reads_as_before() -> None:
    entry = {
        "kind": "keep",
        "seat": 1,
        "data": {
            "dice": [{"value": 5, "colour": "A"}] * 3,
            "points": 600,
            "combinations": [["three 5s, one colour", 600]],
            "turn_total": 600,
        },
        "text": "{p1} kept 5 5 5 (three 5s, one colour 600) for 600; turn total 600.",
    }
    assert UI.event_line(entry, NAMES, EN) == (
        "Bo kept 5 5 5 (three 5s, one colour 600) for 600; turn total 600."
    )


def test_refusals_in_english() -> None:
    state = make_state("1A 4A 5A 6B 2B 3B")
    assert refusal(state, 0, "roll:013") == (
        "Those dice don't score: a single 4 or 6 scores only in three of a kind; "
        "a 1-6 straight scores only when you keep all six dice."
    )
    assert refusal(state, 0, "roll") == "Select at least one scoring die to keep first."
    assert refusal(state, 0, "bank:0") == (
        "You need 1,000 points in one turn to get on the board; banking now would give 100. "
        "Keep rolling."
    )
    assert refusal(state, 0, "roll:00") == "The move 'roll:00' names the same die twice."
    assert refusal(state, 0, "t7") == (
        "There is no die 7 on the table; the dice are numbered 0 to 5."
    )
    assert refusal(state, 0, "dance") == (
        "I don't know the move 'dance'; use t0-t5, roll, bank, roll:013 or bank:013."
    )
    assert refusal(state, 1, "roll:0") == "It is not your turn."
    with pytest.raises(GameError) as refused:
        ENGINE.outcome(state)
    assert error_text(refused.value, EN) == "The game is not over yet."


@pytest.mark.parametrize(
    ("roll", "selection", "why"),
    [
        ("1A 1A 1B 5B 2B 5A", [0, 1, 2, 3, 4], "a single 2 scores only in three of a kind"),
        ("3A 3B 4A 6B 2B 3A", [0, 1], "two 3s score only as three of a kind: keep a third 3 too"),
        ("3A 3B 4A 6B 2B 1A", [0, 1], "two 3s score only as three of a kind"),
        (
            "4A 4A 4A 4B 5B",
            [0, 1, 2, 3, 4],
            "three 4s make three of a kind, but the fourth 4 is left over "
            "(4s score only three at a time)",
        ),
        (
            "6A 6A 6B 6B 6B 1A",
            [0, 1, 2, 3, 4, 5],
            "three 6s make three of a kind, but the fourth and fifth 6 are left over "
            "(6s score only three at a time)",
        ),
        (
            "2A 3B 4A",
            [0, 1],
            "a single 2 or 3 scores only in three of a kind; "
            "a small straight scores only when you keep all three dice",
        ),
        (
            "2A 2B 3A 3B 6A 6B",
            [0, 1, 2, 3],
            "two 2s score only as three of a kind; two 3s score only as three of a kind; "
            "three pairs score only when you keep all six dice",
        ),
        (
            "2A 3A 4B 6B",
            [0, 1, 2],
            "a single 2, 3 or 4 scores only in three of a kind; "
            "a run like 2-3-4 is a small straight only when it is the whole of a three-dice roll",
        ),
        (
            "4A 4A 4B 4B 4A 4B",
            [0, 1],
            "two 4s score only as three of a kind: keep a third 4 too; "
            "a Quantum scores only when you keep all six dice",
        ),
    ],
)
def test_why_a_keep_does_not_score_in_english(roll: str, selection: list[int], why: str) -> None:
    assert why_text(no_score_reasons(table(roll), selection), EN) == why


def _mid_turn() -> QDiceState:
    """Ada, on the board, has kept 1 5 5 and rolled again; Bo is not on the board yet."""
    return make_state(
        "1A 4A 5A 6B 2B 3B",
        n_players=3,
        scores=[1200, 0, 1500],
        on_board=[True, False, True],
        turn_total=250,
        kept="1A 5B 5B",
    )


def test_turn_text_controls_panels_and_picture_in_english() -> None:
    state = _mid_turn()
    ENGINE.apply(state, 0, "t0")
    ENGINE.apply(state, 0, "t1")
    with using("en"):
        unscoring = UI.turn_text(ENGINE.observe(state, None), NAMES)
        labels = [c.label for c in UI.public_controls(ENGINE.observe(state, None), [])]
        ENGINE.apply(state, 0, "t1")
        table_view = ENGINE.observe(state, None)
        scoring = UI.turn_text(table_view, NAMES)
        legal = ENGINE.legal_actions(state, 0)
        controls = [c.label for c in UI.public_controls(table_view, legal)]
        mine = UI.private_panel(ENGINE.observe(state, 0), legal, NAMES)
        waiting = UI.private_panel(ENGINE.observe(state, 1), [], NAMES)
        options = UI.options_text(QDiceConfig())
        with recording_text() as drawn:
            render_qdice(table_view, NAMES, ["Ada rolled 1 4 5 6 2 3."])
    assert unscoring == (
        "**Ada** to play · turn total 250 · selection does not score\nThose dice don't score: "
        "a single 4 scores only in three of a kind; a 1-6 straight scores only when you keep "
        "all six dice."
    )
    assert labels[-2:] == ["Roll 4 dice", "Bank 250"]
    assert scoring == "**Ada** to play · turn total 250 · selection scores 100"
    assert controls == [
        "1 · A",
        "4 · A",
        "5 · A",
        "6 · B",
        "2 · B",
        "3 · B",
        "Roll 5 dice",
        "Bank 350",
    ]
    secret = (
        " Nothing in Quantum dice is secret: the dice, every score and the buttons are on the "
        "table for everyone. Here is what is yours."
    )
    assert (mine.title, mine.description) == (
        "Your seat",
        "It's your turn: pick dice, Roll and Bank on the table." + secret,
    )
    assert [(f.name, f.value) for f in mine.fields] == [
        ("Your score", "1,200 (on the board)"),
        ("Place", "2nd of 3, 300 behind the lead"),
        ("If you bank now", "+350, for a score of 1,550."),
        ("To win", "8,800 more to reach 10,000."),
    ]
    assert waiting.description == "Waiting for **Ada**." + secret
    assert [(f.name, f.value) for f in waiting.fields] == [
        ("Your score", "0 (needs 1,000 in one turn)"),
        ("Place", "3rd of 3, 1,500 behind the lead"),
        ("To win", "10,000 more to reach 10,000."),
    ]
    assert options == "First to 10,000; 1,000 in one turn to get on the board."
    texts = [d.text for d in drawn]
    assert texts[:8] == [
        "Quantum Dice",
        "ON THE TABLE",
        "SELECTION",
        "TURN TOTAL",
        "AFTER BANKING",
        "KEPT THIS TURN",
        "SCORES",
        "Target 10,000 · Entry 1,000",
    ]
    assert {"to play", "six dice rolled", "on board", "not on board yet"} <= set(texts)
    assert SPEC.blurb == "Six dice in two colours: push your luck to 10,000."


def test_the_final_round_in_the_panel_and_picture_in_english() -> None:
    state = _mid_turn()
    state.final_round, state.contingent_winner = True, 2
    state.scores = [9000, 0, 10_200]
    state.finished_last_turn = [False, False, True]
    with using("en"):
        turn = UI.turn_text(ENGINE.observe(state, None), NAMES)
        panel = UI.private_panel(ENGINE.observe(state, 0), ENGINE.legal_actions(state, 0), NAMES)
        with recording_text() as drawn:
            render_qdice(ENGINE.observe(state, None), NAMES, [])
    assert turn.endswith(" · last turns: beat Cy's 10,200")
    assert panel.fields[-1].value == "Last turns: beat Cy's 10,200, so 1,201 more in this turn."
    texts = [d.text for d in drawn]
    assert "FINAL ROUND" in texts and "Cy leads with 10,200 · Ada's last turn" in texts


def test_hints_in_english() -> None:
    state = _mid_turn()
    obs = ENGINE.observe(state, 0)
    with using("en"):
        advice = UI.hint_text(obs, ai.analyse(obs), NAMES)
        quick = UI.hint_text(obs, Analysis.rule(ai.quick_action(obs), "quick"), NAMES)
    keep_all = "Keep 1 · A, 4 · A, 5 · A, 6 · B, 2 · B, 3 · B"
    assert advice.startswith(
        f"**{keep_all} and roll six fresh dice.** Rolling on brings this turn to about "
    )
    assert ", more than banking 1,750 now. (The solved odds cover two players with the " in advice
    assert f"· {keep_all} and bank 1,750: about 1,750 points this turn" in advice
    assert "· Keep 1 · A and roll 5 dice: about " in advice
    assert quick == (
        f"**{keep_all} and bank 250.** There was no time to think it through: keep the most "
        "points, bank from 300."
    )


def _words_seen(state: QDiceState, names: list[str]) -> list[str]:
    """Everything a player reads of this moment but the log and hints: turn text, controls,
    both kinds of panel, the picture."""
    table_view = ENGINE.observe(state, None)
    texts = [UI.turn_text(table_view, names)]
    mover = state.current if state.current is not None else 0
    legal = ENGINE.legal_actions(state, mover)
    texts += [c.label for c in UI.public_controls(table_view, legal)]
    other = (mover + 1) % state.n_players
    for seat, moves in ((mover, legal), (other, [])):
        panel = UI.private_panel(ENGINE.observe(state, seat), moves, names)
        texts += [panel.title, panel.description or ""]
        texts += [text for f in panel.fields for text in (f.name, f.value)]
    with recording_text() as drawn:
        render_qdice(table_view, names, [])
    return texts + [d.text for d in drawn]


REFUSED = ("roll:9", "bank:0", "roll:00", "dance", "t9", "roll", "bank", "roll:", "roll:013")


@pytest.mark.parametrize("locale", ["en", catalogue.PSEUDO])
def test_seeded_games_are_worded_with_no_message_missing(
    locale: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Random games of 2 to 6 players (toggles, rolls, banks, refusals), every event, refusal,
    panel, control and picture worded; in the pseudo-locale no letter is left unaccented but
    the players' names, a move as it was sent and the list words Babel joins with ("or",
    "and")."""
    words = words_for(locale)
    kinds: set[str] = set()
    codes: set[str] = set()
    with caplog.at_level(logging.ERROR, logger="bot.words"), using(words):
        for seed in range(10):
            n = 2 + seed % 5
            config = QDiceConfig(target=1000 + 500 * (seed % 3), entry=(0, 300, 1000)[seed % 3])
            state = ENGINE.new_game(config, n, seed)
            names = [f"{chr(0x3B1 + s)}{s}" for s in range(n)]  # Greek: no ASCII letters
            rng = random.Random(seed)
            texts: list[str] = [UI.options_text(config)]
            hints = 0
            while not ENGINE.is_over(state):
                (seat,) = ENGINE.to_act(state)
                texts += _words_seen(state, names)
                for action in (*REFUSED, f"roll:{rng.randrange(6)}{rng.randrange(6)}"):
                    try:
                        ENGINE.apply(ENGINE.copy_state(state), seat, action)
                    except GameError as error:
                        codes.add(error.code)
                        texts.append(error_text(error, words))
                obs = ENGINE.observe(state, seat)
                if hints < 3 and rng.random() < 0.1:  # worded, not checked for letters
                    hints += 1
                    assert UI.hint_text(obs, ai.analyse(obs), names)
                roll = rng.random()
                if roll < 0.3:
                    action = f"t{rng.randrange(len(state.dice))}"
                else:
                    action = ai.choose_action(obs, rng) if roll < 0.8 else ai.easy_action(obs, rng)
                for event in ENGINE.apply(state, seat, action):
                    assert not event.text
                    kinds.add(event.kind)
                    texts.append(UI.event_line(event.entry(), names, words))
            texts += _words_seen(state, names)
            if locale == catalogue.PSEUDO:
                for text in texts:
                    bare = re.sub(r"\b(or|and)\b|'[a-z0-9:]+'", "", text)  # a move as sent
                    assert not re.search("[A-Za-z]", bare), text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert {"roll", "keep", "bank", "bust", "contingent", "game_over"} <= kinds
    assert {"qdice-error-no-score", "qdice-error-no-die", "qdice-error-unknown-move"} <= codes


def test_every_event_and_error_message_exists() -> None:
    """The kinds the engine emits and the codes it raises all have a message."""
    source = inspect.getsource(engine)
    found: dict[str, Any] = {
        "kinds": set(re.findall(r'kind="([a-z_]+)"', source)),
        "codes": set(re.findall(r'"(qdice-error-[a-z-]+)"', source)),
    }
    assert len(found["kinds"]) >= 10 and len(found["codes"]) >= 8
    for kind in found["kinds"]:
        assert EN.has(f"qdice-{kind}"), kind
    for code in found["codes"]:
        assert EN.has(code), code
