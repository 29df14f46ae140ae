"""Names and typed text made safe for Discord's markdown, and drawn plainly in pictures."""

from __future__ import annotations

import pytest

from bot.engines.base import GameError
from bot.render.common import clean_text
from bot.words.text import check_typed, plain, plain_text, safe_name, unescape

SLY = [
    "[win](https://x.example)",
    "**bold** cool_guy_",
    "a|b||spoiler||",
    "# big",
    "> quoted",
    "`code`",
    "https://x.example",
    "@everyone",
    "<@123456>",
    "- item",
    "back\\slash",
    "~~gone~~",
]


@pytest.mark.parametrize("name", SLY)
def test_safe_names_carry_no_live_markdown_and_read_back_exactly(name: str) -> None:
    safe = safe_name(name)
    assert "https://" not in safe and "](" not in safe and "**" not in safe
    for char in "*_~`|>[]()#<@-":
        # Every markdown character is escaped with a backslash.
        assert safe.count(char) == safe.count("\\" + char), (char, safe)
    assert unescape(safe) == name
    assert clean_text(safe) == clean_text(name)  # pictures show the name as typed


@pytest.mark.parametrize("name", SLY)
def test_plain_text_reads_as_written_with_mentions_and_addresses_still_defused(name: str) -> None:
    shown = plain_text(f"To act: {safe_name(name)}")
    assert shown.replace("\u2060", "") == f"To act: {name}"  # no backslashes left
    assert "://" not in shown and "@everyone" not in shown and "<@" not in shown
    assert plain_text(shown) == shown


def test_plain_names_are_one_short_line() -> None:
    assert plain("  a\n\tb\u200b c  ") == "a b c"
    assert len(safe_name("x" * 100)) == 32
    assert safe_name("\u200b\n ") == "Player"
    assert safe_name("", fallback="Player 7") == "Player 7"


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("[nitro](https://x.example)", "formatting characters"),
        ("**loud**", "formatting characters"),
        ("see www.example.com", "web address"),
        ("a://b", "web address"),
        ("x" * 33, "at most 32"),
        ("   ", "can't be empty"),
        ("bell\x07", "control characters"),
    ],
)
def test_typed_text_with_markdown_or_too_long_is_refused(typed: str, why: str) -> None:
    with pytest.raises(GameError, match=why) as refused:
        check_typed(typed, "flavour name", limit=32)
    assert len(str(refused.value)) < 200  # never echoes what was typed


def test_typed_text_is_trimmed() -> None:
    assert check_typed("  juniper   berries ", "flavour name", limit=32) == "juniper berries"
    assert check_typed("Juniper berries: ripe!", "flavour name", limit=32) == (
        "Juniper berries: ripe!"
    )


def test_counts_agree_with_their_words() -> None:
    from bot.engines.base import plural
    from bot.tables.panels import _score

    assert plural(1, "die", "dice") == "1 die" and plural(2, "die", "dice") == "2 dice"
    assert plural(1, "deck") == "1 deck" and plural(10_050, "point") == "10,050 points"
    assert _score(10050.0) == "10,050 points" and _score(2.5) == "2.5 points"
    assert _score(1.0, "book") == "1 book" and _score(0.0, "book") == "0 books"
