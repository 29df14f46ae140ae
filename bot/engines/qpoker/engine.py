"""QuantumPoker: four qubit cards each, Pauli cards to change them, chips on every qubit.

Rules: ``shared/seeds/004`` with the QuantumPoker section of ``shared/RULINGS.md``.

A match is several rounds. A round: every player still in antes one chip on each of four
qubits dealt from a 20-card qubit deck (ten read 0, ten read 1); community Pauli cards are
turned up (five, or one per player); in turn order each player takes one card and applies it,
until the cards are gone or a called measurement has given everyone else one more turn. Then
every qubit in superposition collapses by a coin, 1s score (2 when doubled), and the player
with the most points takes the chips on the other players' 1s.

Actions (strings, at most ~12 characters):

* complete moves ``X:2`` ``Y:0`` ``Z:3`` ``H:1`` (your qubit), ``CX:1.3`` (seat 1's qubit 3),
  ``SWAP:2:1.3`` (your qubit 2 for seat 1's qubit 3) and ``call`` (call measurement);
* menu steps for the player's private panel: ``pick:X`` (choose a card), ``pick:SWAP:2``
  (choose which of your qubits to swap away) and ``back``. They only change ``pending``.

Where the seed and rulings leave a gap, this engine decides (and the rules page says so):
calling shows the caller's qubits (the seed: "call for a measurement, revealing their
cards"); a Z that would double a bet when its owner has no chip left does nothing; tied
winners each keep their own chips and split the chips on the others' 1s; chips still in the pot
when the match ends go to the player(s) with the most chips, who are the match winners as the
chips stood before that pot was shared out (an odd chip never breaks a tie); a new round
reshuffles the whole Pauli deck, and the first turn moves one seat on each round.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import ClassVar, Literal, cast

from pydantic import BaseModel, Field

from bot.engines.base import (
    ConfigError,
    Engine,
    Event,
    IllegalAction,
    InvalidAction,
    Outcome,
    Rng,
    plural,
)

Card = Literal["X", "Y", "Z", "H", "CX", "SWAP"]
CARDS: tuple[Card, ...] = ("X", "Y", "Z", "H", "CX", "SWAP")
OWN_CARDS: tuple[Card, ...] = ("X", "Y", "Z", "H")
COPIES = 8  # of each Pauli card: 48 in all
QUBITS = 4  # per player, one chip of ante on each
QUBIT_DECK = (1,) * 10 + (0,) * 10  # the 20 qubit cards: half of them turned round

CARD_NAMES: dict[str, str] = {
    "X": "X (flip)",
    "Y": "Y (flip and show/hide)",
    "Z": "Z (double/halve the bet)",
    "H": "H (superposition)",
    "CX": "CX (flip another's qubit)",
    "SWAP": "SWAP (trade qubits)",
}


class QPokerConfig(BaseModel):
    chips: int = Field(default=20, ge=QUBITS, le=1000, description="starting chips each")
    rounds: int = Field(default=5, ge=1, le=50, description="rounds in the match")
    community: Literal["five", "per_player"] = "five"
    calling: bool = Field(default=True, description="players may call measurement early")


class Qubit(BaseModel):
    """One qubit card. ``value`` means nothing while ``superposed``."""

    value: int = Field(ge=0, le=1)
    shown: bool = False
    superposed: bool = False
    doubled: bool = False

    @property
    def chips(self) -> int:
        """Chips on the qubit: the ante, plus one when doubled."""
        return 2 if self.doubled else 1


class QubitView(BaseModel):
    """A qubit as one viewer sees it: ``value`` is None when that viewer cannot know it."""

    value: int | None
    shown: bool
    superposed: bool
    doubled: bool


class PlayedCard(BaseModel):
    card: Card
    seat: int
    move: str = ""
    """The complete move (``X:2``, ``CX:1.3``, ``SWAP:2:1.3``): the public log names every
    card's target, so everyone may know it ("" in tables saved before it was kept)."""


class RoundResult(BaseModel):
    """The measurement of a finished round; everything here is public."""

    round: int
    values: list[list[int]]  # measured qubits per seat ([] for a seat that sat out)
    doubled: list[list[bool]]
    points: list[int]
    winners: list[int]
    share: int  # chips each winner took from the others' 1s (and the carried pot)
    carry: int  # chips left in the pot for the next round
    net: list[int]  # each seat's chip change over the round (ante included)


class QPokerObservation(BaseModel):
    seat: int | None  # who is looking (None: a spectator)
    n_players: int
    round: int
    rounds: int
    chips: list[int]  # each seat's stack (chips not on the table)
    out: list[bool]  # could not ante: out of the match
    qubits: list[list[QubitView]]  # per seat; [] for a seat out of the match
    community: list[Card]  # cards still on the table this round
    played: list[PlayedCard]  # cards taken this round, in order
    current: int | None
    starter: int
    called_by: int | None
    final_left: list[int]  # after a call: who still has their one last turn, in order
    pending: str | None  # the viewer's own half-made choice (only when it is their turn)
    carry: int  # chips waiting in the pot from an earlier split
    community_mode: Literal["five", "per_player"]
    calling: bool
    last_round: RoundResult | None
    winners: list[int]  # once the match is over

    @property
    def pot(self) -> int:
        """Chips on the table: on every qubit, plus the carried pot."""
        return self.carry + sum(2 if q.doubled else 1 for row in self.qubits for q in row)


class QPokerState(BaseModel):
    config: QPokerConfig
    n_players: int
    rng: Rng
    round: int = 0
    chips: list[int]
    out: list[bool]
    qubits: list[list[Qubit]]
    deck: list[Card] = Field(default_factory=list)
    community: list[Card] = Field(default_factory=list)
    played: list[PlayedCard] = Field(default_factory=list)
    current: int | None = None
    starter: int = -1
    called_by: int | None = None
    final_left: list[int] = Field(default_factory=list)
    pending: str | None = None
    carry: int = 0
    round_start: list[int] = Field(default_factory=list)  # stacks before this round's ante
    last_round: RoundResult | None = None
    over: bool = False
    winners: list[int] = Field(default_factory=list)
    """The match winners, decided on the chips before the last pot is shared out (set when
    the match ends; empty in matches saved before it was kept)."""
    moves: int = 0  # cards taken and calls made so far (progress counter)


# Moves ------------------------------------------------------------------------------------

_MOVE = re.compile(
    r"^(?:(?P<own>X|Y|Z|H):(?P<q>\d)"
    r"|CX:(?P<cs>\d)\.(?P<cq>\d)"
    r"|SWAP:(?P<sq>\d):(?P<ss>\d)\.(?P<st>\d)"
    r"|(?P<call>call)|(?P<back>back)"
    r"|pick:(?P<pick>X|Y|Z|H|CX|SWAP)(?::(?P<pq>\d))?)$"
)


def complete_moves(
    community: Sequence[str], seat: int, others: list[int], may_call: bool
) -> list[str]:
    """Every complete move open to ``seat``: each card kind once, every target, then ``call``."""
    moves: list[str] = []
    for card in CARDS:
        if card not in community:
            continue
        if card in OWN_CARDS:
            moves.extend(f"{card}:{q}" for q in range(QUBITS))
        elif card == "CX":
            moves.extend(f"CX:{s}.{q}" for s in others for q in range(QUBITS))
        else:
            moves.extend(
                f"SWAP:{mine}:{s}.{q}"
                for mine in range(QUBITS)
                for s in others
                for q in range(QUBITS)
            )
    if may_call:
        moves.append("call")
    return moves


def call_refusal(calling: bool, called_by: int | None, cards_left: int, others: int) -> str | None:
    """Why measurement cannot be called now, or None when it can.

    A call promises every other player in the round one last turn, and each turn takes a
    community card, so a call needs at least one card left for each of them.
    """
    if not calling:
        return "Calling measurement is off at this table: play a card."
    if called_by is not None:
        return "Measurement has already been called this round."
    if cards_left < others:
        return (
            f"You can't call now: only {plural(cards_left, 'community card')} "
            f"{'is' if cards_left == 1 else 'are'} left for the "
            f"{plural(others, 'other player')}, and a call promises each of them one last "
            "turn. Take a card instead."
        )
    return None


def qubit_name(index: int) -> str:
    """Qubits are numbered from 1 for people (0 in action strings)."""
    return f"qubit {index + 1}"


def _and_list(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# The engine --------------------------------------------------------------------------------


class QPokerEngine(Engine[QPokerConfig, QPokerState, QPokerObservation]):
    """QuantumPoker for 2 to 5 seats (any of them may be AI)."""

    name: ClassVar[str] = "qpoker"
    title: ClassVar[str] = "QuantumPoker"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    config_model: ClassVar[type[BaseModel]] = QPokerConfig
    state_model: ClassVar[type[BaseModel]] = QPokerState

    # Setup and queries ---------------------------------------------------------------------

    def new_game(self, config: QPokerConfig, n_players: int, seed: int) -> QPokerState:
        """Seat 0 opens the first round; the opening events are not kept (the core says so)."""
        self.check_player_count(n_players)
        if config.chips < QUBITS:
            raise ConfigError(f"Everyone needs at least {QUBITS} chips to ante.")
        state = QPokerState(
            config=config,
            n_players=n_players,
            rng=Rng(seed=seed),
            chips=[config.chips] * n_players,
            out=[False] * n_players,
            qubits=[[] for _ in range(n_players)],
        )
        self._start_round(state)
        return state

    def to_act(self, state: QPokerState) -> frozenset[int]:
        return frozenset() if state.current is None else frozenset({state.current})

    def is_over(self, state: QPokerState) -> bool:
        return state.over

    def in_round(self, state: QPokerState) -> list[int]:
        """Seats playing the current round (everyone not out of the match)."""
        return [s for s in range(state.n_players) if not state.out[s]]

    def legal_actions(self, state: QPokerState, seat: int) -> list[str]:
        """Complete moves first (the core falls back on the first), then the menu steps."""
        if state.current is None or seat != state.current:
            return []
        others = [s for s in self.in_round(state) if s != seat]
        moves = complete_moves(state.community, seat, others, self._may_call(state))
        moves.extend(f"pick:{card}" for card in CARDS if card in state.community)
        if state.pending is not None and state.pending.startswith("SWAP"):
            moves.extend(f"pick:SWAP:{q}" for q in range(QUBITS))
        if state.pending is not None:
            moves.append("back")
        return moves

    def observe(self, state: QPokerState, seat: int | None) -> QPokerObservation:
        """Own values unless superposed; others' values only while shown (and not superposed)."""
        views = [
            [self._view(q, owner == seat) for q in row] for owner, row in enumerate(state.qubits)
        ]
        return QPokerObservation(
            seat=seat,
            n_players=state.n_players,
            round=state.round,
            rounds=state.config.rounds,
            chips=list(state.chips),
            out=list(state.out),
            qubits=views,
            community=list(state.community),
            played=[p.model_copy() for p in state.played],
            current=state.current,
            starter=state.starter,
            called_by=state.called_by,
            final_left=list(state.final_left),
            pending=state.pending if seat is not None and seat == state.current else None,
            carry=state.carry,
            community_mode=state.config.community,
            calling=state.config.calling,
            last_round=state.last_round.model_copy(deep=True) if state.last_round else None,
            winners=self.outcome(state).winners if state.over else [],
        )

    def revealed(self, state: QPokerState) -> QPokerObservation:
        """Every qubit's value face up (only for a finished match). A qubit in superposition
        has no value until it is measured, so it stays a superposition."""
        obs = self.observe(state, None)
        obs.qubits = [[self._view(q, True) for q in row] for row in state.qubits]
        return obs

    def deal_of(self, state: QPokerState) -> int:
        return state.round

    def deal_name(self, state: QPokerState) -> str:
        return f"round {state.round} of {state.config.rounds}"

    @staticmethod
    def _view(qubit: Qubit, own: bool) -> QubitView:
        known = not qubit.superposed and (own or qubit.shown)
        return QubitView(
            value=qubit.value if known else None,
            shown=qubit.shown,
            superposed=qubit.superposed,
            doubled=qubit.doubled,
        )

    def outcome(self, state: QPokerState) -> Outcome:
        """Final stacks. The match winners share first place even when the last pot's odd
        chip left one of them a chip ahead; the others follow by chips (ties share a place)."""
        if not state.over:
            raise IllegalAction("The match is not over yet.")
        scores = [float(c) for c in state.chips]
        winners = list(state.winners) or Outcome.from_scores(scores).winners
        rest = sorted({c for s, c in enumerate(state.chips) if s not in winners}, reverse=True)
        ranks = [0 if s in winners else 1 + rest.index(c) for s, c in enumerate(state.chips)]
        names = _and_list([f"{{p{w}}}" for w in winners])
        stacks = sorted({state.chips[w] for w in winners})
        if len(winners) == 1:
            summary = f"{names} wins with {plural(stacks[0], 'chip')}."
        elif len(stacks) == 1:
            summary = f"{names} share the win with {plural(stacks[0], 'chip')} each."
        else:
            summary = (
                f"{names} share the win: they were level before the last pot was shared out, "
                "and its odd chip doesn't break the tie."
            )
        return Outcome(scores=scores, ranks=ranks, winners=winners, summary=summary, unit="chip")

    # Moves ---------------------------------------------------------------------------------

    def apply(self, state: QPokerState, seat: int, action: str) -> list[Event]:
        """Check the move fully, then play it; a refused move leaves ``state`` untouched."""
        match = _MOVE.match(action.strip())
        if match is None:
            raise InvalidAction(
                f"I don't know the move {action!r}; try X:0, CX:1.2, SWAP:0:1.2 or call."
            )
        if state.over or state.current is None:
            raise IllegalAction("The match is over.")
        if seat != state.current:
            raise IllegalAction("It is not your turn.")
        if match["back"]:
            state.pending = None
            return []
        if match["pick"]:
            return self._pick(state, match["pick"], match["pq"])
        if match["call"]:
            return self._call(state, seat)
        if match["own"]:
            card, qubit = cast(Card, match["own"]), int(match["q"])
            self._check_own(qubit)
            return self._play(
                state, seat, card, f"{card}:{qubit}", lambda: self._own(state, seat, card, qubit)
            )
        others = [s for s in self.in_round(state) if s != seat]
        if match["cs"] is not None:
            target, qubit = int(match["cs"]), int(match["cq"])
            self._check_other(state, seat, target, qubit)
            return self._play(
                state,
                seat,
                "CX",
                f"CX:{target}.{qubit}",
                lambda: self._cx(state, seat, target, qubit),
            )
        mine, target, theirs = int(match["sq"]), int(match["ss"]), int(match["st"])
        self._check_own(mine)
        self._check_other(state, seat, target, theirs)
        assert target in others
        return self._play(
            state,
            seat,
            "SWAP",
            f"SWAP:{mine}:{target}.{theirs}",
            lambda: self._swap(state, seat, mine, target, theirs),
        )

    def _pick(self, state: QPokerState, card: str, qubit: str | None) -> list[Event]:
        if card not in state.community:
            raise IllegalAction(f"There is no {card} card left on the table.")
        if qubit is not None:
            if card != "SWAP":
                raise InvalidAction("Only SWAP asks for your own qubit first.")
            self._check_own(int(qubit))
            state.pending = f"SWAP:{qubit}"
        else:
            state.pending = card
        return []

    @staticmethod
    def _check_own(qubit: int) -> None:
        if not 0 <= qubit < QUBITS:
            raise IllegalAction(f"You have qubits 1 to {QUBITS}; there is no qubit {qubit + 1}.")

    def _check_other(self, state: QPokerState, seat: int, target: int, qubit: int) -> None:
        if target == seat:
            raise IllegalAction("CX and SWAP work on another player's qubit, never your own.")
        if target >= state.n_players or state.out[target]:
            raise IllegalAction("That player is not in this round.")
        self._check_own(qubit)

    def _call_refusal(self, state: QPokerState) -> str | None:
        others = len(self.in_round(state)) - 1
        return call_refusal(state.config.calling, state.called_by, len(state.community), others)

    def _may_call(self, state: QPokerState) -> bool:
        return self._call_refusal(state) is None

    def _take(self, state: QPokerState, seat: int, card: Card, move: str) -> None:
        if card not in state.community:
            raise IllegalAction(f"There is no {card} card left on the table.")
        state.community.remove(card)
        state.played.append(PlayedCard(card=card, seat=seat, move=move))

    def _play(
        self,
        state: QPokerState,
        seat: int,
        card: Card,
        move: str,
        effect: Callable[[], list[Event]],
    ) -> list[Event]:
        """Take ``card`` from the table (``move`` is the whole move, for the record), apply
        its effect, and move the turn on."""
        self._take(state, seat, card, move)
        state.moves += 1
        events: list[Event] = effect()
        return events + self._after_turn(state, seat)

    # Card effects ----------------------------------------------------------------------

    def _own(self, state: QPokerState, seat: int, card: str, index: int) -> list[Event]:
        qubit = state.qubits[seat][index]
        name = qubit_name(index)
        who = f"{{p{seat}}}"
        data: dict[str, object] = {"card": card, "qubit": index}
        if card == "X":
            if qubit.superposed:
                text = f"{who} applied X to their {name}; in superposition, nothing changes."
            else:
                qubit.value ^= 1
                text = f"{who} flipped their {name} with X."
        elif card == "Y":
            if not qubit.superposed:
                qubit.value ^= 1
            qubit.shown = not qubit.shown
            flipped = "" if qubit.superposed else "flipped and "
            now = "shown" if qubit.shown else "hidden"
            text = f"{who} {flipped}turned their {name} {now} with Y"
            if qubit.shown and not qubit.superposed:
                text += f": it reads {qubit.value}"
            text += "."
        elif card == "Z":
            text = self._z(state, seat, qubit, name)
        else:
            text = self._h(state, seat, qubit, name)
        data["shown"] = qubit.shown
        return [Event(kind="card", seat=seat, text=text, data=data)]

    @staticmethod
    def _z(state: QPokerState, seat: int, qubit: Qubit, name: str) -> str:
        who = f"{{p{seat}}}"
        if qubit.doubled:
            qubit.doubled = False
            state.chips[seat] += 1
            return f"{who} halved the bet on their {name} with Z and took a chip back."
        if state.chips[seat] == 0:
            return f"{who} played Z on their {name} but has no chip to double it: no effect."
        qubit.doubled = True
        state.chips[seat] -= 1
        return f"{who} doubled the bet on their {name} with Z (one more chip on it)."

    @staticmethod
    def _h(state: QPokerState, seat: int, qubit: Qubit, name: str) -> str:
        who = f"{{p{seat}}}"
        if not qubit.superposed:
            qubit.superposed = True
            return f"{who} put their {name} in superposition with H."
        qubit.superposed = False
        qubit.value = state.rng.randint(0, 1)
        text = f"{who} applied H to their {name} in superposition: a coin collapses it"
        return text + (f" to {qubit.value}." if qubit.shown else " (face down).")

    def _cx(self, state: QPokerState, seat: int, target: int, index: int) -> list[Event]:
        qubit = state.qubits[target][index]
        base = f"{{p{seat}}} applied CX to {{p{target}}}'s {qubit_name(index)}"
        if qubit.superposed:
            text = base + "; in superposition, nothing changes."
        else:
            qubit.value ^= 1
            text = base + (f": it now reads {qubit.value}." if qubit.shown else " and flipped it.")
        return [
            Event(
                kind="card",
                seat=seat,
                text=text,
                data={"card": "CX", "target": target, "qubit": index},
            )
        ]

    def _swap(
        self, state: QPokerState, seat: int, mine: int, target: int, theirs: int
    ) -> list[Event]:
        ours, other = state.qubits[seat][mine], state.qubits[target][theirs]
        state.qubits[seat][mine], state.qubits[target][theirs] = other, ours
        text = (
            f"{{p{seat}}} swapped their {qubit_name(mine)} for {{p{target}}}'s "
            f"{qubit_name(theirs)} (value, visibility and chips go with them)."
        )
        return [
            Event(
                kind="card",
                seat=seat,
                text=text,
                data={"card": "SWAP", "qubit": mine, "target": target, "their_qubit": theirs},
            )
        ]

    # Calling and the turn order -----------------------------------------------------------

    def _call(self, state: QPokerState, seat: int) -> list[Event]:
        refusal = self._call_refusal(state)
        if refusal is not None:
            raise IllegalAction(refusal)
        state.called_by = seat
        state.moves += 1
        players = self.in_round(state)
        at = players.index(seat)
        state.final_left = players[at + 1 :] + players[:at]
        for qubit in state.qubits[seat]:
            qubit.shown = True
        shown = " ".join("~" if q.superposed else str(q.value) for q in state.qubits[seat])
        event = Event(
            kind="call",
            seat=seat,
            text=f"{{p{seat}}} calls measurement and shows their qubits ({shown}): "
            "everyone else has one last turn.",
            data={"final_left": list(state.final_left)},
        )
        state.pending = None
        state.current = state.final_left[0]
        return [event]

    def _after_turn(self, state: QPokerState, seat: int) -> list[Event]:
        state.pending = None
        if state.called_by is not None and state.final_left and state.final_left[0] == seat:
            state.final_left.pop(0)
        done = not state.community or (state.called_by is not None and not state.final_left)
        if done:
            return self._measure(state)
        if state.called_by is not None:
            state.current = state.final_left[0]
        else:
            state.current = self._next_in_round(state, seat)
        return []

    def _next_in_round(self, state: QPokerState, seat: int) -> int:
        for step in range(1, state.n_players + 1):
            candidate = (seat + step) % state.n_players
            if not state.out[candidate]:
                return candidate
        raise AssertionError("nobody is in the round")

    # Rounds ------------------------------------------------------------------------------

    def _start_round(self, state: QPokerState) -> list[Event]:
        """Drop players who cannot ante, then ante, deal and turn up the community cards."""
        events: list[Event] = []
        if state.round >= state.config.rounds:
            return events + self._finish(state, "the last round is played")
        for seat in range(state.n_players):
            if not state.out[seat] and state.chips[seat] < QUBITS:
                state.out[seat] = True
                events.append(
                    Event(
                        kind="out",
                        seat=seat,
                        text=f"{{p{seat}}} cannot ante {QUBITS} chips and is out of the match.",
                        data={"chips": state.chips[seat]},
                    )
                )
        players = self.in_round(state)
        if len(players) < 2:
            return events + self._finish(state, "only one player is left")
        state.round += 1
        state.round_start = list(state.chips)
        qubit_deck = list(QUBIT_DECK)
        state.rng.shuffle(qubit_deck)
        for seat in range(state.n_players):
            state.qubits[seat] = []
        for seat in players:
            state.chips[seat] -= QUBITS
            state.qubits[seat] = [Qubit(value=qubit_deck.pop()) for _ in range(QUBITS)]
        deck: list[Card] = [card for card in CARDS for _ in range(COPIES)]
        state.rng.shuffle(deck)
        count = 5 if state.config.community == "five" else len(players)
        state.community, state.deck = deck[:count], deck[count:]
        state.played = []
        state.called_by = None
        state.final_left = []
        state.pending = None
        state.starter = self._next_in_round(state, state.starter)  # -1 before the first round
        state.current = state.starter
        events.append(
            Event(
                kind="round",
                seat=state.starter,
                text=f"Round {state.round} of {state.config.rounds}: everyone antes {QUBITS} "
                f"chips; on the table: {' '.join(state.community)}. {{p{state.starter}}} starts.",
                data={"round": state.round, "community": list(state.community)},
            )
        )
        return events

    def _measure(self, state: QPokerState) -> list[Event]:
        """Collapse, score, pay out, then start the next round (or end the match)."""
        players = self.in_round(state)
        for seat in players:
            for qubit in state.qubits[seat]:
                if qubit.superposed:
                    qubit.superposed = False
                    qubit.value = state.rng.randint(0, 1)
                qubit.shown = True
        points = [
            sum(q.chips for q in state.qubits[s] if q.value == 1) if s in players else 0
            for s in range(state.n_players)
        ]
        best = max(points[s] for s in players)
        winners = [s for s in players if points[s] == best]
        pool = state.carry + sum(points[s] for s in players if s not in winners)
        for seat in players:
            won = seat in winners
            returned = sum(q.chips for q in state.qubits[seat] if won or q.value == 0)
            state.chips[seat] += returned
        share, state.carry = divmod(pool, len(winners))
        for seat in winners:
            state.chips[seat] += share
        result = RoundResult(
            round=state.round,
            values=[[q.value for q in row] for row in state.qubits],
            doubled=[[q.doubled for q in row] for row in state.qubits],
            points=points,
            winners=winners,
            share=share,
            carry=state.carry,
            net=[state.chips[s] - state.round_start[s] for s in range(state.n_players)],
        )
        state.last_round = result
        events = [
            self._measure_event(state, players, result),
            self._payout_event(result, state.round >= state.config.rounds),
        ]
        for seat in range(state.n_players):
            state.qubits[seat] = []
        state.community = []
        state.current = None
        return events + self._start_round(state)

    @staticmethod
    def _measure_event(state: QPokerState, players: list[int], result: RoundResult) -> Event:
        parts = []
        for seat in players:
            marks = " ".join(
                f"{v}x2" if d else str(v)
                for v, d in zip(result.values[seat], result.doubled[seat], strict=True)
            )
            parts.append(f"{{p{seat}}} {marks} = {result.points[seat]}")
        return Event(
            kind="measure",
            text=f"Measurement, round {result.round}: " + "; ".join(parts) + ".",
            data={"values": result.values, "points": result.points},
        )

    @staticmethod
    def _payout_event(result: RoundResult, last: bool = False) -> Event:
        names = _and_list([f"{{p{w}}}" for w in result.winners])
        best = result.points[result.winners[0]]
        if len(result.winners) == 1:
            text = f"{names} wins the round with {plural(best, 'point')} and takes {plural(result.share, 'chip')}."
        else:
            text = f"{names} tie with {plural(best, 'point')} and take {plural(result.share, 'chip')} each."
        if result.carry:
            verb = "stays" if result.carry == 1 else "stay"
            later = "until the match ends" if last else "for the next round"
            text += f" {plural(result.carry, 'chip')} {verb} in the pot {later}."
        return Event(
            kind="payout",
            seat=result.winners[0] if len(result.winners) == 1 else None,
            text=text,
            data={"winners": result.winners, "share": result.share, "carry": result.carry},
        )

    def _award_pot(self, state: QPokerState) -> list[Event]:
        """Chips left in the pot at the end go to the match winner: no chip disappears.

        Tied winners (most chips) split them; chips that do not divide go one each to the
        tied winners in turn order from the dealer's left, i.e. from the last round's
        starter.
        """
        best = max(state.chips)
        first = max(state.starter, 0)
        order = [(first + step) % state.n_players for step in range(state.n_players)]
        winners = [s for s in order if state.chips[s] == best]
        state.winners = sorted(winners)  # decided before the pot is shared out
        pot, state.carry = state.carry, 0
        if not pot:
            return []
        share, odd = divmod(pot, len(winners))
        gains = {s: share + (1 if i < odd else 0) for i, s in enumerate(winners)}
        gains = {s: g for s, g in gains.items() if g}
        for seat, gain in gains.items():
            state.chips[seat] += gain
        they = "it goes" if pot == 1 else "they go"
        lead = f"The match is over with {plural(pot, 'chip')} still in the pot: {they} to"
        if len(winners) == 1:
            text = f"{lead} {{p{winners[0]}}}, who has the most chips."
        elif len(gains) == 1:
            (seat,) = gains
            text = (
                f"{lead} {{p{seat}}}, the first from the dealer's left of the players level on "
                "the most chips. The odd chip doesn't break their tie."
            )
        else:
            parts = [f"{{p{s}}} {plural(g, 'chip')}" for s, g in gains.items()]
            text = f"{lead} the players level on the most chips: {_and_list(parts)}."
            if len(set(gains.values())) > 1 or len(gains) < len(winners):
                text += " The odd chip doesn't break their tie."
        return [Event(kind="pot", text=text, data={"pot": pot, "gains": gains})]

    def _finish(self, state: QPokerState, why: str) -> list[Event]:
        state.over = True
        state.current = None
        state.community = []
        events = self._award_pot(state)
        result = self.outcome(state)
        over = Event(
            kind="game_over",
            text=f"The match is over ({why}): {result.summary}",
            data={"chips": list(state.chips), "winners": result.winners},
        )
        return [*events, over]
