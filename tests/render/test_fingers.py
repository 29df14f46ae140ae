"""The Quantum Fingers table image."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from bot.engines.fingers.engine import FingersConfig, FingersEngine, FingersObservation
from bot.render.fingers import SIZE, columns, holding_text, render_fingers, render_fingers_png

ENGINE = FingersEngine()


def observed(n: int, moves: list[tuple[int, str]]) -> FingersObservation:
    state = ENGINE.new_game(FingersConfig(), n, seed=3)
    for seat, action in moves:
        ENGINE.apply(state, seat, action)
    return ENGINE.observe(state, None)


def names(n: int) -> list[str]:
    return [f"Player number {i} with a long name" for i in range(n)]


def test_size_mode_and_png() -> None:
    obs = observed(3, [])
    image = render_fingers(obs, names(3))
    assert image.size == SIZE and image.mode == "RGB"
    data = render_fingers_png(obs, names(3), ["alice asks bob for éclairs."])
    decoded = Image.open(io.BytesIO(data))
    decoded.load()
    assert decoded.format == "PNG" and decoded.size == SIZE


def test_deterministic_and_reflects_the_game() -> None:
    before = observed(3, [])
    after = observed(3, [(0, "new:2:éclairs"), (2, "no")])
    first = render_fingers_png(after, names(3), ["x"])
    assert first == render_fingers_png(after.model_copy(deep=True), names(3), ["x"])
    diff = ImageChops.difference(render_fingers(before, names(3)), render_fingers(after, names(3)))
    assert diff.getbbox() is not None


def test_unnamed_flavours_share_a_column() -> None:
    obs = observed(4, [(0, "new:1:éclairs")])
    assert columns(obs) == [(0, "éclairs"), (1, "unnamed ×3")]
    assert columns(observed(3, [])) == [(0, "unnamed ×3")]


def test_holding_text() -> None:
    assert holding_text(2, 2) == "2"
    assert holding_text(0, 3) == "0–3"


def test_finished_game_and_eight_players_render() -> None:
    won = observed(
        3,
        [
            (0, "new:2:éclairs"),
            (2, "no"),
            (1, "ask:0:0"),
            (1, "book"),
            (1, "new:2:bauxite"),
            (1, "ask:2:1"),
            (2, "no"),
            (2, "new:0:chimpanzees"),
        ],
    )
    assert won.winner == 2
    assert render_fingers(won, ["a", "b", "c"]).size == SIZE
    big = observed(8, [(0, "new:1:" + "w" * 32)])
    assert render_fingers(big, names(8), ["line"] * 10).size == SIZE


def test_private_ask_menus_fit_discord_limits_at_eight_players() -> None:
    from bot.games.fingers import FingersUI
    from bot.tables.views import ASK_TEXT

    state = ENGINE.new_game(FingersConfig(), 8, seed=3)
    for f in range(7):  # name seven flavours the asker could still hold
        state.names[f] = f"flavour {f}"
    legal = ENGINE.legal_actions(state, 0)
    assert len(legal) == 7 * 8
    names = [f"p{i}" for i in range(8)]
    panel = FingersUI().private_panel(ENGINE.observe(state, 0), legal, names)
    menus = panel.controls
    assert 1 <= len(menus) <= 5 and all(1 <= len(c.options) <= 25 for c in menus)
    offered = [o.value.removeprefix(ASK_TEXT) for c in menus for o in c.options]
    assert sorted(offered) == sorted(legal)
    assert all(len(o.label) <= 100 for c in menus for o in c.options)


def test_long_flavour_headings_wrap_onto_two_lines() -> None:
    from bot.render.common import font
    from bot.render.fingers import label_lines

    assert label_lines("éclairs", 80) == (["éclairs"], 14)
    lines, size = label_lines("juniper berries", 62)
    assert lines == ["juniper", "berries"] and size == 12
    assert all(font(12, True).getlength(line) <= 62 for line in lines)
    assert label_lines("unnamed ×3", 62) == (["unnamed", "×3"], 12)
