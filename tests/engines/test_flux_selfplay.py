"""Seeded Flux self-play across variants, with invariants checked after every move.

Every card stays in exactly one place after every move, for every variant alone and for a
few large combinations that between them hold every pair of variants the table offers.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from bot.engines.base import ConfigError, Event
from bot.engines.cards import standard_deck
from bot.engines.flux.ai import choose_action as flux_choose
from bot.engines.flux.engine import FluxConfig, FluxEngine, FluxState
from bot.engines.flux.rules import REQUIRES, VARIANTS, parse_variants
from tests.engines.test_flux import shows_cards, total_cards

ENGINE = FluxEngine()
MAX_MOVES = 6000
SETS = [
    ("", 24),
    ("1,3,5,6,9,11", 8),
    ("2,7,8,10,12", 8),
    ("9,9a,19,4", 6),
    ("16,20", 6),
    ("14,15,17,21", 6),
    ("18,12", 6),
    ("22", 6),
]


def points_in(events: list[Event], n: int) -> list[int]:
    """The score changes the events announce, seat by seat."""
    delta = [0] * n
    for e in events:
        if e.kind in ("trick", "flux", "original") and e.seat is not None:
            delta[e.seat] += e.data["points"]
        elif e.kind == "settle":
            for seat, pts in e.data["points"].items():
                delta[int(seat)] += pts
        elif e.kind == "poker" and e.data["winner"] is not None:
            delta[e.data["winner"]] += e.data["points"]
    return delta


EVENT_SOURCE = {"trick": "tricks", "flux": "fluxes", "original": "value", "settle": "value",
                "poker": "poker"}  # fmt: skip


def points_by_source(events: list[Event], n: int, into: dict[str, list[int]]) -> None:
    """Add the points the events announce to ``into``, by the score sheet's sources."""
    for e in events:
        source = EVENT_SOURCE.get(e.kind)
        if source is None:
            continue
        if e.kind == "settle":
            for seat, pts in e.data["points"].items():
                into[source][int(seat)] += pts
        elif e.kind == "poker":
            if e.data["winner"] is not None:
                into[source][e.data["winner"]] += e.data["points"]
        elif e.seat is not None:
            into[source][e.seat] += e.data["points"]


def check_score_sheet(state: FluxState, announced: dict[str, list[int]]) -> None:
    """The public score sheet adds up to the scores, source by source as announced, one line
    per hand that scored."""
    n = state.n_players
    for source, points in announced.items():
        assert [sum(getattr(h, source)[s] for h in state.ledger) for s in range(n)] == points
    assert [sum(h.total(s) for h in state.ledger) for s in range(n)] == state.scores
    numbers = [h.hand_no for h in state.ledger]
    assert numbers == sorted(set(numbers)) and all(1 <= k <= state.hand_no for k in numbers)
    assert ENGINE.observe(state, None).ledger == state.ledger


def check_observations(state: FluxState, held: list[set[str]]) -> None:
    for seat in range(state.n_players):
        obs = ENGINE.observe(state, seat)
        assert obs.hand == state.hands[seat]
        assert obs.selected == state.selected[seat]
        for other in range(state.n_players):
            if state.exposed[other]:
                assert obs.shown[other] == state.hands[other]
            else:
                assert obs.shown[other] is None
        dumped = obs.model_dump_json()
        for other in range(state.n_players):
            if other != seat and not state.exposed[other] and state.hands[other]:
                assert str(state.hands[other]) not in dumped
        assert obs.my_dice_use == (state.dice_use[seat] if state.dice_use else None)
    spectator = ENGINE.observe(state, None)
    assert spectator.hand == [] and spectator.my_claim is None and spectator.my_poker is None
    assert not Counter(spectator.seen_out) - Counter(state.out)  # only used cards
    for seat in range(state.n_players):
        mine = Counter(ENGINE.observe(state, seat).seen_out)
        assert not Counter(spectator.seen_out) - mine
        # what one seat remembers beyond the table's memory, it held itself
        assert set(mine - Counter(spectator.seen_out)) <= held[seat]
    assert spectator.my_dice_use is None


def choose(state: FluxState, seat: int, rng: random.Random) -> str:
    if seat % 2 == 0:
        return flux_choose(ENGINE.observe(state, seat), rng)
    legal = ENGINE.legal_actions(state, seat)
    if rng.random() < 0.2:
        return rng.choice(legal)  # toggles included
    return rng.choice(ENGINE.move_options(state, seat))


FULL = {decks: sorted(standard_deck() * decks) for decks in range(1, 7)}


def every_card_once(state: FluxState) -> None:
    """Every card of the shoe's decks is in exactly one place, none lost or doubled."""
    places = [*state.shoe, *state.burned, *state.out, *(p.card for p in state.trick)]
    for hand in state.hands:
        places += hand
    if state.turnup is not None:
        places.append(state.turnup)
    places.sort()
    if places != FULL[state.config.deck_count]:
        full = Counter(FULL[state.config.deck_count])
        raise AssertionError(f"missing {full - Counter(places)}, extra {Counter(places) - full}")


def run_game(variants: str, seed: int, options: dict[str, int] | None = None) -> FluxState:
    rng = random.Random(seed)
    n = 2 + seed % 5
    state = ENGINE.new_game(FluxConfig(variants=variants, **(options or {})), n, seed)
    cards = 52 * state.config.deck_count
    every_card_once(state)
    announced = {source: [0] * n for source in ("tricks", "fluxes", "value", "poker")}
    held: list[set[str]] = [set(hand) for hand in state.hands]  # every card each seat held
    for _ in range(MAX_MOVES):
        assert total_cards(state) == cards
        every_card_once(state)
        if ENGINE.is_over(state):
            ENGINE.outcome(state)
            assert ENGINE.to_act(state) == frozenset()
            check_score_sheet(state, announced)
            return state
        acting = sorted(ENGINE.to_act(state))
        assert acting, state.phase
        seat = rng.choice(acting)
        phase, hand_no = state.phase, state.hand_no
        before = list(state.scores)
        events = ENGINE.apply(state, seat, choose(state, seat, rng))
        for s, hand in enumerate(state.hands):
            held[s].update(hand)
        gained = [a - b for a, b in zip(state.scores, before, strict=True)]
        assert gained == points_in(events, n)
        points_by_source(events, n, announced)
        assert all(g >= 0 for g in gained)
        still = state.phase == phase and state.hand_no == hand_no and ENGINE.to_act(state)
        if phase in ("claim", "poker", "dice") and still:  # a secret choice: nothing revealed yet
            assert not any(shows_cards(e) for e in events)
        if rng.random() < 0.1:
            check_observations(state, held)
            assert ENGINE.load_state(ENGINE.dump_state(state)) == state
    raise AssertionError(f"game {variants!r}/{seed} did not end")


@pytest.mark.parametrize(("variants", "games"), SETS)
def test_self_play_invariants(variants: str, games: int) -> None:
    hands = 0
    for seed in range(games):
        state = run_game(variants, seed)
        hands += state.hand_no
    assert hands >= games


# --- every variant and every combination the table offers --------------------------------


def with_companions(keys: set[str]) -> frozenset[str]:
    """The keys plus the variants they need (7 needs 2, 9a needs 9, 16d needs 16)."""
    out = set(keys)
    for key, (needed, _) in REQUIRES.items():
        if key in out:
            out.add(needed)
    return frozenset(out)


def offered(keys: frozenset[str]) -> bool:
    try:
        parse_variants(sorted(keys))
    except ConfigError:
        return False
    return True


SINGLES = sorted({with_companions({k}) for k in VARIANTS}, key=sorted)
PAIRS = sorted(
    {
        with_companions({a, b})
        for a, b in combinations(VARIANTS, 2)
        if offered(with_companions({a, b}))
    },
    key=sorted,
)


def covering_sets(seed: int = 2024) -> list[frozenset[str]]:
    """Large combinations (greedy, seeded) that together hold every offered pair."""
    rng = random.Random(seed)
    uncovered = {
        frozenset(p) for p in combinations(VARIANTS, 2) if offered(with_companions(set(p)))
    }
    sets: list[frozenset[str]] = []
    while uncovered:
        chosen = with_companions(set(min(uncovered, key=sorted)))
        order = sorted(VARIANTS)
        rng.shuffle(order)
        for key in order:
            trial = with_companions({*chosen, key})
            if offered(trial):
                chosen = trial
        sets.append(chosen)
        uncovered = {p for p in uncovered if not p <= chosen}
    return sets


COVER = covering_sets()


def options_for(keys: frozenset[str], seed: int) -> dict[str, int]:
    """Table options that go with the variants: Variant 15's length, 18's one deck."""
    options: dict[str, int] = {}
    if "15" in keys:
        options |= [{}, {"deals": 1}, {"limit": 25}, {"deals": 1, "limit": 40}][seed % 4]
    if "18" in keys and seed % 3 == 2:
        options["decks"] = 1
    return options


def play_combination(keys: frozenset[str], seed: int) -> None:
    variants = ",".join(sorted(keys))
    options = options_for(keys, seed)
    if options.get("decks") == 1:
        seed = seed - seed % 5 + min(seed % 5, 1)  # one deck holds at most three players
    run_game(variants, seed, options)


def test_the_combinations_cover_every_offered_pair() -> None:
    assert len(SINGLES) == len(VARIANTS) and all(offered(k) for k in SINGLES)
    for pair in PAIRS:
        assert any(pair <= c for c in COVER), pair
    assert all(offered(c) for c in COVER)
    assert len(COVER) <= 12


@pytest.mark.parametrize("keys", SINGLES, ids=lambda k: ",".join(sorted(k)))
def test_every_variant_alone_conserves_cards(keys: frozenset[str]) -> None:
    for seed in (101, 202):
        play_combination(keys, seed)


@pytest.mark.parametrize("index", range(len(COVER)))
def test_large_combinations_conserve_cards(index: int) -> None:
    for seed in range(8):
        play_combination(COVER[index], 500 + 11 * index + seed)
