"""What a finished table says about places: ties read as ties, in words Discord keeps."""

from __future__ import annotations

import re

from bot.engines.base import Outcome, ordinal
from bot.tables.panels import standings_text


def test_ordinals() -> None:
    words = [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)]
    assert words == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st",
        "111th",
    ]  # fmt: skip


def test_tied_players_show_the_same_place_and_no_numbered_list() -> None:
    # Partners who won together, and the two who lost (Flume's four-handed game).
    outcome = Outcome(scores=[21, 9, 21, 9], ranks=[0, 1, 0, 1], winners=[0, 2])
    text = standings_text(outcome, ["Ada", "Bob", "Cy", "Di"])
    assert text.splitlines() == [
        "**1st=** Ada: 21 points",
        "**1st=** Cy: 21 points",
        "**2nd=** Bob: 9 points",
        "**2nd=** Di: 9 points",
    ]
    # Discord (and the sandbox page) renumber a markdown list "1. 1. 2. 2." as 1, 2, 3, 4.
    assert not re.search(r"^\s*\d+[.)] ", text, re.M)


def test_a_place_of_its_own_has_no_mark_and_a_lower_tie_is_marked() -> None:
    outcome = Outcome.from_scores([300, 1200, 300, 50])
    outcome = outcome.model_copy(update={"unit": "point"})
    lines = standings_text(outcome, ["Ada", "Bob", "Cy", "Di"]).splitlines()
    assert lines == [
        "**1st** Bob: 1,200 points",
        "**2nd=** Ada: 300 points",
        "**2nd=** Cy: 300 points",
        "**3rd** Di: 50 points",
    ]
    draw = Outcome(scores=[2, 2, 2], ranks=[0, 0, 0], winners=[], draw=True, unit="book")
    assert standings_text(draw, ["A", "B", "C"]).splitlines()[2] == "**1st=** C: 2 books"
