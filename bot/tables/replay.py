"""Finished games looked back on: every hand shown, and a replay one move at a time.

A finished game is rebuilt from what storage keeps of it: the seed and options in its record,
and its action log. Engines are deterministic from a seed, so applying the logged moves again
passes through every state the table went through; the last one must be the stored final
state, or the game is not offered (its rules changed since it was played).

Moves that only change a private selection (a card toggled before a discard, a die picked
before a roll) say nothing in public. They are folded into the move that follows, so each step
of a replay is one public move, captioned with what it did.

Only finished games are rebuilt. A game in play is refused, so this view of a table with every
secret face up (``Engine.revealed``) never exists while anything is at stake.

Rebuilding runs in a worker thread (even a long Flux game takes a fraction of a second; see
``bench/bench_replay.py``). A rebuilt game keeps a copy of its state every
:data:`SAVE_EVERY` steps, so any step is at most that many moves from a copy, and the last
:data:`KEEP` games opened stay in memory, so stepping through one redraws only its picture.
Nothing about a replay lives anywhere but in its buttons' custom_ids (game id and step), so
they keep working after a restart.
"""

from __future__ import annotations

import asyncio
import bisect
import dataclasses
import json
import logging
import re
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from bot.engines.base import GameError
from bot.render.common import to_png
from bot.storage.db import Database
from bot.storage.models import ActionRecord, GameRecord
from bot.tables.protocols import GameSpec
from bot.tables.views import Control, Panel

log = logging.getLogger(__name__)

SAVE_EVERY = 32
"""Steps between the saved copies of a rebuilt game's state."""
KEEP = 8
"""Rebuilt games kept in memory."""
LOG_LINES = 6
"""Recent lines handed to the picture, as on the live table."""

REPLAY_ID = re.compile(r"qr:(?P<game>[0-9]+):(?P<target>[0-9]+|hands)(?::(?P<tag>[a-z0-9]+))?")
"""Custom ids of Show hands (``qr:<game>:hands``) and of replay steps
(``qr:<game>:<step>:<tag>``; the tag keeps a message's buttons apart)."""


def hands_id(game_id: int) -> str:
    return f"qr:{game_id}:hands"


def step_id(game_id: int, step: int, tag: str) -> str:
    return f"qr:{game_id}:{step}:{tag}"


def finished_controls(game_id: int) -> list[Control]:
    """The buttons a finished table's message gets."""
    return [
        Control("!hands", "Show hands", "primary", emoji="🂠", custom_id=hands_id(game_id)),
        Control("!replay", "Replay", emoji="⏮", custom_id=step_id(game_id, 0, "open")),
    ]


class ReplayUnavailable(GameError):
    """The game can't be looked back on (say why)."""


@dataclass(frozen=True)
class Step:
    """One public move of a replay (step 0: the game as it began)."""

    seat: int | None
    user_id: int | None
    """The person who chose the move; None when an AI did."""
    lines: tuple[str, ...]
    """What the move did, as the table said it."""
    deal: int | None
    """The engine's deal count after the move (see ``Engine.deal_of``)."""
    end: int
    """How many logged actions lead to this step."""


class GameReplay:
    """One finished game rebuilt from its seed and action log."""

    def __init__(
        self,
        record: GameRecord,
        spec: GameSpec,
        actions: Sequence[ActionRecord],
        steps: list[Step],
        saved: dict[int, BaseModel],
    ) -> None:
        self.record = record
        self.spec = spec
        self.actions = list(actions)
        self.steps = steps
        self._saved = saved
        self._saved_at = sorted(saved)

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.record.seats]

    @property
    def last(self) -> int:
        """The number of the last step (the end of the game)."""
        return len(self.steps) - 1

    @classmethod
    def build(
        cls, record: GameRecord, spec: GameSpec, actions: Sequence[ActionRecord]
    ) -> GameReplay:
        """Apply the whole log once (synchronous: run it in a worker thread)."""
        engine = spec.engine
        names = [seat.name for seat in record.seats]
        try:
            config = engine.parse_config(record.config.get("options"))
            state = engine.new_game(config, len(record.seats), record.seed)
        except Exception as error:
            raise _no_longer(record.id) from error
        opening = f"The game begins with {len(record.seats)} players."
        steps = [Step(None, None, (opening,), engine.deal_of(state), 0)]
        saved: dict[int, BaseModel] = {0: state.model_copy(deep=True)}
        for done, action in enumerate(actions, start=1):
            try:
                events = engine.apply(state, action.seat, action.action)
            except GameError as error:
                log.warning("Game %s does not replay: move %s refused (%s)", record.id, done, error)
                raise _no_longer(record.id) from None
            if not events and done < len(actions):
                continue  # a private selection: shown with the move it leads to
            lines = tuple(spec.ui.event_line(event, names) for event in events)
            steps.append(Step(action.seat, action.user_id, lines, engine.deal_of(state), done))
            if (len(steps) - 1) % SAVE_EVERY == 0:
                saved[len(steps) - 1] = state.model_copy(deep=True)
        stored = json.loads(record.state_json or "{}").get("state")
        if not _same_end(stored, json.loads(engine.dump_state(state))):
            log.warning("Game %s does not replay to its stored end", record.id)
            raise _no_longer(record.id)
        saved[len(steps) - 1] = state
        return cls(record, spec, actions, steps, saved)

    def state_at(self, index: int) -> BaseModel:
        """The state after step ``index`` (a fresh copy; synchronous, at most
        :data:`SAVE_EVERY` moves from a saved copy)."""
        index = self.clamp(index)
        base = self._saved_at[bisect.bisect_right(self._saved_at, index) - 1]
        state = self._saved[base].model_copy(deep=True)
        for action in self.actions[self.steps[base].end : self.steps[index].end]:
            self.spec.engine.apply(state, action.seat, action.action)
        return state

    def clamp(self, index: int) -> int:
        return max(0, min(index, self.last))

    def hands_step(self) -> int:
        """Where Show hands opens: the start of the last deal, or the end for games where
        nothing is ever dealt face down."""
        final = self.steps[-1].deal
        if final is None:
            return self.last
        return next(i for i, step in enumerate(self.steps) if step.deal == final)

    def lines_to(self, index: int) -> list[str]:
        """The table's recent lines as they stood at step ``index``."""
        lines: list[str] = []
        for step in self.steps[max(0, index - LOG_LINES) : index + 1]:
            lines.extend(step.lines)
        return lines[-LOG_LINES:]

    # --- what a step shows ---------------------------------------------------------------

    def panel(self, index: int, *, hands: bool = False) -> Panel:
        """Step ``index`` as a message: the table with every secret face up, what the move
        did and who made it, and the buttons to move on (synchronous: it draws)."""
        index = self.clamp(index)
        spec, engine = self.spec, self.spec.engine
        state = self.state_at(index)
        observation = engine.revealed(state)
        names = self.names
        lines = self.lines_to(index)
        parts = []
        if hands:
            parts.append(self._hands_intro())
        if hands and self.steps[-1].deal is not None:
            # Open on the deal itself: not on the move that led to it (the end of the hand
            # before), whose lines would sit above the new deal's cards.
            deal = engine.deal_name(state)
            heading = f"{deal[:1].upper()}{deal[1:]}, as it was dealt"
            parts.append(f"**{heading}** (the last of the game) · Step {index:,} of {self.last:,}")
            lines = [f"{heading}: every card face up."]
        else:
            parts.append(self._caption(index))
        image = to_png(spec.ui.table_image(observation, names, lines))
        revealed_fields = getattr(spec.ui, "revealed_fields", None)
        fields = revealed_fields(observation, names) if revealed_fields is not None else []
        return Panel(
            title=f"{spec.emoji} {spec.title} · game #{self.id} · replay",
            description="\n\n".join(parts),
            fields=fields,
            colour=0x9B59B6,
            image_png=image,
            footer="The game is over, so nothing is hidden. Only you can see this.",
            controls=self._controls(index),
        )

    def _hands_intro(self) -> str:
        if self.steps[-1].deal is None:
            return (
                f"Nothing in {self.spec.title} is ever hidden: every move was on the table. "
                "This is how the game ended; **Previous** steps back through it."
            )
        return (
            "Nothing is secret any more: every card of the last deal, face up. **Next** "
            "steps through it, **First** goes back to the start of the game."
        )

    def _caption(self, index: int) -> str:
        step = self.steps[index]
        head = f"**Step {index:,} of {self.last:,}**"
        if step.seat is None:
            return f"{head} · the start of the game\n• " + "\n• ".join(step.lines)
        names, seats = self.names, self.record.seats
        who = names[step.seat] if step.seat < len(names) else f"Seat {step.seat + 1}"
        covered = step.user_id is None and step.seat < len(seats) and not seats[step.seat].is_ai
        mover = f"**{who}**'s move" + (" (an AI played it for them)" if covered else "")
        lines = "\n".join(f"• {line}" for line in step.lines) or "• (a choice only they saw)"
        return f"{head} · {mover}\n{lines}"

    def _controls(self, index: int) -> list[Control]:
        def go(label: str, target: int, tag: str, row: int, style: Any = "secondary") -> Control:
            target = self.clamp(target)
            return Control(
                f"!step:{tag}",
                label,
                style,
                row=row,
                disabled=target == index,
                custom_id=step_id(self.id, target, tag),
            )

        from bot.tables.review import review_control, reviewed  # review builds on replays

        controls = [
            go("⏮ First", 0, "first", 0),
            go("◀ Previous", index - 1, "prev", 0, "primary"),
            go("Next ▶", index + 1, "next", 0, "primary"),
            go("Last ⏭", self.last, "last", 0),
            go("« 10 back", index - 10, "back", 1),
            go("10 on »", index + 10, "on", 1),
        ]
        if reviewed(self.spec, self.record.seats):
            controls.append(dataclasses.replace(review_control(self.id), row=1))
        return controls


def _same_end(stored: Any, rebuilt: Any) -> bool:
    """Whether a rebuilt state is the stored one. Fields a game's state gained after the
    game was saved (absent from the stored copy) are not compared: a game stays replayable
    when its state only learned to keep something more."""
    if isinstance(stored, dict) and isinstance(rebuilt, dict):
        return all(key in rebuilt and _same_end(v, rebuilt[key]) for key, v in stored.items())
    if isinstance(stored, list) and isinstance(rebuilt, list):
        return len(stored) == len(rebuilt) and all(map(_same_end, stored, rebuilt))
    return bool(stored == rebuilt)


def _no_longer(game_id: int) -> ReplayUnavailable:
    return ReplayUnavailable("error-replay-changed", id=str(game_id))


class Replays:
    """Finished games people look back on: rebuilt on demand, the last few kept."""

    def __init__(self, db: Database, games: Mapping[str, GameSpec], *, keep: int = KEEP) -> None:
        self.db = db
        self.games = games
        self.keep = keep
        self._kept: OrderedDict[int, GameReplay] = OrderedDict()
        self._building: dict[int, asyncio.Future[GameReplay]] = {}

    async def open(self, game_id: int, guild_id: int | None) -> GameReplay:
        """The rebuilt game, if it finished on this server and its moves are still kept."""
        replay = self._kept.get(game_id)
        if replay is None:
            building = self._building.get(game_id)
            if building is None:
                building = asyncio.ensure_future(self._build(game_id))
                self._building[game_id] = building
                building.add_done_callback(lambda _: self._building.pop(game_id, None))
            replay = await asyncio.shield(building)
        if replay.record.guild_id != guild_id:
            raise ReplayUnavailable("error-replay-not-here", id=str(game_id))
        self._kept.move_to_end(game_id)
        return replay

    async def _build(self, game_id: int) -> GameReplay:
        record = await self.db.load_game(game_id)
        if record is None:
            raise ReplayUnavailable("error-replay-not-here", id=str(game_id))
        spec = self.games.get(record.game)
        if spec is None:
            raise ReplayUnavailable("error-replay-unknown-game", id=str(game_id))
        if record.status in ("lobby", "active"):
            raise ReplayUnavailable("error-replay-in-play", id=str(game_id))
        if record.status == "cancelled":
            raise ReplayUnavailable("error-replay-cancelled", id=str(game_id))
        actions = await self.db.actions(game_id)
        if not actions or record.state_json is None:
            raise ReplayUnavailable("error-replay-too-old", id=str(game_id))
        replay = await asyncio.to_thread(GameReplay.build, record, spec, actions)
        self._kept[game_id] = replay
        while len(self._kept) > self.keep:
            self._kept.popitem(last=False)
        return replay

    async def step(self, game_id: int, index: int, guild_id: int | None) -> Panel:
        """Step ``index`` of a finished game (drawn off the event loop)."""
        replay = await self.open(game_id, guild_id)
        return await asyncio.to_thread(replay.panel, index)

    async def hands(self, game_id: int, guild_id: int | None) -> Panel:
        """Show hands: the replay opened where the last deal began, with a word on it."""
        replay = await self.open(game_id, guild_id)
        return await asyncio.to_thread(replay.panel, replay.hands_step(), hands=True)
