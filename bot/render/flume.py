"""The Flume table as one image, and a seat's own hand as a strip of cards.

Pure functions of a :class:`~bot.engines.flume.engine.FlumeObservation`: the public table is drawn
from the spectator's observation, so it can only show what everyone may see (the cards in
the trick, who took the last one, points taken, the bid, trumps, scores, the dealer and who is
to act). A finished game's revealed observation also carries every hand, drawn small by
each seat's plate. Cards are drawn 84 px wide so they stay readable at Discord's half-size preview; the
four-colour deck is a table option. The table is drawn in parts (header, strip, each plate,
the felt between the plates, the side column; see :mod:`bot.render.parts`), so a move redraws
only what it changed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from PIL import Image, ImageDraw

from bot.engines.cards import SUIT_SYMBOLS
from bot.engines.flume.engine import FlumeObservation, card_args
from bot.engines.flume.rules import HAND_SIZE, left_bower, right_bower
from bot.render.cards import card_size, fan_width, paste_card, paste_fan, suit_colour
from bot.render.common import (
    BODY_BOTTOM,
    BODY_TOP,
    HEADER_H,
    MARGIN,
    PALETTE,
    RGB,
    SIZE,
    STRIP,
    WIDTH,
    clean_text,
    draw_text,
    drawn_once,
    ellipsize,
    fit_font,
    font,
    header_info,
    not_recording,
    panel,
    progress_bar,
    seat_name,
    strip_note,
    strip_turn,
    strip_winner,
    table_canvas,
    text_origin,
    to_png,
)
from bot.render.parts import Part, PartMemo, compose
from bot.words import current, t

FELT = (MARGIN, BODY_TOP, 636, BODY_BOTTOM)
SIDE = (652, BODY_TOP, WIDTH - MARGIN, BODY_BOTTOM)
CARD_W = 84
CARD_H = card_size(CARD_W)[1]
PLATE_W, PLATE_H = 176, 60
FELT_TEXT = PALETTE.felt_text

# Where each seat sits, counted round from the viewer's seat at the bottom (dealer's left is
# the next seat, drawn to the left). Plate centres, then trick-card centres.
PLATES = {
    4: [(326, 550), (108, 370), (326, 164), (544, 370)],
    5: [(326, 550), (108, 430), (186, 164), (466, 164), (544, 430)],
}
TRICK_SPOTS = {
    4: [(326, 440), (240, 370), (326, 262), (412, 370)],
    5: [(326, 440), (240, 390), (270, 272), (382, 272), (412, 390)],
}

# A finished game's replay shows every hand: a small fan beside or under each plate, clear of
# the trick. Per position: the fan's left edge ("l") or right edge ("r"), and its top.
MINI_W = 40
MINI_OVERLAP = 0.45
HAND_SPOTS: dict[int, list[tuple[int, str, int]]] = {
    4: [(424, "l", 524), (22, "l", 406), (424, "l", 139), (630, "r", 406)],
    5: [(424, "l", 524), (22, "l", 465), (76, "l", 200), (576, "r", 200), (630, "r", 465)],
}

# The parts the picture is drawn in (see bot.render.parts): boxes that do not overlap, each
# holding everything its part draws (PIL's boxes here end one past their last row and column;
# a drawn rectangle includes its last ones). The header's facts start right of the title.
HEADER_BOX = (130, 0, WIDTH, HEADER_H)
STRIP_BOX = (STRIP[0], STRIP[1], STRIP[2] + 1, STRIP[3] + 1)
SIDE_BOX = (SIDE[0], SIDE[1], SIDE[2] + 1, SIDE[3] + 1)
# What lies on the felt between the plates (the trick, the last trick or the centre line, and
# in a replay every hand) is one layer, shown through boxes that fit between the plates: a
# band across the felt under the top plates, down to the side plates, and a column between
# the side plates, down to the bottom plate. Hands outside those get a box each.
_FELT_LEFT, _FELT_RIGHT = FELT[0] + 4, FELT[2] - 3  # inside the felt's 3 px edge
MIDDLE_BOXES = {
    4: [(_FELT_LEFT, 195, _FELT_RIGHT, 340), (197, 340, 456, 520)],
    5: [(_FELT_LEFT, 195, _FELT_RIGHT, 400), (197, 400, 456, 520)],
}


def _inside(box: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] and box[3] <= outer[3]


def _hand_boxes(n_players: int) -> list[tuple[int, int, int, int]]:
    """The boxes of the revealed hands (a full hand wide) that the middle boxes do not hold."""
    width, height = fan_width(HAND_SIZE, MINI_W, MINI_OVERLAP), card_size(MINI_W)[1]
    boxes = []
    for x, align, y in HAND_SPOTS[n_players]:
        left = x - width if align == "r" else x
        box = (left, y, left + width, y + height)
        if not any(_inside(box, middle) for middle in MIDDLE_BOXES[n_players]):
            boxes.append(box)
    return boxes


def _position(obs: FlumeObservation, seat: int) -> int:
    """Where ``seat`` is drawn: 0 at the bottom, then round the table."""
    base = obs.seat if obs.seat is not None else 0
    return (seat - base) % obs.n_players


def plate_box(obs: FlumeObservation, seat: int) -> tuple[int, int, int, int]:
    cx, cy = PLATES[obs.n_players][_position(obs, seat)]
    return cx - PLATE_W // 2, cy - PLATE_H // 2, cx + PLATE_W // 2, cy + PLATE_H // 2


def trick_box(obs: FlumeObservation, seat: int) -> tuple[int, int, int, int]:
    """Where the card ``seat`` played to the current trick is drawn (tests sample it)."""
    cx, cy = TRICK_SPOTS[obs.n_players][_position(obs, seat)]
    x, y = cx - CARD_W // 2, cy - CARD_H // 2
    return x, y, x + CARD_W, y + CARD_H


def _background() -> Image.Image:
    """The table without anything on it, titled in the current language."""
    return _background_in(t("flume-title"))


@drawn_once
def _background_in(title: str) -> Image.Image:
    img = table_canvas(title)
    draw = ImageDraw.Draw(img)
    panel(draw, FELT, PALETTE.felt, radius=16, outline=PALETTE.felt_edge, width=3)
    panel(draw, SIDE, PALETTE.panel, radius=16, outline=PALETTE.panel_edge, width=1)
    return img


def _draw_header(draw: ImageDraw.ImageDraw, obs: FlumeObservation) -> None:
    x = 140
    if obs.trump is not None:
        ink = suit_colour(obs.trump, obs.four_colour)
        chip = (x, 14, x + 190, 50)
        panel(draw, chip, (250, 250, 246), radius=10)
        draw_text(draw, (x + 12, 32), SUIT_SYMBOLS[obs.trump], 30, ink, anchor="lm", bold=True)
        suit = t("flume-suit-name", suit=obs.trump).upper()
        draw_text(draw, (x + 48, 32), suit, 22, ink, anchor="lm", bold=True)
        x += 204
    header_info(draw, _header_text(obs), 20, max_width=WIDTH - MARGIN - 8 - x)


def _header_text(obs: FlumeObservation) -> str:
    bits = [t("flume-picture-hand", hand=obs.hand_no), t("flume-picture-target", target=obs.target)]
    if obs.bid:
        bits.insert(0, t("flume-picture-bid", bid=obs.bid))
    return "  ·  ".join(bits)


PHASES = ("bid", "trump", "discard", "call", "play")
"""The phases someone is to act in (``flume-picture-to`` says what they do)."""


def _phase_verb(obs: FlumeObservation) -> str:
    return t("flume-picture-to", phase=obs.phase) if obs.phase in PHASES else ""


def _won_text(obs: FlumeObservation) -> str:
    """The end's line, ``{names}`` standing for the winners (see :func:`strip_winner`)."""
    score = obs.scores[obs.winners[0]] if obs.winners else 0
    return t("flume-picture-won", names="{names}", count=len(obs.winners), points=score)


def _draw_strip(draw: ImageDraw.ImageDraw, obs: FlumeObservation, names: list[str]) -> None:
    if obs.phase == "over":
        who = [seat_name(names, w) for w in obs.winners]
        strip_winner(draw, _won_text(obs), names=who)
        return
    if obs.current is None:
        strip_note(draw)
        return
    strip_turn(draw, seat_name(names, obs.current), _phase_verb(obs))


def _seat_status(obs: FlumeObservation, seat: int) -> str:
    """The second line of a seat's plate."""
    parts: list[str] = []
    if obs.phase == "bid":
        bid = obs.bids[seat] if seat < len(obs.bids) else None
        if bid is None:
            parts.append(t("flume-picture-waiting"))
        else:
            parts.append(
                t("flume-picture-pass") if bid == 0 else t("flume-picture-bid-plate", bid=bid)
            )
    elif seat == obs.bidder:
        parts.append(t("flume-picture-bid-plate", bid=obs.bid))
    if obs.phase == "discard" and obs.discarded[seat] is not None:
        parts.append(t("flume-picture-swapped", count=obs.discarded[seat]))
    if obs.phase in ("play", "call") or obs.tricks:
        parts.append(t("flume-picture-left", count=obs.hand_sizes[seat]))
        parts.append(t("flume-picture-game", points=obs.taken[seat]))
    return " · ".join(parts)


def _draw_plate(
    draw: ImageDraw.ImageDraw, obs: FlumeObservation, names: list[str], seat: int
) -> None:
    box = plate_box(obs, seat)
    acting = seat == obs.current
    winner = seat in obs.winners
    fill = PALETTE.win_row if winner else (PALETTE.current_row if acting else (20, 64, 48))
    edge = PALETTE.gold if winner else (PALETTE.accent if acting else (60, 120, 96))
    panel(draw, box, fill, radius=10, outline=edge, width=3 if acting or winner else 1)
    x0, y0, x1, _ = box
    right = x1 - 8
    if seat == obs.dealer:
        draw.ellipse((x1 - 30, y0 + 5, x1 - 8, y0 + 27), fill=(250, 250, 246))
        mark = t("flume-picture-dealer")
        draw_text(draw, (x1 - 19, y0 + 16), mark, 15, (24, 24, 28), anchor="mm", bold=True)
        right = x1 - 34
    colour = PALETTE.accent if acting else PALETTE.text
    name = seat_name(names, seat)
    size = int(fit_font(name, (19, 17, 15, 14, 13), right - x0 - 10, bold=True).size)
    draw_text(
        draw,
        (x0 + 10, y0 + 17),
        name,
        size,
        colour,
        anchor="lm",
        max_width=right - x0 - 10,
        bold=True,
    )
    status = _seat_status(obs, seat)
    draw_text(
        draw,
        (x0 + 10, y0 + 43),
        status,
        int(fit_font(status, (15, 14, 13), x1 - x0 - 16).size),
        (200, 226, 214),
        anchor="lm",
        max_width=x1 - x0 - 16,
    )


def revealed_hand_box(obs: FlumeObservation, seat: int) -> tuple[int, int, int, int]:
    """Where a seat's cards are drawn in a revealed (finished game's) picture."""
    x, align, y = HAND_SPOTS[obs.n_players][_position(obs, seat)]
    hands = obs.revealed_hands or []
    width = fan_width(len(hands[seat]) if seat < len(hands) else 0, MINI_W, MINI_OVERLAP)
    left = x - width if align == "r" else x
    return left, y, left + width, y + card_size(MINI_W)[1]


def _draw_revealed_hands(
    img: Image.Image, obs: FlumeObservation, origin: tuple[int, int] = (0, 0)
) -> None:
    """Every seat's cards (``img``'s top left corner is ``origin`` of the table)."""
    ox, oy = origin
    for seat, hand in enumerate(obs.revealed_hands or []):
        if hand:
            x, y, _, _ = revealed_hand_box(obs, seat)
            paste_fan(
                img, (x - ox, y - oy), list(hand), MINI_W, overlap=MINI_OVERLAP,
                four_colour=obs.four_colour,
            )  # fmt: skip


def _draw_trick(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    obs: FlumeObservation,
    origin: tuple[int, int] = (0, 0),
) -> None:
    """The trick, else the last trick, else the centre line (``img``'s top left corner is
    ``origin`` of the table: whole pixels, so everything lands as it would on the table)."""
    ox, oy = origin
    if obs.trick:
        for seat, code in obs.trick:
            x, y, _, _ = trick_box(obs, seat)
            paste_card(img, (x - ox, y - oy), code, CARD_W, four_colour=obs.four_colour)
        return
    if obs.tricks and obs.phase == "play":
        last = obs.tricks[-1]
        small = 56
        step = small + 8
        left = (FELT[0] + FELT[2]) / 2 - (step * len(last.plays) - 8) / 2
        top = 316
        for i, (_, code) in enumerate(last.plays):
            xy = (left + i * step - ox, top - oy)
            paste_card(img, xy, code, small, four_colour=obs.four_colour)
        heading = t("flume-picture-last-trick")
        draw_text(draw, (326 - ox, top - 16 - oy), heading, 15, FELT_TEXT, anchor="mm")
        return
    message, box = centre_line(obs)
    if message:
        draw_text(
            draw, ((box[0] + box[2]) / 2 - ox, (box[1] + box[3]) / 2 - oy), message, CENTRE_SIZE,
            FELT_TEXT, anchor="mm", max_width=CENTRE_WIDTH,
        )  # fmt: skip


CENTRE_PHASES = ("bid", "trump", "discard", "call", "over")
"""The phases with a line in the middle of the felt (``flume-picture-centre``)."""
CENTRE_SIZE = 20
CENTRE_WIDTH = FELT[2] - FELT[0] - 40
# The centre line's height: in the open band between the plates at the top and the plates at
# the sides (with four seats the side plates sit at the middle of the felt).
CENTRE_Y = {4: 266, 5: 300}


def centre_line(obs: FlumeObservation) -> tuple[str, tuple[int, int, int, int]]:
    """The line of text in the middle of the felt when no cards are there, and the box its
    ink fills (tests check it stays clear of every seat's plate)."""
    if obs.phase not in CENTRE_PHASES:
        return "", (0, 0, 0, 0)
    message = t("flume-picture-centre", phase=obs.phase)
    cx, cy = (FELT[0] + FELT[2]) // 2, CENTRE_Y[obs.n_players]
    text = ellipsize(message, font(CENTRE_SIZE), CENTRE_WIDTH)
    left, top, right, bottom = font(CENTRE_SIZE).getbbox(text, anchor="mm")
    return text, (cx + int(left), cy + int(top), cx + int(right), cy + int(bottom))


def _special_holders(obs: FlumeObservation) -> dict[str, int]:
    """Bowers and jokers taken so far this hand: point name -> seat that took it."""
    if obs.trump is None:
        return {}
    specials = {
        right_bower(obs.trump): "right",
        left_bower(obs.trump): "left",
        "JKH": "joker_high",
        "JKL": "joker_low",
    }
    taken: dict[str, int] = {}
    for trick in obs.tricks:
        for _, code in trick.plays:
            if code in specials:
                taken[specials[code]] = trick.winner
    return taken


class _Column:
    """Writes lines down the side panel."""

    def __init__(self, draw: ImageDraw.ImageDraw) -> None:
        self.draw = draw
        self.y = SIDE[1] + 18
        self.left = SIDE[0] + 14
        self.right = SIDE[2] - 14

    def heading(self, text: str) -> None:
        draw_text(self.draw, (self.left, self.y), text, 15, PALETTE.text_dim, anchor="lm")
        self.y += 24

    def row(self, label: str, value: str = "", colour: RGB = PALETTE.text, size: int = 18) -> None:
        """``label`` on the left, ``value`` in bold on the right; a long value is shortened
        before a short label is (a long label keeps at least its first word)."""
        width = self.right - self.left
        value_w = 0.0
        if value:
            label_w = font(size).getlength(clean_text(label))
            first_word = font(size).getlength(label.split()[0] + " …") if label else 0
            keep = label_w if label_w <= width / 2 else min(label_w, first_word)
            value_w = draw_text(
                self.draw, (self.right, self.y), value, size, colour, anchor="rm", bold=True,
                max_width=width - keep - 8,
            )  # fmt: skip
        draw_text(
            self.draw,
            (self.left, self.y),
            label,
            size,
            colour,
            anchor="lm",
            max_width=width - value_w - 8,
        )
        self.y += size + 8

    def gap(self, pixels: int = 8) -> None:
        self.y += pixels


def _draw_scores(col: _Column, obs: FlumeObservation, names: list[str]) -> None:
    col.heading(t("flume-picture-scores"))
    if obs.teams:
        # A team on two lines, a partner on each (the score by the first), then the bar
        # toward the target with the game points taken this hand beside it.
        for team in (0, 1):
            lead = obs.winners and team == obs.winners[0] % 2
            colour = PALETTE.gold if lead else PALETTE.text
            first, second = (seat_name(names, s) for s in range(4) if s % 2 == team)
            col.row(first, str(obs.scores[team]), colour)
            col.row(second, "", colour)
            toward = _toward_game(obs, team)
            bar_right: float = col.right
            if toward is not None:
                bar_right -= 10 + draw_text(
                    col.draw, (col.right, col.y - 5), t("flume-picture-game", points=toward), 15,
                    PALETTE.text_dim,
                    anchor="rm",
                )  # fmt: skip
            fraction = max(0, obs.scores[team]) / obs.target
            progress_bar(col.draw, (col.left, col.y - 8, bar_right, col.y - 2), fraction, colour)
            col.gap(TEAM_GAP)
        return
    for seat in range(obs.n_players):
        colour = PALETTE.gold if seat in obs.winners else PALETTE.text
        col.row(seat_name(names, seat), str(obs.scores[seat]), colour, size=17)


def _draw_hand_info(col: _Column, obs: FlumeObservation, names: list[str]) -> None:
    col.gap(6)
    col.heading(t("flume-picture-hand-heading", hand=obs.hand_no))
    if obs.bidder is not None:
        col.row(
            t("flume-picture-bidder", bid=obs.bid, bidder=seat_name(names, obs.bidder)), size=17
        )
    if obs.n_players == 5 and obs.phase == "play":
        if obs.alone:
            col.row(t("flume-picture-alone"), size=17)
        elif obs.called is not None:
            who = (
                seat_name(names, obs.partner)
                if obs.partner_known and obs.partner is not None
                else "?"
            )
            called = t("flume-card-label", **card_args(obs.called))
            col.row(t("flume-picture-called", label=called, partner=who), size=17)
    if obs.tricks:
        winner = seat_name(names, obs.tricks[-1].winner)
        col.row(t("flume-picture-last-winner", player=winner), size=17)
    if obs.phase in ("play", "call") and obs.trump is not None:
        for name, seat in _special_holders(obs).items():
            col.row(t("flume-picture-point", point=name, player=seat_name(names, seat)), size=16)


TEAM_GAP = 12  # under a team's bar (and the game points beside it)


def _toward_game(obs: FlumeObservation, team: int) -> int | None:
    """The game points a team has taken this hand, while the hand is played (else None)."""
    if obs.phase not in ("play", "call") or obs.trump is None:
        return None
    return sum(obs.taken[s] for s in range(4) if s % 2 == team)


def _draw_last_hand(col: _Column, obs: FlumeObservation, names: list[str]) -> None:
    last = obs.last_hand
    if last is None or obs.phase not in ("bid", "over"):
        return
    col.gap(6)
    col.heading(t("flume-picture-last-hand", hand=last.hand_no, bid=last.bid, made=last.made))
    for name, seat in last.awards.items():
        if seat is not None:
            col.row(t("flume-point", point=name), seat_name(names, seat), size=15)
        if col.y > SIDE[3] - 20:
            return


def _strip_key(obs: FlumeObservation, names: list[str]) -> tuple:
    """What :func:`_draw_strip` shows."""
    if obs.phase == "over":
        return ("over", _won_text(obs), tuple(seat_name(names, w) for w in obs.winners))
    if obs.current is None:
        return ("note",)
    return ("turn", seat_name(names, obs.current), _phase_verb(obs))


def _plate_key(obs: FlumeObservation, names: list[str], seat: int) -> tuple:
    """What :func:`_draw_plate` shows (its place is the part's box)."""
    return (
        current().locale,
        seat == obs.current,
        seat in obs.winners,
        seat == obs.dealer,
        seat_name(names, seat),
        _seat_status(obs, seat),
    )


def _middle_key(obs: FlumeObservation) -> tuple:
    """What :func:`_draw_trick` and :func:`_draw_revealed_hands` read."""
    return (
        current().locale,
        obs.n_players,
        obs.seat,
        obs.four_colour,
        obs.phase,
        tuple(obs.trick),
        tuple(obs.tricks[-1].plays) if obs.tricks else None,
        None if obs.revealed_hands is None else tuple(map(tuple, obs.revealed_hands)),
    )


def _scores_end(n_players: int) -> int:
    """Where the side column stands after the scores (see :func:`_draw_scores`): under the
    heading, two teams of two lines with their bars, or a row per seat."""
    rows = 2 * (2 * (18 + 8) + TEAM_GAP) if n_players == 4 else n_players * (17 + 8)
    return SIDE[1] + 18 + 24 + rows


def _column_boxes(n_players: int) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
    """The side column in two parts: the scores, and the rest (the hand, the last hand). They
    meet 4 px above where the scores end: the scores' ink stops short of it, and the next
    heading starts 6 px lower, its letters reaching 9 px above their middle."""
    split = _scores_end(n_players) - 4
    return (SIDE_BOX[0], SIDE_BOX[1], SIDE_BOX[2], split), (SIDE_BOX[0], split, *SIDE_BOX[2:])


def _scores_key(obs: FlumeObservation, names: list[str]) -> tuple:
    """What :func:`_draw_scores` reads."""
    return (
        current().locale,
        obs.n_players,
        tuple(seat_name(names, s) for s in range(max(4, obs.n_players))),
        tuple(obs.scores),
        tuple(obs.winners),
        obs.target,
        tuple(_toward_game(obs, team) for team in (0, 1)) if obs.teams else None,
    )


def _hand_info_key(obs: FlumeObservation, names: list[str]) -> tuple:
    """What :func:`_draw_hand_info` and :func:`_draw_last_hand` read."""
    last = obs.last_hand
    return (
        current().locale,
        obs.n_players,
        tuple(seat_name(names, s) for s in range(max(4, obs.n_players))),
        obs.hand_no,
        obs.phase,
        obs.bidder,
        obs.bid,
        obs.alone,
        obs.called,
        obs.partner_known,
        obs.partner,
        obs.tricks[-1].winner if obs.tricks else None,
        obs.trump,
        tuple(obs.taken),
        tuple(_special_holders(obs).items()),
        None
        if last is None or obs.phase not in ("bid", "over")
        else (last.hand_no, last.bid, last.made, tuple(last.awards.items())),
    )


def _draw_column(draw: ImageDraw.ImageDraw, obs: FlumeObservation, names: list[str]) -> None:
    """The whole side column at once (the parts draw it in two; tests compare)."""
    col = _Column(draw)
    _draw_scores(col, obs, names)
    _draw_hand_info(col, obs, names)
    _draw_last_hand(col, obs, names)


def _draw_column_scores(draw: ImageDraw.ImageDraw, obs: FlumeObservation, names: list[str]) -> None:
    _draw_scores(_Column(draw), obs, names)


def _draw_column_hand(draw: ImageDraw.ImageDraw, obs: FlumeObservation, names: list[str]) -> None:
    col = _Column(draw)
    col.y = _scores_end(obs.n_players)
    _draw_hand_info(col, obs, names)
    _draw_last_hand(col, obs, names)


def _middle_parts(obs: FlumeObservation) -> list[Part]:
    """The felt between the plates: the layer is drawn once, on the background under all
    its boxes, and each box takes its pixels from there."""
    boxes = list(MIDDLE_BOXES[obs.n_players])
    if obs.revealed_hands is not None:
        boxes += _hand_boxes(obs.n_players)
    left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
    around = (left, top, max(b[2] for b in boxes), max(b[3] for b in boxes))
    layer: list[Image.Image] = []

    def show(image: Image.Image, box: tuple[int, int, int, int]) -> None:
        if not layer:
            with not_recording():  # the background's text was recorded with it
                scratch = _background().crop(around)
            with text_origin(left, top):
                _draw_trick(scratch, ImageDraw.Draw(scratch), obs, (left, top))
            _draw_revealed_hands(scratch, obs, (left, top))
            layer.append(scratch)
        inner = (box[0] - left, box[1] - top, box[2] - left, box[3] - top)
        image.paste(layer[0].crop(inner), box[:2])

    key = _middle_key(obs)
    return [
        Part("flume felt", box, key, functools.partial(_felt, show=show, box=box)) for box in boxes
    ]


def _felt(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    *,
    show: Callable[[Image.Image, tuple[int, int, int, int]], None],
    box: tuple[int, int, int, int],
) -> None:
    show(image, box)


def _plate(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    *,
    obs: FlumeObservation,
    names: list[str],
    seat: int,
) -> None:
    _draw_plate(draw, obs, names, seat)


def render_flume(
    obs: FlumeObservation,
    names: list[str],
    events: list[str] | None = None,
    memo: PartMemo | None = None,
) -> Image.Image:
    """The whole table as a 960×600 RGB image (``events`` are not drawn; the embed shows them).

    Drawn in parts (:mod:`bot.render.parts`): what did not change since a picture drawn
    recently is pasted from ``memo`` (the shared one unless given).
    """
    scores_box, hand_box = _column_boxes(obs.n_players)
    parts = [
        Part(
            "flume header",
            HEADER_BOX,
            (current().locale, obs.trump, obs.four_colour, obs.hand_no, obs.target, obs.bid),
            lambda i, d: _draw_header(d, obs),
        ),
        Part(
            "flume strip",
            STRIP_BOX,
            _strip_key(obs, names),
            lambda i, d: _draw_strip(d, obs, names),
        ),
        *(
            Part(
                "flume plate",
                _plate_part_box(obs, seat),
                _plate_key(obs, names, seat),
                functools.partial(_plate, obs=obs, names=names, seat=seat),
            )
            for seat in range(obs.n_players)
        ),
        *_middle_parts(obs),
        Part(
            "flume scores",
            scores_box,
            _scores_key(obs, names),
            lambda i, d: _draw_column_scores(d, obs, names),
        ),
        Part(
            "flume hand info",
            hand_box,
            _hand_info_key(obs, names),
            lambda i, d: _draw_column_hand(d, obs, names),
        ),
    ]
    return compose(_background(), parts, memo)


def _plate_part_box(obs: FlumeObservation, seat: int) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = plate_box(obs, seat)
    return x0, y0, x1 + 1, y1 + 1


def render_flume_png(
    obs: FlumeObservation, names: list[str], events: list[str] | None = None
) -> bytes:
    return to_png(render_flume(obs, names, events))


# --------------------------------------------------------------------------- a seat's hand

HAND_PAD = 14
HAND_STEP = CARD_W + 10
LIFT = 14


def hand_size(count: int) -> tuple[int, int]:
    count = max(1, count)
    return HAND_PAD * 2 + HAND_STEP * count - 10, HAND_PAD * 2 + CARD_H + LIFT


def hand_card_box(index: int, selected: bool) -> tuple[int, int, int, int]:
    x = HAND_PAD + index * HAND_STEP
    y = HAND_PAD + (0 if selected else LIFT)
    return x, y, x + CARD_W, y + CARD_H


def render_hand(obs: FlumeObservation) -> Image.Image:
    """The viewer's cards in a row: playable cards ringed in gold, chosen discards raised."""
    img = Image.new("RGB", hand_size(len(obs.hand)), PALETTE.felt)
    playable = {a.split(":", 1)[1] for a in obs.legal if a.startswith(("play:", "d:"))}
    for i, code in enumerate(obs.hand):
        chosen = code in obs.selected
        x, y, _, _ = hand_card_box(i, chosen)
        ring = PALETTE.bad if chosen else (PALETTE.accent if code in playable else None)
        paste_card(img, (x, y), code, CARD_W, four_colour=obs.four_colour, highlight=ring)
    return img


def render_hand_png(obs: FlumeObservation) -> bytes:
    return to_png(render_hand(obs))


__all__ = [
    "SIZE",
    "centre_line",
    "hand_card_box",
    "plate_box",
    "render_flume",
    "render_flume_png",
    "render_hand",
    "render_hand_png",
    "revealed_hand_box",
    "trick_box",
]
