"""The Flux table as one image, from the public (spectator) observation.

Left, on the felt: the turn-up card (trumps and the poker stake), the target dice, the
discard die and commander, the trick in play, and the shoe: cards left before the cut-off
with the ten burned cards face up. Right: the scoreboard, one row per seat with its score,
cards held, point dice, and the hand whenever the hands are exposed. The size is fixed so
edited Discord messages never jump. :func:`render_hand_png` draws a player's own hand for
their private view.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engines.cards import SUIT_SYMBOLS, card
from bot.engines.flux.engine import FluxObservation, HandScore
from bot.engines.flux.rules import poker_points
from bot.render.cards import card_size, fan_width, paste_card, paste_fan
from bot.render.common import (
    BODY_BOTTOM,
    HEADER_H,
    MARGIN,
    PALETTE,
    SIZE,
    WIDTH,
    draw_die,
    draw_text,
    draw_wrapped,
    ellipsize,
    fit_font,
    fit_names,
    font,
    panel,
    seat_name,
    table_canvas,
    to_png,
    triangle_right,
)
from bot.words import t

# No status strip: the panels start right under the header.
FELT = (MARGIN, HEADER_H + 12, 600, BODY_BOTTOM)
BOARD = (616, HEADER_H + 12, WIDTH - MARGIN, BODY_BOTTOM)
TURNUP_XY = (FELT[0] + 20, FELT[1] + 40)
CARD_W = 84
TRICK_W = 76
TRICK_TOP = 292  # the trick's label sits clear of the turn-up card above it
SHOE_TOP = 470
MINI_W = 36
HEADER_W = WIDTH - MARGIN - 8 - 110  # the header line's width, right of the title
FELT_INK = PALETTE.felt_text


def phase_text(phase: str) -> str:
    """The phase as the header names it (``flux-pic-phase``)."""
    return t("flux-pic-phase", phase=phase)


def turnup_box() -> tuple[int, int, int, int]:
    w, h = card_size(CARD_W)
    return TURNUP_XY[0], TURNUP_XY[1], TURNUP_XY[0] + w, TURNUP_XY[1] + h


def trick_box(index: int) -> tuple[int, int, int, int]:
    """Where the ``index``-th card of the trick is drawn (used by tests)."""
    w, h = card_size(TRICK_W)
    x = FELT[0] + 20 + index * (TRICK_W + 18)
    return x, TRICK_TOP, x + w, TRICK_TOP + h


def row_box(seat: int, n_players: int) -> tuple[int, int, int, int]:
    top, bottom = BOARD[1] + 40, BOARD[3] - 10
    height = min(84, (bottom - top) // max(1, n_players))
    y = top + seat * height
    return BOARD[0] + 8, y, BOARD[2] - 8, y + height - 6


def _draw_header(draw: ImageDraw.ImageDraw, obs: FluxObservation, names: list[str]) -> None:
    phase = phase_text(obs.phase)
    fixed = font(18).getlength(t("flux-pic-header", hand=obs.hand_no, dealer="", phase=phase))
    dealer = ellipsize(seat_name(names, obs.dealer), font(18), HEADER_W - fixed)  # the rest stays
    info = t("flux-pic-header", hand=obs.hand_no, dealer=dealer, phase=phase)
    draw_text(
        draw, (110, HEADER_H // 2 - 10), info, 18, PALETTE.text, anchor="lm", max_width=HEADER_W
    )
    variants = ", ".join(obs.variants) if obs.variants else t("flux-pic-no-variants")
    extra = t("flux-pic-variants", variants=variants, decks=obs.decks)
    draw_text(
        draw, (110, HEADER_H // 2 + 13), extra, 15, PALETTE.text_dim, anchor="lm", max_width=820
    )


def _draw_turnup(img: Image.Image, draw: ImageDraw.ImageDraw, obs: FluxObservation) -> None:
    x, y = TURNUP_XY
    draw_text(draw, (x, FELT[1] + 20), t("flux-pic-turnup"), 15, FELT_INK, anchor="lm")
    if obs.turnup is None:
        return
    paste_card(img, (x, y), obs.turnup, CARD_W)
    suit = card(obs.turnup).suit
    worth = poker_points(obs.turnup, obs.rules)
    text_x = x + CARD_W + 14
    draw_text(
        draw,
        (text_x, y + 20),
        t("flux-pic-trumps", suit=SUIT_SYMBOLS[suit]),
        20,
        PALETTE.text,
        anchor="lm",
    )
    draw_text(
        draw, (text_x, y + 48), t("flux-pic-poker-worth", points=worth), 18, FELT_INK, anchor="lm"
    )


def _draw_target(img: Image.Image, draw: ImageDraw.ImageDraw, obs: FluxObservation) -> None:
    x0 = FELT[0] + 270
    draw_text(draw, (x0, FELT[1] + 20), t("flux-pic-target"), 15, FELT_INK, anchor="lm")
    draw_text(draw, (x0, FELT[1] + 62), str(obs.target), 46, PALETTE.accent, anchor="lm", bold=True)
    x = x0 + 80
    for value in obs.target_dice:
        if 1 <= value <= 6 and len(obs.target_dice) == 3:
            draw_die(img, (x, FELT[1] + 40), value, "A", 44)
        else:
            panel(draw, (x, FELT[1] + 40, x + 44, FELT[1] + 84), (246, 238, 214), radius=8)
            draw_text(draw, (x + 22, FELT[1] + 62), str(value), 22, (38, 34, 30), anchor="mm")
        x += 54
    row = FELT[1] + 116
    if obs.discard_roll is not None:
        draw_text(draw, (x0, row + 22), t("flux-pic-discard-die"), 16, FELT_INK, anchor="lm")
        if obs.discard_roll <= 6:
            draw_die(img, (x0 + 100, row), obs.discard_roll, "B", 44)
        else:
            panel(draw, (x0 + 100, row, x0 + 144, row + 44), (30, 70, 160), radius=8)
            draw_text(
                draw, (x0 + 122, row + 22), str(obs.discard_roll), 22, PALETTE.text, anchor="mm"
            )
    extras = []
    if obs.max_tricks is not None:
        extras.append(t("flux-pic-tricks", won=obs.tricks_won, most=obs.max_tricks))
    if obs.bonus_trick is not None:
        extras.append(t("flux-pic-bonus-die", die=obs.bonus_trick[1], trick=obs.bonus_trick[0]))
    if obs.bullseye_bonus != 10:
        extras.append(t("flux-pic-bullseye", points=obs.bullseye_bonus))
    if extras:
        draw_text(
            draw, (x0, row + 62), " · ".join(extras), 15, FELT_INK, anchor="lm", max_width=300
        )


def _draw_trick(
    img: Image.Image, draw: ImageDraw.ImageDraw, obs: FluxObservation, names: list[str]
) -> None:
    draw_text(draw, (FELT[0] + 20, TRICK_TOP - 20), t("flux-pic-trick"), 15, FELT_INK, anchor="lm")
    if obs.commander is not None:
        text = t("flux-pic-command", name=seat_name(names, obs.commander))
        draw_text(draw, (FELT[0] + 130, TRICK_TOP - 20), text, 16, PALETTE.accent, anchor="lm")
    for i, play in enumerate(obs.trick):
        box = trick_box(i)
        paste_card(img, (box[0], box[1]), play.card, TRICK_W)
        draw_wrapped(
            draw,
            ((box[0] + box[2]) / 2, box[3] + 12),
            seat_name(names, play.seat),
            14,
            PALETTE.text,
            width=TRICK_W + 14,
        )
    if not obs.trick and obs.phase == "trick" and obs.turn is not None:
        text = t("flux-pic-leads", name=seat_name(names, obs.turn))
        draw_text(draw, (FELT[0] + 20, TRICK_TOP + 50), text, 20, PALETTE.text_dim, anchor="lm")


def _draw_shoe(img: Image.Image, draw: ImageDraw.ImageDraw, obs: FluxObservation) -> None:
    x = FELT[0] + 20
    text = t("flux-pic-shoe", count=obs.cards_left, used=obs.out_count)
    draw_text(draw, (x, SHOE_TOP), text, 18, PALETTE.text, anchor="lm")
    draw_text(draw, (x, SHOE_TOP + 28), t("flux-pic-burned"), 15, FELT_INK, anchor="lm")
    paste_fan(img, (x + 80, SHOE_TOP + 22), list(obs.burned), 40, overlap=0.35)


def _draw_board(
    img: Image.Image, draw: ImageDraw.ImageDraw, obs: FluxObservation, names: list[str]
) -> None:
    panel(draw, BOARD, PALETTE.panel, radius=16, outline=PALETTE.panel_edge)
    draw_text(
        draw,
        (BOARD[0] + 16, BOARD[1] + 20),
        t("flux-pic-scores"),
        15,
        PALETTE.text_dim,
        anchor="lm",
    )
    for seat in range(obs.n_players):
        box = row_box(seat, obs.n_players)
        acting = seat in obs.to_act
        won = obs.phase == "over" and seat == obs.winner
        fill = PALETTE.win_row if won else (PALETTE.current_row if acting else PALETTE.panel_alt)
        panel(draw, box, fill, radius=10, outline=PALETTE.gold if won else None)
        x0, y0, x1, _ = box
        name_colour = PALETTE.accent if acting or won else PALETTE.text
        if not obs.active[seat]:
            name_colour = PALETTE.text_faint
        if acting:
            triangle_right(draw, (x0 + 12, y0 + 16), 12, PALETTE.accent)
        score_w = draw_text(
            draw,
            (x1 - 10, y0 + 16),
            f"{obs.scores[seat]:,}",
            22,
            PALETTE.text,
            anchor="rm",
            bold=True,
        )
        tags = []
        if seat == obs.dealer and obs.phase != "over":
            tags.append(t("flux-pic-tag-dealer"))
        if seat == obs.commander:
            tags.append("★ " + t("flux-pic-tag-command"))
        if obs.answered[seat]:
            tags.append("✓ " + t("flux-pic-tag-chosen"))
        tag_text = "  ·  ".join(tags)
        tag_w = font(13).getlength(tag_text) + 12 if tags else 0
        room = x1 - x0 - 24 - score_w - 18
        name_w = draw_text(
            draw, (x0 + 24, y0 + 16), seat_name(names, seat), 17, name_colour, anchor="lm",
            max_width=max(60, room - tag_w),
        )  # fmt: skip
        if tags:
            draw_text(
                draw, (x0 + 24 + name_w + 10, y0 + 17), tag_text, 13, PALETTE.text_dim,
                anchor="lm", max_width=room - name_w - 10,
            )  # fmt: skip
        if obs.phase != "over" or not obs.ledger:
            _draw_row_detail(img, draw, obs, seat, box)


def _draw_row_detail(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    obs: FluxObservation,
    seat: int,
    box: tuple[int, int, int, int],
) -> None:
    x0, y0, x1, y1 = box
    if not obs.active[seat]:
        draw_text(
            draw, (x0 + 24, y0 + 40), t("flux-pic-eliminated"), 14, PALETTE.text_faint, anchor="lm"
        )
        return
    shown = obs.shown[seat]
    dice = obs.point_dice[seat]
    dice_text = t("flux-pic-dice", dice=" ".join(map(str, dice))) if dice else ""
    if shown is not None and y1 - y0 >= 60:
        mini = min(MINI_W, round((y1 - y0 - 30) / 1.4))
        paste_fan(img, (x0 + 24, y0 + 28), list(shown), mini, overlap=0.45)
        line = _result_line(obs, seat)
        draw_text(
            draw,
            (x0 + 24 + fan_width(len(shown), mini, 0.45) + 8, y0 + 44),
            " · ".join(t for t in (line, dice_text) if t),
            14,
            PALETTE.text_dim,
            anchor="lm",
            max_width=x1 - x0 - 40 - fan_width(len(shown), mini, 0.45),
        )
        return
    parts = [t("flux-pic-cards", count=obs.hand_sizes[seat])]
    if dice_text:
        parts.append(dice_text)
    line = _result_line(obs, seat)
    if shown is not None and line:
        parts.append(line)
    draw_text(
        draw, (x0 + 24, y0 + 40), "  ·  ".join(parts), 14, PALETTE.text_dim, anchor="lm",
        max_width=x1 - x0 - 30,
    )  # fmt: skip


def _result_line(obs: FluxObservation, seat: int) -> str:
    result = obs.last_result
    if result is None or result.hand_no != obs.hand_no:
        return ""
    for line in result.seats:
        if line.seat == seat and line.value is not None:
            return t("flux-pic-result", value=line.value, distance=line.distance)
    return ""


def _draw_banner(draw: ImageDraw.ImageDraw, obs: FluxObservation, names: list[str]) -> None:
    if obs.phase != "over":
        return
    box = banner_box(obs)
    panel(draw, box, PALETTE.win, radius=12)
    width = box[2] - box[0] - 24
    if obs.winner is None:
        text = t("flux-pic-drawn")
        fnt = font(24, True)
    else:
        points = obs.scores[obs.winner]
        rest = t("flux-pic-wins", name="", points=points)  # the words around the name
        name = seat_name(names, obs.winner)
        fnt = fit_font(t("flux-pic-wins", name=name, points=points), (24, 21, 18), width, bold=True)
        fitted = fit_names([name], fnt, width - fnt.getlength(rest) - 4)
        text = t("flux-pic-wins", name=fitted, points=points)
    draw_text(
        draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, int(fnt.size), PALETTE.win_ink,
        anchor="mm", max_width=width, bold=True,
    )  # fmt: skip


def banner_box(obs: FluxObservation) -> tuple[int, int, int, int]:
    """The winner's banner at the end: above the score sheet (or, for a game saved before
    the sheet was kept, where the trick was)."""
    if obs.ledger:
        return FELT[0] + 16, FELT[1] + 14, FELT[2] - 16, FELT[1] + 64
    return FELT[0] + 20, TRICK_TOP - 6, FELT[2] - 20, TRICK_TOP + 60


SHEET_TOP = FELT[1] + 80
SHEET_HEAD = 38  # the players' names over the columns, on up to two lines
SHEET_LABEL_W = 118
SHEET_ROW = 22
SHEET_KINDS = (
    ("tricks", "tricks"),
    ("fluxes", "fluxes"),
    ("value", "value"),
    ("poker", "poker"),
)


def sheet_rows(ledger: list[HandScore], room: int) -> list[tuple[str, list[int]]]:
    """The score sheet's hand rows (label, points per seat), at most ``room`` of them: with
    more hands than that, the earliest are added up in one row."""
    rows = [
        (t("flux-pic-sheet-hand", hand=h.hand_no), [h.total(s) for s in range(len(h.tricks))])
        for h in ledger
    ]
    if len(rows) <= room:
        return rows
    merged = ledger[: len(rows) - room + 1]
    n = len(merged[0].tricks)
    total = [sum(h.total(s) for h in merged) for s in range(n)]
    label = t("flux-pic-sheet-hands", first=merged[0].hand_no, last=merged[-1].hand_no)
    return [(label, total), *rows[len(merged) :]]


def sheet_column(seat: int, n_players: int) -> tuple[int, int]:
    """Left and right edge of ``seat``'s column on the score sheet."""
    left = FELT[0] + 20 + SHEET_LABEL_W
    width = (FELT[2] - 20 - left) / max(1, n_players)
    return round(left + seat * width), round(left + (seat + 1) * width)


def _draw_score_sheet(draw: ImageDraw.ImageDraw, obs: FluxObservation, names: list[str]) -> None:
    """At the end: every hand's points per player, then the totals by where they came from."""
    x0, x1 = FELT[0] + 20, FELT[2] - 20
    n = obs.n_players
    fixed = len(SHEET_KINDS) * SHEET_ROW + 30 + SHEET_HEAD + 12  # categories, total, names
    room = max(1, (FELT[3] - 16 - SHEET_TOP - fixed) // SHEET_ROW)
    y = SHEET_TOP
    draw_text(draw, (x0, y + 11), t("flux-pic-sheet"), 14, FELT_INK, anchor="lm")
    for seat in range(n):
        left, right = sheet_column(seat, n)
        size = 15 if right - left >= 90 else 13
        colour = PALETTE.accent if seat == obs.winner else PALETTE.text
        draw_wrapped(
            draw, ((left + right) / 2, y + 11), seat_name(names, seat), size, colour,
            width=right - left - 6, bold=True, smaller=(12, 11),
        )  # fmt: skip
    y += SHEET_HEAD

    def row(label: str, values: list[int], *, bold: bool = False, dim: bool = False) -> None:
        """One line of the sheet; a zero shows as a faint dot, except in the total."""
        nonlocal y
        mid = y + SHEET_ROW / 2
        ink = PALETTE.text_dim if dim else PALETTE.text
        draw_text(draw, (x0, mid), label, 15, ink, anchor="lm", max_width=SHEET_LABEL_W - 6,
                  bold=bold)  # fmt: skip
        for seat in range(n):
            left, right = sheet_column(seat, n)
            value = values[seat] if seat < len(values) else 0
            text, colour = (f"{value:,}", ink) if value or bold else ("·", PALETTE.text_faint)
            if bold and seat == obs.winner:
                colour = PALETTE.accent
            draw_text(draw, ((left + right) / 2, mid), text, 15, colour, anchor="mm",
                      max_width=right - left - 6, bold=bold)  # fmt: skip
        y += SHEET_ROW

    # A game begun before the sheet was kept shows its earlier points in one line.
    unsheeted = [obs.scores[s] - sum(h.total(s) for h in obs.ledger) for s in range(n)]
    earlier = [(t("flux-pic-sheet-earlier"), unsheeted)] if any(unsheeted) else []
    rows = earlier + sheet_rows(obs.ledger, room - len(earlier))
    for label, values in rows:
        row(label, values)
    y += 6
    draw.line((x0, y, x1, y), fill=(60, 120, 96), width=1)
    y += 6
    for label, kind in SHEET_KINDS:
        row(
            t("flux-pic-sheet-kind", kind=label),
            [sum(getattr(h, kind)[s] for h in obs.ledger) for s in range(n)],
            dim=True,
        )
    draw.line((x0, y + 3, x1, y + 3), fill=(60, 120, 96), width=1)
    y += 8
    row(t("flux-pic-sheet-total"), list(obs.scores), bold=True)


def render_flux(obs: FluxObservation, names: list[str]) -> Image.Image:
    img = table_canvas(t("flux-pic-title"), title_x=MARGIN + 4)
    draw = ImageDraw.Draw(img)
    _draw_header(draw, obs, names)
    panel(draw, FELT, PALETTE.felt, radius=16, outline=PALETTE.felt_edge, width=3)
    if obs.phase == "over" and obs.ledger:
        _draw_banner(draw, obs, names)
        _draw_score_sheet(draw, obs, names)
    else:
        _draw_turnup(img, draw, obs)
        _draw_target(img, draw, obs)
        _draw_trick(img, draw, obs, names)
        _draw_shoe(img, draw, obs)
        _draw_banner(draw, obs, names)
    _draw_board(img, draw, obs, names)
    return img


def render_flux_png(obs: FluxObservation, names: list[str], log: list[str] | None = None) -> bytes:
    return to_png(render_flux(obs, names))


def render_hand_png(codes: list[str], selected: list[int] | None = None) -> bytes:
    """A player's own hand for their private view; selected cards are raised and ringed."""
    chosen = set(selected or [])
    width = 84
    step = width + 12
    _, h = card_size(width)
    img = Image.new("RGB", (max(1, len(codes)) * step + 20, h + 44), PALETTE.bg)
    for i, code in enumerate(codes):
        y = 10 if i in chosen else 30
        paste_card(
            img, (14 + i * step, y), code, width, highlight=PALETTE.accent if i in chosen else None
        )
    return to_png(img)


__all__ = [
    "SHEET_HEAD",
    "SIZE",
    "render_flux",
    "render_flux_png",
    "render_hand_png",
    "row_box",
    "trick_box",
    "turnup_box",
]
