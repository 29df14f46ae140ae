"""Checking the bot's text in the pseudo-locale (``LANGUAGE=en-XA``, issue 40).

In the pseudo-locale every catalogue message is English with each letter accented, about a
third longer, wrapped in ⟦ ⟧ (:mod:`bot.words.catalogue`). Text a person reads that still
holds plain English did not come from a catalogue: :func:`leaks` finds it once the things
that are rightly not worded (player names, numbers, emoji, mentions, card labels, symbols)
are taken out. :func:`texts` lists every text of a message or modal the bot sent,
:func:`over_limits` what exceeds Discord's limits, :class:`PictureText` the text drawn on
the games' pictures (and whether it stays inside them), and :class:`Pseudo` lets the
English play helpers (``tests/e2e/*_play.py``, which find buttons, menus and modal fields
by their English words) play in the pseudo-locale.
"""

from __future__ import annotations

import io
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from bot.render.common import DrawnText, recording_text
from bot.sandbox.loopback import InteractionResult, LoopbackDiscord, Message
from bot.sandbox.loopback.models import walk_components
from bot.tables.protocols import GameSpec
from bot.words import catalogue

# --- where text is, and how long it may be ------------------------------------------------

LIMITS = {
    "content": 2000,
    "embed title": 256,
    "embed description": 4096,
    "embed footer": 2048,
    "embed author": 256,
    "field name": 256,
    "field value": 1024,
    "button label": 80,
    "select placeholder": 150,
    "option label": 100,
    "option description": 100,
    "modal title": 45,
    "modal label": 45,
    "modal placeholder": 100,
    "thread name": 100,
    "custom_id": 100,
}
"""Discord's limit on each kind of text, in characters."""


def texts(kind: str, payload: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Every text of a message body or modal the bot sent: (where, text); custom_ids too."""
    components = payload.get("components") or []
    if kind == "modal":
        yield "modal title", str(payload.get("title") or "")
        if payload.get("custom_id"):
            yield "custom_id", str(payload["custom_id"])
        for item in walk_components(components):
            for key in ("label", "placeholder"):
                if item.get(key):
                    yield f"modal {key}", str(item[key])
            if item.get("custom_id"):
                yield "custom_id", str(item["custom_id"])
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
    for item in walk_components(components):
        if item.get("label"):
            yield "button label", str(item["label"])
        if item.get("placeholder"):
            yield "select placeholder", str(item["placeholder"])
        if item.get("custom_id"):
            yield "custom_id", str(item["custom_id"])
        for option in item.get("options") or []:
            yield "option label", str(option.get("label") or "")
            if option.get("description"):
                yield "option description", str(option["description"])


def over_limits(where: str, text: str) -> str | None:
    """What is wrong with the length of ``text`` shown as ``where`` (None: it fits)."""
    limit = LIMITS.get(where)
    if limit is not None and len(text) > limit:
        return f"{len(text)} characters, over the {limit} of a {where}"
    return None


# --- what is not worded, rightly ------------------------------------------------------------

_DISCORD = re.compile(r"</[^<>]+>|<(?:@[!&]?|#|a?:\w*:|t:)[^<>\s]*>")
"""Mentions, channels, custom emoji, timestamps and command mentions."""
_URL = re.compile(r"https?://\S+")
_COMMAND = re.compile(r"`/[a-z][a-z _-]*`")
"""A slash command's name in code (commands have English names: Discord's, not ours)."""
_ENGLISH = re.compile(r"[A-Za-z]{3,}")
"""Three or more unaccented ASCII letters in a row: English the pseudo-locale did not touch
(an accented message has none, whatever its length)."""


def leaks(text: str, names: Iterable[str]) -> list[str]:
    """The words of plain English left in ``text`` once the names (players', AI seats',
    anything people typed) and Discord's markup are taken out; [] when it all came from a
    catalogue."""
    rest = _DISCORD.sub(" ", text)
    rest = _URL.sub(" ", rest)
    rest = _COMMAND.sub(" ", rest)
    for name in sorted({n for n in names if n}, key=len, reverse=True):
        rest = rest.replace(name, " ")
    return _ENGLISH.findall(rest)


def seat_names(name: str) -> list[str]:
    """A seat's name and the person's or AI's own name in it ("Babbage (AI, easy)" gives
    "Babbage" too: what is in the brackets is the bot's words)."""
    return [name, name.partition(" (")[0]]


# --- playing with the English helpers ----------------------------------------------------

_PLAIN = {accented: letter for letter, accented in catalogue._ACCENTED.items()}


def plain(text: str) -> str:
    """Pseudo-localised text back to something comparable with its English: brackets off,
    accents off, repeated vowels (the lengthening) folded, lower case."""
    text = text.replace(catalogue.PSEUDO_OPEN, "").replace(catalogue.PSEUDO_CLOSE, "")
    text = "".join(_PLAIN.get(char, char) for char in text).lower()
    return re.sub(r"([aeiou])\1+", r"\1", text)


class Pseudo:
    """Lets the play helpers find controls by their English words while the bot speaks the
    pseudo-locale: ``label=``, ``placeholder=`` and modal field labels match their
    pseudo-localised forms (the click goes to that control's custom_id)."""

    def __init__(self, fake: LoopbackDiscord) -> None:
        self.fake = fake
        self._click, self._select, self._submit = fake.click, fake.select, fake.submit_modal

    def __enter__(self) -> Pseudo:
        self.fake.click = self.click  # type: ignore[method-assign]
        self.fake.select = self.select  # type: ignore[method-assign]
        self.fake.submit_modal = self.submit_modal  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        self.fake.click, self.fake.select = self._click, self._select  # type: ignore[method-assign]
        self.fake.submit_modal = self._submit  # type: ignore[method-assign]

    @staticmethod
    def _current(message: Message | int, fake: LoopbackDiscord) -> Message:
        return fake.get_message(message if isinstance(message, int) else message.id)

    async def click(
        self, user: Any, message: Message | int, *, label: str | None = None, **kw: Any
    ) -> InteractionResult:
        if label is not None and kw.get("custom_id") is None:
            msg = self._current(message, self.fake)
            found = [b for b in msg.buttons if b.label and plain(b.label) == plain(label)]
            if len(found) == 1 and found[0].custom_id:
                kw["custom_id"] = found[0].custom_id
                label = None
        return await self._click(user, message, label=label, **kw)

    async def select(
        self,
        user: Any,
        message: Message | int,
        values: list[Any],
        *,
        placeholder: str | None = None,
        **kw: Any,
    ) -> InteractionResult:
        if placeholder is not None and kw.get("custom_id") is None:
            msg = self._current(message, self.fake)
            found = [
                s
                for s in msg.selects
                if s.placeholder and plain(s.placeholder) == plain(placeholder)
            ]
            if len(found) == 1:
                kw["custom_id"] = found[0].custom_id
                placeholder = None
        return await self._select(user, message, values, placeholder=placeholder, **kw)

    async def submit_modal(
        self, user: Any, result: InteractionResult, values: dict[str, Any], **kw: Any
    ) -> InteractionResult:
        modal = result.modal
        if modal is not None:
            labels = [
                str(item.get("label"))
                for top in modal.components
                for item in (top, *(top.get("components") or []))
                if item.get("label")
            ]
            renamed = {}
            for key, value in values.items():
                same = [label for label in labels if plain(label) == plain(key)]
                renamed[same[0] if len(same) == 1 else key] = value
            values = renamed
        return await self._submit(user, result, values, **kw)


# --- text on pictures -----------------------------------------------------------------------


@dataclass
class Drawn:
    """One picture: where it was drawn, its size, and the text on it."""

    where: str
    size: tuple[int, int]
    texts: list[DrawnText]

    def outside(self) -> list[DrawnText]:
        """Text whose ink leaves the picture."""
        width, height = self.size
        return [
            t
            for t in self.texts
            if t.box[0] < 0 or t.box[1] < 0 or t.box[2] > width or t.box[3] > height
        ]


@dataclass
class PictureText:
    """Records the text of every picture the games' UIs draw (table pictures, and the
    pictures of people's own views), in whichever thread draws them."""

    games: dict[str, GameSpec]
    pictures: list[Drawn] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _undo: list[Callable[[], None]] = field(default_factory=list)

    def __enter__(self) -> PictureText:
        for name, spec in self.games.items():
            ui = spec.ui
            self._wrap(ui, "table_image", f"{name} table picture", self._image)
            self._wrap(ui, "private_panel", f"{name} own view picture", self._panel)
        return self

    def __exit__(self, *exc: object) -> None:
        for undo in reversed(self._undo):
            undo()
        self._undo.clear()

    def _wrap(
        self, ui: Any, method: str, where: str, size: Callable[[Any], tuple[int, int] | None]
    ) -> None:
        original = getattr(ui, method)
        had_own = method in vars(ui)

        def recorded(*args: Any, **kwargs: Any) -> Any:
            with recording_text() as drawn:
                result = original(*args, **kwargs)
            measured = size(result)
            if measured is not None:
                with self._lock:
                    self.pictures.append(Drawn(where, measured, list(drawn)))
            return result

        setattr(ui, method, recorded)
        self._undo.append(
            (lambda: setattr(ui, method, original)) if had_own else (lambda: delattr(ui, method))
        )

    @staticmethod
    def _image(result: Any) -> tuple[int, int] | None:
        return result.size if isinstance(result, Image.Image) else None

    @staticmethod
    def _panel(result: Any) -> tuple[int, int] | None:
        data = getattr(result, "image_png", None)
        if not data:
            return None
        with Image.open(io.BytesIO(data)) as image:
            return image.size
