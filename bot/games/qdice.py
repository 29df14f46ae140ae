"""How Quantum dice looks at the table: controls on the public message (nothing is hidden)."""

from __future__ import annotations

from PIL import Image

from bot.engines.analysis import Analysis, MoveValue
from bot.engines.base import ordinal, plural
from bot.engines.qdice import ai as qdice_ai
from bot.engines.qdice.engine import QDiceConfig, QDiceEngine, QDiceObservation
from bot.engines.qdice.scoring import why_no_score
from bot.games.coach import hint, percent
from bot.render.qdice import render_qdice
from bot.tables.protocols import GameAI, GameSpec
from bot.tables.views import Control, Field, Panel
from bot.words.events import GamePresenter

COLOUR_MARK = {"A": "⬜", "B": "🟦"}  # ivory and blue; the label names the colour too


class QDiceUI(GamePresenter):
    game = "qdice"

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

    def hint_text(self, observation: QDiceObservation, analysis: Analysis, names: list[str]) -> str:
        """The hard AI's keep and its bank-or-roll choice, with the chances (or points)
        it weighed: see :func:`bot.engines.qdice.ai.analyse`."""
        return hint_text(observation, analysis, names)


def _keep_text(obs: QDiceObservation, move: str) -> str:
    """The dice a one-step move keeps, as the buttons name them: "1 · A, 5 · B"."""
    picks = move.partition(":")[2]
    return ", ".join(f"{obs.dice[int(i)].value} · {obs.dice[int(i)].colour}" for i in picks)


def _move_text(obs: QDiceObservation, move: str, analysis: Analysis) -> str:
    """ "Keep 1 · A, 5 · B and roll 4 dice" / "Keep 1 · A and bank 1,150"."""
    found = analysis.value_of(move)
    keep = int(found.detail.get("keep", 0)) if found else 0
    dice = int(found.detail.get("dice", 0)) if found else 0
    kept = _keep_text(obs, move)
    if move.startswith("bank"):
        return f"Keep {kept} and bank {obs.turn_total + keep:,}"
    if dice == 6:
        return f"Keep {kept} and roll six fresh dice"
    return f"Keep {kept} and roll {plural(dice, 'die', 'dice')}"


def _other_way(analysis: Analysis, move: str) -> MoveValue | None:
    """The same keep with the other choice (bank instead of roll, or roll instead of bank)."""
    verb, _, picks = move.partition(":")
    return analysis.value_of(f"{'roll' if verb == 'bank' else 'bank'}:{picks}")


def hint_text(obs: QDiceObservation, analysis: Analysis, names: list[str]) -> str:
    """The hint in words (reasons of :func:`bot.engines.qdice.ai.analyse`)."""
    move = analysis.move
    best = analysis.best
    verb = move.partition(":")[0]
    other = _other_way(analysis, move)
    me = obs.current if obs.current is not None else 0

    def name(m: str) -> str:
        return _move_text(obs, m, analysis)

    if analysis.kind == "win":
        goal = "to win the game"
        if analysis.scope == "beat":
            leader = int(analysis.detail.get("leader", 0))
            goal = f"to beat {names[leader]}"
        figure = lambda v: f"{percent(v.value or 0.0, 1)} {goal}"  # noqa: E731
    else:
        figure = lambda v: f"about {v.value or 0.0:,.0f} points this turn"  # noqa: E731
    chance = percent(best.value or 0.0)
    if analysis.reason == "table":
        why = f"From the solved two-player odds, that gives you a {chance} chance to win the game"
        if other is not None and other.value is not None and other.value >= 0:
            why += (
                f"; {'banking now' if verb == 'roll' else 'rolling on'} would give "
                f"{percent(other.value)}."
            )
        elif verb == "roll" and not obs.on_board[me]:
            why += f"; you can't bank yet (you need {obs.entry:,} in one turn to get on the board)."
        else:
            why += "."
    elif analysis.reason == "end-game":
        total = obs.scores[me] + obs.turn_total + int(best.detail.get("keep", 0))
        if verb == "bank":
            why = (
                f"That takes you to {total:,}: everyone else gets one last turn to beat it, and "
                f"they all fall short {chance} of the time"
            )
            if other is not None and other.value is not None:
                why += f"; one more roll would make your chance {percent(other.value)}."
            else:
                why += "."
        else:
            why = f"One more roll before banking gives you a {chance} chance to win the game"
            if other is not None and other.value is not None:
                why += f"; banking now would give {percent(other.value)}."
            else:
                why += "."
    elif analysis.reason == "last-turn":
        leader = int(analysis.detail.get("leader", 0))
        need = int(analysis.detail.get("need", 0))
        if verb == "bank":
            why = f"That beats {names[leader]}'s {obs.scores[leader]:,}: bank it."
        else:
            why = (
                f"This is your last turn: you need {need:,} more to beat {names[leader]}'s "
                f"{obs.scores[leader]:,}, and keeping these dice gets you there {chance} of "
                "the time."
            )
    elif analysis.reason == "turn":
        if verb == "bank":
            why = f"Banking {obs.turn_total + int(best.detail.get('keep', 0)):,} now beats"
            why += (
                f" what rolling on brings on average ({other.value:,.0f} points)."
                if other is not None and other.value is not None
                else " anything rolling on brings on average."
            )
        else:
            why = f"Rolling on brings this turn to about {best.value or 0:,.0f} points on average"
            why += (
                f", more than banking {other.value:,.0f} now."
                if other is not None and other.value is not None and other.value >= 0
                else "."
            )
        why += " (The solved odds cover two players with the standard options; here it plays for points.)"
    else:
        why = "There was no time to think it through: keep the most points, bank from 300."
    return hint(analysis, name, why, figure)


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
    ai=GameAI(decide=qdice_ai.decide, warm_up=qdice_ai.warm_up, analyse=qdice_ai.analyse),
)
