"""The QuantumPoker table as one image: every seat's qubits and chips, the community cards.

Pure: :func:`render_qpoker` turns a :class:`~bot.engines.qpoker.engine.QPokerObservation` plus the
seat names (and optionally recent event lines) into a fixed-size ``PIL.Image``. Whatever the
observation hides stays hidden: a qubit whose value is ``None`` is drawn face down (or as a
superposition), so the spectator's observation gives the public picture and a seat's own
observation gives that player's private one (their own values face up, marked as hidden).

Each qubit card shows one of: face down (``?``), a value with a green edge (shown to
everyone), a value with a blue edge (face down, seen only by its owner, or by everyone once
a finished match is shown with every card turned), ``0+1`` on violet
(superposition), and a gold ``×2`` disc when its bet is doubled.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from bot.engines.base import plural
from bot.engines.qpoker.engine import QPokerObservation, QubitView
from bot.render.common import (
    BODY_BOTTOM,
    BODY_TOP,
    MARGIN,
    PALETTE,
    RGB,
    SIZE,
    WIDTH,
    draw_text,
    drawn_once,
    event_lines,
    fit_font,
    font,
    header_info,
    panel,
    seat_marker,
    seat_name,
    seat_row,
    strip_alert,
    strip_note,
    strip_turn,
    strip_winner,
    table_canvas,
    to_png,
)

SEATS = (MARGIN, BODY_TOP, 620, 470)
EVENTS = (MARGIN, 482, 620, BODY_BOTTOM)
SIDE = (636, BODY_TOP, WIDTH - MARGIN, BODY_BOTTOM)

ROWS_TOP = SEATS[1] + 8
LEGEND_H = 26
ROWS_BOTTOM = SEATS[3] - LEGEND_H
MAX_ROW_H = 74
CARDS_X = 250
CARD_GAP = 10

BACK: RGB = (44, 58, 104)
BACK_EDGE: RGB = (92, 112, 176)
FACE: RGB = (244, 238, 222)
FACE_TEXT: RGB = (34, 30, 28)
SUPER: RGB = (118, 74, 170)
SHOWN_EDGE: RGB = PALETTE.good
HIDDEN_EDGE: RGB = (96, 140, 255)
DOUBLE: RGB = PALETTE.gold

PAULI_COLOURS: dict[str, RGB] = {
    "X": (214, 86, 86),
    "Y": (222, 160, 52),
    "Z": (72, 150, 220),
    "H": (140, 96, 200),
    "CX": (214, 110, 160),
    "SWAP": (70, 170, 130),
}


def row_height(n_players: int) -> int:
    return min(MAX_ROW_H, (ROWS_BOTTOM - ROWS_TOP) // max(1, n_players))


STAKE_TEXT = "8 chips at stake"  # the longest line after a row's qubits
QUBITS = 4


def cards_x(n_players: int) -> int:
    """Where a row's qubits start: as far right as leaves room for the stake after them,
    so the name before them has the rest (never left of :data:`CARDS_X`)."""
    card_w = int((row_height(n_players) - 12) * 0.78)
    cards = QUBITS * card_w + (QUBITS - 1) * CARD_GAP
    stake = math.ceil(font(14).getlength(STAKE_TEXT))
    return max(CARDS_X, SEATS[2] - 24 - stake - 14 - cards)


def qubit_box(seat: int, index: int, n_players: int) -> tuple[int, int, int, int]:
    """Bounding box of ``seat``'s qubit ``index`` (tests sample pixels in it)."""
    h = row_height(n_players)
    top = ROWS_TOP + seat * h
    card_h = h - 12
    card_w = int(card_h * 0.78)
    x = cards_x(n_players) + index * (card_w + CARD_GAP)
    return x, top + 6, x + card_w, top + 6 + card_h


@drawn_once
def _background(revealed: bool = False) -> Image.Image:
    img = table_canvas("QuantumPoker", title_x=MARGIN + 44)
    draw = ImageDraw.Draw(img)
    _card(draw, (MARGIN + 4, 14, MARGIN + 32, 50), "H", size=13)
    panel(draw, SEATS, PALETTE.felt, radius=16, outline=PALETTE.felt_edge, width=3)
    panel(draw, EVENTS, PALETTE.panel, radius=12, outline=PALETTE.panel_edge)
    panel(draw, SIDE, PALETTE.panel, radius=16, outline=PALETTE.panel_edge)
    _legend(draw, revealed)
    return img


def is_revealed(obs: QPokerObservation) -> bool:
    """A spectator's view that knows face-down values: a finished match, every card turned."""
    return obs.seat is None and any(
        q.value is not None and not q.shown for row in obs.qubits for q in row
    )


def _legend(draw: ImageDraw.ImageDraw, revealed: bool = False) -> None:
    y = SEATS[3] - LEGEND_H / 2 - 4
    x: float = SEATS[0] + 20
    items: list[tuple[RGB, RGB, str]] = [
        (BACK, BACK_EDGE, "face down"),
        (FACE, SHOWN_EDGE, "shown"),
        (FACE, HIDDEN_EDGE, "face down, revealed" if revealed else "yours, face down"),
        (SUPER, SUPER, "superposition"),
    ]
    for fill, edge, label in items:
        draw.rounded_rectangle(
            (x, y - 8, x + 12, y + 8), radius=3, fill=fill, outline=edge, width=2
        )
        x += 18 + draw_text(draw, (x + 18, y), label, 14, PALETTE.felt_text, anchor="lm") + 16
    draw.ellipse((x, y - 8, x + 16, y + 8), fill=DOUBLE)
    draw_text(draw, (x + 22, y), "doubled", 14, PALETTE.felt_text, anchor="lm")


def _card(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], card: str, size: int = 20
) -> None:
    """A Pauli card tile."""
    colour = PAULI_COLOURS.get(card, PALETTE.panel_edge)
    panel(draw, box, colour, radius=6, outline=(250, 250, 250), width=2)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    text_size = size if len(card) <= 2 else max(10, int(size * 0.62))
    draw_text(draw, (cx, cy), card, text_size, (255, 255, 255), anchor="mm", bold=True)


def draw_qubit(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], view: QubitView) -> None:
    """One qubit card as its viewer sees it (see the module notes for the looks)."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    big = max(14, int((y1 - y0) * 0.46))
    edge = SHOWN_EDGE if view.shown else (HIDDEN_EDGE if view.value is not None else BACK_EDGE)
    if view.superposed:
        panel(draw, box, SUPER, radius=7, outline=SHOWN_EDGE if view.shown else BACK_EDGE, width=3)
        draw_text(draw, (cx, cy), "0+1", int(big * 0.62), (255, 255, 255), anchor="mm", bold=True)
    elif view.value is None:
        panel(draw, box, BACK, radius=7, outline=edge, width=3)
        draw.rounded_rectangle(
            (x0 + 6, y0 + 6, x1 - 6, y1 - 6), radius=4, outline=(70, 88, 150), width=1
        )
        draw_text(draw, (cx, cy), "?", big, (150, 168, 226), anchor="mm", bold=True)
    else:
        panel(draw, box, FACE, radius=7, outline=edge, width=3)
        draw_text(draw, (cx, cy), str(view.value), big, FACE_TEXT, anchor="mm", bold=True)
    if view.doubled:
        r = max(9, (x1 - x0) // 4)
        draw.ellipse(
            (x1 - r - 2, y0 - 6, x1 + r - 2, y0 - 6 + 2 * r), fill=DOUBLE, outline=(60, 44, 8)
        )
        draw_text(
            draw, (x1 - 2, y0 - 6 + r), "×2", int(r * 0.95), (40, 30, 6), anchor="mm", bold=True
        )


def _draw_header(draw: ImageDraw.ImageDraw, obs: QPokerObservation) -> None:
    text = f"Round {max(obs.round, 1)} of {obs.rounds}   ·   Pot {obs.pot}"
    if obs.carry:
        text += f" ({obs.carry} carried)"
    header_info(draw, text)


def _draw_strip(draw: ImageDraw.ImageDraw, obs: QPokerObservation, names: list[str]) -> None:
    if obs.winners:
        who = [seat_name(names, w) for w in obs.winners]
        stacks = {obs.chips[w] for w in obs.winners}
        if len(obs.winners) == 1:
            text = f"{{names}} wins the match with {plural(stacks.pop(), 'chip')}!"
        elif len(stacks) == 1:
            text = f"{{names}} share the win with {plural(stacks.pop(), 'chip')} each!"
        else:  # level before the last pot's odd chip, which breaks no tie
            text = "{names} share the win!"
        strip_winner(draw, text, names=who, joiner=" and ")
        return
    if obs.current is None:
        strip_note(draw, "Between rounds")
        return
    if obs.called_by is not None:
        text = (
            f"by {seat_name(names, obs.called_by)}  ·  {seat_name(names, obs.current)}'s last turn"
        )
        strip_alert(draw, "MEASUREMENT CALLED", text, 19)
        return
    left = len(obs.community)
    strip_turn(draw, seat_name(names, obs.current), f"to take a card  ·  {left} left this round")


def _draw_seats(draw: ImageDraw.ImageDraw, obs: QPokerObservation, names: list[str]) -> None:
    h = row_height(obs.n_players)
    x0, _, x1, _ = SEATS
    for seat in range(obs.n_players):
        top = ROWS_TOP + seat * h
        row = (x0 + 8, top + 1, x1 - 8, top + h - 1)
        current = seat == obs.current
        out = obs.out[seat]
        winner = seat in obs.winners
        highlighted = seat_row(
            draw, row, winner=winner, current=current, current_fill=(38, 110, 84)
        )
        if not highlighted and seat == obs.seat:
            panel(draw, row, (33, 100, 76), radius=10, outline=HIDDEN_EDGE, width=1)
        name_y = top + h * 0.36
        info_y = top + h * 0.70
        seat_marker(draw, (x0 + 26, name_y), winner=winner, current=current)
        colour = PALETTE.text_faint if out else (PALETTE.accent if current else PALETTE.text)
        label = seat_name(names, seat) + (" (you)" if seat == obs.seat else "")
        # the row's width when it holds no qubits (between rounds, at the end)
        room = (cards_x(obs.n_players) if obs.qubits[seat] or out else x1 - 16) - x0 - 50
        draw_text(
            draw,
            (x0 + 42, name_y),
            label,
            int(fit_font(label, (18, 17, 16), room, bold=current).size),
            colour,
            anchor="lm",
            max_width=room,
            bold=current,
        )
        info = plural(obs.chips[seat], "chip")
        if out:
            info += "  ·  out"
        elif seat == obs.called_by:
            info += "  ·  called"
        draw_text(draw, (x0 + 42, info_y), info, 15, PALETTE.felt_text, anchor="lm")
        for index, view in enumerate(obs.qubits[seat]):
            draw_qubit(draw, qubit_box(seat, index, obs.n_players), view)
        if obs.qubits[seat]:
            _, by0, bx1, by1 = qubit_box(seat, 3, obs.n_players)
            stake = sum(2 if q.doubled else 1 for q in obs.qubits[seat])
            draw_text(
                draw,
                (bx1 + 14, (by0 + by1) / 2),
                f"{plural(stake, 'chip')} at stake",
                14,
                PALETTE.felt_text,
                anchor="lm",
                max_width=x1 - bx1 - 24,
            )
        elif out:
            draw_text(
                draw,
                (cards_x(obs.n_players), name_y + 6),
                "out of the match",
                16,
                PALETTE.text_faint,
                anchor="lm",
            )


def _draw_side(draw: ImageDraw.ImageDraw, obs: QPokerObservation, names: list[str]) -> None:
    x0, y0, x1, _ = SIDE
    label = (178, 190, 210)
    draw_text(draw, (x0 + 16, y0 + 20), "COMMUNITY CARDS", 15, label, anchor="lm")
    if obs.community:
        for i, card in enumerate(obs.community[:8]):
            cx = x0 + 16 + i * 54
            _card(draw, (cx, y0 + 38, cx + 46, y0 + 100), card)
    else:
        draw_text(draw, (x0 + 16, y0 + 68), "none left", 17, PALETTE.text_faint, anchor="lm")
    y = y0 + 122
    draw_text(draw, (x0 + 16, y), "TAKEN THIS ROUND", 15, label, anchor="lm")
    y += 22
    if not obs.played:
        draw_text(draw, (x0 + 16, y + 8), "nothing yet", 16, PALETTE.text_faint, anchor="lm")
    taken = obs.played[-8:]
    col_w = (x1 - x0 - 32) / 2  # four lines of two columns, a name alone on its line
    for i, played in enumerate(taken):
        col, line = divmod(i, 4)
        tx = round(x0 + 16 + col * col_w)
        ty = y + line * 28
        alone = col == 1 or i + 4 >= len(taken)
        _card(draw, (tx, ty, tx + 40, ty + 24), played.card, size=14)
        draw_text(
            draw,
            (tx + 46, ty + 12),
            seat_name(names, played.seat),
            14,
            PALETTE.text_dim,
            anchor="lm",
            max_width=(x1 - 16 if alone else tx + col_w - 10) - (tx + 46),
        )
    y = y0 + 270
    result = obs.last_round
    draw_text(draw, (x0 + 16, y), "LAST MEASUREMENT", 15, label, anchor="lm")
    if result is None:
        draw_text(draw, (x0 + 16, y + 30), "none yet", 16, PALETTE.text_faint, anchor="lm")
        return
    draw_text(draw, (x1 - 16, y), f"round {result.round}", 14, PALETTE.text_faint, anchor="rm")
    # Columns from the right: the chips won or lost, the points, the values; the names have
    # what is left.
    seats = [s for s in range(min(obs.n_players, len(result.points))) if result.values[s]]
    bits = {
        s: " ".join(
            f"{v}²" if d else str(v)
            for v, d in zip(result.values[s], result.doubled[s], strict=True)
        )
        for s in seats
    }
    nets = {s: f"{'+' if result.net[s] > 0 else ''}{result.net[s]}" for s in seats}
    points = {s: plural(result.points[s], "pt", "pts") for s in seats}
    net_w = max((font(16, True).getlength(t) for t in nets.values()), default=0)
    points_right = x1 - 16 - max(net_w, 24) - 12
    points_w = max((font(15).getlength(t) for t in points.values()), default=0)
    bits_w = max((font(16).getlength(t) for t in bits.values()), default=0)
    bits_left = points_right - points_w - 14 - bits_w
    for seat in seats:
        ly = y + 28 + seat * 30
        won = seat in result.winners
        colour = PALETTE.accent if won else PALETTE.text
        draw_text(
            draw,
            (x0 + 16, ly),
            seat_name(names, seat),
            16,
            colour,
            anchor="lm",
            max_width=bits_left - 12 - (x0 + 16),
            bold=won,
        )
        draw_text(draw, (bits_left, ly), bits[seat], 16, PALETTE.text_dim, anchor="lm")
        net = result.net[seat]
        net_colour = PALETTE.good if net > 0 else (PALETTE.bad if net < 0 else PALETTE.text_dim)
        draw_text(
            draw, (points_right, ly), points[seat], 15, PALETTE.text_dim, anchor="rm",
        )  # fmt: skip
        draw_text(draw, (x1 - 16, ly), nets[seat], 16, net_colour, anchor="rm", bold=True)


def _draw_events(draw: ImageDraw.ImageDraw, events: list[str] | None) -> None:
    left, top, right, _ = EVENTS
    event_lines(
        draw, events, left=left + 18, right=right - 16, top=top + 20, count=4, size=15,
        spacing=20, wrapped=True,
    )  # fmt: skip


def render_qpoker(
    obs: QPokerObservation, names: list[str], events: list[str] | None = None
) -> Image.Image:
    """Draw the table as a 960×600 RGB image, exactly as much as ``obs`` lets its viewer see."""
    img = _background(is_revealed(obs)).copy()
    draw = ImageDraw.Draw(img)
    _draw_header(draw, obs)
    _draw_strip(draw, obs, names)
    _draw_seats(draw, obs, names)
    _draw_side(draw, obs, names)
    _draw_events(draw, events)
    return img


def render_qpoker_png(
    obs: QPokerObservation, names: list[str], events: list[str] | None = None
) -> bytes:
    """:func:`render_qpoker` encoded as PNG bytes."""
    return to_png(render_qpoker(obs, names, events))


__all__ = ["SIZE", "draw_qubit", "qubit_box", "render_qpoker", "render_qpoker_png"]
