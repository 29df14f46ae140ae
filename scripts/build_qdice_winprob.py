"""Solve two-player Quantum dice for the "hard" AI and save the table it plays from.

Writes ``data/qdice_winprob_<target>_<entry>.npz`` (the default options: 10,000 and 1,000),
which :func:`bot.engines.qdice.winprob.default_table` loads lazily. Takes a few minutes on one
core; prints its progress, the solving time and the start position's winning chances.

Run: ``.venv/bin/python scripts/build_qdice_winprob.py [target entry]``
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engines.qdice.winprob import save_table, solve, table_path


def main(target: int = 10_000, entry: int = 1_000) -> None:
    started = time.perf_counter()
    V = solve(target, entry, progress=lambda line: print(line, flush=True))
    seconds = time.perf_counter() - started
    path = table_path(target, entry)
    save_table(path, V, target, entry, seconds)
    print(f"solved in {seconds:.0f} s; saved {path}")
    print(f"first player wins {V[0, 0]:.4f} from the start (second {1 - V[0, 0]:.4f})")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    main(*args)
