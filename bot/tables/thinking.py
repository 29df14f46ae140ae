"""AI decisions off the event loop: worker processes, a time budget, a legal fallback.

An AI decision is pure CPU work on an observation (a pydantic model, which pickles), so it
runs in a pool of worker processes sized to the machine: however hard an AI thinks, the
event loop that answers every table's clicks never waits for it. Each decision has a time
budget (searching levels stop at it with their best move so far); a decision that fails,
or has not come back well after its budget, is replaced by a legal move and logged, so a
game never stops on its AI.

The pool is shared by every bot in the process (tests start many) and warmed up when the bot
starts: each worker builds what the games' AIs precompute before the bot says it is ready.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import ctypes
import logging
import multiprocessing
import os
import random
import signal
import time
from collections.abc import Callable, Iterable
from typing import Any

from bot.engines.analysis import Analysis
from bot.tables.protocols import GameSpec

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies
WORKER_NICENESS = 10
"""How much lower the workers' CPU priority is than the bot's (Unix ``nice``)."""

_pools: dict[int, concurrent.futures.ProcessPoolExecutor] = {}
_warmed: dict[int, set[Callable[[], None]]] = {}


def default_workers() -> int:
    """Worker processes for AI decisions: one per core the process may use, at least one."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return max(1, cores)


RETURN_SHARE = 0.03
"""The share of the budget a search leaves for its answer's way back (finishing up, and the
trip from the worker to the bot), so that the answer arrives within the budget."""


def _deadline(budget: float) -> float:
    """When a search that starts now must stop, for an answer within ``budget`` seconds."""
    return time.monotonic() + budget * (1 - RETURN_SHARE)


def _think(
    decide: Callable[[Any, str, random.Random, float | None], str],
    observation: Any,
    level: str,
    seed: str,
    budget: float,
) -> str:
    """In a worker: one decision, its deadline counted from when the worker starts on it."""
    return decide(observation, level, random.Random(seed), _deadline(budget))


def _study(
    analyse: Callable[[Any, random.Random, float | None], Analysis],
    observation: Any,
    seed: str,
    budget: float,
    also: tuple[str, ...] = (),
) -> Analysis:
    """In a worker: one analysis (the hard level's decision and its figures), its deadline
    counted like a decision's; ``also``: moves to value besides (a review's move made)."""
    if also:
        return analyse(observation, random.Random(seed), _deadline(budget), also=also)  # type: ignore[call-arg]
    return analyse(observation, random.Random(seed), _deadline(budget))


def _worker_started(parent: int) -> None:
    """In a new worker: die with the bot, and yield the CPU to it when both want it.

    A bot killed outright (SIGKILL, a crashed machine's supervisor) runs no shutdown code,
    so its workers would live on, orphaned, holding its log pipe open; the kernel ends them
    with their parent instead (Linux), and a worker that finds its parent gone already stops.
    """
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass
    if os.getppid() != parent:
        os._exit(0)  # the bot died before this worker was ready
    try:
        os.nice(WORKER_NICENESS)
    except OSError:  # pragma: no cover - not allowed here: run at the same priority
        pass


def _warm(warmers: tuple[Callable[[], None], ...]) -> int:
    """In a worker: build every game's precomputed tables (cached for the process)."""
    for warm_up in warmers:
        warm_up()
    return os.getpid()


def _shutdown_pools() -> None:
    for pool in _pools.values():
        pool.shutdown(wait=False, cancel_futures=True)
    _pools.clear()


atexit.register(_shutdown_pools)


class Thinker:
    """Runs AI decisions in worker processes within a time budget.

    ``workers=0`` decides in a thread of this process instead (for tools that cannot spawn
    processes); the event loop is still never blocked.
    """

    def __init__(
        self,
        games: Iterable[GameSpec],
        *,
        budget: float = 1.0,
        workers: int | None = None,
        grace: float | None = None,
    ) -> None:
        self.games = list(games)
        self.budget = budget
        self.workers = default_workers() if workers is None else workers
        self.grace = grace if grace is not None else 2.0 + 2 * budget
        """Seconds past the budget before a decision counts as lost (queueing included)."""
        self.fallbacks = 0
        self.on_decision: Callable[[str, str, float], None] | None = None
        """Told each decision's game, level and seconds taken (the bot measures them)."""

    def _pool(self) -> concurrent.futures.Executor | None:
        if self.workers <= 0:
            return None
        pool = _pools.get(self.workers)
        if pool is None:
            # Spawned, not forked: the bot runs threads (the database's, the renderers').
            context = multiprocessing.get_context("spawn")
            pool = concurrent.futures.ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                initializer=_worker_started,
                initargs=(os.getpid(),),
            )
            _pools[self.workers] = pool
            _warmed[self.workers] = set()
        return pool

    async def start(self) -> None:
        """Start the workers and let each build the games' precomputed tables."""
        warmers = tuple(g.ai.warm_up for g in self.games if g.ai is not None and g.ai.warm_up)
        pool = self._pool()
        loop = asyncio.get_running_loop()
        started = time.perf_counter()
        if pool is None:
            await asyncio.gather(*(asyncio.to_thread(w) for w in warmers))
            return
        todo = tuple(w for w in warmers if w not in _warmed[self.workers])
        # One task per worker at once makes the pool start them all.
        await asyncio.gather(
            *(loop.run_in_executor(pool, _warm, todo) for _ in range(self.workers))
        )
        _warmed[self.workers].update(todo)
        log.info(
            "%d AI worker process(es) ready in %.2f s", self.workers, time.perf_counter() - started
        )

    async def decide(
        self, spec: GameSpec, observation: Any, level: str, seed: str, legal: list[str]
    ) -> str:
        """The move ``spec``'s AI chooses at ``level``; a legal move if it fails or is late."""
        if spec.ai is None:
            return legal[0]
        started = time.perf_counter()
        move = await self._decide(spec, observation, level, seed, legal)
        if self.on_decision is not None:
            self.on_decision(spec.name, level, time.perf_counter() - started)
        return move

    async def analyse(
        self,
        spec: GameSpec,
        observation: Any,
        seed: str,
        *,
        also: tuple[str, ...] = (),
        budget: float | None = None,
        label: str = "hint",
    ) -> Analysis | None:
        """``spec``'s hard AI on ``observation`` with the figures behind its move (for a
        hint), within the same budget and in the same workers as a decision; with the seed
        a decision would have, its move is the one the hard AI plays there. None if the game
        has no analysis, or it failed or came late (logged): a hint is never a guess.
        ``also``: moves to value besides; ``budget``: another time budget (a review's);
        ``label``: the "level" the measured time is reported under."""
        if spec.ai is None or spec.ai.analyse is None:
            return None
        pool = self._pool()
        loop = asyncio.get_running_loop()
        started = time.perf_counter()
        budget = self.budget if budget is None else budget
        args = (spec.ai.analyse, observation, seed, budget, also)
        if pool is None:
            future: asyncio.Future[Analysis] = asyncio.ensure_future(
                asyncio.to_thread(_study, *args)
            )
        else:
            future = loop.run_in_executor(pool, _study, *args)
        try:
            found = await asyncio.wait_for(future, budget + self.grace)
        except TimeoutError:
            log.warning("%s AI gave no %s within %.1f s", spec.title, label, budget + self.grace)
            return None
        except concurrent.futures.BrokenExecutor:
            log.exception("The AI worker pool broke; starting a new one")
            _pools.pop(self.workers, None)
            _warmed.pop(self.workers, None)
            return None
        except Exception:
            log.exception("%s AI failed to work out a hint", spec.title)
            return None
        if self.on_decision is not None:
            self.on_decision(spec.name, label, time.perf_counter() - started)
        return found

    async def _decide(
        self, spec: GameSpec, observation: Any, level: str, seed: str, legal: list[str]
    ) -> str:
        assert spec.ai is not None
        pool = self._pool()
        loop = asyncio.get_running_loop()
        args = (spec.ai.decide, observation, level, seed, self.budget)
        if pool is None:
            future: asyncio.Future[str] = asyncio.ensure_future(asyncio.to_thread(_think, *args))
        else:
            future = loop.run_in_executor(pool, _think, *args)
        try:
            return await asyncio.wait_for(future, self.budget + self.grace)
        except TimeoutError:
            log.warning(
                "%s AI (%s) gave no move within %.1f s; playing a legal move instead",
                spec.title,
                level,
                self.budget + self.grace,
            )
        except concurrent.futures.BrokenExecutor:
            log.exception("The AI worker pool broke; starting a new one")
            _pools.pop(self.workers, None)
            _warmed.pop(self.workers, None)
        except Exception:
            log.exception("%s AI (%s) failed; playing a legal move instead", spec.title, level)
        self.fallbacks += 1
        return random.Random(seed).choice(legal)
