"""Card faces: the right colours, a back that hides the card, deterministic drawing."""

from __future__ import annotations

from PIL import Image

from bot.render.cards import (
    BLUE,
    GREEN,
    RED,
    card_back,
    card_image,
    fan_width,
    paste_card,
    paste_fan,
)


def colours(image: Image.Image) -> set[tuple[int, int, int]]:
    return {px[:3] for px in image.get_flattened_data() if px[3] == 255}


def test_four_colour_deck_gives_each_suit_its_own_ink() -> None:
    assert GREEN in colours(card_image("5C", four_colour=True))
    assert GREEN not in colours(card_image("5C"))
    assert BLUE in colours(card_image("5D", four_colour=True))
    assert RED in colours(card_image("5D")) and BLUE not in colours(card_image("5D"))


def test_cards_differ_and_the_back_shows_none_of_them() -> None:
    faces = {card_image(code).tobytes() for code in ("AS", "AH", "KS", "TS", "JKH", "JKL")}
    assert len(faces) == 6
    assert card_back().tobytes() not in faces


def test_fan_width_and_paste_land_where_promised() -> None:
    assert fan_width(0) == 0 and fan_width(1, 80) == 80 and fan_width(3, 80, 0.5) == 160
    canvas = Image.new("RGB", (400, 200), (0, 0, 0))
    paste_fan(canvas, (10, 10), ["AS", None, "TH"], 80, overlap=0.5)
    assert canvas.getpixel((12 + 80, 60)) != (0, 0, 0)  # inside the third card's reach
    assert canvas.getpixel((10 + 160 + 5, 60)) == (0, 0, 0)  # past the fan's right edge
    before = canvas.copy()
    paste_card(canvas, (300, 10), "QS", 80, highlight=(255, 0, 0))
    assert canvas.getpixel((297, 50)) == (255, 0, 0) and before.getpixel((297, 50)) == (0, 0, 0)
