"""Shared drawing kit for the table renderers: palette, fonts, panels, text and dice.

Everything here is pure and deterministic: the same arguments always give the same pixels.
Text is drawn in DejaVu Sans, shipped with the package (``fonts/``, free licence beside it),
so rendering never depends on the fonts of the host and names in Latin with accents, Greek
or Cyrillic come out as written. What the font lacks (CJK, emoji) is folded or dropped by
:func:`clean_text`.

Costly pieces (fonts, die sprites, glyph checks) are cached per process.

Where text lands can be recorded (:func:`recording_text`): every :func:`draw_text` inside
adds what it drew and its ink's box, so tests can check a layout (no text over other text,
none off the picture) for the longest names. Nothing is kept while nobody records.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import math
import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from bot.words.text import unescape

RGB = tuple[int, int, int]
Font = ImageFont.FreeTypeFont

# Supersampling factor for the cached anti-aliased sprites (dice, shadows).
_SS = 4


@dataclass(frozen=True)
class Palette:
    """The colours of every table image (dark theme, sits well in Discord)."""

    bg: RGB = (24, 26, 32)
    header: RGB = (34, 37, 46)
    panel: RGB = (36, 40, 50)
    panel_alt: RGB = (42, 47, 59)
    panel_edge: RGB = (58, 64, 80)
    felt: RGB = (27, 86, 64)
    felt_edge: RGB = (19, 62, 46)
    tray: RGB = (18, 58, 43)
    text: RGB = (236, 238, 243)
    text_dim: RGB = (160, 167, 184)
    text_faint: RGB = (118, 125, 142)
    accent: RGB = (255, 197, 61)  # gold: selection, current player, winner
    accent_dim: RGB = (120, 95, 34)
    current_row: RGB = (55, 62, 84)
    good: RGB = (88, 196, 128)
    warn: RGB = (255, 150, 64)
    bad: RGB = (232, 88, 88)
    bar_bg: RGB = (22, 24, 30)
    bar_off: RGB = (110, 117, 134)
    final: RGB = (204, 112, 28)
    win: RGB = (196, 150, 24)
    neutral_strip: RGB = (44, 50, 66)
    win_ink: RGB = (30, 22, 4)  # text on the gold winner banner
    win_row: RGB = (74, 62, 26)  # the winner's row or plate
    alert_ink: RGB = (255, 246, 230)  # text on the orange final-round strip
    felt_text: RGB = (178, 214, 198)  # labels on the green felt
    gold: RGB = (230, 184, 60)
    silver: RGB = (180, 188, 200)
    bronze: RGB = (196, 128, 74)


PALETTE = Palette()


@dataclass(frozen=True)
class DieStyle:
    """How one die colour looks. Light vs dark keeps A and B apart for colour-blind eyes too."""

    letter: str
    face: RGB
    pip: RGB
    edge: RGB


# Colour A: ivory with dark pips. Colour B: deep blue with white pips.
DIE_STYLES: dict[str, DieStyle] = {
    "A": DieStyle("A", face=(246, 238, 214), pip=(38, 34, 30), edge=(176, 160, 122)),
    "B": DieStyle("B", face=(30, 70, 160), pip=(255, 255, 255), edge=(150, 180, 240)),
}


# --------------------------------------------------------------------------- fonts and text

FONT_DIR = Path(__file__).with_name("fonts")
FONT_FILE = FONT_DIR / "DejaVuSans.ttf"
BOLD_FONT_FILE = FONT_DIR / "DejaVuSans-Bold.ttf"


@lru_cache(maxsize=128)
def _load_face(path: str, size: int) -> Font | None:
    try:
        # Basic layout: the same pixels on every machine, with or without libraqm.
        return ImageFont.truetype(path, size=size, layout_engine=ImageFont.Layout.BASIC)
    except OSError:
        return None


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans (or DejaVu Sans Bold) at ``size`` pixels, cached.

    Falls back to Pillow's bundled font (ASCII only, no bold face) if the font files are
    missing or unreadable.
    """
    loaded = _load_face(str(BOLD_FONT_FILE if bold else FONT_FILE), size)
    if loaded is not None:
        return loaded
    default = ImageFont.load_default(size=size)
    if not isinstance(default, ImageFont.FreeTypeFont):  # pragma: no cover - Pillow < 10.1
        raise RuntimeError("Pillow was built without FreeType; the renderers need it")
    return default


def has_bold_face() -> bool:
    """True when :func:`font` has a real bold face (else bold is faked with a stroke)."""
    return _load_face(str(BOLD_FONT_FILE), 20) is not None


@lru_cache(maxsize=2)
def _notdef_key(bold: bool) -> tuple[tuple[int, int], bytes]:
    mask = font(20, bold).getmask("\uffff")  # a noncharacter: always the empty-box glyph
    return mask.size, bytes(mask)


@lru_cache(maxsize=8192)
def has_glyph(char: str) -> bool:
    """True when both the regular and the bold face draw ``char`` (not the empty box).

    Characters of right-to-left scripts count as missing: the basic layout would draw them
    backwards and unjoined.
    """
    if char == " ":
        return True
    if unicodedata.bidirectional(char) in ("R", "AL"):
        return False
    for bold in (False, True):
        mask = font(20, bold).getmask(char)
        if (mask.size, bytes(mask)) == _notdef_key(bold):
            return False
    return True


# ASCII stand-ins, used only when the font lacks the character (Pillow's fallback font).
_FOLD = {
    "\u2013": "-",  # en dash
    "\u2014": "-",  # em dash
    "\u2212": "-",  # minus
    "\u00d7": "x",
    "\u2192": "->",
    "\u2026": "...",
}


@lru_cache(maxsize=4096)
def clean_text(text: str) -> str:
    """``text`` reduced to what the table font can draw, on one line.

    Markdown escapes in names (:mod:`bot.words.text`) are undone, since pictures show no markdown.
    Text is NFC-normalised (so accents sit on precomposed letters), whitespace runs become
    one space, and controls and format characters (joiners, direction marks) are dropped.
    A character the font lacks is replaced by its accent-free form or an ASCII stand-in
    when that can be drawn, else by ``?`` if it is a letter or digit (CJK, right-to-left
    scripts) and dropped otherwise (most emoji), with the space before it when punctuation
    follows.
    """
    out: list[str] = []
    for raw in unicodedata.normalize("NFC", unescape(text)):
        category = unicodedata.category(raw)
        if raw in "\t\n\v\f\r" or category[0] == "Z":  # tabs, breaks and all spaces
            out.append(" ")
            continue
        if category[0] == "C":  # controls, format characters, unassigned, private use
            continue
        if has_glyph(raw):
            out.append(raw)
            continue
        if raw in _FOLD and all(has_glyph(c) for c in _FOLD[raw]):
            out.append(_FOLD[raw])
            continue
        decomposed = unicodedata.normalize("NFKD", raw)
        base = "".join(c for c in decomposed if not unicodedata.combining(c))
        if base and all(has_glyph(c) for c in base):
            out.append(base)
        elif category[0] in "LN":
            out.append("?")
        else:
            out.append(_DROPPED)
    # "Zoë 🎲's turn" must not become "Zoë 's turn": a space before a dropped character goes
    # with it when punctuation follows.
    joined = _SPACE_BEFORE_DROPPED.sub("", "".join(out)).replace(_DROPPED, "")
    return " ".join(joined.split())


_DROPPED = "\x00"
_SPACE_BEFORE_DROPPED = re.compile(r" \x00+(?=[^\w\s\x00])")


def display_name(name: str, fallback: str) -> str:
    """A drawable player name; ``fallback`` when nothing readable survives cleaning."""
    cleaned = clean_text(name)
    if not any(c.isalnum() and c != "?" for c in cleaned):
        return fallback
    return cleaned


def seat_name(names: Sequence[str], seat: int) -> str:
    """The drawable name of ``seat``; "Player N" when it is missing or unreadable."""
    raw = names[seat] if 0 <= seat < len(names) else ""
    return display_name(raw, f"Player {seat + 1}")


# --------------------------------------------------------------------------- recording text


@dataclass(frozen=True)
class DrawnText:
    """One line of text a renderer drew: what it was asked to draw (cleaned), what it drew
    (the same, or shortened with "…"), the box its ink fills in the picture, and how it was
    placed (Pillow's anchor: "l", "m" or "r", then the vertical one) in which font."""

    text: str
    shown: str
    box: tuple[int, int, int, int]
    anchor: str = "la"
    size: int = 0
    bold: bool = False

    @property
    def cut(self) -> bool:
        return self.shown != self.text


@dataclass
class TextLog:
    """Where text was drawn, while recording (see :func:`recording_text`)."""

    items: list[DrawnText] = field(default_factory=list)
    origin: tuple[int, int] = (0, 0)
    """Where the top left corner of what is drawn on now sits in the picture."""

    def add(self, drawn: DrawnText) -> None:
        ox, oy = self.origin
        x0, y0, x1, y1 = drawn.box
        box = (x0 + ox, y0 + oy, x1 + ox, y1 + oy)
        self.items.append(dataclasses.replace(drawn, box=box))


_TEXT_LOG: ContextVar[TextLog | None] = ContextVar("text_log", default=None)


@contextlib.contextmanager
def recording_text() -> Iterator[list[DrawnText]]:
    """Within: every line of text drawn (by :func:`draw_text`) is added to the list given.

    Pictures are drawn in full while recording: parts and backgrounds drawn before give the
    text they drew along with their pixels (:func:`drawn_once`, :mod:`bot.render.parts`)."""
    log = TextLog()
    token = _TEXT_LOG.set(log)
    try:
        yield log.items
    finally:
        _TEXT_LOG.reset(token)


def recording() -> bool:
    """True inside :func:`recording_text`."""
    return _TEXT_LOG.get() is not None


@contextlib.contextmanager
def text_origin(x: int, y: int) -> Iterator[None]:
    """Within: text is drawn onto a piece whose top left corner sits at (x, y) of the
    picture (the recorded boxes are moved there)."""
    log = _TEXT_LOG.get()
    if log is None:
        yield
        return
    before = log.origin
    log.origin = (before[0] + x, before[1] + y)
    try:
        yield
    finally:
        log.origin = before


@contextlib.contextmanager
def not_recording() -> Iterator[None]:
    """Within: nothing is recorded (for pixels taken again from a picture already recorded)."""
    token = _TEXT_LOG.set(None)
    try:
        yield
    finally:
        _TEXT_LOG.reset(token)


def drawn_once(draw: Callable[..., Image.Image]) -> Callable[..., Image.Image]:
    """A picture that never changes (a table's background), drawn once per arguments and
    kept, with the text it drew: given again to whoever records on every call."""

    @lru_cache(maxsize=4)
    def made(*args: Any) -> tuple[Image.Image, tuple[DrawnText, ...]]:
        log = TextLog()
        token = _TEXT_LOG.set(log)
        try:
            image = draw(*args)
        finally:
            _TEXT_LOG.reset(token)
        return image, tuple(log.items)

    @functools.wraps(draw)
    def picture(*args: Any) -> Image.Image:
        image, texts = made(*args)
        log = _TEXT_LOG.get()
        if log is not None:
            for item in texts:
                log.add(item)
        return image

    picture.cache_clear = made.cache_clear  # type: ignore[attr-defined]
    return picture


def text_width(text: str, fnt: Font) -> float:
    """Advance width of ``text`` in ``fnt``."""
    return fnt.getlength(text)


def ellipsize(text: str, fnt: Font, max_width: float) -> str:
    """``text`` cut with ``…`` so it fits in ``max_width`` pixels (cleaned first)."""
    text = clean_text(text)
    if fnt.getlength(text) <= max_width:
        return text
    ellipsis = clean_text("…")
    low, high = 0, len(text)
    while low < high:  # longest prefix that fits together with the ellipsis
        mid = (low + high + 1) // 2
        if fnt.getlength(text[:mid].rstrip() + ellipsis) <= max_width:
            low = mid
        else:
            high = mid - 1
    return (text[:low].rstrip() + ellipsis) if low else ellipsis


def fit_font(text: str, sizes: Sequence[int], max_width: float, *, bold: bool = False) -> Font:
    """The largest font among ``sizes`` (given large to small) in which ``text`` fits."""
    text = clean_text(text)
    for size in sizes:
        if font(size, bold).getlength(text) <= max_width:
            return font(size, bold)
    return font(sizes[-1], bold)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    *,
    anchor: str = "la",
    max_width: float | None = None,
    bold: bool = False,
) -> float:
    """Draw cleaned (and optionally ellipsized) text; returns the drawn width.

    ``bold`` uses the bold face (or, with Pillow's fallback font, a 1 px outline of the
    same colour).
    """
    fnt = font(size, bold)
    stroke = 1 if bold and not has_bold_face() else 0
    limit = None if max_width is None else max_width - 2 * stroke
    asked = text
    text = ellipsize(text, fnt, limit) if limit is not None else clean_text(text)
    if not text:
        return 0.0
    log = _TEXT_LOG.get()
    if log is not None:
        left, top, right, bottom = fnt.getbbox(text, anchor=anchor)
        x, y = xy
        box = (
            math.floor(x + left - stroke),
            math.floor(y + top - stroke),
            math.ceil(x + right + stroke),
            math.ceil(y + bottom + stroke),
        )
        log.add(DrawnText(clean_text(asked), text, box, anchor, size, bold))
    if stroke or draw.fontmode != "L" or not isinstance(fnt, ImageFont.FreeTypeFont):
        draw.text(
            xy, text, font=fnt, fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=fill
        )
        return fnt.getlength(text) + 2 * stroke
    # The same pixels as ``draw.text``, with the glyphs' coverage mask kept for the next
    # picture: names, labels and numbers repeat from move to move, and laying text out is
    # most of the cost of drawing a table.
    x, y = xy
    mask, (dx, dy) = _text_mask(text, fnt, anchor, math.modf(x)[0], math.modf(y)[0])
    ink = draw._getink(fill)[0]
    draw.draw.draw_bitmap((int(x) + dx, int(y) + dy), mask, ink)
    return _text_length(text, fnt)


@lru_cache(maxsize=8192)
def _text_mask(
    text: str, fnt: ImageFont.FreeTypeFont, anchor: str, fx: float, fy: float
) -> tuple[Any, tuple[int, int]]:
    """The antialiased coverage of one line of text and its offset from the anchor point."""
    return fnt.getmask2(text, "L", anchor=anchor, start=(fx, fy))


@lru_cache(maxsize=8192)
def _text_length(text: str, fnt: Font) -> float:
    return fnt.getlength(text)


def fmt_int(value: int) -> str:
    """``12345`` → ``12,345``."""
    return f"{value:,}"


# --------------------------------------------------------------------------- shapes


def panel(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    fill: RGB,
    *,
    radius: int = 12,
    outline: RGB | None = None,
    width: int = 1,
) -> None:
    """A rounded rectangle panel."""
    draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


def progress_bar(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    fraction: float,
    fill: RGB,
    *,
    background: RGB = PALETTE.bar_bg,
) -> None:
    """A rounded horizontal bar filled to ``fraction`` (clamped to 0..1)."""
    x0, y0, x1, y1 = box
    radius = int((y1 - y0) // 2)
    draw.rounded_rectangle(box, radius=radius, fill=background)
    fraction = min(1.0, max(0.0, fraction))
    if fraction > 0:
        end = max(x0 + 2 * radius, x0 + (x1 - x0) * fraction)
        draw.rounded_rectangle((x0, y0, end, y1), radius=radius, fill=fill)


def star(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, fill: RGB) -> None:
    """A five-pointed star."""
    cx, cy = centre
    points = []
    for i in range(10):
        r = radius if i % 2 == 0 else radius * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    draw.polygon(points, fill=fill)


def crown(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], fill: RGB) -> None:
    """A small three-point crown filling ``box``."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    points = [
        (x0, y1),
        (x0, y0 + h * 0.25),
        (x0 + w * 0.28, y0 + h * 0.55),
        (x0 + w * 0.5, y0),
        (x0 + w * 0.72, y0 + h * 0.55),
        (x1, y0 + h * 0.25),
        (x1, y1),
    ]
    draw.polygon(points, fill=fill)


def check_mark(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], fill: RGB, width: int = 3
) -> None:
    """A tick drawn as two lines inside ``box``."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    draw.line(
        [(x0, y0 + h * 0.55), (x0 + w * 0.38, y1), (x1, y0)],
        fill=fill,
        width=width,
        joint="curve",
    )


def triangle_right(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float, fill: RGB
) -> None:
    """A right-pointing triangle (turn marker)."""
    cx, cy = centre
    half = size / 2
    draw.polygon(
        [(cx - half * 0.8, cy - half), (cx + half, cy), (cx - half * 0.8, cy + half)], fill=fill
    )


# --------------------------------------------------------------------------- dice

# Pip positions on a unit face, per value.
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


@lru_cache(maxsize=256)
def die_sprite(value: int, colour: str, size: int, ring: RGB | None = None) -> Image.Image:
    """An anti-aliased RGBA die face ``size`` px square, with an optional highlight ring.

    With a ring the sprite is ``size + 2 * ring_pad`` wide (see :func:`ring_pad`), so paste it
    at ``(x - ring_pad(size), y - ring_pad(size))``.
    """
    style = DIE_STYLES[colour]
    pad = ring_pad(size) if ring is not None else 0
    full = size + 2 * pad
    big = Image.new("RGBA", (full * _SS, full * _SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    s = size * _SS
    o = pad * _SS
    radius = int(s * 0.18)
    if ring is not None:
        ring_w = max(3, size // 16) * _SS
        d.rounded_rectangle(
            (
                o - ring_w - _SS * 2,
                o - ring_w - _SS * 2,
                o + s + ring_w + _SS * 2,
                o + s + ring_w + _SS * 2,
            ),
            radius=radius + ring_w + _SS * 2,
            fill=(*ring, 255),
        )
    edge = max(1, size // 28) * _SS
    d.rounded_rectangle((o, o, o + s - 1, o + s - 1), radius=radius, fill=(*style.edge, 255))
    d.rounded_rectangle(
        (o + edge, o + edge, o + s - 1 - edge, o + s - 1 - edge),
        radius=max(1, radius - edge),
        fill=(*style.face, 255),
    )
    pip_r = s * 0.085
    for px, py in _PIPS[value]:
        cx, cy = o + px * s, o + py * s
        d.ellipse((cx - pip_r, cy - pip_r, cx + pip_r, cy + pip_r), fill=(*style.pip, 255))
    return big.resize((full, full), Image.Resampling.LANCZOS)


def ring_pad(size: int) -> int:
    """Extra margin a ringed die sprite carries on each side."""
    return max(3, size // 16) + 3


@lru_cache(maxsize=32)
def shadow_sprite(size: int, blur: int = 4, alpha: int = 110) -> Image.Image:
    """A soft rounded shadow for a ``size`` px die (sprite is ``size + 4 * blur`` square)."""
    full = size + 4 * blur
    img = Image.new("RGBA", (full, full), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    o = 2 * blur
    d.rounded_rectangle((o, o, o + size, o + size), radius=int(size * 0.18), fill=(0, 0, 0, alpha))
    return img.filter(ImageFilter.GaussianBlur(blur))


def draw_die(
    image: Image.Image,
    xy: tuple[int, int],
    value: int,
    colour: str,
    size: int,
    *,
    ring: RGB | None = None,
    shadow: bool = True,
    shadow_offset: tuple[int, int] = (3, 4),
) -> None:
    """Paste a die with top-left corner at ``xy`` onto ``image`` (RGB or RGBA)."""
    x, y = xy
    if shadow:
        sh = shadow_sprite(size)
        blur = (sh.width - size) // 4
        image.paste(sh, (x - 2 * blur + shadow_offset[0], y - 2 * blur + shadow_offset[1]), sh)
    sprite = die_sprite(value, colour, size, ring)
    pad = ring_pad(size) if ring is not None else 0
    image.paste(sprite, (x - pad, y - pad), sprite)


def colour_chip(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], colour: str, size: int = 18
) -> None:
    """A small chip in the die's colours carrying its letter, so colour is never the only cue."""
    style = DIE_STYLES[colour]
    cx, cy = centre
    half = size / 2 + 3
    draw.rounded_rectangle(
        (cx - half, cy - half, cx + half, cy + half),
        radius=5,
        fill=style.face,
        outline=style.edge,
        width=1,
    )
    draw.text((cx, cy + 1), style.letter, font=font(size), fill=style.pip, anchor="mm")


# --------------------------------------------------------------------------- the game table frame

# Every game table is 960×600: a header bar, a status strip under it, then the game's panels.
WIDTH, HEIGHT = 960, 600
SIZE = (WIDTH, HEIGHT)
MARGIN = 16
HEADER_H = 64
STRIP = (MARGIN, 76, WIDTH - MARGIN, 116)
BODY_TOP = STRIP[3] + 12  # top of the panels under the strip
BODY_BOTTOM = HEIGHT - MARGIN

Box = tuple[float, float, float, float]


def table_canvas(
    title: str,
    *,
    title_x: int = MARGIN + 8,
    title_size: int = 30,
    size: tuple[int, int] = SIZE,
    header_h: int = HEADER_H,
) -> Image.Image:
    """A fresh table image: the background and the header bar with ``title`` in bold."""
    img = Image.new("RGB", size, PALETTE.bg)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, size[0], header_h), fill=PALETTE.header)
    draw.line((0, header_h, size[0], header_h), fill=PALETTE.panel_edge, width=1)
    draw_text(
        draw, (title_x, header_h // 2), title, title_size, PALETTE.text, anchor="lm", bold=True
    )
    return img


def header_info(
    draw: ImageDraw.ImageDraw, text: str, size: int = 18, *, max_width: float | None = None
) -> None:
    """Dim game facts (target, round, pot...) right-aligned in the header bar."""
    draw_text(
        draw,
        (WIDTH - MARGIN - 8, HEADER_H // 2),
        text,
        size,
        PALETTE.text_dim,
        anchor="rm",
        max_width=max_width,
    )


def strip_turn(
    draw: ImageDraw.ImageDraw,
    name: str,
    text: str,
    *,
    box: Box = STRIP,
) -> None:
    """The status strip while someone is to act: a gold marker, their name, what they do
    (the name has the strip's width less what they do)."""
    x0, y0, x1, y1 = box
    cy = (y0 + y1) / 2
    panel(draw, box, PALETTE.neutral_strip, radius=10)
    triangle_right(draw, (x0 + 24, cy), 16, PALETTE.accent)
    end = x1 - 16
    room = end - (x0 + 42) - (8 + font(20).getlength(clean_text(text)) if text else 0)
    width = draw_text(
        draw, (x0 + 42, cy), name, 22, PALETTE.accent, anchor="lm", max_width=room, bold=True
    )
    left = x0 + 50 + width
    draw_text(draw, (left, cy), text, 20, PALETTE.text, anchor="lm", max_width=end - left)


def strip_note(draw: ImageDraw.ImageDraw, text: str = "", *, box: Box = STRIP) -> None:
    """The status strip with nobody to act: an optional dim note."""
    x0, y0, _, y1 = box
    panel(draw, box, PALETTE.neutral_strip, radius=10)
    draw_text(draw, (x0 + 16, (y0 + y1) / 2), text, 20, PALETTE.text_dim, anchor="lm")


def strip_alert(
    draw: ImageDraw.ImageDraw, label: str, text: str, size: int = 20, *, box: Box = STRIP
) -> None:
    """The orange status strip (final round, measurement called): a bold label, then text."""
    x0, y0, x1, y1 = box
    cy = (y0 + y1) / 2
    panel(draw, box, PALETTE.final, radius=10)
    width = draw_text(draw, (x0 + 16, cy), label, size, PALETTE.alert_ink, anchor="lm", bold=True)
    left = x0 + 36 + width
    draw_text(
        draw, (left, cy), text, size, PALETTE.alert_ink, anchor="lm", max_width=x1 - 16 - left
    )


def strip_winner(
    draw: ImageDraw.ImageDraw,
    text: str,
    size: int = 22,
    *,
    box: Box = STRIP,
    names: Sequence[str] = (),
    joiner: str = " & ",
) -> None:
    """The gold status strip at the end: a crown and who won.

    ``text`` may hold ``{names}``: the winners' ``names`` joined, each shortened only as
    much as needed so that the rest of the line ("wins with 24 points!") always shows.
    """
    x0, y0, x1, y1 = box
    cy = (y0 + y1) / 2
    width = x1 - x0 - 70
    if "{names}" in text:
        rest = font(size).getlength(clean_text(text.replace("{names}", "")))
        text = text.replace("{names}", fit_names(names, font(size), width - rest - 4, joiner))
    panel(draw, box, PALETTE.win, radius=10)
    crown(draw, (x0 + 16, cy - 10, x0 + 42, cy + 9), (40, 30, 6))
    draw_text(draw, (x0 + 54, cy), text, size, PALETTE.win_ink, anchor="lm", max_width=width)


def fit_names(names: Sequence[str], fnt: Font, width: float, joiner: str = " & ") -> str:
    """``names`` joined by ``joiner`` within ``width`` pixels: short names stay whole and
    the long ones share what is left, each cut with "…" (so every name still shows)."""
    cleaned = [clean_text(n) for n in names]
    if fnt.getlength(joiner.join(cleaned)) <= width or not cleaned:
        return joiner.join(cleaned)
    room = width - fnt.getlength(joiner) * (len(cleaned) - 1)
    order = sorted(range(len(cleaned)), key=lambda i: fnt.getlength(cleaned[i]))
    fitted = list(cleaned)
    for k, i in enumerate(order):
        share = room / (len(order) - k)
        if fnt.getlength(cleaned[i]) > share:
            fitted[i] = ellipsize(cleaned[i], fnt, share)
        room -= fnt.getlength(fitted[i])
    return joiner.join(fitted)


def seat_row(
    draw: ImageDraw.ImageDraw,
    box: Box,
    *,
    winner: bool,
    current: bool,
    current_fill: RGB = PALETTE.current_row,
) -> bool:
    """Highlight a scoreboard row: gold edge for the winner, accent edge for the seat to act.

    Returns False (nothing drawn) for any other row, so the caller can draw its own.
    """
    if winner:
        panel(draw, box, PALETTE.win_row, radius=10, outline=PALETTE.gold, width=2)
    elif current:
        panel(draw, box, current_fill, radius=10, outline=PALETTE.accent, width=2)
    else:
        return False
    return True


def seat_marker(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    *,
    winner: bool,
    current: bool,
    leader: bool = False,
) -> None:
    """The marker left of a scoreboard name: crown (winner), star (leader), arrow (to act)."""
    mx, my = centre
    if winner:
        crown(draw, (mx - 10, my - 8, mx + 10, my + 7), PALETTE.gold)
    elif leader:
        star(draw, (mx, my), 10, PALETTE.accent)
    elif current:
        triangle_right(draw, (mx, my), 14, PALETTE.accent)


def wrap(text: str, fnt: Font, width: float, max_lines: int) -> list[str]:
    """``text`` (cleaned) broken at spaces into lines of at most ``width`` pixels, at most
    ``max_lines`` of them: the last holds the rest (to be cut with "…" when drawn within
    ``width``), as does a line of one word too long for it."""
    lines: list[str] = []
    current = ""
    for word in clean_text(text).split(" "):
        joined = f"{current} {word}" if current else word
        if current and fnt.getlength(joined) > width:
            lines.append(current)
            current = word
        else:
            current = joined
    lines.append(current)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], " ".join(lines[max_lines - 1 :])]
    return lines


def draw_wrapped(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    *,
    width: float,
    lines: int = 2,
    anchor: str = "mm",
    bold: bool = False,
    smaller: Sequence[int] = (),
) -> int:
    """``text`` over up to ``lines`` lines of ``width`` pixels, the first at ``xy`` and the
    others under it (``size + 3`` apart), each placed by ``anchor``; the number drawn.

    ``smaller``: sizes (large to small) to fall back on when ``text`` would be cut at
    ``size``; the smallest when it is cut at every size."""
    x, y = xy
    for each in (size, *smaller):
        size, parts = each, wrap(text, font(each, bold), width, lines)
        if all(font(each, bold).getlength(part) <= width for part in parts):
            break
    for i, line in enumerate(parts):
        draw_text(
            draw, (x, y + i * (size + 3)), line, size, fill, anchor=anchor, max_width=width,
            bold=bold,
        )  # fmt: skip
    return len(parts)


def event_lines(
    draw: ImageDraw.ImageDraw,
    events: Sequence[str] | None,
    *,
    left: float,
    right: float,
    top: float,
    count: int = 3,
    size: int = 16,
    spacing: int = 28,
    colours: tuple[RGB, RGB] = (PALETTE.text, PALETTE.text_dim),
    wrapped: bool = False,
) -> None:
    """The last ``count`` event lines, one bullet each, from ``top`` (centre of the first).

    ``colours`` are the newest line's and the older lines'. ``wrapped``: ``count`` lines of
    text in all, a long event going on over the next lines (the newest events that fit
    whole are shown; the newest is cut only when it needs more than all of them).
    """
    width = right - left - 14
    if wrapped:
        fnt = font(size)
        shown: list[list[str]] = []
        for event in reversed(list(events or [])):
            lines = wrap(event, fnt, width, count)
            if shown and sum(map(len, shown)) + len(lines) > count:
                break
            shown.insert(0, lines)
    else:
        shown = [[event] for event in list(events or [])[-count:]]
    y = top
    for i, lines in enumerate(shown):
        colour = colours[0] if i == len(shown) - 1 else colours[1]
        draw.ellipse((left, y - 3, left + 6, y + 3), fill=colour)
        for line in lines:
            draw_text(draw, (left + 14, y), line, size, colour, anchor="lm", max_width=width)
            y += spacing


# --------------------------------------------------------------------------- output


def palette_image(image: Image.Image) -> Image.Image:
    """256 colours for ``image`` (an RGB picture), as a palette image to quantize onto."""
    w, h = image.size
    sample = image.resize((max(1, w // 2), max(1, h // 2)), Image.Resampling.NEAREST)
    return sample.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def to_png(image: Image.Image, *, palette: bool = True, compress_level: int = 1) -> bytes:
    """Encode ``image`` as PNG bytes, deterministically.

    With ``palette`` (the default) an RGB image is first reduced to 256 colours, no
    dithering: the table art is flat, so this looks the same and makes files about three
    times smaller. The colours are chosen from every other pixel of every other row (fast
    octree) and the whole picture is then mapped onto them, a third of the time of choosing
    from every pixel for the same look; light compression keeps encoding quick (a table is
    sent on every move). Pass ``palette=False`` for photographic content.
    """
    if palette and image.mode == "RGB":
        image = image.quantize(palette=palette_image(image), dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=compress_level)
    return buffer.getvalue()
