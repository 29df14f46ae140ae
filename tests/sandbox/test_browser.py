"""The sandbox page in a real browser: Debian's Chromium, headless, driven by Playwright.

A game is started, joined and played through the page as several people, and a private
reply shown to one person is checked never to reach the page while acting as another.
The browser and the page's helpers: tests/sandbox/browsing.py and conftest.py.
"""

from __future__ import annotations

import asyncio
import re

from playwright.async_api import Locator, Page, Route, expect

from bot.sandbox.loopback import Channel, User
from bot.sandbox.web import Sandbox
from bot.tables.table import Table
from tests.sandbox.browsing import WAIT_MS, act_as, message, open_page, run_command
from tests.sandbox.conftest import Mini

GAME = "qpoker"  # the one game command this test plays (any game with a "My hand" view will do)
HOST, GUESTS, WATCHER = "Alice", ("Bob", "Carol"), "Dave"


# --- acting through the page ----------------------------------------------------------------


async def click_action(page: Page, sandbox: Sandbox, scope: Locator, action: str) -> bool:
    """Click the enabled button (or pick the select option) for ``action`` inside ``scope``."""
    button = scope.locator(f'button[data-custom-id$=":{action}"]:not([disabled])')
    if await button.count():
        async with page.expect_response(re.compile(r"/api/click$")) as answer:
            await button.first.click()
        assert (await (await answer.value).json())["ok"]
        return True
    for menu in await scope.locator("select[data-custom-id]:not([disabled])").all():
        if await menu.locator(f'option[value="{action}"]').count():
            async with page.expect_response(re.compile(r"/api/select$")) as answer:
                await menu.select_option(action)
            assert (await (await answer.value).json())["ok"]
            return True
    return False


async def first_legal(page: Page, sandbox: Sandbox, scope: Locator, legal: list[str]) -> bool:
    for action in legal:
        if await click_action(page, sandbox, scope, action):
            return True
    return False


def table_in(sandbox: Sandbox, channel: Channel) -> Table:
    table = sandbox.bot.tables.in_location(channel.id)
    assert table is not None and table.record.game == GAME
    return table


def person_to_act(sandbox: Sandbox, table: Table) -> User:
    assert table.state is not None
    seat = min(table.spec.engine.to_act(table.state))
    person = sandbox.world.person(table.seats[seat].user_id or 0)
    assert person is not None, "a person should be to act (there are no AI seats)"
    return person


async def open_hand(page: Page, table_message: Locator) -> Locator:
    """Press "My hand" on the table; the newest private reply, once it is drawn."""
    before = await page.locator('article[data-ephemeral="true"]').count()
    await table_message.locator('button[data-label="My hand"]').click()
    replies = page.locator('article[data-ephemeral="true"]')
    await expect(replies).to_have_count(before + 1)
    reply = replies.last
    await expect(reply).to_contain_text("Only you can see this")
    return reply


async def play_one_move(page: Page, sandbox: Sandbox, channel: Channel, table_id: str) -> None:
    """As the person to act, make the first legal move the page offers (table or own view)."""
    table = table_in(sandbox, channel)
    engine, state = table.spec.engine, table.state
    assert state is not None
    seat = min(engine.to_act(state))
    mover = person_to_act(sandbox, table)
    legal, version = engine.legal_actions(state, seat), table.record.version
    await act_as(page, sandbox, mover.name)
    moved = await first_legal(page, sandbox, message(page, table_id), legal)
    if not moved:  # the move is offered in the mover's own view, not on the table
        moved = await first_legal(
            page, sandbox, await open_hand(page, message(page, table_id)), legal
        )
    assert moved, f"none of {legal} is offered to {mover.name} on the page"
    await sandbox.fake.wait_idle()
    assert table.record.version > version, "the move did not reach the table"
    fresh = f'button[data-custom-id^="qt:{table.id}:{table.record.version}:"]'
    await expect(message(page, table_id).locator(fresh).first).to_be_attached()


# --- the tests ------------------------------------------------------------------------------


async def test_a_game_through_the_page_keeps_hands_private(sandbox: Sandbox, page: Page) -> None:
    room = sandbox.fake.add_channel(sandbox.world.guild, "browser-table")
    await open_page(page, sandbox, room)

    await act_as(page, sandbox, HOST)
    await run_command(page, f"/{GAME} start")
    await expect(page.locator("#composer")).to_have_value("")
    lobby = page.locator('article[data-ephemeral="false"]').filter(
        has=page.locator('button[data-label="Join"]')
    )
    await expect(lobby).to_have_count(1)
    table_id = await lobby.get_attribute("data-message-id")
    assert table_id is not None
    await expect(message(page, table_id)).to_contain_text(f"/{GAME} start")

    for guest in GUESTS:
        await act_as(page, sandbox, guest)
        await message(page, table_id).locator('button[data-label="Join"]').click()
        await expect(message(page, table_id)).to_contain_text(guest)
    await act_as(page, sandbox, HOST)
    await message(page, table_id).locator('button[data-label="Start"]').click()
    table_message = message(page, table_id)
    await expect(table_message.locator('button[data-label="My hand"]')).to_be_visible()
    await expect(table_message.locator("img").first).to_be_visible()  # the rendered table

    await play_one_move(page, sandbox, room, table_id)

    # One person's private view: shown to them, never while acting as anyone else. (It is
    # the person to act: their view carries controls.)
    holder = person_to_act(sandbox, table_in(sandbox, room)).name
    await act_as(page, sandbox, holder)
    hand = await open_hand(page, message(page, table_id))
    hand_id = await hand.get_attribute("data-message-id")
    assert hand_id is not None
    hand_text = (await hand.inner_text()).strip()
    assert hand_text
    for other in [p.name for p in sandbox.world.people if p.name != holder]:
        await act_as(page, sandbox, other)
        await expect(message(page, table_id)).to_be_visible()
        await expect(message(page, hand_id)).to_have_count(0)
        assert hand_text not in await page.locator("#messages").inner_text()
        html = await page.content()
        assert hand_id not in html
    await act_as(page, sandbox, holder)
    await expect(message(page, hand_id)).to_be_visible()  # the check above could fail

    # Live: the holder opens their view again from elsewhere while the page shows the watcher.
    await act_as(page, sandbox, WATCHER)
    holder_user = sandbox.world.people[[p.name for p in sandbox.world.people].index(holder)]
    current = sandbox.fake.get_message(int(table_id))
    await sandbox.fake.click(holder_user, current, label="My hand")
    await page.wait_for_function(
        "r => Number(document.getElementById('messages').dataset.revision) >= r",
        arg=sandbox.fake.revision,
        timeout=WAIT_MS,
    )
    await expect(page.locator('article[data-ephemeral="true"]')).to_have_count(0)
    await expect(message(page, table_id)).to_be_visible()


async def test_refusals_are_shown_and_text_is_never_html(sandbox: Sandbox, page: Page) -> None:
    room = sandbox.fake.add_channel(sandbox.world.guild, "browser-escapes")
    await open_page(page, sandbox, room)
    await act_as(page, sandbox, WATCHER)

    await run_command(page, f"/{GAME} start target:5")
    await expect(page.locator("#error")).to_be_visible()
    await expect(page.locator("#error")).to_contain_text("target")
    await expect(page.locator("#composer")).to_have_value(f"/{GAME} start target:5")

    hostile = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script> **bold**'
    sandbox.fake.world.new_message(room, sandbox.fake.bot_user, content=hostile)
    sandbox.fake.touch()
    content = page.locator("article .content").filter(has_text="onerror")
    await expect(content).to_have_count(1)
    await expect(content).to_contain_text('<img src=x onerror="window.pwned=1">')
    await expect(content.locator("strong")).to_have_text("bold")
    assert await content.locator("img, script").count() == 0
    assert await page.evaluate("window.pwned") is None


async def test_a_number_option_refuses_what_is_no_number(sandbox: Sandbox, page: Page) -> None:
    """As in Discord's client: "abc" in a number option is not sent (nor dropped for the
    default), the option is marked with what is wrong, and a number then goes through."""
    room = sandbox.fake.add_channel(sandbox.world.guild, "browser-numbers")
    await open_page(page, sandbox, room)
    await act_as(page, sandbox, HOST)
    composer = page.locator("#composer")
    await composer.click()
    await composer.press_sequentially("/qdice start")
    await composer.press("Tab")
    target = page.locator('#options input[data-option="target"]')
    await target.press_sequentially("abc")
    await composer.press("Enter")

    problem = page.locator('#options [data-error-for="target"]')
    await expect(problem).to_be_visible()
    await expect(problem).to_contain_text("whole number")
    await expect(target).to_have_attribute("aria-invalid", "true")
    await expect(composer).to_have_value("/qdice start ")  # nothing sent
    await sandbox.fake.wait_idle()
    assert sandbox.bot.tables.in_location(room.id) is None  # no table with the default target

    await target.fill("")  # as a person does: mend the option, then send again
    await target.press_sequentially("2500")
    await expect(problem).to_have_count(0)
    await expect(target).not_to_have_attribute("aria-invalid", "true")
    await composer.press("Enter")
    await expect(composer).to_have_value("")
    await sandbox.fake.wait_idle()
    table = sandbox.bot.tables.in_location(room.id)
    assert table is not None and table.record.game == "qdice"
    assert table.config.target == 2500  # type: ignore[attr-defined]
    await sandbox.fake.slash(sandbox.world.people[0], "qdice cancel", channel=room)


async def test_a_new_thread_is_named_in_its_link_at_once(sandbox: Sandbox, page: Page) -> None:
    """The reply that links a new thread shows the thread's name as soon as it is drawn,
    even when the page's list of channels comes later (held back here, to make it so)."""
    room = sandbox.fake.add_channel(sandbox.world.guild, "browser-threads")
    await open_page(page, sandbox, room)
    await act_as(page, sandbox, HOST)

    release = asyncio.Event()
    held: list[asyncio.Event] = []  # one per request held back, set once it went on

    async def late(route: Route) -> None:
        gone_on = asyncio.Event()
        held.append(gone_on)
        try:
            await release.wait()  # until the link was checked
            await route.continue_()
        finally:
            gone_on.set()

    await page.route(re.compile(r"/api/state$"), late)
    try:
        await run_command(page, "/qdice start thread:True")
        reply = page.locator('article[data-ephemeral="true"]').filter(has_text="table is open in")
        await expect(reply).to_have_count(1)
        (thread,) = [c for c in sandbox.world.channels() if c.parent_id == room.id]
        assert thread.name == "Quantum dice with Alice"
        await expect(reply.locator(".channel-link")).to_have_text(f"#{thread.name}")
    finally:
        release.set()
        await asyncio.gather(*(gone_on.wait() for gone_on in held))
        await page.unroute(re.compile(r"/api/state$"))
    await sandbox.fake.slash(sandbox.world.people[0], "qdice cancel", channel=thread)


# Last: starting the loopback's minimal bot points discord.py's addresses (process-wide) at its
# own loopback, so a test with the whole sandbox after it would talk to the wrong one.
async def test_forms_menus_and_completion_work_in_the_page(mini: Mini, page: Page) -> None:
    """With the loopback's minimal bot: a modal as a dialog, a select menu, autocomplete."""
    await page.goto(str(mini.client.make_url("/")))
    await expect(page.locator("body")).to_have_attribute("data-live", "true")
    owner = page.locator("#people .owner-badge")  # the first person owns the server
    await expect(owner).to_have_count(1)
    await expect(owner).to_have_attribute("title", re.compile("may cancel any table"))
    await expect(page.locator('#people button[data-person="Alice"] .owner-badge')).to_have_count(1)
    await page.locator('#channels button[data-channel="games"]').click()
    await expect(page.locator("#messages")).to_have_attribute("data-channel", mini.channel("games"))
    await page.locator('#people button[data-person="Carol"]').click()
    await expect(page.locator("#messages")).to_have_attribute("data-viewer", mini.person("Carol"))

    await run_command(page, "/form")
    dialog = page.locator("#modal")
    await expect(dialog).to_be_visible()
    await expect(page.locator("#modal-title")).to_have_text("Your name")
    await dialog.locator('[data-custom-id="form:name"]').fill("<b>Cee</b>")
    await dialog.locator("#modal-submit").click()
    await expect(dialog).to_be_hidden()
    await expect(page.locator("article .content").last).to_have_text("hello <b>Cee</b> ()")

    await run_command(page, "/qdice start seats:2 mode:slow")
    lobby = page.locator("article").filter(has_text="Lobby: 2 seats, slow")
    await expect(lobby).to_have_count(1)
    await lobby.locator('select[data-custom-id="lobby:mode"]').select_option("fast")
    mine = page.locator('article[data-ephemeral="true"]').filter(has_text="mode fast")
    await expect(mine).to_have_count(1)
    await expect(mine).to_contain_text("Only you can see this")

    await page.locator("#composer").fill("")
    await page.locator("#composer").press_sequentially("/leaderboard")
    await page.locator("#composer").press("Tab")
    game = page.locator('#options input[data-option="game"]')
    await game.press_sequentially("qu")
    await expect(page.locator("#options datalist option")).to_have_count(1)
    await expect(page.locator("#options datalist option")).to_have_attribute("value", "quarks")
