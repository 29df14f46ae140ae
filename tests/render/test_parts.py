"""Pictures drawn in parts equal pictures drawn whole, pixel for pixel."""

from __future__ import annotations

import random

from PIL import Image, ImageChops, ImageDraw

from bot.engines.qdice import ai as qdice_ai
from bot.engines.qdice.engine import QDiceConfig, QDiceEngine
from bot.render.parts import Part, PartMemo, changed_boxes, compose
from bot.render.qdice import render_qdice

NAMES = ["Ada", "Bartholomew the Magnificent", "Zoë", "Dmitri"]


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


def _played_observations(players: int, seed: int, moves: int) -> list[tuple]:
    """Every table the game passes through, each with the log lines of the moment, from
    seeded play with die picks undone and redone now and then (as people do)."""
    engine, rng = QDiceEngine(), random.Random(seed)
    state = engine.new_game(QDiceConfig(target=3_000), players, seed)
    seen, log = [], []
    for step in range(moves):
        if engine.is_over(state):
            break
        seat = sorted(engine.to_act(state))[0]
        obs = engine.observe(state, seat)
        if obs.dice and rng.random() < 0.3:
            action = f"t{rng.randrange(len(obs.dice))}"
        else:
            action = qdice_ai.decide(obs, rng.choice(["easy", "normal"]), rng)
        try:
            events = engine.apply(state, seat, action)
        except Exception:  # a pick the rules refuse: the AI's own move instead
            events = engine.apply(state, seat, qdice_ai.decide(obs, "normal", rng))
        log = (log + [e.render(NAMES) for e in events])[-6:] or [f"step {step}"]
        seen.append((engine.observe(state, None), list(log)))
    seen.append((engine.observe(state, None), list(log)))
    return seen


def test_qdice_drawn_in_parts_equals_drawn_whole() -> None:
    """Long seeded games at 2 to 4 seats: the picture from a shared memo (parts pasted back
    where their inputs were seen) equals the one drawn with nothing to reuse, every pixel;
    and outside the boxes whose key changed, a picture equals the one before it."""
    shared = PartMemo()
    reused = 0
    for players, seed in ((2, 1), (3, 2), (4, 3), (2, 4)):
        before = None
        for obs, log in _played_observations(players, seed, 400):
            names = NAMES[:players]
            drawn = render_qdice(obs, names, log, memo=shared)
            whole = render_qdice(obs, names, log, memo=PartMemo(budget=0))
            assert _same(drawn, whole), (players, seed, obs)
            if before is not None:
                boxes = changed_boxes(before.info["parts"], drawn.info["parts"])
                if boxes is not None:
                    masked = [im.copy() for im in (before, drawn)]
                    for im in masked:
                        for box in boxes:
                            im.paste((0, 0, 0), box)
                    assert _same(*masked), (players, seed, obs)
            before = drawn
    reused = shared.counts["reused"]
    assert reused > shared.counts["drawn"]  # the point of it: most parts are pasted back


def test_a_part_drawing_outside_its_box_is_caught() -> None:
    """The equality above can fail: a part that strays outside its box pastes back wrong."""
    background = Image.new("RGB", (40, 20), (10, 20, 30))

    def stray(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        draw.rectangle((5, 5, 25, 15), fill=(200, 0, 0))  # wider than its box

    parts = [Part("stray", (0, 0, 20, 20), 1, stray)]
    memo = PartMemo()
    first = compose(background, parts, memo)
    again = compose(background, parts, memo)
    assert not _same(first, again)


def test_the_memo_keeps_to_its_budget() -> None:
    memo = PartMemo(budget=3 * 10 * 10 * 3)
    for key in range(5):
        memo.put(key, Image.new("RGB", (10, 10)))
    assert len(memo) == 3 and memo.size <= memo.budget
    assert memo.get(0) is None and memo.get(4) is not None


def test_changed_boxes_compares_only_like_pictures() -> None:
    a = (1, (((0, 0, 5, 5), "x"), ((5, 0, 9, 5), "y")))
    assert changed_boxes(a, (1, (((0, 0, 5, 5), "x"), ((5, 0, 9, 5), "z")))) == [(5, 0, 9, 5)]
    assert changed_boxes(a, a) == []
    assert changed_boxes(a, (2, a[1])) is None  # another background
    # parts gone or new (three dice rolled after six): their boxes, old and new
    fewer = (1, (((0, 0, 5, 5), "x"), ((5, 0, 7, 5), "w")))
    assert changed_boxes(a, fewer) == [(5, 0, 7, 5), (5, 0, 9, 5)]
    assert changed_boxes(None, a) is None
