"""Text that people type (display names, names they give things), made safe to show.

Discord renders markdown in messages and embeds: a display name like ``[win](https://…)``
would become a clickable link under the bot's name, ``**`` or ``||`` would restyle the text
around it, and a bare ``https://`` address turns into a link by itself. So:

* a person's display name is made *safe* once, where it enters the bot (:func:`safe_name`):
  shortened, markdown escaped, addresses defused. The stored seat name is that safe form,
  so every message and embed that shows it is safe without thinking about it; pictures
  undo the escaping (:func:`unescape`), since they render no markdown, and so do the
  places of a message where Discord shows text as it is (embed footers and author lines,
  button labels, select options, modal titles: :func:`plain_text`), which keep addresses
  and mentions defused;
* names people type for the game itself (a Fingers flavour) are *refused* when they carry
  markdown or an address (:func:`check_typed`), with a reply that says why.
"""

from __future__ import annotations

import re
import unicodedata

from bot.engines.base import GameError

NAME_LIMIT = 32
"""Characters of a display name kept for a seat (Discord allows 32)."""

_LINK = "://"
_DEFUSED_LINK = ":\u2060//"  # a word joiner: invisible, and no longer an address
_MARKDOWN = "\\*_~`|>[]()#<@-"
"""Characters Discord's markdown may give a meaning (a backslash before each shows it as is)."""
_ESCAPE = re.compile("([" + re.escape(_MARKDOWN) + "])")
_ESCAPED = re.compile("\\\\([" + re.escape(_MARKDOWN) + "])")
_TYPED_REFUSED = set("*_~`|>[]()#<@\\")


def plain(text: str, limit: int = NAME_LIMIT) -> str:
    """``text`` on one line: controls dropped, whitespace runs made one space, cut to
    ``limit`` characters."""
    out = []
    for char in unicodedata.normalize("NFC", text):
        category = unicodedata.category(char)
        if char.isspace() or category == "Zs":
            out.append(" ")
        elif category[0] != "C":
            out.append(char)
    return " ".join("".join(out).split())[:limit]


def safe_name(display_name: str, fallback: str = "Player") -> str:
    """A display name as it may appear in any message or embed: markdown escaped, addresses
    and mentions defused (``fallback`` when nothing is left)."""
    name = _ESCAPE.sub(r"\\\1", plain(display_name) or fallback)
    return name.replace(_LINK, _DEFUSED_LINK)


def unescape(text: str) -> str:
    """What :func:`safe_name` escaped, as people read it (for pictures, which draw no
    markdown)."""
    return _ESCAPED.sub(r"\1", text).replace(_DEFUSED_LINK, _LINK)


_MENTION_START = re.compile(r"@(?=everyone|here)|<(?=[@#:/]|a:|t:)", re.IGNORECASE)


def plain_text(text: str) -> str:
    """Text holding safe names (:func:`safe_name`) for a place where Discord renders no
    markdown (an embed's footer or author line, a button's label, a select option, a modal's
    title): the backslashes of the escapes are gone, so ``**bold**`` reads as its person
    wrote it, while an address stays defused and a mention (``@everyone``, ``<@id>``) is
    broken by an invisible word joiner. Text without escapes passes unchanged."""
    text = _ESCAPED.sub(r"\1", text)
    return _MENTION_START.sub(lambda start: start[0] + "\u2060", text)


def check_typed(text: str, what: str, *, limit: int) -> str:
    """Text a person typed for the game (``what`` says what it names), trimmed; a
    :class:`GameError` that says why when it is too long or carries markdown or an address."""
    cleaned = " ".join(text.split())
    if not cleaned:
        raise GameError(f"The {what} can't be empty.")
    if len(cleaned) > limit:
        raise GameError(f"The {what} can be at most {limit} characters long.")
    if any(unicodedata.category(c)[0] == "C" for c in cleaned):
        raise GameError(f"The {what} can't contain control characters.")
    found = sorted({c for c in cleaned if c in _TYPED_REFUSED})
    if found:
        shown = " ".join(f"`{c}`" if c != "`" else "a backtick" for c in found)
        raise GameError(
            f"The {what} can't contain formatting characters ({shown}): use letters, "
            "digits, spaces and simple punctuation."
        )
    if _LINK in cleaned or re.search(r"\b(?:www\.|discord\.gg/)", cleaned, re.I):
        raise GameError(f"The {what} can't be a web address.")
    return cleaned
