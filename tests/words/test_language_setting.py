"""The LANGUAGE setting: English unless set, one of the catalogues' languages (or the
pseudo-locale), and the language the bot words everything in once it is made."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import words
from bot.client import QuantumTableBot
from bot.config import ConfigurationError, load_settings
from bot.words import catalogue


@pytest.fixture
def english_after() -> Iterator[None]:
    yield
    words.set_default(catalogue.SOURCE)  # the default is process-wide: leave it English


def test_english_unless_set() -> None:
    assert load_settings(_env_file=None).language == "en"
    assert load_settings(_env_file=None, language="  ").language == "en"


def test_only_a_language_with_catalogues() -> None:
    assert load_settings(_env_file=None, language="en-XA").language == "en-XA"
    with pytest.raises(ConfigurationError, match=r"LANGUAGE: must be one of en, en-XA"):
        load_settings(_env_file=None, language="xx")


def test_the_bot_words_in_its_language(tmp_path: Path, english_after: None) -> None:
    settings = load_settings(_env_file=None, database_path=tmp_path / "b.db", language="en-XA")
    QuantumTableBot(settings)
    assert words.current().locale == "en-XA"
    assert words.current().ordinal(3) == "⟦3ŕđ⟧"
    QuantumTableBot(load_settings(_env_file=None, database_path=tmp_path / "b.db"))
    assert words.current().locale == "en"
    assert words.current().ordinal(3) == "3rd"
