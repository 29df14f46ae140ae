"""The Flume table picture and the hand strip."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image, ImageChops

from bot.engines.flume.engine import FlumeConfig, FlumeEngine, FlumeState
from bot.engines.flume.rules import flume_deck
from bot.render.cards import FOUR_COLOUR, TWO_COLOUR
from bot.render.common import recording_text
from bot.render.flume import (
    CARD_W,
    FELT_TEXT,
    SIDE,
    SIZE,
    centre_line,
    hand_card_box,
    plate_box,
    render_flume,
    render_flume_png,
    render_hand,
    revealed_hand_box,
    trick_box,
)

ENGINE = FlumeEngine()
NAMES = ["Alice", "Bob", "Carol", "Dave", "Eve"]
Box = tuple[int, int, int, int]


def table(n: int = 4, *, four_colour: bool = False, seed: int = 4) -> FlumeState:
    """A hand in play: trumps hearts, seat 0 leads."""
    state = ENGINE.new_game(FlumeConfig(four_colour=four_colour), n, seed=seed)
    act = ["bid:3"] + ["pass"] * (n - 1) + ["trump:H"] + ["discard"] * n
    if n == 5:
        act.append("alone")
    for move in act:
        (seat,) = ENGINE.to_act(state)
        ENGINE.apply(state, seat, move)
    return state


def differs(a: Image.Image, b: Image.Image, box: Box) -> bool:
    return ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is not None


def colours(image: Image.Image, box: Box) -> set[tuple[int, int, int]]:
    return {colour for _, colour in image.crop(box).getcolors(maxcolors=1 << 16) or []}


def test_png_size_and_determinism() -> None:
    obs = ENGINE.observe(table(), None)
    first = render_flume_png(obs, NAMES[:4])
    assert first.startswith(b"\x89PNG")
    decoded = Image.open(io.BytesIO(first))
    assert decoded.size == SIZE
    assert render_flume_png(obs.model_copy(deep=True), list(NAMES[:4])) == first


@pytest.mark.parametrize("n", [4, 5])
def test_plates_and_trick_spots_do_not_overlap(n: int) -> None:
    obs = ENGINE.observe(table(n), None)
    boxes = [plate_box(obs, s) for s in range(n)] + [trick_box(obs, s) for s in range(n)]
    for a, b in itertools.combinations(boxes, 2):
        overlap = min(a[2], b[2]) - max(a[0], b[0]) > 0 and min(a[3], b[3]) - max(a[1], b[1]) > 0
        assert not overlap, (a, b)
    for box in boxes:
        assert box[0] >= 0 and box[2] <= 640 and box[1] >= 120 and box[3] <= SIZE[1]


def test_a_played_card_appears_in_front_of_its_player() -> None:
    state = table()
    before = render_flume(ENGINE.observe(state, None), NAMES[:4])
    (seat,) = ENGINE.to_act(state)
    ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
    after = render_flume(ENGINE.observe(state, None), NAMES[:4])
    assert differs(before, after, trick_box(ENGINE.observe(state, None), seat))
    x0, y0, x1, y1 = trick_box(ENGINE.observe(state, None), (seat + 2) % 4)
    assert not differs(before, after, (x0, y0 + 40, x1, y1))  # nothing across the table


def test_public_picture_is_the_same_whatever_the_hidden_cards() -> None:
    state = table()
    other = state.model_copy(deep=True)
    # Swap two hidden hands and the stock order: the public picture must not change.
    other.hands[1], other.hands[3] = other.hands[3], other.hands[1]
    other.stock.reverse()
    a = render_flume_png(ENGINE.observe(state, None), NAMES[:4])
    b = render_flume_png(ENGINE.observe(other, None), NAMES[:4])
    assert a == b


def test_four_colour_deck_draws_clubs_green_and_diamonds_blue() -> None:
    for four in (False, True):
        state = table(four_colour=four)
        state.hands[0] = ["5C", *state.hands[0][1:]]
        state.hands[1] = ["7D", *state.hands[1][1:]]
        ENGINE.apply(state, 0, "play:5C")
        ENGINE.apply(state, 1, ENGINE.legal_actions(state, 1)[0])
        obs = ENGINE.observe(state, None)
        image = render_flume(obs, NAMES[:4])
        club = colours(image, trick_box(obs, 0))
        palette = FOUR_COLOUR if four else TWO_COLOUR
        assert palette["C"] in club
        if four:
            assert TWO_COLOUR["C"] not in club


def test_cards_are_drawn_at_a_readable_width() -> None:
    assert CARD_W >= 84
    box = trick_box(ENGINE.observe(table(), None), 0)
    assert box[2] - box[0] == CARD_W


def test_game_over_banner_and_odd_names() -> None:
    state = table(5)
    state.phase, state.current, state.winners = "over", None, [2]
    image = render_flume(ENGINE.observe(state, None), ["", "💥💥", "x" * 80, "Dave", "Éve"])
    assert image.size == SIZE


def test_hand_strip_rings_playable_cards_and_raises_discards() -> None:
    state = table()
    (seat,) = ENGINE.to_act(state)
    obs = ENGINE.observe(state, seat)
    image = render_hand(obs)
    assert image.size[0] > 6 * CARD_W
    state = ENGINE.new_game(FlumeConfig(), 4, seed=4)
    for move in ["bid:3", "pass", "pass", "pass", "trump:H"]:
        (seat,) = ENGINE.to_act(state)
        ENGINE.apply(state, seat, move)
    (seat,) = ENGINE.to_act(state)
    toggles = [a for a in ENGINE.legal_actions(state, seat) if a.startswith("d:")]
    assert toggles
    plain = render_hand(ENGINE.observe(state, seat))
    ENGINE.apply(state, seat, toggles[0])
    obs = ENGINE.observe(state, seat)
    raised = render_hand(obs)
    index = obs.hand.index(toggles[0][2:])
    up = hand_card_box(index, True)
    assert differs(plain, raised, up)
    assert set(flume_deck()) >= set(obs.hand)


@pytest.mark.parametrize("n", [4, 5])
def test_a_finished_games_picture_shows_every_hand_clear_of_plates_and_trick(n: int) -> None:
    state = table(n)
    public_obs, revealed_obs = ENGINE.observe(state, None), ENGINE.revealed(state)
    public, revealed = render_flume(public_obs, NAMES[:n]), render_flume(revealed_obs, NAMES[:n])
    hands = [revealed_hand_box(revealed_obs, s) for s in range(n)]
    others = [plate_box(revealed_obs, s) for s in range(n)]
    others += [trick_box(revealed_obs, s) for s in range(n)]
    for seat, box in enumerate(hands):
        assert box[2] - box[0] > 100, "six small cards"
        assert box[0] >= 18 and box[2] <= 634 and box[1] >= 130 and box[3] <= 584
        assert differs(public, revealed, box)  # face up here, and only here
        for other in hands[seat + 1 :] + others:
            overlap = min(box[2], other[2]) - max(box[0], other[0]) > 0
            assert not (overlap and min(box[3], other[3]) - max(box[1], other[1]) > 0)
    changed = ImageChops.difference(public, revealed).getbbox()
    assert changed is not None and changed[2] <= 640  # the side panel is the same
    # The spectator's picture is the same whoever holds what: nothing hidden leaks into it.
    other_deal = table(n, seed=11)
    assert not differs(public, render_flume(ENGINE.observe(other_deal, None), NAMES[:n]), hands[0])


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("n", [4, 5])
@pytest.mark.parametrize("phase", ["bid", "trump", "discard", "call", "over"])
def test_the_centre_line_runs_clear_of_every_seat(n: int, phase: str) -> None:
    state = ENGINE.new_game(FlumeConfig(), n, seed=4)
    state.phase = phase  # type: ignore[assignment]
    obs = ENGINE.observe(state, None)
    text, box = centre_line(obs)
    assert text and box[2] - box[0] > 100  # the whole message, not a stub
    for seat in range(n):
        assert not _overlap(box, plate_box(obs, seat)), (phase, seat)
    # and it is drawn there: the felt's label colour inside the box, nowhere in a plate
    image = render_flume(obs, NAMES[:n])
    assert FELT_TEXT in colours(image, box)


def test_both_partners_show_in_a_team_score_even_with_long_names() -> None:
    names = ["Bartholomew Magnificent", "Zoë", "Chen", "Dana Longname-Smythe"]
    with recording_text() as texts:
        render_flume(ENGINE.observe(table(), None), names)
    side = [t for t in texts if t.box[0] >= SIDE[0]]
    for name in names:  # each partner on a line of their own, in full
        assert any(t.shown == name for t in side), (name, [t.shown for t in side])
    # the team's game points this hand beside the second partner
    assert sum(t.shown.startswith("game ") for t in side) == 2
