"""Encoding a table's picture again after a move, reusing what did not change.

A table's picture changes little from one move to the next: a die is picked, a score goes
up. :func:`bot.render.common.to_png` chooses 256 colours for every picture, maps every pixel
onto them and compresses the whole, which is most of the cost of answering a click.
:class:`FrameEncoder` remembers the last picture of each table (a few tables, the least
recently used forgotten first) as bands of :data:`BAND` rows, and for the next picture:

* the same pixels: the same PNG bytes, nothing encoded;
* some bands changed, and the table's colours cover them (checked on those bands): only
  those bands are mapped onto the table's colours and compressed again; the PNG is put
  together from the compressed bands (each band is compressed on its own and ends on a
  flush, so the bands of the last picture are reused as they are);
* otherwise (a new colour, a new size, an unknown table): colours chosen afresh as in
  :func:`to_png`, every band compressed, and that palette kept for the next pictures.

The picture is rendered in full every time, so nothing drawn can go stale; what is reused
is only the encoding of identical rows. Pixels differ from a fresh :func:`to_png` of the same
picture only by which of two close colours an edge pixel lands on (the check keeps all but a
handful of mapped pixels within :data:`TOLERANCE`).
"""

from __future__ import annotations

import struct
import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw
from zlib_ng import zlib_ng as zlib  # zlib's format, about 2.5x faster at level 1

from bot.render.common import DIE_STYLES, PALETTE, palette_image
from bot.render.parts import changed_boxes

TOLERANCE = 24
"""How far a mapped pixel may be from its colour (grey level of the difference) and still
count as covered: about the largest error of 256 colours chosen for a picture on itself."""

CAPACITY = 32
"""Tables remembered (each keeps its last picture twice, in colour and in palette indices:
about 2.3 MB for a 960x600 table)."""

BAND = 24
"""Rows per separately compressed band (smaller: less to redo, slightly larger files)."""

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_END = zlib.compressobj(1, zlib.DEFLATED, -15).flush(zlib.Z_FINISH)  # an empty last block


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


@dataclass(frozen=True)
class _Frame:
    rgb: Image.Image
    size: tuple[int, int]
    palette: Image.Image
    colours: bytes
    raw: tuple[bytes, ...]
    """Per band: its rows as PNG stores them (a filter byte, then the palette indices)."""
    packed: tuple[tuple[bytes, int], ...]
    """Per band: ``raw`` compressed on its own (ending on a full flush), and its Adler-32."""
    png: bytes
    parts: object = None
    """The parts the picture was drawn in, if it was (``info["parts"]``)."""


class FrameEncoder:
    """PNG bytes for successive pictures of the same tables (thread-safe)."""

    def __init__(self, capacity: int = CAPACITY, compress_level: int = 1) -> None:
        self.capacity = capacity
        self.compress_level = compress_level
        self._frames: OrderedDict[Hashable, _Frame] = OrderedDict()
        self._lock = threading.Lock()
        self.counts = {"same": 0, "patched": 0, "full": 0, "by parts": 0}

    def encode(self, key: Hashable, image: Image.Image) -> bytes:
        """The picture as PNG bytes; ``key`` names the table whose picture this is."""
        if image.mode != "RGB":
            image = image.convert("RGB")
        with self._lock:
            last = self._frames.get(key)
        frame = self._next(last, image) if last is not None else None
        kind = "patched"
        if frame is None:
            frame, kind = self._fresh(image), "full"
        elif frame is last:
            kind = "same"
        with self._lock:
            self.counts[kind] += 1
            self._frames[key] = frame
            self._frames.move_to_end(key)
            while len(self._frames) > self.capacity:
                self._frames.popitem(last=False)
        return frame.png

    def forget(self, key: Hashable) -> None:
        with self._lock:
            self._frames.pop(key, None)

    def __len__(self) -> int:
        return len(self._frames)

    # --- the two ways to a frame ---------------------------------------------------------

    def _fresh(self, image: Image.Image) -> _Frame:
        palette = palette_image(with_swatch(image))
        indexed = image.quantize(palette=palette, dither=Image.Dither.NONE)
        raw = tuple(_bands(indexed))
        colours = bytes((indexed.getpalette() or [])[: 256 * 3])
        return self._frame(image, palette, colours, raw, tuple(map(self._pack, raw)))

    def _next(self, last: _Frame, image: Image.Image) -> _Frame | None:
        """The frame after ``last`` by redoing the changed bands, or None if it can't."""
        if image.size != last.size:
            return None
        width, height = image.size
        regions = self._changes(last, image)
        if not regions:
            return last
        changed = sorted({band for r in regions for band in range(r[1] // BAND, -(-r[3] // BAND))})
        raw, packed = list(last.raw), list(last.packed)
        for first, end in _runs(changed):
            top, bottom = first * BAND, min(height, end * BAND)
            near = [r for r in regions if r[1] < bottom and r[3] > top]
            left, right = min(r[0] for r in near), max(r[2] for r in near)
            # the band's palette indices as they were, with the changed columns mapped anew
            rows = b"".join(raw[first:end])
            strip = Image.frombytes("P", (width + 1, bottom - top), rows).crop(
                (1, 0, width + 1, bottom - top)
            )
            piece = image.crop((left, top, right, bottom))
            patch = piece.quantize(palette=last.palette, dither=Image.Dither.NONE)
            error = ImageChops.difference(piece, patch.convert("RGB")).convert("L").histogram()
            if sum(error[TOLERANCE + 1 :]) > 2 + (right - left) * (bottom - top) // 1000:
                return None  # colours the palette lacks: choose them afresh
            strip.paste(patch, (left, 0))
            for band, rows in enumerate(_bands(strip), start=first):
                raw[band], packed[band] = rows, self._pack(rows)
        return self._frame(image, last.palette, last.colours, tuple(raw), tuple(packed))

    def _changes(self, last: _Frame, image: Image.Image) -> list[tuple[int, int, int, int]]:
        """Boxes that hold every pixel where ``image`` differs from ``last``. A picture drawn
        in parts (:mod:`bot.render.parts`) says which of its boxes can have changed: only
        those are compared; any other picture is compared whole, band by band."""
        boxes = changed_boxes(last.parts, image.info.get("parts"))
        if boxes is not None:
            with self._lock:
                self.counts["by parts"] += 1
            found = []
            for box in boxes:
                inside = ImageChops.difference(last.rgb.crop(box), image.crop(box)).getbbox()
                if inside is not None:
                    x, y = box[:2]
                    found.append((x + inside[0], y + inside[1], x + inside[2], y + inside[3]))
            return found
        difference = ImageChops.difference(last.rgb, image)
        box = difference.getbbox()
        if box is None:
            return []
        return [
            (box[0], top, box[2], min(box[3], top + BAND))
            for top in range(box[1] // BAND * BAND, box[3], BAND)
            if difference.crop((box[0], max(top, box[1]), box[2], top + BAND)).getbbox()
        ]

    # --- PNG from bands ------------------------------------------------------------------

    def _pack(self, raw: bytes) -> tuple[bytes, int]:
        packer = zlib.compressobj(self.compress_level, zlib.DEFLATED, -15)
        return packer.compress(raw) + packer.flush(zlib.Z_FULL_FLUSH), zlib.adler32(raw)

    def _frame(
        self,
        image: Image.Image,
        palette: Image.Image,
        colours: bytes,
        raw: tuple[bytes, ...],
        packed: tuple[tuple[bytes, int], ...],
    ) -> _Frame:
        check = 1
        for (_data, adler), rows in zip(packed, raw, strict=True):
            check = _adler32_combine(check, adler, len(rows))
        stream = (
            b"\x78\x01"
            + b"".join(data for data, _adler in packed)
            + _END
            + struct.pack(">I", check)
        )
        header = struct.pack(">IIBBBBB", image.width, image.height, 8, 3, 0, 0, 0)
        png = b"".join(
            (
                _SIGNATURE,
                _chunk(b"IHDR", header),
                _chunk(b"PLTE", colours),
                _chunk(b"IDAT", stream),
                _chunk(b"IEND", b""),
            )
        )
        return _Frame(
            image, image.size, palette, colours, raw, packed, png, image.info.get("parts")
        )


def with_swatch(image: Image.Image) -> Image.Image:
    """``image`` with the table colours below it (each pure and half over the backgrounds
    it sits on), so the colours chosen for a table also cover what its next moves bring in
    (a die lifted in gold, a warning) instead of being chosen afresh on the next move."""
    colours = swatch_colours()
    tile = 8
    across = image.width // tile
    rows = -(-len(colours) // across)
    extended = Image.new("RGB", (image.width, image.height + rows * tile), PALETTE.bg)
    extended.paste(image, (0, 0))
    draw = ImageDraw.Draw(extended)
    for i, colour in enumerate(colours):
        x, y = (i % across) * tile, image.height + (i // across) * tile
        draw.rectangle((x, y, x + tile - 1, y + tile - 1), fill=colour)
    return extended


@lru_cache(maxsize=1)
def swatch_colours() -> tuple[tuple[int, int, int], ...]:
    inks = [c for c in vars(PALETTE).values() if isinstance(c, tuple)]
    for style in DIE_STYLES.values():
        inks += [style.face, style.pip, style.edge]
    grounds = [PALETTE.bg, PALETTE.panel, PALETTE.felt, PALETTE.tray]
    blends = [
        tuple((a + b) // 2 for a, b in zip(ink, ground, strict=True))
        for ink in inks
        for ground in grounds
    ]
    return tuple(dict.fromkeys(inks + blends))


def _bands(indexed: Image.Image) -> list[bytes]:
    """The rows of a palette picture as PNG stores them (filter byte 0, then the indices),
    :data:`BAND` rows to an item."""
    width, height = indexed.size
    padded = Image.new("P", (width + 1, height), 0)  # column 0: each row's filter byte
    padded.paste(indexed, (1, 0))
    data = padded.tobytes()
    step = (width + 1) * BAND
    return [data[start : start + step] for start in range(0, len(data), step)]


def _adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two pieces of data one after the other, from each piece's own (as
    zlib's adler32_combine, which Python does not offer)."""
    base = 65521
    rem = second_length % base
    low = first & 0xFFFF
    high = (rem * low) % base
    low = (low + (second & 0xFFFF) + base - 1) % base
    high = (high + (first >> 16) + (second >> 16) + base - rem) % base
    return low | (high << 16)


def _runs(bands: list[int]) -> list[tuple[int, int]]:
    """Consecutive band numbers as (first, end) pairs: [1, 2, 5] -> [(1, 3), (5, 6)]."""
    runs: list[tuple[int, int]] = []
    for band in bands:
        if runs and runs[-1][1] == band:
            runs[-1] = (runs[-1][0], band + 1)
        else:
            runs.append((band, band + 1))
    return runs
