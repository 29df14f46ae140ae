"""The quantum dice table as one image: rolled dice, kept tray, turn score and scoreboard.

Pure: :func:`render_qdice` turns a :class:`~bot.engines.qdice.engine.QDiceObservation` plus the seat
names (and optionally a few recent event lines) into a fixed-size ``PIL.Image``. The size
never changes during a game, so edited Discord messages do not jump.
"""

from __future__ import annotations

import functools

from PIL import Image, ImageDraw

from bot.engines.qdice.engine import Die, QDiceObservation
from bot.render.common import (
    BODY_BOTTOM,
    BODY_TOP,
    HEADER_H,
    MARGIN,
    PALETTE,
    SIZE,
    STRIP,
    WIDTH,
    colour_chip,
    draw_die,
    draw_text,
    drawn_once,
    event_lines,
    fmt_int,
    font,
    header_info,
    panel,
    progress_bar,
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
from bot.render.parts import Part, PartMemo, compose
from bot.words import current, t, words_for

# Layout (pixels). Left: the felt with the dice; right: the scoreboard.
FELT = (MARGIN, BODY_TOP, 600, BODY_BOTTOM)
BOARD = (616, BODY_TOP, WIDTH - MARGIN, BODY_BOTTOM)

DIE = 72  # rolled die size
DIE_GAP = 20
DIE_TOP = 190  # top edge of an unselected rolled die
RAISE = 16  # how far a selected die is lifted
LABEL_Y = DIE_TOP + DIE + 22  # centre line of the index / colour labels under each die

STATS_TOP, STATS_BOTTOM = 318, 380
TRAY = (FELT[0] + 20, 394, FELT[2] - 20, 478)
KEPT_DIE = 42
KEPT_GAP = 10
KEPT_X = TRAY[0] + 176
EVENTS_TOP = 490
EVENT_LINES = 3

ROWS_TOP = 168
ROWS_BOTTOM = BOARD[3] - 44
MAX_ROW_H = 64

# The parts the picture is drawn in (see bot.render.parts): boxes that do not overlap, each
# holding everything its part draws (PIL's boxes include their last row and column).
HEADER_BOX = (WIDTH // 2, 0, WIDTH, HEADER_H)
STRIP_BOX = (STRIP[0], STRIP[1], STRIP[2] + 1, STRIP[3] + 1)
SIX_BOX = (FELT[2] - 150, FELT[1] + 8, FELT[2] - 19, FELT[1] + 33)
SLOT_LEFT = 7  # a ringed die reaches this far left of its box; its slot is DIE + DIE_GAP wide
DICE_ROW = (FELT[0] + 4, DIE_TOP - RAISE - SLOT_LEFT, FELT[2] - 4, LABEL_Y + 14)
STATS_BOX = (FELT[0] + 20, STATS_TOP, FELT[2] - 19, STATS_BOTTOM + 1)
TRAY_BOX = (TRAY[0], TRAY[1], TRAY[2] + 1, TRAY[3] + 1)
EVENTS_BOX = (FELT[0] + 4, EVENTS_TOP, FELT[2] - 4, FELT[3] - 4)
ROWS_BOX = (BOARD[0] + 4, ROWS_TOP, BOARD[2] - 3, BOARD[3] - 3)


def _die_row_x(count: int) -> int:
    """Left edge of the first rolled die so that ``count`` dice sit centred on the felt."""
    width = count * DIE + max(0, count - 1) * DIE_GAP
    return (FELT[0] + FELT[2] - width) // 2


def die_box(index: int, count: int, selected: bool) -> tuple[int, int, int, int]:
    """Bounding box of rolled die ``index`` of ``count`` (used by tests to sample pixels)."""
    x = _die_row_x(count) + index * (DIE + DIE_GAP)
    y = DIE_TOP - (RAISE if selected else 0)
    return x, y, x + DIE, y + DIE


def kept_box(index: int) -> tuple[int, int, int, int]:
    """Bounding box of kept die ``index`` in the tray."""
    x = KEPT_X + index * (KEPT_DIE + KEPT_GAP)
    y = TRAY[1] + 9
    return x, y, x + KEPT_DIE, y + KEPT_DIE


STAT_LABELS = ("qdice-picture-selection", "qdice-picture-turn-total", "qdice-picture-after-banking")
"""The messages of the three boxes' labels."""


def _stat_boxes() -> list[tuple[int, int, int, int]]:
    left, right = FELT[0] + 20, FELT[2] - 20
    gap = 12
    width = (right - left - 2 * gap) // 3
    return [
        (left + i * (width + gap), STATS_TOP, left + i * (width + gap) + width, STATS_BOTTOM)
        for i in range(3)
    ]


@drawn_once
def _background(locale: str) -> Image.Image:
    """The parts of the table that never change, drawn once per process and language."""
    words = words_for(locale)
    img = table_canvas(words("qdice-picture-title"), title_x=MARGIN + 64)
    draw = ImageDraw.Draw(img)
    # Title: two die chips then the name.
    colour_chip(draw, (MARGIN + 14, HEADER_H // 2), "A", size=18)
    colour_chip(draw, (MARGIN + 42, HEADER_H // 2), "B", size=18)

    panel(draw, FELT, PALETTE.felt, radius=16, outline=PALETTE.felt_edge, width=3)
    on_table = words("qdice-picture-on-table")
    draw_text(draw, (FELT[0] + 20, FELT[1] + 20), on_table, 16, PALETTE.felt_text, anchor="lm")
    for box, label in zip(_stat_boxes(), STAT_LABELS, strict=True):
        panel(draw, box, PALETTE.tray, radius=10)
        draw_text(
            draw,
            ((box[0] + box[2]) / 2, box[1] + 15),
            words(label),
            16,
            (160, 200, 182),
            anchor="mm",
        )
    panel(draw, TRAY, PALETTE.tray, radius=12)
    draw_text(
        draw,
        (TRAY[0] + 16, (TRAY[1] + TRAY[3]) / 2),
        words("qdice-picture-kept"),
        16,
        (160, 200, 182),
        anchor="lm",
    )

    panel(draw, BOARD, PALETTE.panel, radius=16, outline=PALETTE.panel_edge, width=1)
    scores = words("qdice-picture-scores")
    draw_text(draw, (BOARD[0] + 16, BOARD[1] + 20), scores, 16, PALETTE.text_dim, anchor="lm")
    return img


def _draw_header(draw: ImageDraw.ImageDraw, obs: QDiceObservation) -> None:
    header_info(draw, t("qdice-picture-header", target=obs.target, entry=obs.entry))


def _draw_strip(draw: ImageDraw.ImageDraw, obs: QDiceObservation, names: list[str]) -> None:
    """Whose turn it is, or the final-round / winner banner."""
    if obs.winner is not None:
        score = obs.scores[obs.winner] if obs.winner < len(obs.scores) else 0
        who = [seat_name(names, obs.winner)]
        strip_winner(draw, t("qdice-picture-won", score=score), 24, names=who)
        return
    if obs.final_round:
        parts = []
        if obs.contingent_winner is not None:
            lead = obs.contingent_winner
            score = obs.scores[lead] if lead < len(obs.scores) else 0
            parts.append(t("qdice-picture-leads", player=seat_name(names, lead), score=score))
        if obs.current is not None:
            parts.append(t("qdice-picture-last-turn", player=seat_name(names, obs.current)))
        strip_alert(draw, t("qdice-picture-final-round"), "  ·  ".join(parts))
        return
    if obs.current is None:
        strip_note(draw, t("qdice-picture-waiting"))
        return
    strip_turn(draw, seat_name(names, obs.current), t("qdice-picture-to-play"))


def _draw_six(draw: ImageDraw.ImageDraw) -> None:
    """The "six dice rolled" chip at the felt's top right."""
    right = FELT[2] - 20
    chip = (right - 130, FELT[1] + 8, right, FELT[1] + 32)
    panel(draw, chip, PALETTE.tray, radius=8)
    draw_text(
        draw,
        ((chip[0] + chip[2]) / 2, (chip[1] + chip[3]) / 2),
        t("qdice-picture-six-rolled"),
        16,
        PALETTE.felt_text,
        anchor="mm",
    )


def _draw_no_dice(draw: ImageDraw.ImageDraw, obs: QDiceObservation) -> None:
    message = t("qdice-picture-game-over" if obs.winner is not None else "qdice-picture-no-dice")
    draw_text(
        draw,
        ((FELT[0] + FELT[2]) / 2, DIE_TOP + DIE / 2),
        message,
        26,
        PALETTE.felt_text,
        anchor="mm",
    )


def _draw_die_slot(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    index: int,
    count: int,
    die: Die,
    is_selected: bool,
) -> None:
    """Rolled die ``index`` of ``count``: raised with a gold ring when selected, its colour
    chip and number underneath."""
    x0, y0, x1, _ = die_box(index, count, is_selected)
    shadow_offset = (5, 4 + RAISE) if is_selected else (3, 4)
    draw_die(
        img,
        (x0, y0),
        die.value,
        die.colour,
        DIE,
        ring=PALETTE.accent if is_selected else None,
        shadow_offset=shadow_offset,
    )
    cx = (x0 + x1) / 2
    colour_chip(draw, (cx - 14, LABEL_Y), die.colour, size=16)
    if is_selected:
        draw.ellipse((cx + 3, LABEL_Y - 12, cx + 27, LABEL_Y + 12), fill=PALETTE.accent)
        draw_text(
            draw,
            (cx + 15, LABEL_Y + 1),
            str(index + 1),
            17,
            (30, 22, 4),
            anchor="mm",
            bold=True,
        )
    else:
        draw.ellipse(
            (cx + 3, LABEL_Y - 12, cx + 27, LABEL_Y + 12), outline=(120, 170, 150), width=2
        )
        draw_text(draw, (cx + 15, LABEL_Y + 1), str(index + 1), 17, (210, 230, 220), anchor="mm")


def _dice_parts(obs: QDiceObservation, locale: str) -> list[Part]:
    """The rolled dice, one part per die (its slot: the die raised or not, its ring and
    shadow, its labels), or the message where there are none."""

    def six(img: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        if obs.rolled_six:
            _draw_six(draw)

    parts = [Part("six", SIX_BOX, (obs.rolled_six, locale), six)]
    count = len(obs.dice)
    if count == 0:
        message = (obs.winner is not None, locale)
        return [*parts, Part("no dice", DICE_ROW, message, lambda i, d: _draw_no_dice(d, obs))]
    chosen = set(obs.selected)
    for index, die in enumerate(obs.dice):
        is_selected = index in chosen
        x = die_box(index, count, False)[0]
        parts.append(
            Part(
                "die",
                (x - SLOT_LEFT, DICE_ROW[1], x - SLOT_LEFT + DIE + DIE_GAP, DICE_ROW[3]),
                (index, count, die.value, die.colour, is_selected),
                functools.partial(_slot, index=index, count=count, die=die, on=is_selected),
            )
        )
    return parts


def _slot(
    img: Image.Image, draw: ImageDraw.ImageDraw, *, index: int, count: int, die: Die, on: bool
) -> None:
    _draw_die_slot(img, draw, index, count, die, on)


def _draw_stats(draw: ImageDraw.ImageDraw, obs: QDiceObservation) -> None:
    """Selection score, turn total and what the player would have after banking."""
    sel_box, turn_box, bank_box = _stat_boxes()
    value_y = STATS_BOTTOM - 20

    def value(
        box: tuple[int, int, int, int], text: str, colour: tuple[int, int, int], size: int = 26
    ) -> None:
        draw_text(
            draw,
            ((box[0] + box[2]) / 2, value_y),
            text,
            size,
            colour,
            anchor="mm",
            max_width=box[2] - box[0] - 12,
            bold=True,
        )

    if not obs.selected:
        value(sel_box, "-", PALETTE.text_dim)
    elif obs.selection_score is None:
        value(sel_box, t("qdice-picture-no-score"), PALETTE.warn, size=19)
    else:
        value(sel_box, fmt_int(obs.selection_score), PALETTE.accent)
    value(turn_box, fmt_int(obs.turn_total), PALETTE.text)

    seat = obs.current
    if seat is None or seat >= len(obs.scores) or obs.winner is not None:
        value(bank_box, "-", PALETTE.text_dim)
        return
    at_stake = obs.turn_total + (obs.selection_score or 0)
    on_board = seat < len(obs.on_board) and obs.on_board[seat]
    if not on_board and at_stake < obs.entry:
        value(bank_box, t("qdice-picture-need", entry=obs.entry), PALETTE.text_dim, size=20)
    else:
        value(bank_box, fmt_int(obs.scores[seat] + at_stake), PALETTE.good)


def _draw_kept(img: Image.Image, draw: ImageDraw.ImageDraw, obs: QDiceObservation) -> None:
    if not obs.kept:
        nothing = t("qdice-picture-nothing-kept")
        draw_text(
            draw, (KEPT_X, (TRAY[1] + TRAY[3]) / 2), nothing, 18, (120, 160, 142), anchor="lm"
        )
        return
    for index, die in enumerate(obs.kept[:6]):
        x0, y0, _, _ = kept_box(index)
        draw_die(img, (x0, y0), die.value, die.colour, KEPT_DIE, shadow_offset=(2, 3))
        centre = x0 + KEPT_DIE / 2
        letter = t("qdice-colour", colour=die.colour)
        draw_text(draw, (centre, TRAY[3] - 13), letter, 16, (190, 220, 206), anchor="mm")


def _draw_events(draw: ImageDraw.ImageDraw, events: list[str] | None) -> None:
    event_lines(
        draw,
        events,
        left=FELT[0] + 24,
        right=FELT[2] - 20,
        top=EVENTS_TOP + 14,
        count=EVENT_LINES,
        spacing=30,
        colours=((236, 244, 240), (168, 204, 188)),
    )


def _draw_board(draw: ImageDraw.ImageDraw, obs: QDiceObservation, names: list[str]) -> None:
    """Scoreboard rows: turn marker, name, banked score, progress bar toward the target."""
    x0, _, x1, _ = BOARD
    n = max(1, obs.n_players)
    row_h = min(MAX_ROW_H, (ROWS_BOTTOM - ROWS_TOP) // n)
    name_size = 20 if row_h >= 56 else 18
    score_size = name_size - 2
    scores = [obs.scores[s] if s < len(obs.scores) else 0 for s in range(obs.n_players)]
    score_w = max(font(score_size, True).getlength(fmt_int(v)) for v in [0, *scores])
    for seat in range(obs.n_players):
        top = ROWS_TOP + seat * row_h
        row = (x0 + 8, top + 2, x1 - 8, top + row_h - 2)
        is_current = seat == obs.current
        is_winner = seat == obs.winner
        if not seat_row(draw, row, winner=is_winner, current=is_current) and seat % 2:
            panel(draw, row, PALETTE.panel_alt, radius=10)

        score = obs.scores[seat] if seat < len(obs.scores) else 0
        on_board = seat < len(obs.on_board) and obs.on_board[seat]
        text_y = top + row_h * 0.36
        bar_y = top + row_h * 0.74
        bar_half = 4 if row_h >= 56 else 3

        seat_marker(
            draw,
            (x0 + 24, text_y),
            winner=is_winner,
            current=is_current,
            leader=seat == obs.contingent_winner,
        )

        # The name has the first line (and the "done" tag beside it in the final round);
        # the banked score stands at the end of the bar under it.
        right = x1 - 20
        name_left = x0 + 40
        draw_text(
            draw, (right, bar_y), fmt_int(score), score_size, PALETTE.text, anchor="rm", bold=True
        )
        done = (
            obs.final_round and seat < len(obs.finished_last_turn) and obs.finished_last_turn[seat]
        )
        done_tag = t("qdice-picture-done")
        tag_w = font(16).getlength(done_tag) + 12
        name_right = right - (tag_w + 8 if done else 0)
        colour = PALETTE.accent if is_current else PALETTE.text
        name_w = draw_text(
            draw,
            (name_left, text_y),
            seat_name(names, seat),
            name_size,
            colour,
            anchor="lm",
            max_width=name_right - name_left,
            bold=is_current or is_winner,
        )
        if done:
            tx = name_left + name_w + 8
            panel(draw, (tx, text_y - 11, tx + tag_w, text_y + 11), (70, 76, 92), radius=6)
            draw_text(draw, (tx + tag_w / 2, text_y), done_tag, 16, PALETTE.text_dim, anchor="mm")

        fraction = score / obs.target if obs.target else 0.0
        fill = PALETTE.good if on_board else PALETTE.bar_off
        if is_winner:
            fill = PALETTE.gold
        bar = (name_left, bar_y - bar_half, right - score_w - 10, bar_y + bar_half)  # alike
        progress_bar(draw, bar, fraction, fill)

    # Legend.
    ly = BOARD[3] - 22
    lx: float = x0 + 18
    draw.rounded_rectangle((lx, ly - 4, lx + 18, ly + 4), radius=4, fill=PALETTE.good)
    w = draw_text(
        draw, (lx + 24, ly), t("qdice-picture-on-board"), 16, PALETTE.text_dim, anchor="lm"
    )
    lx += 24 + w + 16
    draw.rounded_rectangle((lx, ly - 4, lx + 18, ly + 4), radius=4, fill=PALETTE.bar_off)
    draw_text(
        draw,
        (lx + 24, ly),
        t("qdice-picture-not-on-board"),
        16,
        PALETTE.text_dim,
        anchor="lm",
        max_width=BOARD[2] - lx - 30,
    )


def render_qdice(
    obs: QDiceObservation,
    names: list[str],
    events: list[str] | None = None,
    memo: PartMemo | None = None,
) -> Image.Image:
    """Draw the whole quantum dice table as a 960×600 RGB image.

    ``names`` holds one display name per seat (missing or unreadable names fall back to
    "Player N"); ``events`` are recent public event lines, the last three are shown.
    Drawn in parts (:mod:`bot.render.parts`): what did not change since a picture drawn
    recently is pasted from ``memo`` (the shared one unless given).
    """
    shown = [seat_name(names, seat) for seat in range(obs.n_players)]
    locale = current().locale  # the parts with words are drawn again in another language
    scores, on_board = tuple(obs.scores), tuple(obs.on_board)
    recent = tuple(events[-EVENT_LINES:]) if events else ()
    parts = [
        Part(
            "header",
            HEADER_BOX,
            (obs.target, obs.entry, locale),
            lambda i, d: _draw_header(d, obs),
        ),
        Part(
            "strip",
            STRIP_BOX,
            (
                obs.winner,
                obs.final_round,
                obs.contingent_winner,
                obs.current,
                scores,
                locale,
                *shown,
            ),
            lambda i, d: _draw_strip(d, obs, names),
        ),
        *_dice_parts(obs, locale),
        Part(
            "stats",
            STATS_BOX,
            (
                bool(obs.selected),
                obs.selection_score,
                obs.turn_total,
                obs.current,
                obs.winner,
                scores,
                on_board,
                obs.entry,
                locale,
            ),
            lambda i, d: _draw_stats(d, obs),
        ),
        Part(
            "kept",
            TRAY_BOX,
            (locale, *((die.value, die.colour) for die in obs.kept[:6])),
            lambda i, d: _draw_kept(i, d, obs),
        ),
        Part("events", EVENTS_BOX, recent, lambda i, d: _draw_events(d, list(recent))),
        Part(
            "board",
            ROWS_BOX,
            (
                obs.n_players,
                scores,
                on_board,
                obs.current,
                obs.winner,
                obs.contingent_winner,
                obs.final_round,
                tuple(obs.finished_last_turn),
                obs.target,
                locale,
                *shown,
            ),
            lambda i, d: _draw_board(d, obs, names),
        ),
    ]
    return compose(_background(locale), parts, memo)


def render_qdice_png(
    obs: QDiceObservation, names: list[str], events: list[str] | None = None
) -> bytes:
    """:func:`render_qdice` encoded as PNG bytes."""
    return to_png(render_qdice(obs, names, events))


__all__ = ["SIZE", "die_box", "kept_box", "render_qdice", "render_qdice_png"]
