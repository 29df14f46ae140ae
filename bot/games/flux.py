"""How Flux looks at the table: a public picture, and each hand only in its owner's view.

Every move involves a hidden hand, so the public message carries no game buttons; players
act from their private view (**My hand**), whose buttons edit it in place.
"""

from __future__ import annotations

from PIL import Image

from bot.engines.analysis import Analysis, MoveValue
from bot.engines.base import plural
from bot.engines.cards import SUIT_SYMBOLS, card, label
from bot.engines.flux import ai as flux_ai
from bot.engines.flux.engine import FluxConfig, FluxEngine, FluxObservation
from bot.engines.flux.rules import (
    best_value,
    dice_way,
    distance,
    hand_value,
    is_zilch,
    variants_text,
)
from bot.games.coach import hint, noise_note, percent, sampled, signed, trade_off_note
from bot.games.flux_scores import score_fields
from bot.render.flux import render_flux, render_hand_png
from bot.tables.protocols import GameAI, GameSpec
from bot.tables.views import Control, Field, Option, Panel
from bot.words.events import GamePresenter

DICE_BUTTONS = 20  # more choices than this go into select menus (25 options each)


def _who(names: list[str], seat: int | None) -> str:
    return f"**{names[seat]}**" if seat is not None and 0 <= seat < len(names) else "nobody"


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _own_value(obs: FluxObservation) -> int:
    """This seat's value (point dice as chosen, or else used to get nearest the target)."""
    rules = obs.rules
    seat = obs.seat if obs.seat is not None else 0
    raw = hand_value(obs.hand, rules.absolute)
    if obs.my_dice_use is not None:
        value = raw + obs.my_dice_use  # the use of the dice this seat chose
    else:
        value = best_value(raw, obs.point_dice[seat], obs.target, rules)
    return value


def value_text(value: int, target: int, raw: int | None = None) -> str:
    """A hand's value and how far it is from the target, said plainly: "13, 1 point away from
    the target of 12"; "-14, 2 points away from -12 (the target counts with either sign)".
    ``raw`` is the cards alone, shown when point dice changed the value."""
    gap = distance(value, target)
    if value < 0 < target:
        mark, note = f"-{target}", " (the target counts with either sign)"
    else:
        mark, note = f"the target of {target}", ""
    where = f"right on {mark}" if gap == 0 else f"{plural(gap, 'point')} away from {mark}"
    text = f"{value}, {where}{note}"
    if raw is not None and raw != value:
        text += f"; cards {raw}, point dice {value - raw:+d}"
    return text


class FluxUI(GamePresenter):
    game = "flux"

    def table_image(
        self, observation: FluxObservation, names: list[str], log: list[str]
    ) -> Image.Image:
        return render_flux(observation, names)

    def turn_text(self, observation: FluxObservation, names: list[str]) -> str:
        obs = observation
        status = f"Target **{obs.target}**"
        if obs.turnup:
            status += f" · trumps {SUIT_SYMBOLS[card(obs.turnup).suit]}"
        status += f" · {plural(obs.cards_left, 'card')} before the cut-off"
        match obs.phase:
            case "claim":
                doing = (
                    "Original hands: a hand dealt right at the target may be claimed, in "
                    "secret (**My hand**); the table plays on by itself for everyone else."
                )
            case "trick":
                doing = f"{_who(names, obs.turn)} plays to the trick (**My hand** to play)."
            case "command":
                low, high = obs.discard_range
                count = str(high) if low == high else f"up to {high}"
                doing = f"{_who(names, obs.commander)} has command: discard {count} or call."
            case "flux":
                doing = f"{_who(names, obs.commander)} fluxed onto the target: call or play on."
            case "dice":
                who = ", ".join(f"**{names[s]}**" for s in obs.to_act) or "nobody"
                doing = (
                    f"Every hand is shown. Point dice: {who} choose how to use theirs, in "
                    "secret (**My hand**)."
                )
            case "poker":
                doing = "Poker: everyone picks five of their cards in secret (**My hand**)."
            case _:
                return obs.end_reason
        return f"{doing}\n{status}"

    def forced_move(self, observation: FluxObservation, legal: list[str]) -> str | None:
        """A lone "Play on" (a hand not at the target can't be claimed) is made for the
        player: every hand would otherwise wait on everyone pressing it."""
        if observation.phase == "claim" and legal == ["pass"]:
            return "pass"
        return None

    def final_fields(self, observation: FluxObservation, names: list[str]) -> list[Field]:
        return score_fields(observation, names)

    def public_controls(self, observation: FluxObservation, legal: list[str]) -> list[Control]:
        return []  # every move involves a hidden hand: players act from their own view

    def private_panel(
        self, observation: FluxObservation, legal: list[str], names: list[str]
    ) -> Panel:
        obs = observation
        seat = obs.seat if obs.seat is not None else 0
        fields = [Field("Your score", str(obs.scores[seat]))]
        if obs.hand:
            value = _own_value(obs)
            raw = hand_value(obs.hand, obs.rules.absolute)
            fields.append(Field("Your hand", " ".join(label(c) for c in obs.hand), inline=False))
            fields.append(Field("Hand value", value_text(value, obs.target, raw), inline=False))
        if obs.point_dice[seat]:
            fields.append(Field("Point dice", ", ".join(map(str, obs.point_dice[seat]))))
        if obs.turnup:
            fields.append(Field("Turn-up", f"{label(obs.turnup)} (trumps)"))
        if legal:
            text, controls = self._moves(obs, legal)
        else:
            text, controls = self._waiting(obs, names), []
        return Panel(
            title="Your hand",
            description=text,
            fields=fields,
            controls=controls,
            image_png=render_hand_png(obs.hand, obs.selected) if obs.hand else None,
            image_name="hand.png",
        )

    def _waiting(self, obs: FluxObservation, names: list[str]) -> str:
        if obs.phase == "over":
            return obs.end_reason
        if obs.phase in ("claim", "poker", "dice"):
            return "Your choice is in; waiting for the others to choose."
        waiting = ", ".join(names[s] for s in obs.to_act) or "nobody"
        return f"Waiting for **{waiting}**."

    def _toggles(self, obs: FluxObservation) -> list[Control]:
        return [
            Control(
                f"t{i}",
                label(code),
                "primary" if i in obs.selected else "secondary",
                row=0 if i < 4 else 1,
            )
            for i, code in enumerate(obs.hand)
        ]

    def _moves(self, obs: FluxObservation, legal: list[str]) -> tuple[str, list[Control]]:
        value = _own_value(obs)
        if obs.phase == "claim":
            if self.forced_move(obs, legal) is not None:
                text = (
                    "Your hand is not at the target, so there is nothing to claim: the table "
                    "plays on for you in a moment."
                )
                return text, []
            text = f"Your hand is at the target ({value}): claim it for the value game?"
            return text, [
                Control("claim", "Claim original hand", "success", row=0),
                Control("pass", "Play on", row=0),
            ]
        if obs.phase == "trick":
            plays = [a for a in legal if a.startswith("p:")]
            controls = [
                Control(a, label(a[2:]), "danger" if card(a[2:]).is_red else "secondary",
                        row=0 if i < 4 else 1)
                for i, a in enumerate(plays)
            ]  # fmt: skip
            return (
                "Your turn: play a card to the trick (you are dealt a new one at once).",
                controls,
            )
        if obs.phase == "flux":
            text = f"Your new hand is at the target ({value}): call now for the flux bull's-eye?"
            return text, [
                Control("call", "Call", "success", row=0),
                Control("pass", "Play on", row=0),
            ]
        if obs.phase == "dice":
            return self._dice_moves(obs, legal)
        if obs.phase == "command":
            low, high = obs.discard_range
            picked = len(obs.selected)
            want = str(high) if low == high else f"0 to {high}"
            text = (
                f"You have command. Pick {plural(want, 'card')} to discard, or call now "
                f"(your hand is worth {value_text(value, obs.target)})."
            )
            confirm = f"Discard {picked}" if picked else "Keep hand"
            return text, [
                *self._toggles(obs),
                Control("discard", confirm, "primary", row=2, disabled="discard" not in legal),
                Control("call", f"Call at {value}", "success", row=2),
            ]
        text = (
            "Poker: pick the five cards to show (your best five are picked already). "
            "Everyone's choice is revealed together."
        )
        return text, [
            *self._toggles(obs),
            Control("show", "Show these five", "success", row=2, disabled="show" not in legal),
        ]

    def _dice_moves(self, obs: FluxObservation, legal: list[str]) -> tuple[str, list[Control]]:
        """One choice per value the point dice can give, each labelled with that value."""
        rules = obs.rules
        seat = obs.seat if obs.seat is not None else 0
        dice = obs.point_dice[seat]
        raw = hand_value(obs.hand, rules.absolute)
        text = (
            f"Every hand is shown. Yours is worth **{raw}**; choose how to use your point dice "
            f"({', '.join(map(str, dice))}): add, subtract or ignore. Each choice shows the "
            "value it gives you. The others choose at the same time, in secret."
        )
        choices: list[tuple[int, str, str, str]] = []  # (value, result, how, action)
        for action in legal:
            offset = int(action.removeprefix("dice:"))
            value = raw + offset
            zilch = ", zilch!" if is_zilch(value, obs.target, rules) else ""
            result = f"{value} ({distance(value, obs.target)} off{zilch})"
            how = dice_way(dice, offset, rules)
            choices.append((value, result, f"{how[0].upper()}{how[1:]}", action))
        if len(choices) <= DICE_BUTTONS:
            return text, [
                Control(action, f"{how} → {result}"[:80], row=i // 5)
                for i, (_, result, how, action) in enumerate(choices)
            ]
        if len(choices) > 125:  # five menus of 25: keep the values nearest the target
            keep = sorted(choices, key=lambda c: distance(c[0], obs.target))[:125]
            choices = [c for c in choices if c in keep]
        controls = []
        for row, start in enumerate(range(0, len(choices), 25)):
            chunk = choices[start : start + 25]
            low, high = chunk[0][0], chunk[-1][0]
            controls.append(
                Control(
                    f"dice-menu-{row}",
                    "Use the dice",
                    row=row,
                    placeholder=f"Make your value {low} to {high}…",
                    options=tuple(
                        Option(label=f"Value {result}"[:100], value=action, description=how[:100])
                        for _, result, how, action in chunk
                    ),
                )
            )
        return text, controls

    def revealed_fields(self, observation: FluxObservation, names: list[str]) -> list[Field]:
        obs = observation
        lines = []
        for seat in range(obs.n_players):
            hand = obs.shown[seat] or []
            if not obs.active[seat]:
                held = "out of the game"
            elif hand:
                value = hand_value(hand, obs.rules.absolute)
                held = f"{' '.join(label(c) for c in hand)} (value {value})"
            else:
                held = "no cards"
            lines.append(f"**{_name(names, seat)}**: {held}")
        return [Field("Every hand", "\n".join(lines), inline=False)]

    def hint_text(self, observation: FluxObservation, analysis: Analysis, names: list[str]) -> str:
        """The hard AI's card, call or discard with what its search found (see
        :func:`bot.engines.flux.ai.analyse`)."""
        return hint_text(observation, analysis)

    def secret_move_text(
        self, observation: FluxObservation, move: str, names: list[str]
    ) -> str | None:
        """A choice the table only announced ("Ann has chosen a poker hand."), in words for
        the person's own review once the game is over; None for a move the table showed."""
        if move.partition(":")[0] in SECRET_MOVES.get(observation.phase, ()):
            return move_text(observation, move)
        return None

    def options_text(self, config: FluxConfig) -> str:
        text = f"{variants_text(config.keys)}. {plural(config.deck_count, 'deck')}."
        ends = []
        if config.deal_rounds is not None:
            n = config.deal_rounds
            ends.append(f"after {plural(n, 'deal')} each")
        if config.limit is not None and "15" in config.keys:
            ends.append(f"at {plural(config.limit, 'point')}")
        if ends:
            first = ", whichever comes first" if len(ends) > 1 else ""
            text += f" The game ends {' or '.join(ends)}{first}."
        return text


SECRET_MOVES = {"claim": ("claim", "pass"), "poker": ("show",), "dice": ("dice",)}
"""The moves of the phases where every seat chooses at once and in secret: the table says
only that a seat has chosen."""


def move_text(obs: FluxObservation, move: str) -> str:
    """A one-step move in words: "Play 7♥", "Call at 12", "Discard 2♠ K♦", "Play on"."""
    verb, _, rest = move.partition(":")
    if verb == "p":
        return f"Play {label(rest)}"
    if verb == "discard":
        codes = [c for c in rest.split(",") if c]
        return "Discard " + " ".join(label(c) for c in codes) if codes else "Keep your hand"
    if verb == "show":
        return "Show " + " ".join(label(c) for c in rest.split(","))
    if verb == "dice":
        seat = obs.seat if obs.seat is not None else 0
        way = dice_way(obs.point_dice[seat], int(rest), obs.rules)
        return f"{way[0].upper()}{way[1:]}"
    if move == "call":
        return f"Call at {_own_value(obs)}" if obs.phase == "command" else "Call"
    return {"claim": "Claim your original hand", "pass": "Play on"}.get(move, move)


RULES = {
    "claim": "A hand at the target is worth claiming: the hard AI always does.",
    "flux": "Your hand is at the target after the flux: the hard AI always calls for the "
    "bull's-eye.",
    "dice": "Of every way to use your point dice, this one scores you the most against the "
    "hands shown (or costs you the least).",
    "poker": "These are your best five cards for the poker game.",
    "only": "It's the only move worth weighing here.",
    "no-deal": "There was no time to play out a single deal: this is the hard AI's first "
    "choice before searching.",
}


def hint_text(obs: FluxObservation, analysis: Analysis) -> str:
    """The hint in words (reasons of :func:`bot.engines.flux.ai.analyse`)."""

    def name(move: str) -> str:
        return move_text(obs, move)

    if analysis.kind == "rule":
        why = RULES.get(analysis.reason, "")
        if analysis.move == "pass" and analysis.reason in ("claim", "flux"):
            why = "Your hand isn't at the target, so there's nothing to claim: play on."
        return hint(analysis, name, why)
    best = analysis.best
    if analysis.kind == "win":

        def figure(value: MoveValue) -> str:
            return f"{percent(value.value or 0.0)} to win the game"

        why = (
            f"{sampled(analysis, 'deals')} of the cards you can't see, played out to the end "
            f"of the hand, you win the game {percent(best.value or 0.0)} of the time with it "
            "(the game is near its end, so it plays for the win)."
        )
    else:

        def figure(value: MoveValue) -> str:
            return f"{signed(value.value or 0.0, 'points')} · on top {percent(value.win or 0.0)}"

        why = (
            f"{sampled(analysis, 'deals')} of the cards you can't see, played out to the end "
            f"of the hand, it scores you {signed(best.value or 0.0, 'points')} against the "
            f"others' average, and you take the most points of the hand "
            f"{percent(best.win or 0.0)} of the time."
        )
    if analysis.kind == "win":
        why += noise_note(analysis, name, figure)
    else:
        why += noise_note(analysis, name, figure) or trade_off_note(analysis, name, "points")
    return hint(analysis, name, why, figure)


SPEC = GameSpec(
    engine=FluxEngine(),
    ui=FluxUI(),
    emoji="🃏",
    ai=GameAI(decide=flux_ai.decide, analyse=flux_ai.analyse),
    blurb="Three decks, a dice target: get your hand's value there, then win the poker.",
)
