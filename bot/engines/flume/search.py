"""The "hard" Flume AI's search: perfect-information Monte Carlo over sampled deals.

The seat decides from its :class:`~bot.engines.flume.engine.FlumeObservation` alone. For a card to
play it repeatedly

1. **samples** the hidden cards (the other hands, the other seats' discards and the stock)
   consistently with everything the seat has seen: its own hand and discards, every card
   played, the suits a seat showed it lacks by not following, the hand sizes, the discard
   and stock counts, that discards are never trumps, and (five-handed) that the bidder does
   not hold the card it called;
2. **plays every legal card** in that deal and the rest of the hand out with a light
   simulator (cards as small integers, tables per trump suit) in which everyone follows a
   fast perfect-information version of the normal AI's play, and scores the hand as the
   engine does (points, the bid made or set, the game won or lost);
3. **averages** each card's result over the deals and plays the best one.

Bids and the trump call are searched the same way from the deal: the other hands and the
order of the stock are dealt at random, each deal weighted by how well the bids and passes
already made fit it under the normal AI's bidding rule; in each deal the seats still to bid
follow that rule, the winner of the bid names its best suit (or, when this seat names
trumps, each suit in turn), everyone discards by the normal AI's rule and draws, and the
hand is played out in the simulator. Everyone passing counts as nothing (a redeal). The
discards and the five-handed call are the normal AI's.

Without a deadline it takes a fixed number of deals; with one, it keeps dealing until the
deadline (at least one deal when there is time, and no more than a cap), so it always
returns its best move so far.

The simulator is checked against the engine by ``tests/engines/test_flume_levels.py``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.engines.cards import HIGH_JOKER, LOW_JOKER, SUITS, card
from bot.engines.flume.engine import FlumeObservation
from bot.engines.flume.rules import (
    card_points,
    flume_deck,
    left_bower,
    right_bower,
    suit_of,
    trump_order,
    trump_power,
)

CODES: tuple[str, ...] = tuple(flume_deck())
INDEX: dict[str, int] = {c: i for i, c in enumerate(CODES)}
N_CARDS = len(CODES)
CARD_POINTS: tuple[int, ...] = tuple(card_points(c) for c in CODES)
POINT_CARD_VALUE = 9  # as in flume.ai: a bower or a joker is worth about a ten to game
DEFAULT_SAMPLES = 16  # deals per card played without a deadline
BID_SAMPLES = 32  # deals per bid or trump call without a deadline
MAX_SAMPLES = 400  # deals per decision at most, whatever the deadline
GAME_END_WEIGHT = 1.0  # a game won or lost counts this many times the target


@dataclass(frozen=True, slots=True)
class Tables:
    """Everything the simulator needs about the cards once trumps are known."""

    trump: str
    trump_suit: int  # index in SUITS
    follow: tuple[int, ...]  # the suit (index in SUITS) each card follows as
    power: tuple[int, ...]  # trump power 1-14, 0 for a non-trump
    strength: tuple[tuple[int, ...], ...]  # [led suit][card] as flume.rules.strength
    worth: tuple[int, ...]  # card points plus a point card's value
    keep: tuple[float, ...]  # the normal AI's cost of losing the card
    special: tuple[bool, ...]  # a bower or a joker: a point to whoever takes it
    off_ace: tuple[bool, ...]  # an ace of a plain suit


def _tables(trump: str) -> Tables:
    follow = tuple(SUITS.index(suit_of(c, trump)) for c in CODES)
    power = tuple(trump_power(c, trump) for c in CODES)
    ranks = tuple(card(c).rank for c in CODES)
    strength = tuple(
        tuple(
            100 + power[i] if power[i] else (ranks[i] if follow[i] == led else 0)
            for i in range(N_CARDS)
        )
        for led in range(4)
    )
    specials = {right_bower(trump), left_bower(trump), HIGH_JOKER, LOW_JOKER}
    special = tuple(c in specials for c in CODES)
    worth = tuple(CARD_POINTS[i] + (POINT_CARD_VALUE if special[i] else 0) for i in range(N_CARDS))
    keep = tuple(
        0.5
        if CODES[i] == "2" + trump
        else worth[i] + (power[i] * 1.5 if power[i] else ranks[i] * 0.3)
        for i in range(N_CARDS)
    )
    off_ace = tuple(ranks[i] == 14 and not power[i] for i in range(N_CARDS))
    return Tables(trump, SUITS.index(trump), follow, power, strength, worth, keep, special, off_ace)


TABLES: dict[str, Tables] = {s: _tables(s) for s in SUITS}


# --------------------------------------------------------------------------- sampling


def deal_buckets(
    cards: Sequence[int],
    sizes: Sequence[int],
    allowed: Sequence[Sequence[int]],
    rng: random.Random,
) -> list[list[int]]:
    """Put ``cards`` into buckets of the given ``sizes`` (which add up to ``len(cards)``),
    card ``k`` only into a bucket listed in ``allowed[k]``.

    The most constrained cards go first, each to an allowed bucket with room drawn in
    proportion to the room left (a plain deal when nothing is constrained); when a card
    finds every allowed bucket full, cards already placed are moved along a shortest chain
    to make room, so a deal is found whenever one exists. Raises ``ValueError`` otherwise.
    """
    order = list(range(len(cards)))
    rng.shuffle(order)
    order.sort(key=lambda k: len(allowed[k]))
    room = list(sizes)
    contents: list[list[int]] = [[] for _ in sizes]  # indices into ``cards``
    for k in order:
        options = allowed[k]
        total = 0
        for b in options:
            total += room[b]
        if total:
            pick = rng.random() * total
            chosen = options[-1]
            for b in options:
                if room[b]:
                    pick -= room[b]
                    if pick < 0:
                        chosen = b
                        break
            while not room[chosen]:  # float edge: the last bucket drawn was full
                chosen = next(b for b in options if room[b])
            contents[chosen].append(k)
            room[chosen] -= 1
            continue
        _make_room(k, allowed, room, contents)
    return [[cards[k] for k in bucket] for bucket in contents]


def _make_room(
    k: int, allowed: Sequence[Sequence[int]], room: list[int], contents: list[list[int]]
) -> None:
    """Place card ``k`` by moving placed cards along a chain of buckets to one with room."""
    parent: dict[int, tuple[int, int] | None] = dict.fromkeys(allowed[k])
    queue = list(allowed[k])
    for bucket in queue:
        for other in contents[bucket]:
            for nxt in allowed[other]:
                if nxt in parent:
                    continue
                parent[nxt] = (bucket, other)
                if room[nxt]:
                    # shift back along the chain, then place k where the chain starts
                    target = nxt
                    step = parent[target]
                    while step is not None:
                        source, moved = step
                        contents[source].remove(moved)
                        contents[target].append(moved)
                        target, step = source, parent[source]
                    contents[target].append(k)
                    room[nxt] -= 1
                    return
                queue.append(nxt)
    raise ValueError("no deal of the hidden cards fits what this seat has seen")


def unseen_cards(obs: FlumeObservation) -> list[int]:
    """Cards this seat has not seen this hand (other hands, others' discards, the stock)."""
    seen = set(obs.hand) | set(obs.my_discards) | {c for _, c in obs.played}
    return [i for i, c in enumerate(CODES) if c not in seen]


def voids(obs: FlumeObservation) -> list[set[int]]:
    """The suits (indices in SUITS) each seat has shown it lacks by not following."""
    assert obs.trump is not None
    tb = TABLES[obs.trump]
    out: list[set[int]] = [set() for _ in range(obs.n_players)]
    tricks = [t.plays for t in obs.tricks]
    if obs.trick:
        tricks.append(obs.trick)
    for plays in tricks:
        led = tb.follow[INDEX[plays[0][1]]]
        for seat, code in plays[1:]:
            if tb.follow[INDEX[code]] != led:
                out[seat].add(led)
    return out


class HandSampler:
    """Deals of the hidden cards during the play, consistent with one observation.

    Every deal gives each seat's current hand (the observer's own as it is); the other
    seats' discards and the stock are dealt too, only to keep the hands consistent.
    """

    def __init__(self, obs: FlumeObservation) -> None:
        me, trump = obs.seat, obs.trump
        assert me is not None and trump is not None
        tb = TABLES[trump]
        self.n, self.me = obs.n_players, me
        self.others = others = [s for s in range(self.n) if s != me]
        self.cards = unseen_cards(obs)
        hidden_discards = sum(obs.discarded[s] or 0 for s in others)
        self.sizes = [obs.hand_sizes[s] for s in others] + [hidden_discards, obs.stock_count]
        disc_bucket, stock_bucket = len(others), len(others) + 1
        void = voids(obs)
        called = INDEX[obs.called] if obs.called is not None else -1
        bidder_bucket = others.index(obs.bidder) if obs.bidder in others else -1
        self.allowed: list[list[int]] = []
        for c in self.cards:
            suit = tb.follow[c]
            ok = [b for b, s in enumerate(others) if suit not in void[s]]
            if c == called and bidder_bucket >= 0:
                ok = [b for b in ok if b != bidder_bucket]
            if not tb.power[c]:
                ok.append(disc_bucket)
            ok.append(stock_bucket)
            self.allowed.append(ok)
        self.own = [INDEX[c] for c in obs.hand]

    def buckets(self, rng: random.Random) -> list[list[int]]:
        """One deal: the other seats' hands (in seat order), their discards, the stock."""
        return deal_buckets(self.cards, self.sizes, self.allowed, rng)

    def deal(self, rng: random.Random) -> list[list[int]]:
        buckets = self.buckets(rng)
        hands: list[list[int]] = [[] for _ in range(self.n)]
        hands[self.me] = list(self.own)
        for b, s in enumerate(self.others):
            hands[s] = buckets[b]
        return hands


# --------------------------------------------------------------------------- the simulator


@dataclass(slots=True)
class Position:
    """The parts of a hand in play that every sampled deal shares."""

    n: int
    tb: Tables
    me: int
    turn: int  # the seat to act when no trick is in progress (the leader)
    bidder: int
    bid: int
    called: int  # -1: none
    scores: list[int]
    target: int
    trick: list[tuple[int, int]]  # (seat, card) so far in the trick in progress
    played: list[tuple[int, int]]  # (seat, card) played this hand, the trick in progress too
    taken: list[int]  # card points taken per seat
    points: list[int]  # bowers and jokers taken per seat


def position(obs: FlumeObservation) -> Position:
    assert obs.seat is not None and obs.trump is not None and obs.bidder is not None
    tb = TABLES[obs.trump]
    taken = [0] * obs.n_players
    points = [0] * obs.n_players
    for t in obs.tricks:
        for _, code in t.plays:
            c = INDEX[code]
            taken[t.winner] += CARD_POINTS[c]
            points[t.winner] += tb.special[c]
    return Position(
        n=obs.n_players,
        tb=tb,
        me=obs.seat,
        turn=obs.seat,
        bidder=obs.bidder,
        bid=obs.bid,
        called=INDEX[obs.called] if obs.called is not None else -1,
        scores=list(obs.scores),
        target=obs.target,
        trick=[(s, INDEX[c]) for s, c in obs.trick],
        played=[(s, INDEX[c]) for s, c in obs.played],
        taken=taken,
        points=points,
    )


def sides_of(pos: Position, hands: Sequence[Sequence[int]]) -> list[int]:
    """Each seat's side in this deal (0: the bidder's): teams four-handed; five-handed the
    bidder and whoever holds or played the called card."""
    n = pos.n
    if n == 4:
        return [0 if (s - pos.bidder) % 2 == 0 else 1 for s in range(4)]
    side = [1] * n
    side[pos.bidder] = 0
    if pos.called >= 0:
        for s, h in enumerate(hands):
            if pos.called in h:
                side[s] = 0
        for s, c in pos.played:
            if c == pos.called:
                side[s] = 0
    return side


def high_low(pos: Position, hands: Sequence[Sequence[int]]) -> tuple[int, int]:
    """Who plays the highest trump and who the lowest non-joker trump (-1: nobody); these
    do not depend on how the cards are played."""
    power = pos.tb.power
    high = low = -1
    top, bottom = 0, 99
    for s, c in pos.played:
        p = power[c]
        if p > top:
            top, high = p, s
        if 2 < p < bottom:
            bottom, low = p, s
    for s, hand in enumerate(hands):
        for c in hand:
            p = power[c]
            if p > top:
                top, high = p, s
            if 2 < p < bottom:
                bottom, low = p, s
    return high, low


def play_out(
    pos: Position,
    hands: list[list[int]],
    side: Sequence[int],
    first: int | None = None,
    record: list[int] | None = None,
) -> tuple[list[int], list[int]]:
    """Play the hand to its end from ``pos`` (``hands`` are consumed), the seat to act
    playing ``first`` if given. Returns (card points taken, bowers and jokers taken) per
    seat; ``record`` collects the cards in play order.

    Everyone plays the normal AI's way, but knowing every hand: lead a trump nobody can
    beat, else an off-suit ace, else the card cheapest to lose; when following, throw the
    most valuable card onto a trick a partner is sure to win, win as cheaply as can be
    sure to hold when the trick is worth it, take a rich trick with a cheap card that may
    hold, and otherwise throw the card cheapest to lose.
    """
    n, tb = pos.n, pos.tb
    follow, special, power, keep, worth = tb.follow, tb.special, tb.power, tb.keep, tb.worth
    strengths, off_ace = tb.strength, tb.off_ace
    keep_of = keep.__getitem__
    trick = list(pos.trick)
    taken = list(pos.taken)
    points = list(pos.points)
    seat = (trick[-1][0] + 1) % n if trick else pos.turn
    led = follow[trick[0][1]] if trick else -1
    st = strengths[led] if trick else strengths[0]
    best, best_seat, stake = -1, -1, 0
    for s, x in trick:
        if st[x] > best:
            best, best_seat = st[x], s
        stake += worth[x]
    left = 0
    for h in hands:
        left += len(h)
    while left:
        hand = hands[seat]
        if first is not None:
            c, first = first, None
        elif len(hand) == 1:
            c = hand[0]
        elif not trick:  # lead
            mine, c = 0, -1
            for x in hand:
                if power[x] > mine:
                    mine, c = power[x], x
            if mine:
                theirs = 0
                for s in range(n):
                    if s != seat:
                        for x in hands[s]:
                            if power[x] > theirs:
                                theirs = power[x]
                if not theirs or mine < theirs:
                    c = -1
            if c < 0:
                for x in hand:
                    if off_ace[x]:
                        c = x
                        break
                else:
                    c = min(hand, key=keep_of)
        else:  # follow
            options = [x for x in hand if follow[x] == led] or hand
            if len(options) == 1:
                c = options[0]
            else:
                after = n - len(trick) - 1
                threat = -1  # the best card still to come, found only when needed
                c = -1
                winning = [x for x in options if st[x] > best]
                if winning or side[best_seat] == side[seat]:
                    threat = 0
                    for i in range(1, after + 1):
                        other = hands[(seat + i) % n]
                        for x in [x for x in other if follow[x] == led] or other:
                            if st[x] > threat:
                                threat = st[x]
                if side[best_seat] == side[seat] and best > threat:
                    c = max(options, key=lambda x: (worth[x], -keep[x]))
                else:
                    if winning:
                        sure = [x for x in winning if st[x] > threat]
                        if sure and (stake > 0 or after == 0 or any(worth[x] for x in sure)):
                            c = min(sure, key=keep_of)
                        else:
                            cheap = min(winning, key=keep_of)
                            if stake >= 10 and not worth[cheap]:
                                c = cheap
                    if c < 0:
                        c = min(options, key=keep_of)
        hand.remove(c)
        left -= 1
        if record is not None:
            record.append(c)
        if not trick:
            led = follow[c]
            st = strengths[led]
        trick.append((seat, c))
        if st[c] > best:
            best, best_seat = st[c], seat
        stake += worth[c]
        if len(trick) < n:
            seat = (seat + 1) % n
            continue
        seat = best_seat
        for _, x in trick:
            taken[seat] += CARD_POINTS[x]
            points[seat] += special[x]
        trick = []
        best, best_seat, stake = -1, -1, 0
    return taken, points


def deltas(
    pos: Position,
    side: Sequence[int],
    taken: Sequence[int],
    points: Sequence[int],
    high: int,
    low: int,
) -> list[int]:
    """The score change of each seat for a finished hand, as the engine scores it."""
    per_side = [0, 0]
    cards = [0, 0]
    for s in range(pos.n):
        per_side[side[s]] += points[s]
        cards[side[s]] += taken[s]
    if high >= 0:
        per_side[side[high]] += 1
    if low >= 0:
        per_side[side[low]] += 1
    if cards[0] != cards[1]:
        per_side[0 if cards[0] > cards[1] else 1] += 1
    bid_side = side[pos.bidder]
    made = per_side[bid_side] >= pos.bid
    return [
        -pos.bid if side[s] == bid_side and not made else per_side[side[s]] for s in range(pos.n)
    ]


def winners(pos: Position, side: Sequence[int], change: Sequence[int]) -> list[int]:
    """Who wins the game after the hand (empty: nobody yet), as the engine decides."""
    scores = [a + b for a, b in zip(pos.scores, change, strict=True)]
    reached = [s for s in range(pos.n) if scores[s] >= pos.target]
    if not reached:
        return []
    best = max(scores[s] for s in reached)
    top = [s for s in reached if scores[s] == best]
    bidders = [s for s in top if side[s] == side[pos.bidder]]
    if bidders and len(bidders) < len(top):
        top = bidders
    if pos.n == 4:
        won = {s % 2 for s in top}
        top = [s for s in range(4) if s % 2 in won]
    return top


def utility(pos: Position, side: Sequence[int], change: Sequence[int]) -> float:
    """How good a hand's result is for the observer: its (team's) gain less the others'
    average gain, and a game won or lost on top."""
    me, n = pos.me, pos.n
    if n == 4:
        value = float(change[me] - change[(me + 1) % 4])
    else:
        value = change[me] - (sum(change) - change[me]) / (n - 1)
    if any(pos.scores[s] + change[s] >= pos.target for s in range(n)):
        won = winners(pos, side, change)
        value += GAME_END_WEIGHT * pos.target * (1 if me in won else -1)
    return value


def hand_share(pos: Position, side: Sequence[int], change: Sequence[int]) -> tuple[float, bool]:
    """The observer's share of winning a hand's result, and whether the hand ends the game:
    the game when it ends (1 won, 0 lost), else the hand (1 when its side gained more than
    the other side, 1/2 on equal gains, 0 when less)."""
    me, n = pos.me, pos.n
    if any(pos.scores[s] + change[s] >= pos.target for s in range(n)):
        return (1.0 if me in winners(pos, side, change) else 0.0), True
    theirs = next((change[s] for s in range(n) if side[s] != side[me]), change[me])
    mine = change[me]
    return (1.0 if mine > theirs else 0.5 if mine == theirs else 0.0), False


def points_over(pos: Position, side: Sequence[int], change: Sequence[int]) -> float:
    """:func:`utility` without the game won or lost: points over the others this hand."""
    me, n = pos.me, pos.n
    if n == 4:
        return float(change[me] - change[(me + 1) % 4])
    return change[me] - (sum(change) - change[me]) / (n - 1)


@dataclass
class Tally:
    """What a search also counts per option besides its utility (for the hard AI's
    analysis; the choice never depends on it): the weight of the deals seen, and per option
    the weighted share of wins (:func:`hand_share`), of deals that ended the game, and of
    points over the others (:func:`points_over`)."""

    weight: float = 0.0
    wins: dict[str, float] = field(default_factory=dict)
    ends: dict[str, float] = field(default_factory=dict)
    points: dict[str, float] = field(default_factory=dict)

    def add(
        self, option: str, weight: float, pos: Position, side: Sequence[int], change: Sequence[int]
    ) -> None:
        share, ends = hand_share(pos, side, change)
        self.wins[option] = self.wins.get(option, 0.0) + weight * share
        self.ends[option] = self.ends.get(option, 0.0) + weight * ends
        self.points[option] = self.points.get(option, 0.0) + weight * points_over(pos, side, change)

    def redeal(self, option: str, weight: float) -> None:
        """Everyone passed in this deal: nothing won or lost (half a win)."""
        self.wins[option] = self.wins.get(option, 0.0) + weight * 0.5
        self.ends.setdefault(option, 0.0)
        self.points.setdefault(option, 0.0)


# --------------------------------------------------------------------------- the search


def _out_of_time(deadline: float | None, done: int, samples: int) -> bool:
    if done >= MAX_SAMPLES:
        return True
    if deadline is None:
        return done >= samples
    return time.monotonic() >= deadline


def search_play(
    obs: FlumeObservation,
    options: Sequence[str],
    rng: random.Random,
    deadline: float | None = None,
    samples: int = DEFAULT_SAMPLES,
    tally: Tally | None = None,
) -> tuple[str | None, list[float], int]:
    """The best of ``options`` (cards, the first breaking ties) by the average result over
    sampled deals; (None, …) when no deal could be played before the deadline. Returns the
    card, each option's total utility, and the number of deals. ``tally`` counts more."""
    pos = position(obs)
    moves = [INDEX[c] for c in options]
    totals = [0.0] * len(moves)
    done = 0
    sampler = HandSampler(obs)
    while not _out_of_time(deadline, done, samples):
        hands = sampler.deal(rng)
        side = sides_of(pos, hands)
        high, low = high_low(pos, hands)
        for i, move in enumerate(moves):
            copy = [list(h) for h in hands]
            taken, points = play_out(pos, copy, side, first=move)
            change = deltas(pos, side, taken, points, high, low)
            totals[i] += utility(pos, side, change)
            if tally is not None:
                tally.add(options[i], 1.0, pos, side, change)
        done += 1
        if tally is not None:
            tally.weight += 1.0
    if not done:
        return None, totals, 0
    best = max(range(len(moves)), key=lambda i: (totals[i], -i))
    return options[best], totals, done


# --------------------------------------------------------------------------- bidding

RANK: tuple[int, ...] = tuple(card(c).rank for c in CODES)
MISFIT_WEIGHT = 0.15  # weight of a deal in which a seat's bid or pass looks out of character


def _estimate_cards(trump: str) -> tuple[int, ...]:
    """Cards the normal AI's ``estimate`` looks at: A K Q 2 5 of trumps, both bowers,
    both jokers."""
    return tuple(
        INDEX[c]
        for c in (
            "A" + trump,
            "K" + trump,
            "Q" + trump,
            "2" + trump,
            "5" + trump,
            right_bower(trump),
            left_bower(trump),
            HIGH_JOKER,
            LOW_JOKER,
        )
    )


_ESTIMATE = tuple((suit, _estimate_cards(suit), TABLES[suit].power) for suit in SUITS)


def fast_best_trump(hand: Sequence[int], n: int) -> tuple[str, float]:
    """``flume.ai.best_trump`` on a hand of card indices, the same sums in the same order
    (so the same floats)."""
    held = set(hand)
    card_total = 0.02 * sum(CARD_POINTS[c] for c in hand)
    partner = 1.0 if n == 4 else 0.8
    best_suit, best = "", -1.0
    for suit, (a, k, q, two, five, right, left, jh, jl), power in _ESTIMATE:
        trumps = sum(1 for c in hand if power[c])
        value = 0.0
        if a in held:
            value += 1.0
        elif k in held:
            value += 0.5
        elif q in held:
            value += 0.25
        if two in held:
            value += 1.0
        elif five in held:
            value += 0.2
        top = (a in held) + (k in held) + (q in held)
        if right in held:
            value += 0.6 + 0.1 * top
        if left in held:
            value += 0.45 + 0.1 * top
        value += 0.3 * ((jh in held) + (jl in held))
        value += 0.12 * trumps + card_total
        value += 0.12 * (6 - trumps)
        value += partner
        if value > best:
            best_suit, best = suit, value
    return best_suit, best


def _bid_values(hands: Sequence[Sequence[int]], n: int) -> list[tuple[str, float]]:
    return [fast_best_trump(hand, n) for hand in hands]


def _bid_weight(obs: FlumeObservation, values: Sequence[tuple[str, float]]) -> float:
    """How well the bids made so far fit a deal, judged by the normal AI's bidding rule."""
    n = obs.n_players
    weight, high = 1.0, 0
    for i in range(n):
        seat = (obs.dealer + 1 + i) % n
        said = obs.bids[seat]
        if said is None:
            break
        if seat != obs.seat:
            lowest = max(3, high + 1)
            value = values[seat][1]
            fits = value >= said if said else (lowest > 6 or value < lowest)
            if not fits:
                weight *= MISFIT_WEIGHT
        high = max(high, said)
    return weight


def play_hand(
    obs: FlumeObservation,
    hands: Sequence[Sequence[int]],
    stock: Sequence[int],
    bidder: int,
    trump: str,
    record: list[int] | None = None,
) -> tuple[Position, list[int], list[int], list[int], int, int]:
    """A whole hand from the trump call in the simulator: everyone discards by the normal
    AI's rule (non-trumps but off-suit aces, low first) and draws, the bidder calls the
    highest trump it lacks (five-handed), and the tricks are played out. Returns the
    position (its bid still to be set), the sides, the card points and bowers and jokers
    taken per seat, and the seats playing high and low."""
    n, tb = obs.n_players, TABLES[trump]
    power, off_ace = tb.power, tb.off_ace
    held = [list(h) for h in hands]
    pile = list(stock)
    for i in range(n):
        if not pile:
            break
        hand = held[(obs.dealer + 1 + i) % n]
        spare = [c for c in hand if not power[c] and not off_ace[c]]
        spare.sort(key=lambda c: (CARD_POINTS[c], RANK[c]))
        spare = spare[: len(pile)]
        for c in spare:
            hand.remove(c)
        hand.extend(pile[: len(spare)])
        pile = pile[len(spare) :]
    called = -1
    if n == 5:
        mine = {CODES[c] for c in held[bidder]}
        wanted = [c for c in trump_order(trump) if c not in mine]
        called = INDEX[wanted[0]] if wanted else -1
    assert obs.seat is not None
    pos = Position(
        n=n,
        tb=tb,
        me=obs.seat,
        turn=(obs.dealer + 1) % n,
        bidder=bidder,
        bid=3,
        called=called,
        scores=list(obs.scores),
        target=obs.target,
        trick=[],
        played=[],
        taken=[0] * n,
        points=[0] * n,
    )
    side = sides_of(pos, held)
    high, low = high_low(pos, held)
    taken, points = play_out(pos, held, side, record=record)
    return pos, side, taken, points, high, low


def _deal_unseen(obs: FlumeObservation, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """Before trumps: the other hands and the stock (in order), dealt at random."""
    me = obs.seat
    assert me is not None
    cards = unseen_cards(obs)
    rng.shuffle(cards)
    hands: list[list[int]] = []
    at = 0
    for s in range(obs.n_players):
        if s == me:
            hands.append([INDEX[c] for c in obs.hand])
        else:
            hands.append(cards[at : at + obs.hand_sizes[s]])
            at += obs.hand_sizes[s]
    return hands, cards[at:]


def search_bid(
    obs: FlumeObservation,
    rng: random.Random,
    deadline: float | None = None,
    samples: int = BID_SAMPLES,
    tally: Tally | None = None,
) -> tuple[str | None, dict[str, float], int]:
    """The bid (or pass) with the best weighted average result over sampled deals.

    In each deal the seats still to bid follow the normal AI's rule, the winner of the bid
    names its best suit, and the hand is played out; deals in which an earlier bid or pass
    looks out of character for the normal AI count less. Everyone passing scores 0 (a
    redeal). Returns (action, totals per action, deals), the action None without a deal."""
    me, n = obs.seat, obs.n_players
    assert me is not None
    order = [(obs.dealer + 1 + i) % n for i in range(n)]
    later = order[order.index(me) + 1 :]
    actions = list(obs.legal)
    totals = dict.fromkeys(actions, 0.0)
    done = 0
    while not _out_of_time(deadline, done, samples):
        hands, stock = _deal_unseen(obs, rng)
        values = _bid_values(hands, n)
        weight = _bid_weight(obs, values)
        done += 1
        if tally is not None:
            tally.weight += weight
        results: dict[int, tuple[Position, list[int], list[int], list[int], int, int]] = {}
        for action in actions:
            high, bidder = obs.bid, obs.bidder
            if action.startswith("bid:"):
                high, bidder = int(action[4:]), me
            for seat in later:
                if high >= 6:
                    break
                lowest = max(3, high + 1)
                if values[seat][1] >= lowest:
                    high, bidder = lowest, seat
            if bidder is None:
                if tally is not None:
                    tally.redeal(action, weight)
                continue  # a redeal
            if bidder not in results:
                results[bidder] = play_hand(obs, hands, stock, bidder, values[bidder][0])
            pos, side, taken, points, hi, lo = results[bidder]
            pos.bid = high
            change = deltas(pos, side, taken, points, hi, lo)
            totals[action] += weight * utility(pos, side, change)
            if tally is not None:
                tally.add(action, weight, pos, side, change)
    if not done:
        return None, totals, 0
    return max(actions, key=lambda a: totals[a]), totals, done


def search_trump(
    obs: FlumeObservation,
    rng: random.Random,
    deadline: float | None = None,
    samples: int = BID_SAMPLES,
    tally: Tally | None = None,
) -> tuple[str | None, dict[str, float], int]:
    """The trump suit with the best weighted average result over sampled deals."""
    me = obs.seat
    assert me is not None
    totals = dict.fromkeys(SUITS, 0.0)
    done = 0
    while not _out_of_time(deadline, done, samples):
        hands, stock = _deal_unseen(obs, rng)
        weight = _bid_weight(obs, _bid_values(hands, obs.n_players))
        done += 1
        if tally is not None:
            tally.weight += weight
        for suit in SUITS:
            pos, side, taken, points, hi, lo = play_hand(obs, hands, stock, me, suit)
            pos.bid = obs.bid
            change = deltas(pos, side, taken, points, hi, lo)
            totals[suit] += weight * utility(pos, side, change)
            if tally is not None:
                tally.add(suit, weight, pos, side, change)
    if not done:
        return None, totals, 0
    return max(SUITS, key=lambda s: totals[s]), totals, done
