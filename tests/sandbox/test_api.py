"""The sandbox page's JSON API, in process on 127.0.0.1, with the loopback's minimal bot.

The minimal bot (tests/loopback/minibot.py) sends every kind of thing the page must show:
embeds with images, buttons, selects, modals, autocomplete, deferrals, ephemeral replies.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest_asyncio
from aiohttp.test_utils import TestClient, TestServer

from bot.sandbox.loopback import P
from bot.sandbox.web import PEOPLE, SandboxDiscord, build_world, create_app
from tests.sandbox.conftest import Mini

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest_asyncio.fixture(loop_scope="session")
async def m(mini: Mini) -> AsyncIterator[Mini]:
    yield mini
    await mini.fake.wait_idle()
    mini.fake.assert_no_errors()


async def post(m: Mini, route: str, **body: Any) -> dict[str, Any]:
    """POST to the API and let the bot finish what it started."""
    response = await m.client.post(f"/api/{route}", json=body)
    assert response.status == 200, await response.text()
    answer = await response.json()
    await m.fake.wait_idle()
    return answer


async def messages(m: Mini, channel: str, viewer: str) -> list[dict[str, Any]]:
    response = await m.client.get("/api/messages", params={"channel": channel, "viewer": viewer})
    assert response.status == 200
    body = await response.json()
    assert body["viewer"] == viewer and body["channel"] == channel
    return body["messages"]


async def slash(m: Mini, who: str, command: str, **options: Any) -> dict[str, Any]:
    return await post(
        m,
        "slash",
        viewer=m.person(who),
        channel=m.channel("games"),
        command=command,
        options=options,
    )


def text_of(message: dict[str, Any]) -> str:
    parts = [message["content"]]
    for embed in message["embeds"]:
        parts += [embed.get("title", ""), embed.get("description", "")]
    return "\n".join(parts)


def buttons(message: dict[str, Any]) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for row in message["components"]:
        for item in row.get("components", []):
            if item["type"] == 2:
                found[item["label"]] = item
    return found


async def test_state_names_the_server_people_and_channels(m: Mini) -> None:
    response = await m.client.get("/api/state")
    state = await response.json()
    assert [p["name"] for p in state["people"]] == list(PEOPLE)
    # The first person owns the server (may cancel or kick anyone's table): the page says so.
    assert [p["owner"] for p in state["people"]] == [True] + [False] * (len(PEOPLE) - 1)
    assert [c["name"] for c in state["channels"]] == ["general", "games"]
    assert state["bot"] == {"id": str(m.fake.bot_user.id), "name": "Quantum Table", "bot": True}
    assert state["mentions"]["users"][m.person("Bob")] == "Bob"


async def test_the_sandbox_world_has_the_same_ids_on_every_run() -> None:
    first, second = build_world(SandboxDiscord()), build_world(SandboxDiscord())
    assert first.guild.id == second.guild.id
    assert [p.id for p in first.people] == [p.id for p in second.people]
    assert [c.id for c in first.channels()] == [c.id for c in second.channels()]
    assert first.guild.owner_id == first.people[0].id
    fresh = first.fake.world.snowflake()
    assert fresh > max(c.id for c in first.channels())  # later ids are new, time-based ones


async def test_a_cluster_world_has_a_server_on_every_shard() -> None:
    """With several shards the sandbox's first server stays as it is, and one more server
    per other shard joins it, each with the same people and channels; a server keeps its
    ids whatever the shard count."""
    alone = build_world(SandboxDiscord())
    assert len(alone.servers) == 1 and alone.fake.command_copies is None
    by_count = {n: build_world(SandboxDiscord(shards=n)) for n in (2, 3, 5)}
    for n, world in by_count.items():
        assert world.guild.id == alone.guild.id and world.servers[0] is world.guild
        assert [p.id for p in world.people] == [p.id for p in alone.people]
        assert sorted(world.shard(g) for g in world.servers) == list(range(n))
        for guild in world.servers:
            assert {p.id for p in world.people} <= set(guild.members)
            assert [c.name for c in world.channels(guild)] == ["general", "games"]
            assert world.channel(world.channels(guild)[1].id) is not None
    assert [g.id for g in by_count[3].servers] == [g.id for g in by_count[5].servers[:3]]
    assert len(
        {c.id for w in by_count.values() for g in w.servers for c in g.channels.values()}
    ) == sum(len(g.channels) for g in by_count[5].servers)


async def test_commands_synced_to_the_first_server_reach_every_server() -> None:
    """The bot syncs to the sandbox's first server (DEV_GUILD_ID); in a cluster the other
    servers get the same commands, each as its own, and again after every sync."""
    fake = SandboxDiscord(shards=3)
    world = build_world(fake)
    first, *others = world.servers
    await fake.start()
    try:
        url = f"{fake.url}/api/v10/applications/{fake.application_id}/guilds/{first.id}/commands"
        headers = {"Authorization": f"Bot {fake.token}"}
        async with aiohttp.ClientSession() as session:
            for names in (["ping"], ["ping", "qdice"]):
                body = [{"name": n, "description": f"{n}!", "type": 1} for n in names]
                async with session.put(url, json=body, headers=headers) as response:
                    assert response.status == 200, await response.text()
                for guild in others:
                    copied = fake.commands(guild)
                    assert [c["name"] for c in copied] == names
                    assert {c["guild_id"] for c in copied} == {str(guild.id)}
    finally:
        await fake.stop()


async def test_state_names_every_server_and_shows_the_one_asked_for() -> None:
    world = build_world(SandboxDiscord(shards=2))
    second = world.servers[1]
    async with TestClient(TestServer(create_app(world), host="127.0.0.1")) as client:
        state = await (await client.get("/api/state", params={"server": str(second.id)})).json()
        assert state["server"]["id"] == str(second.id) and state["cluster"] is False
        assert [s["shard"] for s in state["servers"]] == [world.shard(g) for g in world.servers]
        assert [c["id"] for c in state["channels"]] == [str(c.id) for c in world.channels(second)]
        gone = await (await client.get("/api/state", params={"server": "12345"})).json()
        assert gone["server"]["id"] == str(world.guild.id)  # a server of an earlier run
        assert (await client.get("/api/cluster")).status == 404  # one process: no panel


async def test_commands_come_flattened_from_the_synced_schema(m: Mini) -> None:
    response = await m.client.get("/api/commands", params={"channel": m.channel("games")})
    commands = {c["path"]: c for c in (await response.json())["commands"]}
    assert {"ping", "qdice start", "qdice admin reset", "form", "leaderboard"} <= set(commands)
    assert "qdice" not in commands and [c for c in commands if c == "where"] == ["where"]
    seats, mode, _title = commands["qdice start"]["options"]
    assert seats["required"] and (seats["min_value"], seats["max_value"]) == (2, 6)
    assert [c["value"] for c in mode["choices"]] == ["fast", "slow"]
    assert commands["leaderboard"]["options"][0]["autocomplete"]


async def test_a_command_typed_on_the_page_reaches_everyone(m: Mini) -> None:
    answer = await slash(m, "Alice", "/qdice start", seats="3", mode="slow", title="")
    assert answer == {"ok": True, "type": 4}
    for viewer in PEOPLE:
        (lobby,) = [
            x
            for x in await messages(m, m.channel("games"), m.person(viewer))
            if "seats" in x["content"]
        ]
        assert lobby["content"] == "Lobby: 3 seats, slow"
        assert lobby["invoker"]["name"] == "Alice" and lobby["command"] == "qdice start"
        assert not lobby["ephemeral"] and set(buttons(lobby)) == {"Join", "Locked", "Peek"}
    await post(m, "click", viewer=m.person("Bob"), message=lobby["id"], custom_id="lobby:join")
    seen = await messages(m, m.channel("games"), m.person("Dave"))
    assert any(x["id"] == lobby["id"] and x["content"] == "players: Bob" for x in seen)


async def test_refusals_reach_the_person_as_sentences(m: Mini) -> None:
    cases = {
        "whole number": {"command": "qdice start", "options": {"seats": "three"}},
        "not in 2..6": {"command": "qdice start", "options": {"seats": 9}},
        "is required": {"command": "qdice start", "options": {}},
        "no synced command": {"command": "nope", "options": {}},
        "not one of": {"command": "qdice start", "options": {"seats": 2, "mode": "warp"}},
    }
    for expected, body in cases.items():
        answer = await post(
            m, "slash", viewer=m.person("Carol"), channel=m.channel("games"), **body
        )
        assert answer["ok"] is False and expected in answer["error"], (expected, answer)
    await slash(m, "Alice", "qdice start", seats=2)
    lobby = (await messages(m, m.channel("games"), m.person("Carol")))[-1]
    locked = await post(
        m, "click", viewer=m.person("Carol"), message=lobby["id"], custom_id="lobby:locked"
    )
    assert locked == {"ok": False, "error": "button 'Locked' is disabled"}


async def test_malformed_or_foreign_requests_are_turned_away(m: Mini) -> None:
    games = m.channel("games")
    stranger = await m.client.get("/api/messages", params={"channel": games, "viewer": "1"})
    assert stranger.status == 400 and "choose one" in (await stranger.json())["error"]
    nowhere = await m.client.get(
        "/api/messages", params={"channel": "1", "viewer": m.person("Bob")}
    )
    assert nowhere.status == 400
    not_json = await m.client.post("/api/slash", data="command=ping")
    assert not_json.status == 415
    broken = await m.client.post(
        "/api/slash", data="{", headers={"Content-Type": "application/json"}
    )
    assert broken.status == 400
    rebound = await m.client.get("/api/state", headers={"Host": "evil.example:80"})
    assert rebound.status == 403


async def test_ephemeral_replies_reach_only_their_person(m: Mini) -> None:
    games = m.channel("games")
    await slash(m, "Alice", "qdice start", seats=2)
    lobby = (await messages(m, games, m.person("Bob")))[-1]
    await post(m, "click", viewer=m.person("Bob"), message=lobby["id"], custom_id="lobby:peek")
    secret = (await messages(m, games, m.person("Bob")))[-1]
    assert secret["ephemeral"] and secret["content"] == "your secret, Bob"
    for other in ("Alice", "Carol", "Dave"):
        assert secret["id"] not in {x["id"] for x in await messages(m, games, m.person(other))}
    stolen = await post(
        m, "click", viewer=m.person("Carol"), message=secret["id"], custom_id="secret:reveal"
    )
    assert stolen["ok"] is False and "cannot see" in stolen["error"]
    await post(m, "click", viewer=m.person("Bob"), message=secret["id"], custom_id="secret:reveal")
    revealed = next(x for x in await messages(m, games, m.person("Bob")) if x["id"] == secret["id"])
    assert revealed["content"] == "revealed" and revealed["edited"]


async def test_images_are_served_only_to_who_may_see_them(m: Mini) -> None:
    room = m.fake.add_channel(m.world.guild, "alice-only")
    m.fake.set_permissions(room, m.world.guild.everyone, deny=P.VIEW_CHANNEL)
    m.fake.set_permissions(room, m.world.people[0], allow=P.VIEW_CHANNEL)
    m.fake.set_permissions(room, m.fake.bot_user, allow=P.VIEW_CHANNEL)
    alice, bob = m.person("Alice"), m.person("Bob")
    await post(m, "slash", viewer=alice, channel=str(room.id), command="picture", options={})
    (picture,) = await messages(m, str(room.id), alice)
    url = picture["embeds"][0]["image"]["url"]
    assert url == picture["attachments"][0]["url"] and picture["attachments"][0]["in_embed"]
    # Its size comes with it, so that the page makes room for it before it loads.
    assert (picture["embeds"][0]["image"]["width"], picture["embeds"][0]["image"]["height"]) == (
        8,
        6,
    )
    image = await m.client.get(url)
    assert image.status == 200 and image.content_type == "image/png"
    assert (await image.read()).startswith(PNG_SIGNATURE)
    assert await messages(m, str(room.id), bob) == []
    peeking = await m.client.get(url.replace(f"viewer={alice}", f"viewer={bob}"))
    assert peeking.status == 404


async def test_select_menus_send_the_chosen_value(m: Mini) -> None:
    games = m.channel("games")
    await slash(m, "Alice", "qdice start", seats=2)
    lobby = (await messages(m, games, m.person("Dave")))[-1]
    (menu,) = [c for row in lobby["components"] for c in row["components"] if c["type"] == 3]
    assert [o["value"] for o in menu["options"]] == ["fast", "slow"]
    chosen = await post(
        m,
        "select",
        viewer=m.person("Dave"),
        message=lobby["id"],
        custom_id=menu["custom_id"],
        values=["slow"],
    )
    assert chosen["ok"]
    reply = (await messages(m, games, m.person("Dave")))[-1]
    assert reply["ephemeral"] and reply["content"] == "mode slow"
    wrong = await post(
        m,
        "select",
        viewer=m.person("Dave"),
        message=lobby["id"],
        custom_id=menu["custom_id"],
        values=["warp"],
    )
    assert wrong["ok"] is False and "not options" in wrong["error"]


async def test_a_modal_opens_for_its_person_and_submits(m: Mini) -> None:
    opened = await slash(m, "Carol", "form")
    assert opened["ok"] and opened["type"] == 9
    modal = opened["modal"]
    assert modal["title"] == "Your name"
    assert [(f["label"], f["custom_id"]) for f in modal["fields"]] == [
        ("Name", "form:name"),
        ("Motto", "form:motto"),
    ]
    values = {"form:name": "Cee", "form:motto": ""}
    other = await post(m, "modal", viewer=m.person("Bob"), modal=modal["id"], values=values)
    assert other == {"ok": False, "error": "Only the person the form was shown to can submit it."}
    too_long = {"form:name": "x" * 21, "form:motto": ""}
    refused = await post(m, "modal", viewer=m.person("Carol"), modal=modal["id"], values=too_long)
    assert refused["ok"] is False and "length" in refused["error"]
    sent = await post(m, "modal", viewer=m.person("Carol"), modal=modal["id"], values=values)
    assert sent["ok"]
    assert (await messages(m, m.channel("games"), m.person("Dave")))[-1][
        "content"
    ] == "hello Cee ()"
    again = await post(m, "modal", viewer=m.person("Carol"), modal=modal["id"], values=values)
    assert again == {"ok": False, "error": "this modal was already submitted"}

    labelled = (await slash(m, "Carol", "bid"))["modal"]
    assert [f["label"] for f in labelled["fields"]] == ["Amount"]
    await post(
        m, "modal", viewer=m.person("Carol"), modal=labelled["id"], values={"bid:amount": "12"}
    )
    assert (await messages(m, m.channel("games"), m.person("Alice")))[-1]["content"] == "bid 12"


async def test_autocomplete_offers_the_bots_choices(m: Mini) -> None:
    answer = await post(
        m,
        "autocomplete",
        viewer=m.person("Alice"),
        channel=m.channel("games"),
        command="leaderboard",
        focused="game",
        options={"game": "q"},
    )
    assert answer["ok"] and [c["value"] for c in answer["choices"]] == ["qdice", "qpoker", "quarks"]


async def test_deferred_replies_and_layout_messages_arrive(m: Mini) -> None:
    games, dave = m.channel("games"), m.person("Dave")
    deferred = await slash(m, "Dave", "slowly", ephemeral="false")
    assert deferred == {"ok": True, "type": 5}
    contents = [x["content"] for x in await messages(m, games, dave)]
    assert contents[-2:] == ["done thinking", "and one more"]
    await slash(m, "Dave", "board")
    board = (await messages(m, games, dave))[-1]
    (container,) = board["components"]
    assert container["type"] == 17
    texts = [c.get("content") for c in container["components"] if c["type"] == 10]
    assert texts == ["## Board", "turn: alice"]


async def test_the_page_hears_of_every_change(m: Mini) -> None:
    async with m.client.ws_connect("/api/events") as ws:
        hello = await asyncio.wait_for(ws.receive_json(), 5)
        assert hello["type"] == "hello"
        await slash(m, "Bob", "ping")
        changed = await asyncio.wait_for(ws.receive_json(), 5)
        assert changed["type"] == "changed" and changed["revision"] > hello["revision"]


async def test_the_page_and_its_assets_are_served_safely(m: Mini) -> None:
    page = await m.client.get("/")
    assert page.status == 200 and "<title>Quantum Table sandbox</title>" in await page.text()
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    script = await m.client.get("/static/app.js")
    assert script.status == 200 and script.content_type == "text/javascript"
    assert (await m.client.get("/static/index.py")).status == 404


async def test_threads_the_bot_opens_are_listed_under_their_channel(m: Mini) -> None:
    await slash(m, "Alice", "discuss")
    channels = (await (await m.client.get("/api/state")).json())["channels"]
    names = [(c["name"], c["thread"]) for c in channels]
    at = names.index(("games", False))
    assert names[at + 1 : at + 3] == [("talk", True), ("side", True)]
    talk = channels[at + 1]
    assert talk["parent_id"] == m.channel("games")
    (first,) = await messages(m, talk["id"], m.person("Dave"))
    assert first["content"] == "first in thread"
