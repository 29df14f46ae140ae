"""Quantum Fingers: Go Fish with no cards, only fingers and a consistent history.

Rules: ``shared/seeds/003`` with the "Quantum Fingers" section of ``shared/RULINGS.md``.

``n`` players share ``n`` flavours of ``per_flavour`` fingers each (4 by default); everyone
starts with ``per_flavour`` fingers and nobody starts with all of one flavour. What each hand
holds is never dealt: the state keeps the exact bounds on every player's current holding of
every flavour over all classical deals still consistent with the game so far
(:mod:`bot.engines.fingers.logic`). Everything is public, so every seat observes the same
table.

Moves (action strings):

* ``ask:<q>:<f>`` asks player ``q`` for the named flavour ``f`` (an index into ``names``);
  ``new:<q>:<name>`` asks for a flavour nobody has named yet and names it (``new:<q>`` picks
  a name from a built-in list). The asker must be able to hold one of that flavour.
* ``yes``/``no``: the asked player's answer, only when both answers are consistent; a forced
  answer is given by the engine at once.
* ``book``/``keep``: after receiving a finger the asker declares a book of all
  ``per_flavour`` of that flavour, or keeps them, only when both are consistent; a forced
  book is declared at once. Keeping commits the player to not holding them all.

A "yes" hands one finger to the asker, who asks again; a "no" passes the turn to the next
seat. You win when it is your turn and you hold no fingers. A repeated position (at the start
of an ask) or ``MAX_ASKS`` asks is a draw.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from bot.engines.base import Engine, Event, IllegalAction, InvalidAction, Outcome, Rng
from bot.engines.fingers.logic import Bounds, initial_bounds, restrict

MAX_ASKS = 200
NAME_LENGTH = 32
FORBIDDEN = set("@<>{}`*_~|\\[]()#")
"""Characters a flavour name may not contain (mentions, formatting, links, placeholders)."""

STOCK_NAMES = (
    "éclairs",
    "bauxite",
    "chimpanzees",
    "juniper berries",
    "marmalade",
    "tourmaline",
    "kumquats",
    "walruses",
    "saffron",
    "obsidian",
    "pretzels",
    "narwhals",
)
"""Names for flavours the asker did not name (AI players, autopilot)."""

Phase = Literal["ask", "answer", "book", "over"]

_ACTION = re.compile(
    r"^(?:(?P<ask>ask):(?P<q>\d+):(?P<f>\d+)|(?P<new>new):(?P<nq>\d+)(?::(?P<name>.*))?"
    r"|(?P<word>yes|no|book|keep))$",
    re.DOTALL,
)


class FingersConfig(BaseModel):
    per_flavour: int = Field(default=4, ge=3, le=6)
    """Fingers of each flavour (and in each starting hand)."""


class FingersObservation(BaseModel):
    """The whole table (everything in Quantum Fingers is public)."""

    seat: int | None
    n_players: int
    per_flavour: int
    names: list[str | None]  # flavour names; None until someone asks for it
    counts: list[int]  # fingers each player holds up
    remaining: list[int]  # fingers of each flavour still in hands (0 once booked)
    lo: list[list[int]]  # least each player may hold of each flavour (players x flavours)
    hi: list[list[int]]  # greatest each player may hold of each flavour
    books: list[list[int]]  # flavours each player has booked
    current: int | None
    phase: Phase
    asked: int | None  # the player being asked (answer phase) or just asked
    flavour: int | None  # the flavour of the pending ask or book decision
    asks: int
    max_asks: int
    winner: int | None
    draw: bool


class FingersState(BaseModel):
    config: FingersConfig
    n_players: int
    rng: Rng
    names: list[str | None]
    counts: list[int]
    remaining: list[int]
    lo: list[list[int]]
    hi: list[list[int]]
    books: list[list[int]]
    current: int | None = 0
    phase: Phase = "ask"
    asked: int | None = None
    flavour: int | None = None
    asks: int = 0
    seen: list[str] = Field(default_factory=list)  # positions at the start of each ask
    winner: int | None = None
    draw: bool = False


def clean_name(raw: str) -> str:
    """A flavour name as typed, trimmed with inner whitespace collapsed."""
    return " ".join(raw.split())


def name_problem(name: str, taken: list[str | None]) -> IllegalAction | None:
    """Why ``name`` can't name a new flavour (the refusal to raise), or None if it can."""
    if not name:
        return IllegalAction("fingers-error-name-empty")
    if len(name) > NAME_LENGTH:
        return IllegalAction("fingers-error-name-too-long", limit=NAME_LENGTH, length=len(name))
    bad = sorted({ch for ch in name if ch in FORBIDDEN or not ch.isprintable()})
    if bad:
        # the refused characters as Python shows them ('(' '\\n'): symbols, no words
        return IllegalAction(
            "fingers-error-name-characters", characters=" ".join(repr(ch) for ch in bad)
        )
    if "://" in name or "www." in name.casefold():
        return IllegalAction("fingers-error-name-address")
    if any(t is not None and t.casefold() == name.casefold() for t in taken):
        return IllegalAction("fingers-error-name-taken", name=name)
    return None


class FingersEngine(Engine[FingersConfig, FingersState, FingersObservation]):
    """Quantum Fingers for 3 to 8 seats (any of them may be AI)."""

    name: ClassVar[str] = "fingers"
    title: ClassVar[str] = "Quantum Fingers"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 8
    config_model: ClassVar[type[BaseModel]] = FingersConfig
    state_model: ClassVar[type[BaseModel]] = FingersState

    # Setup and queries ---------------------------------------------------------------------

    def new_game(self, config: FingersConfig, n_players: int, seed: int) -> FingersState:
        """Seat 0 asks first. Nothing is dealt: every consistent deal is still possible."""
        self.check_player_count(n_players)
        k = config.per_flavour
        bounds = initial_bounds(n_players, k)
        state = FingersState(
            config=config,
            n_players=n_players,
            rng=Rng(seed=seed),
            names=[None] * n_players,
            counts=[k] * n_players,
            remaining=[k] * n_players,
            lo=bounds.lo,
            hi=bounds.hi,
            books=[[] for _ in range(n_players)],
        )
        state.seen.append(position_key(state))
        return state

    def to_act(self, state: FingersState) -> frozenset[int]:
        if state.phase == "over":
            return frozenset()
        if state.phase == "answer":
            assert state.asked is not None
            return frozenset({state.asked})
        assert state.current is not None
        return frozenset({state.current})

    def is_over(self, state: FingersState) -> bool:
        return state.phase == "over"

    def legal_actions(self, state: FingersState, seat: int) -> list[str]:
        """Every consistent move of ``seat`` now (``new:<q>`` stands for naming a flavour)."""
        if seat not in self.to_act(state):
            return []
        if state.phase == "answer":
            return ["yes", "no"]
        if state.phase == "book":
            return ["book", "keep"]
        return ask_actions(self.observe(state, seat))

    def observe(self, state: FingersState, seat: int | None) -> FingersObservation:
        return FingersObservation(
            seat=seat,
            n_players=state.n_players,
            per_flavour=state.config.per_flavour,
            names=list(state.names),
            counts=list(state.counts),
            remaining=list(state.remaining),
            lo=[list(r) for r in state.lo],
            hi=[list(r) for r in state.hi],
            books=[list(b) for b in state.books],
            current=state.current,
            phase=state.phase,
            asked=state.asked,
            flavour=state.flavour,
            asks=state.asks,
            max_asks=MAX_ASKS,
            winner=state.winner,
            draw=state.draw,
        )

    def outcome(self, state: FingersState) -> Outcome:
        """The winner (empty hand) first, then everyone by books, most first; ``scores`` are
        books. A draw ranks nobody above anyone."""
        if state.phase != "over":
            raise IllegalAction("fingers-error-not-over")
        n = state.n_players
        books = [float(len(state.books[s])) for s in range(n)]
        if state.winner is None:
            return Outcome(
                scores=books,
                ranks=[0] * n,
                winners=[],
                draw=True,
                unit="book",
            )
        w = state.winner
        others = sorted({books[s] for s in range(n) if s != w}, reverse=True)
        return Outcome(
            scores=books,
            ranks=[0 if s == w else 1 + others.index(books[s]) for s in range(n)],
            winners=[w],
            unit="book",
        )

    # Moves ---------------------------------------------------------------------------------

    def apply(self, state: FingersState, seat: int, action: str) -> list[Event]:
        """Check the move fully, then play it; a refused move leaves ``state`` untouched."""
        match = _ACTION.match(action.strip())
        if match is None:
            raise InvalidAction("fingers-error-unknown-move", move=action[:40])
        if state.phase == "over":
            raise IllegalAction("fingers-error-game-over")
        if seat not in self.to_act(state):
            raise IllegalAction("fingers-error-not-your-move")
        word = match["word"]
        if word in ("yes", "no"):
            if state.phase != "answer":
                raise IllegalAction("fingers-error-no-question")
            return self._answer(state, word)
        if word in ("book", "keep"):
            if state.phase != "book":
                raise IllegalAction("fingers-error-no-book")
            return self._book_choice(state, word)
        if state.phase != "ask":
            # phase "answer": answer yes or no first; "book": declare a book or keep first
            raise IllegalAction("fingers-error-cannot-ask-now", phase=state.phase)
        if match["ask"]:
            target, flavour = int(match["q"]), int(match["f"])
            self._check_target(state, seat, target)
            self._check_flavour(state, seat, flavour)
            return self._ask(state, seat, target, flavour, None)
        target = int(match["nq"])
        self._check_target(state, seat, target)
        unnamed = self._unnamed(state)
        if unnamed is None:
            raise IllegalAction("fingers-error-all-named")
        if state.hi[seat][unnamed] < 1:
            raise IllegalAction("fingers-error-cannot-hold-unnamed")
        raw = match["name"]
        name = clean_name(raw) if raw is not None else self._stock_name(state)
        problem = name_problem(name, state.names)
        if problem is not None:
            raise problem
        return self._ask(state, seat, target, unnamed, name)

    def _check_target(self, state: FingersState, seat: int, target: int) -> None:
        if target >= state.n_players:
            raise IllegalAction("fingers-error-no-player", number=target)
        if target == seat:
            raise IllegalAction("fingers-error-ask-yourself")
        if state.counts[target] == 0:
            raise IllegalAction("fingers-error-empty-hand")

    def _check_flavour(self, state: FingersState, seat: int, flavour: int) -> None:
        if flavour >= state.n_players or state.names[flavour] is None:
            raise IllegalAction("fingers-error-flavour-unnamed")
        name = state.names[flavour]
        if state.remaining[flavour] == 0:
            raise IllegalAction("fingers-error-all-booked", name=name)
        if state.hi[seat][flavour] < 1:
            raise IllegalAction("fingers-error-cannot-hold", name=name)

    @staticmethod
    def _unnamed(state: FingersState) -> int | None:
        return next((f for f, n in enumerate(state.names) if n is None), None)

    @staticmethod
    def _stock_name(state: FingersState) -> str:
        taken = {n.casefold() for n in state.names if n is not None}
        for name in STOCK_NAMES:
            if name.casefold() not in taken:
                return name
        number = 1
        while f"flavour {number}" in taken:
            number += 1
        return f"flavour {number}"

    def _ask(
        self, state: FingersState, seat: int, target: int, flavour: int, name: str | None
    ) -> list[Event]:
        if name is not None:
            state.names[flavour] = name
        state.asks += 1
        self._constrain(state, seat, flavour, at_least=1)
        state.asked, state.flavour = target, flavour
        events = [
            Event(
                kind="ask",
                seat=seat,
                data={
                    "target": target,
                    "flavour": flavour,
                    "name": state.names[flavour] or "",
                    "named": name is not None,
                },
            )
        ]
        can_yes = state.hi[target][flavour] >= 1
        can_no = state.lo[target][flavour] == 0
        if can_yes and can_no:
            state.phase = "answer"
            return events
        return events + self._resolve(state, yes=can_yes, forced=True)

    def _answer(self, state: FingersState, word: str) -> list[Event]:
        assert state.asked is not None and state.flavour is not None
        return self._resolve(state, yes=word == "yes", forced=False)

    def _resolve(self, state: FingersState, *, yes: bool, forced: bool) -> list[Event]:
        asker, target, flavour = state.current, state.asked, state.flavour
        assert asker is not None and target is not None and flavour is not None
        name = state.names[flavour] or ""
        if not yes:
            self._constrain(state, target, flavour, at_most=0)
            nxt = (asker + 1) % state.n_players
            events = [
                Event(
                    kind="no",
                    seat=target,
                    data={"flavour": flavour, "name": name, "forced": forced, "next": nxt},
                )
            ]
            return events + self._start_ask(state, nxt)
        self._constrain(state, target, flavour, at_least=1)
        self._move(state, target, asker, flavour)
        events = [
            Event(
                kind="yes",
                seat=target,
                data={"flavour": flavour, "name": name, "forced": forced, "asker": asker},
            )
        ]
        k = state.config.per_flavour
        if state.lo[asker][flavour] == k:
            return events + self._declare(state, asker, flavour, forced=True)
        if state.hi[asker][flavour] == k:
            state.phase = "book"
            return events
        return events + self._start_ask(state, asker)

    def _book_choice(self, state: FingersState, word: str) -> list[Event]:
        asker, flavour = state.current, state.flavour
        assert asker is not None and flavour is not None
        if word == "book":
            return self._declare(state, asker, flavour, forced=False)
        self._constrain(state, asker, flavour, at_most=state.config.per_flavour - 1)
        events = [
            Event(
                kind="keep",
                seat=asker,
                data={"flavour": flavour, "name": state.names[flavour] or ""},
            )
        ]
        return events + self._start_ask(state, asker)

    def _declare(
        self, state: FingersState, seat: int, flavour: int, *, forced: bool
    ) -> list[Event]:
        k = state.config.per_flavour
        self._constrain(state, seat, flavour, at_least=k)
        state.lo[seat][flavour] = state.hi[seat][flavour] = 0
        state.counts[seat] -= k
        state.remaining[flavour] = 0
        state.books[seat].append(flavour)
        events = [
            Event(
                kind="book",
                seat=seat,
                data={
                    "flavour": flavour,
                    "name": state.names[flavour] or "",
                    "forced": forced,
                    "fingers": k,
                    "left": state.counts[seat],
                },
            )
        ]
        return events + self._start_ask(state, seat)

    def _start_ask(self, state: FingersState, seat: int) -> list[Event]:
        """``seat`` is to ask: it wins with an empty hand, or the game may end drawn."""
        state.current, state.phase, state.asked, state.flavour = seat, "ask", None, None
        if state.counts[seat] == 0:
            state.phase, state.winner = "over", seat
            return [Event(kind="win", seat=seat)]
        # why a draw: "asks" (MAX_ASKS asks made), "repeat" (a position came round again),
        # "stuck" (the asker has nobody to ask)
        reason = None
        key = position_key(state)
        if state.asks >= MAX_ASKS:
            reason = "asks"
        elif key in state.seen:
            reason = "repeat"
        elif not _can_ask(state, seat):
            reason = "stuck"
        if reason is not None:
            state.phase, state.draw = "over", True
            return [Event(kind="draw", data={"reason": reason, "asks": MAX_ASKS, "asker": seat})]
        state.seen.append(key)
        return []

    # State changes -------------------------------------------------------------------------

    @staticmethod
    def _constrain(
        state: FingersState,
        seat: int,
        flavour: int,
        *,
        at_least: int | None = None,
        at_most: int | None = None,
    ) -> None:
        """Add a constraint the caller has checked is consistent; tighten every bound."""
        bounds = restrict(
            Bounds(state.lo, state.hi),
            state.counts,
            state.remaining,
            (seat, flavour),
            at_least=at_least,
            at_most=at_most,
        )
        assert bounds is not None, "an inconsistent constraint slipped through"
        state.lo, state.hi = bounds.lo, bounds.hi

    @staticmethod
    def _move(state: FingersState, giver: int, taker: int, flavour: int) -> None:
        """One finger of ``flavour`` changes hands (every deal shifts the same way)."""
        for bound in (state.lo, state.hi):
            bound[giver][flavour] -= 1
            bound[taker][flavour] += 1
        state.counts[giver] -= 1
        state.counts[taker] += 1


def position_key(state: FingersState) -> str:
    """A short digest of the position at the start of an ask (bounds are canonical)."""
    data = [
        state.current,
        state.counts,
        state.remaining,
        state.lo,
        state.hi,
        [n is not None for n in state.names],
    ]
    return hashlib.sha1(json.dumps(data).encode()).hexdigest()[:16]


def _can_ask(state: FingersState, seat: int) -> bool:
    """Whether ``seat`` has some ask open (:func:`ask_actions` is not empty), without
    building an observation (this runs after every move the AI tries)."""
    if not any(q != seat and c > 0 for q, c in enumerate(state.counts)):
        return False
    hi = state.hi[seat]
    unnamed = next((f for f, n in enumerate(state.names) if n is None), None)
    if unnamed is not None and hi[unnamed] >= 1:
        return True
    return any(
        name is not None and state.remaining[f] > 0 and hi[f] >= 1
        for f, name in enumerate(state.names)
    )


def ask_actions(obs: FingersObservation) -> list[str]:
    """The asks open to the player to act: named flavours first, then ``new:<q>``."""
    seat = obs.current
    if obs.phase != "ask" or seat is None:
        return []
    targets = [q for q in range(obs.n_players) if q != seat and obs.counts[q] > 0]
    named = [
        f
        for f, name in enumerate(obs.names)
        if name is not None and obs.remaining[f] > 0 and obs.hi[seat][f] >= 1
    ]
    unnamed = next((f for f, n in enumerate(obs.names) if n is None), None)
    fresh = unnamed is not None and obs.hi[seat][unnamed] >= 1
    actions = [f"ask:{q}:{f}" for q in targets for f in named]
    if fresh:
        actions += [f"new:{q}" for q in targets]
    return actions
