"""How Quantum dice looks at the table: controls on the public message (nothing is hidden)."""

from __future__ import annotations

from PIL import Image

from bot.engines.base import plural
from bot.engines.qdice import ai as qdice_ai
from bot.engines.qdice.engine import QDiceConfig, QDiceEngine, QDiceObservation
from bot.engines.qdice.scoring import why_no_score
from bot.render.qdice import render_qdice
from bot.tables.protocols import GameAI, GameSpec
from bot.tables.views import Control, Field, Panel

COLOUR_MARK = {"A": "⬜", "B": "🟦"}  # ivory and blue; the label names the colour too


class QDiceUI:
    def table_image(
        self, observation: QDiceObservation, names: list[str], log: list[str]
    ) -> Image.Image:
        return render_qdice(observation, names, log)

    def picture_observation(self, observation: QDiceObservation) -> QDiceObservation:
        """The table as rolled: the dice picked to keep are shown by their buttons, the
        score of the pick in the text above and on the Bank button, so picking a die sends
        the table message without a new picture."""
        return observation.model_copy(update={"selected": [], "selection_score": None})

    def turn_text(self, observation: QDiceObservation, names: list[str]) -> str:
        obs = observation
        if obs.current is None:
            return ""
        parts = [f"**{names[obs.current]}** to play", f"turn total {obs.turn_total:,}"]
        why = ""
        if obs.selected:
            score = obs.selection_score
            parts.append(
                f"selection scores {score:,}" if score is not None else "selection does not score"
            )
            if score is None:
                why = f"\nThose dice don't score: {why_no_score(obs.dice, obs.selected)}."
        else:
            parts.append("pick the dice to keep, then Roll or Bank")
        if obs.final_round and obs.contingent_winner is not None:
            lead = names[obs.contingent_winner]
            parts.append(f"last turns: beat {lead}'s {obs.scores[obs.contingent_winner]:,}")
        return " · ".join(parts) + why

    def public_controls(self, observation: QDiceObservation, legal: list[str]) -> list[Control]:
        obs = observation
        controls = [
            Control(
                f"t{i}",
                f"{die.value} · {die.colour}",  # readable where the emoji is not
                "primary" if i in obs.selected else "secondary",
                row=i // 3,
                emoji=COLOUR_MARK[die.colour],
                disabled=f"t{i}" not in legal,
            )
            for i, die in enumerate(obs.dice)
        ]
        keep = obs.selection_score
        left = len(obs.dice) - len(obs.selected)
        roll_label = f"Roll {plural(left or 6, 'die', 'dice')}" if obs.selected else "Roll"
        bank_total = obs.turn_total + (keep or 0)
        controls.append(Control("roll", roll_label, "success", row=2, disabled="roll" not in legal))
        controls.append(
            Control("bank", f"Bank {bank_total:,}", "danger", row=2, disabled="bank" not in legal)
        )
        return controls

    def private_panel(
        self, observation: QDiceObservation, legal: list[str], names: list[str]
    ) -> Panel:
        obs = observation
        seat = obs.seat if obs.seat is not None else 0
        status = "on the board" if obs.on_board[seat] else f"needs {obs.entry:,} in one turn"
        fields = [
            Field("Your score", f"{obs.scores[seat]:,} ({status})"),
            Field("Target", f"{obs.target:,}"),
        ]
        if legal:
            text = "It's your turn. " + self.turn_text(obs, names)
            controls = self.public_controls(obs, legal)
        else:
            who = names[obs.current] if obs.current is not None else "nobody"
            text = f"Waiting for **{who}**. Everything in Quantum dice is public: watch the table."
            controls = []
        return Panel(title="Your view", description=text, fields=fields, controls=controls)

    def options_text(self, config: QDiceConfig) -> str:
        return f"First to {config.target:,}; {config.entry:,} in one turn to get on the board."


SPEC = GameSpec(
    engine=QDiceEngine(),
    ui=QDiceUI(),
    emoji="🎲",
    blurb="Six dice in two colours: push your luck to 10,000.",
    ai=GameAI(decide=qdice_ai.decide, warm_up=qdice_ai.warm_up),
)
