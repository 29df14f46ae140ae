"""The Flux table image and the private hand image."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from bot.engines.flux import FluxConfig, FluxEngine, Play
from bot.render.flux import (
    SIZE,
    render_flux,
    render_flux_png,
    render_hand_png,
    row_box,
    trick_box,
    turnup_box,
)

ENGINE = FluxEngine()
NAMES = ["alice", "bob", "Carol the Great", "Ada (AI)"]


def _obs(**changes):  # type: ignore[no-untyped-def]
    state = ENGINE.new_game(FluxConfig(variants="3,9"), 4, 12)
    for key, value in changes.items():
        setattr(state, key, value)
    return ENGINE.observe(state, None)


def _differs(a: Image.Image, b: Image.Image, box: tuple[int, int, int, int]) -> bool:
    return ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is not None


def test_size_png_and_determinism() -> None:
    obs = _obs()
    image = render_flux(obs, NAMES)
    assert image.size == SIZE and image.mode == "RGB"
    data = render_flux_png(obs, NAMES, ["x"])
    assert Image.open(io.BytesIO(data)).size == SIZE
    assert data == render_flux_png(obs.model_copy(deep=True), list(NAMES), [])


def test_turn_up_and_trick_cards_are_drawn() -> None:
    empty = render_flux(_obs(trick=[]), NAMES)
    trick = [Play(seat=1, card="AS"), Play(seat=2, card="TH")]
    shown = render_flux(_obs(trick=trick, phase="trick", turn=3), NAMES)
    assert _differs(empty, shown, trick_box(0)) and _differs(empty, shown, trick_box(1))
    assert not _differs(empty, shown, trick_box(3))
    other = render_flux(_obs(turnup="KD"), NAMES)
    base = render_flux(_obs(turnup="2C"), NAMES)
    assert _differs(base, other, turnup_box())


def test_hidden_hands_stay_hidden_until_exposed() -> None:
    hidden = render_flux(_obs(), NAMES)
    exposed = render_flux(_obs(exposed=[False, True, False, False]), NAMES)
    assert _differs(hidden, exposed, row_box(1, 4))
    assert not _differs(hidden, exposed, row_box(0, 4))
    assert ENGINE.observe(ENGINE.new_game(FluxConfig(), 4, 12), None).shown == [None] * 4


def test_game_over_banner_and_long_names() -> None:
    state = ENGINE.new_game(FluxConfig(), 4, 12)
    state.phase = "over"
    state.scores = [3, 9, 1, 0]
    image = render_flux(ENGINE.observe(state, None), ["x" * 80, "🙂", "", "名字"])
    assert image.size == SIZE


def test_hand_image_raises_selected_cards() -> None:
    plain = Image.open(io.BytesIO(render_hand_png(["AS", "TH", "2C"])))
    picked = Image.open(io.BytesIO(render_hand_png(["AS", "TH", "2C"], [1])))
    assert plain.size == picked.size and plain.size[0] > 3 * 84
    assert ImageChops.difference(plain.convert("RGB"), picked.convert("RGB")).getbbox()
