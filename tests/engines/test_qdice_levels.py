"""Quantum dice AI levels: legal moves at every level, the solved two-player table, what hard
and easy do differently from normal, and deadlines."""

from __future__ import annotations

import random
import time
from functools import cache

import numpy as np
import pytest

from bot.engines.qdice import ai as qdice_ai
from bot.engines.qdice import winprob as qdice_winprob
from bot.engines.qdice.ai import LEVELS, choose_action, decide
from bot.engines.qdice.engine import QDiceConfig, QDiceObservation, QDiceState
from bot.engines.qdice.scoring import scoring_keeps
from bot.engines.qdice.winprob import STEP, TurnSolver, default_table, solve
from tests.engines.scripted import ENGINE, make_state


def observe(**kwargs) -> QDiceObservation:
    roll = kwargs.pop("roll")
    final = kwargs.pop("final", None)
    state = make_state(roll, **kwargs)
    if final is not None:  # (contingent winner, seats that had their last turn)
        state.final_round = True
        state.contingent_winner, done = final
        state.finished_last_turn = [seat in done for seat in range(state.n_players)]
    return ENGINE.observe(state, state.current)


def table() -> qdice_winprob.WinTable:
    solved = default_table()
    assert solved is not None, "data/qdice_winprob_10000_1000.npz is missing"
    return solved


def assert_legal(state: QDiceState, move: str) -> None:
    """The engine accepts ``move`` (on a copy) and it is a one-step keep."""
    assert move.split(":")[0] in ("roll", "bank"), move
    ENGINE.apply(state.model_copy(deep=True), state.current, move)


@cache
def random_positions(count: int, seed: int) -> list[QDiceState]:
    """Positions met in seeded games of 2 to 4 random-ish players, 10,000 or 2,000 to win
    (end games and last turns included); shared, so callers must not change them."""
    rng = random.Random(seed)
    found: list[QDiceState] = []
    while len(found) < count:
        n = rng.choice((2, 2, 2, 3, 4))
        config = QDiceConfig(target=rng.choice((10_000, 2_000)))
        state = ENGINE.new_game(config, n, rng.randrange(10**6))
        state.scores = [
            rng.choice((0, rng.randrange(20, config.target // STEP) * STEP)) for _ in range(n)
        ]
        state.on_board = [s > 0 for s in state.scores]
        while not ENGINE.is_over(state) and len(found) < count:
            if rng.random() < 0.3:
                found.append(state.model_copy(deep=True))
            (seat,) = ENGINE.to_act(state)
            obs = ENGINE.observe(state, seat)
            indices, points = rng.choice(scoring_keeps(obs.dice))
            keep = "".join(map(str, indices))
            total = obs.turn_total + points
            bank = (obs.on_board[seat] or total >= obs.entry) and rng.random() < 0.4
            ENGINE.apply(state, seat, f"{'bank' if bank else 'roll'}:{keep}")
    return found


# Every level is always legal ------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_is_legal_in_random_positions(level: str) -> None:
    rng = random.Random(7)
    for state in random_positions(150, seed=11):
        obs = ENGINE.observe(state, state.current)
        assert_legal(state, decide(obs, level, rng))


@pytest.mark.parametrize(
    ("levels", "target", "seed"),
    [
        (("hard", "normal"), 10_000, 1),
        (("easy", "hard"), 10_000, 2),
        (("hard", "easy", "normal"), 3_000, 3),
        (("easy", "easy"), 3_000, 4),
        (("hard", "hard"), 2_000, 5),
    ],
)
def test_whole_games_at_every_level(levels: tuple[str, ...], target: int, seed: int) -> None:
    state = ENGINE.new_game(QDiceConfig(target=target), len(levels), seed)
    rng = random.Random(seed)
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_act(state)
        move = decide(ENGINE.observe(state, seat), levels[seat], rng, time.monotonic() + 5)
        assert_legal(state, move)
        ENGINE.apply(state, seat, move)
    assert state.winner is not None


def test_unknown_level_is_refused() -> None:
    obs = observe(roll="1A 2A 3A 4B 6B 6B")
    with pytest.raises(ValueError, match="unknown level"):
        decide(obs, "expert", random.Random(1))


# The solved table -------------------------------------------------------------------------------


def test_solved_table_covers_every_turn_start() -> None:
    solved = table()
    scores = solved.game.scores()
    assert solved.game.target == 200 and solved.game.entry == 20
    V = solved.V[np.ix_(scores, scores)]
    assert not np.isnan(V).any()
    assert (V > 0).all() and (V < 1).all()
    # Moving first is an advantage, and the start is close to even.
    assert 0.5 < solved.win_chance(0, 0) < 0.56


def test_more_of_my_score_never_lowers_my_chance() -> None:
    solved = table()
    scores = solved.game.scores()
    V = solved.V[np.ix_(scores, scores)]  # rows: my score (0, 1000, 1050, ...), columns: theirs
    assert (np.diff(V, axis=0) >= -1e-9).all()


def test_more_of_their_score_never_raises_my_chance() -> None:
    solved = table()
    scores = solved.game.scores()
    V = solved.V[np.ix_(scores, scores)]
    assert (np.diff(V, axis=1) <= 1e-9).all()


def test_table_satisfies_the_turn_equations() -> None:
    """Solving the turn of a score pair from the table gives the table's value back (up to the
    black-hole estimate used while solving, a few 1e-7)."""
    solved = table()
    V = solved.V
    for i, j in [(0, 0), (20, 0), (0, 150), (100, 100), (199, 180), (60, 199), (150, 40)]:
        solver = TurnSolver(solved.game, np.array([i]), np.array([j]), V)
        fresh = solver.run(np.array([1.0 - V[j, i]]))
        assert fresh[i - solver.low, 0] == pytest.approx(V[i, j], abs=1e-5)


def test_small_game_solves_and_is_monotone() -> None:
    V = solve(target=1000, entry=300, extra=20)
    scores = [0, *range(6, 20)]
    W = V[np.ix_(scores, scores)]
    assert not np.isnan(W).any()
    assert 0.5 < W[0, 0] < 0.65
    assert (np.diff(W, axis=0) >= -1e-9).all()
    assert (np.diff(W, axis=1) <= 1e-9).all()
    # A turn start and its mirror: at even scores the mover is ahead.
    for k in range(1, len(scores)):
        assert W[k, k] > 0.5


# Hard -------------------------------------------------------------------------------------------


def test_hard_banks_when_banking_wins_the_game() -> None:
    # Last turn: 9,000 + 1,550 beats the leader's 10,500, a certain win.
    obs = observe(
        roll="5A 3B 6B",
        kept="1A 1A 4B",
        turn_total=1500,
        current=1,
        scores=[10_500, 9_000],
        on_board=[True, True],
        final=(0, {0}),
    )
    assert decide(obs, "hard", random.Random(1)) == "bank:0"
    # 9,500 + 1,550: the other player (at 1,000) would need over 10,000 in one turn.
    obs = observe(
        roll="5A 3B 6B",
        kept="1A 1A 4B",
        turn_total=1500,
        scores=[9_500, 1_000],
        on_board=[True, True],
    )
    assert decide(obs, "hard", random.Random(1)) == "bank:0"


def test_hard_rolls_when_the_other_player_would_surely_win() -> None:
    # Last turn: banking 10,500 only ties the leader's 10,500, a certain loss.
    obs = observe(
        roll="5A 3B 6B",
        kept="1A 1A 4B",
        turn_total=1450,
        current=1,
        scores=[10_500, 9_000],
        on_board=[True, True],
        final=(0, {0}),
    )
    assert decide(obs, "hard", random.Random(1)).startswith("roll:")
    # Banking 10,000 against 9,950 leaves them a last turn needing only 100 more.
    obs = observe(
        roll="5A 2A 3A 4B 6B 6B",
        turn_total=150,
        scores=[9_800, 9_950],
        on_board=[True, True],
    )
    assert decide(obs, "hard", random.Random(1)).startswith("roll:")


def test_hard_rolls_on_far_behind_where_normal_banks() -> None:
    """Far behind a player about to win, a modest bank is worth little: hard pushes on with
    dice that normal (maximising points) would bank."""
    obs = observe(
        roll="5A 3B",
        kept="1A 5A 4B 4B",
        turn_total=600,
        scores=[1_000, 9_000],
        on_board=[True, True],
    )
    assert choose_action(obs, random.Random(1)) == "bank:0"
    assert decide(obs, "hard", random.Random(1)) == "roll:0"


def test_hard_agrees_with_the_table_on_its_choice() -> None:
    """The chosen move is the best option by the table's own values."""
    solved = table()
    obs = observe(roll="1A 5A 5B 2B 3B 4A", scores=[4000, 5000], on_board=[True, True])
    move = decide(obs, "hard", random.Random(1))
    solver = solved.turn(80, 100)
    values = {}
    for indices, points, nxt in qdice_ai.keep_options(obs.dice):
        a = 80 + points // STEP
        keep = "".join(map(str, indices))
        values[f"roll:{keep}"] = solved.roll_value(solver, a, qdice_winprob.canonical_of(nxt))
        values[f"bank:{keep}"] = solved.bank_value(solver, a)
    assert values[move] == pytest.approx(max(values.values()))


def test_hard_plays_normal_where_no_table_applies() -> None:
    rng = random.Random(3)
    for state in random_positions(60, seed=5):
        obs = ENGINE.observe(state, state.current)
        if obs.n_players > 2 or obs.target != 10_000 or obs.final_round:
            assert decide(obs, "hard", rng) == choose_action(obs, rng)


# Easy -------------------------------------------------------------------------------------------


def easy_moves(obs: QDiceObservation, tries: int = 40) -> set[str]:
    return {decide(obs, "easy", random.Random(seed)) for seed in range(tries)}


def test_easy_sometimes_keeps_every_scoring_die() -> None:
    # Normal keeps the 1 alone and rolls five dice; easy often keeps 1 and 5.
    obs = observe(roll="1A 5A 2A 3B 6B 6B", scores=[2000, 2000], on_board=[True, True])
    assert choose_action(obs, random.Random(1)) == "roll:0"
    moves = easy_moves(obs)
    assert any(m.endswith(":01") for m in moves)
    assert "roll:0" in moves


def test_easy_banks_early_with_many_dice() -> None:
    # 500 on the turn with five dice to roll: normal rolls on, easy is comfortable.
    obs = observe(
        roll="5A 2A 3A 4B 6B 6B", turn_total=450, scores=[2000, 2000], on_board=[True, True]
    )
    assert choose_action(obs, random.Random(1)).startswith("roll:")
    assert easy_moves(obs) == {"bank:0"}


def test_easy_pushes_on_with_few_dice() -> None:
    # 300 with two dice left: normal banks, easy often wants more.
    obs = observe(
        roll="5A 3B 2A",
        kept="1A 5A 4B",
        turn_total=250,
        scores=[2000, 2000],
        on_board=[True, True],
    )
    assert choose_action(obs, random.Random(1)) == "bank:0"
    assert "roll:0" in easy_moves(obs)


def test_easy_ignores_the_end_game() -> None:
    # Banking 10,000 against 9,950: normal (and hard) push on, easy banks.
    obs = observe(
        roll="5A 2A 3A 4B 6B 6B", turn_total=150, scores=[9800, 9950], on_board=[True, True]
    )
    assert choose_action(obs, random.Random(1)).startswith("roll:")
    assert easy_moves(obs) == {"bank:0"}


def test_easy_still_rolls_until_it_beats_the_leader() -> None:
    obs = observe(
        roll="5A 3B 6B",
        kept="1A 1A 4B",
        turn_total=1450,
        current=1,
        scores=[10_500, 9_000],
        on_board=[True, True],
        final=(0, {0}),
    )
    assert easy_moves(obs) == {"roll:0"}


# Deadlines --------------------------------------------------------------------------------------


def test_a_passed_deadline_still_gets_a_legal_move_quickly() -> None:
    solved = table()
    solved._turns.clear()  # nothing solved yet: hard would need ~0.1 s for the turn
    state = make_state("1A 5A 2A 3B 4B 6B", scores=[3000, 4000], on_board=[True, True])
    obs = ENGINE.observe(state, 0)
    qdice_ai.warm_up()
    for level in LEVELS:
        started = time.perf_counter()
        move = decide(obs, level, random.Random(1), deadline=time.monotonic() - 1)
        assert time.perf_counter() - started < 0.05
        assert_legal(state, move)
    assert solved.cached_turn(60, 80) is None  # the passed deadline stopped the search


def test_a_passed_deadline_before_any_table_is_built(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(qdice_ai, "_BUILT", set())
    monkeypatch.setattr(qdice_winprob, "_TABLES", {})
    state = make_state(
        "1A 5A 2A 3B 4B 6B", turn_total=300, scores=[3000, 4000], on_board=[True, True]
    )
    obs = ENGINE.observe(state, 0)
    started = time.perf_counter()
    move = decide(obs, "hard", random.Random(1), deadline=time.monotonic() - 1)
    assert time.perf_counter() - started < 0.05
    assert_legal(state, move)


# Strength, in a few seeded games (the benchmark measures it properly) ----------------------------


def winners(levels: tuple[str, str], games: int, base: int) -> int:
    """Games ``levels[0]`` wins against ``levels[1]``, alternating who starts; a "random"
    level picks any legal keep and then banks or rolls at even odds."""
    won = 0
    for game in range(games):
        seats = levels if game % 2 == 0 else levels[::-1]
        state = ENGINE.new_game(QDiceConfig(), 2, base + game)
        rng = random.Random(base + game)
        while not ENGINE.is_over(state):
            (seat,) = ENGINE.to_act(state)
            obs = ENGINE.observe(state, seat)
            if seats[seat] == "random":
                indices, points = rng.choice(scoring_keeps(obs.dice))
                allowed = obs.on_board[seat] or obs.turn_total + points >= obs.entry
                verb = "bank" if allowed and rng.random() < 0.5 else "roll"
                move = f"{verb}:{''.join(map(str, indices))}"
            else:
                move = decide(obs, seats[seat], rng)
            ENGINE.apply(state, seat, move)
        won += seats[state.winner] == levels[0]
    return won


def test_easy_beats_a_random_player_and_loses_to_normal() -> None:
    assert winners(("easy", "random"), 20, 500) >= 18
    assert winners(("normal", "easy"), 60, 600) >= 36
