"""Flume players that decide from an observation alone: the AI and two baselines.

:func:`choose_action` is the table's AI:

* **Bidding** estimates, for each suit as trumps, how many of the seven points the hand can
  take (high from the ace, low from the 2, the bowers and jokers it holds, a share of game,
  what the discard-and-draw and a partner add) and bids the least it must when the best
  estimate reaches that bid. It names the suit of that estimate.
* **Discards** every non-trump except off-suit aces, lowest first when the stock is short.
* **The call** (five players) names the highest trump it lacks.
* **Play** follows suit, wins a trick as cheaply as it can when the trick is worth taking,
  throws tens and point cards onto a trick a known partner is sure to win, leads trumps that
  no unseen card can beat, and otherwise gets rid of its least useful card (the 2 of trumps
  scores low for whoever plays it, so it is a free card to lose).

:func:`decide` plays at a level: ``"normal"`` is :func:`choose_action`; ``"easy"`` is the
normal AI with a beginner's loose judgement and slips (see :func:`_easy`); ``"hard"``
searches bids, the trump call and card play by perfect-information Monte Carlo over deals
sampled from what the seat has seen (:mod:`bot.engines.flume.search`), by a deadline or
with a fixed effort, and discards and calls as the normal AI does.

The baselines, for tests and the benchmark: :func:`random_action` picks a uniformly random
legal move (a random subset of its non-trumps when discarding), and :func:`greedy_action`
bids one less than the length of its longest trump suit (so four trumps bid 3), names that
suit, discards every non-trump, calls the highest trump it lacks, and plays its highest legal
card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engines.analysis import Analysis, MoveValue
from bot.engines.cards import SUITS, card
from bot.engines.flume import search as fs
from bot.engines.flume.engine import FlumeObservation
from bot.engines.flume.rules import (
    card_points,
    flume_deck,
    is_trump,
    left_bower,
    right_bower,
    strength,
    suit_of,
    trick_winner,
    trump_order,
    trump_power,
)

POINT_CARD_VALUE = 9  # a bower or a joker is worth a whole point: about a ten toward game
DECK = flume_deck()


# --------------------------------------------------------------------------- shared helpers


def _one_step_discard(obs: FlumeObservation, codes: list[str]) -> str:
    return "discard:" + ",".join(codes[: obs.stock_count])


def _non_trumps(obs: FlumeObservation) -> list[str]:
    assert obs.trump is not None
    return [c for c in obs.hand if not is_trump(c, obs.trump)]


def _cards_of(obs: FlumeObservation, prefix: str) -> list[str]:
    return [a.split(":", 1)[1] for a in obs.legal if a.startswith(prefix)]


# --------------------------------------------------------------------------- baselines


def random_action(obs: FlumeObservation, rng: random.Random) -> str:
    """A uniformly random legal move; a random subset of non-trumps when discarding."""
    if obs.phase == "discard":
        spare = _non_trumps(obs)
        rng.shuffle(spare)
        return _one_step_discard(obs, spare[: rng.randint(0, len(spare))])
    return rng.choice(obs.legal)


def _trump_count(hand: list[str], suit: str) -> int:
    return sum(is_trump(c, suit) for c in hand)


def greedy_action(obs: FlumeObservation, rng: random.Random) -> str:
    """The simple greedy player described in the module docstring."""
    if obs.phase == "bid":
        best = max(SUITS, key=lambda s: _trump_count(obs.hand, s))
        want = min(6, _trump_count(obs.hand, best) - 1)
        return f"bid:{want}" if f"bid:{want}" in obs.legal else "pass"
    if obs.phase == "trump":
        return f"trump:{max(SUITS, key=lambda s: _trump_count(obs.hand, s))}"
    if obs.phase == "discard":
        return _one_step_discard(obs, _non_trumps(obs))
    if obs.phase == "call":
        return _call(obs)
    if obs.phase == "play":
        return "play:" + _highest(obs, _cards_of(obs, "play:"))
    return obs.legal[0]


def _highest(obs: FlumeObservation, options: list[str]) -> str:
    assert obs.trump is not None
    led = suit_of(obs.trick[0][1], obs.trump) if obs.trick else ""
    return max(options, key=lambda c: (strength(c, led, obs.trump), card(c).rank))  # type: ignore[arg-type]


def _call(obs: FlumeObservation) -> str:
    assert obs.trump is not None
    wanted = [c for c in trump_order(obs.trump) if c not in obs.hand]
    return f"call:{wanted[0]}" if wanted else "alone"


# --------------------------------------------------------------------------- the AI


def choose_action(obs: FlumeObservation, rng: random.Random) -> str:
    """The AI's move for the observed seat (always one of ``obs.legal`` or its one-step form)."""
    if obs.phase == "bid":
        return _bid(obs)
    if obs.phase == "trump":
        return f"trump:{best_trump(obs.hand, obs.n_players)[0]}"
    if obs.phase == "discard":
        return _discard(obs)
    if obs.phase == "call":
        return _call(obs)
    if obs.phase == "play":
        return "play:" + _play(obs)
    return obs.legal[0]


def estimate(hand: list[str], trump: str, n_players: int) -> float:
    """Expected points a hand can take with ``trump`` as trumps (a rough, tuned estimate)."""
    held = set(hand)
    trumps = [c for c in hand if is_trump(c, trump)]
    value = 0.0
    if "A" + trump in held:
        value += 1.0
    elif "K" + trump in held:
        value += 0.5
    elif "Q" + trump in held:
        value += 0.25
    if "2" + trump in held:
        value += 1.0
    elif "5" + trump in held:
        value += 0.2
    top = sum(c in held for c in ("A" + trump, "K" + trump, "Q" + trump))
    if right_bower(trump) in held:
        value += 0.6 + 0.1 * top
    if left_bower(trump) in held:
        value += 0.45 + 0.1 * top
    value += 0.3 * sum(j in held for j in ("JKH", "JKL"))
    value += 0.12 * len(trumps) + 0.02 * sum(card_points(c) for c in hand)
    value += 0.12 * (6 - len(trumps))  # trumps drawn after the discard
    value += 1.0 if n_players == 4 else 0.8  # what a partner brings
    return value


def best_trump(hand: list[str], n_players: int) -> tuple[str, float]:
    scored = [(s, estimate(hand, s, n_players)) for s in SUITS]
    return max(scored, key=lambda pair: pair[1])


def _bid(obs: FlumeObservation) -> str:
    _, value = best_trump(obs.hand, obs.n_players)
    lowest = max(3, obs.bid + 1)
    return f"bid:{lowest}" if lowest <= 6 and value >= lowest else "pass"


def _discard(obs: FlumeObservation) -> str:
    spare = [c for c in _non_trumps(obs) if card(c).rank != 14]
    spare.sort(key=lambda c: (card_points(c), card(c).rank))
    return _one_step_discard(obs, spare)


def friends(obs: FlumeObservation) -> set[int]:
    """Seats this viewer knows to be on its side (never itself)."""
    me = obs.seat
    assert me is not None
    n = obs.n_players
    if n == 4:
        return {(me + 2) % 4}
    bidder = obs.bidder
    if bidder is None:
        return set()
    partner = obs.partner
    if partner is not None:
        side = {bidder, partner}
        return (side if me in side else set(range(n)) - side) - {me}
    alone = obs.alone or (obs.called is not None and obs.called in obs.my_discards)
    if me != bidder and alone:
        return set(range(n)) - {bidder, me}
    return set()


def _unseen(obs: FlumeObservation) -> set[str]:
    """Cards that might still be played by someone else this hand."""
    gone = {c for _, c in obs.played} | set(obs.hand) | set(obs.my_discards)
    return set(DECK) - gone


def _bonus(code: str, trump: str) -> int:
    special = {right_bower(trump), left_bower(trump), "JKH", "JKL"}
    return POINT_CARD_VALUE if code in special else 0


def _worth(code: str, trump: str) -> int:
    """What a card adds to whoever takes the trick holding it."""
    return card_points(code) + _bonus(code, trump)


def _keep_cost(code: str, trump: str) -> float:
    """How much losing this card hurts: its worth plus its power to win tricks later."""
    if code == "2" + trump:
        return 0.5  # low is scored by whoever plays it: nothing is lost
    power = trump_power(code, trump)
    rank = card(code).rank
    return _worth(code, trump) + (power * 1.5 if power else rank * 0.3)


def _can_beat(code: str, led: str, trump: str, threat: str) -> bool:
    return strength(threat, led, trump) > strength(code, led, trump) or (
        suit_of(threat, trump) == trump and not is_trump(code, trump)
    )


def _safe(obs: FlumeObservation, code: str, led: str, after_me: int) -> bool:
    """Whether ``code`` is sure to hold the trick against the players still to come."""
    if after_me == 0:
        return True
    assert obs.trump is not None
    return not any(_can_beat(code, led, obs.trump, u) for u in _unseen(obs))


def _play(obs: FlumeObservation) -> str:
    trump = obs.trump
    assert trump is not None and obs.seat is not None
    options = _cards_of(obs, "play:")
    if len(options) == 1:
        return options[0]
    if not obs.trick:
        return _lead(obs, options)
    led = suit_of(obs.trick[0][1], trump)
    leader_seat = trick_winner(obs.trick, trump)
    top = next(c for s, c in obs.trick if s == leader_seat)
    after_me = obs.n_players - len(obs.trick) - 1
    at_stake = sum(_worth(c, trump) for _, c in obs.trick)
    if leader_seat in friends(obs) and _safe(obs, top, led, after_me):
        return max(options, key=lambda c: (_worth(c, trump), -_keep_cost(c, trump)))
    winning = [c for c in options if strength(c, led, trump) > strength(top, led, trump)]
    if winning:
        sure = [c for c in winning if _safe(obs, c, led, after_me)]
        if sure and (at_stake > 0 or after_me == 0 or any(_worth(c, trump) for c in sure)):
            return min(sure, key=lambda c: _keep_cost(c, trump))
        cheap = min(winning, key=lambda c: _keep_cost(c, trump))
        if at_stake >= 10 and not _worth(cheap, trump):
            return cheap
    return min(options, key=lambda c: _keep_cost(c, trump))


def _lead(obs: FlumeObservation, options: list[str]) -> str:
    trump = obs.trump
    assert trump is not None
    unseen_trumps = [u for u in _unseen(obs) if is_trump(u, trump)]
    best_unseen = max((trump_power(u, trump) for u in unseen_trumps), default=0)
    sure = [c for c in options if trump_power(c, trump) > best_unseen]
    if sure and unseen_trumps:
        return max(sure, key=lambda c: trump_power(c, trump))
    aces = [c for c in options if card(c).rank == 14 and not is_trump(c, trump)]
    if aces:
        return aces[0]
    return min(options, key=lambda c: _keep_cost(c, trump))


# --------------------------------------------------------------------------- levels

LEVELS = ("easy", "normal", "hard")


def decide(
    obs: FlumeObservation, level: str, rng: random.Random, deadline: float | None = None
) -> str:
    """The move of an AI seat at ``level`` ("easy", "normal" or "hard").

    ``deadline`` is a ``time.monotonic()`` instant by which the hard level's search returns
    its best move so far (None: a fixed effort). Normal is :func:`choose_action`.
    """
    if level == "normal":
        return choose_action(obs, rng)
    if level == "hard":
        return _hard(obs, rng, deadline)
    if level == "easy":
        return _easy(obs, rng)
    raise ValueError(f"unknown Flume AI level {level!r}; expected one of {LEVELS}")


EASY_BID_NOISE = 1.0  # easy judges its hand this many points too high or low, at random
EASY_RANDOM_PLAY = 0.25  # chance that easy plays a random legal card
EASY_WASTE_TRUMP = 0.35  # chance that easy takes a trick with its highest trump
EASY_OTHER_SUIT = 0.2  # chance that easy names its second-best suit
EASY_KEEP_FACES = 0.5  # chance that easy keeps its off-suit kings and queens


def _easy(obs: FlumeObservation, rng: random.Random) -> str:
    """A beginner: the normal AI with loose judgement and slips.

    It misjudges its hand by up to :data:`EASY_BID_NOISE` points when bidding, sometimes
    names its second-best suit, often keeps off-suit kings and queens, sometimes plays a
    random legal card, and often takes a trick with its highest trump when a lower one
    (or none) would do.
    """
    if obs.phase == "bid":
        _, value = best_trump(obs.hand, obs.n_players)
        value += rng.uniform(-EASY_BID_NOISE, EASY_BID_NOISE)
        lowest = max(3, obs.bid + 1)
        return f"bid:{lowest}" if lowest <= 6 and value >= lowest else "pass"
    if obs.phase == "trump":
        ranked = sorted(SUITS, key=lambda s: -estimate(obs.hand, s, obs.n_players))
        return f"trump:{ranked[1] if rng.random() < EASY_OTHER_SUIT else ranked[0]}"
    if obs.phase == "discard":
        spare = [c for c in _non_trumps(obs) if card(c).rank != 14]
        if rng.random() < EASY_KEEP_FACES:
            spare = [c for c in spare if card(c).rank not in (12, 13)]
        spare.sort(key=lambda c: (card_points(c), card(c).rank))
        return _one_step_discard(obs, spare)
    if obs.phase == "play":
        options = _cards_of(obs, "play:")
        if len(options) > 1 and rng.random() < EASY_RANDOM_PLAY:
            return "play:" + rng.choice(options)
        assert obs.trump is not None
        trumps = [c for c in options if is_trump(c, obs.trump)]
        if obs.trick and trumps and rng.random() < EASY_WASTE_TRUMP:
            return "play:" + max(trumps, key=lambda c: trump_power(c, obs.trump))  # type: ignore[arg-type]
    return choose_action(obs, rng)


def _hard(obs: FlumeObservation, rng: random.Random, deadline: float | None) -> str:
    """Bids, the trump call and card play searched (:mod:`bot.engines.flume.search`), the
    normal AI's move when no deal fits before the deadline; discards and the five-handed
    call as the normal AI. ``flume.search.BID_SAMPLES = 0`` leaves bidding to the normal AI.
    """
    return analyse(obs, rng, deadline).move


def analyse(
    obs: FlumeObservation,
    rng: random.Random,
    deadline: float | None = None,
    also: Sequence[str] = (),
) -> Analysis:
    """The hard level's decision with what its search found (:mod:`bot.engines.analysis`).

    A searched bid, trump call or card: each option's average result over the sampled deals
    (kind "points": points over the other side this hand, a game won or lost counting the
    target), its chance to win (the game in deals where the hand ends it, else the hand:
    scope "game" when most deals end it) and ``detail["points"]``, points over the other
    side without the game. Reasons: "bid", "trump", "play"; unsearched moves are the normal
    AI's rules: "discard", "call", "only" (one legal card), "no-deal" (no deal sampled in
    time), "no-search" (bidding left to the normal AI). ``also``: further cards (or bids,
    suits) to value; every legal one is valued anyway."""
    if obs.phase == "bid" and len(obs.legal) > 1 and fs.BID_SAMPLES:
        tally = fs.Tally()
        action, totals, done = fs.search_bid(obs, rng, deadline, fs.BID_SAMPLES, tally)
        if action is None:
            return Analysis.rule(choose_action(obs, rng), "no-deal")
        return _searched(action, totals, tally, done, "bid")
    if obs.phase == "trump" and fs.BID_SAMPLES:
        tally = fs.Tally()
        suit, by_suit, done = fs.search_trump(obs, rng, deadline, fs.BID_SAMPLES, tally)
        if suit is None:
            return Analysis.rule(choose_action(obs, rng), "no-deal")
        named = {f"trump:{k}": v for k, v in by_suit.items()}
        return _searched(f"trump:{suit}", named, _prefixed(tally, "trump:"), done, "trump")
    if obs.phase == "play":
        options = _cards_of(obs, "play:")
        if len(options) > 1:
            normal = _play(obs)
            ordered = [normal] + [c for c in options if c != normal]
            tally = fs.Tally()
            best, play_totals, done = fs.search_play(
                obs, ordered, rng, deadline, fs.DEFAULT_SAMPLES, tally
            )
            if best is None:
                return Analysis.rule("play:" + normal, "no-deal")
            named = {f"play:{c}": t for c, t in zip(ordered, play_totals, strict=True)}
            return _searched("play:" + best, named, _prefixed(tally, "play:"), done, "play")
        return Analysis.rule(choose_action(obs, rng), "only")
    reason = {"discard": "discard", "call": "call", "trump": "no-search"}.get(obs.phase, "only")
    if obs.phase == "bid" and len(obs.legal) > 1:
        reason = "no-search"
    return Analysis.rule(choose_action(obs, rng), reason)


def _prefixed(tally: fs.Tally, prefix: str) -> fs.Tally:
    """``tally`` with its options named as moves (``"H"`` -> ``"trump:H"``)."""

    def named(counts: dict[str, float]) -> dict[str, float]:
        return {prefix + k: v for k, v in counts.items()}

    return fs.Tally(tally.weight, named(tally.wins), named(tally.ends), named(tally.points))


def _searched(
    move: str, totals: dict[str, float], tally: fs.Tally, done: int, reason: str
) -> Analysis:
    weight = tally.weight or 1.0
    values = [
        MoveValue(
            move=option,
            value=total / weight,
            win=tally.wins.get(option, 0.0) / weight,
            samples=done,
            detail={"points": tally.points.get(option, 0.0) / weight},
        )
        for option, total in totals.items()
    ]
    ends = tally.ends.get(move, 0.0) / weight
    return Analysis.of(
        move, "points", values, scope="game" if ends > 0.5 else "hand", samples=done,
        reason=reason, detail={"ends": ends},
    )  # fmt: skip
