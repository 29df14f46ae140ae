"""The shared drawing kit: text folding, ellipsis, dice sprites and PNG output."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render.common import (
    DIE_STYLES,
    clean_text,
    die_sprite,
    display_name,
    ellipsize,
    font,
    has_glyph,
    to_png,
)


def test_font_is_cached_freetype() -> None:
    assert font(18) is font(18)
    assert font(18).size == 18


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Alice", "Alice"),
        ("Zoë", "Zoë"),
        ("Björn Ångström", "Björn Ångström"),
        ("Ольга", "Ольга"),
        ("Ἀθηνᾶ", "Ἀθηνᾶ"),
        ("a\x1eb", "ab"),
        ("Bob 🎲", "Bob"),
        ("世界", "??"),
        ("a — b", "a - b"),
        ("line\nbreak\tand  spaces", "line break and spaces"),
        ("", ""),
    ],
)
def test_clean_text_folds_to_drawable(raw: str, expected: str) -> None:
    cleaned = clean_text(raw)
    assert cleaned == expected
    assert all(has_glyph(c) for c in cleaned)


def test_display_name_falls_back_when_nothing_readable() -> None:
    assert display_name("🎲🎲", "Player 3") == "Player 3"
    assert display_name("世界", "Player 3") == "Player 3"
    assert display_name("  ", "Player 3") == "Player 3"
    assert display_name("Zoë 🎲", "Player 3") == "Zoë"


def test_ellipsize_fits_width() -> None:
    fnt = font(18)
    text = "Bartholomew the Magnificent Destroyer of Dice"
    cut = ellipsize(text, fnt, 150)
    assert cut.endswith("…")
    assert fnt.getlength(cut) <= 150
    assert ellipsize("Bob", fnt, 150) == "Bob"
    assert fnt.getlength(ellipsize(text, fnt, 1)) <= fnt.getlength("…")


def test_die_sprites_use_their_colours() -> None:
    for colour, style in DIE_STYLES.items():
        sprite = die_sprite(1, colour, 60)
        assert sprite.size == (60, 60)
        assert sprite.mode == "RGBA"
        assert sprite.getpixel((30, 10))[:3] == style.face  # face, away from the pip
        assert sprite.getpixel((30, 30))[:3] == style.pip  # centre pip


def test_to_png_roundtrip_and_deterministic() -> None:
    image = Image.new("RGB", (64, 32), (10, 20, 30))
    data = to_png(image)
    assert data == to_png(image)
    decoded = Image.open(io.BytesIO(data))
    assert decoded.format == "PNG"
    assert decoded.size == (64, 32)
    assert decoded.convert("RGB").getpixel((5, 5)) == (10, 20, 30)
    assert Image.open(io.BytesIO(to_png(image, palette=False))).mode == "RGB"
