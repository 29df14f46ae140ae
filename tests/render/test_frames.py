"""The frame encoder: successive table pictures re-encoded by what changed, same look."""

from __future__ import annotations

import io

from PIL import Image, ImageChops, ImageDraw

from bot.render.common import to_png
from bot.render.frames import TOLERANCE, FrameEncoder
from bot.render.parts import changed_boxes
from bot.render.qdice import render_qdice
from tests.render.builders import dice, make_obs


def _decoded(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def _close(a: Image.Image, b: Image.Image, tolerance: int = TOLERANCE) -> int:
    """How many pixels of ``a`` and ``b`` differ by more than ``tolerance`` (grey level)."""
    return sum(ImageChops.difference(a, b).convert("L").histogram()[tolerance + 1 :])


NAMES = ["Alice", "Bob", "Carol", "Dan"]


def test_a_move_patches_the_picture_and_looks_like_a_fresh_encoding() -> None:
    frames = FrameEncoder()
    before = render_qdice(make_obs(4, selected=[0]), NAMES, ["Bob rolled."])
    after = render_qdice(make_obs(4, selected=[0, 2]), NAMES, ["Bob rolled."])
    frames.encode(7, before)
    data = frames.encode(7, after)
    assert frames.counts == {"same": 0, "patched": 1, "full": 1, "by parts": 1}
    shown = _decoded(data)
    assert shown.size == after.size
    # as faithful to the picture as encoding it from scratch
    assert _close(shown, after) <= 2 + (after.width * after.height) // 1000
    assert _close(shown, _decoded(to_png(after))) <= 2 + (after.width * after.height) // 1000
    # and the change is there: the patched picture is not the old one
    assert _close(shown, before, 0) > 0


def test_the_same_picture_is_not_encoded_again() -> None:
    frames = FrameEncoder()
    image = render_qdice(make_obs(2), NAMES[:2])
    first = frames.encode("t", image)
    assert frames.encode("t", image.copy()) is first
    assert frames.counts["same"] == 1


def test_a_new_colour_chooses_the_colours_afresh() -> None:
    frames = FrameEncoder()
    image = Image.new("RGB", (200, 100), (20, 20, 30))
    frames.encode(1, image)
    changed = image.copy()
    ImageDraw.Draw(changed).rectangle((10, 10, 90, 60), fill=(250, 40, 200))
    data = frames.encode(1, changed)
    assert frames.counts["full"] == 2
    assert _decoded(data).getpixel((50, 30)) == (250, 40, 200)


def test_tables_do_not_mix_and_the_oldest_is_forgotten() -> None:
    one = render_qdice(make_obs(2, dice=dice("1A 2B 3A")), NAMES[:2])
    two = render_qdice(make_obs(3, dice=dice("5A 5B 6B")), NAMES[:3])
    for picture in (one, two):  # compared by pixels: nothing shared between the tables
        del picture.info["parts"]
    probe = FrameEncoder()
    probe.encode("one", one)
    probe.encode("two", two)
    frames = FrameEncoder(budget=probe.size)  # room for two tables' pictures
    frames.encode("one", one)
    frames.encode("two", two)
    frames.encode("one", one)
    assert frames.counts == {"same": 1, "patched": 0, "full": 2, "by parts": 0}
    assert frames.size <= frames.budget
    frames.encode("three", Image.new("RGB", (10, 10)))
    assert len(frames) == 2 and frames.size <= frames.budget
    frames.encode("two", two)  # forgotten: encoded in full again
    assert frames.counts["full"] == 4
    # each table's picture is its own, whatever was encoded between
    assert _close(_decoded(frames.encode("one", two)), two) <= 2 + two.width * two.height // 1000


def _idat(data: bytes) -> bytes:
    """The concatenated IDAT data of a PNG, checking every chunk's CRC on the way."""
    import struct
    import zlib

    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat = 8, b""
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert zlib.crc32(kind + body) == crc, kind
        if kind == b"IDAT":
            idat += body
        at += 12 + length
    return idat


def test_the_png_is_well_formed_and_exact_to_its_palette() -> None:
    import zlib

    from bot.render.common import palette_image
    from bot.render.frames import with_swatch

    frames = FrameEncoder()
    image = render_qdice(make_obs(3, selected=[1]), NAMES[:3], ["x"])
    data = frames.encode(1, image)
    chosen = palette_image(with_swatch(image))
    expected = image.quantize(palette=chosen, dither=Image.Dither.NONE)
    assert _decoded(data).tobytes() == expected.convert("RGB").tobytes()
    rows = zlib.decompress(_idat(data))  # checks the stream's Adler-32 too
    assert len(rows) == image.height * (image.width + 1)
    patched = frames.encode(1, render_qdice(make_obs(3, selected=[1, 2]), NAMES[:3], ["x"]))
    assert frames.counts["patched"] == 1
    assert len(zlib.decompress(_idat(patched))) == len(rows)


def test_a_picture_drawn_in_parts_is_remembered_by_its_bands_only() -> None:
    """Kept compressed (a few tens of KB), not as pixels (1.7 MB): many tables fit."""
    frames = FrameEncoder()
    for table in range(40):
        frames.encode(table, render_qdice(make_obs(2, selected=[table % 3]), NAMES[:2]))
    assert len(frames) == 40 and frames.size < 40 * 200_000
    before = frames.size
    plain = Image.new("RGB", (960, 600), (20, 20, 30))  # not drawn in parts: pixels kept
    frames.encode("plain", plain)
    assert frames.size - before > 960 * 600 * 3


def test_pictures_drawn_in_parts_are_compared_by_their_changed_parts() -> None:
    """A whole seeded game: each picture says which parts changed, the encoder compares only
    those, and every frame it sends is as faithful as a fresh encoding."""
    from tests.render.test_parts import _played_observations

    frames = FrameEncoder()
    sent, comparable, before = 0, 0, None
    for obs, log in _played_observations(3, 11, 150):
        image = render_qdice(obs, NAMES[:3], log)
        shown = _decoded(frames.encode("game", image))
        assert _close(shown, image) <= 2 + (image.width * image.height) // 1000
        if before is not None and changed_boxes(before, image.info["parts"]) is not None:
            comparable += 1  # every picture but the first: all on the same background
        before = image.info["parts"]
        sent += 1
    assert comparable == sent - 1
    assert frames.counts["by parts"] == comparable
    assert frames.counts["patched"] > sent // 2


def test_the_first_die_lifted_needs_no_new_colours() -> None:
    """The colours chosen for a table include the table's own palette, so lifting a die in
    gold right after the roll patches the picture instead of choosing colours afresh."""
    frames = FrameEncoder()
    for table in range(8):
        rolled = make_obs(2, dice=dice("1A 2B 3A 5B 6A 4B"), selected=[])
        frames.encode(table, render_qdice(rolled, NAMES[:2], ["Bob rolled six dice."]))
        lifted = rolled.model_copy(update={"selected": [table % 6]})
        frames.encode(table, render_qdice(lifted, NAMES[:2], ["Bob rolled six dice."]))
    assert frames.counts["full"] == 8 and frames.counts["patched"] == 8
