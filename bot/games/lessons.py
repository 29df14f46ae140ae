"""Lessons of a practice table (``/<game> learn``): each game's lesson path, as data.

A lesson is one kind of moment in a game (the first bid, a flux, a Pauli card on a qubit in
superposition...): a detector that recognises it from a seat's observation and the moves
open to it, and two or three sentences about it and its options, in the words of the game's
rules page (``docs/rules/<game>.md``). ``terms`` lists the rules page's terms a lesson uses;
a test checks that each one is on its game's page and in the lesson's text.

The first lesson on the path whose moment has come and that was not shown yet is the one in
the person's own view (see :mod:`bot.tables.practice`); each is shown once per table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Lesson:
    key: str
    """Stable name, kept in the table's config once shown."""
    title: str
    text: str
    terms: tuple[str, ...]
    """Terms of the game's rules page this lesson uses (each in ``text`` too)."""
    applies: Callable[[Any, list[str]], bool]
    """``applies(observation, legal)``: this seat's moment is this lesson's."""


def _verbs(legal: list[str]) -> set[str]:
    return {action.partition(":")[0] for action in legal}


def _has(*verbs: str) -> Callable[[Any, list[str]], bool]:
    """The moves open include every one of ``verbs``."""
    return lambda obs, legal: set(verbs) <= _verbs(legal)


def _phase(phase: str, *verbs: str) -> Callable[[Any, list[str]], bool]:
    """The observation is in ``phase`` and the seat has a move there (of ``verbs``, if given)."""

    def applies(obs: Any, legal: list[str]) -> bool:
        return getattr(obs, "phase", None) == phase and bool(legal) and set(verbs) <= _verbs(legal)

    return applies


# --- Quantum dice -------------------------------------------------------------------------


def _qdice_first_throw(obs: Any, legal: list[str]) -> bool:
    return bool(legal) and not obs.kept and not obs.selected and obs.turn_total == 0


def _qdice_not_on_board(obs: Any, legal: list[str]) -> bool:
    return bool(legal) and obs.seat is not None and not obs.on_board[obs.seat]


def _qdice_roll_or_bank(obs: Any, legal: list[str]) -> bool:
    return bool(legal) and (obs.turn_total > 0 or bool(obs.kept))


def _qdice_final_round(obs: Any, legal: list[str]) -> bool:
    return bool(legal) and obs.final_round


QDICE = [
    Lesson(
        "throw",
        "Your first throw",
        "Six dice were thrown for you. Press the dice you want to set aside: every die you "
        "keep must be part of a scoring combination (a single 1 is 100, a single 5 is 50, "
        "three of a kind thrown together is 100 times the face). Then **Roll** the rest or "
        "**Bank** the turn's points.",
        ("scoring combination", "Roll", "Bank", "three of a kind"),
        _qdice_first_throw,
    ),
    Lesson(
        "board",
        "Getting on the board",
        "Your first bank must be worth at least 1,000 points in a single turn, so **Bank** "
        "stays closed until your turn has earned that. Keep rolling, but remember that a roll "
        "with nothing that scores is a bust and the turn's points are gone.",
        ("first bank", "Bank", "bust"),
        _qdice_not_on_board,
    ),
    Lesson(
        "press",
        "Roll again or bank?",
        "Your turn has points now. **Roll** the dice you did not keep to earn more, at the risk "
        "of a bust, or **Bank** everything this turn has earned. If all six dice end up set "
        "aside, you may roll all six again and keep adding to the turn.",
        ("Roll", "Bank", "bust", "all six"),
        _qdice_roll_or_bank,
    ),
    Lesson(
        "finish",
        "The last turns",
        "Someone has banked enough to be the provisional winner. Everyone else has exactly one "
        "more turn and must finish with strictly more, so this turn is your last: banking "
        "less than the lead is no use.",
        ("provisional winner", "one more turn", "strictly more"),
        _qdice_final_round,
    ),
]


# --- QuantumPoker -------------------------------------------------------------------------


def _qpoker_pauli_on_superposed(obs: Any, legal: list[str]) -> bool:
    """X or Y may be applied to one of the seat's own qubits that is in superposition."""
    if obs.seat is None or not obs.qubits or not legal:
        return False
    mine = obs.qubits[obs.seat]
    for action in legal:
        verb, _, target = action.partition(":")
        on_mine = target.isdigit() and int(target) < len(mine)
        if verb in ("X", "Y") and on_mine and mine[int(target)].superposed:
            return True
    return False


def _qpoker_measured(obs: Any, legal: list[str]) -> bool:
    return bool(legal) and obs.last_round is not None


QPOKER = [
    Lesson(
        "turn",
        "Your turn: take a card",
        "Pick any card still on the table and apply it straight away, even when it does "
        "nothing: **X** flips one of your qubits, **Z** doubles the bet on one, **H** puts one "
        "in superposition, **CX** flips another player's and **SWAP** trades one of yours for "
        "one of theirs. When the cards are gone the round is measured and qubits reading 1 "
        "score.",
        ("X", "Z", "H", "CX", "SWAP", "superposition", "measured"),
        _has("pick"),
    ),
    Lesson(
        "superposed",
        "A Pauli card on a qubit in superposition",
        "One of your qubits is in superposition: it has no value for anybody until it "
        "collapses. **X** does nothing to it and **Y** only turns the card; playing **H** on it "
        "again collapses it to 0 or 1 on the spot by a coin.",
        ("superposition", "collapses", "X", "Y", "H", "coin"),
        _qpoker_pauli_on_superposed,
    ),
    Lesson(
        "call",
        "Calling measurement",
        "Instead of taking a card you may **Call measurement**: your qubits are turned face "
        "up and every other player gets exactly one more turn before the round is measured. "
        "Call when your qubits already read more 1s than theirs can.",
        ("Call measurement", "face up", "one more turn", "measured"),
        _has("call"),
    ),
    Lesson(
        "payout",
        "After the measurement",
        "The last round was measured: every qubit still in superposition collapsed by a coin "
        "toss, and the winner took the chips on every other player's qubits that read 1. A "
        "doubled bet scores 2 for a 1, and costs two chips when it reads 1 for someone else's "
        "win.",
        ("superposition", "coin toss", "chips", "doubled"),
        _qpoker_measured,
    ),
]


# --- Flume --------------------------------------------------------------------------------


def _flume_lead(obs: Any, legal: list[str]) -> bool:
    return obs.phase == "play" and bool(legal) and not obs.trick


def _flume_follow(obs: Any, legal: list[str]) -> bool:
    return obs.phase == "play" and bool(legal) and bool(obs.trick)


FLUME = [
    Lesson(
        "bid",
        "The bid",
        "Each player once either passes or bids a number of points from 3 to 6, higher than any "
        "bid before. Bid what your six cards can take of the seven points of a hand (high, "
        "low, right bower, left bower, high joker, low joker and game): if your side falls "
        "short, it loses the amount of its bid.",
        ("passes", "bids", "seven points of a hand", "right bower", "high joker", "game"),
        _phase("bid"),
    ),
    Lesson(
        "trump",
        "Naming trumps",
        "You are the highest bidder, so you name trumps. Pick the suit you hold most of, "
        "high ones first: the right bower and left bower count in it, and both jokers are "
        "trumps whatever you name.",
        ("highest bidder", "trumps", "right bower", "left bower", "jokers"),
        _phase("trump"),
    ),
    Lesson(
        "discard",
        "Discards",
        "You may throw away any of your non-trumps and get replacements from the leftover "
        "cards straight away; trumps can never be thrown away. Press the cards to throw away "
        "(press again to keep one), then confirm.",
        ("throw away", "non-trumps", "replacements", "Trumps can never be thrown away"),
        _phase("discard"),
    ),
    Lesson(
        "call",
        "The partner call",
        "With five players the bidder names any card they do not hold: whoever has it is "
        "their partner for the hand, but the table finds out only when that card is played. "
        "You may also choose to play alone.",
        ("bidder", "names any card", "partner", "play alone"),
        _phase("call"),
    ),
    Lesson(
        "lead",
        "Leading a trick",
        "You lead: play any card. Whoever wins a trick leads the next; the highest trump wins "
        "it, or, with no trump in it, the highest card of the suit led.",
        ("leads", "highest trump", "suit led"),
        _flume_lead,
    ),
    Lesson(
        "follow",
        "Following suit",
        "You must follow the suit led if you can (when a trump is led, any trump follows, "
        "left bower and jokers included); otherwise play anything. Low belongs to whoever "
        "plays it, even if the other side wins that trick.",
        ("follow the suit led", "left bower", "jokers", "Low"),
        _flume_follow,
    ),
]


# --- Flux ---------------------------------------------------------------------------------


FLUX = [
    Lesson(
        "claim",
        "Original hand: claim or play on",
        "Before the first trick everyone secretly chooses to claim or play on. A claim needs "
        "a hand exactly on the target (red cards count plus, black cards minus) and wins the "
        "value game (15 points); otherwise play on.",
        ("claim", "play on", "target", "value game"),
        _phase("claim"),
    ),
    Lesson(
        "trick",
        "Tricks",
        "Play any card; you are dealt a replacement at once. The highest trump wins, or with "
        "no trump the highest rank; identical ranks cancel first. The winner scores 1 and "
        "takes **command**.",
        ("replacement", "highest trump", "cancel", "command"),
        _phase("trick"),
    ),
    Lesson(
        "command",
        "Command: discard or call",
        "You won the trick, and the discard die was rolled for you. Either discard exactly "
        "that many cards and lead the next trick, or **call**: all hands are shown, and if "
        "nobody is strictly closer to the target you take from each player the amount by "
        "which they are further away. Call too early and you are **undercut**.",
        ("discard die", "call", "strictly closer", "target", "undercut"),
        _phase("command"),
    ),
    Lesson(
        "flux",
        "A flux",
        "A 6 on the discard die is a **flux**: +5 points, your whole hand was thrown in and "
        "seven new cards dealt. If the new hand is right on the target you may call at once, "
        "for a bull's-eye of 20; otherwise you lead the next trick.",
        ("flux", "+5 points", "seven new cards", "bull's-eye"),
        _phase("flux"),
    ),
    Lesson(
        "poker",
        "The poker showdown",
        "After the value game everyone secretly picks five of their seven cards; your best "
        "five are pre-selected. All are revealed together and the winner scores the "
        "turn-up's size.",
        ("five of their seven cards", "pre-selected", "turn-up"),
        _phase("poker"),
    ),
    Lesson(
        "dice",
        "Point dice",
        "Each trick you won gave you a D6. Choose in secret whether to add each die to your "
        "value, subtract it or leave it out; your view lists every value your dice can make "
        "with its distance from the target.",
        ("add", "subtract", "leave it out", "distance"),
        _phase("dice"),
    ),
]


# --- Quantum Fingers ----------------------------------------------------------------------


def _fingers_known(obs: Any, legal: list[str]) -> bool:
    """Someone else's hand of a named flavour is settled: a single number, not a range."""
    if obs.seat is None or not legal:
        return False
    return any(
        other != obs.seat and obs.counts[other] and obs.lo[other][f] == obs.hi[other][f] > 0
        for other in range(obs.n_players)
        for f, name in enumerate(obs.names)
        if name is not None and obs.remaining[f]
    )


def _fingers_forced(obs: Any, legal: list[str]) -> bool:
    """The seat's own count of a named flavour still in play is settled: asked for it, only
    one answer fits."""
    if obs.seat is None or not legal or not obs.counts[obs.seat]:
        return False
    return any(
        obs.lo[obs.seat][f] == obs.hi[obs.seat][f]
        for f, name in enumerate(obs.names)
        if name is not None and obs.remaining[f]
    )


FINGERS = [
    Lesson(
        "name",
        "Naming a flavour",
        "Flavours have no names at first: the first player to ask for one names it. Asking "
        "says that you hold at least one of it. If they say **yes** they hand you a finger and "
        "you ask again; a **no** passes the turn.",
        ("Flavours", "names it", "yes", "no"),
        _has("new"),
    ),
    Lesson(
        "ask",
        "Your turn: ask",
        "Ask another player who still holds fingers for a flavour you could still hold. "
        "You win when it is your turn and your hand is empty, so asks that complete a book "
        "are the best ones.",
        ("Ask", "flavour", "hand is empty", "book"),
        _phase("ask"),
    ),
    Lesson(
        "answer",
        "Answering",
        "You were asked. You choose yes or no only because both answers fit some deal "
        "consistent with everything said so far; when only one answer fits, the bot gives it "
        "for you and says it was forced. Watch what your answers give away.",
        ("yes or no", "consistent", "forced", "answers give away"),
        _phase("answer"),
    ),
    Lesson(
        "book",
        "A book you might hold",
        "Holding all fingers of a flavour is a **book**. You only might hold them all, so you "
        "choose: declare the book, or keep them, which commits you to not holding them all.",
        ("book", "declare the book", "keep them"),
        _phase("book"),
    ),
    Lesson(
        "forced",
        "Forced answers",
        "What was said so far settles how many fingers of a named flavour you hold: a single "
        "number on the picture. If you are asked for it, only one answer fits, so the bot gives "
        "it for you and says it was forced.",
        ("single number", "only one answer fits", "forced"),
        _fingers_forced,
    ),
    Lesson(
        "known",
        "What is known",
        "A single number on the picture is certain; a range such as 1–3 means several deals "
        "are still possible. Once the whole deal is known, the player to move can always win.",
        ("single number", "range", "whole deal is known"),
        _fingers_known,
    ),
]


PATHS: dict[str, list[Lesson]] = {
    "qdice": QDICE,
    "qpoker": QPOKER,
    "flume": FLUME,
    "flux": FLUX,
    "fingers": FINGERS,
}
"""Each game's lesson path, in the order its lessons come first."""


def lesson_for(game: str, observation: Any, legal: list[str], shown: set[str]) -> Lesson | None:
    """The lesson for this seat's moment: the first on the path whose moment it is and that
    was not shown yet (None: nothing new)."""
    for lesson in PATHS.get(game, []):
        if lesson.key not in shown and lesson.applies(observation, legal):
            return lesson
    return None
