"""A table message's buttons and menus: what they send, that they leave no garbage for the
cycle collector (each click used to leave two views in reference cycles), and how a click
finds its control."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from bot.cogs.history import HistoryControl, ReplayControl, ReviewControl
from bot.cogs.leaderboard import PageButton
from bot.tables.views import Control, Option, Panel
from bot.ui import parts, router
from bot.ui.controls import Controls, Routed

GAME, VERSION = 12, 34
CONTROLS = [
    *(Control(action=f"pick{i}", label=f"Die {i}", row=0) for i in range(5)),
    Control(action="roll", label="Roll", style="primary", row=1),
    Control(action="bank", label="Bank", style="success", emoji="🏦", disabled=True),
    Control(
        action="play",
        label="Play a card",
        placeholder="Which card?",
        options=(Option(label="A♠", value="as"), Option(label="K♥", value="kh", default=True)),
    ),
]


@pytest.fixture
def collector_off() -> Iterator[None]:
    """Only reference counting frees anything meanwhile."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _plain_view(controls: list[Control] = CONTROLS) -> discord.ui.View:
    """The same controls as discord.py lays them out itself."""
    view = discord.ui.View(timeout=None)
    for control in controls:
        cid = control.custom_id or parts.custom_id(GAME, VERSION, control.action)
        view.add_item(parts._component(control, cid))
    return view


async def test_a_panel_sends_the_components_discord_py_lays_out() -> None:
    view = parts.build_view(Panel(title="t", controls=CONTROLS), GAME, VERSION)
    assert view is not None
    sent = view.to_components()
    assert sent == _plain_view().to_components()
    rows = [[c.get("custom_id") for c in row["components"]] for row in sent]
    assert rows[0] == [parts.custom_id(GAME, VERSION, f"pick{i}") for i in range(5)]
    assert parts.custom_id(GAME, VERSION, "roll") in rows[1]
    select = next(c for row in sent for c in row["components"] if c["type"] == 3)
    assert [o["value"] for o in select["options"]] == ["as", "kh"]
    assert not view.is_dispatchable()  # discord.py keeps no such view: clicks go elsewhere


@pytest.mark.parametrize(
    "controls",
    [
        # rows asked for after rows left to the layout, and the other way round
        [Control(action="a", label="A"), Control(action="b", label="B", row=0)],
        [Control(action=f"x{i}", label="x", row=2) for i in range(5)]
        + [Control(action=f"y{i}", label="y") for i in range(7)],
        [
            Control(action="m", label="Menu", options=(Option(label="o", value="o"),)),
            Control(action="c", label="C", emoji="<:quantum:123456789012345678>"),
            Control(action="d", label="D", row=4, style="danger", custom_id="qr:5:hands"),
            Control(
                action="n",
                label="Other menu",
                row=3,
                options=(Option(label="p", value="p", description="why", emoji="🂡"),),
            ),
        ],
    ],
)
async def test_controls_land_in_the_rows_discord_py_gives_them(controls: list[Control]) -> None:
    view = parts.build_view(Panel(title="t", controls=controls), GAME, VERSION)
    assert view is not None
    assert view.to_components() == _plain_view(controls).to_components()


async def test_a_custom_id_is_the_messages_own_though_the_control_was_seen_before() -> None:
    panel = Panel(title="t", controls=CONTROLS)
    first, later = (parts.build_view(panel, GAME, v) for v in (1, 2))
    assert first is not None and later is not None
    ids = [
        [c["custom_id"] for row in v.to_components() for c in row["components"]]
        for v in (first, later)
    ]
    assert ids[0] == [parts.custom_id(GAME, 1, c.action) for c in CONTROLS]
    assert ids[1] == [parts.custom_id(GAME, 2, c.action) for c in CONTROLS]


@pytest.mark.parametrize(
    "controls",
    [
        [Control(action=f"b{i}", label="b") for i in range(26)],
        [Control(action=f"b{i}", label="b", row=1) for i in range(6)],
        [
            Control(action="b", label="b", row=0),
            Control(action="m", label="m", row=0, options=(Option(label="o", value="o"),)),
        ],
    ],
)
async def test_controls_that_do_not_fit_are_refused_as_discord_py_refuses_them(
    controls: list[Control],
) -> None:
    with pytest.raises(ValueError):
        _plain_view(controls)
    with pytest.raises(ValueError):
        parts.build_view(Panel(title="t", controls=controls), GAME, VERSION)


async def test_no_controls_no_view() -> None:
    assert parts.build_view(Panel(title="t"), GAME, VERSION) is None


async def test_a_sent_panel_leaves_nothing_for_the_collector(collector_off: None) -> None:
    for _ in range(20):
        sent = parts.edit_parts(Panel(title="t", controls=CONTROLS), GAME, kept=99)
        assert sent["view"].to_components()
        del sent
    assert gc.collect() == 0  # everything was freed as it was dropped


async def test_a_plain_view_would_have_left_garbage(collector_off: None) -> None:
    """What the test above guards against (the check can fail)."""
    for _ in range(20):
        _plain_view().to_components()
    assert gc.collect() > 20 * len(CONTROLS)


class _Message:
    def __init__(self, custom_ids: list[str]) -> None:
        # the components as discord.py reads them from the clicked message's payload
        buttons = [{"type": 2, "style": 2, "label": "b", "custom_id": c} for c in custom_ids]
        self.components = [discord.ActionRow({"type": 1, "components": buttons})]  # type: ignore[arg-type]


class _Click:
    """What routing reads of an interaction."""

    def __init__(self, custom_id: str, carried: list[str] | None = None, kind: Any = None) -> None:
        self.type = kind or discord.InteractionType.component
        self.data: dict[str, Any] = {"custom_id": custom_id}
        self.message = _Message([custom_id] if carried is None else carried)


ROUTED = [
    (router.TableComponent, parts.custom_id(GAME, VERSION, "roll")),
    (ReplayControl, f"qr:{GAME}:hands"),
    (ReviewControl, f"qv:{GAME}"),
    (HistoryControl, "qh:0:all:2:next"),
    (PageButton, "lb:flume:2:next"),
]


def _controls() -> Controls:
    controls = Controls()
    controls.add(*(control for control, _cid in ROUTED))
    return controls


@pytest.mark.parametrize(("control", "cid"), ROUTED)
async def test_a_click_reaches_its_control_and_leaves_nothing_behind(
    control: type[Routed], cid: str, monkeypatch: pytest.MonkeyPatch, collector_off: None
) -> None:
    """Tables, replays, reviews, history and leaderboard pages: each click is handed to its
    control by custom_id, and nothing built for it is left for the cycle collector."""
    clicked: list[tuple[type[Routed], object]] = []

    async def handle(self: Routed, interaction: Any, match: Any) -> None:
        clicked.append((type(self), interaction))

    for each, _cid in ROUTED:
        monkeypatch.setattr(each, "handle", handle)
    controls = _controls()
    click = _Click(cid, carried=[cid, "other"])
    await controls.dispatch(click)  # type: ignore[arg-type]
    assert clicked == [(control, click)]
    del clicked[:], click
    assert gc.collect() == 0


async def test_a_custom_id_the_message_does_not_carry_reaches_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As with discord.py's own items: a client cannot click what the message does not
    show (a made-up custom_id, or one from another message), nor a form be taken for a click."""
    clicked: list[object] = []

    async def handle(self: Routed, interaction: Any, match: Any) -> None:
        clicked.append(interaction)

    monkeypatch.setattr(router.TableComponent, "handle", handle)
    controls = _controls()
    roll, bank = (parts.custom_id(GAME, VERSION, a) for a in ("roll", "bank"))
    for click in (
        _Click(roll, carried=[bank]),
        _Click("qt:not-a-table", carried=["qt:not-a-table"]),
        _Click(roll, kind=discord.InteractionType.modal_submit),
    ):
        assert controls.route(click) is None  # type: ignore[arg-type]
        await controls.dispatch(click)  # type: ignore[arg-type]
    assert clicked == []
    assert controls.route(_Click(roll, carried=[bank, roll]))[0] is router.TableComponent  # type: ignore[arg-type]
