"""One hosted game in memory: its stored record, live engine state and per-table lock."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from bot.storage.models import GameRecord, SeatRecord
from bot.tables.protocols import GameSpec

LogEntry = str | dict[str, Any]
"""An event as the log keeps it (:meth:`bot.engines.base.Event.entry`); a string is a
sentence saved before events were data, shown as it was."""

LOG_LENGTH = 6  # recent events kept with the snapshot and shown on the table
HISTORY_LENGTH = 64  # recent (version, seat) pairs, enough to spot a stale double click


@dataclass
class Table:
    record: GameRecord
    spec: GameSpec
    state: BaseModel | None = None
    log: list[LogEntry] = field(default_factory=list)
    history: list[tuple[int, int]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    refresh_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    shown_version: int = -1
    shown_at: float = float("-inf")
    """When (``time.monotonic()``) the table message was last brought up to date."""
    ai_moves_unshown: bool = False
    """An AI's move is not on the table message yet (see ``driver.AI_EDIT_GAP``)."""
    reminded_version: int = -1
    runner: asyncio.Task[None] | None = None
    private_views: dict[int, tuple[Any, asyncio.Future[Any]]] = field(default_factory=dict)
    """Per seat: the private view last drawn (or being drawn) and what it was drawn from."""
    hints: dict[int, tuple[int, asyncio.Future[Any]]] = field(default_factory=dict)
    """Per seat: the table version of its last hint and that hint's analysis (or its work)."""
    shown_picture: tuple[int, str, int] | None = None
    """The picture the table message carries, as the Discord side last saw it: (message id,
    what it shows (``Panel.picture``), its attachment id). A panel showing the same picture
    needs no new one (see :meth:`bot.tables.manager.TableManager.refresh`)."""

    # --- identity and seats ------------------------------------------------------------

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def seats(self) -> list[SeatRecord]:
        return self.record.seats

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.record.seats]

    @property
    def location_id(self) -> int:
        """The channel or thread that holds the table message."""
        return self.record.thread_id or self.record.channel_id

    @property
    def config(self) -> BaseModel:
        return self.spec.engine.parse_config(self.record.config.get("options"))

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.record.seats:
            if seat.user_id == user_id and not seat.is_ai:
                return seat.seat
        return None

    def left_seat_of(self, user_id: int) -> int | None:
        """The seat this person left mid-game (an AI plays it; they may take it back)."""
        for seat in self.record.seats:
            if seat.is_ai and seat.left_user_id == user_id:
                return seat.seat
        return None

    def is_bot_seat(self, seat: int) -> bool:
        """True where the core moves for the seat: an AI, or a person on autopilot."""
        record = self.record.seats[seat]
        return record.is_ai or record.autopilot

    def ai_level(self, seat: int) -> str:
        """The level the AI plays ``seat`` at: an AI seat's own, normal for a person it covers."""
        record = self.record.seats[seat]
        return (record.level or "normal") if record.is_ai else "normal"

    def forced_move(self, seat: int) -> str | None:
        """The move the table makes for the person at ``seat`` because it is their only
        choice and nothing is decided by it (see :class:`ForcedMoveUI`); None when they
        choose, or when an AI plays the seat anyway."""
        pick = getattr(self.spec.ui, "forced_move", None)
        state, engine = self.state, self.spec.engine
        if pick is None or state is None or self.record.status != "active":
            return None
        if self.is_bot_seat(seat) or seat not in engine.to_act(state):
            return None
        move: str | None = pick(engine.observe(state, seat), engine.legal_actions(state, seat))
        return move

    def moves_itself(self, seat: int) -> bool:
        """True where no person needs to act for ``seat`` now: the core moves for an AI, a
        person on autopilot, or a person whose only move it makes for them."""
        return self.is_bot_seat(seat) or self.forced_move(seat) is not None

    def ai_seed(self, version: int, seat: int) -> str:
        """The random source's seed of an AI deciding for ``seat`` at table ``version`` (a
        hint at that moment uses it too, so it names the hard AI's very move)."""
        return f"{self.record.seed}:ai:{version}:{seat}"

    def acted_since(self, seat: int, version: int) -> bool:
        return any(v > version and s == seat for v, s in self.history)

    # --- snapshot ----------------------------------------------------------------------

    def snapshot_json(
        self,
        state: BaseModel | None = None,
        log: list[LogEntry] | None = None,
        history: list[tuple[int, int]] | None = None,
    ) -> str:
        """The saved form of the table's play: engine state, recent events, recent movers."""
        state = state if state is not None else self.state
        assert state is not None
        # The engine's JSON goes in as it is, not parsed and written again (every move is
        # saved this way): {"state": ..., "log": [...], "history": [...]}.
        compact = (",", ":")
        state_json = self.spec.engine.dump_state(state)
        log_json = json.dumps(self.log if log is None else log, separators=compact)
        history_json = json.dumps(self.history if history is None else history, separators=compact)
        return f'{{"state":{state_json},"log":{log_json},"history":{history_json}}}'

    def load_snapshot(self, text: str) -> None:
        data: dict[str, Any] = json.loads(text)
        self.state = self.spec.engine.load_state(data["state"])
        self.log = list(data.get("log", []))
        self.history = [(int(v), int(s)) for v, s in data.get("history", [])]

    def with_move(
        self, version: int, seat: int, lines: list[LogEntry]
    ) -> tuple[list[LogEntry], list[tuple[int, int]]]:
        """The log and history as they will be once this move is saved."""
        return [*self.log, *lines][-LOG_LENGTH:], [*self.history, (version, seat)][-HISTORY_LENGTH:]

    def note(self, line: LogEntry) -> None:
        self.log = [*self.log, line][-LOG_LENGTH:]
