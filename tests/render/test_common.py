"""The shared drawing kit: fonts, text folding, ellipsis, dice sprites and PNG output."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from bot.render import common, leaderboard, qdice
from bot.render.common import (
    BOLD_FONT_FILE,
    DIE_STYLES,
    FONT_FILE,
    clean_text,
    die_sprite,
    display_name,
    draw_text,
    ellipsize,
    font,
    has_bold_face,
    has_glyph,
    to_png,
)
from tests.render.builders import make_obs

_CACHED = (
    common._load_face,
    common.font,
    common._notdef_key,
    common.has_glyph,
    common.clean_text,
    qdice._background,
)


def test_fonts_ship_with_their_licence() -> None:
    assert FONT_FILE.is_file()
    assert BOLD_FONT_FILE.is_file()
    licence = (FONT_FILE.parent / "LICENSE-DejaVu.txt").read_text(encoding="utf-8")
    assert "Bitstream Vera" in licence


def test_font_is_cached_dejavu() -> None:
    assert font(18) is font(18)
    assert font(18).size == 18
    assert font(18).getname() == ("DejaVu Sans", "Book")
    assert font(18, bold=True) is font(18, True)
    assert font(18, bold=True).getname() == ("DejaVu Sans", "Bold")
    assert has_bold_face()


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Alice", "Alice"),
        ("Zoë", "Zoë"),
        ("José Ramírez", "José Ramírez"),
        ("Björn Ångström", "Björn Ångström"),
        ("Łukasz Żółć", "Łukasz Żółć"),
        ("Çağrı Şahin", "Çağrı Şahin"),
        ("Ngô Bảo Châu", "Ngô Bảo Châu"),
        ("Ольга", "Ольга"),
        ("Ἀθηνᾶ", "Ἀθηνᾶ"),
        ("Zoe\u0308", "Zoë"),  # decomposed accent: composed, so basic layout places it well
        ("a\x1eb", "ab"),
        ("a\u200db\u200e", "ab"),  # joiner and direction mark dropped
        ("Bob 🎲", "Bob"),
        ("It is Zoë 🎲's turn", "It is Zoë's turn"),  # no stray space before the apostrophe
        ("Zoë 🎲, Bob 🎲 and Ann", "Zoë, Bob and Ann"),
        ("a 🎲b", "a b"),
        ("世界", "??"),
        ("Bob 李", "Bob ?"),
        ("דוד", "???"),  # right-to-left: basic layout would draw it backwards
        ("a — b → c", "a — b → c"),
        ("line\nbreak\tand  spaces\u00a0here", "line break and spaces here"),
        ("", ""),
    ],
)
def test_clean_text_keeps_what_the_font_draws(raw: str, expected: str) -> None:
    cleaned = clean_text(raw)
    assert cleaned == expected
    assert all(has_glyph(c) for c in cleaned)


@pytest.mark.parametrize("char", ["é", "ß", "Ł", "ğ", "Ж", "ё", "ї", "Ω", "ς", "ᾶ", "€", "…", "·"])
def test_has_glyph_covers_european_scripts(char: str) -> None:
    assert has_glyph(char)


@pytest.mark.parametrize("char", ["李", "世", "あ", "한", "🎲", "🏆", "\uffff"])
def test_has_glyph_rejects_what_dejavu_lacks(char: str) -> None:
    assert not has_glyph(char)


def test_display_name_falls_back_when_nothing_readable() -> None:
    assert display_name("🎲🎲", "Player 3") == "Player 3"
    assert display_name("世界", "Player 3") == "Player 3"
    assert display_name("李小龙", "Player 3") == "Player 3"
    assert display_name("  ", "Player 3") == "Player 3"
    assert display_name("\u200b\u200b", "Player 3") == "Player 3"
    assert display_name("Zoë 🎲", "Player 3") == "Zoë"
    assert display_name("Ольга", "Player 3") == "Ольга"
    assert display_name("Ἀθηνᾶ", "Player 3") == "Ἀθηνᾶ"


@pytest.mark.parametrize("bold", [False, True])
def test_ellipsize_fits_width(bold: bool) -> None:
    fnt = font(18, bold)
    for text in (
        "Bartholomew the Magnificent Destroyer of Dice",
        "Ольга Петровна Смирнова-Кузнецова",
        "Ἀθηνᾶ Παλλὰς Γλαυκῶπις Παρθένος",
    ):
        cut = ellipsize(text, fnt, 150)
        assert cut.endswith("…")
        assert fnt.getlength(cut) <= 150
        assert text.startswith(cut[:-1])
        assert fnt.getlength(ellipsize(text, fnt, 1)) <= fnt.getlength("…")
    assert ellipsize("Bob", fnt, 150) == "Bob"
    assert ellipsize("Zoë", fnt, 150) == "Zoë"


def test_draw_text_is_deterministic_and_bold_is_wider() -> None:
    def drawn(bold: bool) -> tuple[bytes, float]:
        image = Image.new("RGB", (300, 40), (0, 0, 0))
        width = draw_text(
            ImageDraw.Draw(image), (4, 20), "Zoë Ольга", 20, (255, 255, 255), anchor="lm", bold=bold
        )
        return image.tobytes(), width

    regular, regular_w = drawn(False)
    assert drawn(False) == (regular, regular_w)
    bold, bold_w = drawn(True)
    assert bold != regular
    assert bold_w > regular_w


@pytest.fixture
def fonts_missing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """Point the font paths at nothing, with every font-dependent cache emptied around."""
    monkeypatch.setattr(common, "FONT_FILE", tmp_path / "missing.ttf")
    monkeypatch.setattr(common, "BOLD_FONT_FILE", tmp_path / "missing-bold.ttf")
    for cached in _CACHED:
        cached.cache_clear()
    yield
    monkeypatch.undo()
    for cached in _CACHED:
        cached.cache_clear()


@pytest.mark.usefixtures("fonts_missing")
def test_missing_font_files_fall_back_to_pillow_font() -> None:
    assert font(18).getname()[0] != "DejaVu Sans"
    assert not has_bold_face()
    # Pillow's font is ASCII only: accents are stripped and dashes folded again.
    assert clean_text("Zoë — José") == "Zoe - Jose"
    assert display_name("Ольга", "Player 2") == "Player 2"
    assert font(18).getlength(ellipsize("Bartholomew the Magnificent", font(18), 120)) <= 120
    assert qdice.render_qdice(make_obs(2), ["Zoë", "Ольга"]).size == qdice.SIZE
    assert leaderboard.render_leaderboard("Zoë", [], 1, 1).size[0] == leaderboard.WIDTH


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


def test_fit_names_keeps_short_names_whole_and_shares_the_rest() -> None:
    from bot.render.common import fit_names

    fnt = font(20)
    assert fit_names(["Ann", "Bob"], fnt, 400) == "Ann & Bob"
    long = "W" * 32
    both = fit_names(["Zoë", long], fnt, 200)
    assert both.startswith("Zoë & W") and both.endswith("…") and fnt.getlength(both) <= 200
    three = fit_names([long, long, "Al"], fnt, 300, " and ")
    assert three.count("…") == 2 and three.endswith(" and Al") and fnt.getlength(three) <= 300
