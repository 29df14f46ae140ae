"""Reviews in the hosting core: a seat's review is worked out from that seat's observation
alone (other seats' hidden cards or qubits change nothing), and a person's selections are
folded into the one-step move the AI would write."""

from __future__ import annotations

import random

import pytest

from bot.engines.analysis import Analysis, MoveValue
from bot.engines.base import Rng
from bot.engines.qdice.engine import QDiceConfig
from bot.engines.qpoker import ai as qpoker_ai
from bot.engines.qpoker.engine import QPokerConfig, QPokerState
from bot.games import all_games
from bot.tables.review import Position, _words, entry, normal_form, one_step, rank
from bot.tables.thinking import Thinker

GAMES = all_games()
QPOKER = GAMES["qpoker"]


def _midgame(seed: int) -> tuple[QPokerState, int]:
    engine = QPOKER.engine
    state = engine.new_game(QPokerConfig(), 4, seed)
    rng = random.Random(seed)
    for _ in range(seed + 1):
        (seat,) = engine.to_act(state)
        engine.apply(state, seat, qpoker_ai.choose_action(engine.observe(state, seat), rng))
    (seat,) = engine.to_act(state)
    return state, seat


def _flipped(state: QPokerState, seat: int, seed: int) -> QPokerState:
    """The same position with every qubit the seat can't see reading the other way."""
    other = state.model_copy(deep=True)
    flipped = 0
    for s, row in enumerate(other.qubits):
        for q in row:
            if s != seat and not q.shown and not q.superposed:
                q.value ^= 1
                flipped += 1
    other.rng = Rng(seed=seed + 100)
    assert flipped
    return other


async def test_a_seats_review_ignores_the_others_hidden_qubits() -> None:
    engine = QPOKER.engine
    thinker = Thinker(GAMES.values(), workers=0, budget=10.0)
    compared = 0
    for seed in (1, 2, 3):
        state, seat = _midgame(seed)
        other = _flipped(state, seat, seed)
        assert other.qubits != state.qubits
        observation = engine.observe(state, seat)
        assert engine.observe(other, seat) == observation
        first = await thinker.analyse(QPOKER, observation, "s", budget=10.0)
        assert first is not None
        done = next(m for m in engine.legal_actions(state, seat) if m != first.move)
        names = ["A", "B", "C", "D"]
        entries = []
        for position_state in (state, other):
            seen = engine.observe(position_state, seat)
            position = Position(7, seat, 1, seen, done, ("They did it.",))
            found = await thinker.analyse(QPOKER, seen, "s", also=(done,), budget=10.0)
            assert found is not None
            entries.append(entry(QPOKER, position, found, names))
        assert entries[0] is not None and entries[0] == entries[1]
        assert entries[0].suggested == first.move and entries[0].done == done
        compared += 1
    assert compared == 3


def test_selections_become_the_one_step_move() -> None:
    qdice = GAMES["qdice"].engine
    state = qdice.new_game(QDiceConfig(), 2, 5)
    state.selected = [3, 0, 1]
    assert one_step(state, 0, "roll") == "roll:013"
    assert one_step(state, 0, "bank:31") == "bank:31"
    assert normal_form("bank:31") == normal_form("bank:13") != normal_form("bank:1")
    assert normal_form("discard:TH,AS") == normal_form("discard:AS,TH")
    flux = GAMES["flux"].engine
    cards = flux.new_game(flux.parse_config(None), 3, 9)
    hand = cards.hands[1]
    cards.selected[1] = [2, 0]
    assert one_step(cards, 1, "discard") == f"discard:{hand[2]},{hand[0]}"
    assert one_step(cards, 1, "p:AS") == "p:AS"


def test_the_difference_in_words_and_the_order() -> None:
    spec = GAMES["flux"]
    observation = spec.engine.observe(spec.engine.new_game(spec.engine.parse_config(None), 3, 4), 0)
    card = observation.hand[0]
    other = observation.hand[1]
    analysis = Analysis.of(
        f"p:{card}",
        "points",
        [
            MoveValue(move=f"p:{card}", value=1.5, win=0.62, samples=100),
            MoveValue(move=f"p:{other}", value=-0.5, win=0.41, samples=100),
        ],
        scope="hand",
        samples=100,
    )
    names = ["Ann", "Ben", "Cy"]
    made = entry(
        spec,
        Position(9, 0, 1, observation, f"p:{other}", ("Ann plays.", "Ben wins.")),
        analysis,
        names,
    )
    assert made is not None and made.drop == pytest.approx(0.21) and made.value_drop == 2.0
    assert made.done_text == "Ann plays."  # what followed is someone else's
    assert made.words == (
        "Chance to come out on top in this hand: 41% with your move, 62% with the hard AI's: "
        "21 percentage points lost. On average your move brought -2.0 points against the hard "
        "AI's."
    )
    same = entry(
        spec, Position(9, 0, 1, observation, f"p:{card}", ("Ann plays.",)), analysis, names
    )
    assert same is None  # the hard AI agrees: not listed
    small = made.model_copy(update={"step": 3, "drop": 0.05})
    nothing = made.model_copy(update={"step": 2, "drop": None, "value_drop": 0.5})
    assert [e.step for e in rank([nothing, small, made])] == [9, 3, 2]


def test_an_outcome_in_words() -> None:
    analysis = Analysis.of(
        "a", "outcome", [MoveValue(move="a", value=1.0), MoveValue(move="b", value=0.0)]
    )
    drop, _, _, words = _words(analysis.options[1], analysis.options[0], analysis)
    assert drop == 1.0
    assert (
        words
        == "With everyone playing carefully your move comes to a loss, the hard AI's to a win."
    )


async def test_positions_are_what_the_seat_saw_before_each_of_its_moves(tmp_path) -> None:
    """Rebuilt from the log, each of a person's moves comes with their own observation just
    before it (not the table with every secret up), and their move in one-step form."""
    import json

    from bot.storage.db import Database
    from bot.storage.models import ActionRecord, SeatRecord
    from bot.tables.replay import GameReplay
    from bot.tables.review import positions

    spec = QPOKER
    engine = spec.engine
    assert spec.ai is not None
    async with await Database.open(tmp_path / "r.db") as db:
        seats = [
            SeatRecord(seat=0, user_id=5, name="Ann", is_ai=False),
            SeatRecord(seat=1, user_id=None, name="AI", is_ai=True),
        ]
        record = await db.create_game(
            guild_id=1, channel_id=1, game="qpoker", host_id=5, config={"options": {}},
            seed=3, seats=seats,
        )  # fmt: skip
        state = engine.new_game(engine.parse_config({}), 2, 3)
        rng = random.Random(3)
        actions, before = [], []
        while not engine.is_over(state):
            (seat,) = engine.to_act(state)
            if seat == 0:
                before.append(engine.observe(state, 0))
            action = spec.ai.decide(engine.observe(state, seat), "normal", rng, None)
            engine.apply(state, seat, action)
            user = 5 if seat == 0 else None
            actions.append(ActionRecord(version=len(actions) + 1, seat=seat, action=action,
                                        user_id=user, at=0.0))  # fmt: skip
        snapshot = {"state": json.loads(engine.dump_state(state)), "log": [], "history": []}
        await db.save_progress(record.id, version=len(actions), state_json=json.dumps(snapshot),
                               actions=actions, status="finished")  # fmt: skip
        stored = await db.load_game(record.id)
        assert stored is not None
        replay = GameReplay.build(stored, spec, await db.actions(record.id))
    found = positions(replay, 0)
    assert [p.observation for p in found] == before
    assert [p.done for p in found] == [a.action for a in actions if a.seat == 0]
    hidden = [engine.revealed(replay.state_at(p.step - 1)) for p in found]
    assert any(h != p.observation for h, p in zip(hidden, found, strict=True))


def test_a_review_with_no_moves_or_no_differences_says_so() -> None:
    from bot.storage.models import GameRecord, SeatRecord
    from bot.tables.review import Review, panel

    spec = GAMES["qdice"]
    record = GameRecord(
        id=4, guild_id=1, channel_id=1, game="qdice", host_id=1, status="finished",
        config={}, seed=1, version=3, created_at=0.0, thread_id=None, message_id=None,
        state_json=None, deadline_at=None, ended_at=1.0,
        seats=[SeatRecord(seat=0, user_id=1, name="Ann", is_ai=False)],
    )  # fmt: skip
    none = panel(spec, record, Review(game_id=4, seat=0, user_id=1, positions=0))
    assert "no moves of your own" in none.description and not none.controls
    agreed = panel(spec, record, Review(game_id=4, seat=0, user_id=1, positions=6))
    assert "went over your 6 moves" in agreed.description and "same choice" in agreed.description
    assert "review for Ann" in agreed.title and "Only you can see this" in (agreed.footer or "")


def test_secret_choices_are_reviewed_each_in_words() -> None:
    """Flux's claim, poker and point-dice choices are made by every seat at once and in
    secret (the table says only "Ann has chosen"): each person's own choice is a position
    of their review, with what they saw, and the review words what they chose."""
    import json

    from bot.games.flux import move_text
    from bot.storage.models import ActionRecord, GameRecord, SeatRecord
    from bot.tables.replay import GameReplay
    from bot.tables.review import positions

    spec = GAMES["flux"]
    engine = spec.engine
    assert spec.ai is not None
    options = {"variants": "9,11"}
    state = engine.new_game(engine.parse_config(options), 3, 3)
    rng = random.Random(3)
    actions: list[ActionRecord] = []
    made: dict[int, list[tuple[str, str, str | None]]] = {0: [], 1: [], 2: []}
    while not engine.is_over(state):
        seat = rng.choice(sorted(engine.to_act(state)))  # secret choices interleaved
        action = spec.ai.decide(engine.observe(state, seat), "easy", rng, None)
        other = [
            m for m in engine.move_options(state, seat) if normal_form(m) != normal_form(action)
        ]
        made[seat].append((state.phase, normal_form(action), other[0] if other else None))
        engine.apply(state, seat, action)
        actions.append(ActionRecord(version=len(actions) + 1, seat=seat, action=action,
                                    user_id=10 + seat, at=0.0))  # fmt: skip
    names = ["Ann", "Ben", "Cy"]
    record = GameRecord(
        id=1, guild_id=1, channel_id=1, thread_id=None, message_id=None, game="flux",
        host_id=10, status="finished", config={"options": options}, seed=3,
        seats=[SeatRecord(seat=s, user_id=10 + s, name=n, is_ai=False)
               for s, n in enumerate(names)],
        version=len(actions), state_json=json.dumps({"state": json.loads(engine.dump_state(state))}),
        deadline_at=None, created_at=0.0, ended_at=1.0,
    )  # fmt: skip
    replay = GameReplay.build(record, spec, actions)
    secret = {"claim", "poker", "dice"}
    worded, seen = set(), set()
    for seat in range(3):
        found = positions(replay, seat)
        assert [normal_form(p.done) for p in found] == [move for _, move, _ in made[seat]]
        for position, (phase, move, other) in zip(found, made[seat], strict=True):
            assert position.observation.phase == phase and position.user_id == 10 + seat
            seen.add(phase)
            if phase not in secret or other is None:
                continue
            analysis = Analysis.of(
                other, "points", [MoveValue(move=other, value=1.0), MoveValue(move=move, value=0.0)]
            )
            item = entry(spec, position, analysis, names)
            assert item is not None
            assert item.done_text == move_text(position.observation, position.done)
            assert "has chosen" not in item.done_text and "has decided" not in item.done_text
            worded.add(phase)
    assert seen >= secret and worded >= {"poker", "dice"}  # (no hand here could be claimed)
