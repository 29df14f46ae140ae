"""The Flux table image and the private hand image."""

from __future__ import annotations

import io
import random
import re

from PIL import Image, ImageChops

from bot.engines.flux.ai import choose_action
from bot.engines.flux.engine import FluxConfig, FluxEngine, FluxState, Play
from bot.games.flux import FluxUI, value_text
from bot.render.flux import (
    SHEET_HEAD,
    SHEET_TOP,
    SIZE,
    render_flux,
    render_flux_png,
    render_hand_png,
    row_box,
    sheet_column,
    sheet_rows,
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


# --- words and the final screen -------------------------------------------------------------


def _played_out(n: int, seed: int, **config: object) -> FluxState:
    state = ENGINE.new_game(FluxConfig(**config), n, seed)  # type: ignore[arg-type]
    rng = random.Random(seed)
    while not ENGINE.is_over(state):
        seat = min(ENGINE.to_act(state))
        ENGINE.apply(state, seat, choose_action(ENGINE.observe(state, seat), rng))
    return state


def test_the_value_line_says_what_its_numbers_are() -> None:
    state = ENGINE.new_game(FluxConfig(), 4, 12)
    state.target = 10
    state.hands[0] = ["KS", "QH", "JD"]  # worth 0
    panel = FluxUI().private_panel(ENGINE.observe(state, 0), [], NAMES)
    fields = {f.name: f.value for f in panel.fields}
    assert fields["Hand value"] == "0, 10 points away from the target of 10"
    state.hands[0] = ["TS", "4S"]  # -14 against 12: 2 off, since the target counts either way
    state.target = 12
    panel = FluxUI().private_panel(ENGINE.observe(state, 0), [], NAMES)
    assert {f.name: f.value for f in panel.fields}["Hand value"] == (
        "-14, 2 points away from -12 (the target counts with either sign)"
    )
    assert value_text(12, 12) == "12, right on the target of 12"
    assert value_text(13, 12) == "13, 1 point away from the target of 12"
    assert (
        value_text(11, 12, raw=9)
        == "11, 1 point away from the target of 12; cards 9, point dice +2"
    )


def test_the_final_fields_explain_every_score() -> None:
    state = _played_out(4, 3)
    obs = ENGINE.observe(state, None)
    fields = FluxUI().final_fields(obs, NAMES)
    assert [f.name for f in fields][:2] == ["Where the points came from", "Hand by hand"]
    lines = fields[0].value.splitlines()
    assert len(lines) == 4
    for seat, name in enumerate(NAMES):
        line = next(x for x in lines if x.startswith(f"**{name}**"))
        assert f"{state.scores[seat]} point" in line
        assert sum(int(p) for p in re.findall(r"\(\+(\d+)\)", line)) == state.scores[seat]
    story = "\n".join(f.value for f in fields[1:])
    for hand in range(1, state.hand_no + 1):
        if any(h.hand_no == hand for h in state.ledger):
            assert f"**Hand {hand}**" in story
    assert "{p" not in story and all(len(f.value) <= 1024 for f in fields)


def test_a_long_game_keeps_the_latest_hands_within_discords_limits() -> None:
    state = _played_out(6, 1, variants="15", deals=10)
    assert len(state.ledger) > 30
    names = [f"{c * 30}" for c in "ABCDEF"]
    fields = FluxUI().final_fields(ENGINE.observe(state, None), names)
    assert all(len(f.value) <= 1024 for f in fields)
    assert sum(len(f.name) + len(f.value) for f in fields) < 3500  # room for the rest
    story = "\n".join(f.value for f in fields[1:])
    assert f"**Hand {state.ledger[-1].hand_no}**" in story  # the end always shows
    assert re.search(r"Hands 1 to \d+: see the score sheet in the picture", story)


def test_the_final_picture_is_a_score_sheet() -> None:
    state = _played_out(4, 3)
    obs = ENGINE.observe(state, None)
    sheet = render_flux(obs, NAMES)
    assert sheet.size == SIZE
    other = obs.model_copy(deep=True)
    other.ledger[0].poker[0] += 7  # a different first line of the sheet
    other.scores[0] += 7
    left, right = sheet_column(0, 4)
    top = SHEET_TOP + SHEET_HEAD
    assert _differs(sheet, render_flux(other, NAMES), (left, top, right, top + 22))
    assert not _differs(sheet, render_flux(other, NAMES), (left + 200, top, right + 200, top + 22))
    # without a sheet (a game saved before it was kept) the old banner is drawn
    bare = obs.model_copy(update={"ledger": []})
    assert render_flux(bare, NAMES).size == SIZE


def test_many_hands_fold_the_earliest_into_one_line() -> None:
    state = _played_out(3, 2, variants="15", deals=8)
    rows = sheet_rows(state.ledger, 10)
    assert len(rows) == 10 and rows[0][0].startswith("Hands 1-")
    assert [sum(r[1][s] for r in rows) for s in range(3)] == state.scores
    assert sheet_rows(state.ledger[:4], 10) == [
        (f"Hand {h.hand_no}", [h.total(s) for s in range(3)]) for h in state.ledger[:4]
    ]


def test_a_game_begun_before_the_sheet_was_kept_still_adds_up() -> None:
    state = _played_out(3, 2)
    state.ledger = state.ledger[1:]  # as if the first hand was played before the upgrade
    obs = ENGINE.observe(state, None)
    fields = FluxUI().final_fields(obs, NAMES[:3])
    lines = fields[0].value.splitlines()
    for seat, name in enumerate(NAMES[:3]):
        line = next(x for x in lines if x.startswith(f"**{name}**"))
        assert sum(int(p) for p in re.findall(r"\(\+(\d+)\)", line)) == state.scores[seat]
    assert "earlier hands (+" in fields[0].value
    assert render_flux(obs, NAMES[:3]).size == SIZE
