"""Flux's final screen in words: where each player's points came from, and hand by hand why.

Built from the public score sheet the engine keeps (:class:`~bot.engines.flux.engine.HandScore`,
one per hand). The picture draws the same sheet as a grid; these fields say it in sentences.
"""

from __future__ import annotations

from typing import Any

from bot.engines.flux.engine import FLUX_POINTS, FluxObservation, HandScore
from bot.engines.flux.rules import poker_winner
from bot.engines.poker import HandRank
from bot.tables.views import Field
from bot.words import Words, current, t

FIELD_LIMIT = 1024  # Discord's limit on one embed field's value
HAND_BUDGET = 2000  # characters of "Hand by hand" at most (an embed holds 6,000 in all)
NOTE_ROOM = 60  # a hand's line leaves room for the note on the hands left out


def _names(template: str, names: list[str]) -> str:
    """A score sheet line saved before stories were data (English, ``{p0}`` for seats)."""
    return template.format(**{f"p{i}": f"**{name}**" for i, name in enumerate(names)})


def _bold(names: list[str], seat: Any) -> str:
    index = int(seat)
    name = names[index] if 0 <= index < len(names) else t("flux-seat", number=index + 1)
    return t("flux-bold-name", name=name)


def _poker_rank(codes: list[str], words: Words) -> str:
    from bot.games.flux import rank_text  # the presenter's wording of poker hands

    ranks: dict[int, HandRank] = poker_winner({0: list(codes)})[1]
    return rank_text(ranks[0], words, lower=True)


def value_story_text(story: dict[str, Any], names: list[str]) -> str:
    """How a value game was won (:attr:`HandScore.value_story`) in a few words."""
    words = current()
    how = story.get("how", "")
    caller = story.get("caller")
    args: dict[str, Any] = {
        "how": how,
        "kind": "ran-out" if story.get("kind") == "ran out" else story.get("kind", ""),
        "caller": _bold(names, caller) if caller is not None else "",
        "winners": words.list(_bold(names, s) for s in story.get("winners", [])),
        "value": story.get("value", 0),
        "gap": story.get("gap", 0),
        "target": story.get("target", 0),
        "bullseye": story.get("bullseye", 0),
    }
    text = words("flux-story-value", **args)
    zilched = story.get("zilched") or []
    if zilched:
        text += words("flux-story-zilch", names=words.list(_bold(names, s) for s in zilched))
    return text


def poker_story_text(story: dict[str, Any], names: list[str]) -> str:
    """How a poker game was won (:attr:`HandScore.poker_story`) in a few words."""
    winner = story.get("winner")
    if winner is None:
        return t("flux-story-poker-tied")
    return t(
        "flux-story-poker",
        winner=_bold(names, winner),
        hand=_poker_rank(list(story.get("hand", [])), current()),
    )


def _signed(points: int) -> str:
    number = current().number(abs(points))
    return f"+{number}" if points >= 0 else f"-{number}"


def player_line(ledger: list[HandScore], seat: int, name: str, score: int) -> str:
    """One player's total and what made it: "**Ann**: 42 points = 12 tricks (+12), …"."""
    tricks = sum(h.tricks[seat] for h in ledger)
    fluxes = sum(h.fluxes[seat] for h in ledger)
    value = sum(h.value[seat] for h in ledger)
    poker = sum(h.poker[seat] for h in ledger)
    parts = []
    if tricks:
        parts.append(t("flux-source-tricks", count=tricks, points=_signed(tricks)))
    if fluxes:
        count = fluxes // FLUX_POINTS if FLUX_POINTS else 0
        parts.append(t("flux-source-fluxes", count=count, points=_signed(fluxes)))
    if value:
        won = sum(1 for h in ledger if h.value[seat] > 0)
        parts.append(t("flux-source-value", count=won, points=_signed(value)))
    if poker:
        won = sum(1 for h in ledger if h.poker[seat] > 0)
        parts.append(t("flux-source-poker", count=won, points=_signed(poker)))
    earlier = score - (tricks + fluxes + value + poker)
    if earlier:  # a game begun before the sheet was kept
        parts.insert(0, t("flux-source-earlier", points=_signed(earlier)))
    why = ", ".join(parts) if parts else t("flux-source-nothing")
    return t("flux-player-line", name=name, score=score, why=why)


def _sources(hand: HandScore, seat: int) -> str:
    """Where one seat's points in one hand came from: "2 tricks, flux, value game"."""
    parts = []
    if hand.tricks[seat]:
        parts.append(t("flux-hand-source-tricks", count=hand.tricks[seat]))
    if hand.fluxes[seat]:
        count = hand.fluxes[seat] // FLUX_POINTS if FLUX_POINTS else 1
        parts.append(t("flux-hand-source-fluxes", count=count))
    if hand.value[seat]:
        parts.append(t("flux-hand-source-value"))
    if hand.poker[seat]:
        parts.append(t("flux-hand-source-poker"))
    return ", ".join(parts)


def hand_line(hand: HandScore, names: list[str]) -> str:
    """What happened in one hand and who scored what: "**Hand 2** (target 13): …"."""
    story = []
    if hand.value_story is not None:
        story.append(t("flux-story-value-game", story=value_story_text(hand.value_story, names)))
    elif hand.value_game:
        story.append(t("flux-story-value-game", story=_names(hand.value_game, names)))
    if hand.poker_story is not None:
        story.append(t("flux-story-poker-game", story=poker_story_text(hand.poker_story, names)))
    elif hand.poker_game:
        story.append(t("flux-story-poker-game", story=_names(hand.poker_game, names)))
    gains = [
        t("flux-hand-gain", name=names[s], points=_signed(hand.total(s)),
          sources=_sources(hand, s))
        for s in range(min(len(hand.tricks), len(names)))
        if hand.total(s)
    ]  # fmt: skip
    return t(
        "flux-hand-line",
        hand=hand.hand_no,
        target=hand.target,
        story="; ".join(story),
        has_story=bool(story),
        gains=", ".join(gains),
        has_gains=bool(gains),
    )


def score_fields(obs: FluxObservation, names: list[str]) -> list[Field]:
    """The final screen's breakdown: each player's points by source, then hand by hand (the
    latest hands when they do not all fit, saying so)."""
    ledger = obs.ledger
    if not ledger:
        return []
    order = sorted(range(obs.n_players), key=lambda s: -obs.scores[s])
    players = "\n".join(
        player_line(
            ledger,
            s,
            names[s] if s < len(names) else t("flux-player", number=s + 1),
            obs.scores[s],
        )
        for s in order
    )
    fields = [Field(t("flux-field-sources"), _fit(players), inline=False)]
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
        kept.insert(0, t("flux-hands-left-out", count=left_out))
    chunks: list[list[str]] = [[]]
    for line in kept:  # in order, as many to a field as fit
        if chunks[-1] and sum(len(x) + 1 for x in chunks[-1]) + len(line) > FIELD_LIMIT:
            chunks.append([])
        chunks[-1].append(line)
    for i, chunk in enumerate(chunks):
        name = t("flux-field-hands", continued=i > 0)
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
