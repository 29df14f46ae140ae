"""The checks of the pseudo-locale test (tests/e2e/pseudo.py) on their own: catalogue text
in en-XA passes, plain English and over-long text do not, names and Discord's markup are
not taken for English, and English control names find their pseudo-localised controls."""

from __future__ import annotations

from bot.words import words_for
from tests.e2e.pseudo import LIMITS, leaks, over_limits, plain, seat_names, texts

XA = words_for("en-XA")
EN = words_for("en")


def test_catalogue_text_passes_and_english_does_not() -> None:
    worded = XA("error-unknown-control")
    assert worded.startswith("⟦") and worded.endswith("⟧")
    assert leaks(worded, []) == []
    assert leaks(EN("error-unknown-control"), []) == ["That", "control", "isn", "one", "know"]
    assert leaks("Join", []) == ["Join"] and leaks("OK", []) == []  # two letters: a symbol


def test_names_numbers_symbols_and_markup_are_not_english() -> None:
    names = [*seat_names("Babbage (AI, easy)"), "alice"]
    assert leaks(f"{XA('ordinal', n=3)} · alice 1,250 🎲 9♥ 10♦ K♠", names) == []
    assert leaks("<@123> <#45> <:dice:678> <t:1700000000:R> </qdice start:9>", []) == []
    assert leaks("https://discord.com/channels/1/2/3 `/qdice rejoin`", []) == []
    assert leaks("Babbage (AI, easy)", ["Babbage"]) == ["easy"]  # the level is the bot's word
    assert leaks("Babbage (AI, easy)", names) == []  # unless the whole seat name is a name


def test_english_control_names_find_their_pseudo_forms() -> None:
    assert plain(XA("error-unknown-control")) == plain(EN("error-unknown-control"))
    assert plain("⟦Ṁý ĥààñđ⟧") == plain("My hand")
    assert plain("⟦Àþþĺý 9♥ ţö…⟧") == plain("Apply 9♥ to…")
    assert plain("⟦Ṁý ĥààñđ⟧") != plain("My hands")


def test_limits_and_where_text_is() -> None:
    assert over_limits("button label", "x" * 80) is None
    assert over_limits("button label", "x" * 81) == "81 characters, over the 80 of a button label"
    assert LIMITS["custom_id"] == 100 and LIMITS["thread name"] == 100
    payload = {
        "content": "hi",
        "embeds": [
            {
                "title": "T",
                "description": "D",
                "footer": {"text": "F"},
                "author": {"name": "A"},
                "fields": [{"name": "N", "value": "V"}],
            }
        ],
        "components": [
            {
                "type": 1,
                "components": [
                    {"type": 2, "label": "L", "custom_id": "c1"},
                    {
                        "type": 3,
                        "custom_id": "c2",
                        "placeholder": "P",
                        "options": [{"label": "O", "value": "o", "description": "OD"}],
                    },
                ],
            }
        ],
    }
    assert list(texts("message", payload)) == [
        ("content", "hi"),
        ("embed title", "T"),
        ("embed description", "D"),
        ("embed footer", "F"),
        ("embed author", "A"),
        ("field name", "N"),
        ("field value", "V"),
        ("button label", "L"),
        ("custom_id", "c1"),
        ("select placeholder", "P"),
        ("custom_id", "c2"),
        ("option label", "O"),
        ("option description", "OD"),
    ]
    modal = {
        "title": "M",
        "custom_id": "m",
        "components": [{"type": 1, "components": [{"type": 4, "label": "ML", "custom_id": "f"}]}],
    }
    assert list(texts("modal", modal)) == [
        ("modal title", "M"),
        ("custom_id", "m"),
        ("modal label", "ML"),
        ("custom_id", "f"),
    ]
