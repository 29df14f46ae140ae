"""Putting an AI's analysis (:mod:`bot.engines.analysis`) into words: what every game's hint
shares. Each game's presentation names its moves and explains its own reasons; this module
lays the hint out and words the figures the same way everywhere.

A hint is the move in bold with a sentence or two of why, then, when the AI weighed more
than one move, the best few side by side (``→`` marks the suggested one).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.engines.analysis import Analysis, MoveValue

SHOWN = 3
"""Moves compared under a hint (the suggested one included)."""


def percent(chance: float, digits: int = 0) -> str:
    """A chance as people say it: "64%", "under 1%", "over 99%", "0%"; ``digits`` after the
    point for exact figures that differ by less than a percent ("51.3%")."""
    edge = 0.5 / 100 / 10**digits
    if 0 < chance < edge:
        return f"under {1 / 10**digits:g}%"
    if 1 - edge < chance < 1:
        return f"over {100 - 1 / 10**digits:g}%"
    return f"{chance:.{digits}%}"


def signed(amount: float, unit: str) -> str:
    """ "+1.4 points", "-0.5 chips", "±0 points" (one decimal)."""
    shown = f"{amount:+.1f}"
    if shown in ("+0.0", "-0.0"):
        return f"±0 {unit}"
    return f"{shown} {unit}"


def sampled(analysis: Analysis, what: str) -> str:
    """ "Over 212 sampled deals" (``what``: "deals", "worlds"...)."""
    count = analysis.samples
    return f"Over {count:,} sampled {what if count != 1 else what.rstrip('s')}"


def hint(
    analysis: Analysis,
    name: Callable[[str], str],
    why: str,
    figure: Callable[[MoveValue], str] | None = None,
) -> str:
    """The hint: ``**move.** why`` and, when more than one move was valued, the best
    :data:`SHOWN` of them, each ``name(move): figure(value)``."""
    text = f"**{name(analysis.move)}.** {why}".strip()
    rows = analysis.top(SHOWN)
    if figure is None or len(rows) < 2 or rows[0].value is None:
        return text
    lines = [
        f"{'→' if i == 0 else '·'} {name(value.move)}: {figure(value)}"
        for i, value in enumerate(rows)
    ]
    return text + "\n" + "\n".join(lines)


def runner_up(analysis: Analysis) -> MoveValue | None:
    """The best valued move other than the suggested one."""
    rest = analysis.top(2)[1:]
    return rest[0] if rest else None


def within_noise(analysis: Analysis) -> MoveValue | None:
    """A move whose sampled value came out above the suggested one's: the search keeps to
    its own first choice unless another is clearly better, beyond the sampling noise."""
    chosen = analysis.best.value
    if chosen is None or not analysis.samples:
        return None
    above = [v for v in analysis.options[1:] if v.value is not None and v.value > chosen]
    return max(above, key=lambda v: v.value or 0.0) if above else None


def trade_off_note(analysis: Analysis, name: Callable[[str], str], unit: str) -> str:
    """A sentence on a listed move that wins more often than the suggested one but scores
    less on average (the search weighs the average), or nothing."""
    chosen = analysis.best
    if chosen.win is None or chosen.value is None:
        return ""
    for other in analysis.top(SHOWN)[1:]:
        if other.win is None or other.value is None:
            continue
        if other.win > chosen.win + 0.005 and other.value < chosen.value:
            return (
                f" {name(other.move)} comes out on top a little more often "
                f"({percent(other.win)}) but brings fewer {unit} on average, and the hard AI "
                f"plays for the {unit}."
            )
    return ""


def noise_note(
    analysis: Analysis, name: Callable[[str], str], figure: Callable[[MoveValue], str]
) -> str:
    """A sentence on a move that looked a little better in the samples, or nothing."""
    rival = within_noise(analysis)
    if rival is None:
        return ""
    return (
        f" {name(rival.move)} came out a little ahead in the samples ({figure(rival)}), but "
        "not by more than chance would, so the hard AI keeps to its choice."
    )
