"""How Flume looks at the table: a public picture, and each hand only in its owner's view.

Nothing secret is on the public message, so it carries no game controls; a player opens
their own view (**My hand** or ``/flume hand``), where the moves open to them are buttons:
the bids, the suits, the cards they may discard (press to toggle, then confirm), the cards
they may play, and for the five-handed call three menus of cards plus *Play alone*.
"""

from __future__ import annotations

from PIL import Image

from bot.engines.analysis import Analysis, MoveValue
from bot.engines.base import plural
from bot.engines.cards import SUIT_NAMES, SUIT_SYMBOLS, card
from bot.engines.flume import ai as flume_ai
from bot.engines.flume.engine import FlumeConfig, FlumeEngine, FlumeObservation
from bot.engines.flume.rules import POINT_LABELS, is_trump
from bot.games.coach import hint, noise_note, percent, sampled, signed, trade_off_note
from bot.render.flume import render_flume, render_hand_png
from bot.tables.protocols import GameAI, GameSpec
from bot.tables.views import Control, Field, Option, Panel, Style
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


def _name(names: list[str], seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(names):
        return "nobody"
    return names[seat]


def _suit(suit: str) -> str:
    return f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}"


def card_style(code: str, four_colour: bool) -> Style:
    c = card(code)
    if c.is_joker:
        return "primary" if not four_colour else "secondary"
    return (FOUR_COLOUR_STYLE if four_colour else TWO_COLOUR_STYLE)[c.suit]


def _hand_text(obs: FlumeObservation) -> str:
    if not obs.hand:
        return "(no cards)"
    return "  ".join(card(c).label for c in obs.hand)


def _card_buttons(
    obs: FlumeObservation, codes: list[str], prefix: str, *, chosen: list[str] | None = None
) -> list[Control]:
    controls = []
    for i, code in enumerate(codes):
        picked = chosen is not None and code in chosen
        label = card(code).label + (" ✗" if picked else "")
        style: Style = "danger" if picked else card_style(code, obs.four_colour)
        if chosen is not None and not picked:
            style = "secondary"
        controls.append(Control(f"{prefix}{code}", label, style, row=i // PER_ROW))
    return controls


def _bids_open(legal: list[str]) -> str:
    """What may be bid now, as the buttons offer it: "Bid 5 or 6 points, or pass."."""
    bids = [int(a[4:]) for a in legal if a.startswith("bid:")]
    if not bids:
        return "Only pass is left."
    if len(bids) == 1:
        return f"Bid {plural(bids[0], 'point')} or pass."
    if len(bids) == 2:
        return f"Bid {bids[0]} or {bids[1]} points, or pass."
    return f"Bid {bids[0]} to {bids[-1]} points or pass."


def _call_menus(obs: FlumeObservation, legal: list[str]) -> list[Control]:
    """Three menus (Discord allows 25 options a menu): trumps, high off-suit, low off-suit."""
    trump = obs.trump
    assert trump is not None
    callable_ = [a.split(":", 1)[1] for a in legal if a.startswith("call:")]
    groups = {
        "call-trump": ("Call a trump", [c for c in callable_ if is_trump(c, trump)]),
        "call-high": (
            "Call another ace, king, queen, jack or 10",
            [c for c in callable_ if not is_trump(c, trump) and card(c).rank >= 10],
        ),
        "call-low": (
            "Call another 9 to 2",
            [c for c in callable_ if not is_trump(c, trump) and card(c).rank < 10],
        ),
    }
    controls = []
    for row, (action, (placeholder, codes)) in enumerate(groups.items()):
        if not codes:
            continue
        options = tuple(Option(card(c).label, f"call:{c}", card(c).name) for c in codes[:25])
        controls.append(
            Control(action, placeholder, row=row, options=options, placeholder=placeholder)
        )
    if "alone" in legal:
        controls.append(Control("alone", "Play alone", "danger", row=3))
    return controls


class FlumeUI(GamePresenter):
    game = "flume"

    def table_image(
        self, observation: FlumeObservation, names: list[str], log: list[str]
    ) -> Image.Image:
        return render_flume(observation, names, log)

    def turn_text(self, observation: FlumeObservation, names: list[str]) -> str:
        obs = observation
        if obs.phase == "over":
            return ""
        who = f"**{_name(names, obs.current)}**"
        parts: list[str] = []
        if obs.phase == "bid":
            high = (
                f"high bid {obs.bid} by {_name(names, obs.bidder)}"
                if obs.bidder is not None
                else "no bid yet"
            )
            parts = [f"{who} to bid or pass", high]
        elif obs.phase == "trump":
            parts = [f"{who} won the bid at {obs.bid} and names trumps"]
        elif obs.phase == "discard":
            parts = [
                f"{who} to discard non-trumps",
                f"{plural(obs.stock_count, 'card')} in the stock",
            ]
        elif obs.phase == "call":
            parts = [f"{who} calls a partner by naming a card"]
        else:
            parts = [f"{who} to play"]
        if obs.trump is not None:
            parts.append(f"trumps {_suit(obs.trump)}, bid {obs.bid} by {_name(names, obs.bidder)}")
        parts.append(f"dealer {_name(names, obs.dealer)}")
        return " · ".join(parts) + "\nOpen **My hand** to see your cards and make your move."

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
            text = "The game is over."
        else:
            text = f"Waiting for **{_name(names, obs.current)}**."
        fields = [Field("Your cards", _hand_text(obs), inline=False)]
        if obs.trump is not None:
            fields.append(Field("Trumps", _suit(obs.trump)))
        if obs.bidder is not None:
            fields.append(Field("Bid", f"{obs.bid} by {_name(names, obs.bidder)}"))
        fields.append(Field("Your score", str(obs.scores[seat])))
        if obs.n_players == 5 and obs.called is not None:
            fields.append(Field("Called card", self._partner_text(obs, names)))
        if obs.my_discards:
            discards = "  ".join(card(c).label for c in obs.my_discards)
            fields.append(Field("You discarded", discards, inline=False))
        return Panel(
            title="Your hand",
            description=text,
            fields=fields,
            image_png=render_hand_png(obs) if obs.hand else None,
            image_name="hand.png",
            controls=controls,
        )

    def _partner_text(self, obs: FlumeObservation, names: list[str]) -> str:
        assert obs.called is not None
        label = card(obs.called).label
        if obs.partner is not None and obs.partner == obs.seat:
            return f"{label}: you hold it, so you are the bidder's secret partner."
        if obs.partner_known:
            return f"{label}: {_name(names, obs.partner)} is the partner."
        if obs.called in obs.my_discards:
            return f"{label}: you discarded it, so the bidder plays alone."
        return f"{label}: the partner is hidden until it is played."

    def _moves(
        self, obs: FlumeObservation, legal: list[str], names: list[str]
    ) -> tuple[str, list[Control]]:
        if obs.phase == "bid":
            controls = [Control("pass", "Pass", "secondary", row=0)]
            controls += [
                Control(a, f"Bid {a[4:]}", "primary", row=0) for a in legal if a.startswith("bid:")
            ]
            high = f"The bid stands at {obs.bid}." if obs.bid else "Nobody has bid yet."
            return f"Your turn to bid. {high} {_bids_open(legal)}", controls
        if obs.phase == "trump":
            controls = [
                Control(a, _suit(a[6:]), card_style("A" + a[6:], obs.four_colour), row=0)
                for a in legal
            ]
            return f"You won the bid at {obs.bid}: name trumps.", controls
        if obs.phase == "discard":
            toggles = [a[2:] for a in legal if a.startswith("d:")]
            controls = _card_buttons(obs, toggles, "d:", chosen=obs.selected)
            count = len(obs.selected)
            confirm = f"Discard {count} and draw {count}" if count else "Keep all my cards"
            controls.append(Control("discard", confirm, "success", row=2))
            text = (
                "Press the non-trumps you want to throw away (press again to keep one), then "
                f"confirm. The stock holds {obs.stock_count}."
            )
            return text, controls
        if obs.phase == "call":
            text = (
                "Call your partner by naming a card you don't hold: whoever has it plays with "
                "you, and nobody knows who until it is played. Or play alone."
            )
            return text, _call_menus(obs, legal)
        plays = [c for c in obs.hand if f"play:{c}" in legal]
        controls = _card_buttons(obs, plays, "play:")
        if obs.trick:
            led = ", ".join(f"{_name(names, s)} {card(c).label}" for s, c in obs.trick)
            text = f"Your turn to play. On the table: {led}."
        else:
            text = "Your lead: play any card."
        return text, controls

    def revealed_fields(self, observation: FlumeObservation, names: list[str]) -> list[Field]:
        obs = observation
        hands = obs.revealed_hands or [[] for _ in range(obs.n_players)]
        discards = obs.revealed_discards or [[] for _ in range(obs.n_players)]
        lines = []
        for seat in range(obs.n_players):
            held = " ".join(card(c).label for c in hands[seat]) or "no cards"
            if discards[seat]:
                held += f" · threw away {' '.join(card(c).label for c in discards[seat])}"
            lines.append(f"**{_name(names, seat)}**: {held}")
        fields = [Field("Every hand", "\n".join(lines), inline=False)]
        if obs.n_players == 5 and obs.called is not None and not obs.alone:
            partner = (
                f"**{_name(names, obs.partner)}**"
                if obs.partner is not None
                else "nobody: no one held that card"
            )
            fields.append(Field("Partner", f"{card(obs.called).label}: {partner}"))
        if obs.revealed_stock:
            stock = " ".join(card(c).label for c in obs.revealed_stock)
            fields.append(Field("Left in the stock", stock, inline=False))
        return fields

    def hint_text(self, observation: FlumeObservation, analysis: Analysis, names: list[str]) -> str:
        """The hard AI's bid, suit or card with the chances its search found (see
        :func:`bot.engines.flume.ai.analyse`)."""
        return hint_text(observation, analysis)

    def options_text(self, config: FlumeConfig) -> str:
        deck = "four-colour deck" if config.four_colour else "two-colour deck"
        return f"First to {config.target} points; {deck}. 4 players in teams, or 5 with a called partner."


def point_lines(obs: FlumeObservation, names: list[str]) -> list[str]:
    """The last hand's points in words (for tests and help texts)."""
    if obs.last_hand is None:
        return []
    return [
        f"{POINT_LABELS[name]}: {_name(names, seat)}"
        for name, seat in obs.last_hand.awards.items()
        if seat is not None
    ]


def move_text(move: str) -> str:
    """A one-step move in words: "Bid 4", "Pass", "Name ♥ hearts trumps", "Play 10♥"."""
    verb, _, rest = move.partition(":")
    if verb == "bid":
        return f"Bid {rest}"
    if verb == "trump":
        return f"Name {_suit(rest)} trumps"
    if verb == "play":
        return f"Play {card(rest).label}"
    if verb == "discard":
        codes = [c for c in rest.split(",") if c]
        return "Discard " + " ".join(card(c).label for c in codes) if codes else "Keep every card"
    if verb == "call":
        return f"Call {card(rest).label}"
    return {"pass": "Pass", "alone": "Play alone"}.get(move, move)


RULES = {
    "discard": "The hard AI doesn't search discards: it throws away every non-trump but "
    "off-suit aces (the lowest first when the stock is short) to draw more trumps.",
    "call": "It calls the highest trump you don't hold, so that your partner is strong where "
    "it counts.",
    "only": "It's the only move open to you here.",
    "no-deal": "No deal of the unseen cards could be played out in time, so this is the "
    "normal AI's choice.",
    "no-search": "Here the hard AI bids as the normal AI does, from its estimate of your hand.",
}


def hint_text(obs: FlumeObservation, analysis: Analysis) -> str:
    """The hint in words (reasons of :func:`bot.engines.flume.ai.analyse`)."""
    if analysis.kind == "rule":
        return hint(analysis, move_text, RULES.get(analysis.reason, ""))
    best = analysis.best
    game = analysis.scope == "game"
    side = "your side" if obs.n_players == 5 else "your team"
    what = f"{side} wins the game" if game else f"{side} comes out ahead in this hand"

    def figure(value: MoveValue) -> str:
        points = float(value.detail.get("points", 0.0))
        return f"{percent(value.win or 0.0)} · {signed(points, 'points')}"

    why = (
        f"{sampled(analysis, 'deals')} of the cards you can't see, played out to the end of "
        f"the hand, {what} {percent(best.win or 0.0)} of the time with it, scoring "
        f"{signed(float(best.detail.get('points', 0.0)), 'points')} over the other side on "
        "average."
    )
    why += noise_note(analysis, move_text, figure) or trade_off_note(analysis, move_text, "points")
    return hint(analysis, move_text, why, figure)


SPEC = GameSpec(
    engine=FlumeEngine(),
    ui=FlumeUI(),
    emoji="🃏",
    ai=GameAI(decide=flume_ai.decide, analyse=flume_ai.analyse),
    blurb="Bid, name trumps and bring home high, low, the bowers, the jokers and game.",
)
