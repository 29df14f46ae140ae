"""Every word a player reads, in one language at a time.

Engines and the hosting core return data (events, error codes, outcomes); the presenters
(``bot.games`` for each game, ``bot.ui`` for the table) turn that data into sentences through
a :class:`Words`, which looks each sentence up in the message catalogues
(``bot/words/locales/<locale>/*.ftl``, see :mod:`bot.words.catalogue`).

Which language: the Discord side says whose words these are with :func:`using` (a person's
reply, a table's public message); everything worded inside reads :func:`current`. Outside
any :func:`using` the bot's default language applies (:func:`set_default`, from the
``LANGUAGE`` setting).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from decimal import Decimal
from functools import cache
from typing import Any, cast

from babel import Locale, UnknownLocaleError
from babel.numbers import format_decimal
from fluent.runtime import FluentBundle, FluentResource
from fluent.runtime.types import FluentType

from bot.words import catalogue

log = logging.getLogger(__name__)

Arg = str | int | float | Decimal
_LIST_OVERRIDES: dict[str, dict[str, dict[str, str]]] = {
    # The house style of English lists: no comma before the last "and" / "or".
    "en": {
        "standard": {"end": "{0} and {1}"},
        "or": {"end": "{0} or {1}"},
    },
}


def _fluent_value(value: Any) -> Arg:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float | Decimal | str):
        return value
    if value is None:
        return ""
    return str(value)


class Words:
    """The sentences of one language: ``words("qdice-bank", player="Alice", points=350)``."""

    def __init__(self, locale: str) -> None:
        self.locale = locale
        self._bundles = [self._bundle(locale)]
        if locale != catalogue.SOURCE:
            self._bundles.append(self._bundle(catalogue.SOURCE))
        base = catalogue.SOURCE if locale == catalogue.PSEUDO else locale
        try:
            self._babel = Locale.parse(base.replace("-", "_"))
        except (UnknownLocaleError, ValueError):
            self._babel = Locale.parse(catalogue.SOURCE)

    @staticmethod
    def _bundle(locale: str) -> FluentBundle:
        language = catalogue.SOURCE if locale == catalogue.PSEUDO else locale
        bundle = FluentBundle([language], use_isolating=False, functions={"ORDINAL": _ORDINAL})
        for source in catalogue.sources(locale):
            bundle.add_resource(FluentResource(source))
        return bundle

    def has(self, message_id: str) -> bool:
        return any(bundle.has_message(message_id) for bundle in self._bundles)

    def __call__(self, message_id: str, /, **args: Any) -> str:
        """The message ``message_id`` with ``args`` filled in. A message this language lacks
        comes in English; one no catalogue has is logged and shown as its id (a bug)."""
        values = {key: _fluent_value(value) for key, value in args.items()}
        for bundle in self._bundles:
            if not bundle.has_message(message_id):
                continue
            message = bundle.get_message(message_id)
            if message.value is None:
                break
            text, errors = bundle.format_pattern(message.value, values)
            if errors:
                log.error("Message %s (%s): %s", message_id, self.locale, errors)
            return str(text)
        log.error("No message %s in any catalogue (%s)", message_id, self.locale)
        return message_id

    def attribute(self, message_id: str, attribute: str, /, **args: Any) -> str:
        """A message's attribute (``.label``, ``.description``) with ``args`` filled in."""
        values = {key: _fluent_value(value) for key, value in args.items()}
        for bundle in self._bundles:
            if not bundle.has_message(message_id):
                continue
            pattern = bundle.get_message(message_id).attributes.get(attribute)
            if pattern is None:
                continue
            text, errors = bundle.format_pattern(pattern, values)
            if errors:
                log.error("Message %s.%s (%s): %s", message_id, attribute, self.locale, errors)
            return str(text)
        log.error("No message %s.%s in any catalogue (%s)", message_id, attribute, self.locale)
        return f"{message_id}.{attribute}"

    def number(self, value: int | float) -> str:
        """A number as this language writes it (1,000 in English, 1.000 in German)."""
        return format_decimal(value, locale=self._babel)

    def ordinal(self, value: int) -> str:
        """A place: 1st, 2nd, 3rd in English (CLDR's ordinal rules choose the form)."""
        return self("ordinal", n=value)

    def list(self, items: Iterable[str], style: str = "standard") -> str:
        """Items joined as this language joins them: "a, b and c" ("or" for a choice)."""
        items = [str(item) for item in items]
        if not items:
            return ""
        if len(items) == 1:
            return items[0]
        patterns = dict(
            self._babel.list_patterns.get(style) or self._babel.list_patterns["standard"]
        )
        patterns.update(_LIST_OVERRIDES.get(self._babel.language, {}).get(style, {}))
        if self.locale == catalogue.PSEUDO:  # its joining words are pseudo-localised too
            patterns = {key: catalogue.accent(str(value)) for key, value in patterns.items()}
        if len(items) == 2:
            return (
                str(patterns["2"]).format(*items)
                if "2" in patterns
                else patterns["end"].format(*items)
            )
        result = str(patterns["end"]).format(items[-2], items[-1])
        for item in reversed(items[1:-2]):
            result = str(patterns["middle"]).format(item, result)
        return str(patterns["start"]).format(items[0], result)

    def __repr__(self) -> str:
        return f"Words({self.locale!r})"


def _ordinal(value: Any) -> str:
    """Fluent function ``ORDINAL($n)``: the CLDR ordinal category of ``n`` in English
    (``one``, ``two``, ``few``, ``other``), for a message to choose its suffix by."""
    number = int(getattr(value, "value", value))
    return str(_ORDINAL_RULES(number))


_ORDINAL_RULES = Locale.parse(catalogue.SOURCE).ordinal_form
# Fluent types its functions as returning its own values; a plain string is what a selector
# compares with its variants' keys.
_ORDINAL = cast("Callable[[Any], FluentType]", _ordinal)


@cache
def words_for(locale: str) -> Words:
    """The :class:`Words` of ``locale`` (built once; English where no catalogue exists)."""
    if locale != catalogue.PSEUDO and not (catalogue.LOCALES / locale).is_dir():
        locale = catalogue.SOURCE
    return Words(locale)


_default: list[Words] = []
_current: ContextVar[Words | None] = ContextVar("words", default=None)


def set_default(locale: str) -> None:
    """The language of everything worded outside :func:`using` (the ``LANGUAGE`` setting)."""
    _default[:] = [words_for(locale)]


def current() -> Words:
    """The words of whoever is being answered now."""
    words = _current.get()
    if words is not None:
        return words
    return _default[0] if _default else words_for(catalogue.SOURCE)


@contextlib.contextmanager
def using(locale: str | Words) -> Iterator[Words]:
    """Word everything inside in ``locale``."""
    words = locale if isinstance(locale, Words) else words_for(locale)
    token = _current.set(words)
    try:
        yield words
    finally:
        _current.reset(token)


def t(message_id: str, /, **args: Any) -> str:
    """``current()(message_id, **args)``: the usual way a presenter words a sentence."""
    return current()(message_id, **args)


ErrorArgs = Callable[[str, dict[str, Any], Words], dict[str, Any]]
_error_args: dict[str, ErrorArgs] = {}


def error_arguments(prefix: str, word: ErrorArgs) -> None:
    """How the errors whose code starts with ``<prefix>-`` word the arguments a message can't
    take as they are (lists, nested data): a game's presenter registers ``word``, called with
    the code, the error's arguments and the words, returning arguments to add or replace."""
    _error_args[prefix] = word


def error_text(error: Any, words: Words | None = None) -> str:
    """A :class:`bot.engines.base.GameError` as a player reads it."""
    if error.is_sentence:
        return str(error.code)
    words = words or current()
    args = dict(error.params)
    word = _error_args.get(str(error.code).partition("-")[0])
    if word is not None:
        args.update(word(error.code, dict(error.params), words))
    return words(error.code, **args)
