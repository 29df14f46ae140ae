"""Quantum dice: six dice in two colours, push your luck to 10,000.

Rules: ``shared/seeds/001`` with ``shared/RULINGS.md``. The whole game is public, so every
seat observes the same thing; the observation still goes through :meth:`observe` so the core
and AI treat this game like every other.

Turn flow: a turn begins with six dice rolled automatically. The player then chooses which of
the rolled dice to keep (``t0`` … ``t5`` toggle a die in or out of the selection) and either
rolls the rest (``roll``) or banks (``bank``). One-step forms ``roll:013`` and ``bank:013``
keep exactly dice 0, 1 and 3 (indices into ``dice``); the AI uses those. A roll with no scoring
dice is a bust: the turn ends and the next player's six dice are rolled at once.

Hot dice: when the selection sets aside the last of the six dice and everything scores,
``roll`` throws six fresh dice and the turn total carries on. Banking needs a scoring
selection too, and a player not yet on the board may bank only a turn of ``entry`` points or
more. After someone banks ``target`` or more they are the contingent winner; everyone else has
exactly one last turn, and whoever banks strictly more takes the lead (the displaced leader has
no further turn). A Black hole (six 2s rolled at once, on the board) ends the turn and sets the
banked score to 1,000 (``min(score, 1000)``, so odd entry options never raise it). Scoring lives in :mod:`bot.engines.qdice.scoring`, the AI in
:mod:`bot.engines.qdice.ai`.
"""

from __future__ import annotations

import re
from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from bot.engines.base import Engine, Event, IllegalAction, InvalidAction, Outcome, Rng
from bot.engines.qdice.scoring import (
    BLACK_HOLE_SCORE,
    QUANTUM,
    best_split,
    has_score,
    is_black_hole,
    is_quantum,
    no_score_reasons,
)

Colour = Literal["A", "B"]


class Die(BaseModel):
    value: int = Field(ge=1, le=6)
    colour: Colour


class QDiceConfig(BaseModel):
    target: int = Field(default=10_000, ge=1_000, le=100_000)
    entry: int = Field(default=1_000, ge=0, le=5_000)  # points in one turn to get on the board


class QDiceObservation(BaseModel):
    seat: int | None  # who is looking (None: a spectator); everyone sees the same table
    n_players: int
    scores: list[int]  # banked score per seat
    on_board: list[bool]  # has banked a first turn of at least ``entry`` points
    current: int | None  # seat whose turn it is (None once the game is over)
    dice: list[Die]  # the dice of the latest roll that are still on the table
    kept: list[Die]  # dice set aside earlier this turn (since the last hot-dice re-roll)
    selected: list[int]  # indices into ``dice`` currently selected to keep
    selection_score: int | None  # score of the selection, None if it does not all score
    turn_total: int  # points banked-to-be from earlier keeps this turn
    rolled_six: bool  # the latest roll was of six dice (six-dice combinations count)
    final_round: bool  # someone reached the target: the last turns are being played
    contingent_winner: int | None
    finished_last_turn: list[bool]  # in the final round: seat has had its one last turn
    winner: int | None
    target: int
    entry: int


COLOURS: tuple[Colour, ...] = ("A", "A", "A", "B", "B", "B")
"""The six dice: three of colour A and three of colour B, in table order for a fresh roll."""

_ACTION = re.compile(r"^(?:t(?P<toggle>\d)|(?P<verb>roll|bank)(?::(?P<keep>\d*))?)$")


class QDiceState(BaseModel):
    """The whole table; public, and a plain pydantic model so it survives a JSON round trip."""

    config: QDiceConfig
    n_players: int
    rng: Rng
    scores: list[int]
    on_board: list[bool]
    current: int | None
    dice: list[Die] = Field(default_factory=list)  # the latest roll, all still on the table
    kept: list[Die] = Field(default_factory=list)  # set aside this turn since the last six
    selected: list[int] = Field(default_factory=list)
    turn_total: int = 0
    final_round: bool = False
    contingent_winner: int | None = None
    finished_last_turn: list[bool]
    winner: int | None = None
    turns: int = 0  # turns started so far (a cheap progress counter for tests and logs)


def _dice_data(dice: list[Die]) -> list[dict[str, object]]:
    return [{"value": d.value, "colour": d.colour} for d in dice]


class QDiceEngine(Engine[QDiceConfig, QDiceState, QDiceObservation]):
    """Quantum dice for 2 to 8 seats (any of them may be AI)."""

    name: ClassVar[str] = "qdice"
    title: ClassVar[str] = "Quantum dice"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    config_model: ClassVar[type[BaseModel]] = QDiceConfig
    state_model: ClassVar[type[BaseModel]] = QDiceState

    # Setup and queries ---------------------------------------------------------------------

    def new_game(self, config: QDiceConfig, n_players: int, seed: int) -> QDiceState:
        """Seat 0 starts; its six dice are already rolled (events of that roll are not kept)."""
        self.check_player_count(n_players)
        state = QDiceState(
            config=config,
            n_players=n_players,
            rng=Rng(seed=seed),
            scores=[0] * n_players,
            on_board=[False] * n_players,
            current=0,
            finished_last_turn=[False] * n_players,
        )
        self._start_turn(state, 0, [])
        return state

    def to_act(self, state: QDiceState) -> frozenset[int]:
        return frozenset() if state.current is None else frozenset({state.current})

    def is_over(self, state: QDiceState) -> bool:
        return state.winner is not None

    def legal_actions(self, state: QDiceState, seat: int) -> list[str]:
        """Toggles for every die on the table, then ``roll``/``bank`` when the selection allows."""
        if state.current is None or seat != state.current:
            return []
        actions = [f"t{i}" for i in range(len(state.dice))]
        points = self._selection_points(state, state.selected)
        if points is not None:
            actions.append("roll")
            if self._bank_problem(state, points) is None:
                actions.append("bank")
        return actions

    def observe(self, state: QDiceState, seat: int | None) -> QDiceObservation:
        """Everything is public: every seat (and a spectator) sees the same table."""
        return QDiceObservation(
            seat=seat,
            n_players=state.n_players,
            scores=list(state.scores),
            on_board=list(state.on_board),
            current=state.current,
            dice=[Die(value=d.value, colour=d.colour) for d in state.dice],
            kept=[Die(value=d.value, colour=d.colour) for d in state.kept],
            selected=list(state.selected),
            selection_score=self._selection_points(state, state.selected),
            turn_total=state.turn_total,
            rolled_six=len(state.dice) == 6,
            final_round=state.final_round,
            contingent_winner=state.contingent_winner,
            finished_last_turn=list(state.finished_last_turn),
            winner=state.winner,
            target=state.config.target,
            entry=state.config.entry,
        )

    def outcome(self, state: QDiceState) -> Outcome:
        """Final banked scores; the winner ranks alone in first place even on equal points."""
        if state.winner is None:
            raise IllegalAction("qdice-error-not-over")
        winner = state.winner
        others = sorted({s for i, s in enumerate(state.scores) if i != winner}, reverse=True)
        ranks = [0 if i == winner else 1 + others.index(s) for i, s in enumerate(state.scores)]
        return Outcome(
            scores=[float(s) for s in state.scores],
            ranks=ranks,
            winners=[winner],
        )

    # Moves ---------------------------------------------------------------------------------

    def apply(self, state: QDiceState, seat: int, action: str) -> list[Event]:
        """Check the move fully, then play it; a refused move leaves ``state`` untouched."""
        match = _ACTION.match(action.strip())
        if match is None:
            raise InvalidAction("qdice-error-unknown-move", move=action)
        if state.current is None:
            raise IllegalAction("qdice-error-game-over")
        if seat != state.current:
            raise IllegalAction("qdice-error-not-your-turn")
        if match["toggle"] is not None:
            return self._toggle(state, int(match["toggle"]))
        if match["keep"] is None:
            selection = sorted(state.selected)
        else:
            selection = [int(ch) for ch in match["keep"]]
            if len(set(selection)) != len(selection):
                raise InvalidAction("qdice-error-same-die-twice", move=action)
            selection.sort()
        points = self._check_keep(state, selection)
        if match["verb"] == "bank":
            problem = self._bank_problem(state, points)
            if problem is not None:
                raise problem
            return self._bank(state, selection, points)
        return self._roll_on(state, selection, points)

    def _toggle(self, state: QDiceState, index: int) -> list[Event]:
        if index >= len(state.dice):
            raise IllegalAction("qdice-error-no-die", die=index, last=len(state.dice) - 1)
        if index in state.selected:
            state.selected.remove(index)
        else:
            state.selected.append(index)
            state.selected.sort()
        return []

    def _selection_points(self, state: QDiceState, selection: list[int]) -> int | None:
        """Points of keeping ``selection`` from the table; None if empty or not all scoring."""
        if not selection or state.current is None:
            return None
        split = best_split([state.dice[i] for i in selection], len(state.dice))
        return None if split is None else split[0]

    def _check_keep(self, state: QDiceState, selection: list[int]) -> int:
        """The keep's points, or IllegalAction naming the stray dice and the rules they miss
        (``reasons``: :func:`~bot.engines.qdice.scoring.no_score_reasons`)."""
        if not selection:
            raise IllegalAction("qdice-error-select-first")
        missing = [i for i in selection if i >= len(state.dice)]
        if missing:
            raise IllegalAction("qdice-error-no-die", die=missing[0], last=len(state.dice) - 1)
        points = self._selection_points(state, selection)
        if points is None:
            reasons = no_score_reasons(state.dice, selection)
            raise IllegalAction("qdice-error-no-score", reasons=reasons)
        return points

    def _bank_problem(self, state: QDiceState, points: int) -> IllegalAction | None:
        """Why banking ``points`` more is not allowed now, or None."""
        seat = state.current
        assert seat is not None
        total = state.turn_total + points
        if not state.on_board[seat] and total < state.config.entry:
            return IllegalAction("qdice-error-entry", entry=state.config.entry, total=total)
        return None

    def _keep(self, state: QDiceState, selection: list[int], points: int) -> list[Event]:
        """Move the selection to ``kept`` and add its points (the caller rolls or banks)."""
        seat = state.current
        keep = [state.dice[i] for i in selection]
        split = best_split(keep, len(state.dice))
        assert split is not None
        state.kept.extend(keep)
        state.dice = [d for i, d in enumerate(state.dice) if i not in selection]
        state.selected = []
        state.turn_total += points
        return [
            Event(
                kind="keep",
                seat=seat,
                data={
                    "dice": _dice_data(keep),
                    "points": points,
                    "combinations": [list(c) for c in split[1]],
                    "turn_total": state.turn_total,
                },
            )
        ]

    def _roll_on(self, state: QDiceState, selection: list[int], points: int) -> list[Event]:
        seat = state.current
        assert seat is not None
        events = self._keep(state, selection, points)
        if len(state.kept) == 6:
            events.append(
                Event(
                    kind="hot_dice",
                    seat=seat,
                    data={"turn_total": state.turn_total},
                )
            )
            state.kept = []
            colours: list[Colour] = list(COLOURS)
        else:
            colours = [d.colour for d in state.dice]
        events.extend(self._throw(state, colours))
        return events

    def _throw(self, state: QDiceState, colours: list[Colour]) -> list[Event]:
        """Roll dice of the given colours for the current seat and settle bust/black hole."""
        seat = state.current
        assert seat is not None
        values = state.rng.dice(len(colours))
        state.dice = [Die(value=v, colour=c) for v, c in zip(values, colours, strict=True)]
        state.selected = []
        events = [
            Event(
                kind="roll",
                seat=seat,
                data={
                    "dice": _dice_data(state.dice),
                    "count": len(colours),
                    "turn_total": state.turn_total,
                },
            )
        ]
        if is_black_hole(state.dice, state.on_board[seat]):
            lost = state.turn_total
            state.scores[seat] = min(state.scores[seat], BLACK_HOLE_SCORE)
            events.append(
                Event(
                    kind="black_hole",
                    seat=seat,
                    data={"lost": lost, "score": state.scores[seat]},
                )
            )
            events.extend(self._end_turn(state))
        elif not has_score(state.dice):
            events.append(
                Event(
                    kind="bust",
                    seat=seat,
                    data={"lost": state.turn_total},
                )
            )
            events.extend(self._end_turn(state))
        elif is_quantum(state.dice):
            events.append(
                Event(
                    kind="quantum",
                    seat=seat,
                    data={"value": state.dice[0].value, "points": QUANTUM},
                )
            )
        return events

    def _bank(self, state: QDiceState, selection: list[int], points: int) -> list[Event]:
        seat = state.current
        assert seat is not None
        events = self._keep(state, selection, points)
        banked = state.turn_total
        first = not state.on_board[seat]
        state.scores[seat] += banked
        state.on_board[seat] = True
        events.append(
            Event(
                kind="bank",
                seat=seat,
                data={"points": banked, "score": state.scores[seat], "got_on_board": first},
            )
        )
        target = state.config.target
        if not state.final_round and state.scores[seat] >= target:
            state.final_round = True
            state.contingent_winner = seat
            state.finished_last_turn[seat] = True
            events.append(
                Event(
                    kind="contingent",
                    seat=seat,
                    data={"score": state.scores[seat], "displaced": None},
                )
            )
        elif state.final_round:
            events.extend(self._settle_last_turn(state, seat))
        events.extend(self._end_turn(state))
        return events

    def _settle_last_turn(self, state: QDiceState, seat: int) -> list[Event]:
        """After ``seat`` banked in the final round: take the lead only by strictly beating it."""
        leader = state.contingent_winner
        assert leader is not None
        if state.scores[seat] > state.scores[leader]:
            state.contingent_winner = seat
            return [
                Event(
                    kind="contingent",
                    seat=seat,
                    data={"score": state.scores[seat], "displaced": leader},
                )
            ]
        return []

    def _end_turn(self, state: QDiceState) -> list[Event]:
        """Close the current turn and start the next one (or end the game)."""
        seat = state.current
        assert seat is not None
        events: list[Event] = []
        state.turn_total = 0
        state.kept = []
        state.selected = []
        leader = state.contingent_winner
        if state.final_round:
            state.finished_last_turn[seat] = True
        if state.final_round and seat != leader:
            assert leader is not None
            events.append(
                Event(
                    kind="out",
                    seat=seat,
                    data={
                        "score": state.scores[seat],
                        "leader": leader,
                        "to_beat": state.scores[leader],
                    },
                )
            )
        nxt = self._next_seat(state, seat)
        if nxt is None:
            winner = state.contingent_winner
            assert winner is not None
            state.winner = winner
            state.current = None
            events.append(
                Event(
                    kind="game_over",
                    seat=winner,
                    data={"winner": winner, "scores": list(state.scores)},
                )
            )
            return events
        return events + self._start_turn(state, nxt, [])

    def _next_seat(self, state: QDiceState, seat: int) -> int | None:
        """The next seat in order; in the final round, skip anyone who had their last turn."""
        for step in range(1, state.n_players + 1):
            candidate = (seat + step) % state.n_players
            if not state.final_round or not state.finished_last_turn[candidate]:
                return candidate
        return None

    def _start_turn(self, state: QDiceState, seat: int, events: list[Event]) -> list[Event]:
        state.current = seat
        state.turns += 1
        state.turn_total = 0
        state.kept = []
        return events + self._throw(state, list(COLOURS))
