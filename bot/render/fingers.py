"""The Quantum Fingers table as one image: a players-by-flavours grid of what is known.

Pure: :func:`render_fingers` turns a :class:`~bot.engines.fingers.engine.FingersObservation`, the
seat names and a few recent event lines into a fixed-size ``PIL.Image``. Each cell shows how
many of a flavour a player holds now, exactly (``2``) or as the range every consistent deal
still allows (``1-3``). Flavours nobody has named yet are alike, so they share one column.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engines.fingers.engine import FingersObservation
from bot.render.common import (
    MARGIN,
    PALETTE,
    RGB,
    SIZE,
    WIDTH,
    clean_text,
    draw_text,
    event_lines,
    fit_font,
    font,
    panel,
    seat_name,
    table_canvas,
    to_png,
)
from bot.words import t

GRID_TOP = 80
LOG_TOP = 476
NAME_W = 214  # the players' column, wider when names need it and the flavours leave room
COUNT_W = 74
BOOKS_W = 84
MIN_FLAVOUR_W = 80  # a flavour's column at its narrowest before the players' grows
EVENT_LINES = 4


def holding_text(lo: int, hi: int) -> str:
    """``2`` when known exactly, ``1-3`` when only bounded."""
    return str(lo) if lo == hi else f"{lo}–{hi}"


def columns(obs: FingersObservation) -> list[tuple[int, str]]:
    """The flavour columns: every named flavour, then one shared column for unnamed ones."""
    named = [(f, name) for f, name in enumerate(obs.names) if name is not None]
    unnamed = [f for f, name in enumerate(obs.names) if name is None]
    if unnamed:
        named.append((unnamed[0], t("fingers-picture-unnamed", count=len(unnamed))))
    return named


def _status(obs: FingersObservation, names: list[str]) -> tuple[str, RGB]:
    if obs.phase == "over":
        if obs.winner is not None:
            winner = seat_name(names, obs.winner)
            return t("fingers-picture-won", player=winner), PALETTE.accent
        return t("fingers-picture-draw"), PALETTE.text_dim
    asker = seat_name(names, obs.current or 0)
    flavour = obs.names[obs.flavour] if obs.flavour is not None else None
    if obs.phase == "answer" and obs.asked is not None:
        asked = seat_name(names, obs.asked)
        text = t("fingers-picture-answer", asker=asker, asked=asked, flavour=flavour)
        return text, PALETTE.text
    if obs.phase == "book":
        return t("fingers-picture-book", asker=asker, flavour=flavour), PALETTE.text
    return t("fingers-picture-ask", asker=asker), PALETTE.text


def _draw_header(draw: ImageDraw.ImageDraw, obs: FingersObservation, names: list[str]) -> None:
    text, colour = _status(obs, names)
    draw_text(
        draw, (WIDTH - MARGIN, 22), text, 18, colour, anchor="rm", max_width=WIDTH - 320, bold=True
    )
    asks = t("fingers-picture-asks", asks=obs.asks, most=obs.max_asks, fingers=obs.per_flavour)
    draw_text(draw, (WIDTH - MARGIN, 46), asks, 15, PALETTE.text_dim, anchor="rm")


def _cell_colour(lo: int, hi: int) -> RGB:
    if lo != hi:
        return PALETTE.warn
    return PALETTE.text if lo else PALETTE.text_faint


def name_width(obs: FingersObservation, names: list[str]) -> float:
    """The players' column: :data:`NAME_W`, or as wide as the longest name needs while each
    flavour keeps :data:`MIN_FLAVOUR_W`."""
    needed = 24 + max(
        (font(18).getlength(seat_name(names, seat)) for seat in range(obs.n_players)), default=0
    )
    cols = columns(obs)
    # each flavour keeps room for its heading's longest word (split over two lines)
    word = max(
        (font(12, True).getlength(w) for _, label in cols for w in clean_text(label).split()),
        default=0,
    )
    flavour_w = min(max(MIN_FLAVOUR_W, word + 10), 120)
    room = WIDTH - 2 * MARGIN - COUNT_W - BOOKS_W - flavour_w * len(cols)
    return max(NAME_W, min(needed, room))


def _draw_grid(draw: ImageDraw.ImageDraw, obs: FingersObservation, names: list[str]) -> None:
    cols = columns(obs)
    left, right = MARGIN, WIDTH - MARGIN
    name_w = name_width(obs, names)
    flavour_left = left + name_w + COUNT_W
    flavour_w = (right - BOOKS_W - flavour_left) / max(1, len(cols))
    rows = obs.n_players
    row_h = min(48, (LOG_TOP - 12 - GRID_TOP - 34) // max(1, rows))
    panel(draw, (left, GRID_TOP, right, LOG_TOP - 12), PALETTE.panel, radius=12)
    head_y = GRID_TOP + 18
    heading = t("fingers-picture-player")
    draw_text(draw, (left + 14, head_y), heading, 14, PALETTE.text_dim, anchor="lm")
    heading = t("fingers-picture-fingers")
    draw_text(
        draw, (left + name_w + COUNT_W / 2, head_y), heading, 14, PALETTE.text_dim, anchor="mm"
    )
    for i, (f, label) in enumerate(cols):
        x = flavour_left + (i + 0.5) * flavour_w
        booked = obs.remaining[f] == 0
        colour = (
            PALETTE.text_faint
            if booked
            else PALETTE.accent
            if obs.flavour == f
            else PALETTE.text_dim
        )
        _draw_label(draw, (x, head_y), label, flavour_w - 6, colour)
    heading = t("fingers-picture-books")
    draw_text(draw, (right - BOOKS_W / 2, head_y), heading, 14, PALETTE.text_dim, anchor="mm")
    booked_mark = t("fingers-picture-booked")
    for seat in range(rows):
        top = GRID_TOP + 34 + seat * row_h
        mid = top + row_h / 2
        _draw_row_back(draw, obs, seat, (left + 6, top + 2, right - 6, top + row_h - 2))
        name_colour = PALETTE.accent if seat in (obs.current, obs.winner) else PALETTE.text
        draw_text(
            draw,
            (left + 16, mid),
            seat_name(names, seat),
            18,
            name_colour,
            anchor="lm",
            max_width=name_w - 24,
        )
        count_colour = PALETTE.good if obs.counts[seat] == 0 else PALETTE.text
        draw_text(
            draw,
            (left + name_w + COUNT_W / 2, mid),
            str(obs.counts[seat]),
            20,
            count_colour,
            anchor="mm",
            bold=True,
        )
        for i, (f, _) in enumerate(cols):
            x = flavour_left + (i + 0.5) * flavour_w
            if obs.remaining[f] == 0:
                mark = booked_mark if f in obs.books[seat] else "·"
                colour = PALETTE.good if f in obs.books[seat] else PALETTE.text_faint
                draw_text(draw, (x, mid), mark, 16, colour, anchor="mm")
                continue
            lo, hi = obs.lo[seat][f], obs.hi[seat][f]
            draw_text(draw, (x, mid), holding_text(lo, hi), 18, _cell_colour(lo, hi), anchor="mm")
        books = str(len(obs.books[seat])) if obs.books[seat] else "–"
        draw_text(draw, (right - BOOKS_W / 2, mid), books, 18, PALETTE.text, anchor="mm")


def label_lines(label: str, width: float) -> tuple[list[str], int]:
    """A column heading as it is drawn: one line at 14 px when it fits, else its words split
    over two lines at 12 px (each shortened if it must be)."""
    if font(14, True).getlength(clean_text(label)) <= width:
        return [label], 14
    words = label.split()
    if len(words) < 2:
        return [label], int(fit_font(label, (13, 12), width, bold=True).size)
    fnt = font(12, True)
    cuts = range(1, len(words))
    best = min(
        cuts,
        key=lambda k: max(fnt.getlength(" ".join(words[:k])), fnt.getlength(" ".join(words[k:]))),
    )
    return [" ".join(words[:best]), " ".join(words[best:])], 12


def _draw_label(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], label: str, width: float, colour: RGB
) -> None:
    lines, size = label_lines(label, width)
    x, y = xy
    top = y - (len(lines) - 1) * (size + 3) / 2
    for i, line in enumerate(lines):
        draw_text(
            draw, (x, top + i * (size + 3)), line, size, colour, anchor="mm", max_width=width,
            bold=True,
        )  # fmt: skip


def _draw_row_back(
    draw: ImageDraw.ImageDraw,
    obs: FingersObservation,
    seat: int,
    box: tuple[float, float, float, float],
) -> None:
    if seat == obs.winner:
        panel(draw, box, PALETTE.accent_dim, radius=8)
    elif seat == obs.current and obs.phase != "over":
        panel(draw, box, PALETTE.current_row, radius=8)
    elif seat == obs.asked and obs.phase == "answer":
        panel(draw, box, PALETTE.panel_alt, radius=8, outline=PALETTE.accent)
    elif seat % 2:
        panel(draw, box, PALETTE.panel_alt, radius=8)


def _draw_log(draw: ImageDraw.ImageDraw, log: list[str]) -> None:
    left, right = MARGIN + 4, WIDTH - MARGIN - 2
    event_lines(draw, log, left=left, right=right, top=LOG_TOP + 14, count=EVENT_LINES)


def render_fingers(
    obs: FingersObservation, names: list[str], log: list[str] | None = None
) -> Image.Image:
    """The table picture: header with the status, the knowledge grid, recent events."""
    image = table_canvas(t("fingers-picture-title"), title_x=MARGIN, title_size=28)
    draw = ImageDraw.Draw(image)
    _draw_header(draw, obs, names)
    _draw_grid(draw, obs, names)
    _draw_log(draw, log or [])
    return image


def render_fingers_png(
    obs: FingersObservation, names: list[str], log: list[str] | None = None
) -> bytes:
    return to_png(render_fingers(obs, names, log))


__all__ = ["SIZE", "columns", "holding_text", "render_fingers", "render_fingers_png"]
