"""Second thoughts: leaving a game in play, cancelling a table and removing a player each
take a second click, in a reply only the person sees; one slip must not end anyone's game.

Pure: what each question says, with its two buttons, and whether the person may be asked it
at all (so nobody confirms something they are then refused). The Discord layer sends the
question and, on the second click, does what was confirmed.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engines.base import GameError
from bot.tables.lobby import require_host
from bot.tables.panels import take_back_hint
from bot.tables.protocols import NotSeated
from bot.tables.table import Table
from bot.tables.views import CANCEL, KICK, LEAVE, STAY, SURE, Control
from bot.words.text import unescape


@dataclass(frozen=True)
class Question:
    text: str
    controls: list[Control]


def kick_action(user_id: int) -> str:
    """The action that removes the person ``user_id`` (confirmed as ``!sure:!kick:<id>``)."""
    return f"{KICK}:{user_id}"


def question(table: Table, action: str, user_id: int, *, is_admin: bool) -> Question:
    """The question before ``action`` (LEAVE, CANCEL or a :func:`kick_action`) by ``user_id``,
    or a GameError saying why they can't do it at all."""
    if action == LEAVE:
        return _leave(table, user_id)
    if action == CANCEL:
        return _cancel(table, user_id, is_admin=is_admin)
    verb, _, target = action.partition(":")
    if verb == KICK and target.isdigit():
        return _kick(table, user_id, int(target), is_admin=is_admin)
    raise GameError("error-unknown-control")


def _buttons(action: str, yes: str, no: str) -> list[Control]:
    return [Control(f"{SURE}:{action}", yes[:80], "danger"), Control(STAY, no[:80])]


def _leave(table: Table, user_id: int) -> Question:
    if table.seat_of(user_id) is None:
        if table.left_seat_of(user_id) is not None:
            raise NotSeated(
                "You already left this table: an AI plays your seat. To take it back: "
                f"{take_back_hint(table)}."
            )
        raise NotSeated("You're not playing at this table.")
    text = (
        f"Leave game #{table.id}? An AI plays your seat from now on. You can take it back "
        f"while the game runs ({take_back_hint(table)}); if you don't, the game won't "
        "count for you."
    )
    return Question(text, _buttons(LEAVE, "Leave", "Stay"))


def _as_manager(table: Table, user_id: int) -> str:
    """A word for a server manager acting at someone else's table."""
    if user_id == table.record.host_id:
        return ""
    return "You're not the host: Manage Server lets you do this at any table. "


def _cancel(table: Table, user_id: int, *, is_admin: bool) -> Question:
    require_host(table, user_id, is_admin=is_admin, what="cancel")
    if table.record.status == "lobby":
        text = f"Cancel the lobby of game #{table.id}? Its seats are given up."
        buttons = _buttons(CANCEL, "Cancel the lobby", "Keep the lobby")
    else:
        text = f"Cancel game #{table.id} for everyone? It ends now and counts for no one."
        buttons = _buttons(CANCEL, "Cancel the game", "Keep playing")
    return Question(_as_manager(table, user_id) + text, buttons)


def _kick(table: Table, user_id: int, target: int, *, is_admin: bool) -> Question:
    require_host(table, user_id, is_admin=is_admin, what="kick")
    seat = table.seat_of(target)
    if seat is None:
        raise GameError("error-target-not-seated")
    if target == user_id:
        raise GameError("error-kick-self")
    name = table.seats[seat].name
    if table.record.status == "lobby":
        text = f"Remove {name} from the lobby of game #{table.id}? Their seat is freed."
    else:
        text = (
            f"Remove {name} from game #{table.id}? An AI plays their seat from now on, and "
            "they can't take it back."
        )
    buttons = _buttons(kick_action(target), f"Remove {unescape(name)}", "Keep them")
    return Question(_as_manager(table, user_id) + text, buttons)
