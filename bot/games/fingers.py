"""How Quantum Fingers looks: a public table, and each decision in its player's private view.

Everything in the game is public (the table image shows finger counts, named flavours, books
and what is known of every hand), but the decisions reach only the player who must make them,
in their ephemeral view, and only with the consistent options. Asking for a flavour nobody has
named yet opens a modal for its name (select value ``?new:<player>``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from bot.engines.analysis import UNDECIDED, Analysis, MoveValue
from bot.engines.fingers import ai as fingers_ai
from bot.engines.fingers.engine import (
    NAME_LENGTH,
    FingersConfig,
    FingersEngine,
    FingersObservation,
    ask_actions,
)
from bot.games.coach import hint
from bot.render.fingers import holding_text, render_fingers
from bot.tables.protocols import GameAI, GameSpec
from bot.tables.views import ASK_TEXT, Control, Field, ModalSpec, Option, Panel
from bot.words import Words, t
from bot.words.events import Entry, GamePresenter

MAX_OPTIONS = 25  # Discord's limit per select menu
MAX_SELECTS = 4  # rows left for selects (the fifth holds nothing else, but stay safe)
_NEW = re.compile(r"^\?new:(\d+)$")


def flavour_name(obs: FingersObservation, flavour: int | None) -> str:
    if flavour is None:
        return "?"
    return obs.names[flavour] or t("fingers-flavour-number", number=flavour + 1)


def _who(names: Sequence[str], seat: int | None) -> str:
    return names[seat] if seat is not None and 0 <= seat < len(names) else t("fingers-nobody")


class FingersUI(GamePresenter):
    game = "fingers"

    def event_args(
        self,
        kind: str,
        seat: int | None,
        data: Mapping[str, Any],
        names: Sequence[str],
        words: Words,
    ) -> dict[str, Any]:
        """Seats named in an event's data (whom was asked, who asks next) as names."""
        return {
            key: _who(names, data[key])
            for key in ("target", "next", "asker")
            if isinstance(data.get(key), int)
        }

    def event_line(self, entry: Entry, names: Sequence[str], words: Words | None = None) -> str:
        """As :class:`GamePresenter`, but an entry saved while the engine still wrote its own
        sentences (with ``text``; its data lacks what the messages need) is shown as saved."""
        if isinstance(entry, Mapping) and entry.get("text"):
            return str(entry["text"]).format(**{f"p{i}": name for i, name in enumerate(names)})
        return super().event_line(entry, names, words)

    def table_image(
        self, observation: FingersObservation, names: list[str], log: list[str]
    ) -> Image.Image:
        return render_fingers(observation, names, log)

    def turn_text(self, observation: FingersObservation, names: list[str]) -> str:
        obs = observation
        if obs.phase == "over":
            return ""
        asker = _who(names, obs.current)
        if obs.phase == "answer":
            return t(
                "fingers-turn-answer",
                asker=asker,
                asked=_who(names, obs.asked),
                flavour=flavour_name(obs, obs.flavour),
            )
        if obs.phase == "book":
            return t("fingers-turn-book", asker=asker, flavour=flavour_name(obs, obs.flavour))
        return t("fingers-turn-ask", asker=asker, ask=obs.asks + 1, most=obs.max_asks)

    def public_controls(self, observation: FingersObservation, legal: list[str]) -> list[Control]:
        return []  # every decision is made in the player's own view

    def private_panel(
        self, observation: FingersObservation, legal: list[str], names: list[str]
    ) -> Panel:
        obs = observation
        seat = obs.seat if obs.seat is not None else 0
        books = ", ".join(flavour_name(obs, f) for f in obs.books[seat])
        fields = [
            Field(t("fingers-field-fingers"), str(obs.counts[seat])),
            Field(t("fingers-field-books"), books or t("fingers-field-books-none")),
            Field(t("fingers-field-hand"), self._hand_text(obs, seat), inline=False),
        ]
        if not legal:
            waiting = ", ".join(_who(names, s) for s in self._to_act(obs)) or t("fingers-nobody")
            text = t("fingers-panel-waiting", waiting=waiting)
            return Panel(title=t("fingers-panel-title"), description=text, fields=fields)
        if obs.phase == "answer":
            return self._answer_panel(obs, names, fields)
        if obs.phase == "book":
            return self._book_panel(obs, fields)
        return Panel(
            title=t("fingers-panel-ask-title"),
            description=t("fingers-panel-ask"),
            fields=fields,
            controls=self.ask_controls(obs, legal, names),
        )

    def modal(self, observation: FingersObservation, action: str) -> ModalSpec | None:
        match = _NEW.match(action)
        if match is None or f"new:{match[1]}" not in ask_actions(observation):
            return None
        return ModalSpec(
            title=t("fingers-modal-title"),
            label=t("fingers-modal-label"),
            max_length=NAME_LENGTH,
            placeholder=t("fingers-modal-placeholder"),
        )

    def options_text(self, config: FingersConfig) -> str:
        return t("fingers-options", fingers=config.per_flavour)

    def hint_text(
        self, observation: FingersObservation, analysis: Analysis, names: list[str]
    ) -> str:
        """The hard AI's ask, answer or book decision with what its look-ahead found (see
        :func:`bot.engines.fingers.search.hard_analysis`)."""
        return hint_text(observation, analysis, names)

    # Pieces -------------------------------------------------------------------------------

    @staticmethod
    def _to_act(obs: FingersObservation) -> list[int]:
        if obs.phase == "answer" and obs.asked is not None:
            return [obs.asked]
        return [] if obs.current is None or obs.phase == "over" else [obs.current]

    @staticmethod
    def _hand_text(obs: FingersObservation, seat: int) -> str:
        parts = []
        unnamed_done = False
        for f, name in enumerate(obs.names):
            if obs.remaining[f] == 0:
                continue
            if name is None:
                if unnamed_done:
                    continue
                unnamed_done = True
                count = sum(1 for n in obs.names if n is None)
                name = t("fingers-hand-unnamed", count=count)
            holding = holding_text(obs.lo[seat][f], obs.hi[seat][f])
            parts.append(t("fingers-hand-line", flavour=name, holding=holding))
        return "\n".join(parts) or t("fingers-hand-nothing")

    def _answer_panel(
        self, obs: FingersObservation, names: list[str], fields: list[Field]
    ) -> Panel:
        flavour = flavour_name(obs, obs.flavour)
        return Panel(
            title=t("fingers-panel-answer-title", asker=_who(names, obs.current), flavour=flavour),
            description=t("fingers-panel-answer", flavour=flavour),
            fields=fields,
            controls=[
                Control("yes", t("fingers-control-yes", flavour=flavour)[:80], "success", row=0),
                Control("no", t("fingers-control-no"), "danger", row=0),
            ],
        )

    def _book_panel(self, obs: FingersObservation, fields: list[Field]) -> Panel:
        flavour = flavour_name(obs, obs.flavour)
        return Panel(
            title=t("fingers-panel-book-title", flavour=flavour),
            description=t("fingers-panel-book", fingers=obs.per_flavour, flavour=flavour),
            fields=fields,
            controls=[
                Control("book", t("fingers-control-book"), "success", row=0),
                Control("keep", t("fingers-control-keep"), "secondary", row=0),
            ],
        )

    def ask_controls(
        self, obs: FingersObservation, legal: list[str], names: list[str]
    ) -> list[Control]:
        """Select menus of every consistent ask, one per player asked when they fit."""
        by_target: dict[int, list[Option]] = {}
        for action in legal:
            verb, target = action.split(":")[:2]
            q = int(target)
            label = move_text(obs, action, names)[:100]
            if verb == "ask":
                option = Option(label, action)
            else:
                option = Option(label, ASK_TEXT + action, emoji="✏️")
            by_target.setdefault(q, []).append(option)
        if len(by_target) <= MAX_SELECTS:
            return [
                Control(
                    f"pick{q}",
                    t("fingers-control-ask-menu", target=_who(names, q)),
                    row=row,
                    options=tuple(options),
                    placeholder=t("fingers-control-ask-menu", target=_who(names, q))[:150],
                )
                for row, (q, options) in enumerate(by_target.items())
            ]
        flat = [o for options in by_target.values() for o in options]
        chunks = [flat[i : i + MAX_OPTIONS] for i in range(0, len(flat), MAX_OPTIONS)]
        return [
            Control(
                f"pick{row}",
                t("fingers-control-ask-someone"),
                row=row,
                options=tuple(chunk),
                placeholder=t("fingers-control-ask-page", page=row + 1, pages=len(chunks)),
            )
            for row, chunk in enumerate(chunks[:MAX_SELECTS])
        ]


_MOVES = {
    "yes": "fingers-control-answer-yes",
    "no": "fingers-control-answer-no",
    "book": "fingers-control-book",
    "keep": "fingers-control-keep",
}


def move_text(obs: FingersObservation, move: str, names: list[str]) -> str:
    """A move in words: "Ask Bob for mint", "Answer yes", "Declare the book"."""
    verb, _, rest = move.partition(":")
    if verb == "ask":
        q, f = (int(x) for x in rest.split(":")[:2])
        return t("fingers-control-ask", target=_who(names, q), flavour=flavour_name(obs, f))
    if verb == "new":
        return t("fingers-control-ask-new", target=_who(names, int(rest.split(":")[0])))
    return t(_MOVES[move]) if move in _MOVES else move


def _outcome(value: float | None) -> str:
    """What a line comes to under careful play: ``win``, ``loss``, ``open`` (no result in
    sight) or ``none`` (not weighed)."""
    if value is None:
        return "none"
    if value > 0.5:
        return "win"
    if value < UNDECIDED / 2:
        return "loss"
    return "open"


ANSWERS = ("yes", "choice", "no")
"""How the player asked may answer the suggested ask (``answer`` in its detail)."""


def hint_text(obs: FingersObservation, analysis: Analysis, names: list[str]) -> str:
    """The hint in words (reasons of :func:`bot.engines.fingers.search.hard_analysis`)."""

    def name(move: str) -> str:
        return move_text(obs, move, names)

    def then(*sentences: str) -> str:
        return " ".join(s for s in sentences if s)

    best = analysis.best
    said = str(best.detail.get("answer", ""))
    answer = t("fingers-hint-answer", answer=said) if said in ANSWERS else ""
    if analysis.reason == "forced":
        return hint(analysis, name, t("fingers-hint-forced"))
    if analysis.kind == "rule":
        return hint(analysis, name, then(t("fingers-hint-rule"), answer))

    def figure(value: MoveValue) -> str:
        outcome = t("fingers-hint-outcome", outcome=_outcome(value.value))
        if value.detail.get("answer") == "yes":
            return t("fingers-hint-keeps-turn", outcome=outcome)
        return outcome

    depth = int(analysis.detail.get("depth", 1))
    outcome = _outcome(best.value)
    ahead = t(
        "fingers-hint-ahead",
        deep=depth > 1,
        depth=depth,
        outcome="open" if outcome == "none" else outcome,
    )
    why = then(ahead, answer)
    shown = [v for v in analysis.top(3) if "open" in v.detail]
    if len(shown) > 1 and outcome != "win":
        most = max(int(v.detail["open"]) for v in shown)
        if int(best.detail.get("open", -1)) == most:
            why = then(why, t("fingers-hint-open"))
    return hint(analysis, name, why, figure)


SPEC = GameSpec(
    engine=FingersEngine(),
    ui=FingersUI(),
    emoji="✋",
    ai=GameAI(decide=fingers_ai.decide, analyse=fingers_ai.analyse),
    blurb=t("fingers-blurb"),  # worded once, at import, in the default language
)
