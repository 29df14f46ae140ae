"""Encoding a table's picture again after a move, reusing what did not change.

A table's picture changes little from one move to the next: a die is picked, a score goes
up. :func:`bot.render.common.to_png` chooses 256 colours for every picture, maps every pixel
onto them and compresses the whole, which is most of the cost of answering a click.
:class:`FrameEncoder` remembers the last picture of each table (in the process's picture cache,
:mod:`bot.render.cache`, within its one budget; the least recently used forgotten first) as
bands of :data:`BAND` rows, each compressed on its own, and for the next picture:

* the same pixels: the same PNG bytes, nothing encoded;
* some bands changed, and the table's colours cover them (checked on those bands): only
  those bands are mapped onto the table's colours and compressed again; the PNG is put
  together from the compressed bands (each band ends on a full flush, so the bands of the
  last picture are reused as they are, and one can be unpacked alone to be patched). What
  changed is told by the picture itself when it was drawn in parts (the boxes whose inputs
  changed, :mod:`bot.render.parts`), so only its compressed bands are kept; any other
  picture is compared with the last one, whose pixels are kept for that;
* otherwise (a new colour, a new size, an unknown table): colours chosen afresh as in
  :func:`to_png`, every band compressed, and that palette kept for the next pictures.

The picture is rendered in full every time. What is reused is the encoding of rows that did
not change: found by comparing pixels, or, for a picture drawn in parts, told by the parts'
keys (which hold every input a part draws; the renderers' tests check that over long seeded
games, and a stale key would show in the picture itself before it reached here). Pixels differ from a fresh :func:`to_png` of the same
picture only by which of two close colours an edge pixel lands on (the check keeps all but a
handful of mapped pixels within :data:`TOLERANCE`).
"""

from __future__ import annotations

import struct
import threading
from collections.abc import Hashable
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw
from zlib_ng import zlib_ng as zlib  # zlib's format, about 2.5x faster at level 1

from bot.render.cache import DEFAULT_BUDGET, PALETTE_COST, PictureCache
from bot.render.common import DIE_STYLES, PALETTE, palette_image
from bot.render.parts import changed_boxes

TOLERANCE = 24
"""How far a mapped pixel may be from its colour (grey level of the difference) and still
count as covered: about the largest error of 256 colours chosen for a picture on itself."""

BAND = 24
"""Rows per separately compressed band (smaller: less to redo, slightly larger files)."""

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_END = zlib.compressobj(1, zlib.DEFLATED, -15).flush(zlib.Z_FINISH)  # an empty last block
_BAND_COST = 100
"""Bytes counted per band for its place in the frame (besides its compressed data)."""


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


@dataclass(frozen=True)
class _Frame:
    rgb: Image.Image | None
    """The picture, to compare the next one with (None when drawn in parts)."""
    size: tuple[int, int]
    colours: bytes
    """The table's 256 colours, as the PNG's PLTE chunk holds them."""
    png: bytes
    bands: tuple[tuple[int, int, int], ...]
    """Per band: where its rows lie in :attr:`png` (start, end), compressed on their own
    (ending on a full flush), and their Adler-32."""
    parts: object = None
    """The parts the picture was drawn in, if it was (``info["parts"]``)."""

    @property
    def cost(self) -> int:
        pixels = 0 if self.rgb is None else self.rgb.width * self.rgb.height * 3
        return pixels + len(self.png) + _BAND_COST * len(self.bands)

    def packed(self, band: int) -> tuple[bytes, int]:
        """The band's compressed rows and their Adler-32."""
        start, end, adler = self.bands[band]
        return self.png[start:end], adler

    def raw(self, band: int) -> bytes:
        """The band's rows as PNG stores them (its compressed block stands on its own)."""
        start, end, _adler = self.bands[band]
        return zlib.decompressobj(-15).decompress(self.png[start:end])


class FrameEncoder:
    """PNG bytes for successive pictures of the same tables (thread-safe).

    What it remembers lives in a :class:`~bot.render.cache.PictureCache`: ``cache`` (the
    bot's is the process's shared one, :data:`~bot.render.cache.PICTURES`), or one of its
    own of ``budget`` bytes.
    Per table that is its last picture as PNG bytes (25-60 KB; the bands are slices of it),
    plus its pixels when it was not drawn in parts (1.7 MB for 960x600); per set of table
    colours a palette Pillow maps onto (:data:`~bot.render.cache.PALETTE_COST`) and the
    parts mapped onto it.
    """

    def __init__(
        self,
        budget: int = DEFAULT_BUDGET,
        compress_level: int = 1,
        *,
        cache: PictureCache | None = None,
    ) -> None:
        self.cache = cache if cache is not None else PictureCache(budget)
        self.compress_level = compress_level
        self._lock = threading.Lock()
        self.counts = {"same": 0, "patched": 0, "full": 0, "by parts": 0}

    @property
    def budget(self) -> int:
        return self.cache.budget

    @property
    def size(self) -> int:
        """Bytes the cache holds (this encoder's frames and palettes, and whatever else
        shares the cache)."""
        return self.cache.size

    def encode(self, key: Hashable, image: Image.Image) -> bytes:
        """The picture as PNG bytes; ``key`` names the table whose picture this is."""
        if image.mode != "RGB":
            image = image.convert("RGB")
        last: _Frame | None = self.cache.get(("frame", key))
        frame = self._next(last, image) if last is not None else None
        kind = "patched"
        if frame is None:
            frame, kind = self._fresh(image), "full"
        elif frame is last:
            kind = "same"
        with self._lock:
            self.counts[kind] += 1
        self.cache.put(("frame", key), frame, frame.cost)
        return frame.png

    def forget(self, key: Hashable) -> None:
        self.cache.pop(("frame", key))

    def __len__(self) -> int:
        """How many tables' last pictures are remembered."""
        return self.cache.count("frame")

    # --- the two ways to a frame ---------------------------------------------------------

    def _fresh(self, image: Image.Image) -> _Frame:
        """A frame encoded in full: on the colours already chosen for pictures drawn on the
        same background if they cover this one, else on colours chosen for it."""
        family = _family(image)
        if family is not None:
            known: bytes | None = self.cache.get(family)
            if known is not None:
                indexed = image.quantize(palette=self._palette(known), dither=Image.Dither.NONE)
                if _covered(image, indexed):
                    return self._frame(image, known, tuple(map(self._pack, _bands(indexed))))
        palette = palette_image(with_swatch(image))
        indexed = image.quantize(palette=palette, dither=Image.Dither.NONE)
        colours = bytes((indexed.getpalette() or [])[: 256 * 3])
        if family is not None:
            self.cache.put(family, colours, len(colours))
        return self._frame(image, colours, tuple(map(self._pack, _bands(indexed))))

    def _palette(self, colours: bytes) -> Image.Image:
        """A palette image of ``colours`` to map onto (kept: Pillow keeps its mapping table
        with it, built as pictures are mapped onto it)."""
        key = ("palette", colours)
        palette: Image.Image | None = self.cache.get(key)
        if palette is None:
            palette = Image.new("P", (1, 1))
            palette.putpalette(colours)
            self.cache.put(key, palette, PALETTE_COST)
        return palette

    def _next(self, last: _Frame, image: Image.Image) -> _Frame | None:
        """The frame after ``last`` by redoing the changed bands, or None if it can't."""
        if image.size != last.size:
            return None
        width, height = image.size
        regions = self._changes(last, image)
        if regions is None:
            return None
        if not regions:
            return last
        changed = sorted({band for r in regions for band in range(r[1] // BAND, -(-r[3] // BAND))})
        drawn = image.info.get("parts")
        parts = dict(drawn[1]) if isinstance(drawn, tuple) else {}  # box -> what it shows
        packed = [last.packed(band) for band in range(len(last.bands))]
        palette = self._palette(last.colours)
        for first, end in _runs(changed):
            top, bottom = first * BAND, min(height, end * BAND)
            # the bands' palette indices as they were, with the changed boxes mapped anew
            rows = b"".join(last.raw(band) for band in range(first, end))
            strip = Image.frombytes("P", (width + 1, bottom - top), rows).crop(
                (1, 0, width + 1, bottom - top)
            )
            for left, upper, right, lower in regions:
                upper, lower = max(upper, top), min(lower, bottom)
                if upper >= lower:
                    continue
                box = (left, upper, right, lower)
                patch = self._patch(palette, last.colours, image, box, parts.get(box))
                if patch is None:
                    return None  # colours the palette lacks: choose them afresh
                strip.paste(patch, (left, upper - top))
            for band, rows in enumerate(_bands(strip), start=first):
                packed[band] = self._pack(rows)
        return self._frame(image, last.colours, tuple(packed))

    def _patch(
        self,
        palette: Image.Image,
        colours: bytes,
        image: Image.Image,
        box: tuple[int, int, int, int],
        key: object,
    ) -> Image.Image | None:
        """The box of ``image`` mapped onto ``palette``, or None if its colours are not
        covered. A box that is one part of a picture drawn in parts (``key``: what the part
        shows) is mapped once per palette and reused: equal keys, equal pixels."""
        memo = ("patch", colours, box, key)
        if key is not None and (known := self.cache.get(memo)) is not None:
            return known
        piece = image.crop(box)
        patch = piece.quantize(palette=palette, dither=Image.Dither.NONE)
        if not _covered(piece, patch):
            return None
        if key is not None:
            self.cache.put(memo, patch, patch.width * patch.height)
        return patch

    def _changes(self, last: _Frame, image: Image.Image) -> list[tuple[int, int, int, int]] | None:
        """Boxes that hold every pixel where ``image`` differs from ``last`` (None if that
        cannot be told). A picture drawn in parts (:mod:`bot.render.parts`) says which of its
        boxes can have changed: those, whole; any other picture is compared with the last
        one, band by band."""
        boxes = changed_boxes(last.parts, image.info.get("parts"))
        if boxes is not None:
            with self._lock:
                self.counts["by parts"] += 1
            return boxes
        if last.rgb is None:
            return None
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
        colours: bytes,
        packed: tuple[tuple[bytes, int], ...],
    ) -> _Frame:
        width, height = image.size
        check = 1
        for band, (_data, adler) in enumerate(packed):
            rows = min(BAND, height - band * BAND)
            check = _adler32_combine(check, adler, (width + 1) * rows)
        stream = (
            b"\x78\x01"
            + b"".join(data for data, _adler in packed)
            + _END
            + struct.pack(">I", check)
        )
        header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
        head = b"".join((_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", colours)))
        png = b"".join((head, _chunk(b"IDAT", stream), _chunk(b"IEND", b"")))
        at = len(head) + 8 + 2  # the IDAT chunk's length and type, the zlib header
        bands = []
        for data, adler in packed:
            bands.append((at, at + len(data), adler))
            at += len(data)
        parts = image.info.get("parts")
        kept = None if parts is not None else image  # parts say what changed next time
        return _Frame(kept, image.size, colours, png, tuple(bands), parts)


def _family(image: Image.Image) -> Hashable | None:
    """What pictures drawn on the same background share (their colours), or None for a
    picture not drawn in parts."""
    drawn = image.info.get("parts")
    if not isinstance(drawn, tuple):
        return None
    return ("colours", drawn[0], image.size)


def _covered(image: Image.Image, indexed: Image.Image) -> bool:
    """Whether ``indexed`` (``image`` mapped onto a palette) keeps all but a handful of
    pixels within :data:`TOLERANCE` of the picture."""
    error = ImageChops.difference(image, indexed.convert("RGB")).convert("L")
    return sum(error.histogram()[TOLERANCE + 1 :]) <= 2 + image.width * image.height // 1000


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
