"""How QuantumPoker looks at the table: a public picture, and moves chosen in private menus.

Nothing goes on the public message but the core's buttons: a player's own qubit values are
secret, so every choice is made in the player's private panel (My hand). The panel offers a
select of the community cards; once a card is picked (``pick:X``, kept by the engine as the
player's pending choice) a second select lists its targets, whose values are complete moves
(``X:2``, ``CX:1.3``). SWAP takes one more step: first your own qubit (``pick:SWAP:2``), then
theirs (``SWAP:2:1.3``). Calling measurement is a button.
"""

from __future__ import annotations

from PIL import Image

from bot.engines.analysis import Analysis, MoveValue
from bot.engines.base import plural
from bot.engines.qpoker import ai as qpoker_ai
from bot.engines.qpoker.engine import (
    CARD_NAMES,
    CARDS,
    QUBITS,
    QPokerConfig,
    QPokerEngine,
    QPokerObservation,
    QubitView,
)
from bot.games.coach import hint, noise_note, percent, sampled, signed, trade_off_note
from bot.render.qpoker import render_qpoker, render_qpoker_png
from bot.tables.protocols import GameAI, GameSpec
from bot.tables.views import Control, Field, Option, Panel
from bot.words.events import GamePresenter

CARD_HELP: dict[str, str] = {
    "X": "Flip one of your qubits (no effect in superposition)",
    "Y": "Flip one of your qubits and show it, or hide it if shown",
    "Z": "Double the bet on one of your qubits (one chip), or halve it back",
    "H": "Put one of your qubits in superposition, or collapse it by a coin",
    "CX": "Flip a qubit of another player",
    "SWAP": "Trade one of your qubits for another player's",
}


def describe(view: QubitView) -> str:
    """A qubit in a few words, as its viewer knows it."""
    if view.superposed:
        parts = ["in superposition"]
    elif view.value is None:
        parts = ["face down"]
    else:
        parts = [f"reads {view.value}"]
    if view.superposed or view.value is not None:
        parts.append("shown" if view.shown else "face down")
    if view.doubled:
        parts.append("bet doubled")
    return ", ".join(parts)


def _bit(view: QubitView) -> str:
    if view.superposed:
        return "0+1"
    return "?" if view.value is None else str(view.value)


def _revealed_bit(view: QubitView) -> str:
    """A qubit once every card is turned: its value, and how it lay during play."""
    notes = [] if view.superposed else ["shown" if view.shown else "face down"]
    if view.doubled:
        notes.append("bet doubled")
    return _bit(view) + (f" ({', '.join(notes)})" if notes else "")


class QPokerUI(GamePresenter):
    game = "qpoker"

    def table_image(
        self, observation: QPokerObservation, names: list[str], log: list[str]
    ) -> Image.Image:
        return render_qpoker(observation, names, log)

    def turn_text(self, observation: QPokerObservation, names: list[str]) -> str:
        obs = observation
        if obs.current is None:
            return ""
        who = names[obs.current]
        parts = [f"Round {obs.round} of {obs.rounds}", f"**{who}** to take a card"]
        if obs.called_by is not None:
            parts.append(f"{names[obs.called_by]} called measurement: last turns")
        parts.append(f"pot {obs.pot}")
        return " · ".join(parts) + "\nPress **My hand** to see your qubits and choose your card."

    def public_controls(self, observation: QPokerObservation, legal: list[str]) -> list[Control]:
        return []  # every choice involves your own secret qubits: it is made in private

    def private_panel(
        self, observation: QPokerObservation, legal: list[str], names: list[str]
    ) -> Panel:
        obs = observation
        seat = obs.seat if obs.seat is not None else 0
        mine = obs.qubits[seat]
        lines = [f"**Qubit {i + 1}**: {describe(view)}" for i, view in enumerate(mine)] or [
            "You are out of the match: no qubits this round."
        ]
        fields = [
            Field("Your qubits", "\n".join(lines), inline=False),
            Field("Your chips", f"{obs.chips[seat]} in hand"),
            Field("Pot", str(obs.pot)),
        ]
        if legal:
            text = "It's your turn: pick a community card, then where to apply it."
            if obs.called_by is not None:
                text += f" {names[obs.called_by]} called measurement; this is your last turn."
            elif obs.calling and "call" not in legal:
                text += (
                    " Calling measurement is closed: fewer community cards are left than other "
                    "players, and a call owes each of them one last turn."
                )
            controls = self._controls(obs, legal, names)
        else:
            who = names[obs.current] if obs.current is not None else "nobody"
            text = f"Waiting for **{who}**." if obs.current is not None else "The match is over."
            # A disabled status button: the panel always carries a view (the core's first
            # send of a private panel cannot take a message without components).
            label = f"Waiting for {who}"[:80] if obs.current is not None else "Match over"
            controls = [Control("wait", label, disabled=True, row=4)]
        image = render_qpoker_png(obs, names, None)
        return Panel(
            title="Your qubits",
            description=text,
            fields=fields,
            controls=controls,
            image_png=image,
            image_name="my-qubits.png",
        )

    def _controls(
        self, obs: QPokerObservation, legal: list[str], names: list[str]
    ) -> list[Control]:
        seat = obs.seat if obs.seat is not None else 0
        pending = obs.pending or ""
        card = pending.partition(":")[0]
        cards = [c for c in CARDS if f"pick:{c}" in legal]
        controls = [
            Control(
                "pick",
                "Pick a community card",
                row=0,
                placeholder="Pick a community card",
                options=tuple(
                    Option(
                        label=f"{CARD_NAMES[c]} ×{obs.community.count(c)}"
                        if obs.community.count(c) > 1
                        else CARD_NAMES[c],
                        value=f"pick:{c}",
                        description=CARD_HELP[c],
                        default=c == card,
                    )
                    for c in cards
                ),
            )
        ]
        if card in ("X", "Y", "Z", "H"):
            controls.append(self._own_select(obs, seat, card, f"{card}:", f"Apply {card} to…"))
        elif card == "CX":
            controls.append(self._their_select(obs, names, "CX:", "Apply CX to…"))
        elif card == "SWAP":
            _, _, given = pending.partition(":")
            controls.append(
                self._own_select(obs, seat, None, "pick:SWAP:", "Your qubit to give…", given)
            )
            if given:
                controls.append(
                    self._their_select(obs, names, f"SWAP:{given}:", "…for their qubit")
                )
        if "call" in legal:
            controls.append(Control("call", "Call measurement", "danger", row=4))
        if "back" in legal:
            controls.append(Control("back", "Start over", row=4))
        return controls

    @staticmethod
    def _own_select(
        obs: QPokerObservation,
        seat: int,
        card: str | None,
        prefix: str,
        label: str,
        chosen: str = "",
    ) -> Control:
        options = []
        for i, view in enumerate(obs.qubits[seat][:QUBITS]):
            options.append(
                Option(
                    label=f"Your qubit {i + 1}: {_bit(view)}",
                    value=f"{prefix}{i}",
                    description=describe(view),
                    default=chosen == str(i),
                )
            )
        name = f"{card}-target" if card else "swap-mine"
        return Control(name, label, row=1, placeholder=label, options=tuple(options))

    @staticmethod
    def _their_select(obs: QPokerObservation, names: list[str], prefix: str, label: str) -> Control:
        options = []
        for target, row in enumerate(obs.qubits):
            if target == obs.seat or not row:
                continue
            for i, view in enumerate(row):
                options.append(
                    Option(
                        label=f"{names[target]}'s qubit {i + 1}: {_bit(view)}"[:100],
                        value=f"{prefix}{target}.{i}",
                        description=describe(view),
                    )
                )
        row_index = 2 if prefix.startswith("SWAP") else 1
        return Control(
            f"{prefix}target", label, row=row_index, placeholder=label, options=tuple(options)
        )

    def revealed_fields(self, observation: QPokerObservation, names: list[str]) -> list[Field]:
        obs = observation
        lines = []
        for seat, row in enumerate(obs.qubits):
            who = names[seat] if seat < len(names) else f"Seat {seat + 1}"
            if obs.out[seat] or not row:
                held = "out of the match" if obs.out[seat] else "no qubits"
            else:
                held = ", ".join(_revealed_bit(q) for q in row)
            lines.append(f"**{who}**: {held}")
        return [Field("Every qubit", "\n".join(lines), inline=False)]

    def hint_text(
        self, observation: QPokerObservation, analysis: Analysis, names: list[str]
    ) -> str:
        """The hard AI's card and target with what its search found (see
        :func:`bot.engines.qpoker.search.hard_analysis`)."""
        return hint_text(observation, analysis, names)

    def options_text(self, config: QPokerConfig) -> str:
        cards = "5 community cards" if config.community == "five" else "one card per player"
        calling = "calling measurement allowed" if config.calling else "no early measurement"
        rounds = plural(config.rounds, "round")
        return f"{plural(config.chips, 'chip')} each, {rounds}, {cards} a round, {calling}."


def move_text(move: str, names: list[str]) -> str:
    """A complete move in words: "X on your qubit 3", "CX on Bob's qubit 2", "SWAP your
    qubit 1 for Bob's qubit 4", "Call measurement"."""
    if move == "call":
        return "Call measurement"
    card, _, rest = move.partition(":")

    def theirs(target: str) -> str:
        seat, i = (int(x) for x in target.split("."))
        who = names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"
        return f"{who}'s qubit {i + 1}"

    if card == "CX":
        return f"CX on {theirs(rest)} (flip it)"
    if card == "SWAP":
        mine, _, target = rest.partition(":")
        return f"SWAP your qubit {int(mine) + 1} for {theirs(target)}"
    return f"{CARD_NAMES.get(card, card)} on your qubit {int(rest) + 1}"


def hint_text(obs: QPokerObservation, analysis: Analysis, names: list[str]) -> str:
    """The hint in words (reasons of :func:`bot.engines.qpoker.search.hard_analysis`)."""

    def name(move: str) -> str:
        return move_text(move, names)

    if analysis.kind == "rule":
        if analysis.reason == "no-deal":
            why = "There was no time to play out a single deal: this is the normal AI's choice."
            return hint(analysis, name, why)
        return hint(analysis, name, "It's the only move open to you.")
    best = analysis.best
    worlds = (
        f"{sampled(analysis, 'deals')} of the hidden qubits that fit the moves made this "
        "round, played out to measurement"
    )
    if analysis.kind == "win":

        def figure(value: MoveValue) -> str:
            return f"{percent(value.value or 0.0)} to win the match"

        why = (
            f"{worlds}, you win the match {percent(best.value or 0.0)} of the time with it "
            "(the match is near its end, so it plays for the win)."
        )
    else:

        def figure(value: MoveValue) -> str:
            return f"wins the round {percent(value.win or 0.0)} · {signed(value.value or 0.0, 'chips')}"

        why = (
            f"{worlds}, you win the round {percent(best.win or 0.0)} of the time with it, "
            f"{signed(best.value or 0.0, 'chips')} on average."
        )
    if analysis.kind == "win":
        why += noise_note(analysis, name, figure)
    else:
        why += noise_note(analysis, name, figure) or trade_off_note(analysis, name, "chips")
    return hint(analysis, name, why, figure)


SPEC = GameSpec(
    engine=QPokerEngine(),
    ui=QPokerUI(),
    emoji="🃏",
    ai=GameAI(decide=qpoker_ai.decide, analyse=qpoker_ai.analyse),
    blurb="Qubit cards and Pauli gates: end the round with the most 1s and take the chips.",
)
