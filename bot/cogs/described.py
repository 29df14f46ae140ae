"""Slash commands described from the catalogue (``bot/words/locales/<locale>/commands.ftl``).

Discord shows a command's description, and each option's, in the language of the person's
client where the bot gives one. Commands are registered once, in English (the source
language); each text carries its message id, so a translator of discord.py's
(``app_commands.Translator``) can give Discord the other languages from the same
catalogues.
"""

from __future__ import annotations

from typing import Any

from discord.app_commands import locale_str

from bot.words import catalogue, words_for


def described(message_id: str, attribute: str | None = None, /, **args: Any) -> locale_str:
    """The English text of message ``message_id`` (or its ``attribute``), with its id."""
    english = words_for(catalogue.SOURCE)
    if attribute is None:
        text = english(message_id, **args)
    else:
        text = english.attribute(message_id, attribute, **args)
    return locale_str(text, message_id=message_id, attribute=attribute, args=args)


def options(message_id: str, *names: str) -> dict[str, locale_str]:
    """``@app_commands.describe(**options("command-start-flux", "variants", "decks"))``:
    each option described by the attribute of its name."""
    return {name: described(message_id, name) for name in names}


def start_options(game: str, *own: str) -> dict[str, locale_str]:
    """The descriptions of ``/<game> start``'s options: the game's own and the shared ones
    (thread, hints, turn_minutes)."""
    return {
        **options(f"command-start-{game}", *own),
        **options("command-start", "thread", "hints", "turn_minutes"),
    }
