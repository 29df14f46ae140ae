"""Hints: the table option ``hints``, the Hint button in a seat's private view, and the hint
itself in that view.

With ``hints`` on (the host's choice when opening the table; off by default), a person whose
move it is finds **Hint** in their own view (My hand). It asks the game's hard AI to decide
from that person's observation, in the AI workers and within the AI budget (see
:meth:`~bot.tables.thinking.Thinker.analyse`), with the random source the AI would have for
that seat and moment: the hint's move is the hard AI's. The game's presentation words it
(:class:`~bot.tables.protocols.CoachUI`). A hint only ever appears in the private reply of the
person who asked; the table counts how many each seat asked for, and says so when the game
is over.

Pure functions of a table; the asking and the counting are in
:meth:`bot.tables.manager.TableManager.hint`.
"""

from __future__ import annotations

import dataclasses

from bot.engines.analysis import Analysis
from bot.engines.base import plural
from bot.tables.table import Table
from bot.tables.views import HINT, HINT_LABEL, Control, Field, Panel

HINTS = "hints"
"""The table option's key in a game's stored config (next to ``turn_timeout``)."""
USED = "hints_used"
"""Stored config key: hints asked for per seat (seat number as text -> count)."""
ROWS = 5
PER_ROW = 5  # Discord's limits: five rows of five buttons, or one select menu a row


def hints_on(table: Table) -> bool:
    """Whether people at this table may ask for hints (the option is on and the game has an
    AI that analyses and words its analysis)."""
    spec = table.spec
    return (
        bool(table.record.config.get(HINTS))
        and spec.ai is not None
        and spec.ai.analyse is not None
        and hasattr(spec.ui, "hint_text")
    )


def offer(panel: Panel, table: Table, legal: list[str]) -> None:
    """Add the Hint button to a seat's private view when it has a move to make and hints
    are on (in the lowest row with room; left out if no row has any)."""
    if not legal or not hints_on(table):
        return
    row = _free_row(panel.controls)
    if row is not None:
        panel.controls.append(Control(HINT, HINT_LABEL, "primary", row=row, emoji="💡"))


def _free_row(controls: list[Control]) -> int | None:
    used = [0] * ROWS
    for control in controls:
        if control.row is None:
            return None  # placed by Discord: leave the layout alone
        used[control.row] += PER_ROW if control.is_select else 1
    return next((r for r in reversed(range(ROWS)) if used[r] < PER_ROW), None)


def with_hint(panel: Panel, text: str | None) -> Panel:
    """``panel`` (a private view) with the hint under it and its Hint button spent; a copy,
    since drawn views are shared. ``text`` None: no hint could be worked out."""
    shown = text or (
        "I couldn't work out a hint in time just now. Press **Hint** again in a moment."
    )
    controls = [
        dataclasses.replace(c, disabled=text is not None) if c.action == HINT else c
        for c in panel.controls
    ]
    return dataclasses.replace(
        panel,
        fields=[*panel.fields, Field("💡 Hint", shown[:1024], inline=False)],
        controls=controls,
    )


def hint_text(table: Table, observation: object, analysis: Analysis) -> str:
    """The hint in the game's words."""
    coach = table.spec.ui
    return coach.hint_text(observation, analysis, list(table.names))  # type: ignore[attr-defined]


def options_line(table: Table) -> str:
    """How the lobby states the option."""
    if hints_on(table):
        return "Hints: on (on your move, **Hint** in your own view shows the hard AI's move)"
    return "Hints: off"


def results_field(table: Table) -> Field | None:
    """How the finished table says hints were on, and who asked for how many."""
    if not table.record.config.get(HINTS):
        return None
    used = table.record.config.get(USED) or {}
    asked = [
        f"{table.names[int(seat)]} {plural(int(count), 'time')}"
        for seat, count in sorted(used.items(), key=lambda item: int(item[0]))
        if int(seat) < len(table.names) and int(count)
    ]
    said = "asked by " + ", ".join(asked) if asked else "nobody asked for one"
    return Field("Hints", f"On: {said}.", inline=False)


def count_used(config: dict[str, object], seat: int) -> dict[str, object]:
    """``config`` with one more hint counted for ``seat`` (a new dict)."""
    used = dict(config.get(USED) or {})  # type: ignore[call-overload]
    used[str(seat)] = int(used.get(str(seat), 0)) + 1
    return {**config, USED: used}
