"""The exact hard-against-normal figure of two-player Quantum dice, and the state the hard
level reads its table at.

:mod:`bot.engines.qdice.duel` evaluates the two fixed policies exactly. These tests check
that it does what the AI code does (the same choice in real positions), that it gives the
solved table back when hard plays itself, and pin how hard maps a position to the table:
the scores, the turn total and the colours of the dice left.
"""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from bot.engines.qdice import winprob as qdice_winprob
from bot.engines.qdice.ai import STEP, choose_action, decide, hard_action, keep_options
from bot.engines.qdice.duel import HardPolicy, NormalPolicy, Turns, evaluate
from bot.engines.qdice.engine import QDiceObservation
from bot.engines.qdice.winprob import Game, WinTable, canonical_of, canonical_state, solve
from tests.engines.scripted import ENGINE, make_state


def table() -> WinTable:
    solved = qdice_winprob.default_table()
    assert solved is not None, "data/qdice_winprob_10000_1000.npz is missing"
    return solved


def observe(roll: str, scores: list[int], turn_total: int = 0, kept: str = "") -> QDiceObservation:
    state = make_state(
        roll,
        scores=scores,
        on_board=[s > 0 for s in scores],
        turn_total=turn_total,
        kept=kept,
    )
    return ENGINE.observe(state, 0)


# How hard reads the table ------------------------------------------------------------------


def test_hard_stops_where_the_table_says_stop_and_normal_rolls_on() -> None:
    """9,500 against 2,950 with 200 on the turn: a 1 takes hard to 9,800, and from there the
    other player is very unlikely to catch up, so it banks; normal, maximising points, rolls
    the three dice left."""
    obs = observe("1B 2A 4B 4A", scores=[9500, 2950], turn_total=200)
    assert choose_action(obs) == "roll:0"
    assert decide(obs, "hard", random.Random(1)) == "bank:0"
    solved = table()
    solver = solved.turn(190, 59)
    a = 190 + 300 // STEP
    assert solved.bank_value(solver, a) > solved.roll_value(solver, a, canonical_state(2, 1))


def test_hard_reads_the_colours_of_the_dice_left() -> None:
    """Keeping the 1 of colour B leaves three dice of colour A (a one-colour triple is worth
    100 more), keeping the 1 of colour A leaves two and one: the same 100 points, different
    chances, and hard keeps the better one."""
    obs = observe("4A 1A 6A 1B", scores=[2500, 2150], turn_total=400)
    assert decide(obs, "hard", random.Random(1)) == "roll:3"
    solved = table()
    solver = solved.turn(50, 43)
    a = 50 + 500 // STEP
    three_a = solved.roll_value(solver, a, canonical_state(3, 0))
    two_one = solved.roll_value(solver, a, canonical_state(2, 1))
    assert three_a > two_one + 1e-3
    # Swapping every colour changes nothing: the table only knows "three of one colour".
    swapped = observe("4B 1B 6B 1A", scores=[2500, 2150], turn_total=400)
    assert decide(swapped, "hard", random.Random(1)) == "roll:3"


def test_hard_reads_both_scores_and_the_turn_total() -> None:
    """The same roll and turn total: level with the other player, far behind, far ahead."""
    roll, kept = "5A 3B 2B", "1A 5A 1B"
    level = observe(roll, scores=[5000, 5000], turn_total=250, kept=kept)
    behind = observe(roll, scores=[2000, 9500], turn_total=250, kept=kept)
    assert decide(level, "hard", random.Random(1)) == "bank:0"
    assert decide(behind, "hard", random.Random(1)) == "roll:0"
    solved = table()
    for scores, obs in (([5000, 5000], level), ([2000, 9500], behind)):
        i, j = scores[0] // STEP, scores[1] // STEP
        solver = solved.turn(i, j)
        a = i + 300 // STEP
        bank, roll = (
            solved.bank_value(solver, a),
            solved.roll_value(solver, a, canonical_state(0, 2)),
        )
        assert decide(obs, "hard", random.Random(1)) == ("bank:0" if bank >= roll else "roll:0")


# The evaluated policies are the AI's -----------------------------------------------------------


def positions(count: int, seed: int) -> list[QDiceObservation]:
    """Two-player positions (default options) with a scoring roll on the table."""
    rng = random.Random(seed)
    found: list[QDiceObservation] = []
    while len(found) < count:
        n = rng.choice((1, 2, 3, 4, 5, 6))
        roll = " ".join(f"{rng.randint(1, 6)}{c}" for c in rng.sample("AAABBB", n))
        scores = [rng.choice((0, rng.randrange(20, 200) * STEP)) for _ in range(2)]
        turn_total = rng.randrange(0, 60) * STEP if n < 6 else rng.choice((0, 0, 500, 1500))
        obs = observe(roll, scores=scores, turn_total=turn_total)
        if keep_options(obs.dice):
            found.append(obs)
    return found


def chosen(obs: QDiceObservation, move: str) -> tuple[int, int, bool]:
    """The (turn level after the keep, canonical dice state left, banks) of a move."""
    verb, keep = move.split(":")
    indices = tuple(int(ch) for ch in keep)
    ((_, points, nxt),) = [o for o in keep_options(obs.dice) if o[0] == indices]
    return (
        obs.scores[0] // STEP + (obs.turn_total + points) // STEP,
        canonical_of(nxt),
        verb == "bank",
    )


@cache
def normal_policy() -> NormalPolicy:
    return NormalPolicy(table().game, 1_000)


@pytest.mark.parametrize("name", ["hard", "normal"])
def test_the_evaluated_policy_makes_the_ai_choice(name: str) -> None:
    solved = table()
    policy = HardPolicy(solved.V) if name == "hard" else normal_policy()
    compared = 0
    for obs in positions(60, seed=4 if name == "hard" else 5):
        i, j = obs.scores[0] // STEP, obs.scores[1] // STEP
        turns = Turns(solved.game, np.array([i]), np.array([j]))
        value, banks = policy.choices(turns)
        banks &= turns.can_bank[:, None, :]
        move = hard_action(obs) if name == "hard" else choose_action(obs)
        assert move is not None
        a, d, bank = chosen(obs, move)
        options = [chosen(obs, f"roll:{''.join(map(str, o[0]))}") for o in keep_options(obs.dice)]
        values = [value[x - turns.low, s, 0] for x, s, _ in options]
        assert value[a - turns.low, d, 0] == pytest.approx(max(values), abs=1e-12)
        assert bank == bool(banks[a - turns.low, d, 0])
        compared += 1
    assert compared == 60


# Exact figures ---------------------------------------------------------------------------------


@cache
def small_game() -> tuple[Game, np.ndarray]:
    return Game.of(1000, 300, 20), solve(target=1000, entry=300, extra=20)


def test_hard_against_itself_gives_the_solved_table_back() -> None:
    game, V = small_game()
    hard = HardPolicy(V)
    duel = evaluate(hard, hard, game, passes=1)
    scores = game.scores()
    mine = duel.first[np.ix_(scores, scores)]
    assert np.abs(mine - V[np.ix_(scores, scores)]).max() < 1e-5
    # Moving second against yourself is the other side of moving first.
    assert duel.moving_second == pytest.approx(1 - duel.moving_first, abs=1e-9)


def test_hard_beats_normal_and_normal_is_even_with_itself() -> None:
    game, V = small_game()
    normal = NormalPolicy(game, 300)
    normal.guess = V
    even = evaluate(normal, normal, game, passes=1)
    assert even.alternating == pytest.approx(0.5, abs=1e-9)
    assert even.moving_first > 0.5
    duel = evaluate(HardPolicy(V), normal, game, passes=1)
    # Against normal, hard does at least as well as the table promises against optimal play.
    assert duel.moving_first >= V[0, 0] - 1e-6
    assert duel.moving_second >= 1 - V[0, 0] - 1e-6
    assert duel.alternating > 0.505
