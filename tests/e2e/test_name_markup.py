"""Display names with markdown in them, end to end: escaped where Discord renders markdown
(message content, embed titles, descriptions and fields), as written where it shows text as
it is (embed footers and author lines, button labels, select menus, modal titles), with
mentions and addresses defused in both."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bot.sandbox.loopback import Channel, User
from bot.sandbox.loopback.models import walk_components
from bot.words.text import plain_text, safe_name
from tests.e2e import fingers_play, qpoker_play
from tests.e2e.conftest import World
from tests.e2e.seeding import open_game

BOLD = "**bold**_x_"
LOUD = "@everyone <@1> http://a.b"

MARKDOWN = ("content", "embed title", "embed description", "field name", "field value")
"""Where Discord renders markdown; every other text of a message or modal it shows as is."""


def texts(kind: str, payload: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Every text a person reads in a message body or modal the bot sent: (where, text)."""
    if kind == "modal":
        yield "modal title", str(payload.get("title") or "")
        for item in walk_components(payload.get("components") or []):
            for key in ("label", "placeholder"):
                if item.get(key):
                    yield f"modal {key}", str(item[key])
        return
    if payload.get("content"):
        yield "content", str(payload["content"])
    for embed in payload.get("embeds") or []:
        for key in ("title", "description"):
            if embed.get(key):
                yield f"embed {key}", str(embed[key])
        if (embed.get("footer") or {}).get("text"):
            yield "embed footer", str(embed["footer"]["text"])
        if (embed.get("author") or {}).get("name"):
            yield "embed author", str(embed["author"]["name"])
        for item in embed.get("fields") or []:
            yield "field name", str(item.get("name") or "")
            yield "field value", str(item.get("value") or "")
    for item in walk_components(payload.get("components") or []):
        if item.get("label"):
            yield "button label", str(item["label"])
        if item.get("placeholder"):
            yield "select placeholder", str(item["placeholder"])
        for option in item.get("options") or []:
            yield "option label", str(option.get("label") or "")
            if option.get("description"):
                yield "option description", str(option["description"])


async def _people(w: World) -> tuple[User, User]:
    bold, loud = w.fake.add_user(BOLD), w.fake.add_user(LOUD)
    for user in (bold, loud):
        w.fake.add_member(w.guild, user)
    return bold, loud


async def _play_fingers(w: World, room: Channel, bold: User, loud: User) -> None:
    message = await fingers_play.open_table(w.fake, room, bold, [loud, w.alice])
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    people = {u.id: u for u in (bold, loud, w.alice)}
    await fingers_play.play_to_the_end(w.fake, table, message, people)


async def _play_qpoker(w: World, room: Channel, bold: User, loud: User) -> None:
    options = {"rounds": 1, "chips": 8}
    message = await qpoker_play.open_table(w.fake, room, loud, [bold], options=options)
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    people = {bold.id: bold, loud.id: loud}
    await qpoker_play.play_to_the_end(w.fake, w.bot, table, message, people)


async def test_names_are_escaped_only_where_markdown_is_rendered(w: World) -> None:
    bold, loud = await _people(w)
    w.fake.outbox = []
    try:
        await _play_fingers(w, w.channel(), bold, loud)
        await _play_qpoker(w, w.channel(), bold, loud)
        room = w.channel()
        await open_game(w.fake, room, "flume", bold, [loud], ai=2)
        lobby = (await w.fake.slash(loud, "qdice start", channel=w.channel())).message
        assert lobby is not None
        await w.fake.click(bold, lobby, label="Join")
        await w.fake.slash(bold, "history", channel=room)
        await w.fake.slash(loud, "leaderboard", channel=room, options={"game": "fingers"})
        await w.fake.wait_idle()
        sent = list(w.fake.outbox)
    finally:
        w.fake.outbox = None
        await w.fake.slash(bold, "flume cancel", channel=room)

    seen: dict[tuple[str, str], int] = {}
    for kind, payload in sent:
        for where, text in texts(kind, payload):
            for raw in (BOLD, LOUD):
                escaped, shown = safe_name(raw), plain_text(safe_name(raw))
                if where in MARKDOWN:
                    wrong = [form for form in {raw, shown} - {escaped} if form in text]
                    found = "escaped" if escaped in text else None
                else:
                    wrong = [form for form in {raw, escaped} - {shown} if form in text]
                    found = "plain" if shown in text else None
                assert not wrong, f"{where} shows {wrong[0]!r} for {raw!r}: {text!r}"
                if found:
                    seen[(raw, where)] = seen.get((raw, where), 0) + 1
    # The walk covered the places people see names in.
    for raw in (BOLD, LOUD):
        for where in ("embed description", "embed footer", "option label", "select placeholder"):
            assert seen.get((raw, where)), f"{raw!r} never seen in a {where}: {sorted(seen)}"
    # Mentions and addresses stay defused in plain text too.
    assert "@everyone" not in plain_text(safe_name(LOUD))
    assert "<@1>" not in plain_text(safe_name(LOUD))
    assert "://" not in plain_text(safe_name(LOUD))
