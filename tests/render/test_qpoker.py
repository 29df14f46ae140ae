"""The QuantumPoker table image: fixed size, deterministic, and never showing a hidden value."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageChops

from bot.engines.qpoker.ai import choose_action
from bot.engines.qpoker.engine import QPokerConfig, QPokerEngine, QPokerObservation
from bot.render.common import PALETTE
from bot.render.qpoker import (
    BACK,
    FACE,
    LEGEND_H,
    ROWS_TOP,
    SEATS,
    SIZE,
    SUPER,
    is_revealed,
    qubit_box,
    render_qpoker,
    render_qpoker_png,
    row_height,
)
from tests.engines.test_qpoker import make_state
from tests.engines.test_qpoker_selfplay import play_one

ENGINE = QPokerEngine()
NAMES = ["Alice", "Bob", "Carol", "Dave", "Eve"]


def differs(a: Image.Image, b: Image.Image, box: tuple[int, int, int, int] | None = None) -> bool:
    if box is not None:
        a, b = a.crop(box), b.crop(box)
    return ImageChops.difference(a, b).getbbox() is not None


def close(pixel: object, colour: tuple[int, int, int], tolerance: int = 8) -> bool:
    assert isinstance(pixel, tuple)
    return all(abs(p - c) <= tolerance for p, c in zip(pixel, colour, strict=False))


def edge_pixel(image: Image.Image, box: tuple[int, int, int, int]) -> object:
    """A pixel inside a card, clear of its edge and its centre text."""
    x0, y0, x1, _ = box
    return image.getpixel((x0 + 8, y0 + 10 if x1 - x0 > 20 else y0 + 5))


def played_obs(n: int, seat: int | None, moves: int = 6, seed: int = 2) -> QPokerObservation:
    state = ENGINE.new_game(QPokerConfig(), n, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        (mover,) = ENGINE.to_act(state)
        ENGINE.apply(state, mover, choose_action(ENGINE.observe(state, mover), rng))
    return ENGINE.observe(state, seat)


def test_size_png_and_determinism() -> None:
    obs = played_obs(4, None)
    image = render_qpoker(obs, NAMES[:4], ["Alice flipped their qubit 1 with X."])
    assert image.size == SIZE and image.mode == "RGB"
    data = render_qpoker_png(obs, NAMES[:4], ["a", "b"])
    decoded = Image.open(io.BytesIO(data))
    decoded.load()
    assert decoded.size == SIZE and data.startswith(b"\x89PNG")
    assert data == render_qpoker_png(obs.model_copy(deep=True), list(NAMES[:4]), ["a", "b"])


def test_public_picture_does_not_depend_on_hidden_values() -> None:
    low = make_state(["0 0 1 ~", "0 1s 0 0"])
    high = make_state(["1 1 0 ~", "1 1s 1 1"])
    public = [render_qpoker(ENGINE.observe(s, None), NAMES[:2]) for s in (low, high)]
    assert not differs(*public)
    for seat in (0, 1):  # and a player's own picture shows their values, not the other's
        mine = [render_qpoker(ENGINE.observe(s, seat), NAMES[:2]) for s in (low, high)]
        own_row = qubit_box(seat, 0, 2)[:2] + qubit_box(seat, 3, 2)[2:]
        assert differs(mine[0], mine[1], own_row)
        other = 1 - seat
        other_row = qubit_box(other, 0, 2)[:2] + qubit_box(other, 3, 2)[2:]
        assert not differs(mine[0], mine[1], other_row)


def test_each_look_of_a_qubit() -> None:
    state = make_state(["1 0s ~ ~s", "1sd 0 0 0"])
    spectator = render_qpoker(ENGINE.observe(state, None), NAMES[:2])
    owner = render_qpoker(ENGINE.observe(state, 0), NAMES[:2])
    assert close(edge_pixel(spectator, qubit_box(0, 0, 2)), BACK)  # face down for others
    assert close(edge_pixel(owner, qubit_box(0, 0, 2)), FACE)  # its owner sees it
    assert close(edge_pixel(spectator, qubit_box(0, 1, 2)), FACE)  # shown to everyone
    assert close(edge_pixel(spectator, qubit_box(0, 2, 2)), SUPER)
    assert close(edge_pixel(owner, qubit_box(0, 2, 2)), SUPER)  # no value, even for its owner
    undoubled = make_state(["1 0s ~ ~s", "1s 0 0 0"])
    plain = render_qpoker(ENGINE.observe(undoubled, None), NAMES[:2])
    _, y0, x1, _ = qubit_box(1, 0, 2)
    assert differs(plain, spectator, (x1 - 20, y0 - 8, x1 + 14, y0 + 16))  # the ×2 disc
    assert not differs(plain, spectator, qubit_box(1, 2, 2))


def test_every_table_size_names_and_the_end_of_a_match() -> None:
    for n in (2, 3, 4, 5):
        for seat in (None, n - 1):
            image = render_qpoker(played_obs(n, seat, moves=n + 4, seed=n), NAMES[:n])
            assert image.size == SIZE
    state = ENGINE.new_game(QPokerConfig(rounds=1), 3, seed=4)
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_act(state)
        ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
    names = ["A" * 80, "名前", "🙂🙂"]
    final = render_qpoker(ENGINE.observe(state, None), names, ["The match is over."])
    assert final.size == SIZE
    assert differs(final, render_qpoker(played_obs(3, None), names))


def test_a_finished_matchs_picture_turns_every_card() -> None:
    state = make_state(["0 0 1 ~", "0 1s 0 0"])
    public = render_qpoker(ENGINE.observe(state, None), NAMES[:2])
    revealed_obs = ENGINE.revealed(state)
    assert is_revealed(revealed_obs) and not is_revealed(ENGINE.observe(state, None))
    assert not is_revealed(ENGINE.observe(state, 0))  # a player's own view is not "revealed"
    revealed = render_qpoker(revealed_obs, NAMES[:2])
    for seat, index in ((0, 0), (0, 2), (1, 0), (1, 3)):  # face down: turned now
        assert differs(public, revealed, qubit_box(seat, index, 2))
    for seat, index in ((0, 3), (1, 1)):  # the superposition and the shown card stay as they were
        assert not differs(public, revealed, qubit_box(seat, index, 2))
    legend = (SEATS[0], SEATS[3] - LEGEND_H - 8, SEATS[2], SEATS[3])
    assert differs(public, revealed, legend)  # "face down, revealed"


def test_players_level_before_the_last_pot_are_all_drawn_as_winners() -> None:
    # Seeded match 15: seats 1 and 2 are level on chips before the last pot's odd chip goes
    # to seat 1; the picture shows both in first place (gold rows), seat 0 not.
    state = play_one(15)
    assert state.chips == [3, 5, 4]
    image = render_qpoker(ENGINE.observe(state, None), NAMES[:3])
    h = row_height(3)

    def row_fill(seat: int) -> object:
        return image.getpixel((SEATS[2] - 30, ROWS_TOP + seat * h + h // 2))

    assert close(row_fill(1), PALETTE.win_row) and close(row_fill(2), PALETTE.win_row)
    assert not close(row_fill(0), PALETTE.win_row)
