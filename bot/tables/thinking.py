"""AI decisions off the event loop: worker processes, a time budget, a legal fallback.

An AI decision is pure CPU work on an observation (a pydantic model, which pickles), so it
runs in a pool of worker processes sized to the machine: however hard an AI thinks, the
event loop that answers every table's clicks never waits for it. Each decision has a time
budget (searching levels stop at it with their best move so far); a decision that fails,
or has not come back well after its budget, is replaced by a legal move and logged, so a
game never stops on its AI.

The pool is shared by every bot in the process (tests start many). Its workers are forked
from a server process that imported the games' AIs and built what they precompute (the
odds tables of :mod:`bot.engines.qdice.ai`, the solved two-player table) once, before it
forks any (:mod:`bot.tables.ai_preload`): the workers share those pages with it instead of
each building and holding its own copy, and start in milliseconds. That happens in the
background while the bot connects; a decision asked for before the workers are ready waits
for them (the event loop does not), and its time budget starts once a worker takes it.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import ctypes
import logging
import multiprocessing
import os
import random
import select
import signal
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from bot.engines.analysis import Analysis
from bot.tables.protocols import GameSpec

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies
WORKER_NICENESS = 10
"""The workers' CPU priority (Unix ``nice``): below the bot's, so it wins when both want
the processor."""
PRELOAD = "bot.tables.ai_preload"
"""What the fork server imports before forking workers (builds every game's AI tables)."""

_pools: dict[int, concurrent.futures.ProcessPoolExecutor] = {}
_covered: dict[int, frozenset[Callable[[], None]]] = {}
"""Per pool: the warm-ups its workers run as they start."""
_pools_lock = threading.Lock()


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


def lower_priority() -> None:
    """Run at :data:`WORKER_NICENESS` (where allowed)."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, 0, max(os.getpriority(os.PRIO_PROCESS, 0), WORKER_NICENESS))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - someone else's process took the number
        return True
    return True


def _die_with(bot: int) -> None:
    """End this process as soon as the bot's process ends (a thread waits for it)."""
    try:
        handle: int | None = os.pidfd_open(bot)  # readable once the process has ended
    except (OSError, AttributeError):  # pragma: no cover - before Linux 5.3
        handle = None

    def watch() -> None:
        if handle is not None:
            select.select([handle], [], [])
        else:  # pragma: no cover
            while _alive(bot):
                time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="watch-bot", daemon=True).start()


def _worker_started(bot: int, warmers: tuple[Callable[[], None], ...]) -> None:
    """In a new worker: die with the bot, yield the CPU to it, be warm.

    A bot killed outright (SIGKILL, a crashed machine's supervisor) runs no shutdown code,
    so its workers would live on, orphaned, holding its log pipe open: each watches the
    bot's process and ends with it (and the fork server, once no worker and no bot holds
    its pipe, ends too; a worker the bot spawned itself also has the kernel end it with its
    parent). A worker that finds the bot gone already stops. The warm-ups cost nothing when
    the fork server ran them (the worker has its tables already); else they build the
    tables here, before the worker takes any decision.
    """
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass
    if not _alive(bot):
        os._exit(0)  # the bot died before this worker was ready
    _die_with(bot)
    lower_priority()
    for warm_up in warmers:
        with contextlib.suppress(Exception):  # a table not built now is built when needed
            warm_up()


def _warm(warmers: tuple[Callable[[], None], ...]) -> int:
    """In a worker: build these precomputed tables (cached for the process)."""
    for warm_up in warmers:
        warm_up()
    return os.getpid()


def _here() -> int:
    return os.getpid()


def _context() -> multiprocessing.context.BaseContext:
    """Workers forked from a warmed fork server; spawned where there is none. Never forked
    from the bot itself: it runs threads (the database's, the renderers')."""
    if "forkserver" not in multiprocessing.get_all_start_methods():  # pragma: no cover
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([PRELOAD])
    return context


def worker_memory(pid: int) -> dict[str, int]:
    """A worker's memory in bytes: ``rss`` (resident), ``pss`` (its share of pages it shares
    with the fork server and the other workers) and ``private`` (its own pages); empty
    where /proc does not tell (not Linux, a worker gone)."""
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return {}
    found: dict[str, int] = {}
    for line in text.splitlines()[1:]:
        name, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[-1] == "kB":
            found[name] = int(parts[0]) * 1024
    private = found.get("Private_Clean", 0) + found.get("Private_Dirty", 0)
    return {"rss": found.get("Rss", 0), "pss": found.get("Pss", 0), "private": private}


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
        self.pids: list[int] = []
        """The worker processes, once started."""
        self._ready: asyncio.Future[None] | None = None

    @property
    def warmers(self) -> tuple[Callable[[], None], ...]:
        return tuple(g.ai.warm_up for g in self.games if g.ai is not None and g.ai.warm_up)

    async def start(self) -> None:
        """Start the workers (and their warm-up) in the background; returns at once.
        Decisions asked for meanwhile wait for them (:meth:`ready`)."""
        ready = self._ready
        failed = ready is not None and ready.done() and (ready.cancelled() or ready.exception())
        if ready is None or failed:
            self._ready = asyncio.ensure_future(self._start())

    async def ready(self) -> None:
        """Wait until the workers are started and warm (started if need be)."""
        await self.start()
        assert self._ready is not None
        await asyncio.shield(self._ready)

    async def _start(self) -> None:
        started = time.perf_counter()
        if self.workers <= 0:
            await asyncio.gather(*(asyncio.to_thread(w) for w in self.warmers))
            return
        # In a thread: starting a worker waits for the fork server to be ready.
        self.pids = await asyncio.to_thread(self._start_workers)
        memory = [worker_memory(pid) for pid in self.pids]
        shown = ", ".join(
            f"{m['rss'] / 2**20:.0f} MiB ({m['private'] / 2**20:.0f} MiB its own)"
            for m in memory
            if m
        )
        log.info(
            "%d AI worker process(es) ready in %.2f s%s",
            len(self.pids),
            time.perf_counter() - started,
            f"; memory per worker: {shown}" if shown else "",
        )

    def _start_workers(self) -> list[int]:
        """(In a thread.) The pool, its workers started and warm; their process ids."""
        warmers = self.warmers
        with _pools_lock:
            pool = _pools.get(self.workers)
            if pool is None:
                pool = concurrent.futures.ProcessPoolExecutor(
                    self.workers,
                    mp_context=_context(),
                    initializer=_worker_started,
                    initargs=(os.getpid(), warmers),
                )
                _pools[self.workers] = pool
                _covered[self.workers] = frozenset(warmers)
            todo = tuple(w for w in warmers if w not in _covered[self.workers])
        # One task per worker at once makes the pool start them all; each runs once its
        # worker is warm.
        calls = [
            pool.submit(_warm, todo) if todo else pool.submit(_here) for _ in range(self.workers)
        ]
        for call in calls:
            call.result()
        with _pools_lock:
            _covered[self.workers] = _covered[self.workers] | frozenset(todo)
        return sorted(pool._processes)  # the pool's own record of its workers

    async def _replace_broken(self, pool: concurrent.futures.ProcessPoolExecutor | None) -> None:
        """The worker pool broke (a worker died): forget it and start another in the
        background."""
        log.exception("The AI worker pool broke; starting a new one")
        with _pools_lock:
            if _pools.get(self.workers) is pool:
                _pools.pop(self.workers, None)
                _covered.pop(self.workers, None)
        self._ready = None
        await self.start()

    def memory(self) -> dict[int, dict[str, int]]:
        """Per worker process: its memory (see :func:`worker_memory`)."""
        return {pid: worker_memory(pid) for pid in self.pids}

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
        try:
            await self.ready()  # the workers may still be starting: wait, the loop runs on
        except Exception:
            log.exception("The AI workers could not start; no %s", label)
            return None
        pool = _pools.get(self.workers) if self.workers > 0 else None
        if self.workers > 0 and pool is None:  # the pool broke meanwhile: start another
            self._ready = None
            await self.start()
            return None
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
            await self._replace_broken(pool)
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
        args = (spec.ai.decide, observation, level, seed, self.budget)
        try:
            await self.ready()  # the workers may still be starting: wait, the loop runs on
        except Exception:
            log.exception("The AI workers could not start; playing a legal move instead")
            self.fallbacks += 1
            return random.Random(seed).choice(legal)
        pool = _pools.get(self.workers) if self.workers > 0 else None
        if self.workers > 0 and pool is None:  # the pool broke meanwhile: start another
            self._ready = None
            return await self._decide(spec, observation, level, seed, legal)
        loop = asyncio.get_running_loop()
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
            await self._replace_broken(pool)
        except Exception:
            log.exception("%s AI (%s) failed; playing a legal move instead", spec.title, level)
        self.fallbacks += 1
        return random.Random(seed).choice(legal)
