"""Answering interactions within Discord's three seconds, whatever storage does.

Discord shows "This interaction failed" when a click or command gets no answer within three
seconds. Work that may wait on the database (a move, a seat, a new table) runs inside
:func:`in_time`: if it has not answered after :data:`ACK_AFTER` seconds, the interaction is
acknowledged (deferred) and the real answer arrives as an edit or a follow-up when the work
is done. :func:`send`, :func:`edit` and :func:`defer` answer the right way in either case;
a lock per interaction keeps the timer and the handler from both answering.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any, cast

import discord
from discord.http import Route
from discord.utils import MISSING
from discord.webhook.async_ import async_context, interaction_message_response_params

log = logging.getLogger(__name__)

ACK_AFTER = 1.5
"""Seconds of work after which an interaction is deferred (Discord allows three)."""
BUSY = 16
"""Interactions being worked on at once past which new ones are acknowledged straight away."""
_in_flight = 0
CONTENT_LIMIT = 2000
"""Characters Discord accepts in a message's content."""

_LOCK = "qt.answer_lock"
_PUBLIC = "qt.deferred_public"


def _lock(interaction: discord.Interaction) -> asyncio.Lock:
    lock = interaction.extras.get(_LOCK)
    if lock is None:
        lock = interaction.extras[_LOCK] = asyncio.Lock()
    return lock


def clip(text: str | None, limit: int = CONTENT_LIMIT) -> str | None:
    """Text shortened to fit Discord's limit (with an ellipsis when cut)."""
    if text is None or len(text) <= limit:
        return text
    return text[: limit - 1] + "…"


async def _defer_now(interaction: discord.Interaction, *, public: bool, new_message: bool) -> None:
    async with _lock(interaction):
        if interaction.response.is_done():
            return
        if new_message or interaction.type is discord.InteractionType.application_command:
            # The "thinking…" message becomes the answer; its visibility is fixed now.
            await interaction.response.defer(thinking=True, ephemeral=not public)
            interaction.extras[_PUBLIC] = public
        else:
            await interaction.response.defer()  # a click: nothing visible, edit later
        log.info("Deferred a slow interaction (%s)", interaction.type.name)


@contextlib.asynccontextmanager
async def in_time(
    interaction: discord.Interaction,
    *,
    public: bool = False,
    new_message: bool = False,
    after: float = ACK_AFTER,
) -> AsyncIterator[None]:
    """Defer ``interaction`` if the block has not answered it after ``after`` seconds.

    ``public``: for commands, whether the answer will be seen by everyone (a new table) or
    only by the person (the default). ``new_message``: a click whose answer is a new message
    (a private view) rather than an update of the message it was on.
    """

    global _in_flight
    if _in_flight >= BUSY:
        after = 0.0  # a burst: acknowledge first, then answer each as its work is done
    _in_flight += 1

    async def late() -> None:
        await asyncio.sleep(after)
        try:
            await _defer_now(interaction, public=public, new_message=new_message)
        except discord.HTTPException:
            log.warning("Could not defer a slow interaction", exc_info=True)

    timer = asyncio.create_task(late(), name="answer-in-time")
    try:
        yield
    finally:
        _in_flight -= 1
        timer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await timer


async def send(interaction: discord.Interaction, *, ephemeral: bool = False, **parts: Any) -> int:
    """Answer with a new message; its id. After a deferral, as a follow-up or in place of the
    "thinking…" message when that has the same visibility."""
    if "content" in parts:
        parts["content"] = clip(parts["content"])
    if parts.get("view", ...) is None:
        parts.pop("view")  # discord.py's senders reject view=None
    async with _lock(interaction):
        if not interaction.response.is_done():
            response = await interaction.response.send_message(ephemeral=ephemeral, **parts)
            if response.message_id is not None:
                return response.message_id
            return (await interaction.original_response()).id
        deferred_public = interaction.extras.pop(_PUBLIC, None)
        if deferred_public is not None:
            if deferred_public == (not ephemeral):
                files = parts.pop("files", None)
                if files:
                    parts["attachments"] = files
                message = await interaction.edit_original_response(**parts)
                return message.id
            # The wrong visibility was chosen when deferring: drop the "thinking…" message.
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        sent = await interaction.followup.send(ephemeral=ephemeral, wait=True, **parts)
        return sent.id


_CONTROLS = (discord.InteractionType.component, discord.InteractionType.modal_submit)
"""Interactions from a message's controls: the ones whose answer can update that message."""


async def edit(
    interaction: discord.Interaction, *, echo: bool = False, **parts: Any
) -> discord.Message | None:
    """Answer a click by editing the message it was on (after a deferral too). With ``echo``,
    the message as Discord now has it, when it says (an uploaded picture's attachment id is
    only known from it); without, a first answer does not ask Discord for it."""
    if "content" in parts:
        parts["content"] = clip(parts["content"])
    async with _lock(interaction):
        if not interaction.response.is_done():
            if not echo and interaction.type in _CONTROLS:
                await _update(interaction, **parts)
                return None
            answer = await interaction.response.edit_message(**parts)
            resource = getattr(answer, "resource", None)
            return resource if isinstance(resource, discord.Message) else None
        return await interaction.edit_original_response(**parts)


async def _update(
    interaction: discord.Interaction,
    *,
    content: str | None = MISSING,
    embed: discord.Embed | None = MISSING,
    embeds: list[discord.Embed] = MISSING,
    attachments: list[Any] = MISSING,
    view: Any = MISSING,
    allowed_mentions: discord.AllowedMentions | None = MISSING,
) -> None:
    """What discord.py's ``InteractionResponse.edit_message`` sends, without the edited message
    asked back: discord.py always asks (``with_response``) and makes a ``Message`` of the
    answer, the table's embed, buttons and attachments, on every click. Discord answers
    204; errors are raised as discord.py raises them (its own webhook adapter sends it)."""
    state = interaction._state
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value,
        content=content,
        embed=embed,
        embeds=embeds,
        view=view,
        attachments=attachments,
        previous_allowed_mentions=state.allowed_mentions,
        allowed_mentions=allowed_mentions,
    )
    message_id = interaction.message.id if interaction.message is not None else None
    if view is not MISSING and message_id is not None:
        state.prevent_view_updates_for(message_id)
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    sending: dict[str, Any] = (
        {"files": params.files, "multipart": params.multipart}
        if params.files
        else {"payload": params.payload}
    )
    await async_context.get().request(
        route,
        session=interaction._session,
        proxy=state.http.proxy,
        proxy_auth=state.http.proxy_auth,
        **sending,
    )
    interaction.response._response_type = discord.InteractionResponseType.message_update
    if isinstance(view, discord.ui.View) and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, message_id)


async def defer(interaction: discord.Interaction) -> None:
    """Acknowledge a click with no visible answer (unless it was answered already)."""
    async with _lock(interaction):
        if not interaction.response.is_done():
            await interaction.response.defer()


_SILENT = "qt.silent"


def keep_silent(interaction: discord.Interaction) -> None:
    """Leave ``interaction`` unanswered on purpose: another process answers it (this one
    lost the shard of its server while working on it)."""
    interaction.extras[_SILENT] = True


def answered(interaction: discord.Interaction) -> bool:
    return interaction.response.is_done() or bool(interaction.extras.get(_SILENT))


UNANSWERED_AFTER = 2.3
"""Seconds after which :func:`watch` answers an interaction nothing else answered."""
UNKNOWN_CONTROL = (
    "That control isn't one I can use (it may be from an old message). "
    "Use the buttons on the table as it is now."
)


async def watch(
    interaction: discord.Interaction,
    *,
    handled: Callable[[discord.Interaction], bool] | None = None,
    after: float | None = None,
) -> None:
    """Make sure ``interaction`` gets an answer: if nothing answered it in time (a form no
    handler took, a handler that failed silently), answer it briefly, only to the person.

    ``handled`` tells whether some handler takes a click or form; one that none takes (a
    garbage or forged custom_id) is answered at once.
    """
    if interaction.type in (discord.InteractionType.ping, discord.InteractionType.autocomplete):
        return
    custom_id = str(cast("dict[str, Any]", interaction.data or {}).get("custom_id", ""))
    if after is None:
        after = UNANSWERED_AFTER
    if interaction.type in _CONTROLS and handled is not None and not handled(interaction):
        after = 0.0

    async def check() -> None:
        try:
            await _answer_unanswered(interaction, after, custom_id)
        finally:
            _unlink(interaction)

    task = asyncio.get_running_loop().create_task(check(), name="answer-watch")
    _watching.add(task)
    task.add_done_callback(_watching.discard)


async def _answer_unanswered(
    interaction: discord.Interaction, after: float, custom_id: str
) -> None:
    await asyncio.sleep(after)
    if answered(interaction):
        return
    try:
        async with _lock(interaction):
            if interaction.response.is_done():
                return
            log.warning(
                "Answering an unhandled %s interaction (custom_id %r)",
                interaction.type.name,
                custom_id[:100],
            )
            await interaction.response.send_message(UNKNOWN_CONTROL, ephemeral=True)
    except discord.HTTPException:
        log.warning("Could not answer an unhandled interaction", exc_info=True)


def _unlink(interaction: discord.Interaction) -> None:
    """discord.py's interaction and its response point at each other: left so, an interaction
    and all it carries (the clicked message with its buttons, the member) is freed only by the
    cycle collector's oldest generation. Once the watch is over the interaction has had its
    one answer, and the response is only asked whether it was given (``is_done``, which does
    not need the link); what follows goes through the interaction (edits, follow-ups)."""
    interaction.response._parent = None  # type: ignore[assignment]


_watching: set[asyncio.Task[None]] = set()
