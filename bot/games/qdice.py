"""How Quantum dice looks at the table: controls on the public message (nothing is hidden)."""

from __future__ import annotations

from PIL import Image

from bot.engines.base import ordinal, plural
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
        """Nothing in Quantum dice is hidden, so this says so and gives what is worth having
        on one's own: one's score and place, what banking now would give, what is left to
        win. The dice and their buttons are on the table, where everyone plays them."""
        obs = observation
        seat = obs.seat if obs.seat is not None else 0
        score = obs.scores[seat]
        status = "on the board" if obs.on_board[seat] else f"needs {obs.entry:,} in one turn"
        fields = [Field("Your score", f"{score:,} ({status})"), Field("Place", _place(obs, seat))]
        if legal:
            fields.append(Field("If you bank now", _bank_now(obs, legal), inline=False))
            doing = "It's your turn: pick dice, Roll and Bank on the table."
        else:
            who = names[obs.current] if obs.current is not None else "nobody"
            doing = f"Waiting for **{who}**."
        fields.append(Field("To win", _to_win(obs, seat, names), inline=False))
        text = (
            f"{doing} Nothing in Quantum dice is secret: the dice, every score and the buttons "
            "are on the table for everyone. Here is what is yours."
        )
        return Panel(title="Your seat", description=text, fields=fields)

    def options_text(self, config: QDiceConfig) -> str:
        return f"First to {config.target:,}; {config.entry:,} in one turn to get on the board."


def _place(obs: QDiceObservation, seat: int) -> str:
    """ "1st of 3, 250 ahead of Bob's 750", "2nd= of 3, 400 behind the lead"."""
    score = obs.scores[seat]
    above = sum(1 for s in obs.scores if s > score)
    level = sum(1 for s in obs.scores if s == score) > 1
    place = f"{ordinal(above + 1)}{'=' if level else ''} of {obs.n_players}"
    best = max(obs.scores)
    if score < best:
        return f"{place}, {best - score:,} behind the lead"
    others = [s for i, s in enumerate(obs.scores) if i != seat]
    gap = score - max(others, default=score)
    return f"{place}, {gap:,} ahead" if gap else place


def _bank_now(obs: QDiceObservation, legal: list[str]) -> str:
    seat = obs.seat if obs.seat is not None else 0
    points = obs.turn_total + (obs.selection_score or 0)
    if "bank" in legal:
        after = obs.scores[seat] + points
        return f"+{points:,}, for a score of {after:,}."
    if obs.selected and obs.selection_score is None:
        return "Nothing: the dice you picked don't all score."
    if not obs.on_board[seat] and points:
        return (
            f"Nothing yet: your first bank needs {obs.entry:,} in one turn, and this turn "
            f"has {points:,}. Keep rolling."
        )
    return "Nothing yet: keep some scoring dice first."


def _to_win(obs: QDiceObservation, seat: int, names: list[str]) -> str:
    lead = obs.contingent_winner
    if obs.final_round and lead is not None and lead != seat:
        need = obs.scores[lead] - obs.scores[seat] + 1
        return (
            f"Last turns: beat {names[lead]}'s {obs.scores[lead]:,}, so {need:,} more in this turn."
        )
    if obs.final_round and lead == seat:
        return "Last turns: you lead; the others must beat your score."
    left = obs.target - obs.scores[seat]
    return f"{max(left, 0):,} more to reach {obs.target:,}."


SPEC = GameSpec(
    engine=QDiceEngine(),
    ui=QDiceUI(),
    emoji="🎲",
    blurb="Six dice in two colours: push your luck to 10,000.",
    ai=GameAI(decide=qdice_ai.decide, warm_up=qdice_ai.warm_up),
)
