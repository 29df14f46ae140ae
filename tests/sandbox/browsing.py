"""Driving the sandbox page in Debian's Chromium (headless) with Playwright: the browser, and
acting through the page as one of the sandbox's people.

No browser is downloaded: Playwright launches /usr/bin/chromium (installed by .ci/run).
"""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Locator, Page, expect

from bot.sandbox.loopback import Channel
from bot.sandbox.web import Sandbox

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT_MS = 15_000  # every wait below is bounded by this

expect.set_options(timeout=WAIT_MS)


def chromium_installed() -> bool:
    return CHROMIUM.is_file()


async def open_page(page: Page, sandbox: Sandbox, channel: Channel) -> None:
    await page.goto(sandbox.url)
    await expect(page.locator("body")).to_have_attribute("data-ready", "true")
    await expect(page.locator("body")).to_have_attribute("data-live", "true")
    await page.locator(f'#channels button[data-channel="{channel.name}"]').click()
    await expect(page.locator("#messages")).to_have_attribute("data-channel", str(channel.id))


def person_id(sandbox: Sandbox, name: str) -> str:
    return next(str(p.id) for p in sandbox.world.people if p.name == name)


async def act_as(page: Page, sandbox: Sandbox, name: str) -> None:
    """Switch the page to ``name`` and wait until the channel is drawn as they see it."""
    await page.locator(f'#people button[data-person="{name}"]').click()
    await expect(page.locator(f'#people button[data-person="{name}"]')).to_have_attribute(
        "aria-checked", "true"
    )
    await expect(page.locator("#messages")).to_have_attribute(
        "data-viewer", person_id(sandbox, name)
    )


def message(page: Page, message_id: str) -> Locator:
    return page.locator(f'article[data-message-id="{message_id}"]')


async def run_command(page: Page, text: str) -> None:
    composer = page.locator("#composer")
    await composer.click()
    await composer.press_sequentially(text)
    await composer.press("Enter")
