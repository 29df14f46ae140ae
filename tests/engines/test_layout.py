"""The engines' shape, checked on their source: pure, and each engine apart from its AI.

An engine may import the standard library, pydantic and the shared engine modules; never
Discord, storage, drawing or the bot's table core. The rules never reach for the AI either:
a game's spec (:mod:`bot.games`) pairs its engine with its AI.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINES = Path(__file__).resolve().parents[2] / "bot" / "engines"
GAMES = sorted(p.name for p in ENGINES.iterdir() if (p / "engine.py").is_file())
FORBIDDEN = (
    "discord",
    "aiosqlite",
    "asyncpg",
    "PIL",
    "bot.tables",
    "bot.storage",
    "bot.render",
    "bot.games",
    "bot.cogs",
    "bot.ui",
)
AI_MODULES = ("ai", "search", "sim", "winprob", "duel")


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at any depth (lazy imports in functions count too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_every_game_has_its_own_package() -> None:
    assert GAMES == ["fingers", "flume", "flux", "qdice", "qpoker"]


@pytest.mark.parametrize(
    "path", sorted(ENGINES.rglob("*.py")), ids=lambda p: str(p.relative_to(ENGINES))
)
def test_engine_code_imports_nothing_impure(path: Path) -> None:
    impure = {m for m in _imports(path) if m.split(".")[0] in FORBIDDEN or m.startswith(FORBIDDEN)}
    assert not impure, f"{path.name} imports {sorted(impure)}"


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_never_import_the_ai(game: str) -> None:
    rules = [p for p in (ENGINES / game).glob("*.py") if p.stem not in AI_MODULES]
    for path in rules:
        reached = {
            m
            for m in _imports(path)
            if any(
                m == f"bot.engines.{game}.{ai}" or m.startswith(f"bot.engines.{game}.{ai}.")
                for ai in AI_MODULES
            )
        }
        assert not reached, f"{game}/{path.name} imports {sorted(reached)}"
