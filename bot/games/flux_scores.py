"""Flux's final screen in words: where each player's points came from, and hand by hand why.

Built from the public score sheet the engine keeps (:class:`~bot.engines.flux.engine.HandScore`,
one per hand). The picture draws the same sheet as a grid; these fields say it in sentences.
"""

from __future__ import annotations

from bot.engines.base import plural
from bot.engines.flux.engine import FLUX_POINTS, FluxObservation, HandScore
from bot.tables.views import Field

FIELD_LIMIT = 1024  # Discord's limit on one embed field's value
HAND_BUDGET = 2000  # characters of "Hand by hand" at most (an embed holds 6,000 in all)
NOTE_ROOM = 60  # a hand's line leaves room for the note on the hands left out


def _names(template: str, names: list[str]) -> str:
    return template.format(**{f"p{i}": f"**{name}**" for i, name in enumerate(names)})


def _signed(points: int) -> str:
    return f"+{points:,}" if points >= 0 else f"{points:,}"


def player_line(ledger: list[HandScore], seat: int, name: str, score: int) -> str:
    """One player's total and what made it: "**Ann**: 42 points = 12 tricks (+12), …"."""
    tricks = sum(h.tricks[seat] for h in ledger)
    fluxes = sum(h.fluxes[seat] for h in ledger)
    value = sum(h.value[seat] for h in ledger)
    poker = sum(h.poker[seat] for h in ledger)
    parts = []
    if tricks:
        parts.append(f"{plural(tricks, 'trick')} won ({_signed(tricks)})")
    if fluxes:
        count = fluxes // FLUX_POINTS if FLUX_POINTS else 0
        parts.append(f"{plural(count, 'flux', 'fluxes')} ({_signed(fluxes)})")
    if value:
        won = sum(1 for h in ledger if h.value[seat] > 0)
        parts.append(f"{plural(won, 'value game')} ({_signed(value)})")
    if poker:
        won = sum(1 for h in ledger if h.poker[seat] > 0)
        parts.append(f"{plural(won, 'poker game')} ({_signed(poker)})")
    earlier = score - (tricks + fluxes + value + poker)
    if earlier:  # a game begun before the sheet was kept
        parts.insert(0, f"earlier hands ({_signed(earlier)})")
    why = ", ".join(parts) if parts else "nothing scored"
    return f"**{name}**: {plural(score, 'point')} from {why}"


def _sources(hand: HandScore, seat: int) -> str:
    """Where one seat's points in one hand came from: "2 tricks, flux, value game"."""
    parts = []
    if hand.tricks[seat]:
        parts.append(plural(hand.tricks[seat], "trick"))
    if hand.fluxes[seat]:
        count = hand.fluxes[seat] // FLUX_POINTS if FLUX_POINTS else 1
        parts.append("flux" if count == 1 else f"{count} fluxes")
    if hand.value[seat]:
        parts.append("value game")
    if hand.poker[seat]:
        parts.append("poker")
    return ", ".join(parts)


def hand_line(hand: HandScore, names: list[str]) -> str:
    """What happened in one hand and who scored what: "**Hand 2** (target 13): …"."""
    story = []
    if hand.value_game:
        story.append(f"value game: {_names(hand.value_game, names)}")
    if hand.poker_game:
        story.append(f"poker: {_names(hand.poker_game, names)}")
    gains = [
        f"{names[s]} {_signed(hand.total(s))} ({_sources(hand, s)})"
        for s in range(min(len(hand.tricks), len(names)))
        if hand.total(s)
    ]
    target = f" (target {hand.target})" if hand.target else ""
    text = f"**Hand {hand.hand_no}**{target}: " + ("; ".join(story) or "no value game")
    return text + (f". Points: {', '.join(gains)}." if gains else ". Nobody scored.")


def score_fields(obs: FluxObservation, names: list[str]) -> list[Field]:
    """The final screen's breakdown: each player's points by source, then hand by hand (the
    latest hands when they do not all fit, saying so)."""
    ledger = obs.ledger
    if not ledger:
        return []
    order = sorted(range(obs.n_players), key=lambda s: -obs.scores[s])
    players = "\n".join(
        player_line(ledger, s, names[s] if s < len(names) else f"Player {s + 1}", obs.scores[s])
        for s in order
    )
    fields = [Field("Where the points came from", _fit(players), inline=False)]
    lines = [_fit(hand_line(h, names), FIELD_LIMIT - NOTE_ROOM) for h in ledger]
    kept: list[str] = []
    budget = HAND_BUDGET
    for line in reversed(lines):  # the newest hands first, so the end of the game shows
        if len(line) + 1 > budget:
            break
        kept.insert(0, line)
        budget -= len(line) + 1
    left_out = len(lines) - len(kept)
    if left_out:
        first = "Hand 1" if left_out == 1 else f"Hands 1 to {left_out}"
        kept.insert(0, f"{first}: see the score sheet in the picture.")
    chunks: list[list[str]] = [[]]
    for line in kept:  # in order, as many to a field as fit
        if chunks[-1] and sum(len(x) + 1 for x in chunks[-1]) + len(line) > FIELD_LIMIT:
            chunks.append([])
        chunks[-1].append(line)
    for i, chunk in enumerate(chunks):
        name = "Hand by hand" if i == 0 else "Hand by hand (continued)"
        fields.append(Field(name, "\n".join(chunk), inline=False))
    return fields


def _fit(text: str, limit: int = FIELD_LIMIT) -> str:
    """``text`` cut at a line (or else a word) boundary to ``limit`` characters, with "…"."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    end = cut.rfind("\n")
    if end <= 0:
        end = cut.rfind(" ")
    return cut[: end if end > 0 else limit - 1] + "…"
