"""Every table's layout holds the longest names at the largest tables.

Each game is played at its largest seat count, with Discord's longest display names (32
characters) and with everyday ones (AI players' names among them), and its table is drawn
at moments through the game with the text recorded (:func:`recording_text`). Then no text
may leave the picture or lie over other text, and text cut short with "…" must have had no
more room: the pixels beside it, past any text that could move along, are background for no
more than a few characters before something else is drawn (a panel's edge, a card, a die).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence

import numpy as np
import pytest
from PIL import Image, ImageChops

from bot.games import all_games
from bot.render.common import DrawnText, font, recording_text
from bot.render.leaderboard import LeaderboardRow, render_leaderboard

LONGEST = [
    "Bartholomew Featherstonehaugh II",
    "Anastasia Montgomery-Wellingtons",
    "Maximiliano Hernandez de la Cruz",
    "Wilhelmina Oppenheimer-Vasquez M",
    "Christopher Alexander Worthingtn",
    "Gwendolyn Marguerite Fitzwilliam",
    "Sebastian Konstantinopoulos XVII",
    "Jacqueline Abernathy-Whitmoreson",
]
EVERYDAY = [
    "Bob",
    "Babbage (AI, easy)",
    "Carol the Great",
    "Noether (AI, hard)",
    "Zoë",
    "Fermi (AI, easy)",
    "Dave",
    "Hopper (AI, hard)",
]
TABLES = [
    ("qdice", 8),
    ("flume", 4),  # two teams of two: a layout of its own
    ("flume", 5),
    ("flux", 6),
    ("fingers", 8),
    ("qpoker", 5),
]
"""Each game at its largest seat count (and Flume's teams too)."""
PICTURES = 8  # moments drawn per game
PADDING = 16  # what a layout keeps between text and the edge of its panel


def test_the_names_are_as_long_as_discord_allows() -> None:
    assert {len(name) for name in LONGEST} == {32}


# --- the checks ---------------------------------------------------------------------------


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def misplaced(image: Image.Image, texts: Sequence[DrawnText]) -> list[str]:
    """Text that leaves the picture or lies over other text."""
    width, height = image.size
    problems = [
        f"{t.shown!r} leaves the picture at {t.box}"
        for t in texts
        if t.box[0] < 0 or t.box[1] < 0 or t.box[2] > width or t.box[3] > height
    ]
    problems += [
        f"{a.shown!r} {a.box} lies over {b.shown!r} {b.box}"
        for a, b in itertools.combinations(texts, 2)
        if _overlap(a.box, b.box)
    ]
    return problems


class _Band:
    """The rows of the picture a line of text fills, to look along for room."""

    def __init__(self, pixels: np.ndarray, text: DrawnText, texts: Sequence[DrawnText]):
        height, self.width = pixels.shape[:2]
        self.top, self.bottom = max(0, text.box[1]), min(height, text.box[3])
        self.pixels = pixels[self.top : self.bottom]
        self.others = [
            o for o in texts if o is not text and o.box[1] < self.bottom and o.box[3] > self.top
        ]

    def background(self, columns: Sequence[int]) -> np.ndarray | None:
        """The commonest colour in these columns."""
        usable = [x for x in columns if 0 <= x < self.width]
        if not usable:
            return None
        colours, counts = np.unique(
            self.pixels[:, usable].reshape(-1, 3), axis=0, return_counts=True
        )
        return colours[counts.argmax()]

    def free_until(self, start: int, step: int, colour: np.ndarray) -> int:
        """The first column from ``start`` (going ``step``) with anything but ``colour``."""
        x = start
        while 0 <= x < self.width and (self.pixels[:, x] == colour).all():
            x += step
        return x

    def followers(self, edge: int, step: int) -> list[DrawnText]:
        """The text that follows on from ``edge`` on this line (each within a word's gap
        of the one before), which would move along if the text before it grew."""
        chain: list[DrawnText] = []
        while True:
            near = [
                o
                for o in self.others
                if o not in chain
                and (
                    edge - 2 <= o.box[0] <= edge + GAP
                    if step > 0
                    else edge - GAP <= o.box[2] <= edge + 2
                )
            ]
            if not near:
                return chain
            nearest = min(near, key=lambda o: abs((o.box[0] if step > 0 else o.box[2]) - edge))
            chain.append(nearest)
            edge = nearest.box[2] if step > 0 else nearest.box[0]


GAP = 16  # text this close after other text on its line goes along with it


def unused_room(image: Image.Image, texts: Sequence[DrawnText]) -> list[str]:
    """Text cut with "…" beside more room than a few characters.

    Left-aligned text may grow rightwards, and the text that follows it on its line (a
    name's "to play", its tags) move along with it; right-aligned text likewise to the
    left; centred text into the room on both sides. Any other text is in the way, as is
    anything drawn (a panel's edge, a card)."""
    pixels = np.asarray(image.convert("RGB")).astype(np.int16)
    problems = []
    for text in texts:
        if not text.cut:
            continue
        band = _Band(pixels, text, texts)
        if band.bottom <= band.top:
            continue
        x0, _, x1, _ = text.box
        drawn = x1 - x0
        slack = PADDING + 2 * text.size  # an ellipsis cuts in whole characters
        side = text.anchor[0]
        if side in "lr":
            step = 1 if side == "l" else -1
            along = band.followers(x1 if side == "l" else x0, step)
            edge = (
                max([x1, *(o.box[2] for o in along)])
                if side == "l"
                else min([x0, *(o.box[0] for o in along)]) - 1
            )
            colour = band.background(range(edge, edge + 12 * step, step))
            if colour is None:
                continue
            end = band.free_until(edge, step, colour)
            room = end - x0 if side == "l" else x1 - 1 - end
            needed = drawn + sum(o.box[2] - o.box[0] + 8 for o in along)
        else:
            colour = band.background([*range(x0 - 10, x0), *range(x1, x1 + 10)])
            if colour is None:
                continue
            right = band.free_until(x1, 1, colour)
            left = band.free_until(x0 - 1, -1, colour)
            middle = (x0 + x1) / 2
            room, needed = 2 * min(middle - left - 1, right - middle), drawn
        if needed + slack <= room:
            problems.append(
                f"{text.shown!r} at {text.box} is cut with {room - needed:.0f} px to spare"
                f" (of {text.text!r}, {font(text.size, text.bold).getlength(text.text):.0f} px)"
            )
    return problems


# --- the pictures -------------------------------------------------------------------------


def moments(
    game: str, seats: int, names: list[str], seed: int = 7
) -> Iterator[Image.Image | DrawnText]:
    """A seeded game played by easy AI players: the table drawn at :data:`PICTURES` moments
    and at the end, each followed by its texts."""
    spec = all_games()[game]
    engine = spec.engine
    names = names[:seats]
    state = engine.new_game(engine.parse_config({}), seats, seed)
    rng = random.Random(seed)
    log: list[str] = []
    seen: list[tuple[object, list[str]]] = []
    while not engine.is_over(state) and len(seen) < 4000:
        seat = min(engine.to_act(state))
        assert spec.ai is not None
        move = spec.ai.decide(engine.observe(state, seat), "easy", rng, None)
        events = engine.apply(state, seat, move)
        log += [event.render(names) for event in events]
        seen.append((engine.observe(state, None), list(log)))
    assert engine.is_over(state)
    step = max(1, len(seen) // PICTURES)
    for observation, lines in [*seen[::step], seen[-1]]:
        yield from _drawn(lambda o=observation, ls=lines: spec.ui.table_image(o, names, ls))


def _drawn(draw) -> Iterator[Image.Image | DrawnText]:  # type: ignore[no-untyped-def]
    with recording_text() as texts:
        image = draw()
    yield image
    yield from texts


def pictures(game: str, seats: int, names: list[str]) -> list[tuple[Image.Image, list[DrawnText]]]:
    out: list[tuple[Image.Image, list[DrawnText]]] = []
    for item in moments(game, seats, names):
        if isinstance(item, Image.Image):
            out.append((item, []))
        else:
            out[-1][1].append(item)
    return out


def leaderboard_rows(names: list[str]) -> list[LeaderboardRow]:
    """A full page: the leaders with big numbers, then provisional players."""
    return [
        LeaderboardRow(
            rank=i + 1,
            name=names[i % len(names)],
            games=1234 - 97 * i if i < 6 else 4,
            wins=987 - 80 * i if i < 6 else 3,
            points=9_876_543 - 654_321 * i,
            rating=2345.6 - 111 * i,
            provisional=i >= 6,
        )
        for i in range(10)
    ]


def test_the_largest_tables_are_drawn() -> None:
    largest = {game: max(n for g, n in TABLES if g == game) for game, _ in TABLES}
    assert largest == {name: spec.engine.max_players for name, spec in all_games().items()}


@pytest.mark.parametrize("names", [LONGEST, EVERYDAY], ids=["longest", "everyday"])
@pytest.mark.parametrize(("game", "seats"), TABLES, ids=[f"{g}-{n}" for g, n in TABLES])
def test_tables_hold_their_names(game: str, seats: int, names: list[str]) -> None:
    problems: list[str] = []
    for i, (image, texts) in enumerate(pictures(game, seats, names)):
        assert texts, "nothing was recorded"
        problems += [f"picture {i}: {p}" for p in misplaced(image, texts)]
        problems += [f"picture {i}: {p}" for p in unused_room(image, texts)]
    assert not problems, "\n".join(dict.fromkeys(problems))


@pytest.mark.parametrize("names", [LONGEST, EVERYDAY], ids=["longest", "everyday"])
def test_the_leaderboard_holds_its_names(names: list[str]) -> None:
    title = "Quantum Dice · Quantum Table Sandbox"
    with recording_text() as texts:
        image = render_leaderboard(title, leaderboard_rows(names), 1, 12)
    assert texts
    problems = misplaced(image, texts) + unused_room(image, texts)
    assert not problems, "\n".join(problems)


# --- names and labels people saw cut or crowded -------------------------------------------


def _uncut(texts: Sequence[DrawnText], box: tuple[int, int, int, int]) -> list[DrawnText]:
    """The texts drawn inside ``box`` that were cut short."""
    x0, y0, x1, y1 = box
    inside = [t for t in texts if x0 <= t.box[0] and t.box[2] <= x1 and y0 <= t.box[1] < y1]
    assert inside, "nothing was drawn there"
    return [t for t in inside if t.cut]


def test_a_dice_players_name_shows_whole_beside_the_done_tag() -> None:
    """Eight seats in the final round, five-digit scores: "Babbage (AI, easy)" was cut to
    "Babbage (AI,…" to make room for its "done" tag."""
    from bot.render.qdice import BOARD, render_qdice
    from tests.render.builders import make_obs

    obs = make_obs(
        8,
        final_round=True,
        scores=[10_450, 9_950, 8_800, 7_650, 10_200, 3_400, 9_999, 5_000],
        finished_last_turn=[True] * 4 + [False] * 4,
        contingent_winner=0,
        current=1,
    )
    with recording_text() as texts:
        render_qdice(obs, EVERYDAY)
    assert not _uncut(texts, BOARD)
    assert sum(t.shown == "done" for t in texts) == 4


def test_flume_teams_show_both_partners_whole() -> None:
    """Four seats: "Toward game: Bob & Ada (A…" cut a team's names on one line."""
    from bot.engines.flume.engine import FlumeEngine
    from bot.render.flume import SIDE, render_flume
    from tests.render.test_flume import table

    names = ["Bob", "Zoë", "Ada (AI, easy)", "Noether (AI, hard)"]
    obs = FlumeEngine().observe(table(4), None)
    with recording_text() as texts:
        render_flume(obs, names)
    assert not _uncut(texts, SIDE)
    shown = {t.shown for t in texts if t.box[0] >= SIDE[0]}
    assert set(names) <= shown


def test_quantumpokers_newest_event_shows_whole() -> None:
    """The events under the table ran off their panel at one line each."""
    from bot.engines.qpoker.engine import QPokerConfig, QPokerEngine
    from bot.render.qpoker import EVENTS, render_qpoker

    engine = QPokerEngine()
    state = engine.new_game(QPokerConfig(), 5, 3)
    names = EVERYDAY[:5]
    log = [
        "Babbage (AI, easy) swapped their qubit 3 for Noether (AI, hard)'s qubit 1"
        " (value, visibility and chips go with them).",
        "Carol the Great, Noether (AI, hard) and Zoë tie with 3 points and take 1 chip each.",
    ]
    with recording_text() as texts:
        render_qpoker(engine.observe(state, None), names, log)
    assert not _uncut(texts, EVENTS)
    lines = [t.shown for t in texts if EVENTS[1] <= t.box[1] < EVENTS[3]]
    assert " ".join(lines) == " ".join(log)  # both, each over the lines it needs


def test_the_rating_badge_keeps_clear_of_the_rows_edge() -> None:
    """The rating's pill ended on the row's edge, the number filling it to its ends."""
    from bot.render.leaderboard import RATING_BOX, TABLE_X1

    row_right = TABLE_X1 - 10  # the shaded row's right end
    assert RATING_BOX[1] <= row_right - 8
    with recording_text() as texts:
        render_leaderboard("Quantum Dice", leaderboard_rows(LONGEST), 1, 1)
    ratings = [t for t in texts if t.box[0] >= RATING_BOX[0] and t.text[0].isdigit()]
    assert len(ratings) == 10
    for rating in ratings:
        assert RATING_BOX[0] + 6 <= rating.box[0] and rating.box[2] <= RATING_BOX[1] - 6
        assert not rating.cut


def test_fluxs_trick_label_stands_clear_of_the_turn_up() -> None:
    """ "THE TRICK" sat right under the turn-up card, reading as its caption."""
    from bot.engines.flux.engine import FluxConfig, FluxEngine
    from bot.render.flux import render_flux, trick_box, turnup_box

    engine = FluxEngine()
    obs = engine.observe(engine.new_game(FluxConfig(), 4, 12), None)
    with recording_text() as texts:
        render_flux(obs, EVERYDAY[:4])
    (label,) = [t for t in texts if t.shown == "THE TRICK"]
    assert label.box[1] >= turnup_box()[3] + 24
    assert label.box[3] <= trick_box(0)[1] - 8  # and goes with the trick under it


# --- the recording itself -----------------------------------------------------------------


def test_recording_sees_through_the_caches_and_changes_no_pixel() -> None:
    """Parts and backgrounds drawn before still give their text; the picture is the same."""
    from bot.engines.flume.engine import FlumeEngine
    from bot.render.flume import centre_line, render_flume
    from bot.render.parts import PartMemo
    from tests.render.test_flume import table

    engine = FlumeEngine()
    state = engine.new_game(engine.parse_config({}), 5, 4)
    obs = engine.observe(state, None)  # bidding: the centre line on the felt
    names = EVERYDAY[:5]
    memo = PartMemo()
    plain = render_flume(obs, names, memo=memo)  # every part kept in the memo
    with recording_text() as warm:
        again = render_flume(obs, names, memo=memo)
    with recording_text() as cold:
        render_flume(obs, names, memo=PartMemo())
    assert warm == cold
    assert ImageChops.difference(plain, again).getbbox() is None
    assert {"Flume", "SCORES"} <= {t.shown for t in warm}  # the background's own text
    # text drawn on a piece of the table lands where it is on the table
    message, box = centre_line(obs)
    (drawn,) = [t for t in warm if t.shown == message]
    assert abs(drawn.box[0] - box[0]) <= 2 and abs(drawn.box[1] - box[1]) <= 2
    # and outside a recording nothing is kept
    with recording_text() as later:
        pass
    render_flume(engine.observe(table(4), None), names[:4])
    assert later == []
