"""How Quantum dice looks at the table: controls on the public message (nothing is hidden)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from bot.engines.analysis import Analysis, MoveValue
from bot.engines.qdice import ai as qdice_ai
from bot.engines.qdice.engine import QDiceConfig, QDiceEngine, QDiceObservation
from bot.engines.qdice.scoring import combination_parts, no_score_reasons
from bot.games.coach import hint, percent
from bot.render.qdice import render_qdice
from bot.tables.protocols import GameAI, GameSpec
from bot.tables.views import Control, Field, Panel
from bot.words import Words, current, error_arguments, t
from bot.words.events import GamePresenter

COLOUR_MARK = {"A": "⬜", "B": "🟦"}  # ivory and blue; the label names the colour too


def dice_text(dice: Sequence[Mapping[str, Any]]) -> str:
    """An event's dice as their values: "1 5 5"."""
    return " ".join(str(die["value"]) for die in dice)


def combination_text(code: str, points: int, words: Words) -> str:
    """One combination of a keep with its points: "three 5s, one colour 600". A label from
    a log saved before combinations were codes is English already and shown as it is."""
    if " " in code:
        name = code
    else:
        kind, value = combination_parts(code)
        name = words("qdice-combination", name=kind, value=value)
    return words("qdice-combination-points", combination=name, points=points)


def why_text(reasons: Sequence[Mapping[str, Any]], words: Words) -> str:
    """Why a selection does not score (:func:`bot.engines.qdice.scoring.no_score_reasons`),
    one clause per reason: "a single 4 or 6 scores only in three of a kind; ..."."""
    clauses = []
    for reason in reasons:
        kind = reason.get("reason")
        if kind == "single":
            values = words.list([str(v) for v in reason["values"]], "or")
            clauses.append(words("qdice-why-single", values=values))
        elif kind == "extra":
            first, count = int(reason["first"]), int(reason["count"])
            places = words.list([words("qdice-nth", n=first + k) for k in range(count)])
            clauses.append(
                words("qdice-why-extra", value=reason["value"], places=places, count=count)
            )
        elif kind in ("left-out", "pair", "whole", "run"):
            args = {key: value for key, value in reason.items() if key != "reason"}
            clauses.append(words(f"qdice-why-{kind}", **args))
        else:
            clauses.append(words("qdice-why-none"))
    return "; ".join(clauses)


def _error_args(code: str, params: Mapping[str, Any], words: Words) -> dict[str, Any]:
    """A refusal's data worded: the reasons a keep does not score."""
    if code == "qdice-error-no-score":
        return {"why": why_text(params.get("reasons", ()), words)}
    return {}


error_arguments("qdice", _error_args)


def die_label(value: int, colour: str) -> str:
    """A die as its button names it: "4 · A"."""
    return t("qdice-die", value=value, colour=colour)


class QDiceUI(GamePresenter):
    game = "qdice"

    def event_args(
        self,
        kind: str,
        seat: int | None,
        data: Mapping[str, Any],
        names: Sequence[str],
        words: Words,
    ) -> dict[str, Any]:
        """Dice as their values, a keep's combinations, seats in the data as names."""
        args: dict[str, Any] = {}
        if isinstance(data.get("dice"), list):
            args["dice"] = dice_text(data["dice"])
        if kind == "keep":
            args["combinations"] = ", ".join(
                combination_text(str(code), int(points), words)
                for code, points in data.get("combinations", ())
            )
        elif kind == "quantum":
            args["points"] = data.get("points", 5000)
        elif kind == "contingent":
            displaced = data.get("displaced")
            args["lead"] = "first" if displaced is None else "new"
            args["displaced"] = _name(names, displaced)
        elif kind == "game_over":
            scores = data.get("scores", [])
            winner = data.get("winner", seat)
            args["score"] = scores[winner] if isinstance(winner, int) else 0
        return args

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
        words = current()
        parts = [
            words("qdice-turn-to-play", player=names[obs.current]),
            words("qdice-turn-total", points=obs.turn_total),
        ]
        why = ""
        if obs.selected:
            score = obs.selection_score
            if score is not None:
                parts.append(words("qdice-turn-selection", points=score))
            else:
                parts.append(words("qdice-turn-no-score"))
                reasons = why_text(no_score_reasons(obs.dice, obs.selected), words)
                why = "\n" + words("qdice-error-no-score", why=reasons)
        else:
            parts.append(words("qdice-turn-pick"))
        if obs.final_round and obs.contingent_winner is not None:
            lead = obs.contingent_winner
            parts.append(words("qdice-turn-last", leader=names[lead], score=obs.scores[lead]))
        return " · ".join(parts) + why

    def public_controls(self, observation: QDiceObservation, legal: list[str]) -> list[Control]:
        obs = observation
        controls = [
            Control(
                f"t{i}",
                die_label(die.value, die.colour),  # readable where the emoji is not
                "primary" if i in obs.selected else "secondary",
                row=i // 3,
                emoji=COLOUR_MARK[die.colour],
                disabled=f"t{i}" not in legal,
            )
            for i, die in enumerate(obs.dice)
        ]
        keep = obs.selection_score
        left = len(obs.dice) - len(obs.selected)
        roll_label = t("qdice-control-roll", dice=(left or 6) if obs.selected else 0)
        bank_label = t("qdice-control-bank", points=obs.turn_total + (keep or 0))
        controls.append(Control("roll", roll_label, "success", row=2, disabled="roll" not in legal))
        controls.append(Control("bank", bank_label, "danger", row=2, disabled="bank" not in legal))
        return controls

    def private_panel(
        self, observation: QDiceObservation, legal: list[str], names: list[str]
    ) -> Panel:
        """Nothing in Quantum dice is hidden, so this says so and gives what is worth having
        on one's own: one's score and place, what banking now would give, what is left to
        win. The dice and their buttons are on the table, where everyone plays them."""
        obs = observation
        words = current()
        seat = obs.seat if obs.seat is not None else 0
        score = words(
            "qdice-panel-score-value",
            score=obs.scores[seat],
            on_board=obs.on_board[seat],
            entry=obs.entry,
        )
        fields = [
            Field(words("qdice-panel-score"), score),
            Field(words("qdice-panel-place"), _place(obs, seat, words)),
        ]
        if legal:
            bank_now = _bank_now(obs, legal, words)
            fields.append(Field(words("qdice-panel-bank-now"), bank_now, inline=False))
            doing = words("qdice-panel-your-turn")
        else:
            who = names[obs.current] if obs.current is not None else words("qdice-panel-nobody")
            doing = words("qdice-panel-waiting", player=who)
        fields.append(
            Field(words("qdice-panel-to-win"), _to_win(obs, seat, names, words), inline=False)
        )
        text = words("qdice-panel-text", doing=doing)
        return Panel(title=words("qdice-panel-title"), description=text, fields=fields)

    def options_text(self, config: QDiceConfig) -> str:
        return t("qdice-options", target=config.target, entry=config.entry)

    def hint_text(self, observation: QDiceObservation, analysis: Analysis, names: list[str]) -> str:
        """The hard AI's keep and its bank-or-roll choice, with the chances (or points)
        it weighed: see :func:`bot.engines.qdice.ai.analyse`."""
        return hint_text(observation, analysis, names)


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return ""


def _keep_text(obs: QDiceObservation, move: str, words: Words) -> str:
    """The dice a one-step move keeps, as the buttons name them: "1 · A, 5 · B"."""
    picks = move.partition(":")[2]
    return ", ".join(
        words("qdice-die", value=obs.dice[int(i)].value, colour=obs.dice[int(i)].colour)
        for i in picks
    )


def _move_text(obs: QDiceObservation, move: str, analysis: Analysis, words: Words) -> str:
    """ "Keep 1 · A, 5 · B and roll 4 dice" / "Keep 1 · A and bank 1,150"."""
    found = analysis.value_of(move)
    keep = int(found.detail.get("keep", 0)) if found else 0
    dice = int(found.detail.get("dice", 0)) if found else 0
    kept = _keep_text(obs, move, words)
    if move.startswith("bank"):
        return words("qdice-hint-bank", kept=kept, points=obs.turn_total + keep)
    return words("qdice-hint-roll", kept=kept, dice=dice)


def _other_way(analysis: Analysis, move: str) -> MoveValue | None:
    """The same keep with the other choice (bank instead of roll, or roll instead of bank)."""
    verb, _, picks = move.partition(":")
    return analysis.value_of(f"{'roll' if verb == 'bank' else 'bank'}:{picks}")


def hint_text(obs: QDiceObservation, analysis: Analysis, names: list[str]) -> str:
    """The hint in words (reasons of :func:`bot.engines.qdice.ai.analyse`)."""
    words = current()
    move = analysis.move
    best = analysis.best
    verb = move.partition(":")[0]
    other = _other_way(analysis, move)
    other_value = other.value if other is not None else None
    me = obs.current if obs.current is not None else 0

    def name(m: str) -> str:
        return _move_text(obs, m, analysis, words)

    def figure(v: MoveValue) -> str:
        if analysis.kind != "win":
            return words("qdice-hint-figure-points", points=round(v.value or 0.0))
        chance = percent(v.value or 0.0, 1)
        if analysis.scope == "beat":
            leader = names[int(analysis.detail.get("leader", 0))]
            return words("qdice-hint-figure-beat", chance=chance, leader=leader)
        return words("qdice-hint-figure-win", chance=chance)

    chance = percent(best.value or 0.0)
    keep = int(best.detail.get("keep", 0))
    if analysis.reason == "table":
        if other_value is not None and other_value >= 0:
            then, shown = ("bank" if verb == "roll" else "roll"), percent(other_value)
        elif verb == "roll" and not obs.on_board[me]:
            then, shown = "entry", ""
        else:
            then, shown = "none", ""
        why = words("qdice-hint-table", chance=chance, then=then, other=shown, entry=obs.entry)
    elif analysis.reason == "end-game":
        shown = percent(other_value) if other_value is not None else "none"
        if verb == "bank":
            total = obs.scores[me] + obs.turn_total + keep
            why = words("qdice-hint-end-bank", total=total, chance=chance, other=shown)
        else:
            why = words("qdice-hint-end-roll", chance=chance, other=shown)
    elif analysis.reason == "last-turn":
        leader = int(analysis.detail.get("leader", 0))
        need = int(analysis.detail.get("need", 0))
        args = {"leader": names[leader], "score": obs.scores[leader]}
        if verb == "bank":
            why = words("qdice-hint-last-bank", **args)
        else:
            why = words("qdice-hint-last-roll", need=need, chance=chance, **args)
    elif analysis.reason == "turn":
        if verb == "bank":
            why = words(
                "qdice-hint-turn-bank",
                total=obs.turn_total + keep,
                known=other_value is not None,
                average=round(other_value or 0.0),
            )
        else:
            why = words(
                "qdice-hint-turn-roll",
                average=round(best.value or 0),
                known=other_value is not None and other_value >= 0,
                bank=round(other_value or 0.0),
            )
    else:
        why = words("qdice-hint-no-time")
    return hint(analysis, name, why, figure)


def _place(obs: QDiceObservation, seat: int, words: Words) -> str:
    """ "1st of 3, 250 ahead", "2nd= of 3, 400 behind the lead"."""
    score = obs.scores[seat]
    above = sum(1 for s in obs.scores if s > score)
    tied = sum(1 for s in obs.scores if s == score) > 1
    best = max(obs.scores)
    others = [s for i, s in enumerate(obs.scores) if i != seat]
    if score < best:
        where, gap = "behind", best - score
    else:
        gap = score - max(others, default=score)
        where = "ahead" if gap else "level"
    return words(
        "qdice-panel-place-value",
        place=words.ordinal(above + 1),
        tied=tied,
        players=obs.n_players,
        where=where,
        gap=gap,
    )


def _bank_now(obs: QDiceObservation, legal: list[str], words: Words) -> str:
    seat = obs.seat if obs.seat is not None else 0
    points = obs.turn_total + (obs.selection_score or 0)
    if "bank" in legal:
        return words("qdice-panel-bank-gives", points=points, score=obs.scores[seat] + points)
    if obs.selected and obs.selection_score is None:
        return words("qdice-panel-bank-no-score")
    if not obs.on_board[seat] and points:
        return words("qdice-panel-bank-entry", entry=obs.entry, points=points)
    return words("qdice-panel-bank-nothing")


def _to_win(obs: QDiceObservation, seat: int, names: list[str], words: Words) -> str:
    lead = obs.contingent_winner
    if obs.final_round and lead is not None and lead != seat:
        need = obs.scores[lead] - obs.scores[seat] + 1
        return words("qdice-panel-win-beat", leader=names[lead], score=obs.scores[lead], need=need)
    if obs.final_round and lead == seat:
        return words("qdice-panel-win-lead")
    left = obs.target - obs.scores[seat]
    return words("qdice-panel-win-left", left=max(left, 0), target=obs.target)


SPEC = GameSpec(
    engine=QDiceEngine(),
    ui=QDiceUI(),
    emoji="🎲",
    blurb=t("qdice-blurb"),  # worded once, at import, in the default language
    ai=GameAI(decide=qdice_ai.decide, warm_up=qdice_ai.warm_up, analyse=qdice_ai.analyse),
)
