"""Review after the game: for each person who played, the moves where the hard AI, given
that person's observation at the time, would have chosen differently, ranked by how much the
chance to win dropped.

When a game with people in it ends, its review is worked out in the background: the game is
rebuilt from its seed and action log (:class:`~bot.tables.replay.GameReplay`, in a thread),
and at each public move a person made the game's hard AI analyses *that seat's observation*
just before it (:meth:`~bot.tables.thinking.Thinker.analyse`, in the AI workers, never on the
event loop), valuing the move made beside its own. Nothing another seat held hidden reaches
the AI: a review is a function of the seat's observations alone. The result is kept in
storage (:class:`~bot.storage.reviews.ReviewStore`) and shown only to the person whose review
it is, each entry with its replay step (``qr:`` buttons open the replay there).

A person's selections before a move (dice or cards picked one by one) are folded into the
move as its one-step form (``roll:013``, ``discard:AS,TH``), as the AI writes moves.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field

from bot.engines.analysis import UNDECIDED, Analysis, MoveValue
from bot.engines.base import GameError
from bot.games.coach import percent, signed
from bot.storage.db import Database
from bot.storage.models import ActionRecord, GameRecord
from bot.storage.reviews import ReviewStore
from bot.tables.protocols import GameSpec
from bot.tables.replay import GameReplay, ReplayUnavailable, step_id
from bot.tables.thinking import Thinker
from bot.tables.views import Control, Panel
from bot.tables.views import Field as PanelField

log = logging.getLogger(__name__)

REVIEW_ID = re.compile(r"qv:(?P<game>[0-9]+)")
"""The custom id of a finished table's Review button (``qv:<game>``)."""
SHOWN = 5
"""Entries a review shows (the biggest drops); the rest are counted."""
UNITS = {"points": "points", "chips": "chips", "turn": "points"}
CHANCE = {
    "game": "Chance to win the game",
    "hand": "Chance to come out on top in this hand",
    "round": "Chance to win this round",
    "turn": "Chance to bank this turn",
    "beat": "Chance to beat the leader",
}
"""What :attr:`MoveValue.win` is the chance of, by :attr:`Analysis.scope`."""


def review_id(game_id: int) -> str:
    return f"qv:{game_id}"


def review_control(game_id: int) -> Control:
    """The finished table's Review button."""
    return Control("!review", "Review", emoji="🧭", custom_id=review_id(game_id))


def reviewed(spec: GameSpec, seats: Sequence[Any]) -> bool:
    """Whether a finished game of ``spec`` with ``seats`` has reviews: a person played and
    the game's AI analyses."""
    return (
        spec.ai is not None
        and spec.ai.analyse is not None
        and any(not seat.is_ai for seat in seats)
    )


def offered_for(table: Any) -> bool:
    """Whether a finished table offers Review."""
    return reviewed(table.spec, table.seats)


class ReviewUnavailable(GameError):
    """No review to show (say why)."""


class Entry(BaseModel):
    """One move where the hard AI would have played otherwise."""

    step: int
    """The replay step of the move (the position is the step before)."""
    done: str
    """The move made, in one-step form."""
    done_text: str
    """What the move did, as the table said it."""
    suggested: str
    suggestion: str
    """The hard AI's move and why, in the game's words (as a hint)."""
    drop: float | None = None
    """How much the chance to win dropped (0 to 1), where both moves' chances were measured."""
    value_drop: float | None = None
    """How much less the move made was worth, in :attr:`unit`."""
    unit: str = ""
    words: str = ""


class Review(BaseModel):
    game_id: int
    seat: int
    user_id: int
    positions: int = 0
    """The person's moves looked at."""
    entries: list[Entry] = Field(default_factory=list)
    """Biggest drop first."""
    seconds: float = 0.0


@dataclass(frozen=True)
class Position:
    """One move a person made, and what they knew just before it."""

    step: int
    seat: int
    user_id: int
    observation: Any
    done: str
    lines: tuple[str, ...]


def _sorted_list(rest: str) -> str:
    if "," in rest:
        return ",".join(sorted(x for x in rest.split(",") if x))
    if rest.isdigit():
        return "".join(sorted(rest))
    return rest


def normal_form(move: str) -> str:
    """``move`` with its list of dice or cards in order, so two spellings compare equal."""
    verb, colon, rest = move.partition(":")
    return f"{verb}{colon}{_sorted_list(rest)}" if colon else move


def one_step(state: Any, seat: int, action: str) -> str:
    """The one-step form of ``action`` confirming ``seat``'s selection in ``state`` (the move
    as the AI would write it); other actions as they are."""
    selected = getattr(state, "selected", None)
    if selected is None or ":" in action:
        return action
    if action in ("roll", "bank") and selected and isinstance(selected[0], int):
        return f"{action}:{''.join(str(i) for i in sorted(selected))}"  # Quantum dice
    if action in ("roll", "bank"):
        return f"{action}:"
    if action in ("discard", "show") and isinstance(selected, list) and seat < len(selected):
        mine = selected[seat]
        hand = getattr(state, "hands", [[]])[seat]
        cards = [hand[i] if isinstance(i, int) else i for i in mine]
        return f"{action}:{','.join(cards)}"
    return action


def positions(replay: GameReplay, seat: int) -> list[Position]:
    """Every public move ``seat``'s person made themselves, with their observation just
    before it (synchronous: run it in a thread)."""
    engine = replay.spec.engine
    found: list[Position] = []
    state = None
    for index, step in enumerate(replay.steps):
        if index == 0 or step.seat != seat or step.user_id is None:
            continue
        state = replay.state_at(index - 1)
        if seat not in engine.to_act(state):
            continue
        observation = engine.observe(state, seat).model_copy(deep=True)
        moves = replay.actions[replay.steps[index - 1].end : step.end]
        for action in moves[:-1]:
            engine.apply(state, action.seat, action.action)
        done = one_step(state, seat, moves[-1].action)
        found.append(Position(index, seat, step.user_id, observation, done, step.lines))
    return found


def _outcome(value: float) -> str:
    """An ``"outcome"`` value in words (see :mod:`bot.engines.analysis`)."""
    if value > 0.5:
        return "a win"
    if value < UNDECIDED / 2:
        return "a loss"
    return "no result in sight"


def _chances(mine: float, theirs: float) -> str:
    """Two chances as people say them, with a decimal where whole percents look alike."""
    digits = 0
    while digits < 2 and percent(mine, digits) == percent(theirs, digits):
        digits += 1
    if percent(mine, digits) == percent(theirs, digits):
        return f"{percent(mine)} either way"
    return f"{percent(mine, digits)} with your move, {percent(theirs, digits)} with the hard AI's"


def _words(
    done: MoveValue, best: MoveValue, analysis: Analysis
) -> tuple[float | None, float | None, str, str]:
    """(drop in the chance to win, drop in value, unit, the difference in words)."""
    drop = value_drop = None
    unit = UNITS.get(analysis.kind, "")
    parts: list[str] = []
    if analysis.kind == "outcome" and done.value is not None and best.value is not None:
        drop = best.value - done.value
        mine, theirs = _outcome(done.value), _outcome(best.value)
        if mine == theirs == "a loss":
            parts.append(
                "With everyone playing carefully both moves lose in the end, but the hard "
                "AI's holds out longer."
            )
        elif mine == theirs:
            parts.append(f"With everyone playing carefully both moves come to {mine}.")
        else:
            parts.append(
                f"With everyone playing carefully your move comes to {mine}, the hard AI's "
                f"to {theirs}."
            )
    elif done.win is not None and best.win is not None:
        drop = best.win - done.win
        parts.append(f"{CHANCE[analysis.scope]}: {_chances(done.win, best.win)}.")
    elif analysis.kind == "win" and done.value is not None and best.value is not None:
        drop = best.value - done.value
        parts.append(f"{CHANCE[analysis.scope]}: {_chances(done.value, best.value)}.")
    if drop is not None and drop >= 0.005 and analysis.kind != "outcome":
        parts[-1] = parts[-1][:-1] + f": {drop * 100:.0f} percentage points lost."
    if unit and done.value is not None and best.value is not None:
        value_drop = best.value - done.value
        parts.append(
            f"On average your move brought {signed(-value_drop, unit)} against the hard AI's."
        )
    if analysis.kind == "forced":
        parts.append("The hard AI's move forces a win; yours did not.")
    if not parts:
        parts.append("The hard AI would have played differently here.")
    return drop, value_drop, unit, " ".join(parts)


def _own_lines(lines: tuple[str, ...], name: str) -> str:
    """What the mover did: the step's lines up to the first about someone else (a roll or
    a trick's end that followed)."""
    own = [lines[0]] if lines else []
    for line in lines[1:]:
        if not line.startswith(name):
            break
        own.append(line)
    return " ".join(own)


def entry(spec: GameSpec, position: Position, analysis: Analysis, names: list[str]) -> Entry | None:
    """The review's entry for ``position``, or None where the hard AI agrees with the move."""
    done = normal_form(position.done)
    if normal_form(analysis.move) == done:
        return None
    made = next((v for v in analysis.options if normal_form(v.move) == done), None)
    made = made or MoveValue(move=position.done)
    drop, value_drop, unit, words = _words(made, analysis.best, analysis)
    secret = getattr(spec.ui, "secret_move_text", None)
    hidden = secret(position.observation, position.done, names) if secret is not None else None
    coach = getattr(spec.ui, "hint_text", None)
    suggestion = (
        coach(position.observation, analysis, names) if coach is not None else analysis.move
    )
    return Entry(
        step=position.step,
        done=position.done,
        done_text=hidden or _own_lines(position.lines, names[position.seat]) or position.done,
        suggested=analysis.move,
        suggestion=suggestion,
        drop=drop,
        value_drop=value_drop,
        unit=unit,
        words=words,
    )


def rank(entries: list[Entry]) -> list[Entry]:
    """Biggest drop in the chance to win first, then biggest loss in value, then by step."""
    return sorted(entries, key=lambda e: (-(e.drop or 0.0), -(e.value_drop or 0.0), e.step))


def review_seed(record: GameRecord, step: int, seat: int) -> str:
    return f"{record.seed}:review:{step}:{seat}"


class Reviews:
    """Works out, keeps and shows reviews of finished games."""

    def __init__(
        self,
        db: Database,
        games: Mapping[str, GameSpec],
        thinker: Thinker,
        *,
        budget: float | None = None,
    ) -> None:
        self.db = db
        self.store = ReviewStore(db)
        self.games = games
        self.thinker = thinker
        self.budget = budget
        """Seconds the hard AI takes over each position (None: the AI budget)."""
        self._working: dict[int, asyncio.Task[None]] = {}
        self._slot = asyncio.Semaphore(1)
        """One review position at a time in the workers, however many games end together:
        live tables' AI decisions share the pool and must not queue behind reviews."""

    def offered(self, spec: GameSpec) -> bool:
        return spec.ai is not None and spec.ai.analyse is not None

    def start(self, game_id: int) -> asyncio.Task[None]:
        """Work out the reviews of a finished game in the background (once at a time)."""
        task = self._working.get(game_id)
        if task is None or task.done():
            task = asyncio.ensure_future(self._work(game_id))
            self._working[game_id] = task
            task.add_done_callback(lambda _: self._working.pop(game_id, None))
        return task

    def close(self) -> None:
        """Stop the reviews being worked out (the bot is closing; a later click restarts
        one)."""
        for task in list(self._working.values()):
            task.cancel()

    async def wait(self, game_id: int) -> None:
        """Until the game's reviews being worked out are kept (for tests and tools)."""
        task = self._working.get(game_id)
        if task is not None:
            await asyncio.shield(task)

    async def _work(self, game_id: int) -> None:
        try:
            record = await self.db.load_game(game_id)
            if record is None or record.status != "finished":
                return
            spec = self.games.get(record.game)
            if spec is None or not self.offered(spec):
                return
            actions = await self.db.actions(game_id)
            if not actions or record.state_json is None:
                return
            for seat in record.seats:
                if seat.is_ai or seat.user_id is None:
                    continue
                review = await self.compute(record, spec, actions, seat.seat, seat.user_id)
                await self.store.save(game_id, seat.seat, seat.user_id, review.model_dump_json())
        except ReplayUnavailable:
            log.info("Game %s can't be rebuilt, so it has no review", game_id)
        except Exception:
            log.exception("Working out the review of game %s failed", game_id)

    async def compute(
        self,
        record: GameRecord,
        spec: GameSpec,
        actions: Sequence[ActionRecord],
        seat: int,
        user_id: int,
    ) -> Review:
        """``seat``'s review (the game rebuilt in a thread, each position analysed in the AI
        workers)."""
        started = time.perf_counter()
        replay = await asyncio.to_thread(GameReplay.build, record, spec, actions)
        found = await asyncio.to_thread(positions, replay, seat)
        names = replay.names
        entries: list[Entry] = []
        for position in found:
            async with self._slot:
                analysis = await self.thinker.analyse(
                    spec,
                    position.observation,
                    review_seed(record, position.step, seat),
                    also=(position.done,),
                    budget=self.budget,
                    label="review",
                )
            if analysis is None:
                continue
            made = await asyncio.to_thread(entry, spec, position, analysis, names)
            if made is not None:
                entries.append(made)
        return Review(
            game_id=record.id,
            seat=seat,
            user_id=user_id,
            positions=len(found),
            entries=rank(entries),
            seconds=time.perf_counter() - started,
        )

    async def show(self, game_id: int, user_id: int, guild_id: int | None) -> Panel:
        """``user_id``'s review of ``game_id``, for them alone; refused if they did not play,
        the game's moves are gone, or it is not worked out yet (then it is started)."""
        record = await self.db.load_game(game_id)
        if record is None or record.guild_id != guild_id:
            raise ReviewUnavailable(f"There is no finished game #{game_id} on this server.")
        if record.status != "finished":
            raise ReviewUnavailable(f"Game #{game_id} has no review: it did not finish.")
        seat = next((s.seat for s in record.seats if not s.is_ai and s.user_id == user_id), None)
        if seat is None:
            raise ReviewUnavailable(
                f"You didn't play in game #{game_id}, so there is no review for you: a review "
                "is only for the people who played."
            )
        spec = self.games.get(record.game)
        if spec is None or not self.offered(spec):
            raise ReviewUnavailable(f"Game #{game_id} is of a kind the AI can't review.")
        if not await self.db.actions(game_id) or record.state_json is None:
            raise ReviewUnavailable(
                f"Game #{game_id} was played too long ago: its moves are no longer kept (old "
                "games keep only their results), so it can't be reviewed."
            )
        stored = await self.store.get(game_id, seat)
        if stored is None:
            self.start(game_id)
            raise ReviewUnavailable(
                f"Your review of game #{game_id} is still being worked out: the hard AI goes "
                "over each of your moves. Press **Review** again in a little while."
            )
        review = Review.model_validate(json.loads(stored.body_json))
        return panel(spec, record, review)


def panel(spec: GameSpec, record: GameRecord, review: Review) -> Panel:
    """A review as a private message: the biggest drops, each with the move made, the hard
    AI's and the difference, and a button to the position in the replay."""
    name = record.seats[review.seat].name if review.seat < len(record.seats) else "you"
    if not review.positions:
        description = (
            "You made no moves of your own in this game (an AI played your seat), so there "
            "is nothing to review."
        )
    elif not review.entries:
        description = (
            f"The hard AI went over your {review.positions} moves and would have made the "
            "same choice every time. Well played!"
        )
    else:
        description = (
            f"The hard AI went over your {review.positions} moves, seeing only what you saw "
            f"at the time, and would have chosen differently {len(review.entries)} times. "
            "The moves that cost the most come first; **Step** buttons open the replay just "
            "before each one."
        )
    fields = []
    controls = []
    for number, item in enumerate(review.entries[:SHOWN], start=1):
        value = f"**You:** {item.done_text}\n**Hard AI:** {item.suggestion}\n{item.words}"
        fields.append(PanelField(f"{number}. Step {item.step:,}", value[:1024], inline=False))
        controls.append(
            Control(
                f"!review-step:{number}",
                f"Step {item.step:,}",
                row=0,
                custom_id=step_id(record.id, max(0, item.step - 1), f"rv{number}"),
            )
        )
    more = len(review.entries) - SHOWN
    return Panel(
        title=f"{spec.emoji} {spec.title} · game #{record.id} · review for {name}",
        description=description,
        fields=fields,
        colour=0x1ABC9C,
        footer=(f"{more} smaller ones not shown. " if more > 0 else "") + "Only you can see this.",
        controls=controls,
    )
