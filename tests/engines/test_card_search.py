"""The hard levels of Flux and QuantumPoker inside: what their searches believe and how they
judge an outcome, on seeded positions (test_card_levels.py covers legality, hidden
information, deadlines and the simulators against the engines)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from bot.engines.cards import sort_codes, standard_deck
from bot.engines.flux import ai as flux_ai
from bot.engines.flux import search as flux_search
from bot.engines.flux import sim as flux_sim
from bot.engines.flux.engine import FluxConfig, FluxEngine, FluxObservation, FluxState
from bot.engines.flux.rules import poker_winner, unique_top
from bot.engines.poker import best_five
from bot.engines.qpoker import ai as qpoker_ai
from bot.engines.qpoker import search as qpoker_search
from bot.engines.qpoker.engine import PlayedCard, QPokerConfig, QPokerEngine, QPokerObservation
from tests.engines.test_qpoker import make_state

FLUX = FluxEngine()
QPOKER = QPokerEngine()


# --- QuantumPoker: the round replayed from its record --------------------------------------


def _qpoker_positions(n: int, seed: int) -> list[QPokerObservation]:
    """Every decision of a seeded match where the seats mix normal, random and calling
    moves (so rounds hold collapses, swaps of shown qubits and calls)."""
    state = QPOKER.new_game(QPokerConfig(rounds=3), n, seed)
    rng = random.Random(seed)
    seen = []
    while not QPOKER.is_over(state):
        (seat,) = QPOKER.to_act(state)
        obs = QPOKER.observe(state, seat)
        seen.append(obs)
        moves = qpoker_ai.legal_moves(obs)
        if "call" in moves and rng.random() < 0.15:
            move = "call"
        elif rng.random() < 0.4:
            move = rng.choice(moves)
        else:
            move = qpoker_ai.choose_action(obs, rng)
        QPOKER.apply(state, seat, move)
    return seen


@pytest.mark.parametrize("n", [2, 3, 5])
def test_qpoker_every_replayed_deal_leads_to_what_the_seat_sees(n: int) -> None:
    replayed = 0
    for seed in range(3):
        for obs in _qpoker_positions(n, seed):
            history = qpoker_search.History(obs)
            assert history.replayable
            for k in range(4):
                sim, weight = history.particle(random.Random(k))
                assert 0 < weight <= 1
                assert sim.current == obs.current
                assert sorted(sim.community) == sorted(obs.community)
                assert sim.chips == obs.chips
                assert (sim.called_by, sim.final) == (obs.called_by, obs.final_left)
                for s, row in sim.qubits.items():
                    for q, seen in zip(row, obs.qubits[s], strict=True):
                        assert (q[1], q[2], q[3]) == (seen.shown, seen.superposed, seen.doubled)
                        if seen.value is not None:
                            assert q[0] == seen.value
                replayed += 1
    assert replayed > 100


def test_qpoker_the_deal_is_drawn_from_the_qubit_deck() -> None:
    """Before anything is played, five seats hold the whole 20-card deck: the values drawn
    for the others are exactly the ten 1s less the seat's own."""
    obs = QPOKER.observe(QPOKER.new_game(QPokerConfig(), 5, 4), 0)
    mine = sum(q.value or 0 for q in obs.qubits[0])
    history = qpoker_search.History(obs)
    for k in range(20):
        sim, _ = history.particle(random.Random(k))
        assert sum(q[0] for row in sim.qubits.values() for q in row) == 10
        assert [q[0] for q in sim.qubits[0]] == [q.value for q in obs.qubits[0]]
    assert mine <= 4


def test_qpoker_reading_the_others_moves_beats_a_coin() -> None:
    """Against normal players, the hard level's belief about the qubits it cannot see is
    much nearer the truth than a coin's one half (Brier score: a coin scores 0.25)."""
    error = count = 0.0
    for seed in range(12):
        state = QPOKER.new_game(QPokerConfig(rounds=2), 3, seed)
        rng = random.Random(seed)
        while not QPOKER.is_over(state):
            (seat,) = QPOKER.to_act(state)
            obs = QPOKER.observe(state, seat)
            if obs.played:
                sample = qpoker_search.worlds(obs, random.Random(seed), 48)
                belief = qpoker_search.belief_table(obs, sample)
                for s, row in enumerate(obs.qubits):
                    for i, q in enumerate(row):
                        if q.value is None and not q.superposed:
                            error += (belief[s][i].p - state.qubits[s][i].value) ** 2
                            count += 1
            QPOKER.apply(state, seat, qpoker_ai.choose_action(obs, rng))
    assert count > 300
    assert error / count < 0.2


def test_qpoker_a_position_without_a_record_falls_back_to_coins() -> None:
    """A table saved before moves were recorded: the hidden values are coins, and the hard
    level still plays a legal move."""
    state = make_state(["1 0 1 0", "1s 0 0 1", "0 0 1d 1"], "X CX")
    state.played = [PlayedCard(card="SWAP", seat=2)]  # taken earlier, target not recorded
    obs = QPOKER.observe(state, 0)
    history = qpoker_search.History(obs)
    assert not history.replayable
    sim, weight = history.particle(random.Random(1))
    assert weight == 1.0
    assert [q[0] for q in sim.qubits[0]] == [1, 0, 1, 0]
    move = qpoker_search.hard_action(obs, random.Random(2), samples=4)
    assert move in QPOKER.legal_actions(state, 0)


def test_qpoker_measurement_outcomes_and_the_match_share() -> None:
    """Every way the coins can fall, with its chance, pays out as the engine would; in the
    last round the share is the chance to end with the most chips."""
    state = make_state(["1 ~ 0 0", "1 1 0 0"], "X", chips=[10, 10], coins=[1])
    sim = qpoker_search.Sim(
        {s: [[q.value, q.shown, q.superposed, q.doubled] for q in row]
         for s, row in enumerate(state.qubits)},
        list(state.chips), [], 0, None, [], 0, True,
    )  # fmt: skip
    finals = sim.finals()
    assert sorted(chance for chance, _ in finals) == [0.5, 0.5]
    # the coin reads 1: seat 0 has 2 points against 2, a tie, everyone keeps their chips;
    # it reads 0: seat 1 wins with 2 and takes seat 0's single 1
    assert sorted(chips for _, chips in finals) == [[13, 15], [14, 14]]
    assert sim.match_share(0) == pytest.approx(0.5 * 0.5)
    assert sim.match_share(1) == pytest.approx(0.5 * 0.5 + 0.5)
    # a future where seat 1 gains 3 on seat 0 turns the tie into a loss for seat 0
    assert sim.match_share(0, qpoker_search.Futures([[3]])) == 0.0
    assert sim.match_share(0, qpoker_search.Futures([[-1]])) == 0.5
    assert sim.match_share(0, qpoker_search.Futures([[-3]])) == 1.0


# --- Flux: the light simulator's pieces ----------------------------------------------------


def test_flux_poker_potential_on_integers_matches_the_normal_ai() -> None:
    rng = random.Random(5)
    deck = [c for _ in range(3) for c in standard_deck()]
    for _ in range(300):
        hand = sorted(rng.sample(deck, 7), key=lambda c: flux_sim.encode([c])[0])
        ints = flux_sim.encode(hand)
        assert flux_sim.poker_potential(ints) == flux_ai.poker_potential(hand)
        without = flux_sim.potentials_without(ints)
        for i, c in enumerate(ints):
            assert without[c] == flux_ai.poker_potential(hand[:i] + hand[i + 1 :])
        for k in (2, 3):
            for combo in list(combinations(range(7), k))[:5]:
                kept = [c for i, c in enumerate(hand) if i not in combo]
                assert flux_sim.poker_potential(flux_sim.encode(kept)) == (
                    flux_ai.poker_potential(kept)
                )


def test_flux_cards_as_integers_keep_the_hand_order() -> None:
    deck = standard_deck()
    ints = flux_sim.encode(deck)
    assert flux_sim.decode(sorted(ints)) == sort_codes(deck)
    assert flux_sim.decode(ints) == deck


def test_flux_shuffle_written_out_deals_as_random_shuffle_does() -> None:
    """The search's own shuffle draws the same numbers as ``Random.shuffle``: the same seed
    deals the same world."""
    deck = flux_sim.encode([c for _ in range(3) for c in standard_deck()])
    for seed in range(40):
        size = seed * 4 % len(deck) + 1
        expected = deck[:size]
        random.Random(seed).shuffle(expected)
        assert flux_search.shuffled(deck[:size], random.Random(seed)) == expected


def test_flux_poker_game_on_integers_has_the_rules_winner() -> None:
    """The simulator's poker game picks the winner ``flux_rules.poker_winner`` picks, ties
    cancelling, for hands of five to seven cards."""
    rng = random.Random(8)
    deck = flux_sim.encode([c for _ in range(2) for c in standard_deck()])
    ties = 0
    for _ in range(400):
        hands = {s: sorted(rng.sample(deck, rng.choice((5, 6, 7)))) for s in range(5)}
        if rng.random() < 0.3:  # a copy of another hand: a tie that cancels
            hands[4] = list(hands[rng.randrange(4)])
        fives = {s: best_five(flux_sim.decode(h))[1] for s, h in hands.items()}
        expected, ranks = poker_winner(fives)
        ties += len(set(ranks.values())) < len(ranks)
        found = flux_sim.unique_best([(flux_sim.poker_rank(h), s) for s, h in hands.items()])
        assert found == expected
    assert ties > 50


def test_flux_game_chance_counts_a_win_only_on_a_top_score_of_its_own() -> None:
    """:meth:`Standing.value` is the share of the drawn futures in which the seat holds the
    highest score nobody shares (``flux_rules.unique_top``)."""
    obs, _ = _flux_decisions(5, range(1))[0]
    standing = flux_search.Standing(obs, random.Random(1))
    rng = random.Random(2)
    seen = set()
    for _ in range(200):
        sim = flux_search.Dealer(obs).deal(random.Random(rng.random()))
        sim.gained = [rng.randint(0, 6) for _ in range(sim.n)]
        standing.scores = [rng.randint(0, 6) for _ in range(sim.n)]
        futures = standing.futures(standing.hands_left(sim))
        wins = 0
        for change in futures:
            final = [a + b + c for a, b, c in zip(standing.scores, sim.gained, change, strict=True)]
            wins += unique_top(final, standing.seats) == obs.seat
        assert standing.value(sim) == wins / len(futures)
        seen.add(wins / len(futures))
    assert len(seen) > 5


def _flux_decisions(n: int, seeds: range) -> list[tuple[FluxObservation, FluxState]]:
    out = []
    for seed in seeds:
        state = FLUX.new_game(FluxConfig(), n, seed)
        rng = random.Random(seed)
        while not FLUX.is_over(state):
            seat = sorted(FLUX.to_act(state))[0]
            obs = FLUX.observe(state, seat)
            if flux_search.searchable(obs):
                out.append((obs, state.model_copy(deep=True)))
            FLUX.apply(state, seat, flux_ai.choose_action(obs, rng))
    return out


def test_flux_deals_hold_exactly_the_unseen_cards() -> None:
    """A sampled hand: the seat's own cards and what is shown as they are; the others'
    hidden hands and the shoe share out the unseen cards, sizes as observed."""
    for obs, state in _flux_decisions(4, range(2))[::7]:
        dealer = flux_search.Dealer(obs)
        sim = dealer.deal(random.Random(3))
        assert flux_sim.decode(sim.hands[obs.seat]) == obs.hand
        assert [len(h) for h in sim.hands] == obs.hand_sizes
        assert len(sim.shoe) == obs.cards_left == len(state.shoe)
        dealt = [c for s in dealer.hidden for c in sim.hands[s]] + sim.shoe
        assert Counter(flux_sim.decode(dealt)) <= Counter(flux_search.unseen(obs))
        assert flux_sim.decode(sim.burned[::-1]) == obs.burned


def test_flux_unseen_cards_count_what_went_out_in_sight() -> None:
    """The cards a sample deals from hold every card the seat cannot see (the others'
    hidden hands and the shoe) and none it saw go out: at most the two unshown cards of
    each hand ended without a showdown are used cards among them."""
    checked = 0
    for obs, state in _flux_decisions(5, range(2)):
        pool = Counter(flux_search.unseen(obs))
        hidden = Counter(state.shoe)
        for s in range(obs.n_players):
            if s != obs.seat and obs.shown[s] is None:
                hidden.update(state.hands[s])
        missed = Counter(state.out) - Counter(obs.seen_out)
        assert not Counter(obs.seen_out) - Counter(state.out)
        assert pool == hidden + missed
        assert missed.total() <= 2 * obs.n_players * obs.hand_no
        checked += bool(obs.seen_out)
    assert checked > 20


def test_flux_the_game_model_counts_the_hands_left() -> None:
    """The win chance judges a hand's end by the hands still to come: none once the shoe
    cannot deal another, more the fuller it is, and the chance is a probability."""
    obs, _ = _flux_decisions(3, range(1))[0]
    standing = flux_search.Standing(obs, random.Random(1))
    sim = flux_search.Dealer(obs).deal(random.Random(2))
    full = standing.hands_left(sim)
    assert full >= 2
    sim.shoe = sim.shoe[:10]
    assert standing.hands_left(sim) == 0
    sim.rollout()
    assert 0.0 <= standing.value(sim) <= 1.0


def test_flux_plays_for_the_game_only_near_its_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """Early hands are judged by points over the others; from :data:`TO_WIN_HANDS` hands
    before the end the search judges by the chance to win the game."""
    decisions = [obs for obs, _ in _flux_decisions(3, range(1))]
    first, last = decisions[0], decisions[-1]
    standing = flux_search.Standing(first, random.Random(1))
    assert standing.hands_after(first) > flux_search.TO_WIN_HANDS
    assert standing.hands_after(last) <= flux_search.TO_WIN_HANDS
    used: list[float] = []
    real = flux_search.Standing.value

    def spy(self: flux_search.Standing, sim: flux_sim.Sim) -> float:
        used.append(real(self, sim))
        return used[-1]

    monkeypatch.setattr(flux_search.Standing, "value", spy)
    normal = flux_ai.choose_action(first, random.Random(0))
    flux_search.hard_action(first, random.Random(4), normal, samples=4)
    assert not used
    for obs in decisions[::-1]:
        normal = flux_ai.choose_action(obs, random.Random(0))
        if len(flux_search.candidates(obs)) > 1:
            flux_search.hard_action(obs, random.Random(4), normal, samples=4)
            break
    assert used and all(0.0 <= u <= 1.0 for u in used)
