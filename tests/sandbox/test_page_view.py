"""What the sandbox page shows, in the browser: the newest message stays in view while
pictures load, links to a game open it in the page, Discord's markdown, and menus that keep
the option picked.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest_asyncio
from playwright.async_api import Locator, Page, Route, expect

from bot.engines.qdice.ai import choose_action
from bot.sandbox.loopback import Channel, Message, User
from bot.sandbox.web import Sandbox
from bot.tables.table import Table
from tests.e2e.qdice_play import click_action, person_to_act
from tests.sandbox.browsing import WAIT_MS, act_as, message, open_page, run_command
from tests.sandbox.conftest import Mini

PICTURE_DELAY = 0.4  # seconds each picture takes to arrive, as over a slow connection
VIEWPORT = {"width": 1280, "height": 720}


@pytest_asyncio.fixture(loop_scope="session")
async def slow_pictures(page: Page) -> AsyncIterator[Page]:
    """The page, with every attachment served ``PICTURE_DELAY`` late."""

    async def late(route: Route) -> None:
        answer = await route.fetch()  # the server answers at once; the bytes arrive late
        await asyncio.sleep(PICTURE_DELAY)
        await route.fulfill(response=answer)

    await page.set_viewport_size(VIEWPORT)
    await page.route(re.compile(r"/api/attachments/"), late)
    yield page
    await page.unroute_all(behavior="ignoreErrors")


def people(sandbox: Sandbox) -> dict[str, User]:
    return {p.name: p for p in sandbox.world.people}


def filler(sandbox: Sandbox, channel: Channel, count: int, text: str = "Earlier talk") -> None:
    for i in range(count):
        sandbox.fake.world.new_message(channel, sandbox.fake.bot_user, content=f"{text} {i + 1}")
    sandbox.fake.touch()


async def view(page: Page) -> dict[str, Any]:
    """Where the channel is scrolled, and where its newest message sits, in CSS pixels."""
    return await page.evaluate(
        """() => {
            const box = document.getElementById("messages");
            const last = box.querySelector("article:last-of-type").getBoundingClientRect();
            const frame = box.getBoundingClientRect();
            return {
                scrollTop: box.scrollTop,
                fromBottom: box.scrollHeight - box.scrollTop - box.clientHeight,
                newestTop: last.top - frame.top, newestBottom: last.bottom - frame.bottom,
            };
        }"""
    )


async def settled(page: Page, sandbox: Sandbox) -> None:
    """Until the page has drawn everything the fake holds and every picture has arrived."""
    await sandbox.fake.wait_idle()
    await page.wait_for_function(
        """r => {
            const box = document.getElementById("messages");
            return Number(box.dataset.revision) >= r
                && Array.from(box.querySelectorAll("img")).every((i) => i.complete && i.naturalWidth);
        }""",
        arg=sandbox.fake.revision,
        timeout=WAIT_MS,
    )
    await page.evaluate(
        "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
    )


def newest_in_view(where: dict[str, Any]) -> bool:
    return where["fromBottom"] < 2 and where["newestBottom"] <= 1 and where["newestTop"] >= 0


async def in_view(page: Page, node: Locator) -> bool:
    """Whether the top of ``node`` shows in the channel's scrolled box."""
    return bool(
        await node.evaluate(
            """n => {
                const frame = document.getElementById("messages").getBoundingClientRect();
                const top = n.getBoundingClientRect().top;
                return top >= frame.top - 1 && top < frame.bottom - 40;
            }"""
        )
    )


async def play_a_turn(sandbox: Sandbox, table: Table, board: Message) -> None:
    """The person to act plays one Quantum dice turn through the loopback, click by click."""
    assert table.state is not None
    person = person_to_act(table, {p.id: p for p in sandbox.world.people})
    assert person is not None
    seat = table.seat_of(person.id)
    assert seat is not None
    engine = table.spec.engine
    while table.record.status == "active" and engine.to_act(table.state) == {seat}:
        choice = choose_action(engine.observe(table.state, seat), random.Random(0))
        verb, _, picks = choice.partition(":")
        for index in picks:
            await click_action(sandbox.fake, person, board, f"t{index}")
        await click_action(sandbox.fake, person, board, verb)
        await sandbox.fake.wait_idle()


async def test_the_newest_message_stays_in_view_while_pictures_load(
    sandbox: Sandbox, slow_pictures: Page
) -> None:
    page, fake, who = slow_pictures, sandbox.fake, people(sandbox)
    room = fake.add_channel(sandbox.world.guild, "browser-scroll")
    filler(sandbox, room, 15)
    await open_page(page, sandbox, room)
    await act_as(page, sandbox, "Alice")

    board = (await fake.slash(who["Alice"], "qdice start", channel=room)).message
    await fake.click(who["Bob"], board, label="Join")
    await fake.click(who["Alice"], board, label="Start")
    table = sandbox.bot.tables.in_location(room.id)
    assert table is not None and table.state is not None
    await settled(page, sandbox)
    assert newest_in_view(await view(page)), await view(page)
    # Each die's button names its colour (A or B), readable without an emoji font.
    dice = message(page, str(board.id)).locator('button[data-custom-id*=":t"]')
    await expect(dice).to_have_count(len(table.state.dice))  # type: ignore[attr-defined]
    for text in await dice.all_inner_texts():
        assert re.search(r"\b[1-6] · [AB]$", text), text

    for _ in range(4):  # each turn edits the table's picture several times; pings come and go
        await play_a_turn(sandbox, table, board)
        await settled(page, sandbox)
        assert newest_in_view(await view(page)), await view(page)

    # Scrolled up on purpose: new pictures and messages do not pull the view down.
    box = page.locator("#messages")
    frame = await box.bounding_box()
    assert frame is not None
    await page.mouse.move(frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2)
    await page.mouse.wheel(0, -900)
    await page.wait_for_function(
        "() => { const b = document.getElementById('messages');"
        " return b.scrollHeight - b.scrollTop - b.clientHeight > 600; }",
        timeout=WAIT_MS,
    )
    await settled(page, sandbox)
    before = await view(page)
    await play_a_turn(sandbox, table, board)
    await settled(page, sandbox)
    after = await view(page)
    assert after["fromBottom"] > 400 and not newest_in_view(after), after
    assert abs(after["scrollTop"] - before["scrollTop"]) < 80, (before, after)

    # Back at the bottom, the view follows the newest message again.
    await page.mouse.wheel(0, 20_000)
    await page.wait_for_function(
        "() => { const b = document.getElementById('messages');"
        " return b.scrollHeight - b.scrollTop - b.clientHeight < 2; }",
        timeout=WAIT_MS,
    )
    await play_a_turn(sandbox, table, board)
    await settled(page, sandbox)
    assert newest_in_view(await view(page)), await view(page)
    await fake.slash(who["Alice"], "qdice cancel", channel=room)


async def test_a_link_to_the_running_game_opens_it_in_the_page(
    sandbox: Sandbox, page: Page
) -> None:
    fake, who, guild = sandbox.fake, people(sandbox), sandbox.world.guild
    await page.set_viewport_size(VIEWPORT)
    room = fake.add_channel(guild, "browser-jump")
    board = (await fake.slash(who["Alice"], "qdice start", channel=room)).message
    filler(sandbox, room, 20, "Later talk")
    await open_page(page, sandbox, room)
    await act_as(page, sandbox, "Bob")
    table = message(page, str(board.id))

    await run_command(page, "/qdice start")
    reply = page.locator('article[data-ephemeral="true"]').filter(has_text="already running")
    await expect(reply).to_have_count(1)
    link = reply.locator("a.jump-link")
    await expect(link).to_have_count(1)
    assert await reply.locator('a[href*="discord.com"]').count() == 0
    await settled(page, sandbox)
    assert not await in_view(page, table)  # far above the reply
    await link.click()
    await expect(table).to_have_class(re.compile(r"\bjumped\b"))
    assert await in_view(page, table)

    # From another channel: a link to the game opens the game's channel at the game.
    general = next(c for c in sandbox.world.channels() if c.name == "general")
    url = f"https://discord.com/channels/{guild.id}/{room.id}/{board.id}"
    fake.world.new_message(general, fake.bot_user, content=f"Come and watch: {url}.")
    fake.touch()
    await page.locator('#channels button[data-channel="general"]').click()
    await expect(page.locator("#messages")).to_have_attribute("data-channel", str(general.id))
    posted = page.locator("article").filter(has_text="Come and watch")
    await expect(posted.locator("a.jump-link")).to_have_text("#browser-jump › message")
    await posted.locator("a.jump-link").click()
    await expect(page.locator("#messages")).to_have_attribute("data-channel", str(room.id))
    await expect(page.locator('#channels button[aria-current="true"]')).to_have_text(
        re.compile("browser-jump")
    )
    await expect(table).to_have_class(re.compile(r"\bjumped\b"))
    await settled(page, sandbox)
    assert await in_view(page, table)
    await fake.slash(who["Alice"], "qdice cancel", channel=room)


MARKDOWN = "\n".join(
    [
        "# Round up",
        "Scores after **three** rounds:",
        "- Alice *leads*",
        "- Bob",
        "  - owes `2` chips",
        "1. first",
        "2. second",
        "> quoted line",
        "-# small print",
        "See https://example.com/rules.",
    ]
)


async def test_discord_markdown_in_messages_and_embeds(sandbox: Sandbox, page: Page) -> None:
    fake = sandbox.fake
    room = fake.add_channel(sandbox.world.guild, "browser-markdown")
    embed = {
        "title": "Standings **now**",
        "description": MARKDOWN,
        "fields": [{"name": "Why", "value": "- a win\n- a bank", "inline": False}],
    }
    fake.world.new_message(room, fake.bot_user, content=MARKDOWN, embeds=[embed])
    fake.touch()
    await open_page(page, sandbox, room)
    posted = page.locator("article").filter(has_text="Round up")
    await expect(posted).to_have_count(1)

    for part in (posted.locator(".content"), posted.locator(".e-desc")):
        await expect(part.locator("h3.md-heading")).to_have_text("Round up")
        await expect(part.locator(":scope > ul > li")).to_have_count(2)
        await expect(part.locator(":scope > ul > li").first).to_have_text("Alice leads")
        await expect(part.locator("ul > li em")).to_have_text("leads")
        await expect(part.locator("ul ul > li")).to_have_text("owes 2 chips")
        await expect(part.locator("ul ul > li code")).to_have_text("2")
        await expect(part.locator("ol > li")).to_have_text(["first", "second"])
        await expect(part.locator("strong")).to_have_text("three")
        await expect(part.locator("blockquote")).to_have_text("quoted line")
        await expect(part.locator(".subtext")).to_have_text("small print")
        await expect(part.locator("a")).to_have_attribute("href", "https://example.com/rules")
        text = await part.inner_text()
        assert "- Alice" not in text and "# Round" not in text and "**" not in text
    await expect(posted.locator(".e-title strong")).to_have_text("now")
    await expect(posted.locator(".e-field .value li")).to_have_text(["a win", "a bank"])


async def test_a_menu_shows_the_option_picked_until_the_message_changes(
    mini: Mini, page: Page
) -> None:
    await page.goto(str(mini.client.make_url("/")))
    await expect(page.locator("body")).to_have_attribute("data-live", "true")
    await page.locator('#channels button[data-channel="games"]').click()
    await expect(page.locator("#messages")).to_have_attribute("data-channel", mini.channel("games"))
    await page.locator('#people button[data-person="Dave"]').click()
    await expect(page.locator("#messages")).to_have_attribute("data-viewer", mini.person("Dave"))

    await run_command(page, "/qdice start seats:3 mode:slow")
    lobby = page.locator("article").filter(has_text="Lobby: 3 seats, slow")
    await expect(lobby).to_have_count(1)
    lobby_id = await lobby.get_attribute("data-message-id")
    assert lobby_id is not None
    menu = message(page, lobby_id).locator('select[data-custom-id="lobby:mode"]')
    await expect(menu).to_have_value("")  # the placeholder
    await menu.select_option("fast")
    answer = page.locator('article[data-ephemeral="true"]').filter(has_text="mode fast")
    await expect(answer).to_have_count(1)  # the channel was drawn again with the answer
    await expect(menu).to_have_value("fast")
    assert await menu.evaluate("s => s.selectedOptions[0].textContent") == "Fast"

    # The bot edits the message: the menu is drawn afresh, with its placeholder.
    await message(page, lobby_id).locator('button[data-label="Join"]').click()
    await expect(message(page, lobby_id)).to_contain_text("players: Dave")
    await expect(menu).to_have_value("")
