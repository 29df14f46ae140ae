"""Interactions in flight and what the driver hands back about them."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .models import Channel, Message, User

if TYPE_CHECKING:
    from .server import LoopbackDiscord


class InteractionType:
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class CallbackType:
    PONG = 1
    CHANNEL_MESSAGE = 4
    DEFERRED_CHANNEL_MESSAGE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9


ALLOWED_CALLBACKS: dict[int, set[int]] = {
    InteractionType.APPLICATION_COMMAND: {4, 5, 9},
    InteractionType.MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
    InteractionType.AUTOCOMPLETE: {8},
    InteractionType.MODAL_SUBMIT: {4, 5, 6, 7},
}


@dataclass(eq=False)
class PendingInteraction:
    """One interaction the fake sent: its token, its initial response and its messages."""

    id: int
    token: str
    type: int
    user: User
    channel: Channel
    name: str
    source: Message | None = None
    created: float = field(default_factory=time.monotonic)
    response_type: int | None = None
    echoed: bool | None = None  # whether the initial response asked for its message back
    acknowledged: asyncio.Event = field(default_factory=asyncio.Event)
    expired: bool = False  # not acknowledged in time: Discord forgot it
    token_dead: bool = False  # a webhook call came after the token's lifetime
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: Modal | None = None
    choices: list[dict[str, Any]] | None = None
    timer: asyncio.TimerHandle | None = None
    # ``time.perf_counter()`` stamps, for telling the fake's own work from the bot's:
    sent: float | None = None  # its INTERACTION_CREATE frame went to the bot's socket
    arrived: float | None = None  # the request with its initial response reached the fake

    def describe(self) -> str:
        kinds = {2: "/", 3: "component ", 4: "autocomplete /", 5: "modal "}
        return f"{kinds.get(self.type, '?')}{self.name} by {self.user.name}"


@dataclass(eq=False)
class Modal:
    """A modal the bot opened, as the person sees it (fill it with `fake.submit_modal`)."""

    title: str
    custom_id: str
    components: list[dict[str, Any]]
    interaction: PendingInteraction
    submitted: bool = False

    @property
    def fields(self) -> list[dict[str, Any]]:
        """The inputs, each with its `label` (from a Label wrapper if there is one)."""
        out: list[dict[str, Any]] = []
        for top in self.components:
            if top.get("type") == 1:
                out.extend(dict(c) for c in top.get("components") or [])
            elif top.get("type") == 18 and isinstance(top.get("component"), dict):
                out.append({**top["component"], "label": top.get("label")})
        return out


class InteractionResult:
    """What a person saw after their action. Live: reads the fake's current state."""

    def __init__(self, fake: LoopbackDiscord, interaction: PendingInteraction) -> None:
        self._fake = fake
        self.interaction = interaction

    @property
    def type(self) -> int | None:
        """The initial callback type (4 message, 5 deferred, 6/7 update, 8 choices, 9 modal)."""
        return self.interaction.response_type

    @property
    def message(self) -> Message | None:
        """The response message (for deferrals: the one the bot completed later)."""
        oid = self.interaction.original_id
        return None if oid is None else self._fake.world.messages.get(oid)

    @property
    def followups(self) -> list[Message]:
        return [self._fake.world.messages[i] for i in self.interaction.followup_ids]

    @property
    def modal(self) -> Modal | None:
        return self.interaction.modal

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        return self.interaction.choices

    @property
    def ephemeral(self) -> bool:
        return self.message is not None and self.message.ephemeral

    def __repr__(self) -> str:
        return f"<InteractionResult {self.interaction.describe()} type={self.type} message={self.message!r}>"
