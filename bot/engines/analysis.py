"""What an AI found when it chose a move, as data: the move, and the moves it weighed with
their values.

Every game's AI module has ``analyse(observation, rng, deadline, also=())``: the hard level's
own decision with what it computed on the way. The hard level's move *is* ``analysis.move``
(its ``decide`` returns exactly that), so a hint built from an analysis names the move the
hard AI plays from the same observation and seed. Nothing here is worded for people: the
sentences are the game's presentation's (``bot/games``).

``also`` asks for the value of moves the search would not otherwise weigh (a review of a
finished game: the move actually made, next to the best). They are valued on the same
samples as the others and never chosen; under a deadline they share its time.

What a value means is said by :attr:`Analysis.kind`:

* ``"win"``: a chance (0 to 1) to win what :attr:`Analysis.scope` names;
* ``"points"``: points over the others (over the other side, in team games) by the end of
  the hand, on average over the sampled deals;
* ``"chips"``: chips won (negative: lost) when the round is measured, on average;
* ``"turn"``: points this turn will bring, on average (banking now: the points banked);
* ``"outcome"``: how the game ends if everyone plays on as a careful player does (the hard
  AI's model of the others): 1 a win, 0 a loss, :data:`UNDECIDED` no end in sight;
* ``"forced"``: a forced win: the move starts a sequence that wins whatever anyone does;
* ``"rule"``: nothing was searched; the move follows a fixed rule (:attr:`Analysis.reason`).

Besides its value a move may carry :attr:`MoveValue.win`, the chance to win
:attr:`Analysis.scope` measured on the same samples (a search for points counts how often
the move also came out on top).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, Field

ValueKind = Literal["win", "points", "chips", "turn", "outcome", "forced", "rule"]
Scope = Literal["game", "hand", "round", "turn", "beat"]
"""What :attr:`MoveValue.win` is the chance of: winning the game; coming out on top in this
hand or round (ties shared); banking this turn (Quantum dice); beating the leader's score in a
last turn (Quantum dice)."""
Detail = dict[str, float | int | bool | str]

UNDECIDED = 0.25
"""The ``"outcome"`` value of a line with no end in sight (as the Quantum Fingers search)."""


class MoveValue(BaseModel):
    """One move as the AI valued it."""

    move: str
    """In the engine's one-step form (``roll:013``, ``play:TH``, ``X:2``...)."""
    value: float | None = None
    """In the unit :attr:`Analysis.kind` names; None: not valued."""
    win: float | None = None
    """The chance to win :attr:`Analysis.scope` with this move, where it was measured."""
    samples: int = 0
    """Sampled deals (worlds) behind the figures; 0: worked out exactly."""
    detail: Detail = Field(default_factory=dict)
    """Game-specific facts about the move, for the wording (documented by each game's AI)."""


class Analysis(BaseModel):
    """The move an AI chose and the moves it weighed (see the module notes)."""

    move: str
    kind: ValueKind
    scope: Scope = "game"
    options: list[MoveValue] = Field(default_factory=list)
    """The chosen move first, then the others by value, best first."""
    samples: int = 0
    """Sampled deals (worlds) the search went through; 0: exact, or nothing sampled."""
    reason: str = ""
    """A short code for why this move (documented by each game's AI): how the game's
    presentation explains it, chiefly when nothing was searched."""
    detail: Detail = Field(default_factory=dict)

    @classmethod
    def of(
        cls,
        move: str,
        kind: ValueKind,
        values: Iterable[MoveValue],
        *,
        scope: Scope = "game",
        samples: int = 0,
        reason: str = "",
        detail: Detail | None = None,
    ) -> Analysis:
        """An analysis whose options are ``values`` ordered: ``move`` first, then by value
        (best first; unvalued last; equal values keep their order). A move listed twice keeps
        its first entry; ``move`` is added unvalued if missing."""
        seen: dict[str, MoveValue] = {}
        for value in values:
            seen.setdefault(value.move, value)
        chosen = seen.pop(move, MoveValue(move=move))
        rest = sorted(
            seen.values(), key=lambda v: (v.value is None, -(v.value if v.value is not None else 0))
        )
        return cls(
            move=move,
            kind=kind,
            scope=scope,
            options=[chosen, *rest],
            samples=samples,
            reason=reason,
            detail=detail or {},
        )

    @classmethod
    def rule(cls, move: str, reason: str, **detail: float | int | bool | str) -> Analysis:
        """A move made by a fixed rule, nothing searched (``reason`` says which rule)."""
        return cls(move=move, kind="rule", options=[MoveValue(move=move)], reason=reason,
                   detail=dict(detail))  # fmt: skip

    @property
    def best(self) -> MoveValue:
        """The chosen move with its figures."""
        return self.options[0]

    def value_of(self, move: str) -> MoveValue | None:
        """The figures of ``move``, if it was weighed (or asked for with ``also``)."""
        return next((v for v in self.options if v.move == move), None)

    def top(self, count: int = 3) -> list[MoveValue]:
        """The chosen move and the next best valued ones, ``count`` in all at most."""
        return [self.options[0], *(v for v in self.options[1:] if v.value is not None)][:count]


def share_of_top(mine: float, others: Iterable[float]) -> float:
    """1 if ``mine`` is above every one of ``others``, 1/k when it ties k-1 of them at the
    top, 0 below: a seat's share of coming out on top."""
    tied = 1
    for other in others:
        if other > mine:
            return 0.0
        if other == mine:
            tied += 1
    return 1.0 / tied
