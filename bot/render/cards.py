"""Card faces for the card games' table images, drawn once per size and cached.

Cards must stay readable when Discord shrinks the table image to its preview width (about
half size), so the corner index is large and bold, and each card also carries a big centre
suit. The four-colour deck (spades black, hearts red, diamonds blue, clubs green) keeps every
suit apart for colour-blind players; the two-colour deck is the familiar red and black.
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from bot.engines.cards import SUIT_SYMBOLS, card
from bot.render.common import RGB, font

CARD_FACE: RGB = (250, 250, 246)
CARD_EDGE: RGB = (150, 150, 150)
BACK: RGB = (52, 78, 150)
BACK_EDGE: RGB = (210, 214, 230)
BLACK: RGB = (24, 24, 28)
RED: RGB = (206, 32, 44)
BLUE: RGB = (28, 92, 200)
GREEN: RGB = (22, 132, 58)
JOKER_HIGH: RGB = (176, 40, 150)
JOKER_LOW: RGB = (90, 90, 100)

TWO_COLOUR = {"S": BLACK, "C": BLACK, "H": RED, "D": RED}
FOUR_COLOUR = {"S": BLACK, "C": GREEN, "H": RED, "D": BLUE}


def suit_colour(suit: str, four_colour: bool = False) -> RGB:
    return (FOUR_COLOUR if four_colour else TWO_COLOUR)[suit]


def card_size(width: int) -> tuple[int, int]:
    """A card's pixel size for a given width (the usual 5:7 shape)."""
    return width, round(width * 1.4)


@cache
def card_image(code: str, width: int = 84, four_colour: bool = False) -> Image.Image:
    """One card face as an RGBA image (transparent corners)."""
    c = card(code)
    w, h = card_size(width)
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = max(4, width // 10)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=CARD_FACE, outline=CARD_EDGE)
    pad = max(3, width // 14)
    if c.is_joker:
        ink = JOKER_HIGH if c.rank == 2 else JOKER_LOW
        word = "HIGH" if c.rank == 2 else "LOW"
        draw.text((pad, pad), "★", font=font(round(width * 0.36), True), fill=ink)
        draw.text(
            (w / 2, h * 0.55), "JOKER", font=font(round(width * 0.2), True), fill=ink, anchor="mm"
        )
        draw.text(
            (w / 2, h * 0.75), word, font=font(round(width * 0.2), True), fill=ink, anchor="mm"
        )
        return image
    ink = suit_colour(c.suit, four_colour)
    index = font(round(width * (0.36 if c.rank != 10 else 0.31)), True)
    draw.text((pad, pad - 2), c.rank_char, font=index, fill=ink)
    small = font(round(width * 0.3), True)
    draw.text((pad + 1, pad + index.size), SUIT_SYMBOLS[c.suit], font=small, fill=ink)
    big = font(round(width * 0.62), False)
    draw.text((w * 0.6, h * 0.66), SUIT_SYMBOLS[c.suit], font=big, fill=ink, anchor="mm")
    return image


@cache
def card_back(width: int = 84) -> Image.Image:
    """The back of a card, for hidden or face-down cards."""
    w, h = card_size(width)
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = max(4, width // 10)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=BACK, outline=BACK_EDGE, width=2)
    inset = max(4, width // 8)
    draw.rounded_rectangle(
        (inset, inset, w - 1 - inset, h - 1 - inset), radius // 2, outline=BACK_EDGE, width=1
    )
    return image


def paste_card(
    target: Image.Image,
    xy: tuple[float, float],
    code: str | None,
    width: int = 84,
    *,
    four_colour: bool = False,
    highlight: RGB | None = None,
) -> None:
    """Draw a card (or its back, for ``None``) with its top-left corner at ``xy``."""
    sprite = card_back(width) if code is None else card_image(code, width, four_colour)
    x, y = round(xy[0]), round(xy[1])
    if highlight is not None:
        w, h = sprite.size
        ImageDraw.Draw(target).rounded_rectangle(
            (x - 4, y - 4, x + w + 3, y + h + 3), max(6, width // 8), outline=highlight, width=4
        )
    target.paste(sprite, (x, y), sprite)


def fan_width(count: int, width: int = 84, overlap: float = 0.55) -> int:
    """The width of ``count`` cards drawn overlapping by ``overlap`` of a card."""
    if count <= 0:
        return 0
    return round(width + (count - 1) * width * (1 - overlap))


def paste_fan(
    target: Image.Image,
    xy: tuple[float, float],
    codes: list[str | None],
    width: int = 84,
    *,
    overlap: float = 0.55,
    four_colour: bool = False,
) -> None:
    """A row of overlapping cards, left to right, each corner index left visible."""
    step = width * (1 - overlap)
    for i, code in enumerate(codes):
        paste_card(target, (xy[0] + i * step, xy[1]), code, width, four_colour=four_colour)
