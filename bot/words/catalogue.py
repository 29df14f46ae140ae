"""Message catalogues: Project Fluent files, one per concern per language, loaded once.

Why Fluent (``fluent.runtime``): a game sentence often depends on several arguments at once
("Alice rolls 3 dice and keeps none"), each with its own plural or choice. Fluent writes those
choices inside the message, per language, so a translator can add the cases their language
needs (Russian's three plural forms) without touching Python. gettext's ``ngettext`` chooses
on one number only. Babel supplies what Fluent leaves to the host: CLDR plural and ordinal
rules, number formatting and list joins (see :class:`bot.words.Words`).

Files live in ``bot/words/locales/<locale>/<concern>.ftl``. Message ids are namespaced by
concern (``qdice-bank``, ``table-joined``, ``error-not-your-turn``), so the files of one
language join into one bundle.

The pseudo-locale ``en-XA`` is English with every letter accented and each message about a
third longer, in brackets: text that shows up unaccented in it did not come from a catalogue,
and a layout that breaks in it breaks in a longer language.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from fluent.syntax import FluentParser, FluentSerializer, ast
from fluent.syntax.visitor import Transformer

LOCALES = Path(__file__).parent / "locales"
SOURCE = "en"
PSEUDO = "en-XA"

_ACCENTED = dict(
    zip(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "àƀçđéƒĝĥîĵķĺɱñöþǫŕšţûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĹṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
        strict=True,
    )
)
PSEUDO_OPEN, PSEUDO_CLOSE = "⟦", "⟧"
"""Brackets around each pseudo-localised message: a cut-off message shows a missing end."""


def accent(text: str) -> str:
    """``text`` with every ASCII letter accented (markdown, digits and punctuation kept)."""
    return "".join(_ACCENTED.get(char, char) for char in text)


def _lengthen(text: str) -> str:
    """About 35% more letters, spread after vowels, so every word stays readable."""
    out = []
    for index, char in enumerate(text):
        out.append(char)
        if char in "aeiouAEIOU" and index % 2 == 0:
            out.append(char.lower())
    return "".join(out)


class _Pseudo(Transformer):
    """Accents and lengthens the text of every message pattern, not its placeables."""

    def visit_TextElement(self, node: ast.TextElement) -> ast.TextElement:
        node.value = accent(_lengthen(node.value))
        return node

    def visit_Pattern(self, node: ast.Pattern) -> ast.Pattern:
        self.generic_visit(node)
        if node.elements:
            node.elements.insert(0, ast.TextElement(PSEUDO_OPEN))
            node.elements.append(ast.TextElement(PSEUDO_CLOSE))
        return node

    def visit_SelectExpression(self, node: ast.SelectExpression) -> ast.SelectExpression:
        # variants' own patterns are transformed, but without brackets of their own
        for variant in node.variants:
            for element in variant.value.elements:
                if isinstance(element, ast.TextElement):
                    element.value = accent(_lengthen(element.value))
                else:
                    self.visit(element)
        return node


def pseudo_source(source: str) -> str:
    """An English catalogue file turned into the pseudo-locale's."""
    resource = FluentParser(with_spans=False).parse(source)
    return FluentSerializer().serialize(_Pseudo().visit(resource))


def concerns() -> list[str]:
    """The catalogue files every language has (named after English's)."""
    return sorted(path.stem for path in (LOCALES / SOURCE).glob("*.ftl"))


@cache
def sources(locale: str) -> tuple[str, ...]:
    """The Fluent source text of every catalogue file of ``locale`` (English's for the
    pseudo-locale, transformed)."""
    if locale == PSEUDO:
        return tuple(pseudo_source(text) for text in sources(SOURCE))
    folder = LOCALES / locale
    return tuple(
        (folder / f"{name}.ftl").read_text(encoding="utf-8")
        for name in concerns()
        if (folder / f"{name}.ftl").exists()
    )


def available() -> list[str]:
    """Every locale with catalogues, the pseudo-locale included."""
    return sorted([path.name for path in LOCALES.iterdir() if path.is_dir()] + [PSEUDO])
