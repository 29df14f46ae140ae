"""The one picture cache: parts, frames and palettes within one byte budget."""

from __future__ import annotations

import dataclasses

from PIL import Image

from bot.render import parts
from bot.render.cache import PALETTE_COST, PICTURES, PictureCache
from bot.render.frames import FrameEncoder
from bot.render.qdice import render_qdice
from bot.tables import panels
from tests.render.builders import dice, make_obs

NAMES = ["Alice", "Bob"]


def test_least_recently_used_goes_first_whatever_its_kind() -> None:
    cache = PictureCache(budget=300)
    cache.put(("part", 1), "a", 100)
    cache.put(("frame", 1), "b", 100)
    cache.put(("palette", b"x"), "c", 100)
    assert cache.get(("part", 1)) == "a"  # now the most recently used
    cache.put(("patch", 2), "d", 100)
    assert cache.get(("frame", 1)) is None
    assert cache.size == 300 and len(cache) == 3
    assert cache.usage() == {"part": (1, 100), "palette": (1, 100), "patch": (1, 100)}
    cache.put(("frame", 3), "too dear", 301)  # dearer than the whole budget: not kept
    assert cache.get(("frame", 3)) is None and cache.size <= cache.budget
    cache.resize(100)
    assert cache.size <= 100 and len(cache) == 1


def test_the_bot_keeps_parts_and_frames_in_one_cache() -> None:
    assert parts.PARTS.cache is PICTURES
    assert panels.FRAMES.cache is PICTURES


def test_a_remembered_frame_holds_bytes_not_pictures() -> None:
    """A table's last picture is kept as its PNG (a few tens of KB); the colours it was
    mapped onto are kept apart, counted at what Pillow keeps with them, and shared."""
    frames = FrameEncoder()
    rolled = make_obs(2, dice=dice("1A 2B 3A 5B 6A 4B"), selected=[])
    lifted = rolled.model_copy(update={"selected": [0]})
    for table in range(3):
        frames.encode(table, render_qdice(rolled, NAMES, ["Bob rolled six dice."]))
        frames.encode(table, render_qdice(lifted, NAMES, ["Bob rolled six dice."]))
    assert frames.counts["patched"] == 3
    for table in range(3):
        frame = frames.cache.get(("frame", table))
        kept = [getattr(frame, f.name) for f in dataclasses.fields(frame)]
        assert not any(isinstance(value, Image.Image) for value in kept)
        assert frame.cost < 100_000
    usage = frames.cache.usage()
    assert usage["palette"] == (1, PALETTE_COST)  # the same picture: the same colours
    assert frames.size == sum(size for _count, size in usage.values()) <= frames.budget


def test_many_tables_share_their_colours_and_stay_within_the_budget() -> None:
    """Pictures drawn on the same background are mapped onto the colours chosen for the
    first (they cover them): one palette for every table, and patches mapped once for all."""
    budget = 2 * PALETTE_COST + 400_000
    frames = FrameEncoder(budget=budget)
    tables = 30
    for table in range(tables):
        rolled = make_obs(2, dice=dice("1A 2B 3A 5B 6A 4B"), selected=[])
        names = [f"Player {table}", "Bob"]
        frames.encode(table, render_qdice(rolled, names, []))
        lifted = rolled.model_copy(update={"selected": [table % 6]})
        frames.encode(table, render_qdice(lifted, names, []))
        assert frames.size <= budget
    assert frames.counts["patched"] == tables
    assert frames.cache.usage()["palette"] == (1, PALETTE_COST)
    assert 0 < len(frames) < tables  # the least recently used tables' pictures forgotten
