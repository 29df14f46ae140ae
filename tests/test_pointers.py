"""Where the bot points people to a command, the command is spelled as they type it."""

from __future__ import annotations

import re
from pathlib import Path

from bot.games import all_games

ROOT = Path(__file__).resolve().parents[1]
RULES = re.compile(r"/rules(?P<rest>[ \t]+[^\s`)\"',.;]+)")


def _texts() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    files += sorted((ROOT / "bot").rglob("*.py"))
    return [f for f in files if "sandbox" not in f.parts]


def test_every_pointer_to_the_rules_names_the_game_as_the_command_takes_it() -> None:
    titles = {spec.title for spec in all_games().values()}
    wrong = []
    for path in _texts():
        for match in RULES.finditer(path.read_text(encoding="utf-8")):
            rest = match["rest"].strip()
            if not rest.startswith("game:") or rest.removeprefix("game:") not in titles:
                wrong.append(f"{path.relative_to(ROOT)}: {match.group(0)!r}")
    assert not wrong, wrong
