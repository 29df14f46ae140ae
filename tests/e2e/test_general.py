"""/help, /about, the error handler, and the bot riding out Discord's faults."""

from __future__ import annotations

import pytest

from bot.cogs.general import rule_pages, rules_text
from bot.games import all_games
from bot.sandbox.loopback import InteractionRefused
from tests.e2e.conftest import World


async def test_help_lists_games_only_to_the_asker(w: World) -> None:
    room = w.channel()
    result = await w.fake.slash(w.alice, "help", channel=room)
    message = result.message
    assert message is not None and message.ephemeral
    assert "/qdice" in message.text() and "Quantum dice" in message.text()
    # who may cancel or remove players, and that it takes a second click
    assert "Who may cancel a table or remove a player" in message.text()
    assert "**Manage Server** permission, at any table" in message.text()
    assert "`/<game> kick`" in message.text() and "second click" in message.text()
    assert message.visible_to(w.alice) and not message.visible_to(w.bob)
    assert all(m.id != message.id for m in w.fake.messages(room, viewer=w.bob))


async def test_about_reports_servers_and_games(w: World) -> None:
    room = w.channel()
    result = await w.fake.slash(w.alice, "about", channel=room)
    text = result.message.text()
    assert "0.1.0" in text and "Uptime" in text
    assert "Servers" in text and "Active games" in text


async def test_commands_synced_with_subcommands(w: World) -> None:
    names = {c["name"] for c in w.fake.commands()}
    assert {"help", "about", "rules", "leaderboard", "stats", "qdice", "sync"} <= names
    qdice = next(c for c in w.fake.commands() if c["name"] == "qdice")
    subs = {o["name"] for o in qdice["options"]}
    assert {"start", "hand", "status", "leave", "cancel", "kick"} <= subs


async def test_bad_options_are_refused_before_the_bot(w: World) -> None:
    room = w.channel()
    with pytest.raises(InteractionRefused):
        await w.fake.slash(w.alice, "qdice start", channel=room, options={"target": 5})
    with pytest.raises(InteractionRefused):
        await w.fake.slash(w.alice, "rules", channel=room, options={"game": "chess"})


async def test_game_errors_reply_ephemerally(w: World) -> None:
    room = w.channel()
    result = await w.fake.slash(w.bob, "qdice hand", channel=room)
    assert result.message.ephemeral
    assert "no game of Quantum dice in this channel" in result.message.text()


async def test_rules_page(w: World) -> None:
    result = await w.fake.slash(w.alice, "rules", channel=w.channel(), options={"game": "qdice"})
    assert result.message.ephemeral and "Black hole" in result.message.text()


@pytest.mark.parametrize("game", sorted(all_games()))
async def test_every_rules_page_arrives_whole_and_private(w: World, game: str) -> None:
    room = w.channel()
    await w.fake.slash(w.alice, "rules", channel=room, options={"game": game})
    await w.fake.wait_idle()
    shown = [m for m in w.fake.messages(room, viewer=w.alice) if m.ephemeral]
    assert shown and not [m for m in w.fake.messages(room, viewer=w.bob) if m.ephemeral]
    text = " ".join(" ".join(m.text().split()) for m in shown)
    body = rules_text(game).partition("\n")[2]
    for paragraph in body.split("\n\n"):
        assert " ".join(paragraph.split()) in text


def test_rule_pages_split_between_paragraphs_within_the_limit() -> None:
    body = "\n\n".join(f"Paragraph {i}: " + "word " * 40 for i in range(60))
    pages = rule_pages(body, limit=1000)
    assert len(pages) > 1 and all(len(p) <= 1000 for p in pages)
    assert "\n\n".join(pages) == body.strip()
    long_line = "x" * 2500
    assert "".join(rule_pages(long_line, limit=1000)) == long_line
    assert rule_pages("") == [""]


async def test_survives_rate_limit(w: World) -> None:
    w.fake.faults.rate_limit("POST", r"/callback", retry_after=0.3, count=1)
    result = await w.fake.slash(w.alice, "about", channel=w.channel(), timeout=10)
    assert result.message is not None and "Uptime" in result.message.text()
    assert any(r.status == 429 for r in w.fake.requests)


async def test_survives_server_error(w: World) -> None:
    room = w.channel()
    w.fake.faults.server_error("POST", r"/callback", status=502, count=1)
    result = await w.fake.slash(w.alice, "help", channel=room)
    assert result.message is not None and "/qdice" in result.message.text()


@pytest.mark.parametrize("mode", ["resume", "reconnect", "invalid_session"])
async def test_survives_dropped_gateway(w: World, mode: str) -> None:
    await w.fake.drop_gateway(mode)
    result = await w.fake.slash(w.alice, "about", channel=w.channel())
    assert "Uptime" in result.message.text()
