"""Flux in words: the English of real events, refusals, a private panel, the turn text, the
options and the final score sheet from seeded games (golden: a reviewer sees the wording
here); every ``flux-`` message the code names is in the catalogue; and whole seeded games
worded in English and in the pseudo-locale with no message missing."""

from __future__ import annotations

import logging
import random
import re
from pathlib import Path

import pytest

from bot.engines.base import ConfigError, Event, GameError
from bot.engines.flux.engine import FluxEngine, FluxState
from bot.engines.flux.rules import VARIANTS, parse_variants
from bot.games.flux import RULES, FluxUI
from bot.games.flux_scores import score_fields
from bot.render.flux import render_flux
from bot.words import error_text, using, words_for

ENGINE = FluxEngine()
UI = FluxUI()
NAMES = ["Ada", "Bo", "Cy"]
EN = words_for("en")
ROOT = Path(__file__).resolve().parents[2]
SOURCES = [
    *sorted((ROOT / "bot/engines/flux").glob("*.py")),
    ROOT / "bot/games/flux.py",
    ROOT / "bot/games/flux_scores.py",
    ROOT / "bot/render/flux.py",
    ROOT / "bot/cogs/flux.py",
]


def seeded_game(variants: str = "9", seed: int = 11) -> tuple[FluxState, random.Random]:
    return ENGINE.new_game(ENGINE.parse_config({"variants": variants}), 3, seed), random.Random(
        seed
    )


def step(state: FluxState, rng: random.Random) -> list[Event]:
    seat = rng.choice(sorted(ENGINE.to_act(state)))
    return ENGINE.apply(state, seat, rng.choice(ENGINE.move_options(state, seat)))


def first_of_each_kind(variants: str = "9", seed: int = 11) -> dict[str, str]:
    """The English of the first event of every kind in a seeded random game."""
    state, rng = seeded_game(variants, seed)
    seen: dict[str, str] = {}
    while not ENGINE.is_over(state):
        for event in step(state, rng):
            assert not event.text  # the engine words nothing
            seen.setdefault(event.kind, UI.event_line(event.entry(), NAMES, EN))
    return seen


def refusal(state: FluxState, seat: int, action: str) -> GameError:
    with pytest.raises(GameError) as refused:
        ENGINE.apply(ENGINE.copy_state(state), seat, action)
    return refused.value


def test_the_events_of_a_seeded_game_in_english() -> None:
    seen = first_of_each_kind()
    assert seen == {
        "chose": "Bo has decided.",
        "claims": "Nobody claims an original hand.",
        "play": "Cy plays 8♠.",
        "trick": "Cy wins the trick with 8♠ (+1) and takes command.",
        "discard_die": "Cy rolls the discard die: 3.",
        "discard": "Cy discards 5♠ 3♠ 3♥ and is dealt 3 new.",
        "point_dice": "Cy gets point dice 4.",
        "flux": "FLUX! Bo throws in 7♠ 4♠ 3♠ 2♠ 10♥ A♣ 7♣ (+5) and is dealt seven new cards.",
        "call": "Ada calls!",
        "dice_phase": "Hands are shown (target 10): Ada -8 (dice 6, 2, 2, 1); Bo -4 (dice 2); "
        "Cy -6 (dice 4, 3, 2). Ada, Bo and Cy now choose how to use their point dice.",
        "dice_used": "Point dice: Ada: +6 +1 → -1; Bo: ignore the die → -4; Cy: +3 +2 → -1.",
        "showdown": "Hands (target 10): Ada -1 (9 off); Bo -4 (6 off); Cy -1 (9 off).",
        "settle": "Value game: Bo +11 (undercut!).",
        "poker": "Poker: Ada 9♠ 7♠ 10♥ Q♦ 2♦ (High card, queen); Bo K♠ 5♠ J♥ 7♥ J♦ "
        "(One pair, jacks); Cy 6♠ K♥ 7♥ 4♦ 5♣ (High card, king). Bo wins the poker game: +10.",
        "deal": "Hand 2: Cy deals; the turn-up is 9♥ (hearts are trumps); Ada rolls the "
        "target: 6 + 3 + 6 = 15.",
        "ran_out": "The cards have run out: the hand is settled at once.",
        "game_over": "The burned cards are reached. Bo wins with 42 points!",
    }


def test_events_read_the_same_from_the_saved_log() -> None:
    """A log entry after its JSON round trip (seat keys become strings) reads the same."""
    import json

    event = Event(kind="claim_draw", data={"cards": {0: "9H", 2: "KS"}})
    saved = json.loads(json.dumps(event.entry()))
    assert UI.event_line(saved, NAMES, EN) == UI.event_line(event, NAMES, EN)
    assert UI.event_line(saved, NAMES, EN) == "Claim tie-break cards: Ada 9♥, Cy K♠."
    over = Event(kind="game_over", seat=1, data={"scores": [3, 1, 0], "reason": "flux-end-dealt",
                                                 "ending": "points", "deals": 2})  # fmt: skip
    assert UI.event_line(over, NAMES, EN) == "Every player has dealt twice. Bo wins with 1 point!"


def test_refusals_and_options_in_english() -> None:
    state, rng = seeded_game()
    while state.phase != "command":
        step(state, rng)
    (seat,) = ENGINE.to_act(state)
    assert error_text(refusal(state, seat, "p:2C"), EN) == "You can't play a card now."
    assert error_text(refusal(state, seat, "discard:AS,AS"), EN) == "You don't hold A♠."
    assert error_text(refusal(state, seat, "discard:"), EN) == (
        "You must discard exactly 3 cards, not 0."
    )
    assert error_text(refusal(state, seat, "go"), EN) == "I don't know the Flux move 'go'."
    other = (seat + 1) % 3
    assert error_text(refusal(state, other, "call"), EN) == "It is not your turn."
    with pytest.raises(ConfigError) as refused:
        parse_variants("22,8")
    assert error_text(refused.value, EN) == (
        "Variants 22 and 8 can't be played together: 22 plays on until one player is left "
        "standing, 8 ends the game as soon as someone reaches 121."
    )
    with pytest.raises(ConfigError) as refused:
        ENGINE.new_game(ENGINE.parse_config({"variants": "18", "decks": 1}), 6, 1)
    assert error_text(refused.value, EN) == (
        "1 deck is too few for 6 players: add a deck or play with fewer people."
    )
    with using("en"):
        config = ENGINE.parse_config({"variants": "15,14", "deals": 3, "limit": 200})
        assert UI.options_text(config) == (
            "14 Best five; 15 Reshuffling. 3 decks. The game ends after 3 deals each or at "
            "200 points, whichever comes first."
        )
        assert UI.options_text(ENGINE.parse_config({})) == "Basic game (no variants). 3 decks."


def test_a_private_panel_and_the_turn_text_in_english() -> None:
    state, rng = seeded_game()
    while state.phase != "command":
        step(state, rng)
    (seat,) = ENGINE.to_act(state)
    with using("en"):
        panel = UI.private_panel(
            ENGINE.observe(state, seat), ENGINE.legal_actions(state, seat), NAMES
        )
        turn = UI.turn_text(ENGINE.observe(state, None), NAMES)
    assert panel.title == "Your hand"
    assert panel.description == (
        "You have command. Pick 3 cards to discard, or call now (your hand is worth -4, "
        "6 points away from -10 (the target counts with either sign))."
    )
    assert [(f.name, f.value) for f in panel.fields] == [
        ("Your score", "1"),
        ("Your hand", "5♠ 4♠ 3♠ 3♥ 9♦ 3♦ 7♣"),
        ("Hand value", "-4, 6 points away from -10 (the target counts with either sign)"),
        ("Turn-up", "J♦ (trumps)"),
    ]
    assert [c.label for c in panel.controls][-2:] == ["Keep hand", "Call at -4"]
    assert turn == (
        "**Cy** has command: discard 3 or call.\n"
        "Target **10** · trumps ♦ · 121 cards before the cut-off"
    )


def test_the_final_score_sheet_in_english() -> None:
    state, rng = seeded_game()
    while not ENGINE.is_over(state):
        step(state, rng)
    with using("en"):
        fields = score_fields(ENGINE.observe(state, None), NAMES)
    assert [f.name for f in fields] == ["Where the points came from", "Hand by hand"]
    assert fields[0].value.splitlines()[0] == (
        "**Bo**: 42 points from 4 tricks won (+4), 1 flux (+5), 2 value games (+14), "
        "2 poker games (+19)"
    )
    assert fields[1].value.splitlines()[0] == (
        "**Hand 1** (target 10): value game: **Ada** called at -1 and was undercut by **Bo**; "
        "poker: **Bo** won with one pair, jacks. Points: Ada +14 (4 tricks, 2 fluxes), "
        "Bo +27 (1 trick, flux, value game, poker), Cy +3 (3 tricks)."
    )


def test_every_flux_message_the_code_names_is_in_the_catalogue() -> None:
    named: set[str] = set()
    for path in SOURCES:
        named |= set(re.findall(r"[\"'](flux-[a-z0-9_-]*[a-z0-9_])[\"']", path.read_text()))
    named |= {f"flux-variant-{key}" for key in VARIANTS}
    named |= {f"flux-hint-rule-{reason}" for reason in RULES}
    named.discard("flux-menu")  # not a message: a custom_id prefix, if any
    assert len(named) > 100
    missing = sorted(ident for ident in named if not EN.has(ident))
    assert missing == []
    assert all(EN.attribute(f"flux-variant-{key}", "summary") for key in VARIANTS)


@pytest.mark.parametrize("locale", ["en", "en-XA"])
@pytest.mark.parametrize(
    ("variants", "seed"), [("", 1), ("9,11", 2), ("22", 3), ("15,16,16d", 4), ("3,10,17", 5)]
)
def test_whole_games_are_worded_with_no_message_missing(
    locale: str, variants: str, seed: int, caplog: pytest.LogCaptureFixture
) -> None:
    words = words_for(locale)
    state, rng = seeded_game(variants, seed)
    lines: list[str] = []
    with using(locale), caplog.at_level(logging.ERROR, logger="bot.words"):
        while not ENGINE.is_over(state):
            for seat in sorted(ENGINE.to_act(state)):
                obs = ENGINE.observe(state, seat)
                panel = UI.private_panel(obs, ENGINE.legal_actions(state, seat), NAMES)
                lines += [panel.description, *(f.value for f in panel.fields)]
            lines.append(UI.turn_text(ENGINE.observe(state, None), NAMES))
            lines += [UI.event_line(e.entry(), NAMES, words) for e in step(state, rng)]
        final = ENGINE.observe(state, None)
        lines += [f.value for f in UI.final_fields(final, NAMES)]
        lines.append(UI.turn_text(final, NAMES))
        render_flux(final, NAMES)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert all(line for line in lines)
    if locale == "en-XA":  # every sentence came from the catalogue: nothing English is left
        assert all(_outside_catalogue(line) == [] for line in lines), [
            line for line in lines if _outside_catalogue(line)
        ][:3]


def _outside_catalogue(line: str) -> list[str]:
    """Words of ``line`` (in the pseudo-locale) that are not inside a ⟦message⟧."""
    while True:
        stripped = re.sub(r"⟦[^⟦⟧]*⟧", "", line)
        if stripped == line:
            break
        line = stripped
    return [word for word in re.findall(r"[A-Za-z]{3,}", line) if word not in NAMES]
