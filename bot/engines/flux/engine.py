"""Flux (the three-deck game also called Quantum): reach the target value, then win at poker.

Rules: ``shared/seeds/000`` with the Flux section of ``shared/RULINGS.md``; the pure rule
functions (values, tricks, dice, scoring, variants) live in :mod:`bot.engines.flux.rules`,
the AI in :mod:`bot.engines.flux.ai`.

A hand runs through phases:

* ``claim``: every seat answers at once and in secret, ``claim`` (only with a hand at the
  target) or ``pass``; one event reveals the answers together.
* ``trick``: from the leader round the table each seat plays ``p:<card>`` and is dealt a
  replacement at once. The winner scores 1 and takes command; a dead trick is led again.
* ``command``: the discard die is rolled for the commander (a 6 is a flux). They either
  ``call`` or discard: ``t0``-``t6`` toggle cards, ``discard`` confirms, or one step
  ``discard:AS,TH``. ``flux``: after a flux whose new hand is at the target, ``call`` or
  ``pass``.
* ``dice`` (Variants 9 and 11): when a hand is scored, every hand is shown; then each seat
  holding point dice chooses at once and in secret how to use them, one action per value
  they can make: ``dice:+5`` (add), ``dice:-3`` (subtract), ``dice:0`` (ignore); several
  dice combine (``dice:+1`` from +3 and -2). One event reveals the choices, then scoring.
* ``poker``: every seat at once picks five of its seven (toggles, then ``show``, or
  ``show:AS,KS,...``); the best five is preselected. One event reveals the hands.

Cards are codes; the shoe is drawn from the top, the ten burned cards sit below it. Every one
of the ``52 * decks`` cards is always in exactly one place: a hand, the trick, the turn-up,
the shoe, the burned pile or ``out`` (used cards, never reshuffled in the basic game).
"""

from __future__ import annotations

import re
from itertools import combinations
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from bot.engines.base import (
    ConfigError,
    Engine,
    Event,
    IllegalAction,
    InvalidAction,
    Outcome,
    Rng,
)
from bot.engines.cards import card, label, sort_codes, standard_deck
from bot.engines.flux.rules import (
    Rules,
    Settlement,
    badness,
    best_value,
    claim_key,
    dice_choices,
    dice_way,
    distance,
    hand_value,
    parse_variants,
    poker_points,
    poker_winner,
    settle,
    trick_winner,
    unique_top,
)
from bot.engines.poker import best_five

Phase = Literal["claim", "trick", "command", "flux", "dice", "poker", "over"]
HAND_SIZE = 7
BURN = 10
FLUX_POINTS = 5
ORIGINAL_POINTS = 15
DEAL_ORDER_SUITS = "CDHS"  # cutting for the deal: clubs lowest, spades highest

_ACTION = re.compile(
    r"^(?:(?P<simple>claim|pass|call|discard|show)"
    r"|t(?P<toggle>[0-6])"
    r"|p:(?P<play>[2-9TJQKA][SHDC])"
    r"|dice:(?P<dice>[+-]?\d{1,3})"
    r"|(?P<verb>discard|show):(?P<cards>(?:[2-9TJQKA][SHDC](?:,[2-9TJQKA][SHDC])*)?))$"
)


class FluxConfig(BaseModel):
    """Table options: the variants (e.g. ``"1,4,17"``); for Variant 18, the decks; for
    Variant 15, how long the game lasts: ``deals`` each player makes and/or a score ``limit``
    (whichever comes first; two deals each when neither is set)."""

    variants: str = ""
    decks: int | None = Field(default=None, ge=1, le=6)
    deals: int | None = Field(default=None, ge=1, le=10)
    limit: int | None = Field(default=None, ge=10, le=1000)

    @field_validator("variants", mode="before")
    @classmethod
    def _canonical(cls, value: Any) -> str:
        if value is None:
            return ""
        return ",".join(parse_variants(value))

    @model_validator(mode="after")
    def _check_decks(self) -> FluxConfig:
        short = "18" in self.keys
        if self.decks is not None and self.decks < 3 and not short:
            raise ConfigError("flux-config-few-decks-need-18")
        if self.decks is not None and self.decks >= 3 and short:
            raise ConfigError("flux-config-18-fewer-decks")
        if (self.deals is not None or self.limit is not None) and "15" not in self.keys:
            raise ConfigError("flux-config-length-needs-15")
        return self

    @property
    def keys(self) -> list[str]:
        return [k for k in self.variants.split(",") if k]

    @property
    def rules(self) -> Rules:
        return Rules.of(self.keys)

    @property
    def deal_rounds(self) -> int | None:
        """Variant 15: how many times each player deals before the game ends (None: no cap)."""
        if "15" not in self.keys:
            return None
        if self.deals is None and self.limit is None:
            return 2
        return self.deals

    @property
    def score_limit(self) -> int | None:
        """The lowest score that ends the game: Variants 8 and 18, and 15's limit."""
        limits = [self.rules.score_limit, self.limit if "15" in self.keys else None]
        found = [x for x in limits if x is not None]
        return min(found) if found else None

    @property
    def deck_count(self) -> int:
        if self.decks is not None:
            return self.decks
        return 2 if "18" in self.keys else 3


class Play(BaseModel):
    seat: int
    card: str


class SeatResult(BaseModel):
    """One seat's line in the public result of the last value game."""

    seat: int
    hand: list[str] = Field(default_factory=list)  # shown only when the hands were exposed
    value: int | None = None  # after the point dice
    dice: list[int] = Field(default_factory=list)  # Variants 9 and 11
    dice_use: int = 0  # what the seat chose to add (negative: subtract) with them
    distance: int | None = None
    points: int = 0


class HandResult(BaseModel):
    """What the last hand's showdowns made public."""

    hand_no: int
    kind: str = ""  # "call", "settled", "original", "ran out"
    caller: int | None = None
    winners: list[int] = Field(default_factory=list)
    undercut: bool = False
    bullseye: int = 0
    zilched: list[int] = Field(default_factory=list)
    seats: list[SeatResult] = Field(default_factory=list)
    poker: dict[int, list[str]] = Field(default_factory=dict)
    poker_names: dict[int, str] = Field(default_factory=dict)  # English, in states saved before
    poker_winner: int | None = None
    poker_points: int = 0
    eliminated: int | None = None


class HandScore(BaseModel):
    """Where one hand's points went, seat by seat (public: the final screen's score sheet).

    ``value_story`` and ``poker_story`` say how those were won, as data for the presenter
    (``value_game`` and ``poker_game`` are the English of sheets saved before, naming seats as
    ``{p0}``, ``{p1}`` …).
    """

    hand_no: int
    target: int = 0
    tricks: list[int]
    fluxes: list[int]
    value: list[int]
    poker: list[int]
    value_game: str = ""
    poker_game: str = ""
    value_story: dict[str, Any] | None = None
    poker_story: dict[str, Any] | None = None

    def total(self, seat: int) -> int:
        return self.tricks[seat] + self.fluxes[seat] + self.value[seat] + self.poker[seat]


SCORE_KINDS = ("tricks", "fluxes", "value", "poker")


class PendingSettle(BaseModel):
    """A value game waiting for the point dice choices (Variants 9 and 11); all public."""

    caller: int | None
    kind: str
    after_flux: bool = False
    bullseye: int = 0  # the bull's-eye bonus the caller would get on the target


class FluxState(BaseModel):
    config: FluxConfig
    n_players: int
    rng: Rng
    phase: Phase = "claim"
    scores: list[int]
    active: list[bool]  # False once eliminated (Variant 22)
    eliminated: list[int] = Field(default_factory=list)  # in order of elimination
    dealer: int = 0
    hand_no: int = 0
    shoe: list[str] = Field(default_factory=list)  # top first
    burned: list[str] = Field(default_factory=list)
    out: list[str] = Field(default_factory=list)
    # what of ``out`` the table saw leave play (tricks, discards, fluxes, shown hands), and
    # per seat the rest of its own hands; a card counter's memory since the last shuffle
    seen_out: list[str] = Field(default_factory=list)
    own_out: list[list[str]] = Field(default_factory=list)
    turnup: str | None = None
    cutoff_reached: bool = False
    hands: list[list[str]]
    selected: list[list[int]]
    exposed: list[bool]
    target: int = 0
    target_dice: list[int] = Field(default_factory=list)
    game_target: int | None = None  # Variant 17
    max_tricks: int | None = None  # Variant 3
    bullseye_bonus: int = 10  # Variant 10 changes it
    bonus_trick: tuple[int, int] | None = None  # Variant 11: (trick number, die value)
    claims: list[bool | None]
    trick: list[Play] = Field(default_factory=list)
    leader: int = 0
    turn: int | None = None
    tricks_won: int = 0
    commander: int | None = None
    discard_roll: int | None = None
    discard_range: tuple[int, int] = (0, 0)
    point_dice: list[list[int]]
    dice_use: list[int | None] = Field(default_factory=list)  # chosen at scoring, per seat
    settling: PendingSettle | None = None  # phase "dice": the value game being scored
    poker_choice: list[list[str] | None]
    last_result: HandResult | None = None
    ledger: list[HandScore] = Field(default_factory=list)  # every hand's points, by source
    end_reason: str = ""  # a code (``flux-end-...``); English in states saved before
    end_args: dict[str, int] = Field(default_factory=dict)


class FluxObservation(BaseModel):
    seat: int | None
    n_players: int
    variants: list[str]
    decks: int
    phase: Phase
    hand_no: int
    dealer: int
    scores: list[int]
    active: list[bool]
    hand: list[str]  # this seat's own hand (empty for a spectator)
    selected: list[int]
    hand_sizes: list[int]
    shown: list[list[str] | None]  # hands exposed to everyone this hand
    turnup: str | None
    target: int
    target_dice: list[int]
    discard_roll: int | None
    discard_range: tuple[int, int]
    commander: int | None
    trick: list[Play]
    leader: int
    turn: int | None
    tricks_won: int
    max_tricks: int | None
    bullseye_bonus: int
    bonus_trick: tuple[int, int] | None
    point_dice: list[list[int]]
    settling: PendingSettle | None  # phase "dice": who called, and the bull's-eye at stake
    my_dice_use: int | None  # this seat's secret choice in phase "dice"
    cards_left: int  # above the cut-off
    burned: list[str]
    out_count: int
    seen_out: list[str] = Field(default_factory=list)
    """The used cards this seat saw leave play since the last shuffle: every card played,
    discarded, fluxed or shown to the table, and its own hands' other cards."""
    to_act: list[int]
    answered: list[bool]  # in a simultaneous phase: has this seat chosen yet
    my_claim: bool | None
    can_claim: bool
    my_poker: list[str] | None
    last_result: HandResult | None
    ledger: list[HandScore] = Field(default_factory=list)
    scores_final: bool
    winner: int | None
    end_reason: str
    end_args: dict[str, int] = Field(default_factory=dict)

    @property
    def rules(self) -> Rules:
        return Rules.of(self.variants)

    @property
    def trump(self) -> str | None:
        return card(self.turnup).suit if self.turnup else None


def _value_story(
    caller: int | None, kind: str, result: Settlement, values: dict[int, int], target: int
) -> dict[str, Any]:
    """How a value game was won, as data for the score sheet (worded by the presenter)."""
    story: dict[str, Any] = {
        "how": "settled" if caller is None else "undercut" if result.undercut else "called",
        "kind": kind,
        "caller": caller,
        "winners": list(result.winners),
        "zilched": list(result.zilched),
        "target": target,
        "bullseye": result.bullseye,
    }
    if caller is not None:
        story["value"] = values[caller]
        story["gap"] = distance(values[caller], target)
    return story


class FluxEngine(Engine[FluxConfig, FluxState, FluxObservation]):
    """Flux for 2 to 6 seats, any of them AI."""

    name: ClassVar[str] = "flux"
    title: ClassVar[str] = "Flux"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    config_model: ClassVar[type[BaseModel]] = FluxConfig
    state_model: ClassVar[type[BaseModel]] = FluxState

    # --- setup --------------------------------------------------------------------------

    def new_game(self, config: FluxConfig, n_players: int, seed: int) -> FluxState:
        self.check_player_count(n_players)
        needed = BURN + (HAND_SIZE + 1) * n_players + 1
        if config.deck_count * 52 < needed:
            raise ConfigError(
                "flux-config-too-few-decks", decks=config.deck_count, players=n_players
            )
        n = n_players
        state = FluxState(
            config=config,
            n_players=n,
            rng=Rng(seed=seed),
            scores=[0] * n,
            active=[True] * n,
            hands=[[] for _ in range(n)],
            selected=[[] for _ in range(n)],
            exposed=[False] * n,
            claims=[None] * n,
            point_dice=[[] for _ in range(n)],
            dice_use=[None] * n,
            poker_choice=[None] * n,
        )
        rules = config.rules
        state.shoe = [c for _ in range(config.deck_count) for c in standard_deck()]
        events = self._cut_for_deal(state)
        if rules.has("3"):
            state.max_tricks = state.rng.randint(1, 12)
        if rules.has("10"):
            state.bullseye_bonus = 10 * state.rng.randint(1, 10)
        if rules.has("11"):
            state.bonus_trick = (state.rng.randint(1, 4), state.rng.randint(1, 6))
        if rules.has("17"):
            state.target_dice = self._roll_target_dice(state)
            state.game_target = sum(state.target_dice)
        self._fresh_shoe(state)
        self._start_hand(state, events)
        return state

    def _cut_for_deal(self, state: FluxState) -> list[Event]:
        """Each seat cuts a card; the lowest deals (ace high, clubs lowest on equal ranks).

        Seats that cut identical cards are ignored; if every seat is ignored they cut again.
        The cut cards go back before the shuffle.
        """
        while True:
            state.rng.shuffle(state.shoe)
            cuts = state.shoe[: state.n_players]
            counts = {c: cuts.count(c) for c in cuts}
            alive = [s for s, c in enumerate(cuts) if counts[c] == 1]
            if alive:
                break

        def low(seat: int) -> tuple[int, int]:
            c = card(cuts[seat])
            return (c.rank, DEAL_ORDER_SUITS.index(c.suit))

        dealer = min(alive, key=low)
        state.dealer = dealer
        return [Event(kind="cut", seat=dealer, data={"cuts": cuts, "dealer": dealer})]

    def _fresh_shoe(self, state: FluxState) -> None:
        """Shuffle every card into the shoe and burn ten below it as the cut-off."""
        pool = state.shoe + state.burned + state.out
        for hand in state.hands:
            pool += hand
            hand.clear()
        pool += [p.card for p in state.trick]
        if state.turnup is not None:
            pool.append(state.turnup)
        state.trick, state.turnup, state.out, state.burned = [], None, [], []
        state.seen_out, state.own_out = [], []
        state.rng.shuffle(pool)
        state.burned, state.shoe = pool[:BURN], pool[BURN:]
        state.cutoff_reached = False

    def _roll_target_dice(self, state: FluxState) -> list[int]:
        rules = state.config.rules
        if rules.has("7"):
            return [state.rng.randint(1, 20), state.rng.randint(0, 9)]
        if rules.has("2"):
            return [state.rng.randint(1, 20)]
        return state.rng.dice(3, 6)

    # --- queries ------------------------------------------------------------------------

    def seats_in_play(self, state: FluxState) -> list[int]:
        return [s for s in range(state.n_players) if state.active[s]]

    def next_seat(self, state: FluxState, seat: int) -> int:
        for step in range(1, state.n_players + 1):
            candidate = (seat + step) % state.n_players
            if state.active[candidate]:
                return candidate
        return seat

    def to_act(self, state: FluxState) -> frozenset[int]:
        if state.phase == "claim":
            return frozenset(s for s in self.seats_in_play(state) if state.claims[s] is None)
        if state.phase == "poker":
            return frozenset(s for s in self._poker_seats(state) if state.poker_choice[s] is None)
        if state.phase == "dice":
            return frozenset(s for s in self._dice_seats(state) if state.dice_use[s] is None)
        if state.phase == "trick" and state.turn is not None:
            return frozenset({state.turn})
        if state.phase in ("command", "flux") and state.commander is not None:
            return frozenset({state.commander})
        return frozenset()

    def is_over(self, state: FluxState) -> bool:
        return state.phase == "over"

    def value_of(self, state: FluxState, seat: int) -> int:
        """A seat's value: with the use of its point dice it chose, or (before it has chosen)
        the value nearest the target they can make."""
        rules = state.config.rules
        raw = hand_value(state.hands[seat], rules.absolute)
        chosen = state.dice_use[seat] if seat < len(state.dice_use) else None
        if chosen is not None:
            return raw + chosen
        return best_value(raw, state.point_dice[seat], state.target, rules)

    def _dice_seats(self, state: FluxState) -> list[int]:
        return [s for s in self.seats_in_play(state) if state.point_dice[s]]

    def can_claim(self, state: FluxState, seat: int) -> bool:
        rules = state.config.rules
        hand = state.hands[seat]
        return (
            state.phase == "claim"
            and len(hand) == HAND_SIZE
            and distance(hand_value(hand, rules.absolute), state.target) == 0
        )

    def legal_actions(self, state: FluxState, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        hand = state.hands[seat]
        if state.phase == "claim":
            return (["claim"] if self.can_claim(state, seat) else []) + ["pass"]
        if state.phase == "trick":
            return [f"p:{c}" for c in dict.fromkeys(hand)]
        if state.phase == "flux":
            return ["call", "pass"]
        if state.phase == "dice":
            return [
                f"dice:{o:+d}" if o else "dice:0"
                for o in dice_choices(state.point_dice[seat], state.config.rules)
            ]
        toggles = [f"t{i}" for i in range(len(hand))]
        if state.phase == "command":
            low, high = state.discard_range
            confirm = ["discard"] if low <= len(state.selected[seat]) <= high else []
            return [*toggles, *confirm, "call"]
        if state.phase == "poker":
            return [*toggles, *(["show"] if len(state.selected[seat]) == 5 else [])]
        return []

    def move_options(self, state: FluxState, seat: int) -> list[str]:
        """Every complete one-step move (what a random player picks from)."""
        if seat not in self.to_act(state):
            return []
        hand = state.hands[seat]
        if state.phase == "command":
            low, high = state.discard_range
            moves = {
                "discard:" + ",".join(hand[i] for i in combo)
                for k in range(low, high + 1)
                for combo in combinations(range(len(hand)), k)
            }
            return ["call", *sorted(moves)]
        if state.phase == "poker":
            fives = {
                ",".join(hand[i] for i in combo) for combo in combinations(range(len(hand)), 5)
            }
            return [f"show:{f}" for f in sorted(fives)]
        return [a for a in self.legal_actions(state, seat) if not a.startswith("t")]

    # --- observation --------------------------------------------------------------------

    def observe(self, state: FluxState, seat: int | None) -> FluxObservation:
        mine = seat is not None and 0 <= seat < state.n_players
        to_act = self.to_act(state)
        simultaneous = state.phase in ("claim", "poker", "dice")
        answered = [
            simultaneous and state.active[s] and s not in to_act for s in range(state.n_players)
        ]
        return FluxObservation(
            seat=seat,
            n_players=state.n_players,
            variants=state.config.keys,
            decks=state.config.deck_count,
            phase=state.phase,
            hand_no=state.hand_no,
            dealer=state.dealer,
            scores=list(state.scores),
            active=list(state.active),
            hand=list(state.hands[seat]) if mine and seat is not None else [],
            selected=list(state.selected[seat]) if mine and seat is not None else [],
            hand_sizes=[len(h) for h in state.hands],
            shown=[list(h) if state.exposed[s] else None for s, h in enumerate(state.hands)],
            turnup=state.turnup,
            target=state.target,
            target_dice=list(state.target_dice),
            discard_roll=state.discard_roll,
            discard_range=state.discard_range,
            commander=state.commander,
            trick=[p.model_copy() for p in state.trick],
            leader=state.leader,
            turn=state.turn if state.phase == "trick" else None,
            tricks_won=state.tricks_won,
            max_tricks=state.max_tricks,
            bullseye_bonus=state.bullseye_bonus,
            bonus_trick=state.bonus_trick,
            point_dice=[list(d) for d in state.point_dice],
            settling=state.settling.model_copy() if state.settling else None,
            my_dice_use=(
                state.dice_use[seat]
                if mine and seat is not None and seat < len(state.dice_use)
                else None
            ),
            cards_left=len(state.shoe),
            burned=list(state.burned),
            out_count=len(state.out),
            seen_out=self._seen_out(state, seat if mine else None),
            to_act=sorted(to_act),
            answered=answered,
            my_claim=state.claims[seat] if mine and seat is not None else None,
            can_claim=mine and seat is not None and self.can_claim(state, seat),
            my_poker=(
                list(state.poker_choice[seat] or []) or None if mine and seat is not None else None
            ),
            last_result=state.last_result.model_copy(deep=True) if state.last_result else None,
            ledger=[h.model_copy(deep=True) for h in state.ledger],
            scores_final=state.phase == "over",
            winner=self._winner(state) if state.phase == "over" else None,
            end_reason=state.end_reason,
            end_args=dict(state.end_args),
        )

    @staticmethod
    def _seen_out(state: FluxState, seat: int | None) -> list[str]:
        own = state.own_out[seat] if seat is not None and seat < len(state.own_out) else []
        return sort_codes(state.seen_out + own)

    @staticmethod
    def _retire(state: FluxState, cards: list[str], owner: int | None = None) -> None:
        """Put used ``cards`` out: seen by everyone, or (``owner``) only by that seat."""
        state.out.extend(cards)
        if owner is None:
            state.seen_out.extend(cards)
            return
        while len(state.own_out) <= owner:
            state.own_out.append([])
        state.own_out[owner].extend(cards)

    def revealed(self, state: FluxState) -> FluxObservation:
        """Every hand shown, as when the hands are exposed (only for a finished game)."""
        obs = self.observe(state, None)
        obs.shown = [list(hand) for hand in state.hands]
        return obs

    def deal_of(self, state: FluxState) -> int:
        return state.hand_no

    def deal_name(self, state: FluxState) -> str:
        return f"hand {state.hand_no}"

    # --- outcome ------------------------------------------------------------------------

    def _winner(self, state: FluxState) -> int | None:
        if state.config.rules.has("22"):
            alive = self.seats_in_play(state)
            return alive[0] if len(alive) == 1 else None
        return unique_top(state.scores, range(state.n_players))

    def outcome(self, state: FluxState) -> Outcome:
        if state.phase != "over":
            raise IllegalAction("flux-error-not-over")
        scores = [float(s) for s in state.scores]
        winner = self._winner(state)
        if state.config.rules.has("22"):
            order = [*self.seats_in_play(state), *reversed(state.eliminated)]
            ranks = [order.index(s) for s in range(state.n_players)]
            return Outcome(
                scores=scores, ranks=ranks, winners=[winner] if winner is not None else []
            )
        if winner is None:
            return Outcome(
                scores=scores,
                ranks=[0] * state.n_players,
                winners=[],
                draw=True,
            )
        rest = sorted(
            {state.scores[s] for s in range(state.n_players) if s != winner}, reverse=True
        )
        ranks = [
            0 if s == winner else 1 + rest.index(state.scores[s]) for s in range(state.n_players)
        ]
        return Outcome(scores=scores, ranks=ranks, winners=[winner])

    # --- moves --------------------------------------------------------------------------

    def apply(self, state: FluxState, seat: int, action: str) -> list[Event]:
        match = _ACTION.match(action.strip())
        if match is None:
            raise InvalidAction("flux-error-unknown-move", move=action)
        if state.phase == "over":
            raise IllegalAction("flux-error-game-over")
        if seat not in self.to_act(state):
            raise IllegalAction(self._not_yours(state, seat))
        if match["toggle"] is not None:
            return self._toggle(state, seat, int(match["toggle"]))
        if match["play"] is not None:
            return self._play(state, seat, match["play"])
        if match["dice"] is not None:
            return self._use_dice(state, seat, int(match["dice"]))
        verb = match["simple"] or match["verb"]
        picked = None
        if match["verb"] is not None:
            picked = [c for c in (match["cards"] or "").split(",") if c]
        handler = {
            "claim": self._claim,
            "pass": self._pass,
            "call": self._call,
        }.get(verb)
        if handler is not None:
            return handler(state, seat)
        if verb == "discard":
            return self._discard(state, seat, picked)
        return self._show(state, seat, picked)

    def _not_yours(self, state: FluxState, seat: int) -> str:
        if state.phase in ("claim", "poker", "dice"):
            return "flux-error-already-chosen"
        return "flux-error-not-your-turn"

    def _require(self, state: FluxState, phases: tuple[str, ...], what: str) -> None:
        """Refuse a move outside ``phases``; ``what`` names the move for the message
        (``flux-error-not-now``: pick, claim, pass, play, discard, call, dice, show)."""
        if state.phase not in phases:
            raise IllegalAction("flux-error-not-now", move=what)

    def _toggle(self, state: FluxState, seat: int, index: int) -> list[Event]:
        self._require(state, ("command", "poker"), "pick")
        if index >= len(state.hands[seat]):
            raise IllegalAction("flux-error-no-card", number=index + 1)
        chosen = state.selected[seat]
        if index in chosen:
            chosen.remove(index)
        else:
            chosen.append(index)
            chosen.sort()
        return []

    def _pick(self, hand: list[str], picked: list[str]) -> list[int]:
        """Indices in ``hand`` of the cards named (each copy once), or IllegalAction."""
        free = list(range(len(hand)))
        found: list[int] = []
        for code in picked:
            index = next((i for i in free if hand[i] == code), None)
            if index is None:
                raise IllegalAction("flux-error-not-held", card=label(code), another=code in hand)
            free.remove(index)
            found.append(index)
        return sorted(found)

    # claims ----------------------------------------------------------------------------

    def _claim(self, state: FluxState, seat: int) -> list[Event]:
        self._require(state, ("claim",), "claim")
        if not self.can_claim(state, seat):
            raise IllegalAction(
                "flux-error-not-at-target",
                value=hand_value(state.hands[seat], state.config.rules.absolute),
                target=state.target,
            )
        state.claims[seat] = True
        return self._after_claim(state, seat)

    def _pass(self, state: FluxState, seat: int) -> list[Event]:
        if state.phase == "claim":
            state.claims[seat] = False
            return self._after_claim(state, seat)
        self._require(state, ("flux",), "pass")
        state.commander = None
        events = [Event(kind="play_on", seat=seat)]
        return events + self._next_trick(state, seat)

    def _after_claim(self, state: FluxState, seat: int) -> list[Event]:
        events = [Event(kind="chose", seat=seat, data={"what": "claim"})]
        if self.to_act(state):
            return events
        claimants = [s for s in self.seats_in_play(state) if state.claims[s]]
        if not claimants:
            events.append(Event(kind="claims", data={"claims": [], "target": state.target}))
            return events + self._first_trick(state)
        for s in claimants:
            state.exposed[s] = True
        events.append(Event(kind="claims", data={"claims": claimants, "target": state.target}))
        winner, tie_events = self._claim_tiebreak(state, claimants)
        events += tie_events
        return events + self._original_hand(state, winner)

    def _claim_tiebreak(self, state: FluxState, claimants: list[int]) -> tuple[int, list[Event]]:
        """Higher colour total, then fewer face cards, then a card each: lowest rank loses."""
        events: list[Event] = []
        best = max(claim_key(state.hands[s]) for s in claimants)
        alive = [s for s in claimants if claim_key(state.hands[s]) == best]
        if len(alive) < len(claimants):
            events.append(Event(kind="claim_tie", data={"alive": alive}))
        while len(alive) > 1:
            if len(state.shoe) + len(state.burned) < len(alive):
                # A round is dealt only when every claimant can have a card, so no card is
                # ever left half-drawn; otherwise the first claimant from the dealer's left.
                first = min(alive, key=lambda s: (s - state.dealer - 1) % state.n_players)
                events.append(Event(kind="claim_out", seat=first, data={"cards": {}}))
                break
            codes: dict[int, str] = {}
            for s in alive:
                code = self._draw(state)
                assert code is not None  # counted above
                codes[s] = code
            self._retire(state, list(codes.values()))
            low = min(card(c).rank for c in codes.values())
            survivors = [s for s in alive if card(codes[s]).rank != low]
            events.append(Event(kind="claim_draw", data={"cards": codes}))
            if survivors:
                alive = survivors
        order = sorted(alive, key=lambda s: (s - state.dealer - 1) % state.n_players)
        return order[0], events

    def _original_hand(self, state: FluxState, winner: int) -> list[Event]:
        rules = state.config.rules
        result = HandResult(hand_no=state.hand_no, kind="original", caller=winner, winners=[winner])
        if rules.no_bonus:
            values = {s: self.value_of(state, s) for s in self.seats_in_play(state)}
            points = settle(values, state.target, rules, winner, 0).points.get(winner, 0)
        else:
            points = ORIGINAL_POINTS
        self._credit(state, winner, "value", points)
        self._sheet(state).value_story = {"how": "original", "caller": winner}
        result.seats = [
            SeatResult(
                seat=s,
                hand=list(state.hands[s]) if state.exposed[s] else [],
                points=points if s == winner else 0,
            )
            for s in self.seats_in_play(state)
        ]
        state.last_result = result
        events = [Event(kind="original", seat=winner, data={"points": points})]
        if self._score_end(state, events):
            return events
        return events + self._start_poker(state)

    # tricks ----------------------------------------------------------------------------

    def _first_trick(self, state: FluxState) -> list[Event]:
        state.phase = "trick"
        state.leader = self.next_seat(state, state.dealer)
        state.turn = state.leader
        state.trick = []
        return []

    def _next_trick(self, state: FluxState, leader: int) -> list[Event]:
        """The commander (or the same leader after a dead trick) leads a new trick."""
        state.commander = None
        state.discard_roll = None
        state.phase = "trick"
        state.leader = leader
        state.turn = leader
        state.trick = []
        if state.max_tricks is not None and state.tricks_won >= state.max_tricks:
            done = Event(kind="max_tricks", data={"tricks": state.max_tricks})
            return [done, *self._settle(state, None, kind="settled")]
        return []

    def _play(self, state: FluxState, seat: int, code: str) -> list[Event]:
        self._require(state, ("trick",), "play")
        hand = state.hands[seat]
        if code not in hand:
            raise IllegalAction("flux-error-not-held", card=label(code), another=False)
        hand.remove(code)
        state.trick.append(Play(seat=seat, card=code))
        events = [Event(kind="play", seat=seat, data={"card": code})]
        new = self._draw(state)
        if new is None:
            return events + self._ran_out(state)
        hand.append(new)
        state.hands[seat] = sort_codes(hand)
        nxt = self.next_seat(state, seat)
        if nxt != state.leader:
            state.turn = nxt
            return events
        return events + self._finish_trick(state)

    def _finish_trick(self, state: FluxState) -> list[Event]:
        plays = [(p.seat, p.card) for p in state.trick]
        trump = card(state.turnup).suit if state.turnup else None
        winner = trick_winner(plays, trump, state.config.rules.truco)
        self._retire(state, [p.card for p in state.trick])
        state.turn = None
        if winner is None:
            state.trick = []
            events = [Event(kind="dead_trick", seat=state.leader)]
            state.turn = state.leader
            return events
        won_with = next(p.card for p in state.trick if p.seat == winner)
        state.trick = []
        state.tricks_won += 1
        rules = state.config.rules
        trick_point = 0 if rules.no_bonus else 1
        self._credit(state, winner, "tricks", trick_point)
        events = [
            Event(
                kind="trick",
                seat=winner,
                data={"card": won_with, "trick": state.tricks_won, "points": trick_point},
            )
        ]
        if self._score_end(state, events):
            return events
        return events + self._take_command(state, winner)

    def _take_command(self, state: FluxState, seat: int) -> list[Event]:
        rules = state.config.rules
        state.commander = seat
        events: list[Event] = []
        state.discard_roll = None
        if rules.has("16"):
            state.target_dice = self._roll_target_dice(state)
            state.target = sum(state.target_dice)
            events.append(
                Event(
                    kind="target",
                    seat=seat,
                    data={"dice": list(state.target_dice), "target": state.target},
                )
            )
            if state.target in (3, 18):
                return events + self._flux(state, seat)
            state.discard_range = (0, HAND_SIZE)
        if not rules.has("16") or rules.temporal_die:
            sides = rules.discard_sides
            roll = state.rng.randint(1, sides)
            state.discard_roll = roll
            events.append(Event(kind="discard_die", seat=seat, data={"roll": roll}))
            if roll == sides:
                return events + self._flux(state, seat)
            state.discard_range = (0 if rules.has("1") else roll, roll)
        state.phase = "command"
        state.selected[seat] = []
        return events

    def _flux(self, state: FluxState, seat: int) -> list[Event]:
        rules = state.config.rules
        old = state.hands[seat]
        self._retire(state, old)
        state.hands[seat] = []
        state.selected[seat] = []
        points = 0 if rules.no_bonus else FLUX_POINTS
        self._credit(state, seat, "fluxes", points)
        events = [Event(kind="flux", seat=seat, data={"discarded": list(old), "points": points})]
        if self._score_end(state, events):
            return events
        new = self._draw_many(state, HAND_SIZE)
        state.hands[seat] = sort_codes(new)
        if len(new) < HAND_SIZE:
            return events + self._ran_out(state)
        events += self._award_dice(state, seat)
        if (
            not rules.has("10")
            and not rules.anti
            and distance(self.value_of(state, seat), state.target) == 0
        ):
            state.phase = "flux"
            return events
        return events + self._next_trick(state, seat)

    def _discard(self, state: FluxState, seat: int, picked: list[str] | None) -> list[Event]:
        self._require(state, ("command",), "discard")
        hand = state.hands[seat]
        indices = state.selected[seat] if picked is None else self._pick(hand, picked)
        low, high = state.discard_range
        if not low <= len(indices) <= high:
            raise IllegalAction("flux-error-discard-count", low=low, high=high, count=len(indices))
        thrown = [hand[i] for i in indices]
        keep = [c for i, c in enumerate(hand) if i not in indices]
        self._retire(state, thrown)
        new = self._draw_many(state, len(thrown))
        state.hands[seat] = sort_codes(keep + new)
        state.selected[seat] = []
        events = [Event(kind="discard", seat=seat, data={"discarded": thrown})]
        if len(new) < len(thrown):
            return events + self._ran_out(state)
        events += self._award_dice(state, seat)
        return events + self._next_trick(state, seat)

    def _call(self, state: FluxState, seat: int) -> list[Event]:
        self._require(state, ("command", "flux"), "call")
        after_flux = state.phase == "flux"
        events = [Event(kind="call", seat=seat)]
        if not after_flux:
            events += self._award_dice(state, seat)
        return events + self._settle(state, seat, kind="call", after_flux=after_flux)

    def _award_dice(self, state: FluxState, seat: int) -> list[Event]:
        """Variants 9 and 11: the point die (and bonus die) for the trick just won."""
        rules = state.config.rules
        got: list[int] = []
        if rules.has("9"):
            got.append(state.rng.randint(1, 6))
        if state.bonus_trick is not None and state.tricks_won == state.bonus_trick[0]:
            got.append(state.bonus_trick[1])
        if not got:
            return []
        state.point_dice[seat].extend(got)
        return [Event(kind="point_dice", seat=seat, data={"dice": got})]

    # settling --------------------------------------------------------------------------

    def _ran_out(self, state: FluxState) -> list[Event]:
        self._retire(state, [p.card for p in state.trick])
        state.trick = []
        events = [Event(kind="ran_out")]
        return events + self._settle(state, None, kind="ran out")

    def _settle(
        self, state: FluxState, caller: int | None, *, kind: str, after_flux: bool = False
    ) -> list[Event]:
        """Show every hand; then, if anyone holds point dice, let them choose how to use them
        (phase ``dice``, in secret and all at once) before the value game is scored."""
        rules = state.config.rules
        seats = self.seats_in_play(state)
        for s in seats:
            state.exposed[s] = True
        state.commander = None
        state.turn = None
        state.discard_roll = None
        bonus = 20 if after_flux and not rules.has("10") else state.bullseye_bonus
        state.settling = PendingSettle(
            caller=caller, kind=kind, after_flux=after_flux, bullseye=bonus
        )
        state.dice_use = [None] * state.n_players
        holders = self._dice_seats(state)
        if not holders:
            return self._score_value_game(state)
        state.phase = "dice"
        shown = [
            [s, hand_value(state.hands[s], rules.absolute), list(state.point_dice[s])]
            for s in seats
        ]
        return [
            Event(
                kind="dice_phase",
                data={"holders": holders, "target": state.target, "hands": shown},
            )
        ]

    def _use_dice(self, state: FluxState, seat: int, offset: int) -> list[Event]:
        self._require(state, ("dice",), "dice")
        rules = state.config.rules
        choices = dice_choices(state.point_dice[seat], rules)
        if offset not in choices:
            raise IllegalAction(
                "flux-error-dice-offset", dice=list(state.point_dice[seat]), offset=offset
            )
        state.dice_use[seat] = offset
        events = [Event(kind="chose", seat=seat, data={"what": "dice"})]
        if self.to_act(state):
            return events
        ways = []
        for s in self._dice_seats(state):
            raw = hand_value(state.hands[s], rules.absolute)
            use = state.dice_use[s] or 0
            ways.append([s, dice_way(state.point_dice[s], use, rules), raw + use])
        events.append(
            Event(
                kind="dice_used",
                data={
                    "use": {s: state.dice_use[s] for s in self._dice_seats(state)},
                    "ways": ways,
                },
            )
        )
        return events + self._score_value_game(state)

    def _score_value_game(self, state: FluxState) -> list[Event]:
        rules = state.config.rules
        pending = state.settling
        assert pending is not None
        caller, kind = pending.caller, pending.kind
        seats = self.seats_in_play(state)
        for s in seats:
            if state.dice_use[s] is None:
                state.dice_use[s] = 0
        values = {s: self.value_of(state, s) for s in seats}
        result = settle(values, state.target, rules, caller, pending.bullseye)
        for s, pts in result.points.items():
            self._credit(state, s, "value", pts)
        sheet = self._sheet(state)
        sheet.target = state.target
        sheet.value_story = _value_story(caller, kind, result, values, state.target)
        state.settling = None
        state.last_result = HandResult(
            hand_no=state.hand_no,
            kind=kind,
            caller=caller,
            winners=result.winners,
            undercut=result.undercut,
            bullseye=result.bullseye,
            zilched=result.zilched,
            seats=[
                SeatResult(
                    seat=s,
                    hand=list(state.hands[s]),
                    value=values[s],
                    dice=list(state.point_dice[s]),
                    dice_use=state.dice_use[s] or 0,
                    distance=distance(values[s], state.target),
                    points=result.points.get(s, 0),
                )
                for s in seats
            ],
        )
        shown = [[s, values[s], distance(values[s], state.target)] for s in seats]
        events = [
            Event(kind="showdown", data={"target": state.target, "values": shown}),
            Event(
                kind="settle",
                data={
                    "points": result.points,
                    "winners": result.winners,
                    "undercut": result.undercut,
                    "bullseye": result.bullseye,
                    "zilched": result.zilched,
                },
            ),
        ]
        if self._score_end(state, events):
            return events
        return events + self._start_poker(state)

    # poker -----------------------------------------------------------------------------

    def _poker_seats(self, state: FluxState) -> list[int]:
        return [s for s in self.seats_in_play(state) if len(state.hands[s]) >= 5]

    def _start_poker(self, state: FluxState) -> list[Event]:
        state.phase = "poker"
        state.commander = None
        state.turn = None
        state.trick = []
        auto = state.config.rules.best_five
        for s in range(state.n_players):
            state.poker_choice[s] = None
            state.selected[s] = []
        for s in self._poker_seats(state):
            hand = state.hands[s]
            _, five = best_five(hand)
            if auto or len(hand) == 5:
                state.poker_choice[s] = list(five)
            else:
                state.selected[s] = self._pick(hand, list(five))
        if self.to_act(state):
            return []
        return self._reveal_poker(state)

    def _show(self, state: FluxState, seat: int, picked: list[str] | None) -> list[Event]:
        self._require(state, ("poker",), "show")
        hand = state.hands[seat]
        indices = state.selected[seat] if picked is None else self._pick(hand, picked)
        if len(indices) != 5:
            raise IllegalAction("flux-error-poker-five", count=len(indices))
        state.poker_choice[seat] = [hand[i] for i in indices]
        state.selected[seat] = []
        events = [Event(kind="chose", seat=seat, data={"what": "poker"})]
        if self.to_act(state):
            return events
        return events + self._reveal_poker(state)

    def _reveal_poker(self, state: FluxState) -> list[Event]:
        rules = state.config.rules
        hands = {s: list(state.poker_choice[s] or []) for s in self._poker_seats(state)}
        result = state.last_result or HandResult(hand_no=state.hand_no)
        events: list[Event] = []
        if hands:
            winner, _ = poker_winner(hands)
            worth = poker_points(state.turnup, rules)
            points = worth + (1 if rules.has("5") else 0) if winner is not None else 0
            if winner is not None:
                self._credit(state, winner, "poker", points)
                self._sheet(state).poker_story = {"winner": winner, "hand": hands[winner]}
            else:
                self._sheet(state).poker_story = {"winner": None}
            result.poker = hands
            result.poker_winner = winner
            result.poker_points = points
            events.append(
                Event(
                    kind="poker",
                    seat=winner,
                    data={"hands": hands, "winner": winner, "points": points},
                )
            )
        state.last_result = result
        if self._score_end(state, events):
            return events
        return events + self._end_hand(state)

    # the score sheet -------------------------------------------------------------------

    def _sheet(self, state: FluxState) -> HandScore:
        """This hand's line of the score sheet (started on first use)."""
        if not state.ledger or state.ledger[-1].hand_no != state.hand_no:
            zeros = [0] * state.n_players
            state.ledger.append(
                HandScore(
                    hand_no=state.hand_no,
                    target=state.target,
                    tricks=list(zeros),
                    fluxes=list(zeros),
                    value=list(zeros),
                    poker=list(zeros),
                )
            )
        return state.ledger[-1]

    def _credit(self, state: FluxState, seat: int, kind: str, points: int) -> None:
        """Score ``points`` for ``seat`` and note where they came from (one of SCORE_KINDS)."""
        state.scores[seat] += points
        getattr(self._sheet(state), kind)[seat] += points

    # hand and game end -----------------------------------------------------------------

    def _end_hand(self, state: FluxState) -> list[Event]:
        rules = state.config.rules
        events: list[Event] = []
        if rules.has("22"):
            events += self._eliminate(state)
        result = state.last_result
        poker = result.poker if result is not None and result.hand_no == state.hand_no else {}
        for s in range(state.n_players):
            hand = state.hands[s]
            shown = list(hand) if state.exposed[s] else list(poker.get(s) or [])
            rest = list(hand)
            for code in shown:
                rest.remove(code)
            self._retire(state, shown)
            self._retire(state, rest, owner=s)
            state.hands[s] = []
        if state.turnup is not None:
            self._retire(state, [state.turnup])
            state.turnup = None
        state.dealer = self.next_seat(state, state.dealer)
        reason, args = self._game_end_reason(state)
        if reason:
            return events + self._game_over(state, reason, **args)
        if rules.reshuffle:
            self._fresh_shoe(state)
        return self._start_hand(state, events)

    def _game_end_reason(self, state: FluxState) -> tuple[str, dict[str, int]]:
        """Why the game ends after this hand, as a code (``flux-end-...``) and its
        arguments; ``""`` while it goes on."""
        rules = state.config.rules
        if rules.has("22"):
            return ("flux-end-last-standing" if len(self.seats_in_play(state)) <= 1 else ""), {}
        deals = state.config.deal_rounds
        if deals is not None and state.hand_no >= deals * state.n_players:
            return "flux-end-dealt", {"deals": deals}
        if rules.has("15"):
            return "", {}  # reshuffled every hand: only the deals or the score limit end it
        if state.cutoff_reached or not state.shoe:
            return "flux-end-burned", {}
        players = len(self.seats_in_play(state))
        if len(state.shoe) + len(state.burned) < HAND_SIZE * players + 1:
            return "flux-end-too-few", {}
        return "", {}

    def _eliminate(self, state: FluxState) -> list[Event]:
        rules = state.config.rules
        seats = self.seats_in_play(state)
        if len(seats) <= 1:
            return []
        values = {s: self.value_of(state, s) for s in seats}
        worst = max(badness(values[s], state.target, rules) for s in seats)
        tied = [s for s in seats if badness(values[s], state.target, rules) == worst]
        events: list[Event] = []
        loser = tied[0]
        if len(tied) > 1:
            loser, events = self._ace_of_spades(state, tied)
        state.active[loser] = False
        state.eliminated.append(loser)
        if state.last_result is not None:
            state.last_result.eliminated = loser
        gap = distance(values[loser], state.target)
        events.append(Event(kind="eliminated", seat=loser, data={"distance": gap}))
        return events

    def _ace_of_spades(self, state: FluxState, tied: list[int]) -> tuple[int, list[Event]]:
        """Tied players roll the discard die and take that many cards from a separate pack
        in turn; the first to draw an ace of spades loses."""
        pack = [c for _ in range(3) for c in standard_deck()]
        state.rng.shuffle(pack)
        sides = state.config.rules.discard_sides
        while True:
            for s in tied:
                count = state.rng.randint(1, sides)
                drawn, pack = pack[:count], pack[count:]
                if "AS" in drawn:
                    return s, [Event(kind="ace_of_spades", seat=s)]
                if not pack:
                    pack = [c for _ in range(3) for c in standard_deck()]
                    state.rng.shuffle(pack)

    def _score_end(self, state: FluxState, events: list[Event]) -> bool:
        """Variants 8 and 18: the game stops the moment someone reaches the limit."""
        limit = state.config.score_limit
        if limit is None or max(state.scores) < limit:
            return False
        events.extend(self._game_over(state, "flux-end-limit", limit=limit))
        return True

    def _game_over(self, state: FluxState, reason: str, **args: int) -> list[Event]:
        """End the game for ``reason`` (a ``flux-end-...`` code with ``args``)."""
        state.phase = "over"
        state.turn = None
        state.commander = None
        state.end_reason = reason
        state.end_args = dict(args)
        for s in range(state.n_players):
            state.selected[s] = []
        winner = self._winner(state)
        if winner is None:
            ending = "draw"
        elif state.config.rules.has("22"):
            ending = "standing"
        else:
            ending = "points"
        data: dict[str, Any] = {
            "scores": list(state.scores),
            "reason": reason,
            "ending": ending,
            **args,
        }
        return [Event(kind="game_over", seat=winner, data=data)]

    # dealing ---------------------------------------------------------------------------

    def _draw(self, state: FluxState) -> str | None:
        """The next card: from the shoe, then from the burned cards (the cut-off)."""
        if state.shoe:
            return state.shoe.pop(0)
        if state.burned:
            state.cutoff_reached = True
            return state.burned.pop(0)
        return None

    def _draw_many(self, state: FluxState, count: int) -> list[str]:
        drawn = []
        for _ in range(count):
            code = self._draw(state)
            if code is None:
                break
            drawn.append(code)
        return drawn

    def _start_hand(self, state: FluxState, events: list[Event]) -> list[Event]:
        rules = state.config.rules
        seats = self.seats_in_play(state)
        state.hand_no += 1
        state.trick, state.tricks_won = [], 0
        state.commander, state.discard_roll, state.turn = None, None, None
        for s in range(state.n_players):
            state.hands[s] = []
            state.selected[s] = []
            state.exposed[s] = False
            state.claims[s] = None if state.active[s] else False
            state.point_dice[s] = []
            state.poker_choice[s] = None
        state.dice_use = [None] * state.n_players
        state.settling = None
        first = self.next_seat(state, state.dealer)
        order = seats[seats.index(first) :] + seats[: seats.index(first)]
        for _ in range(HAND_SIZE):
            for s in order:
                code = self._draw(state)
                assert code is not None  # enough cards were checked before the deal
                state.hands[s].append(code)
        for s in seats:
            state.hands[s] = sort_codes(state.hands[s])
        state.turnup = self._draw(state)
        assert state.turnup is not None
        roller: int | None = None
        if state.game_target is not None:
            state.target = state.game_target
        else:
            state.target_dice = self._roll_target_dice(state)
            state.target = sum(state.target_dice)
            roller = first
        events.append(
            Event(
                kind="deal",
                seat=state.dealer,
                data={
                    "hand": state.hand_no,
                    "turnup": state.turnup,
                    "target": state.target,
                    "dice": list(state.target_dice),
                    "roller": roller,
                },
            )
        )
        if rules.anti:
            return events + self._first_trick(state)
        state.phase = "claim"
        return events
