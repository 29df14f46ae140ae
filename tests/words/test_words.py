"""The language layer: Fluent catalogues, Babel's numbers and lists, the pseudo-locale."""

from __future__ import annotations

import asyncio
import logging
import re

import pytest
from fluent.syntax import FluentParser, ast

from bot.engines.base import Event, GameError, IllegalAction
from bot.words import catalogue, current, error_text, using, words_for
from bot.words.events import GamePresenter


@pytest.fixture
def en():
    return words_for("en")


def test_ordinals_follow_cldr(en):
    got = [en.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112)]
    assert got == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th",
        "21st", "22nd", "23rd", "101st", "111th", "112th",
    ]  # fmt: skip


def test_lists_and_numbers_in_the_house_style(en):
    assert en.list([]) == ""
    assert en.list(["Ada"]) == "Ada"
    assert en.list(["Ada", "Bo"]) == "Ada and Bo"
    assert en.list(["Ada", "Bo", "Cy"]) == "Ada, Bo and Cy"
    assert en.list(["a", "b", "c"], "or") == "a, b or c"
    assert en.number(1234567) == "1,234,567"


def test_an_unknown_locale_is_english_and_a_missing_message_is_logged(en, caplog):
    assert words_for("xx-YY").locale == "en"
    with caplog.at_level(logging.ERROR, logger="bot.words"):
        assert en("no-such-message") == "no-such-message"
    assert "no-such-message" in caplog.text


def test_the_pseudo_locale_accents_every_letter_and_keeps_arguments():
    pseudo = words_for(catalogue.PSEUDO)
    text = pseudo.ordinal(3)
    assert text.startswith(catalogue.PSEUDO_OPEN) and text.endswith(catalogue.PSEUDO_CLOSE)
    assert "3" in text and not re.search("[A-Za-z]", text)
    joined = pseudo.list(["1", "2", "3"])  # the joining words are the language's too
    assert (
        joined.startswith("1, 2 ") and joined.endswith(" 3") and not re.search("[A-Za-z]", joined)
    )


def test_every_english_message_has_a_pseudo_twin_that_formats():
    """Each catalogue file parses without junk, and its pseudo form keeps every message, its
    attributes and its variables."""
    parser = FluentParser(with_spans=False)
    for source, pseudo in zip(
        catalogue.sources("en"), catalogue.sources(catalogue.PSEUDO), strict=True
    ):
        english = parser.parse(source)
        junk = [entry for entry in english.body if isinstance(entry, ast.Junk)]
        assert not junk, junk[0].content if junk else ""
        twin = parser.parse(pseudo)
        ids = [e.id.name for e in english.body if isinstance(e, ast.Message | ast.Term)]
        assert ids == [e.id.name for e in twin.body if isinstance(e, ast.Message | ast.Term)]
        variables = re.findall(r"\{\s*\$([\w-]+)", source)
        for name in variables:
            assert f"${name}" in pseudo


def test_errors_are_codes_worded_by_the_catalogue(en):
    error = IllegalAction("error-test-only", count=2)
    assert error.code == "error-test-only" and error.params == {"count": 2}
    assert "error-test-only" in str(error)
    legacy = GameError("A sentence from before the catalogues.")
    assert legacy.is_sentence and error_text(legacy) == "A sentence from before the catalogues."
    assert error_text(IllegalAction("ordinal", n=2), en) == "2nd"


def test_errors_cross_process_boundaries_whole():
    import pickle

    error = pickle.loads(pickle.dumps(IllegalAction("ordinal", n=4)))
    assert isinstance(error, IllegalAction) and error.params == {"n": 4}


class _Presenter(GamePresenter):
    game = "test"


def test_log_entries_are_worded_when_shown_and_old_sentences_stay():
    presenter = _Presenter()
    names = ["Ada", "Bo"]
    event = Event(kind="table-nothing", seat=1)
    assert event.entry() == {"kind": "table-nothing", "seat": 1}
    assert presenter.event_line("Ada banks 350.", names) == "Ada banks 350."
    # a transitional engine sentence is shown while the catalogue has no message for it
    legacy = Event(kind="said", seat=0, text="{p0} says hello to {p1}.")
    assert presenter.event_line(legacy.entry(), names) == "Ada says hello to Bo."


async def test_each_task_words_in_its_own_language():
    async def word(locale: str) -> str:
        with using(locale):
            await asyncio.sleep(0)
            return current().ordinal(1)

    english, pseudo = await asyncio.gather(word("en"), word(catalogue.PSEUDO))
    assert english == "1st" and pseudo != "1st" and "1" in pseudo
    assert current().locale == "en"


def test_a_table_with_a_player_count_its_game_cannot_take(en):
    from bot.engines.base import ConfigError
    from bot.engines.qdice.engine import QDiceEngine

    engine = QDiceEngine()
    with pytest.raises(ConfigError) as refused:
        engine.check_player_count(engine.max_players + 1)
    assert refused.value.code == "error-player-count"
    assert refused.value.params["count"] == engine.max_players + 1
    assert error_text(refused.value, en) == (
        f"Quantum dice needs {engine.min_players} to {engine.max_players} players,"
        f" not {engine.max_players + 1}."
    )
