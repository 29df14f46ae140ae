"""Quantum Fingers in words: the English of real events, refusals, panels and the picture
(golden: a reviewer sees the wording here), and whole seeded games worded in English and in
the pseudo-locale with no message missing."""

from __future__ import annotations

import logging
import random
import re

import pytest

from bot.engines.base import GameError
from bot.engines.fingers.ai import random_action
from bot.engines.fingers.engine import FingersConfig, FingersEngine, FingersState
from bot.games.fingers import SPEC, FingersUI, move_text
from bot.render.common import recording_text
from bot.render.fingers import render_fingers
from bot.words import catalogue, error_text, using, words_for

ENGINE = FingersEngine()
UI = FingersUI()
NAMES = ["Ada", "Bo", "Cy"]
A, B, C = 0, 1, 2

# The seed's example game (see tests/engines/test_fingers.py), move by move.
EXAMPLE = [
    (A, "new:2:éclairs"),
    (C, "no"),
    (B, "ask:0:0"),
    (B, "book"),
    (B, "new:2:bauxite"),
    (B, "ask:2:1"),
    (C, "no"),
    (C, "new:0:chimpanzees"),
]


TYPED = ("sea buckthorn", "mint", "tea leaves")
"""Flavour names players type in the seeded games (the AI's stock names come otherwise)."""


def new(n: int = 3, k: int = 4, seed: int = 7) -> FingersState:
    return ENGINE.new_game(FingersConfig(per_flavour=k), n, seed=seed)


def refusal(state: FingersState, seat: int, action: str) -> str:
    with pytest.raises(GameError) as refused:
        ENGINE.apply(ENGINE.copy_state(state), seat, action)
    return error_text(refused.value, words_for("en"))


def test_the_example_games_events_in_english() -> None:
    state = new()
    lines = []
    for seat, action in EXAMPLE:
        for event in ENGINE.apply(state, seat, action):
            lines.append(UI.event_line(event.entry(), NAMES, words_for("en")))
    forced = " (forced: no consistent deal allows the other answer)"
    assert lines == [
        "Ada asks Cy for éclairs (naming a new flavour).",
        "Cy has no éclairs. The turn passes to Bo.",
        "Bo asks Ada for éclairs.",
        f"Ada hands Bo a finger of éclairs{forced}.",
        "Bo has a book of éclairs and puts 4 fingers down; 1 finger left.",
        "Bo asks Cy for bauxite (naming a new flavour).",
        f"Cy hands Bo a finger of bauxite{forced}.",
        "Bo asks Cy for bauxite.",
        "Cy has no bauxite. The turn passes to Cy.",
        "Cy asks Ada for chimpanzees (naming a new flavour).",
        f"Ada hands Cy a finger of chimpanzees{forced}.",
        "Cy has a book of chimpanzees (forced) and puts 4 fingers down; 0 fingers left.",
        "It is Cy's turn and their hand is empty: Cy wins!",
    ]


def test_forced_no_keep_and_draws_in_english() -> None:
    state = new()
    en = words_for("en")
    ENGINE.apply(state, A, "new:1:x")
    ENGINE.apply(state, B, "yes")
    (keep,) = ENGINE.apply(state, A, "keep")
    assert UI.event_line(keep, NAMES, en) == "Ada declares no book: they do not hold every x."
    state = new()
    ENGINE.apply(state, A, "new:1:x")
    ENGINE.apply(state, B, "no")
    ENGINE.apply(state, B, "new:2:y")
    ENGINE.apply(state, C, "no")
    events = ENGINE.apply(state, C, "ask:1:0")
    assert UI.event_line(events[-1], NAMES, en) == (
        "Bo has no x (forced: no consistent deal allows the other answer). The turn passes to Ada."
    )
    ENGINE.apply(state, A, "ask:1:0")
    draw = ENGINE.apply(state, B, "ask:2:1")[-1]
    assert UI.event_line(draw, NAMES, en) == (
        "The game is drawn: the same position came round again."
    )
    for reason, said in [("asks", "200 asks have been made"), ("stuck", "Bo has nobody to ask")]:
        entry = {"kind": "draw", "data": {"reason": reason, "asks": 200, "asker": B}}
        assert UI.event_line(entry, NAMES, en) == f"The game is drawn: {said}."


def test_entries_saved_with_the_engines_own_sentence_are_shown_as_saved() -> None:
    """Log entries from when the engine still wrote sentences (their data lacks the flavour's
    name and the seats the messages need)."""
    en = words_for("en")
    old = {"kind": "no", "seat": 2, "data": {"flavour": 0, "forced": False}}
    old["text"] = "{p2} has no éclairs. The turn passes to {p1}."
    assert UI.event_line(old, NAMES, en) == "Cy has no éclairs. The turn passes to Bo."
    assert UI.event_line("Ada asks Cy for mint.", NAMES, en) == "Ada asks Cy for mint."


def test_refusals_in_english() -> None:
    state = new()
    assert refusal(state, A, "new:1:" + "x" * 50) == (
        "Flavour names are at most 32 characters; that one is 50."
    )
    assert refusal(state, A, "new:1:<@1>") == "Flavour names can't contain '<' '>' '@'."
    assert refusal(state, A, "new:1:www.example.org") == "Flavour names can't be web addresses."
    assert refusal(state, A, "new:1: ") == "Give the new flavour a name."
    assert refusal(state, A, "steal:1") == (
        "I don't know the move 'steal:1'; use ask:<player>:<flavour>, new:<player>:<name>, "
        "yes, no, book or keep."
    )
    assert refusal(state, A, "new:9:x") == "There is no player 9."
    assert refusal(state, A, "new:0:x") == "Ask somebody else, not yourself."
    assert refusal(state, B, "new:0:x") == "It is not your move."
    assert refusal(state, A, "yes") == "Nobody is waiting for your answer."
    ENGINE.apply(state, A, "new:2:éclairs")
    assert refusal(state, A, "ask:2:0") == "It is not your move."
    assert refusal(state, C, "ask:0:0") == "You can't ask now: answer yes or no first."
    ENGINE.apply(state, C, "no")
    assert refusal(state, B, "new:0:Éclairs") == (
        "There is already a flavour called 'Éclairs': ask for it by name instead."
    )
    ENGINE.apply(state, B, "ask:2:0")  # C has said no éclairs: a forced no, C's turn
    assert refusal(state, C, "ask:0:0") == (
        "You can't ask for éclairs: no deal consistent with the game so far leaves you "
        "holding any. You may only ask for a flavour you could hold."
    )
    assert refusal(state, C, "ask:0:1") == (
        "That flavour has no name yet: ask for a new flavour instead."
    )


def test_panels_turn_text_and_picture_in_english() -> None:
    state = new()
    ENGINE.apply(state, A, "new:2:éclairs")
    table = ENGINE.observe(state, None)
    with using("en"):
        assert UI.turn_text(table, NAMES) == (
            "**Ada** asked **Cy** for éclairs: both answers are still consistent, so Cy "
            "chooses (press **My hand**)."
        )
        panel = UI.private_panel(ENGINE.observe(state, C), ["yes", "no"], NAMES)
        waiting = UI.private_panel(ENGINE.observe(state, B), [], NAMES)
        options = UI.options_text(FingersConfig(per_flavour=5))
        modal = UI.modal(ENGINE.observe(state, C), "?new:0")
        with recording_text() as drawn:
            render_fingers(table, NAMES, ["Ada asks Cy for éclairs (naming a new flavour)."])
    assert panel.title == "Ada asks you for éclairs"
    assert panel.description == (
        "Both answers fit some consistent deal, so it is your choice. **Yes** hands over one "
        "finger of éclairs and lets them ask again; **No** commits you to holding none and "
        "passes the turn on."
    )
    assert [(f.name, f.value) for f in panel.fields] == [
        ("Your fingers", "4"),
        ("Your books", "none"),
        ("What your hand may hold", "éclairs: 0–3\neach unnamed flavour (2): 0–3"),
    ]
    assert [c.label for c in panel.controls] == ["Yes, hand over éclairs", "No, I have none"]
    assert waiting.title == "Your hand"
    assert waiting.description == "Waiting for **Cy**. Everything is public: watch the table."
    assert options == "One flavour per player, 5 fingers of each; everyone starts with 5 fingers."
    assert modal is None  # Cy is answering, not asking
    texts = [d.text for d in drawn]
    assert texts[:3] == [
        "Quantum Fingers",
        "Ada asks Cy for éclairs: yes or no?",
        "ask 1 of at most 200 · 4 of each flavour",
    ]
    assert {"PLAYER", "FINGERS", "BOOKS", "éclairs", "unnamed ×2"} <= set(texts)


def test_the_ask_panel_and_moves_in_english() -> None:
    state = new()
    legal = ENGINE.legal_actions(state, A)
    with using("en"):
        panel = UI.private_panel(ENGINE.observe(state, A), legal, NAMES)
        modal = UI.modal(ENGINE.observe(state, A), "?new:1")
        moves = [move_text(ENGINE.observe(state, A), m, NAMES) for m in ("yes", "keep", "book")]
    assert panel.title == "Your turn: ask someone"
    assert [(c.label, c.placeholder) for c in panel.controls] == [
        ("Ask Bo for…", "Ask Bo for…"),
        ("Ask Cy for…", "Ask Cy for…"),
    ]
    assert [o.label for o in panel.controls[0].options] == [
        "Ask Bo for a new flavour (you name it)"
    ]
    assert modal is not None
    assert (modal.title, modal.label, modal.placeholder) == (
        "Name a new flavour",
        "Flavour name",
        "juniper berries",
    )
    assert moves == ["Answer yes", "Keep them", "Declare the book"]
    assert SPEC.blurb.startswith("Go Fish with no cards")


def _words_seen(state: FingersState, names: list[str], legal_seat: int) -> list[str]:
    """Everything a player reads of this moment but the log: turn text, panels, picture."""
    table = ENGINE.observe(state, None)
    mine = ENGINE.observe(state, legal_seat)
    legal = ENGINE.legal_actions(state, legal_seat)
    texts = [UI.turn_text(table, names)]
    for panel in (
        UI.private_panel(mine, legal, names),
        UI.private_panel(ENGINE.observe(state, (legal_seat + 1) % state.n_players), [], names),
    ):
        texts += [panel.title, panel.description or ""]
        texts += [text for f in panel.fields for text in (f.name, f.value)]
        for control in panel.controls:
            texts += [control.label, control.placeholder or ""]
            texts += [option.label for option in control.options or ()]
    texts += [move_text(mine, move, names) for move in legal]
    with recording_text() as drawn:
        render_fingers(table, names, [])
    return texts + [d.text for d in drawn]


@pytest.mark.parametrize("locale", ["en", catalogue.PSEUDO])
def test_seeded_games_are_worded_with_no_message_missing(
    locale: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Random consistent games of 3 to 8 players, every event, refusal, panel and picture
    worded; in the pseudo-locale no letter is left unaccented but the names people gave."""
    words = words_for(locale)
    kinds: set[str] = set()
    codes: set[str] = set()
    refused = ("yes", "book", "keep", "ask:1:0", "new:0:x", "new:1:", "new:1:a@b", "new:9:x")
    with caplog.at_level(logging.ERROR, logger="bot.words"), using(words):
        for seed in range(12):
            n = 3 + seed % 6
            state = new(n, k=3 + seed % 4, seed=seed)
            names = [f"{chr(0x3B1 + s)}{s}" for s in range(n)]  # Greek: no ASCII letters
            rng = random.Random(seed)
            lines: list[str] = [UI.options_text(state.config)]
            while not ENGINE.is_over(state):
                (seat,) = ENGINE.to_act(state)
                lines += _words_seen(state, names, seat)
                for action in refused:
                    try:
                        ENGINE.apply(ENGINE.copy_state(state), seat, action)
                    except GameError as error:
                        codes.add(error.code)
                        lines.append(error_text(error, words))
                action = random_action(ENGINE.observe(state, seat), rng)
                typed = [t for t in TYPED if t not in state.names]
                if action.startswith("new:") and typed and rng.random() < 0.5:
                    action += ":" + rng.choice(typed)
                for event in ENGINE.apply(state, seat, action):
                    assert not event.text
                    kinds.add(event.kind)
                    lines.append(UI.event_line(event.entry(), names, words))
            lines += _words_seen(state, names, 0)
            if locale == catalogue.PSEUDO:
                # a long name is drawn over two lines in the picture: its words too
                given = [n for n in state.names if n]
                given = sorted({*given, *" ".join(given).split()}, key=len, reverse=True)
                for line in lines:
                    bare = line
                    for name in given:
                        bare = bare.replace(name, "")
                    assert not re.search("[A-Za-z]", bare), line
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert {"ask", "yes", "no", "book", "win"} <= kinds
    assert len(codes) >= 6
