"""A table message's buttons and menus: what they send, and that they leave no garbage for
the cycle collector (each click used to leave two views in reference cycles)."""

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
from bot.ui.controls import Routed

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


def _plain_view() -> discord.ui.View:
    """The same controls as discord.py lays them out itself."""
    view = discord.ui.View(timeout=None)
    for control in CONTROLS:
        view.add_item(parts._component(control, GAME, VERSION))
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


class _Click:
    """What TableComponent.callback reads of an interaction."""

    def __init__(self, custom_id: str) -> None:
        self.data: dict[str, Any] = {"custom_id": custom_id}


async def test_the_view_discord_py_builds_around_a_click_is_unlinked_after_it(
    monkeypatch: pytest.MonkeyPatch, collector_off: None
) -> None:
    """discord.py builds a view of the clicked message around the table's item; once the
    click is handled (or failed) nothing in it refers back, so it is freed at once."""
    handled: list[str] = []

    async def dispatch(interaction: Any, cid: str, value: str | None) -> None:
        handled.append(cid)
        if len(handled) == 2:
            raise RuntimeError("a click that failed")

    monkeypatch.setattr(router, "_dispatch", dispatch)
    cid = parts.custom_id(GAME, VERSION, "roll")
    for fails in (False, True):
        view = discord.ui.View(timeout=None)
        item = router.TableComponent(discord.ui.Button(custom_id=cid, label="Roll"))
        view.add_item(item)
        view.add_item(discord.ui.Button(custom_id=parts.custom_id(GAME, VERSION, "bank")))
        if fails:
            with pytest.raises(RuntimeError):
                await item.callback(_Click(cid))  # type: ignore[arg-type]
        else:
            await item.callback(_Click(cid))  # type: ignore[arg-type]
        assert item.view is None and view.children == []
        del view, item
        assert gc.collect() == 0
    assert handled == [cid, cid]


@pytest.mark.parametrize(
    ("control", "cid"),
    [
        (router.TableComponent, parts.custom_id(GAME, VERSION, "roll")),
        (ReplayControl, f"qr:{GAME}:hands"),
        (ReviewControl, f"qv:{GAME}"),
        (HistoryControl, "qh:0:all:2:next"),
        (PageButton, "lb:flume:2:next"),
    ],
)
async def test_every_routed_control_unlinks_the_view_around_it(
    control: type[Routed[Any]], cid: str, monkeypatch: pytest.MonkeyPatch, collector_off: None
) -> None:
    """Replays, reviews, history and leaderboard pages share the table's mechanism: what
    discord.py builds around a click on them is freed as soon as the click is handled."""
    clicked: list[object] = []

    async def handle(self: Routed[Any], interaction: Any) -> None:
        clicked.append(interaction)

    monkeypatch.setattr(control, "handle", handle)
    view = discord.ui.View(timeout=None)
    match = control.__discord_ui_compiled_template__.fullmatch(cid)
    assert match is not None
    click = _Click(cid)
    item = await control.from_custom_id(click, discord.ui.Button(custom_id=cid), match)  # type: ignore[arg-type]
    view.add_item(item)
    view.add_item(discord.ui.Button(custom_id="other"))
    await item.callback(click)  # type: ignore[arg-type]
    assert clicked == [click]
    assert item.view is None and view.children == []
    del view, item
    assert gc.collect() == 0
