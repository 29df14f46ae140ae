"""A real discord.py bot against the loopback: commands, components, files, modals, rules."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import discord
import pytest

from bot.sandbox.loopback import CallbackType, InteractionRefused

from .conftest import World


async def test_commands_synced_with_ids(w: World) -> None:
    fake = w.fake
    assert fake.commands_synced.is_set()
    names = sorted(c["name"] for c in fake.commands())
    assert "qdice" in names and "ping" in names
    for cmd in fake.commands():
        assert cmd["application_id"] == str(fake.application_id)
        assert cmd["id"].isdigit() and cmd["version"].isdigit()
    assert [c["name"] for c in fake.commands(w.guild)] == ["where"]
    synced = await w.bot.tree.fetch_commands()
    assert {c.name for c in synced} == set(names)


async def test_slash_answers_with_embed(w: World) -> None:
    res = await w.fake.slash(w.alice, "ping", channel=w.channel)
    assert res.type == CallbackType.CHANNEL_MESSAGE
    msg = res.message
    assert msg is not None and not msg.ephemeral
    assert msg.content == "pong" and msg.embeds[0]["title"] == "Pong"
    assert "latency ok" in msg.text()
    assert msg.interaction_metadata is not None
    assert msg.interaction_metadata["user"]["id"] == str(w.alice.id)
    assert w.fake.last_message(w.channel, viewer=w.bob) is msg


async def test_guild_command_takes_precedence(w: World) -> None:
    res = await w.fake.slash(w.alice, "where", channel=w.channel)
    assert res.message is not None and res.message.content == "guild copy"


async def test_subcommands_and_options(w: World) -> None:
    fake = w.fake
    res = await fake.slash(
        w.alice,
        "qdice start",
        channel=w.channel,
        options={"seats": 3, "mode": "slow", "title": "Ours"},
    )
    assert res.message is not None and res.message.content == "Ours: 3 seats, slow"
    assert [b.label for b in res.message.buttons] == ["Join", "Locked", "Peek"]
    res = await fake.slash(
        w.bob, "qdice admin reset", channel=w.channel, options={"player": w.alice, "hard": True}
    )
    assert res.message is not None and res.message.content == "reset alice hard=True"
    assert res.message.visible_to(w.bob) and not res.message.visible_to(w.alice)


@pytest.mark.parametrize(
    ("command", "options", "reason"),
    [
        ("qdice start", {"seats": 9}, "not in 2..6"),
        ("qdice start", {"seats": 3, "mode": "turbo"}, "not one of"),
        ("qdice start", {"seats": "3"}, "takes an integer"),
        ("qdice start", {"seats": 3, "title": "far too long a title"}, "length"),
        ("qdice start", {}, "required"),
        ("qdice start", {"seats": 3, "colour": "red"}, "no options"),
        ("qdice", {}, "needs a subcommand"),
        ("qdice admin reset", {"player": 12345}, "no user, role or channel"),
        ("nosuch", {}, "no synced command"),
    ],
)
async def test_bad_invocations_are_refused(
    w: World, command: str, options: dict, reason: str
) -> None:
    before = len(w.fake.interactions)
    with pytest.raises(InteractionRefused, match=reason):
        await w.fake.slash(w.alice, command, channel=w.channel, options=options)
    assert len(w.fake.interactions) == before


async def test_click_edits_message_and_rules(w: World) -> None:
    fake = w.fake
    res = await fake.slash(w.alice, "qdice start", channel=w.channel, options={"seats": 2})
    lobby = res.message
    assert lobby is not None
    click = await fake.click(w.bob, lobby, label="Join")
    assert click.type == CallbackType.UPDATE_MESSAGE
    assert click.message is lobby and lobby.content == "players: bob" and lobby.edits == 1
    await fake.click(w.alice, lobby, custom_id="lobby:join")
    assert fake.get_message(lobby.id).content == "players: bob, alice"
    with pytest.raises(InteractionRefused, match="disabled"):
        await fake.click(w.alice, lobby, label="Locked")
    with pytest.raises(InteractionRefused, match="no button"):
        await fake.click(w.alice, lobby, label="Leave")
    with pytest.raises(InteractionRefused, match="stranger cannot see"):
        await fake.click(w.stranger, lobby, label="Join")
    picked = await fake.select(w.alice, lobby, ["slow"], custom_id="lobby:mode")
    assert picked.message is not None and picked.message.content == "mode slow"
    with pytest.raises(InteractionRefused, match="not options"):
        await fake.select(w.alice, lobby, ["warp"], placeholder="Mode")


async def test_ephemeral_visible_and_clickable_only_by_invoker(w: World) -> None:
    fake = w.fake
    res = await fake.slash(w.alice, "qdice start", channel=w.channel, options={"seats": 2})
    assert res.message is not None
    peek = await fake.click(w.alice, res.message, emoji="\N{EYES}")
    secret = peek.message
    assert secret is not None and secret.ephemeral and secret.content == "your secret, alice"
    assert secret in fake.messages(w.channel, viewer=w.alice)
    assert secret not in fake.messages(w.channel, viewer=w.bob)
    with pytest.raises(InteractionRefused, match="bob cannot see"):
        await fake.click(w.bob, secret, label="Reveal")
    await fake.click(w.alice, secret, label="Reveal")
    assert secret.content == "revealed" and secret.buttons == []
    # The bot cannot reach an ephemeral message through the channel routes.
    with fake.expect_errors("10008 Unknown Message"), pytest.raises(discord.NotFound):
        await w.bot.http.get_message(w.channel.id, secret.id)


async def test_file_upload_and_attachment_edit(w: World) -> None:
    fake = w.fake
    res = await fake.slash(w.alice, "picture", channel=w.channel)
    msg = res.message
    assert msg is not None and [a.filename for a in msg.attachments] == ["red.png"]
    img = msg.image()
    assert img.size == (8, 6) and img.getpixel((0, 0)) == (255, 0, 0)
    async with aiohttp.ClientSession() as session, session.get(msg.attachments[0].url) as resp:
        assert resp.status == 200 and await resp.read() == msg.attachments[0].data
    res = await fake.slash(w.alice, "album", channel=w.channel)
    album = res.message
    assert album is not None and album.content == "swapped"
    assert [a.filename for a in album.attachments] == ["blue.png", "green.png"]
    assert album.image(1).size == (4, 4) and album.edits == 1


async def test_deferred_then_followups(w: World) -> None:
    fake = w.fake
    res = await fake.slash(w.bob, "slowly", channel=w.channel)
    assert res.type == CallbackType.DEFERRED_CHANNEL_MESSAGE
    assert res.message is not None and res.message.content == "done thinking"
    assert not res.message.loading
    assert [m.content for m in res.followups] == ["and one more"]
    res = await fake.slash(w.bob, "slowly", channel=w.channel, options={"ephemeral": True})
    assert res.message is not None and res.message.ephemeral
    assert not res.message.visible_to(w.alice)
    res = await fake.slash(w.bob, "later", channel=w.channel)
    assert res.message is not None and res.message.content == "edited later"


async def test_bot_posts_and_edits_in_channel(w: World) -> None:
    fake = w.fake
    res = await fake.slash(w.alice, "post", channel=w.channel, options={"text": "hello"})
    assert res.message is not None and res.message.content == "posted" and res.message.ephemeral
    public = [m for m in fake.messages(w.channel, viewer=w.bob) if m.content.startswith("hello")]
    assert public[-1].content == "hello (edited)" and public[-1].webhook_id is None
    assert ("PATCH", f"/channels/{w.channel.id}/messages/{public[-1].id}", 200) in [
        (r.method, r.path, r.status) for r in fake.requests
    ]


async def test_modal_round_trip(w: World) -> None:
    fake = w.fake
    res = await fake.slash(w.alice, "form", channel=w.channel)
    assert res.type == CallbackType.MODAL and res.modal is not None
    assert res.modal.title == "Your name"
    assert [f["label"] for f in res.modal.fields] == ["Name", "Motto"]
    with pytest.raises(InteractionRefused, match="only the person"):
        await fake.submit_modal(w.bob, res, {"Name": "Bob"})
    with pytest.raises(InteractionRefused, match="required"):
        await fake.submit_modal(w.alice, res, {"Motto": "hi"})
    done = await fake.submit_modal(w.alice, res, {"Name": "Alice", "form:motto": "carpe"})
    assert done.message is not None and done.message.content == "hello Alice (carpe)"
    with pytest.raises(InteractionRefused, match="already submitted"):
        await fake.submit_modal(w.alice, res, {"Name": "Again"})


async def test_autocomplete(w: World) -> None:
    choices = await w.fake.autocomplete(
        w.alice, "leaderboard", focused="game", value="q", channel=w.channel
    )
    assert [c["value"] for c in choices] == ["qdice", "qpoker", "quarks"]
    with pytest.raises(InteractionRefused, match="no autocomplete"):
        await w.fake.autocomplete(
            w.alice, "qdice start", focused="seats", value="2", channel=w.channel
        )


async def test_three_second_rule(w: World) -> None:
    fake = w.fake
    with fake.expect_errors(
        r"10062 Unknown interaction: /sleepy .*not acknowledged", r"callback -> 404 10062"
    ):
        res = await fake.slash(w.alice, "sleepy", channel=w.channel, wait=False)
        assert res.type is None and res.interaction.expired
        for _ in range(100):
            if w.bot.calls["slow"] == 11:  # type: ignore[attr-defined]
                break
            await asyncio.sleep(0.05)
    assert w.bot.calls["slow"] == 11  # type: ignore[attr-defined]  # the bot saw NotFound
    # It went out; its answer came too late to be taken.
    assert res.interaction.sent is not None and res.interaction.arrived is None


async def test_each_interaction_says_when_it_went_out_and_its_answer_came_in(w: World) -> None:
    """For timing the bot apart from the fake: when the interaction's frame went to the bot's
    socket and when the request with its answer arrived, in order, for a command and a click
    (one answered too late has no arrival: ``test_three_second_rule``)."""
    fake = w.fake
    start = time.perf_counter()
    res = await fake.slash(w.alice, "qdice start", channel=w.channel, options={"seats": 2})
    click = await fake.click(w.bob, res.message, label="Join")  # type: ignore[arg-type]
    end = time.perf_counter()
    first, second = res.interaction, click.interaction
    assert first.sent is not None and first.arrived is not None
    assert second.sent is not None and second.arrived is not None
    assert start < first.sent < first.arrived < second.sent < second.arrived < end


async def test_double_initial_response_refused(w: World) -> None:
    fake = w.fake
    res = await fake.slash(w.alice, "ping", channel=w.channel)
    it = res.interaction
    url = f"{fake.url}/api/v10/interactions/{it.id}/{it.token}/callback"
    with fake.expect_errors("40060"):
        async with (
            aiohttp.ClientSession() as session,
            session.post(url, json={"type": 4, "data": {"content": "again"}}) as resp,
        ):
            assert resp.status == 400
            assert (await resp.json())["code"] == 40060


async def test_threads(w: World) -> None:
    fake = w.fake
    res = await fake.slash(w.alice, "discuss", channel=w.channel)
    assert res.message is not None
    threads = fake.threads(w.channel)
    by_name = {t.name: t for t in threads}
    assert set(by_name) >= {"talk", "side"}
    assert by_name["talk"].id == res.message.id  # a message's thread shares its id
    assert fake.last_message(by_name["talk"]).content == "first in thread"  # type: ignore[union-attr]
    assert fake.last_message(by_name["side"]).content == "side thread"  # type: ignore[union-attr]
    assert [e for e, d in fake.gateway.events if e == "THREAD_CREATE"]
    assert w.bot.get_channel(by_name["talk"].id) is not None
    inside = await fake.slash(w.bob, "ping", channel=by_name["talk"])
    assert inside.message is not None and inside.message.channel_id == by_name["talk"].id


async def test_hidden_channel_refused(w: World) -> None:
    fake = w.fake
    secret = fake.add_channel(w.guild, "staff")
    fake.set_permissions(secret, w.guild.everyone, deny=1 << 10)
    fake.set_permissions(secret, w.alice, allow=1 << 10)
    res = await fake.slash(w.alice, "ping", channel=secret)
    assert res.message is not None
    assert res.message.visible_to(w.alice) and not res.message.visible_to(w.bob)
    with pytest.raises(InteractionRefused, match="bob cannot see"):
        await fake.slash(w.bob, "ping", channel=secret)
    with pytest.raises(InteractionRefused, match="bob cannot see"):
        await fake.click(w.bob, res.message, label="Join")


async def test_direct_message(w: World) -> None:
    res = await w.fake.slash(w.bob, "remind", channel=w.channel)
    assert res.message is not None and res.message.content == "sent"
    dms = w.fake.dms(w.bob)
    assert [m.content for m in dms] == ["psst, your turn"]
    assert dms[0].visible_to(w.bob) and not dms[0].visible_to(w.alice)
    assert w.fake.dms(w.alice) == []


async def test_gateway_sees_public_messages_only(w: World) -> None:
    fake = w.fake
    start = len(fake.gateway.events)
    public = await fake.slash(w.alice, "ping", channel=w.channel)
    hidden = await fake.slash(
        w.bob, "qdice admin reset", channel=w.channel, options={"player": w.bob}
    )
    assert public.message is not None and hidden.message is not None
    created = [d["id"] for e, d in fake.gateway.events[start:] if e == "MESSAGE_CREATE"]
    assert created == [str(public.message.id)]
    interactions = [d for e, d in fake.gateway.events[start:] if e == "INTERACTION_CREATE"]
    assert all(d["attachment_size_limit"] > 0 for d in interactions)


async def test_guild_added_live(w: World) -> None:
    fake = w.fake
    late = fake.add_guild("Late Table", owner=w.alice)
    room = fake.add_channel(late, "late-games")
    await fake.wait_idle()
    assert w.bot.get_guild(late.id) is not None
    assert w.bot.get_channel(room.id) is not None
    res = await fake.slash(w.alice, "where", channel=room)
    assert res.message is not None and res.message.content == "global copy"


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 1, "label": "x", "custom_id": "c" * 101}
                        ],
                    }
                ]
            },
            "custom_id",
        ),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [{"type": 2, "style": 1, "label": "x", "custom_id": f"r{i}"}],
                    }
                    for i in range(6)
                ]
            },
            "6 action rows",
        ),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 1, "label": "x", "custom_id": f"b{i}"}
                            for i in range(6)
                        ],
                    }
                ]
            },
            "1..5",
        ),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 1, "label": "L" * 81, "custom_id": "long"}
                        ],
                    }
                ]
            },
            "label longer",
        ),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {
                                "type": 3,
                                "custom_id": "s",
                                "options": [{"label": str(i), "value": str(i)} for i in range(26)],
                            }
                        ],
                    }
                ]
            },
            "26 options",
        ),
        ({"embeds": [{"title": "T" * 257}]}, "title"),
        ({"content": "x" * 2001}, "content"),
        ({"content": ""}, "empty message"),
    ],
)
async def test_invalid_messages_rejected(w: World, body: dict, problem: str) -> None:
    fake = w.fake
    url = f"{fake.url}/api/v10/channels/{w.channel.id}/messages"
    headers = {"Authorization": f"Bot {fake.token}"}
    with fake.expect_errors(problem):
        async with (
            aiohttp.ClientSession() as session,
            session.post(url, json=body, headers=headers) as resp,
        ):
            assert resp.status == 400
            assert (await resp.json())["code"] in (50035, 50006)


async def test_components_v2_and_labelled_modal(w: World) -> None:
    fake = w.fake
    res = await fake.slash(w.alice, "board", channel=w.channel)
    board = res.message
    assert board is not None and board.flags & (1 << 15)
    assert "turn: alice" in board.text() and [b.label for b in board.buttons] == ["Roll"]
    rolled = await fake.click(w.bob, board, label="Roll")
    assert rolled.message is not None and rolled.message.content == "rolled 6"
    form = await fake.slash(w.alice, "bid", channel=w.channel)
    assert form.modal is not None and [f["label"] for f in form.modal.fields] == ["Amount"]
    with pytest.raises(InteractionRefused, match="length"):
        await fake.submit_modal(w.alice, form, {"Amount": "12345"})
    done = await fake.submit_modal(w.alice, form, {"Amount": "40"})
    assert done.message is not None and done.message.content == "bid 40"


async def test_followup_token_expires(w: World) -> None:
    fake = w.fake
    fake.token_lifetime = 0.2
    try:
        with fake.expect_errors("50027 Invalid Webhook Token"):
            res = await fake.slash(w.alice, "slowly", channel=w.channel, wait=False)
            assert res.type == CallbackType.DEFERRED_CHANNEL_MESSAGE
            for _ in range(100):
                if any("50027" in e for e in fake.expected_errors):
                    break
                await asyncio.sleep(0.05)
    finally:
        fake.token_lifetime = 15 * 60.0
    assert res.message is not None and res.message.loading  # "thinking" forever
    assert res.interaction.token_dead


async def test_raw_multipart_upload_is_split_by_its_boundary(w: World) -> None:
    """A message posted as multipart by hand: the payload and every file arrive whole, a
    file name holding ``name=`` does not confuse the part's name, and a body whose boundary
    is missing is refused."""
    fake = w.fake
    url = f"{fake.url}/api/v10/channels/{w.channel.id}/messages"
    headers = {"Authorization": f"Bot {fake.token}"}
    picture = bytes(range(256)) * 8 + b"\r\n--not-the-boundary\r\n"
    form = aiohttp.FormData()
    form.add_field("payload_json", '{"content": "two files"}', content_type="application/json")
    form.add_field("files[0]", picture, filename="a name=b.png", content_type="image/png")
    form.add_field("files[1]", b"second", filename="c.txt", content_type="text/plain")
    async with aiohttp.ClientSession() as session:
        async with session.post(url, data=form, headers=headers) as resp:
            assert resp.status == 200, await resp.text()
            sent = await resp.json()
        assert sent["content"] == "two files"
        assert [a["filename"] for a in sent["attachments"]] == ["a name=b.png", "c.txt"]
        message = fake.world.messages[int(sent["id"])]
        assert [a.data for a in message.attachments] == [picture, b"second"]
        broken = {**headers, "Content-Type": "multipart/form-data"}
        with fake.expect_errors("boundary"):
            async with session.post(url, data=b"--x\r\n\r\n", headers=broken) as resp:
                assert resp.status == 400
