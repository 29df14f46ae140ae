"""Flume: an All Fours trick game with jokers, two bowers and a bid of 3 to 6 points.

Rules: ``shared/seeds/002`` with the Flume section of ``shared/RULINGS.md``; the card rules
live in :mod:`bot.engines.flume.rules`, the AI in :mod:`bot.engines.flume.ai`.

Four players play in two teams, partners opposite (seats 0 and 2 against 1 and 3). Five
players keep individual scores: the bidder calls a partner by naming a card, and nobody but
its holder knows who that is until the card is played.

A hand runs through phases, each with its own actions (``to_act`` is always one seat):

* ``bid``: from the dealer's left round to the dealer once, ``bid:3`` … ``bid:6`` (higher
  than the bid so far) or ``pass``. All passing means the same dealer deals again.
* ``trump``: the bidder names the trump suit, ``trump:H``.
* ``discard``: from the dealer's left, dealer last, each player throws away non-trumps and is
  refilled from the stock at once. ``d:AS`` toggles a card in or out of the selection and
  ``discard`` confirms it (nothing selected keeps the hand); the one-step
  ``discard:AS,KD`` (or ``discard:`` for none) is accepted too. Nobody may discard more
  cards than the stock still holds.
* ``call`` (five players): the bidder names a card not in their own hand, ``call:AS``, or
  plays ``alone``.
* ``play``: six tricks, ``play:TH``; the left of the dealer leads first, the winner of a
  trick leads the next, and a player must follow the led suit while able.

After the sixth trick the hand is scored (high, low, both bowers, both jokers, game), the deal
passes left, and the game ends once a side (or, five-handed, a player) reaches the target.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from bot.engines.base import Engine, Event, IllegalAction, InvalidAction, Outcome, Rng
from bot.engines.cards import SUIT_SYMBOLS, SUITS, Card, card, sort_codes
from bot.engines.flume.rules import (
    HAND_SIZE,
    POINT_NAMES,
    card_points,
    flume_deck,
    is_trump,
    legal_plays,
    score_hand,
    trick_winner,
    trump_power,
)

Phase = Literal["bid", "trump", "discard", "call", "play", "over"]
Play = tuple[int, str]
MIN_BID, MAX_BID = 3, 6
DECK = frozenset(flume_deck())


class FlumeConfig(BaseModel):
    target: int = Field(default=21, ge=5, le=99)  # the points that win the game
    four_colour: bool = False  # a four-colour deck on the pictures


class TrickRecord(BaseModel):
    """A finished trick: who led, the cards in play order, who took it."""

    leader: int
    plays: list[Play]
    winner: int


class HandSummary(BaseModel):
    """A scored hand, public once the hand is over."""

    hand_no: int
    bidder: int
    bid: int
    trump: str
    called: str | None
    partner: int | None  # the called card's holder, None when the bidder played alone
    awards: dict[str, int | None]  # point name -> seat credited (None: not in play or tied)
    cards: dict[str, str | None]
    card_points: list[int]  # card points taken per seat
    side_points: list[int]  # points taken by each seat's side
    made: bool
    deltas: list[int]  # score change per seat


class FlumeState(BaseModel):
    """The whole table, hidden cards included; only :meth:`FlumeEngine.observe` reveals it."""

    config: FlumeConfig
    n_players: int
    rng: Rng
    dealer: int
    phase: Phase = "bid"
    hand_no: int = 0
    deals: int = 0  # deals so far, redeals included
    hands: list[list[str]] = Field(default_factory=list)
    stock: list[str] = Field(default_factory=list)
    discards: list[list[str]] = Field(default_factory=list)
    discarded: list[int | None] = Field(default_factory=list)  # public counts
    selected: list[list[str]] = Field(default_factory=list)  # private discard toggles
    bids: list[int | None] = Field(default_factory=list)  # None: not yet asked; 0: passed
    bidder: int | None = None
    bid: int = 0
    trump: str | None = None
    current: int | None = None
    called: str | None = None
    alone: bool = False
    partner: int | None = None  # hidden until the called card is played
    partner_known: bool = False
    leader: int | None = None
    trick: list[Play] = Field(default_factory=list)
    tricks: list[TrickRecord] = Field(default_factory=list)
    played: list[Play] = Field(default_factory=list)
    scores: list[int]
    last_hand: HandSummary | None = None
    winners: list[int] = Field(default_factory=list)


class FlumeObservation(BaseModel):
    """What one seat (or a spectator, ``seat=None``) may know."""

    seat: int | None
    n_players: int
    target: int
    four_colour: bool
    phase: Phase
    hand_no: int
    dealer: int
    current: int | None
    hand: list[str]  # own cards only (empty for a spectator)
    hand_sizes: list[int]
    selected: list[str]  # own discard selection
    my_discards: list[str]
    discarded: list[int | None]
    stock_count: int
    bids: list[int | None]
    bidder: int | None
    bid: int
    trump: str | None
    called: str | None
    alone: bool
    partner: int | None  # known to this viewer: revealed, or the viewer holds the card
    partner_known: bool  # revealed to everyone
    leader: int | None
    trick: list[Play]
    tricks: list[TrickRecord]
    played: list[Play]
    taken: list[int]  # card points taken this hand, per seat
    scores: list[int]
    last_hand: HandSummary | None
    winners: list[int]
    legal: list[str]  # this viewer's moves now (empty when not theirs to act)
    revealed_hands: list[list[str]] | None = None  # every seat's cards (finished games only)
    revealed_discards: list[list[str]] | None = None  # what every seat threw away this hand
    revealed_stock: list[str] | None = None  # the undealt cards, top first

    @property
    def teams(self) -> bool:
        return self.n_players == 4


def hand_order(codes: list[str], trump: str | None) -> list[str]:
    """A hand as shown: trumps first (strongest first), then the other suits high to low."""
    if trump is None:
        return sort_codes(codes)
    trumps = sorted((c for c in codes if is_trump(c, trump)), key=lambda c: -trump_power(c, trump))
    rest = sort_codes([c for c in codes if not is_trump(c, trump)])
    return trumps + rest


def _copy_trick(trick: TrickRecord) -> TrickRecord:
    """A cheap copy (observations never share mutable parts with the state)."""
    return TrickRecord.model_construct(
        leader=trick.leader, plays=list(trick.plays), winner=trick.winner
    )


def _copy_summary(summary: HandSummary | None) -> HandSummary | None:
    if summary is None:
        return None
    return summary.model_copy(
        update={
            "awards": dict(summary.awards),
            "cards": dict(summary.cards),
            "card_points": list(summary.card_points),
            "side_points": list(summary.side_points),
            "deltas": list(summary.deltas),
        }
    )


def card_args(code: str) -> dict[str, str]:
    """A card as the catalogue words it (``flume-card-label``, ``flume-card-name``): ``rank``
    (A K Q J 10 … 2, or joker), ``suit`` (S H D C; high or low for a joker), ``symbol``."""
    c = card(code)
    if c.is_joker:
        return {"rank": "joker", "suit": "high" if c.rank == 2 else "low", "symbol": ""}
    return {"rank": c.rank_char, "suit": c.suit, "symbol": SUIT_SYMBOLS[c.suit]}


def _parse(text: str) -> Card:
    """The card ``text`` names, or a refusal (``flume-error-not-a-card``)."""
    try:
        return card(text)
    except InvalidAction:
        raise InvalidAction("flume-error-not-a-card", card=text) from None


class FlumeEngine(Engine[FlumeConfig, FlumeState, FlumeObservation]):
    """Flume for 4 players (two teams) or 5 (a called, hidden partner)."""

    name: ClassVar[str] = "flume"
    title: ClassVar[str] = "Flume"
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 5
    config_model: ClassVar[type[BaseModel]] = FlumeConfig
    state_model: ClassVar[type[BaseModel]] = FlumeState

    # Setup and queries ---------------------------------------------------------------------

    def new_game(self, config: FlumeConfig, n_players: int, seed: int) -> FlumeState:
        """The last seat deals first, so seat 0 (the dealer's left) bids and leads first."""
        self.check_player_count(n_players)
        state = FlumeState(
            config=config,
            n_players=n_players,
            rng=Rng(seed=seed),
            dealer=n_players - 1,
            scores=[0] * n_players,
        )
        self._deal(state)
        return state

    def to_act(self, state: FlumeState) -> frozenset[int]:
        return frozenset() if state.current is None else frozenset({state.current})

    def is_over(self, state: FlumeState) -> bool:
        return state.phase == "over"

    def legal_actions(self, state: FlumeState, seat: int) -> list[str]:
        if state.current is None or seat != state.current:
            return []
        hand = state.hands[seat]
        if state.phase == "bid":
            return ["pass"] + [f"bid:{n}" for n in range(max(MIN_BID, state.bid + 1), MAX_BID + 1)]
        if state.phase == "trump":
            return [f"trump:{s}" for s in SUITS]
        if state.phase == "discard":
            chosen = state.selected[seat]
            room = len(chosen) < len(state.stock)
            toggles = [
                f"d:{c}"
                for c in hand_order(hand, state.trump)
                if not self._is_trump(state, c) and (c in chosen or room)
            ]
            return [*toggles, "discard"]
        if state.phase == "call":
            return [f"call:{c}" for c in flume_deck() if c not in hand] + ["alone"]
        if state.phase == "play":
            assert state.trump is not None
            return [f"play:{c}" for c in legal_plays(hand, state.trick, state.trump)]
        return []

    def observe(self, state: FlumeState, seat: int | None) -> FlumeObservation:
        mine = seat if seat is not None and 0 <= seat < state.n_players else None
        own = mine is not None
        knows_partner = state.partner_known or (own and seat == state.partner)
        return FlumeObservation(
            seat=seat,
            n_players=state.n_players,
            target=state.config.target,
            four_colour=state.config.four_colour,
            phase=state.phase,
            hand_no=state.hand_no,
            dealer=state.dealer,
            current=state.current,
            hand=hand_order(state.hands[mine], state.trump) if mine is not None else [],
            hand_sizes=[len(h) for h in state.hands],
            selected=list(state.selected[mine]) if mine is not None else [],
            my_discards=list(state.discards[mine]) if mine is not None else [],
            discarded=list(state.discarded),
            stock_count=len(state.stock),
            bids=list(state.bids),
            bidder=state.bidder,
            bid=state.bid,
            trump=state.trump,
            called=state.called,
            alone=state.alone,
            partner=state.partner if knows_partner else None,
            partner_known=state.partner_known,
            leader=state.leader,
            trick=list(state.trick),
            tricks=[_copy_trick(t) for t in state.tricks],
            played=list(state.played),
            taken=self._taken(state),
            scores=list(state.scores),
            last_hand=_copy_summary(state.last_hand),
            winners=list(state.winners),
            legal=self.legal_actions(state, seat) if own and seat is not None else [],
        )

    def revealed(self, state: FlumeState) -> FlumeObservation:
        """Every hand, discard and the stock face up, and the called partner named (only for
        a finished game)."""
        obs = self.observe(state, None)
        obs.revealed_hands = [hand_order(hand, state.trump) for hand in state.hands]
        obs.revealed_discards = [list(d) for d in state.discards]
        obs.revealed_stock = list(state.stock)
        if state.partner is not None:
            obs.partner, obs.partner_known = state.partner, True
        return obs

    def deal_of(self, state: FlumeState) -> int:
        return state.deals

    def deal_name(self, state: FlumeState) -> str:
        return f"hand {state.hand_no}"

    def outcome(self, state: FlumeState) -> Outcome:
        """Final scores; the winners rank first even when a tie went to the bidding side."""
        if state.phase != "over":
            raise IllegalAction("flume-error-not-over")
        winners = list(state.winners)
        others = sorted({s for i, s in enumerate(state.scores) if i not in winners}, reverse=True)
        ranks = [0 if i in winners else 1 + others.index(s) for i, s in enumerate(state.scores)]
        return Outcome(scores=[float(s) for s in state.scores], ranks=ranks, winners=winners)

    # Moves ---------------------------------------------------------------------------------

    def apply(self, state: FlumeState, seat: int, action: str) -> list[Event]:
        """Check the move fully, then play it; a refused move leaves ``state`` untouched."""
        verb, colon, rest = action.strip().partition(":")
        arg = rest.strip() if colon else None
        handlers = {
            "bid": self._bid,
            "pass": self._bid,
            "trump": self._name_trump,
            "d": self._toggle,
            "discard": self._discard,
            "call": self._call,
            "alone": self._call,
            "play": self._play,
        }
        handler = handlers.get(verb)
        if handler is None:
            raise InvalidAction("flume-error-unknown-move", move=action)
        if state.current is None:
            raise IllegalAction("flume-error-game-over")
        if seat != state.current:
            raise IllegalAction("flume-error-not-your-turn")
        phase = {
            "bid": "bid",
            "pass": "bid",
            "trump": "trump",
            "d": "discard",
            "discard": "discard",
            "call": "call",
            "alone": "call",
            "play": "play",
        }[verb]
        if phase != state.phase:
            raise IllegalAction("flume-error-not-open", phase=state.phase)
        return handler(state, seat, verb, arg)

    # Bidding -------------------------------------------------------------------------------

    def _bid(self, state: FlumeState, seat: int, verb: str, arg: str | None) -> list[Event]:
        if verb == "pass":
            state.bids[seat] = 0
            events = [Event(kind="pass", seat=seat)]
        else:
            if not (arg or "").isdigit():
                raise InvalidAction("flume-error-bid-number")
            amount = int(arg or 0)
            if not MIN_BID <= amount <= MAX_BID:
                raise IllegalAction("flume-error-bid-range", low=MIN_BID, high=MAX_BID)
            if amount <= state.bid:
                raise IllegalAction(
                    "flume-error-bid-higher", bid=state.bid, can_raise=state.bid < MAX_BID
                )
            state.bids[seat], state.bid, state.bidder = amount, amount, seat
            events = [Event(kind="bid", seat=seat, data={"bid": amount})]
        nxt = (seat + 1) % state.n_players
        if state.bid < MAX_BID and seat != state.dealer:
            state.current = nxt
            return events
        if state.bidder is None:
            events.append(Event(kind="redeal", seat=state.dealer))
            self._deal(state, redeal=True)
            return events
        state.phase, state.current = "trump", state.bidder
        events.append(Event(kind="bid_won", seat=state.bidder, data={"bid": state.bid}))
        return events

    def _name_trump(self, state: FlumeState, seat: int, verb: str, arg: str | None) -> list[Event]:
        suit = (arg or "").upper()
        if suit not in SUITS or len(suit) != 1:
            raise InvalidAction("flume-error-trump-suit")
        state.trump = suit
        events = [Event(kind="trump", seat=seat, data={"trump": suit})]
        state.phase = "discard"
        return events + self._next_discarder(state)

    # Discards ------------------------------------------------------------------------------

    def _is_trump(self, state: FlumeState, code: str) -> bool:
        return state.trump is not None and is_trump(code, state.trump)

    def _toggle(self, state: FlumeState, seat: int, verb: str, arg: str | None) -> list[Event]:
        code = self._own_card(state, seat, arg or "")
        chosen = state.selected[seat]
        if code in chosen:
            chosen.remove(code)
            return []
        self._check_discardable(state, [code], len(chosen) + 1)
        chosen.append(code)
        return []

    def _discard(self, state: FlumeState, seat: int, verb: str, arg: str | None) -> list[Event]:
        """``discard`` confirms the selection; ``discard:AS,KD`` names the cards outright."""
        if arg is None:
            chosen = list(state.selected[seat])
        else:
            chosen = [self._own_card(state, seat, c) for c in arg.split(",") if c.strip()]
            if len(set(chosen)) != len(chosen):
                raise InvalidAction("flume-error-discard-twice")
        self._check_discardable(state, chosen, len(chosen))
        hand = state.hands[seat]
        for code in chosen:
            hand.remove(code)
        state.discards[seat].extend(chosen)
        hand.extend(state.stock[: len(chosen)])
        state.stock = state.stock[len(chosen) :]
        state.discarded[seat] = len(chosen)
        state.selected[seat] = []
        events = [Event(kind="discard", seat=seat, data={"count": len(chosen)})]
        return events + self._next_discarder(state)

    def _check_discardable(self, state: FlumeState, codes: list[str], count: int) -> None:
        for code in codes:
            if self._is_trump(state, code):
                raise IllegalAction("flume-error-discard-trump", **card_args(code))
        if count > len(state.stock):
            raise IllegalAction("flume-error-discard-stock", stock=len(state.stock))

    def _own_card(self, state: FlumeState, seat: int, text: str) -> str:
        code = _parse(text).code
        if code not in state.hands[seat]:
            raise IllegalAction("flume-error-not-held", **card_args(code))
        return code

    def _next_discarder(self, state: FlumeState) -> list[Event]:
        """The next seat to discard in order (dealer last), or on to the call or the play."""
        n = state.n_players
        order = [(state.dealer + 1 + i) % n for i in range(n)]
        pending = [s for s in order if state.discarded[s] is None]
        if pending and state.stock:
            state.current = pending[0]
            return []
        events: list[Event] = []
        if pending:
            events.append(Event(kind="stock_empty"))
        if n == 5:
            state.phase, state.current = "call", state.bidder
            return events
        return events + self._start_play(state)

    # The partner call (five players) -------------------------------------------------------

    def _call(self, state: FlumeState, seat: int, verb: str, arg: str | None) -> list[Event]:
        if verb == "alone":
            state.alone, state.called, state.partner = True, None, None
            events = [Event(kind="alone", seat=seat)]
            return events + self._start_play(state)
        code = _parse(arg or "").code
        if code not in DECK:
            raise IllegalAction("flume-error-not-in-deck", **card_args(code))
        if code in state.hands[seat]:
            raise IllegalAction("flume-error-call-own")
        state.called = code
        state.partner = next((s for s, hand in enumerate(state.hands) if code in hand), None)
        events = [Event(kind="call", seat=seat, data={"card": code})]
        return events + self._start_play(state)

    # Tricks --------------------------------------------------------------------------------

    def _start_play(self, state: FlumeState) -> list[Event]:
        state.phase = "play"
        state.leader = state.current = (state.dealer + 1) % state.n_players
        for seat, hand in enumerate(state.hands):
            assert len(hand) == HAND_SIZE, (seat, hand)
        return []

    def _play(self, state: FlumeState, seat: int, verb: str, arg: str | None) -> list[Event]:
        assert state.trump is not None
        code = self._own_card(state, seat, arg or "")
        allowed = legal_plays(state.hands[seat], state.trick, state.trump)
        if code not in allowed:
            led = card(state.trick[0][1])
            led_suit = state.trump if self._is_trump(state, led.code) else led.suit
            what = "trumps" if led_suit == state.trump else led_suit
            raise IllegalAction("flume-error-follow-suit", led=what)
        state.hands[seat].remove(code)
        state.trick.append((seat, code))
        state.played.append((seat, code))
        events = [Event(kind="play", seat=seat, data={"card": code})]
        if code == state.called and not state.partner_known:
            state.partner_known = True
            events.append(
                Event(kind="partner", seat=seat, data={"partner": seat, "bidder": state.bidder})
            )
        if len(state.trick) < state.n_players:
            state.current = (seat + 1) % state.n_players
            return events
        return events + self._finish_trick(state)

    def _finish_trick(self, state: FlumeState) -> list[Event]:
        assert state.trump is not None and state.leader is not None
        winner = trick_winner(state.trick, state.trump)
        record = TrickRecord(leader=state.leader, plays=list(state.trick), winner=winner)
        state.tricks.append(record)
        state.trick = []
        events = [
            Event(
                kind="trick",
                seat=winner,
                data={"winner": winner, "cards": [c for _, c in record.plays]},
            )
        ]
        if any(state.hands):
            state.leader = state.current = winner
            return events
        return events + self._score_hand(state)

    # Scoring -------------------------------------------------------------------------------

    def sides(self, state: FlumeState) -> list[int]:
        """Each seat's side: teams 0/1 four-handed; five-handed 0 is the bidding side."""
        if state.n_players == 4:
            return [s % 2 for s in range(4)]
        bidding = {state.bidder, state.partner}
        return [0 if s in bidding else 1 for s in range(state.n_players)]

    def _score_hand(self, state: FlumeState) -> list[Event]:
        assert state.trump is not None and state.bidder is not None
        side_of = self.sides(state)
        result = score_hand(
            state.played,
            [(t.winner, [c for _, c in t.plays]) for t in state.tricks],
            state.trump,
            side_of,
        )
        per_side: dict[int, int] = {}
        for name in POINT_NAMES:
            holder = result.awards[name]
            if holder is not None:
                per_side[side_of[holder]] = per_side.get(side_of[holder], 0) + 1
        bid_side = side_of[state.bidder]
        made = per_side.get(bid_side, 0) >= state.bid
        deltas = []
        for seat in range(state.n_players):
            taken = per_side.get(side_of[seat], 0)
            if side_of[seat] == bid_side and not made:
                deltas.append(-state.bid)
            else:
                deltas.append(taken)
        for seat, delta in enumerate(deltas):
            state.scores[seat] += delta
        state.last_hand = HandSummary(
            hand_no=state.hand_no,
            bidder=state.bidder,
            bid=state.bid,
            trump=state.trump,
            called=state.called,
            partner=state.partner,
            awards=dict(result.awards),
            cards=dict(result.cards),
            card_points=[result.card_points[s] for s in range(state.n_players)],
            side_points=[per_side.get(side_of[s], 0) for s in range(state.n_players)],
            made=made,
            deltas=deltas,
        )
        events = self._hand_events(state, result.awards, made)
        winners = self._winners(state, side_of)
        if winners:
            state.winners = winners
            state.phase, state.current = "over", None
            events.append(
                Event(kind="game_over", data={"winners": winners, "scores": list(state.scores)})
            )
            return events
        state.dealer = (state.dealer + 1) % state.n_players
        self._deal(state)
        return events

    def _hand_events(
        self, state: FlumeState, awards: dict[str, int | None], made: bool
    ) -> list[Event]:
        bidder = state.bidder
        assert bidder is not None
        events: list[Event] = []
        if state.n_players == 5 and not state.alone and state.partner is None:
            events.append(
                Event(kind="partner", seat=bidder, data={"partner": None, "bidder": bidder})
            )
        events.append(
            Event(
                kind="hand",
                seat=bidder,
                data={
                    "hand": state.hand_no,
                    "bid": state.bid,
                    "made": made,
                    "awards": awards,
                    "scores": list(state.scores),
                },
            )
        )
        return events

    def _winners(self, state: FlumeState, side_of: list[int]) -> list[int]:
        """Who has won after this hand: the highest past the target; a tie goes to the bidders."""
        target = state.config.target
        reached = [s for s in range(state.n_players) if state.scores[s] >= target]
        if not reached:
            return []
        best = max(state.scores[s] for s in reached)
        top = [s for s in reached if state.scores[s] == best]
        assert state.bidder is not None
        bidders = [s for s in top if side_of[s] == side_of[state.bidder]]
        if bidders and len(bidders) < len(top):
            top = bidders
        if state.n_players == 4:  # a team wins together
            sides = {side_of[s] for s in top}
            top = [s for s in range(4) if side_of[s] in sides]
        return top

    # Dealing -------------------------------------------------------------------------------

    def _deal(self, state: FlumeState, *, redeal: bool = False) -> None:
        """Shuffle the 46 cards and deal six to each, one at a time from the dealer's left."""
        n = state.n_players
        deck = flume_deck()
        state.rng.shuffle(deck)
        hands: list[list[str]] = [[] for _ in range(n)]
        for i in range(HAND_SIZE * n):
            hands[(state.dealer + 1 + i) % n].append(deck[i])
        state.hands, state.stock = hands, deck[HAND_SIZE * n :]
        state.deals += 1
        if not redeal:
            state.hand_no += 1
        state.discards = [[] for _ in range(n)]
        state.discarded = [None] * n
        state.selected = [[] for _ in range(n)]
        state.bids = [None] * n
        state.bidder, state.bid, state.trump = None, 0, None
        state.called, state.alone, state.partner, state.partner_known = None, False, None, False
        state.trick, state.tricks, state.played = [], [], []
        state.phase = "bid"
        state.leader = None
        state.current = (state.dealer + 1) % n

    def _taken(self, state: FlumeState) -> list[int]:
        taken = [0] * state.n_players
        for trick in state.tricks:
            taken[trick.winner] += sum(card_points(c) for _, c in trick.plays)
        return taken
