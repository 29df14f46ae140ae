"""How Quantum Fingers looks: a public table, and each decision in its player's private view.

Everything in the game is public (the table image shows finger counts, named flavours, books
and what is known of every hand), but the decisions reach only the player who must make them,
in their ephemeral view, and only with the consistent options. Asking for a flavour nobody has
named yet opens a modal for its name (select value ``?new:<player>``).
"""

from __future__ import annotations

import re

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
from bot.words.events import GamePresenter

MAX_OPTIONS = 25  # Discord's limit per select menu
MAX_SELECTS = 4  # rows left for selects (the fifth holds nothing else, but stay safe)
_NEW = re.compile(r"^\?new:(\d+)$")


def flavour_name(obs: FingersObservation, flavour: int | None) -> str:
    if flavour is None:
        return "?"
    return obs.names[flavour] or f"flavour {flavour + 1}"


def _who(names: list[str], seat: int | None) -> str:
    return names[seat] if seat is not None and 0 <= seat < len(names) else "nobody"


class FingersUI(GamePresenter):
    game = "fingers"

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
            return (
                f"**{asker}** asked **{_who(names, obs.asked)}** for "
                f"{flavour_name(obs, obs.flavour)}: both answers are still consistent, so "
                f"{_who(names, obs.asked)} chooses (press **My hand**)."
            )
        if obs.phase == "book":
            return (
                f"**{asker}** may hold every {flavour_name(obs, obs.flavour)}: they decide whether "
                "to declare a book (press **My hand**)."
            )
        return (
            f"**{asker}** to ask (press **My hand**) · ask {obs.asks + 1} of at most {obs.max_asks}"
        )

    def public_controls(self, observation: FingersObservation, legal: list[str]) -> list[Control]:
        return []  # every decision is made in the player's own view

    def private_panel(
        self, observation: FingersObservation, legal: list[str], names: list[str]
    ) -> Panel:
        obs = observation
        seat = obs.seat if obs.seat is not None else 0
        fields = [
            Field("Your fingers", str(obs.counts[seat])),
            Field("Your books", ", ".join(flavour_name(obs, f) for f in obs.books[seat]) or "none"),
            Field("What your hand may hold", self._hand_text(obs, seat), inline=False),
        ]
        if not legal:
            waiting = ", ".join(_who(names, s) for s in self._to_act(obs)) or "nobody"
            text = f"Waiting for **{waiting}**. Everything is public: watch the table."
            return Panel(title="Your hand", description=text, fields=fields)
        if obs.phase == "answer":
            return self._answer_panel(obs, names, fields)
        if obs.phase == "book":
            return self._book_panel(obs, fields)
        return Panel(
            title="Your turn: ask someone",
            description=(
                "Pick whom to ask and for which flavour. You may only ask for a flavour you "
                "could still hold; a new flavour is named by you. A yes gives you another ask; "
                "a no passes the turn on."
            ),
            fields=fields,
            controls=self.ask_controls(obs, legal, names),
        )

    def modal(self, observation: FingersObservation, action: str) -> ModalSpec | None:
        match = _NEW.match(action)
        if match is None or f"new:{match[1]}" not in ask_actions(observation):
            return None
        return ModalSpec(
            title="Name a new flavour",
            label="Flavour name",
            max_length=NAME_LENGTH,
            placeholder="juniper berries",
        )

    def options_text(self, config: FingersConfig) -> str:
        k = config.per_flavour
        return f"One flavour per player, {k} fingers of each; everyone starts with {k} fingers."

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
                name = f"each unnamed flavour ({count})"
            parts.append(f"{name}: {holding_text(obs.lo[seat][f], obs.hi[seat][f])}")
        return "\n".join(parts) or "nothing"

    def _answer_panel(
        self, obs: FingersObservation, names: list[str], fields: list[Field]
    ) -> Panel:
        flavour = flavour_name(obs, obs.flavour)
        return Panel(
            title=f"{_who(names, obs.current)} asks you for {flavour}",
            description=(
                "Both answers fit some consistent deal, so it is your choice. **Yes** hands "
                f"over one finger of {flavour} and lets them ask again; **No** commits you to "
                "holding none and passes the turn on."
            ),
            fields=fields,
            controls=[
                Control("yes", f"Yes, hand over {flavour}"[:80], "success", row=0),
                Control("no", "No, I have none", "danger", row=0),
            ],
        )

    def _book_panel(self, obs: FingersObservation, fields: list[Field]) -> Panel:
        flavour = flavour_name(obs, obs.flavour)
        return Panel(
            title=f"A book of {flavour}?",
            description=(
                f"You may hold all {obs.per_flavour} {flavour}, but you need not. **Declare** "
                "puts them down as a book; **Keep** commits you to not holding them all."
            ),
            fields=fields,
            controls=[
                Control("book", "Declare the book", "success", row=0),
                Control("keep", "Keep them", "secondary", row=0),
            ],
        )

    def ask_controls(
        self, obs: FingersObservation, legal: list[str], names: list[str]
    ) -> list[Control]:
        """Select menus of every consistent ask, one per player asked when they fit."""
        by_target: dict[int, list[Option]] = {}
        for action in legal:
            verb, target, *rest = action.split(":")
            q = int(target)
            if verb == "ask":
                label = f"Ask {_who(names, q)} for {flavour_name(obs, int(rest[0]))}"
                option = Option(label[:100], action)
            else:
                label = f"Ask {_who(names, q)} for a new flavour (you name it)"
                option = Option(label[:100], ASK_TEXT + action, emoji="✏️")
            by_target.setdefault(q, []).append(option)
        if len(by_target) <= MAX_SELECTS:
            return [
                Control(
                    f"pick{q}",
                    f"Ask {_who(names, q)} for…",
                    row=row,
                    options=tuple(options),
                    placeholder=f"Ask {_who(names, q)} for…"[:150],
                )
                for row, (q, options) in enumerate(by_target.items())
            ]
        flat = [o for options in by_target.values() for o in options]
        chunks = [flat[i : i + MAX_OPTIONS] for i in range(0, len(flat), MAX_OPTIONS)]
        return [
            Control(
                f"pick{row}",
                "Ask someone…",
                row=row,
                options=tuple(chunk),
                placeholder=f"Ask someone… ({row + 1}/{len(chunks)})",
            )
            for row, chunk in enumerate(chunks[:MAX_SELECTS])
        ]


def move_text(obs: FingersObservation, move: str, names: list[str]) -> str:
    """A move in words: "Ask Bob for mint", "Answer yes", "Declare the book"."""
    verb, _, rest = move.partition(":")
    if verb == "ask":
        q, f = (int(x) for x in rest.split(":")[:2])
        return f"Ask {_who(names, q)} for {flavour_name(obs, f)}"
    if verb == "new":
        return f"Ask {_who(names, int(rest.split(':')[0]))} for a new flavour (you name it)"
    return {
        "yes": "Answer yes",
        "no": "Answer no",
        "book": "Declare the book",
        "keep": "Keep them",
    }.get(move, move)


def _outcome(value: float | None) -> str:
    """What a line comes to under careful play: a win, a loss, or no result in sight."""
    if value is None:
        return "not weighed"
    if value > 0.5:
        return "a win"
    if value < UNDECIDED / 2:
        return "a loss"
    return "no result in sight"


ANSWERS = {
    "yes": " They have to say yes, so you keep the turn.",
    "choice": " They may answer either way.",
    "no": " They have to say no, so the turn passes on.",
}


def hint_text(obs: FingersObservation, analysis: Analysis, names: list[str]) -> str:
    """The hint in words (reasons of :func:`bot.engines.fingers.search.hard_analysis`)."""

    def name(move: str) -> str:
        return move_text(obs, move, names)

    best = analysis.best
    answer = ANSWERS.get(str(best.detail.get("answer", "")), "")
    if analysis.reason == "forced":
        why = (
            "That starts a forced win: whatever anyone answers, you can empty your hand on "
            "this turn."
        )
        return hint(analysis, name, why)
    if analysis.kind == "rule":
        return hint(
            analysis,
            name,
            "There was no time to look ahead: this is a careful " + "player's move." + answer,
        )

    def figure(value: MoveValue) -> str:
        said = _outcome(value.value)
        if value.detail.get("answer") == "yes":
            said += ", you keep the turn"
        return said

    depth = int(analysis.detail.get("depth", 1))
    ahead = "Playing the game out" if depth <= 1 else f"Looking {depth} of your moves ahead"
    ahead += " with everyone else playing carefully"
    outcome = _outcome(best.value)
    if outcome == "a win":
        why = f"{ahead}, this leads to your win."
    elif outcome == "a loss":
        why = f"{ahead}, every move loses in the end; this one holds out the longest."
    else:
        why = f"{ahead}, no move forces a result yet."
    why += answer
    shown = [v for v in analysis.top(3) if "open" in v.detail]
    if len(shown) > 1 and outcome != "a win":
        most = max(int(v.detail["open"]) for v in shown)
        if int(best.detail.get("open", -1)) == most:
            why += (
                " It also leaves the most about every hand undetermined, so nobody can plan a "
                "forced win against you yet."
            )
    return hint(analysis, name, why, figure)


SPEC = GameSpec(
    engine=FingersEngine(),
    ui=FingersUI(),
    emoji="✋",
    ai=GameAI(decide=fingers_ai.decide, analyse=fingers_ai.analyse),
    blurb="Go Fish with no cards: only fingers, and a history that must stay consistent.",
)
