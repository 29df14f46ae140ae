"""The quantum dice table image."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from bot.engines.qdice.engine import QDiceObservation
from bot.render.common import DIE_STYLES, PALETTE, STRIP, font
from bot.render.qdice import (
    BOARD,
    FELT,
    ROWS_BOTTOM,
    ROWS_TOP,
    SIZE,
    TRAY,
    die_box,
    kept_box,
    render_qdice,
    render_qdice_png,
)
from tests.render.builders import dice, make_obs, names

Box = tuple[int, int, int, int]


def region_differs(a: Image.Image, b: Image.Image, box: Box) -> bool:
    return ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is not None


def close(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = 6) -> bool:
    return all(abs(p - c) <= tolerance for p, c in zip(pixel, colour, strict=False))


def test_size_and_mode() -> None:
    image = render_qdice(make_obs(), names(4))
    assert image.size == SIZE
    assert image.mode == "RGB"
    assert 800 <= SIZE[0] <= 1000


def test_png_decodes() -> None:
    data = render_qdice_png(make_obs(selected=[0], selection_score=100), names(4), ["Bob rolled."])
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    decoded = Image.open(io.BytesIO(data))
    decoded.load()
    assert decoded.format == "PNG"
    assert decoded.size == SIZE


def test_deterministic() -> None:
    obs = make_obs(selected=[0, 2, 3, 4], selection_score=400, kept=dice("5A"), turn_total=50)
    events = ["Alice banked 450.", "Bob rolled six dice."]
    first = render_qdice_png(obs, names(4), events)
    second = render_qdice_png(obs.model_copy(deep=True), list(names(4)), list(events))
    assert first == second


def test_selection_changes_only_the_selected_die() -> None:
    plain = render_qdice(make_obs(), names(4))
    chosen = render_qdice(make_obs(selected=[1], selection_score=50), names(4))
    # The union of the resting and raised positions of die 1, with room for the ring.
    x0, y0, x1, _ = die_box(1, 6, selected=True)
    _, _, _, y1 = die_box(1, 6, selected=False)
    assert region_differs(plain, chosen, (x0 - 8, y0 - 8, x1 + 8, y1 + 8))
    # Die 3 is unselected in both pictures and its region is untouched.
    assert not region_differs(plain, chosen, die_box(3, 6, selected=False))
    # A gold ring surrounds the raised die.
    ring_pixel = chosen.getpixel(((x0 + x1) // 2, y0 - 3))
    assert close(ring_pixel, PALETTE.accent, tolerance=30)


def test_selected_die_is_raised() -> None:
    chosen = render_qdice(make_obs(dice=dice("1A 1A"), selected=[0], selection_score=100), names(4))
    up = die_box(0, 2, selected=True)
    rest = die_box(1, 2, selected=False)
    assert up[1] < rest[1]
    face = DIE_STYLES["A"].face
    assert close(chosen.getpixel(((up[0] + up[2]) // 2, up[1] + 10)), face)
    assert close(chosen.getpixel(((rest[0] + rest[2]) // 2, rest[1] + 10)), face)


def test_kept_dice_change_the_tray() -> None:
    without = render_qdice(make_obs(), names(4))
    kept = render_qdice(make_obs(kept=dice("1A 1B 5A"), turn_total=250), names(4))
    assert region_differs(without, kept, TRAY)
    for index, colour in enumerate("ABA"):
        x0, y0, x1, _ = kept_box(index)
        pixel = kept.getpixel(((x0 + x1) // 2, y0 + 6))
        assert close(pixel, DIE_STYLES[colour].face)


def test_both_die_colours_appear() -> None:
    image = render_qdice(make_obs(dice=dice("1A 1B 2A 2B")), names(4))
    for index, colour in enumerate("ABAB"):
        x0, y0, x1, _ = die_box(index, 4, selected=False)
        pixel = image.getpixel(((x0 + x1) // 2, y0 + 8))
        assert close(pixel, DIE_STYLES[colour].face), (index, pixel)
    # And the two faces are far apart in lightness, not only in hue.
    lum = {c: sum(s.face) / 3 for c, s in DIE_STYLES.items()}
    assert abs(lum["A"] - lum["B"]) > 100


@pytest.mark.parametrize("n_players", [2, 3, 5, 8])
def test_player_counts(n_players: int) -> None:
    image = render_qdice(make_obs(n_players), names(n_players))
    assert image.size == SIZE


def test_long_and_unicode_names_do_not_crash() -> None:
    weird = [
        "Bartholomew the Magnificent Destroyer of Dice and Breaker of Tables",
        "Zoë 🎲",
        "世界",
        "👨‍👩‍👧‍👦",
        "",
        "\u200b\u200b",
        "x" * 200,
        "Ωμέγα\nnew line",
    ]
    obs = make_obs(
        8, final_round=True, contingent_winner=0, current=1, finished_last_turn=[True] + [False] * 7
    )
    image = render_qdice(obs, weird, ["Zoë 🎲 banked 1,050 — nice", "x" * 300])
    assert image.size == SIZE
    # Fewer names than seats falls back to "Player N".
    assert render_qdice(make_obs(8), ["Solo"]).size == SIZE


def test_names_are_drawn_as_written_or_fall_back() -> None:
    obs = make_obs(4)
    written = ["Zoë", "José Ramírez", "Ольга", "Ἀθηνᾶ"]
    plain = ["Zoe", "Jose Ramirez", "Olga", "Athena"]
    drawn = render_qdice(obs, written)
    assert drawn.size == SIZE
    assert drawn.tobytes() == render_qdice(obs, list(written)).tobytes()
    for seat in range(4):  # every accented / Greek / Cyrillic name shows its own letters
        other = render_qdice(obs, [*written[:seat], plain[seat], *written[seat + 1 :]])
        assert region_differs(drawn, other, (BOARD[0], ROWS_TOP, BOARD[2], ROWS_BOTTOM))
    # CJK and emoji-only names have nothing drawable: the same pixels as "Player N".
    unreadable = render_qdice(obs, ["李小龙", "🎲🎲", "Ольга", "👨‍👩‍👧‍👦"])
    fallback = render_qdice(obs, ["Player 1", "Player 2", "Ольга", "Player 4"])
    assert unreadable.tobytes() == fallback.tobytes()


def test_final_round_label_does_not_touch_the_text() -> None:
    obs = make_obs(4, final_round=True, contingent_winner=2, current=1)
    image = render_qdice(obs, ["Ольга Петровна Смирнова-Кузнецова"] * 4)
    label_end = STRIP[0] + 16 + font(20, bold=True).getlength("FINAL ROUND")
    gap = (int(label_end) + 3, STRIP[1] + 4, int(label_end) + 18, STRIP[3] - 4)
    assert all(close(colour, PALETTE.final, 2) for _, colour in image.crop(gap).getcolors())


def test_unselected_scoring_and_non_scoring_selection_differ() -> None:
    good = render_qdice(make_obs(selected=[0], selection_score=100), names(4))
    bad = render_qdice(make_obs(selected=[0], selection_score=None), names(4))
    assert region_differs(good, bad, (FELT[0], 300, FELT[2], 390))


def test_banners() -> None:
    cx, cy = STRIP[2] - 20, (STRIP[1] + STRIP[3]) // 2
    normal = render_qdice(make_obs(), names(4))
    assert close(normal.getpixel((cx, cy)), PALETTE.neutral_strip)
    final = render_qdice(make_obs(final_round=True, contingent_winner=2), names(4))
    assert close(final.getpixel((cx, cy)), PALETTE.final)
    over = render_qdice(
        make_obs(current=None, winner=2, dice=[], selected=[], rolled_six=False), names(4)
    )
    assert close(over.getpixel((cx, cy)), PALETTE.win)


def test_game_over_without_dice() -> None:
    obs = make_obs(
        2, current=None, winner=0, dice=[], scores=[10_450, 8_800], on_board=[True, True]
    )
    assert render_qdice(obs, names(2)).size == SIZE


@st.composite
def observations(draw: st.DrawFn) -> QDiceObservation:
    n = draw(st.integers(2, 8))
    rolled = draw(st.lists(st.tuples(st.integers(1, 6), st.sampled_from("AB")), max_size=6))
    kept = draw(st.lists(st.tuples(st.integers(1, 6), st.sampled_from("AB")), max_size=6))
    selected = (
        draw(st.lists(st.integers(0, max(0, len(rolled) - 1)), unique=True)) if rolled else []
    )
    over = draw(st.booleans())
    return make_obs(
        n,
        scores=draw(st.lists(st.integers(0, 20_000), min_size=n, max_size=n)),
        on_board=draw(st.lists(st.booleans(), min_size=n, max_size=n)),
        current=None if over else draw(st.integers(0, n - 1)),
        winner=draw(st.integers(0, n - 1)) if over else None,
        dice=dice(" ".join(f"{v}{c}" for v, c in rolled)),
        kept=dice(" ".join(f"{v}{c}" for v, c in kept)),
        selected=selected,
        selection_score=draw(st.one_of(st.none(), st.integers(0, 5000))),
        turn_total=draw(st.integers(0, 20_000)),
        rolled_six=len(rolled) == 6,
        final_round=draw(st.booleans()),
        contingent_winner=draw(st.one_of(st.none(), st.integers(0, n - 1))),
        finished_last_turn=draw(st.lists(st.booleans(), min_size=n, max_size=n)),
    )


@settings(max_examples=40, deadline=None)
@given(obs=observations(), who=st.lists(st.text(max_size=40), max_size=8))
def test_any_observation_renders(obs: QDiceObservation, who: list[str]) -> None:
    assert render_qdice(obs, who, who or None).size == SIZE


def test_the_turn_line_says_why_a_selection_does_not_score() -> None:
    from bot.games.qdice import QDiceUI

    ui = QDiceUI()
    obs = make_obs(4, selected=[0, 5], selection_score=None)  # the 1 and the 6
    text = ui.turn_text(obs, names(4))
    assert "selection does not score" in text
    assert text.endswith("Those dice don't score: a single 6 scores only in three of a kind.")
    fine = make_obs(4, selected=[0], selection_score=100)
    assert "don't score" not in ui.turn_text(fine, names(4))
