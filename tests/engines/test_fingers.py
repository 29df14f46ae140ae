"""Quantum Fingers rules: the seed's example game, every ruling, refusals and self-play."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engines.base import ConfigError, GameError, IllegalAction, InvalidAction
from bot.engines.fingers.ai import random_action
from bot.engines.fingers.engine import (
    MAX_ASKS,
    FingersConfig,
    FingersEngine,
    FingersState,
)

ENGINE = FingersEngine()
A, B, C = 0, 1, 2


def new(n: int = 3, k: int = 4) -> FingersState:
    return ENGINE.new_game(FingersConfig(per_flavour=k), n, seed=7)


def refused(state: FingersState, seat: int, action: str) -> tuple[str, dict[str, Any]]:
    """The refusal of a move, as its code and arguments."""
    with pytest.raises(GameError) as refusal:
        ENGINE.apply(state, seat, action)
    return refusal.value.code, refusal.value.params


def play(state: FingersState, seat: int, action: str) -> list[tuple[str, bool | None]]:
    """Apply a move; its events as (kind, forced) pairs."""
    return [(e.kind, e.data.get("forced")) for e in ENGINE.apply(state, seat, action)]


def test_the_seeds_example_game_move_for_move() -> None:
    state = new()
    # A: C, do you have any éclairs?  C: No (a free choice).
    assert play(state, A, "new:2:éclairs") == [("ask", None)]
    assert ENGINE.legal_actions(state, C) == ["yes", "no"]
    assert play(state, C, "no") == [("no", False)]
    assert state.current == B
    # B: A, any éclairs?  A: Yes, forced (else B began with all four).
    assert play(state, B, "ask:0:0") == [("ask", None), ("yes", True)]
    # B may hold all four éclairs but need not: B chooses to declare the book.
    assert state.phase == "book" and ENGINE.legal_actions(state, B) == ["book", "keep"]
    assert play(state, B, "book") == [("book", False)]
    assert state.counts == [3, 1, 4]
    # B: C, any bauxite?  C: Yes, forced (else C began with four of the third flavour).
    assert play(state, B, "new:2:bauxite") == [("ask", None), ("yes", True)]
    # B: C, any bauxite?  C: No (a choice).
    assert play(state, B, "ask:2:1") == [("ask", None)]
    assert play(state, C, "no") == [("no", False)]
    # The deal is known now: B two bauxite, A two bauxite and a chimpanzee, C three chimps.
    assert state.current == C
    assert state.lo == state.hi
    assert state.lo == [[0, 2, 1], [0, 2, 0], [0, 0, 3]]
    # C: A, any chimpanzees?  A: Yes (forced). C has a book of chimpanzees and wins.
    events = play(state, C, "new:0:chimpanzees")
    assert events == [("ask", None), ("yes", True), ("book", True), ("win", None)]
    assert ENGINE.is_over(state) and state.winner == C
    outcome = ENGINE.outcome(state)
    assert outcome.winners == [C] and not outcome.draw
    # Standings: the winner, then by books (B booked éclairs, A none); scores are books.
    assert outcome.ranks == [2, 1, 0] and outcome.scores == [0, 1, 1] and outcome.unit == "book"


def test_start_nobody_holds_a_whole_flavour() -> None:
    for n in (3, 5, 8):
        state = new(n)
        assert state.counts == [4] * n and state.remaining == [4] * n
        assert all(v == 0 for row in state.lo for v in row)
        assert all(v == 3 for row in state.hi for v in row)
        assert ENGINE.to_act(state) == {0}
        assert sorted(ENGINE.legal_actions(state, 0)) == sorted(f"new:{q}" for q in range(1, n))


def test_per_flavour_option() -> None:
    state = new(4, k=3)
    assert state.counts == [3] * 4 and state.hi[0][0] == 2


def test_player_counts() -> None:
    with pytest.raises(ConfigError):
        ENGINE.new_game(FingersConfig(), 2, seed=1)
    with pytest.raises(ConfigError):
        ENGINE.new_game(FingersConfig(), 9, seed=1)


def test_naming_rules() -> None:
    state = new()
    code, params = refused(state, A, "new:1:" + "x" * 5000)
    assert (code, params) == ("fingers-error-name-too-long", {"limit": 32, "length": 5000})
    characters = "fingers-error-name-characters"
    got = refused(state, A, "new:1:[nitro](https://x.example)")
    assert got == (characters, {"characters": "'(' ')' '[' ']'"})
    assert refused(state, A, "new:1:https://x.example") == ("fingers-error-name-address", {})
    assert refused(state, A, "new:1:www.example.org") == ("fingers-error-name-address", {})
    assert refused(state, A, "new:1:@everyone") == (characters, {"characters": "'@'"})
    assert refused(state, A, "new:1:<#123>") == (characters, {"characters": "'#' '<' '>'"})
    assert refused(state, A, "new:1:   ") == ("fingers-error-name-empty", {})
    assert state.names == [None, None, None] and state.asks == 0  # untouched
    assert refused(state, A, "new:1:{p0}") == (characters, {"characters": "'{' '}'"})
    play(state, A, "new:1:  Juniper   berries: ripe  ")
    assert state.names[0] == "Juniper berries: ripe"
    event = ENGINE.apply(state, B, "no")[0]
    assert event.kind == "no" and event.seat == B and not event.text
    assert event.data == {"flavour": 0, "name": "Juniper berries: ripe", "forced": False, "next": B}
    # the name the person typed is an argument of the refusal, not part of its code
    got = refused(state, B, "new:2:JUNIPER BERRIES: RIPE")
    assert got == ("fingers-error-name-taken", {"name": "JUNIPER BERRIES: RIPE"})


def test_stock_name_when_none_is_given() -> None:
    state = new()
    play(state, A, "new:1")
    assert state.names[0] == "éclairs"


def test_refusals() -> None:
    state = new()
    assert refused(state, B, "new:0:x") == ("fingers-error-not-your-move", {})
    assert refused(state, A, "new:0:x") == ("fingers-error-ask-yourself", {})
    assert refused(state, A, "new:5:x") == ("fingers-error-no-player", {"number": 5})
    assert refused(state, A, "ask:1:0") == ("fingers-error-flavour-unnamed", {})
    assert refused(state, A, "yes") == ("fingers-error-no-question", {})
    assert refused(state, A, "book") == ("fingers-error-no-book", {})
    with pytest.raises(InvalidAction) as invalid:
        ENGINE.apply(state, A, "steal:1")
    assert invalid.value.code == "fingers-error-unknown-move"
    assert invalid.value.params == {"move": "steal:1"}
    play(state, A, "new:1:x")
    assert refused(state, A, "ask:2:0") == ("fingers-error-not-your-move", {})
    assert refused(state, B, "ask:2:0") == ("fingers-error-cannot-ask-now", {"phase": "answer"})
    play(state, B, "yes")  # A may hold every x now: a book to decide on
    assert refused(state, A, "ask:2:0") == ("fingers-error-cannot-ask-now", {"phase": "book"})


def test_an_answer_that_is_forced_is_given_for_the_player() -> None:
    state = new()
    play(state, A, "new:1:x")
    play(state, B, "no")  # B committed to holding no x; B's turn
    play(state, B, "new:2:y")
    play(state, C, "no")  # C's turn
    assert play(state, C, "ask:1:0") == [("ask", None), ("no", True)]
    assert state.current == A


def test_declining_a_book_commits_the_player() -> None:
    state = new()
    play(state, A, "new:1:x")
    play(state, B, "yes")
    assert state.phase == "book"
    play(state, A, "keep")
    assert state.hi[A][0] == 3 and state.phase == "ask" and state.current == A


def test_you_cannot_ask_an_empty_hand() -> None:
    state = new()
    state.counts = [4, 0, 8]
    assert refused(state, A, "new:1:x") == ("fingers-error-empty-hand", {})


def test_an_empty_hand_wins_when_its_turn_comes() -> None:
    state = new()
    events = ENGINE._start_ask(state, B)
    assert not events and state.phase == "ask"
    state.counts[C] = 0
    events = ENGINE._start_ask(state, C)
    assert [(e.kind, e.seat, e.data) for e in events] == [("win", C, {})]
    assert state.winner == C


def test_two_hundred_asks_is_a_draw() -> None:
    state = new()
    state.asks = MAX_ASKS
    (event,) = ENGINE._start_ask(state, B)
    assert event.kind == "draw" and event.data == {"reason": "asks", "asks": MAX_ASKS, "asker": B}
    assert state.draw and ENGINE.is_over(state)
    outcome = ENGINE.outcome(state)
    assert outcome.draw and outcome.winners == [] and outcome.ranks == [0, 0, 0]


def test_a_repeated_position_is_a_draw() -> None:
    state = new()
    play(state, A, "new:1:x")
    play(state, B, "no")  # B holds no x
    play(state, B, "new:2:y")
    play(state, C, "no")  # C holds no y
    assert play(state, C, "ask:1:0")[-1] == ("no", True)  # nothing new is learnt from here on
    assert play(state, A, "ask:1:0")[-1] == ("no", True)
    assert not ENGINE.is_over(state)
    events = ENGINE.apply(state, B, "ask:2:1")  # C is to ask in the position C asked in before
    assert [(e.kind, e.data.get("forced")) for e in events[-2:]] == [("no", True), ("draw", None)]
    assert events[-1].data["reason"] == "repeat"
    assert state.draw and state.winner is None


def test_not_over_has_no_outcome() -> None:
    with pytest.raises(IllegalAction) as refusal:
        ENGINE.outcome(new())
    assert refusal.value.code == "fingers-error-not-over"


def test_a_finished_game_refuses_every_move() -> None:
    state = new()
    state.counts[C] = 0
    ENGINE._start_ask(state, C)
    assert refused(state, C, "new:0:x") == ("fingers-error-game-over", {})


def test_events_are_data_without_sentences() -> None:
    """The seed's example game as the events' kinds, seats and data (no English in them)."""
    state = new()
    log = []
    for seat, action in [
        (A, "new:2:éclairs"),
        (C, "no"),
        (B, "ask:0:0"),
        (B, "book"),
        (B, "new:2:bauxite"),
        (B, "ask:2:1"),
        (C, "no"),
        (C, "new:0:chimpanzees"),
    ]:
        events = ENGINE.apply(state, seat, action)
        assert not any(e.text for e in events)
        log += [(e.kind, e.seat, e.data) for e in events]
    eclairs, named = {"flavour": 0, "name": "éclairs"}, {"named": True}
    assert log == [
        ("ask", A, {"target": C, **eclairs, **named}),
        ("no", C, {**eclairs, "forced": False, "next": B}),
        ("ask", B, {"target": A, **eclairs, "named": False}),
        ("yes", A, {**eclairs, "forced": True, "asker": B}),
        ("book", B, {**eclairs, "forced": False, "fingers": 4, "left": 1}),
        ("ask", B, {"target": C, "flavour": 1, "name": "bauxite", **named}),
        ("yes", C, {"flavour": 1, "name": "bauxite", "forced": True, "asker": B}),
        ("ask", B, {"target": C, "flavour": 1, "name": "bauxite", "named": False}),
        ("no", C, {"flavour": 1, "name": "bauxite", "forced": False, "next": C}),
        ("ask", C, {"target": A, "flavour": 2, "name": "chimpanzees", **named}),
        ("yes", A, {"flavour": 2, "name": "chimpanzees", "forced": True, "asker": C}),
        ("book", C, {"flavour": 2, "name": "chimpanzees", "forced": True, "fingers": 4, "left": 0}),
        ("win", C, {}),
    ]
    outcome = ENGINE.outcome(state)
    assert outcome.summary == ""  # the presenter words the result


@pytest.mark.parametrize("n", [3, 4, 5, 6, 8])
def test_random_self_play_invariants(n: int) -> None:
    for seed in range(40 if n < 6 else 8):
        state = ENGINE.new_game(FingersConfig(), n, seed)
        rng = random.Random(seed)
        while not ENGINE.is_over(state):
            (seat,) = ENGINE.to_act(state)
            obs = ENGINE.observe(state, seat)
            assert obs == ENGINE.observe(state, None).model_copy(update={"seat": seat})
            legal = ENGINE.legal_actions(state, seat)
            assert legal and all(s != seat for s in range(n) if s not in ENGINE.to_act(state))
            ENGINE.apply(state, seat, random_action(obs, rng))
            # Conservation: fingers in hands plus booked fingers make the whole pretend deck.
            booked = sum(len(b) for b in state.books) * 4
            assert sum(state.counts) + booked == 4 * n
            assert all(sum(row) >= c for row, c in zip(state.hi, state.counts, strict=True))
            assert all(sum(row) <= c for row, c in zip(state.lo, state.counts, strict=True))
            assert len(state.seen) == len(set(state.seen))
            again = ENGINE.load_state(ENGINE.dump_state(state))
            assert again == state
        assert state.asks <= MAX_ASKS
        assert state.draw or (state.winner is not None and state.counts[state.winner] == 0)
