"""The Flume AI levels: legal moves at every level, the hard level's sampled deals, its
privacy, its deadline, and its simulator checked against the engine."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterator

import pytest

from bot.engines.flume import search as fs
from bot.engines.flume.ai import best_trump, choose_action, decide
from bot.engines.flume.engine import FlumeConfig, FlumeEngine, FlumeObservation, FlumeState
from bot.engines.flume.rules import flume_deck, is_trump, suit_of

ENGINE = FlumeEngine()
DECK = flume_deck()


@pytest.fixture(autouse=True)
def _few_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the hard level cheap here: its judgement is the benchmark's business."""
    monkeypatch.setattr(fs, "DEFAULT_SAMPLES", 4)
    monkeypatch.setattr(fs, "BID_SAMPLES", 4)


def is_legal(obs: FlumeObservation, action: str) -> bool:
    """One of the offered moves, or the one-step discard of offered cards."""
    if action in obs.legal:
        return True
    verb, colon, rest = action.partition(":")
    if obs.phase != "discard" or verb != "discard" or not colon:
        return False
    codes = [c for c in rest.split(",") if c]
    return len(set(codes)) == len(codes) <= obs.stock_count and all(
        f"d:{c}" in obs.legal for c in codes
    )


def states(n: int, seed: int, target: int = 11) -> Iterator[FlumeState]:
    """Every state of a seeded normal-AI game, before each move (the same object, moved on)."""
    state = ENGINE.new_game(FlumeConfig(target=target), n, seed)
    rng = random.Random(seed)
    while not ENGINE.is_over(state):
        yield state
        (seat,) = ENGINE.to_act(state)
        ENGINE.apply(state, seat, choose_action(ENGINE.observe(state, seat), rng))


def current_obs(state: FlumeState) -> FlumeObservation:
    (seat,) = ENGINE.to_act(state)
    return ENGINE.observe(state, seat)


# --------------------------------------------------------------------------- every level


@pytest.mark.parametrize("n", [4, 5])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_level_always_makes_a_legal_move_over_whole_games(n: int, seed: int) -> None:
    levels = ["hard", "easy", "normal", "hard", "easy"][:n]
    state = ENGINE.new_game(FlumeConfig(target=11), n, seed)
    rng = random.Random(seed)
    moves: Counter[str] = Counter()
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_act(state)
        obs = ENGINE.observe(state, seat)
        action = decide(obs, levels[seat], rng)
        assert is_legal(obs, action), (levels[seat], obs.phase, action, obs.legal)
        ENGINE.apply(state, seat, action)
        moves[f"{levels[seat]} {obs.phase}"] += 1
    for level in ("easy", "hard"):
        assert moves[f"{level} play"] >= 6 and moves[f"{level} bid"] >= 1


def test_normal_is_choose_action_and_unknown_levels_are_refused() -> None:
    for state in states(4, seed=3):
        obs = current_obs(state)
        assert decide(obs, "normal", random.Random(9)) == choose_action(obs, random.Random(9))
    with pytest.raises(ValueError):
        decide(obs, "expert", random.Random(0))


# --------------------------------------------------------------------------- sampling


def voids_seen(obs: FlumeObservation) -> dict[int, set[str]]:
    """Recomputed from scratch: the suits each seat failed to follow."""
    assert obs.trump is not None
    out: dict[int, set[str]] = {s: set() for s in range(obs.n_players)}
    for plays in [t.plays for t in obs.tricks] + ([obs.trick] if obs.trick else []):
        led = suit_of(plays[0][1], obs.trump)
        for seat, code in plays[1:]:
            if suit_of(code, obs.trump) != led:
                out[seat].add(led)
    return out


def check_deal(obs: FlumeObservation, buckets: list[list[int]]) -> None:
    me, trump = obs.seat, obs.trump
    assert me is not None and trump is not None
    others = [s for s in range(obs.n_players) if s != me]
    codes = [[fs.CODES[c] for c in bucket] for bucket in buckets]
    hands = dict(zip(others, codes, strict=False))
    discards, stock = codes[len(others)], codes[len(others) + 1]
    everything = (
        list(obs.hand)
        + list(obs.my_discards)
        + [c for _, c in obs.played]
        + [c for bucket in codes for c in bucket]
    )
    assert Counter(everything) == Counter(DECK)  # every card once: played and own excluded
    for seat in others:
        assert len(hands[seat]) == obs.hand_sizes[seat]
    assert len(discards) == sum(obs.discarded[s] or 0 for s in others)
    assert len(stock) == obs.stock_count
    assert not any(is_trump(c, trump) for c in discards)  # only non-trumps are discarded
    voids = voids_seen(obs)
    for seat in others:
        assert not any(suit_of(c, trump) in voids[seat] for c in hands[seat]), (seat, voids)
    if obs.called and obs.bidder != me and obs.bidder is not None:
        assert obs.called not in hands[obs.bidder]


@pytest.mark.parametrize("n", [4, 5])
def test_sampled_deals_agree_with_everything_the_seat_has_seen(n: int) -> None:
    rng = random.Random(4)
    checked = voids = 0
    for seed in (5, 6):
        for state in states(n, seed):
            if state.phase != "play":
                continue
            obs = current_obs(state)
            seen = voids_seen(obs)
            for seat, suits in seen.items():  # the inference holds for the real hands too
                assert obs.trump is not None
                assert not any(suit_of(c, obs.trump) in suits for c in state.hands[seat])
            voids += sum(map(len, seen.values()))
            sampler = fs.HandSampler(obs)
            for _ in range(3):
                check_deal(obs, sampler.buckets(rng))
                checked += 1
            hands = sampler.deal(rng)
            assert [fs.CODES[c] for c in hands[obs.seat]] == obs.hand  # type: ignore[index]
    assert checked > 100 and voids > 10


def test_a_deal_is_found_when_a_greedy_deal_gets_stuck() -> None:
    # Three one-card buckets; dealing "c" to bucket 0 first leaves "b" nowhere to go unless
    # "c" moves on to bucket 2.
    cards = [10, 11, 12]
    allowed = [[0, 1], [0, 1], [0, 2]]
    for seed in range(50):
        buckets = fs.deal_buckets(cards, [1, 1, 1], allowed, random.Random(seed))
        assert sorted(c for b in buckets for c in b) == cards
        for b, bucket in enumerate(buckets):
            assert len(bucket) == 1 and b in allowed[cards.index(bucket[0])]
    with pytest.raises(ValueError):
        fs.deal_buckets(cards, [2, 1, 0], [[0], [0], [0]], random.Random(0))


# --------------------------------------------------------------------------- privacy, time


def with_other_hidden_cards(state: FlumeState, seat: int, rng: random.Random) -> FlumeState:
    """A copy in which the cards hidden from ``seat`` in the other hands and the stock are
    shuffled among them (every count unchanged)."""
    other = state.model_copy(deep=True)
    places = [other.hands[s] for s in range(state.n_players) if s != seat] + [other.stock]
    slots = [(place, i) for place in places for i in range(len(place))]
    codes = [place[i] for place, i in slots]
    rng.shuffle(codes)
    for (place, i), code in zip(slots, codes, strict=True):
        place[i] = code
    if other.called is not None and not other.partner_known:
        other.partner = next((s for s, h in enumerate(other.hands) if other.called in h), None)
    return other


@pytest.mark.parametrize("n", [4, 5])
def test_hard_decides_from_the_observation_alone(n: int) -> None:
    rng = random.Random(7)
    compared: Counter[str] = Counter()
    for state in states(n, seed=8):
        if state.phase == "discard" or state.hand_no > 2:
            continue
        (seat,) = ENGINE.to_act(state)
        twin = with_other_hidden_cards(state, seat, rng)
        if twin.hands == state.hands:
            continue  # a single hidden card left: nothing to change
        obs, twin_obs = ENGINE.observe(state, seat), ENGINE.observe(twin, seat)
        assert obs == twin_obs
        assert decide(obs, "hard", random.Random(11)) == decide(twin_obs, "hard", random.Random(11))
        compared[state.phase] += 1
    assert compared["bid"] and compared["trump"] and compared["play"] >= 20


def test_a_deadline_already_passed_still_gives_a_legal_move_quickly() -> None:
    seen: Counter[str] = Counter()
    for state in states(4, seed=9):
        obs = current_obs(state)
        start = time.monotonic()
        action = decide(obs, "hard", random.Random(1), deadline=start - 1.0)
        assert time.monotonic() - start < 0.5
        assert is_legal(obs, action)
        seen[obs.phase] += 1
        if state.phase == "play" and len(obs.legal) > 1 and seen["short"] < 3:
            start = time.monotonic()
            action = decide(obs, "hard", random.Random(1), deadline=start + 0.05)
            assert time.monotonic() - start < 1.0 and is_legal(obs, action)
            seen["short"] += 1
    assert seen["bid"] and seen["trump"] and seen["play"] and seen["short"] == 3


# --------------------------------------------------------------------------- the simulator


def replay(state: FlumeState, cards: list[int]) -> None:
    for c in cards:
        (seat,) = ENGINE.to_act(state)
        ENGINE.apply(state, seat, f"play:{fs.CODES[c]}")


@pytest.mark.parametrize("n", [4, 5])
def test_the_simulator_plays_and_scores_a_hand_as_the_engine_does(n: int) -> None:
    """From the first card and from the middle of a hand: the simulator's cards, replayed
    in the engine, give the engine's card points and score changes."""
    checked = 0
    for seed in range(10, 14):
        hand_no = 0
        for state in states(n, seed):
            if state.phase != "play" or len(state.played) not in (0, n + 2):
                continue
            obs = current_obs(state)
            pos = fs.position(obs)
            hands = [[fs.INDEX[c] for c in h] for h in state.hands]
            side = fs.sides_of(pos, hands)
            high, low = fs.high_low(pos, hands)
            record: list[int] = []
            taken, points = fs.play_out(pos, [list(h) for h in hands], side, record=record)
            change = fs.deltas(pos, side, taken, points, high, low)
            twin = state.model_copy(deep=True)
            replay(twin, record)
            summary = twin.last_hand
            assert summary is not None and summary.hand_no == state.hand_no
            assert summary.card_points == taken
            assert summary.deltas == change
            engine_sides = ENGINE.sides(state)
            assert all(
                (engine_sides[a] == engine_sides[b]) == (side[a] == side[b])
                for a in range(n)
                for b in range(n)
            )
            checked += 1
            hand_no = state.hand_no
        assert hand_no >= 2
    assert checked >= 16


@pytest.mark.parametrize("n", [4, 5])
def test_a_whole_simulated_hand_matches_the_engine_with_normal_discards_and_call(
    n: int,
) -> None:
    checked = 0
    for seed in range(20, 24):
        for state in states(n, seed):
            if state.phase != "trump":
                continue
            obs = current_obs(state)
            bidder = state.bidder
            assert bidder is not None
            trump = best_trump(state.hands[bidder], n)[0]
            hands = [[fs.INDEX[c] for c in h] for h in state.hands]
            record: list[int] = []
            pos, side, taken, points, high, low = fs.play_hand(
                obs, hands, [fs.INDEX[c] for c in state.stock], bidder, trump, record
            )
            pos.bid = state.bid
            twin = state.model_copy(deep=True)
            rng = random.Random(0)
            while twin.phase != "play":
                (seat,) = ENGINE.to_act(twin)
                ENGINE.apply(twin, seat, choose_action(ENGINE.observe(twin, seat), rng))
            assert twin.trump == trump
            replay(twin, record)
            summary = twin.last_hand
            assert summary is not None and summary.hand_no == state.hand_no
            assert summary.card_points == taken
            assert summary.deltas == fs.deltas(pos, side, taken, points, high, low)
            checked += 1
    assert checked >= 8


def test_the_fast_bidding_estimate_is_the_normal_ais() -> None:
    rng = random.Random(12)
    for _ in range(3000):
        hand = rng.sample(range(len(DECK)), 6)
        n = rng.choice([4, 5])
        assert fs.fast_best_trump(hand, n) == best_trump([fs.CODES[c] for c in hand], n)
