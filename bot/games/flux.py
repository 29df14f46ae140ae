"""How Flux looks at the table: a public picture, and each hand only in its owner's view.

Every move involves a hidden hand, so the public message carries no game buttons; players
act from their private view (**My hand**), whose buttons edit it in place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from bot.engines.analysis import Analysis, MoveValue
from bot.engines.cards import SUIT_SYMBOLS, card, label
from bot.engines.flux import ai as flux_ai
from bot.engines.flux.engine import FluxConfig, FluxEngine, FluxObservation
from bot.engines.flux.rules import (
    Rules,
    best_value,
    dice_way,
    distance,
    hand_value,
    is_zilch,
    poker_winner,
)
from bot.engines.poker import HandRank
from bot.games.coach import hint, noise_note, percent, sampled, signed, trade_off_note
from bot.games.flux_scores import score_fields
from bot.render.flux import render_flux, render_hand_png
from bot.tables.protocols import GameAI, GameSpec
from bot.tables.views import Control, Field, Option, Panel
from bot.words import Words, current, error_arguments, t
from bot.words.events import GamePresenter

DICE_BUTTONS = 20  # more choices than this go into select menus (25 options each)


def _seat_name(names: Sequence[str], seat: Any) -> str:
    index = int(seat)
    return names[index] if 0 <= index < len(names) else str(index + 1)


def _labels(codes: Sequence[str]) -> str:
    """Cards as their labels: "9♥ K♠"."""
    return " ".join(label(c) for c in codes)


def _numbers(values: Sequence[int], joint: str = ", ") -> str:
    return joint.join(map(str, values))


def way_text(way: Sequence[Any], words: Words) -> str:
    """How point dice make a change (:func:`bot.engines.flux.rules.dice_way`) in words:
    "add 5", "subtract all (7)", "+2 +3 -1"."""
    kind, amount = str(way[0]), way[1]
    if kind == "ignore":
        return words("flux-dice-way", way=kind, count=int(amount), amount="")
    if kind == "in-all":
        return words("flux-dice-way", way=kind, amount=f"{int(amount):+d}", count=0)
    if kind == "steps":
        steps = " ".join(f"{'+' if d > 0 else '-'}{abs(d)}" for d in amount)
        return words("flux-dice-way", way=kind, amount=steps, count=0)
    return words("flux-dice-way", way=kind, amount=int(amount), count=0)


def dice_way_text(dice: Sequence[int], offset: int, rules: Rules, words: Words) -> str:
    return way_text(dice_way(dice, offset, rules), words)


def rank_text(rank: HandRank, words: Words, *, lower: bool = False) -> str:
    """A poker hand in words: "Full house, kings over fives" (``lower``: "full house, …")."""
    category = int(rank.category)
    first = rank.tiebreak[0]
    second = rank.tiebreak[1] if len(rank.tiebreak) > 1 else first
    title = words("flux-poker-title-lower" if lower else "flux-poker-title", category=category)
    return words(
        "flux-poker-rank",
        category=category,
        title=title,
        first=words("flux-rank", rank=first),
        firsts=words("flux-ranks", rank=first),
        seconds=words("flux-ranks", rank=second),
    )


def hand_rank_text(codes: Sequence[str], words: Words, *, lower: bool = False) -> str:
    """Five cards' poker hand in words."""
    _, ranks = poker_winner({0: list(codes)})
    return rank_text(ranks[0], words, lower=lower)


def end_text(reason: str, args: Mapping[str, Any], words: Words) -> str:
    """Why the game ended: a ``flux-end-...`` code worded (English of older games as it is)."""
    if not reason or " " in reason:
        return reason
    return words(reason, **args)


def _by_seat(mapping: Mapping[Any, Any]) -> list[tuple[int, Any]]:
    """A dict keyed by seat (ints, or strings after the log's JSON) in seat order as given."""
    return [(int(seat), value) for seat, value in mapping.items()]


def _error_args(code: str, params: Mapping[str, Any], words: Words) -> dict[str, Any]:
    """A refusal's data worded: dice as a list, a change with its sign, an exact count."""
    if code == "flux-error-dice-offset":
        return {
            "dice": _numbers(params.get("dice", ())),
            "change": f"{int(params.get('offset', 0)):+d}",
        }
    if code == "flux-error-discard-count":
        return {"exact": params.get("low") == params.get("high")}
    return {}


error_arguments("flux", _error_args)


def _who(names: list[str], seat: int | None) -> str:
    if seat is not None and 0 <= seat < len(names):
        return t("flux-bold-name", name=names[seat])
    return t("flux-nobody")


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else t("flux-seat", number=seat + 1)


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
    dice = f"{value - raw:+d}" if raw is not None and raw != value else ""
    return t(
        "flux-value-text",
        value=value,
        target=target,
        gap=gap,
        negative=value < 0 < target,
        raw=raw if raw is not None else 0,
        dice=dice,
        has_dice=bool(dice),
    )


class FluxUI(GamePresenter):
    game = "flux"

    def event_args(
        self,
        kind: str,
        seat: int | None,
        data: Mapping[str, Any],
        names: Sequence[str],
        words: Words,
    ) -> dict[str, Any]:
        """What an event's data needs worded first: cards as labels, seats as names, lists
        of seats, dice and hands as the sentence shows them."""

        def name(s: Any) -> str:
            return _seat_name(names, s)

        def seats(items: Sequence[Any]) -> str:
            return words.list(name(s) for s in items)

        match kind:
            case "cut":
                cuts = [
                    words("flux-cut-card", name=name(s), card=label(c))
                    for s, c in enumerate(data.get("cuts", []))
                ]
                return {"cuts": ", ".join(cuts)}
            case "claims":
                claims = list(data.get("claims", []))
                return {"count": len(claims), "claimants": seats(claims)}
            case "claim_tie":
                return {"alive": seats(data.get("alive", []))}
            case "claim_draw":
                cards = [
                    words("flux-cut-card", name=name(s), card=label(c))
                    for s, c in _by_seat(data.get("cards", {}))
                ]
                return {"cards": ", ".join(cards)}
            case "play" | "trick":
                return {"card": label(data["card"])}
            case "target":
                return {"dice": _numbers(data.get("dice", []), " + ")}
            case "flux" | "discard":
                discarded = list(data.get("discarded", []))
                return {"cards": _labels(discarded), "count": len(discarded)}
            case "point_dice":
                return {"dice": _numbers(data.get("dice", []))}
            case "dice_phase":
                shown = [
                    words(
                        "flux-shown-value",
                        name=name(s),
                        value=value,
                        count=len(dice),
                        dice=_numbers(dice),
                    )
                    for s, value, dice in data.get("hands", [])
                ]
                return {"hands": "; ".join(shown), "holders": seats(data.get("holders", []))}
            case "dice_used":
                ways = [
                    words("flux-dice-used-seat", name=name(s), way=way_text(way, words),
                          value=value)
                    for s, way, value in data.get("ways", [])
                ]  # fmt: skip
                return {"ways": "; ".join(ways)}
            case "showdown":
                values = [
                    words("flux-showdown-seat", name=name(s), value=value, distance=gap)
                    for s, value, gap in data.get("values", [])
                ]
                return {"values": "; ".join(values)}
            case "settle":
                points = dict(_by_seat(data.get("points", {})))
                gains = [
                    words("flux-settle-gain", name=name(w), points=points.get(int(w), 0))
                    for w in data.get("winners", [])
                ]
                notes = []
                if data.get("undercut"):
                    notes.append(words("flux-note-undercut"))
                if data.get("bullseye"):
                    notes.append(words("flux-note-bullseye", points=data["bullseye"]))
                if data.get("zilched"):
                    notes.append(words("flux-note-zilch", names=seats(data["zilched"])))
                return {
                    "gains": ", ".join(gains),
                    "notes": ", ".join(notes),
                    "has_notes": bool(notes),
                }
            case "poker":
                hands = [
                    words(
                        "flux-poker-seat",
                        name=name(s),
                        cards=_labels(five),
                        rank=hand_rank_text(five, words),
                    )
                    for s, five in _by_seat(data.get("hands", {}))
                ]
                return {"hands": "; ".join(hands), "has_winner": data.get("winner") is not None}
            case "game_over":
                scores = list(data.get("scores", []))
                won = scores[seat] if seat is not None and seat < len(scores) else 0
                reason_args = {k: v for k, v in data.items() if k in ("deals", "limit")}
                return {
                    "reason": end_text(str(data.get("reason", "")), reason_args, words),
                    "points": won,
                }
            case "deal":
                turnup = str(data.get("turnup", ""))
                roller = data.get("roller")
                return {
                    "turnup": label(turnup) if turnup else "",
                    "trumps": card(turnup).suit if turnup else "",
                    "rolled": roller is not None,
                    "roller": name(roller) if roller is not None else "",
                    "dice": _numbers(data.get("dice", []), " + "),
                }
        return {}

    def deal_name(self, observation: FluxObservation) -> str:
        """The hand a revealed table is in ("hand 3"), for the replay's heading."""
        return t("flux-deal-name", hand=observation.hand_no)

    def table_image(
        self, observation: FluxObservation, names: list[str], log: list[str]
    ) -> Image.Image:
        return render_flux(observation, names)

    def turn_text(self, observation: FluxObservation, names: list[str]) -> str:
        obs = observation
        parts = [t("flux-status-target", target=obs.target)]
        if obs.turnup:
            parts.append(t("flux-status-trumps", suit=SUIT_SYMBOLS[card(obs.turnup).suit]))
        parts.append(t("flux-status-cards", count=obs.cards_left))
        status = " · ".join(parts)
        match obs.phase:
            case "claim":
                doing = t("flux-turn-claim")
            case "trick":
                doing = t("flux-turn-trick", player=_who(names, obs.turn))
            case "command":
                low, high = obs.discard_range
                doing = t(
                    "flux-turn-command",
                    player=_who(names, obs.commander),
                    exact=low == high,
                    high=high,
                )
            case "flux":
                doing = t("flux-turn-flux", player=_who(names, obs.commander))
            case "dice":
                who = ", ".join(t("flux-bold-name", name=names[s]) for s in obs.to_act)
                doing = t("flux-turn-dice", players=who or t("flux-nobody"))
            case "poker":
                doing = t("flux-turn-poker")
            case _:
                return end_text(obs.end_reason, obs.end_args, current())
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
        fields = [Field(t("flux-field-score"), str(obs.scores[seat]))]
        if obs.hand:
            value = _own_value(obs)
            raw = hand_value(obs.hand, obs.rules.absolute)
            fields.append(Field(t("flux-field-hand"), _labels(obs.hand), inline=False))
            fields.append(
                Field(t("flux-field-value"), value_text(value, obs.target, raw), inline=False)
            )
        if obs.point_dice[seat]:
            fields.append(Field(t("flux-field-dice"), _numbers(obs.point_dice[seat])))
        if obs.turnup:
            fields.append(Field(t("flux-field-turnup"), t("flux-turnup", card=label(obs.turnup))))
        if legal:
            text, controls = self._moves(obs, legal)
        else:
            text, controls = self._waiting(obs, names), []
        return Panel(
            title=t("flux-private-title"),
            description=text,
            fields=fields,
            controls=controls,
            image_png=render_hand_png(obs.hand, obs.selected) if obs.hand else None,
            image_name="hand.png",
        )

    def _waiting(self, obs: FluxObservation, names: list[str]) -> str:
        if obs.phase == "over":
            return end_text(obs.end_reason, obs.end_args, current())
        if obs.phase in ("claim", "poker", "dice"):
            return t("flux-waiting-others")
        waiting = ", ".join(names[s] for s in obs.to_act) or t("flux-nobody")
        return t("flux-waiting-for", players=waiting)

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
                return t("flux-claim-nothing"), []
            text = t("flux-claim-ask", value=value)
            return text, [
                Control("claim", t("flux-button-claim"), "success", row=0),
                Control("pass", t("flux-button-play-on"), row=0),
            ]
        if obs.phase == "trick":
            plays = [a for a in legal if a.startswith("p:")]
            controls = [
                Control(a, label(a[2:]), "danger" if card(a[2:]).is_red else "secondary",
                        row=0 if i < 4 else 1)
                for i, a in enumerate(plays)
            ]  # fmt: skip
            return t("flux-your-trick"), controls
        if obs.phase == "flux":
            text = t("flux-flux-ask", value=value)
            return text, [
                Control("call", t("flux-button-call"), "success", row=0),
                Control("pass", t("flux-button-play-on"), row=0),
            ]
        if obs.phase == "dice":
            return self._dice_moves(obs, legal)
        if obs.phase == "command":
            low, high = obs.discard_range
            picked = len(obs.selected)
            text = t(
                "flux-command-ask",
                exact=low == high,
                high=high,
                value=value_text(value, obs.target),
            )
            confirm = t("flux-button-discard", count=picked)
            return text, [
                *self._toggles(obs),
                Control("discard", confirm, "primary", row=2, disabled="discard" not in legal),
                Control("call", t("flux-button-call-at", value=value), "success", row=2),
            ]
        text = t("flux-poker-ask")
        return text, [
            *self._toggles(obs),
            Control("show", t("flux-button-show"), "success", row=2, disabled="show" not in legal),
        ]

    def _dice_moves(self, obs: FluxObservation, legal: list[str]) -> tuple[str, list[Control]]:
        """One choice per value the point dice can give, each labelled with that value."""
        rules = obs.rules
        seat = obs.seat if obs.seat is not None else 0
        dice = obs.point_dice[seat]
        raw = hand_value(obs.hand, rules.absolute)
        words = current()
        text = t("flux-dice-ask", value=raw, dice=_numbers(dice))
        choices: list[tuple[int, str, str, str]] = []  # (value, result, how, action)
        for action in legal:
            offset = int(action.removeprefix("dice:"))
            value = raw + offset
            result = t(
                "flux-dice-result",
                value=value,
                distance=distance(value, obs.target),
                zilch=is_zilch(value, obs.target, rules),
            )
            how = dice_way_text(dice, offset, rules, words)
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
                    t("flux-dice-menu"),
                    row=row,
                    placeholder=t("flux-dice-menu-placeholder", low=low, high=high),
                    options=tuple(
                        Option(
                            label=t("flux-dice-option", result=result)[:100],
                            value=action,
                            description=how[:100],
                        )
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
                held = t("flux-revealed-out")
            elif hand:
                value = hand_value(hand, obs.rules.absolute)
                held = t("flux-revealed-hand", cards=_labels(hand), value=value)
            else:
                held = t("flux-revealed-none")
            lines.append(t("flux-revealed-line", name=_name(names, seat), held=held))
        return [Field(t("flux-revealed-title"), "\n".join(lines), inline=False)]

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
        words = current()
        if config.keys:
            variants = "; ".join(
                words("flux-variant-key", key=k, name=words(f"flux-variant-{k}"))
                for k in config.keys
            )
        else:
            variants = words("flux-variants-none")
        text = words("flux-options", variants=variants, decks=config.deck_count)
        ends = []
        if config.deal_rounds is not None:
            ends.append(words("flux-ends-deals", deals=config.deal_rounds))
        if config.limit is not None and "15" in config.keys:
            ends.append(words("flux-ends-limit", limit=config.limit))
        if ends:
            text += " " + words("flux-ends", ends=words.list(ends, "or"), count=len(ends))
        return text


SECRET_MOVES = {"claim": ("claim", "pass"), "poker": ("show",), "dice": ("dice",)}
"""The moves of the phases where every seat chooses at once and in secret: the table says
only that a seat has chosen."""


def move_text(obs: FluxObservation, move: str) -> str:
    """A one-step move in words: "Play 7♥", "Call at 12", "Discard 2♠ K♦", "Play on"."""
    verb, _, rest = move.partition(":")
    if verb == "p":
        return t("flux-move-play", card=label(rest))
    if verb == "discard":
        codes = [c for c in rest.split(",") if c]
        return t("flux-move-discard", cards=_labels(codes), count=len(codes))
    if verb == "show":
        return t("flux-move-show", cards=_labels(rest.split(",")))
    if verb == "dice":
        seat = obs.seat if obs.seat is not None else 0
        way = dice_way_text(obs.point_dice[seat], int(rest), obs.rules, current())
        return f"{way[0].upper()}{way[1:]}"
    if move == "call":
        if obs.phase == "command":
            return t("flux-button-call-at", value=_own_value(obs))
        return t("flux-button-call")
    if move == "claim":
        return t("flux-move-claim")
    if move == "pass":
        return t("flux-button-play-on")
    return move


RULES = ("claim", "flux", "dice", "poker", "only", "no-deal")
"""The rules the hard AI follows without searching (``flux-hint-rule-<reason>``)."""


def hint_text(obs: FluxObservation, analysis: Analysis) -> str:
    """The hint in words (reasons of :func:`bot.engines.flux.ai.analyse`)."""

    def name(move: str) -> str:
        return move_text(obs, move)

    if analysis.kind == "rule":
        why = t(f"flux-hint-rule-{analysis.reason}") if analysis.reason in RULES else ""
        if analysis.move == "pass" and analysis.reason in ("claim", "flux"):
            why = t("flux-hint-rule-pass")
        return hint(analysis, name, why)
    best = analysis.best
    if analysis.kind == "win":

        def figure(value: MoveValue) -> str:
            return t("flux-hint-figure-win", percent=percent(value.value or 0.0))

        why = t(
            "flux-hint-win",
            sampled=sampled(analysis, "deals"),
            percent=percent(best.value or 0.0),
        )
    else:

        def figure(value: MoveValue) -> str:
            return t(
                "flux-hint-figure-points",
                points=signed(value.value or 0.0, "points"),
                percent=percent(value.win or 0.0),
            )

        why = t(
            "flux-hint-points",
            sampled=sampled(analysis, "deals"),
            points=signed(best.value or 0.0, "points"),
            percent=percent(best.win or 0.0),
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
    blurb=t("flux-blurb"),
)
