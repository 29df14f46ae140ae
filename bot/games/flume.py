"""How Flume looks at the table: a public picture, and each hand only in its owner's view.

Nothing secret is on the public message, so it carries no game controls; a player opens
their own view (**My hand** or ``/flume hand``), where the moves open to them are buttons:
the bids, the suits, the cards they may discard (press to toggle, then confirm), the cards
they may play, and for the five-handed call three menus of cards plus *Play alone*.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from bot.engines.analysis import Analysis, MoveValue
from bot.engines.cards import SUIT_SYMBOLS, card
from bot.engines.flume import ai as flume_ai
from bot.engines.flume.engine import FlumeConfig, FlumeEngine, FlumeObservation, card_args
from bot.engines.flume.rules import is_trump
from bot.games.coach import hint, noise_note, percent, trade_off_note
from bot.render.flume import render_flume, render_hand_png
from bot.tables.protocols import GameAI, GameSpec
from bot.tables.views import Control, Field, Option, Panel, Style
from bot.words import Words, current, t
from bot.words.events import GamePresenter

PER_ROW = 5
TWO_COLOUR_STYLE: dict[str, Style] = {
    "S": "secondary",
    "C": "secondary",
    "H": "danger",
    "D": "danger",
}
FOUR_COLOUR_STYLE: dict[str, Style] = {
    "S": "secondary",
    "C": "success",
    "H": "danger",
    "D": "primary",
}
SEP = " · "
"""Joins parts that are worded already (the turn line, a plate's status)."""


def _name(names: Sequence[str], seat: int | None, words: Words | None = None) -> str:
    if seat is None or not 0 <= seat < len(names):
        return (words or current())("flume-nobody")
    return names[seat]


def _suit(suit: str, words: Words | None = None) -> str:
    """A suit as buttons and panels show it: "♥ hearts"."""
    return (words or current())("flume-suit", suit=suit, symbol=SUIT_SYMBOLS[suit])


def label(code: str, words: Words | None = None) -> str:
    """A card on a button and in text: "10♥", "A♠", "High joker"."""
    return (words or current())("flume-card-label", **card_args(code))


def card_name(code: str, words: Words | None = None) -> str:
    """A card in words: "ace of spades", "the high joker"."""
    return (words or current())("flume-card-name", **card_args(code))


def labels(codes: Sequence[str], joiner: str = " ", words: Words | None = None) -> str:
    return joiner.join(label(c, words) for c in codes)


def card_style(code: str, four_colour: bool) -> Style:
    c = card(code)
    if c.is_joker:
        return "primary" if not four_colour else "secondary"
    return (FOUR_COLOUR_STYLE if four_colour else TWO_COLOUR_STYLE)[c.suit]


def _hand_text(obs: FlumeObservation) -> str:
    if not obs.hand:
        return t("flume-field-no-cards")
    return labels(obs.hand, "  ")


def _card_buttons(
    obs: FlumeObservation, codes: list[str], prefix: str, *, chosen: list[str] | None = None
) -> list[Control]:
    controls = []
    for i, code in enumerate(codes):
        picked = chosen is not None and code in chosen
        text = t("flume-control-chosen", label=label(code)) if picked else label(code)
        style: Style = "danger" if picked else card_style(code, obs.four_colour)
        if chosen is not None and not picked:
            style = "secondary"
        controls.append(Control(f"{prefix}{code}", text, style, row=i // PER_ROW))
    return controls


def _bids_open(legal: list[str]) -> str:
    """What may be bid now, as the buttons offer it: "Bid 5 or 6 points, or pass."."""
    bids = [int(a[4:]) for a in legal if a.startswith("bid:")]
    if not bids:
        return t("flume-move-bids-open", count=0, low=0, high=0)
    return t("flume-move-bids-open", count=len(bids), low=bids[0], high=bids[-1])


def _call_menus(obs: FlumeObservation, legal: list[str]) -> list[Control]:
    """Three menus (Discord allows 25 options a menu): trumps, high off-suit, low off-suit."""
    trump = obs.trump
    assert trump is not None
    callable_ = [a.split(":", 1)[1] for a in legal if a.startswith("call:")]
    groups = {
        "call-trump": ("flume-control-call-trump", [c for c in callable_ if is_trump(c, trump)]),
        "call-high": (
            "flume-control-call-high",
            [c for c in callable_ if not is_trump(c, trump) and card(c).rank >= 10],
        ),
        "call-low": (
            "flume-control-call-low",
            [c for c in callable_ if not is_trump(c, trump) and card(c).rank < 10],
        ),
    }
    controls = []
    for row, (action, (message, codes)) in enumerate(groups.items()):
        if not codes:
            continue
        placeholder = t(message)
        options = tuple(Option(label(c), f"call:{c}", card_name(c)) for c in codes[:25])
        controls.append(
            Control(action, placeholder, row=row, options=options, placeholder=placeholder)
        )
    if "alone" in legal:
        controls.append(Control("alone", t("flume-control-alone"), "danger", row=3))
    return controls


class FlumeUI(GamePresenter):
    game = "flume"

    def event_args(
        self,
        kind: str,
        seat: int | None,
        data: Mapping[str, Any],
        names: Sequence[str],
        words: Words,
    ) -> dict[str, Any]:
        """Cards, seats and the hand's points in the data, worded for the event's message."""
        if kind == "trump":
            suit = str(data.get("trump", ""))
            return {"symbol": SUIT_SYMBOLS.get(suit, "")}
        if kind == "call":
            return {"name": words("flume-card-the-name", **card_args(data["card"]))}
        if kind == "play":
            return {"label": label(data["card"], words)}
        if kind == "trick":
            return {"cards": labels(data.get("cards", []), ", ", words)}
        if kind == "partner":
            bidder = data.get("bidder")
            return {
                "found": data.get("partner") is not None,
                "bidder": _name(names, bidder if isinstance(bidder, int) else None, words),
            }
        if kind == "hand":
            awards = data.get("awards", {})
            taken = [
                words("flume-hand-award", point=point, player=_name(names, holder, words))
                for point, holder in awards.items()
                if holder is not None
            ]
            return {"taken": "; ".join(taken), "points": len(taken)}
        if kind == "game_over":
            winners = list(data.get("winners", []))
            scores = data.get("scores", [])
            return {
                "winners": words.list(_name(names, w, words) for w in winners),
                "count": len(winners),
                "points": scores[winners[0]] if winners and scores else 0,
            }
        return {}

    def deal_name(self, observation: FlumeObservation) -> str:
        """The hand a revealed table is in ("hand 3"), for the replay's heading."""
        return t("flume-deal", hand=observation.hand_no)

    def table_image(
        self, observation: FlumeObservation, names: list[str], log: list[str]
    ) -> Image.Image:
        return render_flume(observation, names, log)

    def turn_text(self, observation: FlumeObservation, names: list[str]) -> str:
        obs = observation
        if obs.phase == "over":
            return ""
        who = _name(names, obs.current)
        parts: list[str] = []
        if obs.phase == "bid":
            high = (
                t("flume-turn-high-bid", bid=obs.bid, bidder=_name(names, obs.bidder))
                if obs.bidder is not None
                else t("flume-turn-no-bid")
            )
            parts = [t("flume-turn-bid", player=who), high]
        elif obs.phase == "trump":
            parts = [t("flume-turn-trump", player=who, bid=obs.bid)]
        elif obs.phase == "discard":
            parts = [
                t("flume-turn-discard", player=who),
                t("flume-turn-stock", count=obs.stock_count),
            ]
        elif obs.phase == "call":
            parts = [t("flume-turn-call", player=who)]
        else:
            parts = [t("flume-turn-play", player=who)]
        if obs.trump is not None:
            parts.append(
                t(
                    "flume-turn-trumps",
                    suit=_suit(obs.trump),
                    bid=obs.bid,
                    bidder=_name(names, obs.bidder),
                )
            )
        parts.append(t("flume-turn-dealer", dealer=_name(names, obs.dealer)))
        return t("flume-turn", parts=SEP.join(parts))

    def public_controls(self, observation: FlumeObservation, legal: list[str]) -> list[Control]:
        return []  # every move needs the player's hidden hand: it is made in their own view

    def private_panel(
        self, observation: FlumeObservation, legal: list[str], names: list[str]
    ) -> Panel:
        obs = observation
        seat = obs.seat if obs.seat is not None else 0
        controls: list[Control] = []
        if legal:
            text, controls = self._moves(obs, legal, names)
        elif obs.phase == "over":
            text = t("flume-panel-over")
        else:
            text = t("flume-panel-waiting", player=_name(names, obs.current))
        fields = [Field(t("flume-field-cards"), _hand_text(obs), inline=False)]
        if obs.trump is not None:
            fields.append(Field(t("flume-field-trumps"), _suit(obs.trump)))
        if obs.bidder is not None:
            value = t("flume-field-bid-value", bid=obs.bid, bidder=_name(names, obs.bidder))
            fields.append(Field(t("flume-field-bid"), value))
        fields.append(Field(t("flume-field-score"), str(obs.scores[seat])))
        if obs.n_players == 5 and obs.called is not None:
            fields.append(Field(t("flume-field-called"), self._partner_text(obs, names)))
        if obs.my_discards:
            discards = labels(obs.my_discards, "  ")
            fields.append(Field(t("flume-field-discarded"), discards, inline=False))
        return Panel(
            title=t("flume-panel-title"),
            description=text,
            fields=fields,
            image_png=render_hand_png(obs) if obs.hand else None,
            image_name="hand.png",
            controls=controls,
        )

    def _partner_text(self, obs: FlumeObservation, names: list[str]) -> str:
        assert obs.called is not None
        if obs.partner is not None and obs.partner == obs.seat:
            status = "holder"
        elif obs.partner_known:
            status = "known"
        elif obs.called in obs.my_discards:
            status = "discarded"
        else:
            status = "hidden"
        return t(
            "flume-field-called-value",
            label=label(obs.called),
            status=status,
            partner=_name(names, obs.partner),
        )

    def _moves(
        self, obs: FlumeObservation, legal: list[str], names: list[str]
    ) -> tuple[str, list[Control]]:
        if obs.phase == "bid":
            controls = [Control("pass", t("flume-control-pass"), "secondary", row=0)]
            controls += [
                Control(a, t("flume-control-bid", bid=int(a[4:])), "primary", row=0)
                for a in legal
                if a.startswith("bid:")
            ]
            return t("flume-move-bid-turn", bid=obs.bid, open=_bids_open(legal)), controls
        if obs.phase == "trump":
            controls = [
                Control(a, _suit(a[6:]), card_style("A" + a[6:], obs.four_colour), row=0)
                for a in legal
            ]
            return t("flume-move-trump", bid=obs.bid), controls
        if obs.phase == "discard":
            toggles = [a[2:] for a in legal if a.startswith("d:")]
            controls = _card_buttons(obs, toggles, "d:", chosen=obs.selected)
            confirm = t("flume-control-discard", count=len(obs.selected))
            controls.append(Control("discard", confirm, "success", row=2))
            return t("flume-move-discard", stock=obs.stock_count), controls
        if obs.phase == "call":
            return t("flume-move-call"), _call_menus(obs, legal)
        plays = [c for c in obs.hand if f"play:{c}" in legal]
        controls = _card_buttons(obs, plays, "play:")
        if obs.trick:
            led = ", ".join(
                t("flume-move-on-table", player=_name(names, s), label=label(c))
                for s, c in obs.trick
            )
            text = t("flume-move-play", trick=led)
        else:
            text = t("flume-move-lead")
        return text, controls

    def revealed_fields(self, observation: FlumeObservation, names: list[str]) -> list[Field]:
        obs = observation
        hands = obs.revealed_hands or [[] for _ in range(obs.n_players)]
        discards = obs.revealed_discards or [[] for _ in range(obs.n_players)]
        lines = []
        for seat in range(obs.n_players):
            held = labels(hands[seat]) or t("flume-revealed-no-cards")
            if discards[seat]:
                held = t("flume-revealed-threw", cards=held, discards=labels(discards[seat]))
            lines.append(t("flume-revealed-line", player=_name(names, seat), held=held))
        fields = [Field(t("flume-revealed-hands"), "\n".join(lines), inline=False)]
        if obs.n_players == 5 and obs.called is not None and not obs.alone:
            value = t(
                "flume-revealed-partner-value",
                label=label(obs.called),
                found=obs.partner is not None,
                partner=_name(names, obs.partner),
            )
            fields.append(Field(t("flume-revealed-partner"), value))
        if obs.revealed_stock:
            fields.append(
                Field(t("flume-revealed-stock"), labels(obs.revealed_stock), inline=False)
            )
        return fields

    def hint_text(self, observation: FlumeObservation, analysis: Analysis, names: list[str]) -> str:
        """The hard AI's bid, suit or card with the chances its search found (see
        :func:`bot.engines.flume.ai.analyse`)."""
        return hint_text(observation, analysis)

    def options_text(self, config: FlumeConfig) -> str:
        return t("flume-options", target=config.target, four_colour=config.four_colour)


def move_text(move: str) -> str:
    """A one-step move in words: "Bid 4", "Pass", "Name ♥ hearts trumps", "Play 10♥"."""
    verb, _, rest = move.partition(":")
    if verb == "bid":
        return t("flume-move-name", move="bid", bid=rest)
    if verb == "trump":
        return t("flume-move-name", move="trump", suit=_suit(rest))
    if verb == "play":
        return t("flume-move-name", move="play", label=label(rest))
    if verb == "discard":
        codes = [c for c in rest.split(",") if c]
        if not codes:
            return t("flume-move-name", move="keep")
        return t("flume-move-name", move="discard", cards=labels(codes))
    if verb == "call":
        return t("flume-move-name", move="call", label=label(rest))
    if move in ("pass", "alone"):
        return t("flume-move-name", move=move)
    return move


RULES = ("discard", "call", "only", "no-deal", "no-search")
"""The rules the hard AI decides by without a search (``reason`` of a rule analysis), each
explained by ``flume-hint-rule``."""


def _signed(amount: float) -> str:
    """ "+1.4", "-0.5", "±0" (one decimal): a score difference."""
    shown = f"{amount:+.1f}"
    return "±0" if shown in ("+0.0", "-0.0") else shown


def hint_text(obs: FlumeObservation, analysis: Analysis) -> str:
    """The hint in words (reasons of :func:`bot.engines.flume.ai.analyse`)."""
    if analysis.kind == "rule":
        reason = analysis.reason if analysis.reason in RULES else "other"
        return hint(analysis, move_text, t("flume-hint-rule", reason=reason))
    best = analysis.best

    def figure(value: MoveValue) -> str:
        points = float(value.detail.get("points", 0.0))
        return t("flume-hint-figure", chance=percent(value.win or 0.0), points=_signed(points))

    why = t(
        "flume-hint-search",
        samples=analysis.samples,
        team=obs.n_players != 5,
        game=analysis.scope == "game",
        chance=percent(best.win or 0.0),
        points=_signed(float(best.detail.get("points", 0.0))),
    )
    why += noise_note(analysis, move_text, figure) or trade_off_note(
        analysis, move_text, t("flume-hint-unit")
    )
    return hint(analysis, move_text, why, figure)


SPEC = GameSpec(
    engine=FlumeEngine(),
    ui=FlumeUI(),
    emoji="🃏",
    ai=GameAI(decide=flume_ai.decide, analyse=flume_ai.analyse),
    blurb=t("flume-blurb"),  # worded once, at import, in the default language
)
