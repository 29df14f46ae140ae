"""What the perfect-information Monte Carlo searches of the hard AIs share."""

from __future__ import annotations


def clearly_better(runs: dict[str, list[float]], normal: str, confidence: float) -> str:
    """The move whose paired advantage over ``normal`` is largest, if that advantage stands
    ``confidence`` standard errors out of the sampling noise; else ``normal``.

    ``runs[move][i]`` is the move's value on sample ``i`` (every move on the same samples,
    so the differences are paired). With few samples the best-looking move is often only a
    lucky one: keeping to the normal move unless the samples clearly favour another keeps a
    search from playing worse than the policy it builds on.
    """
    base = runs[normal]
    done = len(base)
    if done < 3:
        return normal
    best, best_edge = normal, 0.0
    for move, values in runs.items():
        if move == normal:
            continue
        diffs = [v - b for v, b in zip(values, base, strict=True)]
        mean = sum(diffs) / done
        spread = (sum((d - mean) ** 2 for d in diffs) / (done - 1)) ** 0.5
        edge = mean - confidence * spread / done**0.5
        if edge > best_edge:
            best, best_edge = move, edge
    return best
