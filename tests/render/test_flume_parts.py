"""The Flume table drawn in parts equals the table drawn whole, pixel for pixel."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.engines.flume import ai as flume_ai
from bot.engines.flume.engine import FlumeConfig, FlumeEngine, FlumeObservation
from bot.render import flume as flume_render
from bot.render.flume import render_flume
from bot.render.parts import PartMemo, changed_boxes

NAMES = ["Ada", "Bartholomew the Magnificent", "Zoë", "Dmitri", "Evangeline Fairweather"]


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


def _drawn_straight(obs: FlumeObservation, names: list[str]) -> Image.Image:
    """The table drawn the plain way, everything onto one copy of the background."""
    image = flume_render._background().copy()
    draw = ImageDraw.Draw(image)
    flume_render._draw_header(draw, obs)
    flume_render._draw_strip(draw, obs, names)
    for seat in range(obs.n_players):
        flume_render._draw_plate(draw, obs, names, seat)
    flume_render._draw_trick(image, draw, obs)
    flume_render._draw_revealed_hands(image, obs)
    flume_render._draw_column(draw, obs, names)
    return image


def _played(players: int, seed: int, target: int) -> list[tuple[FlumeObservation, bool]]:
    """The public table after every move of a seeded game played by the normal AI (as the
    table shows it, seat None), now and then also as a replay shows it (every hand face up);
    the flag says which."""
    engine, rng = FlumeEngine(), random.Random(seed)
    state = engine.new_game(FlumeConfig(target=target, four_colour=seed % 2 == 1), players, seed)
    seen = [(engine.observe(state, None), False)]
    while not engine.is_over(state):
        seat = sorted(engine.to_act(state))[0]
        engine.apply(state, seat, flume_ai.decide(engine.observe(state, seat), "normal", rng))
        seen.append((engine.observe(state, None), False))
        if len(seen) % 5 == 0:
            seen.append((engine.revealed(state), True))
    seen.append((engine.revealed(state), True))
    return seen


GAMES = [(4, 1, 11), (5, 2, 11), (4, 3, 21), (5, 4, 21)]


@pytest.fixture(scope="module")
def games() -> list[tuple[int, list[tuple[FlumeObservation, bool]]]]:
    return [(players, _played(players, seed, target)) for players, seed, target in GAMES]


def test_the_games_cover_the_table(games) -> None:
    """The games below pass through every phase, several hands, a called partner (and the
    partner shown), and the end."""
    for players, seen in games:
        phases = Counter(obs.phase for obs, _ in seen)
        assert {"bid", "trump", "discard", "play", "over"} <= set(phases), phases
        assert max(obs.hand_no for obs, _ in seen) >= 3
        if players == 5:
            assert phases["call"] > 0
            assert any(obs.called and obs.partner_known for obs, _ in seen)


def test_flume_drawn_in_parts_equals_drawn_whole(games) -> None:
    """Seeded 4- and 5-seat games: the picture from a shared memo (parts pasted back where
    their inputs were seen) equals the one drawn with nothing to reuse and the one drawn
    straight, every pixel; and outside the boxes whose key changed, a picture equals the
    one before it."""
    shared = PartMemo()
    for players, seen in games:
        names = NAMES[:players]
        before: dict[bool, Image.Image] = {}
        for obs, replay in seen:
            drawn = render_flume(obs, names, memo=shared)
            whole = render_flume(obs, names, memo=PartMemo(budget=0))
            assert _same(drawn, whole), (players, obs)
            assert _same(drawn, _drawn_straight(obs, names)), (players, obs)
            last = before.get(replay)
            if last is not None:
                boxes = changed_boxes(last.info["parts"], drawn.info["parts"])
                assert boxes is not None
                masked = [im.copy() for im in (last, drawn)]
                for im in masked:
                    for box in boxes:
                        im.paste((0, 0, 0), box)
                assert _same(*masked), (players, obs)
            before[replay] = drawn
    assert shared.counts["reused"] > shared.counts["drawn"]  # most parts are pasted back


def test_the_boxes_do_not_overlap(games) -> None:
    for players, seen in games:
        for obs, _ in seen[:40] + seen[-2:]:
            boxes = [box for box, _ in render_flume(obs, NAMES[:players]).info["parts"][1]]
            for i, a in enumerate(boxes):
                assert 0 <= a[0] < a[2] <= 960 and 0 <= a[1] < a[3] <= 600
                for b in boxes[i + 1 :]:
                    apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
                    assert apart, (a, b)


SHRUNK = {
    "HEADER_BOX": (330, 0, 960, 64),  # the trumps chip starts at x 140
    "STRIP_BOX": (16, 76, 944, 116),  # the strip's panel includes its last row and column
    "SIDE_BOX": (652, 128, 920, 585),  # the scores are right-aligned 14 px inside the panel
}


@pytest.mark.parametrize("name", sorted(SHRUNK))
def test_a_box_too_small_is_caught(games, monkeypatch, name) -> None:
    """The comparison above can fail: with a box short of what its part draws, a part pasted
    back from the memo loses what it drew outside."""
    monkeypatch.setattr(flume_render, name, SHRUNK[name])
    memo = PartMemo()
    players, seen = games[0]
    differs = 0
    for obs, _ in seen[:60]:
        drawn = render_flume(obs, NAMES[:players], memo=memo)
        differs += not _same(drawn, _drawn_straight(obs, NAMES[:players]))
    assert differs


def test_a_middle_box_too_small_is_caught(games, monkeypatch) -> None:
    """The felt between the plates shows only what its boxes hold: a column one row short of
    the lowest trick card loses that row."""
    band, column = flume_render.MIDDLE_BOXES[4]
    shrunk = (column[0], column[1], column[2], 498)  # the bottom trick card's last row is 498
    monkeypatch.setitem(flume_render.MIDDLE_BOXES, 4, [band, shrunk])
    players, seen = games[0]
    differs = 0
    for obs, _ in seen:
        drawn = render_flume(obs, NAMES[:players], memo=PartMemo(budget=0))
        differs += not _same(drawn, _drawn_straight(obs, NAMES[:players]))
    assert differs
