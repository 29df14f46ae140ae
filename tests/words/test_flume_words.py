"""Flume in words: the English of real events, refusals, panels and the picture (golden: a
reviewer sees the wording here), and whole seeded games worded in English and in the
pseudo-locale with no message missing."""

from __future__ import annotations

import logging
import random
import re

import pytest

from bot.engines.base import GameError
from bot.engines.flume.engine import FlumeConfig, FlumeEngine, FlumeState
from bot.engines.flume.rules import flume_deck
from bot.games.flume import SPEC, FlumeUI, move_text
from bot.render.common import recording_text
from bot.render.flume import render_flume
from bot.words import catalogue, error_text, using, words_for

ENGINE = FlumeEngine()
UI = FlumeUI()
NAMES = ["Ada", "Bo", "Cy", "Di", "Ed"]

# Seed 3, five players: Cy outbids Ada and names hearts; Ada is first to discard.
OPENING = ["bid:3", "pass", "bid:4", "pass", "pass", "trump:H"]


def opened(seed: int = 3) -> tuple[FlumeState, list[str]]:
    state = ENGINE.new_game(FlumeConfig(target=11), 5, seed=seed)
    lines = []
    for action in OPENING:
        (seat,) = ENGINE.to_act(state)
        for event in ENGINE.apply(state, seat, action):
            lines.append(UI.event_line(event.entry(), NAMES, words_for("en")))
    return state, lines


def refusal(state: FlumeState, seat: int, action: str) -> str:
    with pytest.raises(GameError) as refused:
        ENGINE.apply(ENGINE.copy_state(state), seat, action)
    return error_text(refused.value, words_for("en"))


def played(hands: list[list[str]], trump: str, *, bidder: int, bid: int, **kw: object) -> list[str]:
    """A hand in the middle of the play, played out card by card: its events in English."""
    n = len(hands)
    state = ENGINE.new_game(FlumeConfig(target=int(kw.get("target", 21))), n, seed=1)  # type: ignore[call-overload]
    dealt = {c for hand in hands for c in hand}
    state.hands = [list(h) for h in hands]
    state.stock = [c for c in flume_deck() if c not in dealt]
    state.trump, state.bidder, state.bid = trump, bidder, bid
    state.bids, state.discarded = [0] * n, [0] * n
    state.bids[bidder] = bid
    state.phase, state.dealer = "play", n - 1
    state.leader = state.current = 0
    if "called" in kw:
        state.called = str(kw["called"])
        state.partner = next((s for s, h in enumerate(hands) if state.called in h), None)
    if "scores" in kw:
        state.scores = list(kw["scores"])  # type: ignore[call-overload]
    lines = []
    while not ENGINE.is_over(state) and state.phase == "play":
        (seat,) = ENGINE.to_act(state)
        action = ENGINE.legal_actions(state, seat)[0]
        for event in ENGINE.apply(state, seat, action):
            assert not event.text
            lines.append(UI.event_line(event.entry(), NAMES[:n], words_for("en")))
    return lines


def test_the_bidding_in_english() -> None:
    _, lines = opened()
    assert lines == [
        "Ada bids 3.",
        "Bo passes.",
        "Cy bids 4.",
        "Di passes.",
        "Ed passes.",
        "Cy wins the bid at 4 and names trumps.",
        "Cy names hearts ♥ trumps.",
    ]
    state = ENGINE.new_game(FlumeConfig(), 4, seed=5)
    en = words_for("en")
    said = [
        UI.event_line(e.entry(), NAMES[:4], en)
        for action in ("pass",) * 4
        for e in ENGINE.apply(state, ENGINE.to_act(state).__iter__().__next__(), action)
    ]
    assert said[-1] == "Everyone passed; Di deals again."


def test_discards_calls_tricks_and_hands_in_english() -> None:
    en = words_for("en")
    state, _ = opened()
    (keep,) = ENGINE.apply(state, 0, "discard")
    assert UI.event_line(keep, NAMES, en) == "Ada keeps all six cards."
    (swap,) = ENGINE.apply(state, 1, "discard:TS,7C")
    assert UI.event_line(swap, NAMES, en) == "Bo discards 2 and draws 2."
    lines = played([["2H"], ["AH"], ["5C"], ["6C"], ["7C"]], "H", bidder=0, bid=4, called="5C")
    assert lines == [
        "Ada plays 2♥.",
        "Bo plays A♥.",
        "Cy plays 5♣.",
        "The called card is out: Cy is Ada's partner.",
        "Di plays 6♣.",
        "Ed plays 7♣.",
        "Bo takes the trick (2♥, A♥, 5♣, 6♣, 7♣).",
        "Hand 1: Ada is set on the bid of 4. High Bo; Low Ada; Game Bo.",
    ]
    lines = played([["AH"], ["KH"], ["5C"], ["6C"], ["7C"]], "H", bidder=0, bid=3, called="QH")
    assert "Nobody held the called card: Ada played alone." in lines
    entry = {"kind": "call", "seat": 0, "data": {"card": "JKH"}}
    assert UI.event_line(entry, NAMES, en) == (
        "Ada calls the high joker: its holder is their partner."
    )
    entry = {"kind": "call", "seat": 0, "data": {"card": "TS"}}
    assert UI.event_line(entry, NAMES, en) == (
        "Ada calls the 10 of spades: its holder is their partner."
    )
    assert UI.event_line({"kind": "stock_empty"}, NAMES, en) == (
        "The stock is empty: no more discards."
    )
    assert UI.event_line({"kind": "alone", "seat": 4}, NAMES, en) == "Ed plays alone."


def test_the_end_of_a_game_in_english() -> None:
    hands = [["AH", "9S"], ["JD", "JKL"], ["JH", "6S"], ["2H", "TS"]]
    lines = played(hands, "H", bidder=0, bid=3, scores=[19, 19, 19, 19])
    assert lines[-2:] == [
        "Hand 1: Ada makes the bid of 3. High Ada; Low Di; Right bower Ada; Left bower Ada; "
        "Low joker Bo; Game Bo.",
        "Ada and Cy win the game with 22 points!",
    ]
    entry = {"kind": "game_over", "data": {"winners": [4], "scores": [0, 0, 0, 0, 1]}}
    assert UI.event_line(entry, NAMES, words_for("en")) == "Ed wins the game with 1 point!"
    entry = {"kind": "hand", "seat": 1, "data": {"hand": 7, "bid": 6, "made": False}}
    assert UI.event_line(entry, NAMES, words_for("en")) == (
        "Hand 7: Bo is set on the bid of 6. No points in play."
    )


def test_refusals_in_english() -> None:
    state, _ = opened()
    assert refusal(state, 1, "discard") == "It is not your turn."
    assert refusal(state, 0, "bid:4") == (
        "That move is not open now: players are discarding non-trumps."
    )
    assert refusal(state, 0, "d:AH") == "A♥ is a trump: only non-trumps may go."
    assert refusal(state, 0, "d:JKH") == "High joker is a trump: only non-trumps may go."
    assert refusal(state, 0, "d:QS") == "You don't hold the queen of spades."
    assert refusal(state, 0, "discard:KS,KS") == "That discard names the same card twice."
    assert refusal(state, 0, "d:ZZ") == "'ZZ' is not a card."
    assert refusal(state, 0, "shuffle") == (
        "I don't know the move 'shuffle'; try pass, bid:4, trump:H, discard, call:AS, alone "
        "or play:TH."
    )
    few = ENGINE.copy_state(state)
    few.stock = few.stock[:1]
    assert refusal(few, 0, "discard:KS,6S") == (
        "The stock holds only 1 card, so you may discard at most 1."
    )
    fresh = ENGINE.new_game(FlumeConfig(), 4, seed=5)
    assert refusal(fresh, 0, "bid:9") == "Bids go from 3 to 6 points."
    assert refusal(fresh, 0, "bid:x") == "A bid is a number of points, like bid:4."
    ENGINE.apply(fresh, 0, "bid:6")
    assert refusal(fresh, 0, "trump:X") == "Name trumps as trump:S, trump:H, trump:D or trump:C."
    fresh = ENGINE.new_game(FlumeConfig(), 4, seed=5)
    ENGINE.apply(fresh, 0, "bid:4")
    assert refusal(fresh, 1, "bid:4") == "You must bid more than 4 or pass."
    with pytest.raises(GameError) as refused:
        ENGINE.outcome(fresh)
    assert error_text(refused.value, words_for("en")) == "The game is not over yet."


def test_panels_turn_text_and_picture_in_english() -> None:
    state, _ = opened()
    table = ENGINE.observe(state, None)
    with using("en"):
        turn = UI.turn_text(table, NAMES)
        panel = UI.private_panel(ENGINE.observe(state, 0), ENGINE.legal_actions(state, 0), NAMES)
        waiting = UI.private_panel(ENGINE.observe(state, 3), [], NAMES)
        options = UI.options_text(FlumeConfig(target=11, four_colour=True))
        moves = [move_text(m) for m in ("bid:4", "trump:D", "discard:", "discard:KS,JKL")]
        moves += [move_text(m) for m in ("call:AS", "play:TH", "pass", "alone")]
        with recording_text() as drawn:
            render_flume(table, NAMES)
    assert turn == (
        "**Ada** to discard non-trumps · 16 cards in the stock · trumps ♥ hearts, bid 4 by Cy "
        "· dealer Ed\nOpen **My hand** to see your cards and make your move."
    )
    assert panel.title == "Your hand"
    assert panel.description == (
        "Press the non-trumps you want to throw away (press again to keep one), then confirm. "
        "The stock holds 16."
    )
    assert [(f.name, f.value) for f in panel.fields] == [
        ("Your cards", "A♥  High joker  K♠  6♠  9♦  10♣"),
        ("Trumps", "♥ hearts"),
        ("Bid", "4 by Cy"),
        ("Your score", "0"),
    ]
    assert [c.label for c in panel.controls] == ["K♠", "6♠", "9♦", "10♣", "Keep all my cards"]
    assert waiting.description == "Waiting for **Ada**."
    assert options == (
        "First to 11 points; four-colour deck. 4 players in teams, or 5 with a called partner."
    )
    assert moves == [
        "Bid 4",
        "Name ♦ diamonds trumps",
        "Keep every card",
        "Discard K♠ Low joker",
        "Call A♠",
        "Play 10♥",
        "Pass",
        "Play alone",
    ]
    texts = [d.text for d in drawn]
    assert texts[:6] == [
        "Flume",
        "♥",
        "HEARTS",
        "Bid 4 · Hand 1 · first to 11",  # the recorder collapses spaces
        "Ada",
        "to discard",
    ]
    assert {
        "bid 4",
        "D",
        "Discarding non-trumps and drawing",
        "SCORES",
        "HAND 1",
        "Bid 4: Cy",
    } <= set(texts)
    assert SPEC.blurb.startswith("Bid, name trumps")


def test_the_bidding_and_call_panels_in_english() -> None:
    state = ENGINE.new_game(FlumeConfig(), 5, seed=3)
    ENGINE.apply(state, 0, "bid:4")
    with using("en"):
        panel = UI.private_panel(ENGINE.observe(state, 1), ENGINE.legal_actions(state, 1), NAMES)
    assert panel.description == "Your turn to bid. The bid stands at 4. Bid 5 or 6 points, or pass."
    assert [c.label for c in panel.controls] == ["Pass", "Bid 5", "Bid 6"]
    for action in ("pass", "pass", "pass", "pass", "trump:S", *["discard"] * 5):
        (seat,) = ENGINE.to_act(state)
        ENGINE.apply(state, seat, action)
    with using("en"):
        panel = UI.private_panel(ENGINE.observe(state, 0), ENGINE.legal_actions(state, 0), NAMES)
    assert panel.description.startswith("Call your partner by naming a card you don't hold")
    assert [c.placeholder for c in panel.controls[:3]] == [
        "Call a trump",
        "Call another ace, king, queen, jack or 10",
        "Call another 9 to 2",
    ]
    assert panel.controls[-1].label == "Play alone"


def _words_seen(state: FlumeState, names: list[str], seat: int) -> list[str]:
    """Everything a player reads of this moment but the log: turn text, panels, picture."""
    table = ENGINE.observe(state, None)
    mine = ENGINE.observe(state, seat)
    legal = ENGINE.legal_actions(state, seat)
    texts = [UI.turn_text(table, names)]
    for panel in (
        UI.private_panel(mine, legal, names),
        UI.private_panel(ENGINE.observe(state, (seat + 1) % state.n_players), [], names),
    ):
        texts += [panel.title, panel.description or ""]
        texts += [text for f in panel.fields for text in (f.name, f.value)]
        for control in panel.controls:
            texts += [control.label, control.placeholder or ""]
            texts += [o.label for o in control.options or ()]
            texts += [o.description or "" for o in control.options or ()]
    texts += [move_text(move) for move in legal if not move.startswith("d:")]  # hints' moves
    with recording_text() as drawn:
        render_flume(table, names)
    return texts + [d.text for d in drawn]


REFUSED = ("bid:9", "bid:x", "trump:X", "d:ZZ", "discard:", "call:KS", "play:QS", "shuffle")


@pytest.mark.parametrize("locale", ["en", catalogue.PSEUDO])
def test_seeded_games_are_worded_with_no_message_missing(
    locale: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Random seeded games of four and five, every event, refusal, panel and picture worded;
    in the pseudo-locale no letter is left unaccented (names are Greek)."""
    words = words_for(locale)
    kinds: set[str] = set()
    codes: set[str] = set()
    with caplog.at_level(logging.ERROR, logger="bot.words"), using(words):
        for seed in range(6):
            n = 4 + seed % 2
            state = ENGINE.new_game(
                FlumeConfig(target=5 + seed, four_colour=seed % 3 == 0), n, seed
            )
            names = [f"{chr(0x3B1 + s)}{s}" for s in range(n)]  # Greek: no ASCII letters
            rng = random.Random(seed)
            lines: list[str] = [UI.options_text(state.config)]
            steps = 0
            while not ENGINE.is_over(state):
                (seat,) = ENGINE.to_act(state)
                if steps % 3 == 0:
                    lines += _words_seen(state, names, seat)
                for probe in (*REFUSED, "pass"):
                    for who in (seat, (seat + 1) % n):
                        try:
                            ENGINE.apply(ENGINE.copy_state(state), who, probe)
                        except GameError as error:
                            codes.add(error.code)
                            lines.append(error_text(error, words))
                legal = ENGINE.legal_actions(state, seat)
                action = rng.choice(legal)
                if action.startswith("d:") and rng.random() < 0.4:
                    action = "discard"
                if state.phase == "call" and rng.random() < 0.5:
                    action = rng.choice([a for a in legal if a.startswith("call:")])
                for event in ENGINE.apply(state, seat, action):
                    assert not event.text
                    kinds.add(event.kind)
                    lines.append(UI.event_line(event.entry(), names, words))
                steps += 1
            lines += _words_seen(state, names, 0)
            lines += [f.value for f in UI.revealed_fields(ENGINE.revealed(state), names)]
            lines += [f.name for f in UI.revealed_fields(ENGINE.revealed(state), names)]
            if locale == catalogue.PSEUDO:
                for line in lines:  # what was typed is shown as it was typed
                    bare = line.replace("'shuffle'", "").replace("'ZZ'", "")
                    assert not re.search("[A-Za-z]", bare), line
            else:
                assert not any("⟦" in line for line in lines)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert {"bid", "pass", "bid_won", "trump", "discard", "play", "trick", "hand"} <= kinds
    assert {"call", "game_over"} <= kinds
    assert len(codes) >= 8
