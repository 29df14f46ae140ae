"""A table picture drawn in parts, each part reused while what it shows is unchanged.

A move changes a few things on the table (a die lifted, a score) and leaves the rest as it
was. A renderer that splits its picture into :class:`Part` s (a box of the picture and the
inputs drawn into it) draws through :func:`compose`: a part whose inputs were drawn before is
pasted from :data:`PARTS`, a memo of recently drawn parts, instead of being drawn again. The
memo keeps its parts in the process's one picture cache (:mod:`bot.render.cache`), within the
budget it shares with the tables' last pictures.

What keeps this exact:

* the boxes do not overlap, and each part draws only inside its box, onto the background
  (so a part's pixels depend on its inputs alone and pasting them back is the same as
  drawing them);
* the key holds every input the part's drawing reads (tests draw long seeded games both
  ways and compare every pixel).

The picture carries its parts in ``info["parts"]`` (background, then each box and key), so
the encoder (:mod:`bot.render.frames`) knows which boxes can differ from the table's last
picture: only those whose key changed.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.cache import DEFAULT_BUDGET, PICTURES, PictureCache
from bot.render.common import recording

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Part:
    name: str
    box: Box
    key: Hashable
    """Everything the drawing reads: equal keys draw equal pixels."""
    draw: Callable[[Image.Image, ImageDraw.ImageDraw], None]


class PartMemo:
    """Drawn parts by (name, box, key), in a :class:`~bot.render.cache.PictureCache`: the
    process's shared one (:data:`PARTS`), or one of its own of ``budget`` bytes."""

    def __init__(self, budget: int = DEFAULT_BUDGET, cache: PictureCache | None = None) -> None:
        self.cache = cache if cache is not None else PictureCache(budget)
        self.counts = {"drawn": 0, "reused": 0}

    @property
    def budget(self) -> int:
        return self.cache.budget

    @property
    def size(self) -> int:
        return self.cache.size

    def get(self, key: Hashable) -> Image.Image | None:
        found = self.cache.get(("part", key))
        self.counts["reused" if found is not None else "drawn"] += 1
        return found

    def put(self, key: Hashable, pixels: Image.Image) -> None:
        self.cache.put(("part", key), pixels, pixels.width * pixels.height * len(pixels.getbands()))

    def __len__(self) -> int:
        return self.cache.count("part")


PARTS = PartMemo(cache=PICTURES)


def compose(
    background: Image.Image, parts: Sequence[Part], memo: PartMemo | None = None
) -> Image.Image:
    """The picture: ``background`` with every part drawn or pasted from ``memo``.

    While text is recorded (:func:`bot.render.common.recording_text`) every part is drawn
    afresh, so that its text is recorded too."""
    memo = PARTS if memo is None else memo
    if recording():
        memo = PartMemo()
    image = background.copy()
    draw = ImageDraw.Draw(image)
    for part in parts:
        key = (part.name, part.box, part.key)
        pixels = memo.get(key)
        if pixels is not None:
            image.paste(pixels, part.box[:2])
        else:
            part.draw(image, draw)
            memo.put(key, image.crop(part.box))
    image.info["parts"] = (id(background), tuple((p.box, p.key) for p in parts))
    return image


def changed_boxes(before: object, after: object) -> list[Box] | None:
    """The boxes where a picture drawn by parts (``after``'s ``info["parts"]``) can differ
    from one drawn before (``before``'s), or None when they cannot be compared (either not
    drawn by parts, or on another background).

    Those are the boxes of the parts that are not in both pictures with the same key: a
    pixel outside them is either in no part of either picture (background in both) or in a
    part both pictures drew alike (the boxes of one picture never overlap)."""
    if not (isinstance(before, tuple) and isinstance(after, tuple)):
        return None
    (base_before, parts_before), (base_after, parts_after) = before, after
    if base_before != base_after:
        return None
    old, new = set(parts_before), set(parts_after)
    changed = [box for box, _key in parts_after if (box, _key) not in old]
    changed += [box for box, _key in parts_before if (box, _key) not in new]
    return sorted(set(changed))
