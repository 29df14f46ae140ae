"""The exact consistency engine of Quantum Fingers: which classical deals are still possible.

Every transfer in the game is public, so a player's current holding of a flavour is its
initial count plus known transfers. Every constraint (an ask, an answer, a book or a declined
book) is then a bound on one cell of the players-by-flavours matrix of *current holdings*
``H``. The consistent deals are exactly the integer matrices with

* row sums = the players' finger counts, column sums = the fingers of each flavour in play,
* ``lo[p][f] <= H[p][f] <= hi[p][f]`` for every cell.

Such a set is a transportation polytope with integer data, so its integer points are found
with max-flow: :func:`feasible` builds one deal (or proves there is none) by augmenting paths,
and :func:`exact_bounds` tightens every cell to the least and greatest value some deal gives
it, by pushing flow round cycles through that cell (a max-flow in the residual network).
Because the constraint matrix is totally unimodular, every integer between a cell's least and
greatest value is reached by some deal.

Exact bounds are canonical: the set of deals is the set the exact bounds themselves define,
and two different sets of deals have different exact bounds. The engine stores only exact
bounds, so equal bounds mean an equal position.

Nothing here is a heuristic: a brute-force enumeration of every deal agrees with it
(``tests/engines/test_fingers_consistency.py``).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

Matrix = list[list[int]]

RESTRICT_CACHE = 4096
"""Constrained positions remembered (a few hundred bytes to a few kilobytes each)."""


@dataclass(frozen=True)
class Bounds:
    """Least and greatest holding of every player (rows) in every flavour (columns)."""

    lo: Matrix
    hi: Matrix


def _copy(matrix: Matrix) -> Matrix:
    return [list(row) for row in matrix]


def _path(
    value: Matrix,
    lo: Matrix,
    hi: Matrix,
    sources: list[tuple[str, int]],
    is_target: list[list[bool]],
    skip: tuple[int, int] | None = None,
) -> list[tuple[str, int]] | None:
    """A shortest residual path from any source node to a target node, or None.

    Nodes are ``("r", p)`` (a player) and ``("c", f)`` (a flavour). A player may pass to a
    flavour where its holding can still grow, a flavour to a player whose holding can shrink.
    ``is_target[0][p]``/``is_target[1][f]`` mark the target players/flavours. The cell
    ``skip`` is left out (the cell whose range is being measured).
    """
    n_rows, n_cols = len(value), len(value[0]) if value else 0
    parent: dict[tuple[str, int], tuple[str, int] | None] = {s: None for s in sources}
    queue = deque(sources)
    while queue:
        node = queue.popleft()
        kind, index = node
        if node not in sources and is_target[0 if kind == "r" else 1][index]:
            path = [node]
            while (prev := parent[path[-1]]) is not None:
                path.append(prev)
            return path[::-1]
        if kind == "r":
            row = value[index]
            for f in range(n_cols):
                nxt = ("c", f)
                if nxt not in parent and row[f] < hi[index][f] and (index, f) != skip:
                    parent[nxt] = node
                    queue.append(nxt)
        else:
            for p in range(n_rows):
                nxt = ("r", p)
                if nxt not in parent and value[p][index] > lo[p][index] and (p, index) != skip:
                    parent[nxt] = node
                    queue.append(nxt)
    return None


def _push(value: Matrix, path: list[tuple[str, int]]) -> None:
    """Move one unit along ``path``: grow row->column cells, shrink column->row cells."""
    for (kind, a), (_, b) in pairwise(path):
        if kind == "r":
            value[a][b] += 1
        else:
            value[b][a] -= 1


def feasible(lo: Matrix, hi: Matrix, rows: list[int], cols: list[int]) -> Matrix | None:
    """One integer matrix within the bounds and with these margins, or None if none exists."""
    n_rows, n_cols = len(rows), len(cols)
    if sum(rows) != sum(cols):
        return None
    if any(lo[p][f] > hi[p][f] for p in range(n_rows) for f in range(n_cols)):
        return None
    value = _copy(lo)
    row_need = [rows[p] - sum(value[p]) for p in range(n_rows)]
    col_need = [cols[f] - sum(value[p][f] for p in range(n_rows)) for f in range(n_cols)]
    if any(x < 0 for x in row_need) or any(x < 0 for x in col_need):
        return None
    # Greedy start, then augmenting paths from rows still short to columns still short.
    for p in range(n_rows):
        for f in range(n_cols):
            step = min(row_need[p], col_need[f], hi[p][f] - value[p][f])
            if step > 0:
                value[p][f] += step
                row_need[p] -= step
                col_need[f] -= step
    while any(row_need):
        sources = [("r", p) for p in range(n_rows) if row_need[p] > 0]
        targets = [[False] * n_rows, [x > 0 for x in col_need]]
        path = _path(value, lo, hi, sources, targets)
        if path is None:
            return None
        _push(value, path)
        row_need[path[0][1]] -= 1
        col_need[path[-1][1]] -= 1
    return value


def _cycle(
    value: Matrix, lo: Matrix, hi: Matrix, p: int, f: int, *, upward: bool
) -> list[int] | None:
    """A shortest residual path that closes a cycle through cell ``(p, f)`` (which it avoids).

    :func:`_path` for the one source and one target :func:`_extreme` needs, on plain integer
    nodes (players ``0 .. n_rows - 1``, flavours ``n_rows ..``), since it is the hot loop of
    every move. Upward it runs from flavour ``f`` to player ``p``, downward the other way.
    """
    n_rows, n_cols = len(value), len(value[0])
    source, target = (n_rows + f, p) if upward else (p, n_rows + f)
    parent = [-1] * (n_rows + n_cols)
    parent[source] = source
    queue = [source]
    for node in queue:
        if node < n_rows:
            row, high_row = value[node], hi[node]
            for c in range(n_cols):
                nxt = n_rows + c
                if parent[nxt] < 0 and row[c] < high_row[c] and (node != p or c != f):
                    parent[nxt] = node
                    if nxt == target:
                        break
                    queue.append(nxt)
        else:
            c = node - n_rows
            for r in range(n_rows):
                if parent[r] < 0 and value[r][c] > lo[r][c] and (r != p or c != f):
                    parent[r] = node
                    if r == target:
                        break
                    queue.append(r)
        if parent[target] >= 0:
            path = [target]
            while path[-1] != source:
                path.append(parent[path[-1]])
            return path[::-1]
    return None


def _extreme(deal: Matrix, lo: Matrix, hi: Matrix, cell: tuple[int, int], *, upward: bool) -> int:
    """The greatest (``upward``) or least value of ``cell`` over all deals, from one deal."""
    p, f = cell
    value = _copy(deal)
    n_rows = len(value)
    while (value[p][f] < hi[p][f]) if upward else (value[p][f] > lo[p][f]):
        # Upward: some other player gives up f, p gives up another flavour; downward: p takes
        # another flavour, someone else takes an f.
        path = _cycle(value, lo, hi, p, f, upward=upward)
        if path is None:
            break
        for a, b in pairwise(path):
            if a < n_rows:
                value[a][b - n_rows] += 1
            else:
                value[b][a - n_rows] -= 1
        value[p][f] += 1 if upward else -1
    return value[p][f]


def exact_bounds(lo: Matrix, hi: Matrix, rows: list[int], cols: list[int]) -> Bounds | None:
    """The tightest bounds every consistent deal respects, or None if no deal is left."""
    deal = feasible(lo, hi, rows, cols)
    if deal is None:
        return None
    new_lo, new_hi = _copy(lo), _copy(hi)
    for p in range(len(rows)):
        for f in range(len(cols)):
            if lo[p][f] == hi[p][f]:
                continue
            new_hi[p][f] = _extreme(deal, lo, hi, (p, f), upward=True)
            new_lo[p][f] = _extreme(deal, lo, hi, (p, f), upward=False)
    return Bounds(new_lo, new_hi)


def restrict(
    bounds: Bounds,
    rows: list[int],
    cols: list[int],
    cell: tuple[int, int],
    *,
    at_least: int | None = None,
    at_most: int | None = None,
) -> Bounds | None:
    """The exact bounds once ``cell`` is also known to lie in ``[at_least, at_most]``.

    None when no deal satisfies the new constraint (the move would be inconsistent).
    """
    p, f = cell
    low = bounds.lo[p][f] if at_least is None else max(bounds.lo[p][f], at_least)
    high = bounds.hi[p][f] if at_most is None else min(bounds.hi[p][f], at_most)
    if low > high:
        return None
    if low == bounds.lo[p][f] and high == bounds.hi[p][f]:
        return bounds  # already implied: nothing to learn
    found = _restricted(
        tuple(map(tuple, bounds.lo)),
        tuple(map(tuple, bounds.hi)),
        tuple(rows),
        tuple(cols),
        cell,
        low,
        high,
    )
    if found is None:
        return None
    return Bounds([list(r) for r in found[0]], [list(r) for r in found[1]])


Frozen = tuple[tuple[int, ...], ...]


@lru_cache(maxsize=RESTRICT_CACHE)
def _restricted(
    lo: Frozen,
    hi: Frozen,
    rows: tuple[int, ...],
    cols: tuple[int, ...],
    cell: tuple[int, int],
    low: int,
    high: int,
) -> tuple[Frozen, Frozen] | None:
    """:func:`restrict`'s work, remembered: the AI tries the same moves from the same
    positions many times over (the answers are copied out, never shared)."""
    p, f = cell
    new_lo, new_hi = [list(r) for r in lo], [list(r) for r in hi]
    new_lo[p][f], new_hi[p][f] = low, high
    exact = exact_bounds(new_lo, new_hi, list(rows), list(cols))
    if exact is None:
        return None
    return tuple(map(tuple, exact.lo)), tuple(map(tuple, exact.hi))


def initial_bounds(n_players: int, per_flavour: int) -> Bounds:
    """Before any move: everyone holds ``per_flavour`` fingers, none holds a whole flavour.

    Each cell may be anything from 0 to ``per_flavour - 1`` (these bounds are exact already
    for three or more players).
    """
    lo = [[0] * n_players for _ in range(n_players)]
    hi = [[per_flavour - 1] * n_players for _ in range(n_players)]
    exact = exact_bounds(lo, hi, [per_flavour] * n_players, [per_flavour] * n_players)
    assert exact is not None
    return exact
