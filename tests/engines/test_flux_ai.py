"""The Flux AI: plays toward the target, calls when close, builds poker on a face turn-up."""

from __future__ import annotations

import random

from bot.engines.flux.ai import best_discard, choose_action, draw_distribution, poker_potential
from bot.engines.flux.ai import choose_action as flux_choose
from bot.engines.flux.engine import FluxConfig
from bot.engines.flux.rules import distance, hand_value
from tests.engines.test_flux import ENGINE, make_state


def _command(hand: str, *, turnup: str = "5D", roll: int = 3, target: int = 12):  # type: ignore[no-untyped-def]
    state = make_state([hand, "2S 3S 4S"], turnup=turnup, target=target, phase="command")
    state.commander, state.discard_range = 0, (roll, roll)
    return ENGINE.observe(state, 0)


def test_draw_distribution_is_a_distribution() -> None:
    for count in range(4):
        total = sum(p for _, p in draw_distribution(count, False))
        assert abs(total - 1) < 1e-9
    assert all(v >= 0 for v, _ in draw_distribution(3, True))


def test_calls_on_the_target_and_discards_when_far() -> None:
    assert choose_action(_command("TH 2D KS KH QS QH JD"), random.Random(0)) == "call"
    obs = _command("TS 9S 8C KH QS QH JD")  # -27: 15 off
    move = choose_action(obs, random.Random(0))
    assert move.startswith("discard:")
    thrown = move.removeprefix("discard:").split(",")
    assert len(thrown) == 3 and {"TS", "9S"} <= set(thrown)  # the big black cards go


def test_discards_close_the_distance_on_average() -> None:
    obs = _command("TS 9S 8C 5H 4H QH JD", roll=2)  # -18: 6 off
    _, expected, _ = best_discard(obs)
    assert expected < distance(hand_value(obs.hand), obs.target)


def test_builds_poker_when_the_turn_up_is_a_face_card() -> None:
    hand = "4H KD TD TS QH AD 6D"
    plain = _command(hand, turnup="5D")
    face = _command(hand, turnup="KD")
    kept = {}
    for name, obs in (("plain", plain), ("face", face)):
        _, _, thrown = best_discard(obs)
        rest = list(obs.hand)
        for code in thrown:
            rest.remove(code)
        kept[name] = rest
    assert poker_potential(kept["face"]) > poker_potential(kept["plain"])
    assert {"TD", "TS"} <= set(kept["face"])  # the pair of tens is kept for poker


def test_claims_calls_after_flux_and_shows_the_best_five() -> None:
    state = make_state(["TH 2D KS KH QS QH JD", "TS 2C KD 4C QD QC JC"], phase="claim")
    assert choose_action(ENGINE.observe(state, 0), random.Random(0)) == "claim"
    assert choose_action(ENGINE.observe(state, 1), random.Random(0)) == "pass"
    state.phase = "flux"
    assert choose_action(ENGINE.observe(state, 0), random.Random(0)) == "call"
    state = make_state(["AS AH AD KS KH 2C 3C", "QS QH 9D 8S 7H 2D 3D"], phase="poker")
    move = choose_action(ENGINE.observe(state, 0), random.Random(0))
    assert sorted(move.removeprefix("show:").split(",")) == sorted(["AS", "AH", "AD", "KS", "KH"])


def test_ai_beats_random_players() -> None:
    wins = 0
    games = 40
    for seed in range(games):
        state = ENGINE.new_game(FluxConfig(), 3, 1000 + seed)
        ai_seat = seed % 3
        rng = random.Random(seed)
        while not ENGINE.is_over(state):
            seat = sorted(ENGINE.to_act(state))[0]
            if seat == ai_seat:
                move = flux_choose(ENGINE.observe(state, seat), rng)
            else:
                move = rng.choice(ENGINE.move_options(state, seat))
            ENGINE.apply(state, seat, move)
        wins += ENGINE.outcome(state).winners == [ai_seat]
    assert wins >= 0.7 * games
