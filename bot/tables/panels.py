"""What a table shows: the public message and a seat's private view, as plain panels.

Pure functions of a :class:`~bot.tables.table.Table` (rendering the picture happens here, so
callers run them in a worker thread). Nothing here saves, waits or talks to Discord.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import PIL
from pydantic import BaseModel

from bot.engines.base import Outcome, ordinal, plural
from bot.render.cache import PICTURES
from bot.render.frames import FrameEncoder
from bot.tables import coaching, practice, replay, review
from bot.tables.table import Table
from bot.tables.views import (
    ADD_AI,
    CANCEL,
    HAND,
    JOIN,
    LEAVE,
    REJOIN,
    REJOIN_LABEL,
    REMATCH,
    REMOVE_AI,
    START,
    Control,
    Field,
    Panel,
)

FRAMES = FrameEncoder(cache=PICTURES)
"""The last pictures of the busiest tables, so a move re-encodes only what it changed (in the
process's one picture cache, with the parts pictures are drawn from)."""


def public_panel(table: Table, turn_timeout: float, shown: str | None = None) -> Panel:
    """The public table message for the table as it stands (``turn_timeout`` in seconds).

    ``shown``: the picture (``Panel.picture``) the message carries already; when the table
    still shows that picture it is not drawn again (the panel has no ``image_png``: the
    message keeps its attachment)."""
    panel, draw = public_panel_parts(table, turn_timeout, shown)
    if draw is not None:
        panel.image_png = draw()
    return panel


def public_panel_parts(
    table: Table, turn_timeout: float, shown: str | None = None
) -> tuple[Panel, Callable[[], bytes] | None]:
    """:func:`public_panel` in two steps: the panel without its picture (a fraction of a
    millisecond), and what draws the picture as the table stood then (None: the ``shown``
    one, or none), to run off the event loop."""
    panel, draw = _public_panel(table, turn_timeout, shown=shown)
    panel.version = table.record.version
    return panel, draw


def public_digest(table: Table, turn_timeout: float) -> str:
    """The :meth:`~bot.tables.views.Panel.digest` of :func:`public_panel`'s panel, without
    drawing its picture (a fraction of a millisecond instead of tens)."""
    panel, _draw = _public_panel(table, turn_timeout)
    panel.version = table.record.version
    return panel.digest()


@cache
def drawing_code() -> str:
    """A digest of what draws table pictures besides their inputs: the renderers, their
    fonts, the games' table UIs and Pillow. A new version of any draws another picture from
    the same table, so every message is shown afresh once after such an update."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.blake2b(PIL.__version__.encode(), digest_size=16)
    files = sorted((root / "render").rglob("*")) + sorted((root / "games").glob("*.py"))
    for path in files:
        if path.is_file() and path.suffix in (".py", ".ttf", ".otf"):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _pictured(table: Table, obs: BaseModel) -> BaseModel:
    """What of the spectator's observation the game's table picture shows."""
    shown = getattr(table.spec.ui, "picture_observation", None)
    return shown(obs) if shown is not None else obs


def _picture(table: Table, obs: BaseModel) -> str:
    """What the table picture shows: a digest of what it is drawn from and by what."""
    drawn = (drawing_code(), table.record.game, obs.model_dump_json(), table.names, table.log)
    return hashlib.blake2b(repr(drawn).encode(), digest_size=16).hexdigest()


@dataclass(frozen=True)
class PrivateView:
    """What a seat's private view is drawn from, taken from the table at one moment.

    A table's state is replaced, never changed in place, when a move is saved, so this
    stays what it was while it is drawn, with no lock held.
    """

    table: Table
    seat: int
    state: BaseModel
    names: list[str]
    version: int

    @classmethod
    def of(cls, table: Table, seat: int) -> PrivateView:
        assert table.state is not None
        return cls(table, seat, table.state, list(table.names), table.record.version)


def private_panel(view: PrivateView) -> Panel:
    """A seat's own view of a game in progress, with the moves open to it."""
    table, seat, state = view.table, view.seat, view.state
    engine = table.spec.engine
    obs = engine.observe(state, seat)
    legal = engine.legal_actions(state, seat) if seat in engine.to_act(state) else []
    panel = table.spec.ui.private_panel(obs, legal, view.names)
    coaching.offer(panel, table, legal)
    if (lesson := practice.lesson_at(table, obs, legal)) is not None:
        panel.fields = [*panel.fields, practice.lesson_field(lesson)]
    panel.version = view.version
    panel.footer = f"{table.spec.title} · game #{table.id} · only you can see this"
    return panel


def take_back_hint(table: Table) -> str:
    """How a person takes their seat back from the AI, in a few words."""
    return f"press **{REJOIN_LABEL}** on the table or use `/{table.record.game} rejoin`"


def _score(value: float, unit: str = "point") -> str:
    """A final score as people write it: "10,050 points", "1 book", "2.5 points"."""
    if float(value).is_integer():
        return plural(int(value), unit)
    return f"{value:,g} {unit}s"


def standings_text(outcome: Outcome, names: list[str]) -> str:
    """The final standings, a line per seat: "**1st=** Ada: 5 points". Players who share a
    place show the same place, marked "=". Not a markdown numbered list ("1. Ada"), which
    Discord renumbers 1, 2, 3, so that tied players would look placed apart."""
    ranks = outcome.ranks
    order = sorted(range(len(names)), key=lambda s: (ranks[s], -outcome.scores[s]))
    lines = []
    for s in order:
        tied = ranks.count(ranks[s]) > 1
        place = ordinal(ranks[s] + 1) + ("=" if tied else "")
        lines.append(f"**{place}** {names[s]}: {_score(outcome.scores[s], outcome.unit)}")
    return "\n".join(lines)


def _and(words: list[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    return " and ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " and " + words[-1]


def _public_panel(
    table: Table, turn_timeout: float, *, shown: str | None = None
) -> tuple[Panel, Callable[[], bytes] | None]:
    """The panel without its picture (its :attr:`~Panel.picture` set), and what draws the
    picture unless it is the ``shown`` one."""
    spec, record = table.spec, table.record
    title = f"{spec.emoji} {spec.title} · game #{table.id}"
    if record.status == "lobby":
        return _lobby_panel(table, title, turn_timeout), None
    if record.status == "cancelled":
        panel = Panel(
            title=title,
            description=(
                spec.ui.log_lines(table.log[-1:], table.names)[0] if table.log else "Cancelled."
            ),
            colour=0x99AAB5,
        )
        return panel, None
    assert table.state is not None
    engine = spec.engine
    marked = practice.banner(table) + "\n\n" if practice.is_practice(table) else ""
    obs = engine.observe(table.state, None)
    pictured = _pictured(table, obs)
    picture = _picture(table, pictured)
    draw = None
    if picture != shown:
        table_id, ui, names = table.id, spec.ui, list(table.names)
        log = spec.ui.log_lines(table.log, names)

        def draw() -> bytes:
            return FRAMES.encode(table_id, ui.table_image(pictured, names, log))

    events = "\n".join(f"• {line}" for line in spec.ui.log_lines(table.log[-4:], table.names))
    if record.status == "finished":
        outcome = engine.outcome(table.state)
        standings = standings_text(outcome, table.names)
        winners = _and([table.names[w] for w in outcome.winners]) or "nobody (a draw)"
        fields = [Field("Final standings", standings, inline=False)]
        final_fields = getattr(spec.ui, "final_fields", None)
        if final_fields is not None:
            fields += final_fields(obs, table.names)
        if (hints := coaching.results_field(table)) is not None:
            fields.append(hints)
        again = [Control(REMATCH, "Rematch", "success", emoji="🔁")]
        if practice.is_practice(table):
            fields.append(practice.finished_field(table))
            again = []  # a real table comes next, or another practice one
        panel = Panel(
            title=f"{title} · finished" + " · practice" * practice.is_practice(table),
            description=f"{marked}🏆 **{winners}** won.\n\n{events}",
            fields=fields,
            colour=0xF1C40F,
            picture=picture,
            controls=[
                *again,
                *replay.finished_controls(table.id),
                *([review.review_control(table.id)] if review.offered_for(table) else []),
            ],
        )
        return panel, draw
    to_act = sorted(engine.to_act(table.state))
    controls: list[Control] = []
    if len(to_act) == 1 and not table.is_bot_seat(to_act[0]):
        legal = engine.legal_actions(table.state, to_act[0])
        controls = spec.ui.public_controls(obs, legal)
    controls += [
        Control(HAND, "My hand", "primary", row=4, emoji="🂠"),
        Control(LEAVE, "Leave", row=4),
    ]
    if any(s.left_user_id is not None or s.autopilot for s in table.seats):
        controls.append(Control(REJOIN, REJOIN_LABEL, "success", row=4))
    waiting = ", ".join(
        table.names[s] + (" (AI)" if table.seats[s].autopilot else "") for s in to_act
    )
    panel = Panel(
        title=title + " · practice" * practice.is_practice(table),
        description=f"{marked}{spec.ui.turn_text(obs, table.names)}\n\n{events}".strip(),
        footer=f"To act: {waiting}",
        picture=picture,
        controls=controls,
    )
    return panel, draw


def _lobby_panel(table: Table, title: str, turn_timeout: float) -> Panel:
    spec, record = table.spec, table.record
    seats = "\n".join(
        f"{i + 1}. {s.name}{' (host)' if s.user_id == record.host_id else ''}"
        + (" · invited: press **Join** to keep this seat" if s.invited else "")
        for i, s in enumerate(table.seats)
    )
    options = spec.ui.options_text(table.config)
    options += "\n" + coaching.options_line(table)
    rematch_of = record.config.get("rematch_of")
    invited = [s.user_id for s in table.seats if s.invited]
    again = ""
    if rematch_of is not None:
        again = (
            f"Rematch of game #{rematch_of}: its players are invited and keep their seats by "
            "pressing **Join**; **Start** leaves out anyone who hasn't. "
        )
    return Panel(
        title=f"{title} · lobby",
        content=(
            " ".join(f"<@{uid}>" for uid in invited) + " you're invited to a rematch."
            if invited
            else None
        ),
        description=(
            f"{again}Press **Join** to take a seat. The host adds AI players for empty seats "
            f"(easy, normal or hard) and presses **Start** ({spec.engine.min_players} to "
            f"{spec.engine.max_players} players)."
        ),
        fields=[
            Field("Seats", seats or "(empty)", inline=False),
            Field("Options", f"{options}\nTurn timer: {turn_timeout / 60:g} min", inline=False),
        ],
        controls=[
            Control(JOIN, "Join", "success", row=0),
            Control(LEAVE, "Leave", row=0),
            Control(START, "Start", "primary", row=0),
            Control(ADD_AI, "Add AI", emoji="🤖", row=1),
            Control(f"{ADD_AI}:easy", "Add easy AI", row=1),
            Control(f"{ADD_AI}:hard", "Add hard AI", row=1),
            Control(
                REMOVE_AI,
                "Remove AI",
                row=1,
                disabled=not any(s.is_ai for s in table.seats),
            ),
            Control(CANCEL, "Cancel", "danger", row=1),
        ],
    )
