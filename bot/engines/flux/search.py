"""Flux search for the hard AI: determinization and rollouts on a light simulator.

The hard level samples the cards the seat cannot see (the other hands and the order of the
shoe) from the cards it has not seen anywhere, plays each candidate move on every sample and
rolls the hand out to its end (value game and poker) with the normal policy for every other
seat and the hard level's own style (:data:`~bot.engines.flux.ai.HARD`) for itself, each
deciding from its own view of the sample. A candidate's worth is the seat's points over
the rest of the hand less the average of the others' (in the game's last hands: its chance
to win the game, :class:`Standing`); the best average over the samples is played when it
stands clear of the noise (perfect-information Monte Carlo).

The simulator is :mod:`bot.engines.flux.sim`. Variants that change the command itself (16,
Temporal flux) are not simulated: there the hard level plays as normal. Only the
observation is read.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from bot.engines.analysis import Analysis, MoveValue, share_of_top
from bot.engines.cards import standard_deck
from bot.engines.flux import ai as flux_ai
from bot.engines.flux.ai import Judge, poker_potential, poker_weight
from bot.engines.flux.rules import Rules, hand_value
from bot.engines.flux.sim import HAND_SIZE, UNSUPPORTED, Sim, decode, encode, parse, roller
from bot.engines.pimc import clearly_better

if TYPE_CHECKING:
    from bot.engines.flux.engine import FluxObservation

SAMPLES = 512
"""Determinizations per decision at most. In the bot the time budget (``AI_BUDGET``, one
second) usually ends the search first: at 5 seats all 512 take about 1.2 s on the
development machine. On 151 recorded 5-seat decisions, each move judged by 1,024 worlds,
the moves chosen with 512 worlds gave up 0.0016 in chance to win per decision (0.20 points
where it plays for points), with 256 worlds 0.0027 (0.26), with 128 worlds 0.0044 (0.40)."""
DISCARDS = 5
"""Discards searched at most (the normal policy's best ones), besides calling."""
CONFIDENCE = 1.0
"""Standard errors by which a move's sampled advantage must beat the normal move's."""
RACE_FROM, RACE_EVERY, RACE_MARGIN = 12, 4, 2.0
"""Moves clearly worse are dropped after ``RACE_FROM`` worlds and then every ``RACE_EVERY``
(:func:`race`), so the rollouts left go to the moves still in contention."""


def unseen(obs: FluxObservation) -> list[str]:
    """Every card the seat has not seen (the others' hands, the shoe, and the few used cards
    it did not see go: others' cards left unshown when a hand ended without a showdown),
    sorted so that a sample depends only on the rng. Counting the used cards it did see
    halves the pool at a usual decision of a 5-seat game."""
    pool = Counter(c for _ in range(obs.decks) for c in standard_deck())
    seen = list(obs.hand) + list(obs.burned) + [p.card for p in obs.trick] + list(obs.seen_out)
    if obs.turnup is not None:
        seen.append(obs.turnup)
    for s, shown in enumerate(obs.shown):
        if shown is not None and s != obs.seat:
            seen.extend(shown)
    pool.subtract(seen)
    return sorted(pool.elements())


def sample(obs: FluxObservation, rng: random.Random) -> Sim:
    """A full hand consistent with what the seat sees: others' hands and the shoe drawn from
    the unseen cards."""
    return Dealer(obs).deal(rng)


class Dealer:
    """Deals the cards one observation's seat cannot see, again and again."""

    def __init__(self, obs: FluxObservation) -> None:
        me = obs.seat
        assert me is not None
        self.obs = obs
        self.pool = encode(unseen(obs))
        self.hidden = [
            s
            for s in range(obs.n_players)
            if s != me and obs.active[s] and obs.shown[s] is None and obs.hand_sizes[s]
        ]
        self.known = [
            encode(obs.hand) if s == me else encode(obs.shown[s] or [])
            for s in range(obs.n_players)
        ]

    def deal(self, rng: random.Random) -> Sim:
        obs = self.obs
        pool = shuffled(self.pool, rng)
        hands = [list(h) for h in self.known]
        at = 0
        for s in self.hidden:
            k = obs.hand_sizes[s]
            hands[s] = pool[at : at + k]
            at += k
        shoe = pool[at : at + obs.cards_left]
        shoe.reverse()
        return Sim(
            obs.rules,
            hands,
            shoe,
            encode(obs.burned[::-1]),
            active=list(obs.active),
            target=obs.target,
            turnup=obs.turnup,
            phase=obs.phase,
            trick=[(p.seat, encode([p.card])[0]) for p in obs.trick],
            leader=obs.leader,
            turn=obs.turn,
            tricks_won=obs.tricks_won,
            max_tricks=obs.max_tricks,
            commander=obs.commander,
            discard_range=obs.discard_range,
            bullseye_bonus=obs.bullseye_bonus,
            bonus_trick=obs.bonus_trick,
            point_dice=[list(d) for d in obs.point_dice],
            roll=roller(0),
        )


def shuffled(cards: list[int], rng: random.Random) -> list[int]:
    """A shuffled copy of ``cards``: ``rng.shuffle`` written out (the same numbers drawn in
    the same order, so the same deal), without its method calls per card."""
    pool = list(cards)
    bits = rng.getrandbits
    for i in range(len(pool) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        pool[i], pool[j] = pool[j], pool[i]
    return pool


def discard_candidates(obs: FluxObservation, most: int = DISCARDS) -> list[str]:
    """The normal policy's best discards (by its own score), best first."""
    rules = obs.rules
    seat = obs.seat if obs.seat is not None else 0
    judge = Judge(obs.target, obs.point_dice[seat], rules)
    weight = poker_weight(obs, flux_ai.HARD)
    hand = obs.hand
    low, high = obs.discard_range
    scored: dict[tuple[str, ...], float] = {}
    for k in range(low, high + 1):
        for combo in combinations(range(len(hand)), k):
            thrown = tuple(sorted(hand[i] for i in combo))
            if thrown in scored:
                continue
            kept = [c for i, c in enumerate(hand) if i not in combo]
            expected = judge.expected(hand_value(kept, rules.absolute), k)
            scored[thrown] = expected - weight * poker_potential(kept)
    best = sorted(scored, key=lambda t: scored[t])[:most]
    return ["discard:" + ",".join(t) for t in best]


def candidates(obs: FluxObservation) -> list[str]:
    if obs.phase == "trick":
        return [f"p:{c}" for c in dict.fromkeys(obs.hand)]
    if obs.phase == "command":
        return ["call", *discard_candidates(obs)]
    return []


def searchable(obs: FluxObservation) -> bool:
    return (
        obs.seat is not None
        and obs.phase in ("trick", "command")
        and not UNSUPPORTED.intersection(obs.variants)
    )


def hard_action(
    obs: FluxObservation,
    rng: random.Random,
    normal: str,
    deadline: float | None = None,
    samples: int = SAMPLES,
) -> str:
    """Perfect-information Monte Carlo over the candidate moves (``normal`` when there is no
    choice worth searching, or no whole sample fits before the deadline). A rollout that
    would end past the deadline (judged by the longest so far) is not begun, so the search
    ends by its deadline rather than one rollout after it."""
    return hard_analysis(obs, rng, normal, deadline, samples).move


def hard_analysis(
    obs: FluxObservation,
    rng: random.Random,
    normal: str,
    deadline: float | None = None,
    samples: int | None = None,
    also: Sequence[str] = (),
) -> Analysis:
    """:func:`hard_action`'s search with what it found (:mod:`bot.engines.analysis`): each
    candidate's average over the worlds it was played in: points over the others' average
    this hand (kind "points"), with the share of worlds in which it came out on top of the
    hand (scope "hand"); or, in the game's last hands, the chance to win the game (kind
    "win"). Reasons: "search" (the clearest winner over the normal move), "only" (one
    candidate), "no-deal" (no whole world fitted before the deadline: the normal move). ``samples``: worlds at most (:data:`SAMPLES` by default). ``also``: moves
    to value on the same worlds, never chosen."""
    me = obs.seat
    assert me is not None
    samples = SAMPLES if samples is None else samples
    moves = candidates(obs)
    if len(moves) <= 1:
        return Analysis.rule(normal, "only")
    if normal not in moves:
        moves.append(normal)
    extra = [m for m in dict.fromkeys(also) if m not in moves]
    runs: dict[str, list[float]] = {m: [] for m in [*moves, *extra]}
    tops: dict[str, list[float]] = {m: [] for m in runs}
    parsed = {m: parse(m) for m in runs}
    dealer = Dealer(obs)
    standing = None
    if TO_WIN and Standing.covers(obs):
        standing = Standing(obs, random.Random(rng.random()))
        if standing.hands_after(obs) > TO_WIN_HANDS:
            standing = None  # far from the end points over the others judge better
    prior = Prior(obs, dealer) if PRIOR and Prior.helps(obs, dealer) else None
    budget = samples * len(moves)  # rollouts: a move dropped leaves more worlds to the rest
    done = 0
    longest = 0.0  # the longest rollout so far: one that would end past the deadline is not begun
    while budget >= len(moves) and (deadline is None or time.monotonic() < deadline):
        seed = rng.random()
        world = dealer.deal(random.Random(seed)) if prior is None else prior.deal(seed)
        world.styles = {me: flux_ai.HARD}  # the others play as the normal level does
        values = {}
        on_top = {}
        for move in [*moves, *extra]:
            began = time.monotonic()
            if deadline is not None and began + longest >= deadline:
                break
            sim = world.copy(roller(seed + 1))  # the same dice for each move
            sim.apply(me, parsed[move])
            sim.rollout()
            values[move] = worth(sim, me) if standing is None else standing.value(sim)
            on_top[move] = top_share(sim, me)
            longest = max(longest, time.monotonic() - began)
        if len(values) < len(moves) + len(extra):
            break  # out of time mid-sample: only whole samples count
        for move, value in values.items():
            runs[move].append(value)
            tops[move].append(on_top[move])
        budget -= len(moves)
        done += 1
        if done >= RACE_FROM and done % RACE_EVERY == 0:
            moves = race(runs, moves, normal)
    chosen = clearly_better({m: runs[m] for m in moves}, normal, CONFIDENCE)
    if not done:
        return Analysis.rule(chosen, "no-deal")
    figures = [
        MoveValue(
            move=move,
            value=sum(found) / len(found) if found else None,
            win=(
                (sum(found) / len(found) if standing else sum(tops[move]) / len(found))
                if found
                else None
            ),
            samples=len(found),
        )
        for move, found in runs.items()
    ]
    return Analysis.of(
        chosen, "win" if standing else "points", figures,
        scope="game" if standing else "hand", samples=done, reason="search",
    )  # fmt: skip


def top_share(sim: Sim, me: int) -> float:
    """``me``'s share of the most points gained this hand among the seats in it."""
    others = [sim.gained[s] for s in range(sim.n) if s != me and sim.active[s]]
    return share_of_top(sim.gained[me], others)


def race(runs: dict[str, list[float]], moves: list[str], normal: str) -> list[str]:
    """The moves still worth sampling: every move whose paired shortfall against the normal
    move or the best-looking one stands :data:`RACE_MARGIN` standard errors clear of the
    noise is dropped (the normal move always stays)."""
    done = len(runs[normal])
    mean = {m: sum(runs[m]) / done for m in moves}
    leader = max(moves, key=lambda m: mean[m])
    keep = []
    for move in moves:
        if move == normal:
            keep.append(move)
            continue
        worse = False
        for rival in {normal, leader} - {move}:
            diffs = [a - b for a, b in zip(runs[move], runs[rival], strict=True)]
            avg = sum(diffs) / done
            spread = (sum((d - avg) ** 2 for d in diffs) / (done - 1)) ** 0.5
            if avg + RACE_MARGIN * spread / done**0.5 < 0:
                worse = True
        if not worse:
            keep.append(move)
    return keep


def worth(sim: Sim, me: int) -> float:
    """``me``'s points over the hand less the average of the others'."""
    others = [sim.gained[s] for s in range(sim.n) if s != me and sim.active[s]]
    return sim.gained[me] - (sum(others) / len(others) if others else 0.0)


# --- playing to win the game -----------------------------------------------------------

MODEL_HANDS = 300
"""Hands of normal play that model the points a future hand brings each seat."""
FUTURES = 64
"""Draws of the remaining hands' points that judge a score's chance to win the game."""
TO_WIN = True
"""Judge a hand's end by the chance to win the game (where the model covers the variants)
rather than by points over the others'."""
TO_WIN_HANDS = 1
"""Play for the game only when at most this many hands are expected after the current one:
earlier, a few points move the chance to win too little to rise above the sampling noise,
and points over the others are the sharper measure."""
PRIOR = True
"""Weight the dealt hands of the others by how near the target normal play keeps a hand."""
PRIOR_DRAWS = 4
"""Deals drawn per world kept when weighting them."""
_MODELS: dict[tuple[int, int, Rules], Model] = {}


class Model:
    """What :data:`MODEL_HANDS` hands of the normal policy from fresh deals (the same every
    time) say: each seat's points in each hand, the cards a hand uses on average, and how a
    hand's distance from the target is spread once ``k`` tricks are won, next to a fresh
    deal's (:meth:`weight`)."""

    def __init__(self, players: int, decks: int, rules: Rules) -> None:
        rng = random.Random(players * 1000 + decks)
        low, high = rules.target_range
        self.gains: list[list[int]] = []
        used = 0
        counts = [[1.0] * 40 for _ in range(5)]  # tricks won (4: more) -> distance -> count
        for _ in range(MODEL_HANDS):
            deck = encode([c for _ in range(decks) for c in standard_deck()])
            rng.shuffle(deck)
            hands = [sorted(deck.pop() for _ in range(7)) for _ in range(players)]
            turnup = decode([deck.pop()])[0]
            if (low, high) == (3, 18):
                target = sum(rng.randint(1, 6) for _ in range(3))
            else:
                target = rng.randint(low, high)
            size = len(deck)
            sim = Sim(rules, hands, deck, [], active=[True] * players, target=target,
                      turnup=turnup, phase="trick", trick=[], leader=0, turn=0, tricks_won=0,
                      max_tricks=None, commander=None, discard_range=(0, 0), bullseye_bonus=10,
                      bonus_trick=None, point_dice=[[] for _ in range(players)],
                      roll=rng.randint)  # fmt: skip
            while (seat := sim.to_act) is not None:
                if sim.phase == "trick" and not sim.trick:
                    row = counts[min(sim.tricks_won, 4)]
                    for s in range(players):
                        row[min(39, abs(abs(sim.total(s)) - target))] += 1
                sim.apply(seat, sim.policy(seat))
            self.gains.append(sim.gained)
            used += size - len(sim.shoe) + 7 * players + 1
        self.per_hand = used / MODEL_HANDS
        fresh = [c / sum(counts[0]) for c in counts[0]]
        self.weights = [
            [c / sum(row) / f for c, f in zip(row, fresh, strict=True)] for row in counts
        ]

    def weight(self, tricks_won: int, distance: int) -> float:
        """How much likelier normal play holds a hand this far from the target than a fresh
        deal does, ``tricks_won`` tricks into the hand."""
        return self.weights[min(tricks_won, 4)][min(39, distance)]


def hand_model(players: int, decks: int, rules: Rules) -> Model:
    key = (players, decks, rules)
    found = _MODELS.get(key)
    if found is None:
        found = _MODELS[key] = Model(players, decks, rules)
    return found


class Standing:
    """The seat's chance to win the game from the scores at the end of this hand: the hands
    still to come are drawn from :func:`hand_model` (the same draws for every candidate)."""

    def __init__(self, obs: FluxObservation, rng: random.Random) -> None:
        assert obs.seat is not None, "a seat's standing, not a spectator's"
        self.me: int = obs.seat
        self.scores = list(obs.scores)
        self.active = list(obs.active)
        self.players = sum(obs.active)
        self.seats = [s for s in range(obs.n_players) if obs.active[s]]
        model = hand_model(self.players, obs.decks, obs.rules)
        self.model, self.per_hand = model.gains, model.per_hand
        self.rng = rng
        self._futures: dict[int, list[list[int]]] = {}

    @staticmethod
    def covers(obs: FluxObservation) -> bool:
        """Whether the game ends as the model has it: when the cards run out."""
        rules = obs.rules
        return not ({"3", "8", "15", "18", "22"} & set(rules.keys) or rules.anti)

    def hands_after(self, obs: FluxObservation) -> int:
        """The hands expected after the current one, judged from the cards left now (the
        current hand's remaining draws are not taken off: an upper bound)."""
        return self._hands(obs.cards_left, len(obs.burned))

    def hands_left(self, sim: Sim) -> int:
        return self._hands(len(sim.shoe), len(sim.burned))

    def _hands(self, shoe: int, burned: int) -> int:
        hands = 0
        while shoe > 0 and shoe + burned >= HAND_SIZE * self.players + 1:
            hands += 1
            shoe -= round(self.per_hand)
        return hands

    def futures(self, hands: int) -> list[list[int]]:
        found = self._futures.get(hands)
        if found is None:
            found = []
            for _ in range(FUTURES if hands else 1):
                total = [0] * len(self.scores)
                for _ in range(hands):
                    gains = self.rng.choice(self.model)
                    order = self.rng.sample(self.seats, len(self.seats))
                    for s, g in zip(order, gains, strict=True):
                        total[s] += g
                found.append(total)
            self._futures[hands] = found
        return found

    def value(self, sim: Sim) -> float:
        """The chance to win the game (top scores that tie cancel) after ``sim``'s hand."""
        me = self.me
        mine_now = self.scores[me] + sim.gained[me]
        others = [(s, self.scores[s] + sim.gained[s]) for s in self.seats if s != me]
        futures = self.futures(self.hands_left(sim))
        wins = 0
        for change in futures:
            mine = mine_now + change[me]
            above = [v for s, now in others if (v := now + change[s]) >= mine]
            # the seat wins when its score is its own and every score above it is shared
            if not above or (mine not in above and all(above.count(v) > 1 for v in above)):
                wins += 1
        return wins / len(futures)


class Prior:
    """Deals weighted by how near the target normal play keeps the others' hands
    (:meth:`Model.weight`): of :data:`PRIOR_DRAWS` deals, one is kept at random in
    proportion to its weight."""

    def __init__(self, obs: FluxObservation, dealer: Dealer) -> None:
        self.dealer = dealer
        self.model = hand_model(sum(obs.active), obs.decks, obs.rules)
        self.tricks = obs.tricks_won
        self.target = obs.target

    @staticmethod
    def helps(obs: FluxObservation, dealer: Dealer) -> bool:
        return bool(dealer.hidden) and obs.tricks_won > 0 and not obs.rules.anti

    def deal(self, seed: float) -> Sim:
        rng = random.Random(seed)
        deals = [self.dealer.deal(rng) for _ in range(PRIOR_DRAWS)]
        weights = []
        for sim in deals:
            w = 1.0
            for s in self.dealer.hidden:
                w *= self.model.weight(self.tricks, abs(abs(sim.total(s)) - self.target))
            weights.append(w)
        return rng.choices(deals, weights)[0]
