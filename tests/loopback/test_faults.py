"""Injected failures: rate limits, server errors and gateway drops; the bot keeps answering."""

from __future__ import annotations

import time

import pytest

from .conftest import World


async def test_rate_limited_callback_is_retried(w: World) -> None:
    fake = w.fake
    fake.faults.rate_limit("POST", r"/callback$", retry_after=0.3)
    started = time.monotonic()
    res = await fake.slash(w.alice, "ping", channel=w.channel)
    assert res.message is not None and res.message.content == "pong"
    assert time.monotonic() - started >= 0.3
    statuses = [r.status for r in fake.requests if r.path.endswith("/callback")][-2:]
    assert statuses == [429, 200]
    assert fake.faults.pending == 0


async def test_global_rate_limit_on_channel_post(w: World) -> None:
    fake = w.fake
    fake.faults.rate_limit(
        "POST", rf"^/channels/{w.channel.id}/messages$", retry_after=0.2, global_=True
    )
    res = await fake.slash(w.alice, "post", channel=w.channel, options={"text": "limited"})
    assert res.message is not None and res.message.content == "posted"
    posts = [r.status for r in fake.requests if r.path == f"/channels/{w.channel.id}/messages"]
    assert posts[-2:] == [429, 200]


@pytest.mark.parametrize("status", [500, 502])
async def test_server_error_is_retried(w: World, status: int) -> None:
    fake = w.fake
    fake.faults.server_error("PATCH", r"/messages/@original$", status=status)
    res = await fake.slash(w.bob, "later", channel=w.channel)
    assert res.message is not None and res.message.content == "edited later"
    edits = [r.status for r in fake.requests if r.path.endswith("/messages/@original")][-2:]
    assert edits == [status, 200]


@pytest.mark.parametrize("mode", ["resume", "reconnect", "invalid_session"])
async def test_gateway_drop_and_bot_keeps_answering(w: World, mode: str) -> None:
    fake = w.fake
    readies, resumes = fake.gateway.readies, fake.gateway.resumes
    await fake.drop_gateway(mode)  # type: ignore[arg-type]
    if mode == "invalid_session":
        assert fake.gateway.readies == readies + 1
    else:
        assert fake.gateway.resumes == resumes + 1
    res = await fake.slash(w.alice, "qdice start", channel=w.channel, options={"seats": 4})
    assert res.message is not None
    click = await fake.click(w.bob, res.message, label="Join")
    assert click.message is not None and click.message.content == "players: bob"


async def test_events_missed_while_away_are_replayed(w: World) -> None:
    fake = w.fake
    before = fake.gateway.replayed
    await fake.drop_gateway("resume", wait=False)
    late = fake.add_channel(w.guild, "opened-while-away")
    assert not fake.gateway.connected
    await fake.wait_connected()
    await fake.wait_idle()
    assert fake.gateway.replayed > before
    assert w.bot.get_channel(late.id) is not None
    res = await fake.slash(w.alice, "ping", channel=late)
    assert res.message is not None and res.message.channel_id == late.id
