import asyncio
import contextlib
import gc
import weakref

from bot import memory


def test_settle_freezes_what_is_alive() -> None:
    kept = [object() for _ in range(10)]
    try:
        memory.settle()
        assert gc.get_freeze_count() >= len(kept)
    finally:
        gc.unfreeze()


def test_the_allocator_is_tuned_and_trimmed_here() -> None:
    """On Linux with glibc (where the bot runs): arenas limited, free memory handed back."""
    assert memory.tune_allocator()
    memory.trim()


class _Cycle:
    def __init__(self) -> None:
        self.me = self


async def test_cycles_are_collected_between_clicks_not_during_them() -> None:
    """With the collector run from a task, garbage in cycles waits while a click is being
    answered and is collected once none is; the automatic collector is back afterwards."""
    clicks = asyncio.Event()  # set: no click being answered
    calm_waits = 0

    async def calm() -> None:
        nonlocal calm_waits
        calm_waits += 1
        await clicks.wait()

    gc.collect()
    task = asyncio.create_task(memory.collect_between_clicks(calm, every=0.001))
    try:
        await asyncio.sleep(0.01)
        assert not gc.isenabled()
        cycle = _Cycle()
        gone = weakref.ref(cycle)
        del cycle
        garbage = [_Cycle() for _ in range(memory.YOUNG * 2)]
        del garbage
        for _ in range(50):  # a click is being answered: nothing is collected
            await asyncio.sleep(0.001)
        assert gone() is not None and calm_waits >= 1
        clicks.set()
        for _ in range(200):
            if gone() is None:
                break
            await asyncio.sleep(0.001)
        assert gone() is None
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    assert gc.isenabled()


async def test_older_generations_are_collected_as_python_would() -> None:
    """A cycle that lived through young collections ends in the oldest generation; it is
    freed by the full collection that comes after OLDER collections of the middle one."""

    async def calm() -> None:
        return None

    gc.collect()
    cycle = _Cycle()
    gone = weakref.ref(cycle)
    task = asyncio.create_task(memory.collect_between_clicks(calm, every=0.0005))
    try:
        for _ in range(memory.OLDER + 2):  # survives into the oldest generation
            junk = [_Cycle() for _ in range(memory.YOUNG + 10)]
            del junk
            await asyncio.sleep(0.005)
        del cycle
        for _ in range(2000):
            if gone() is None:
                break
            junk = [_Cycle() for _ in range(memory.YOUNG + 10)]
            del junk
            await asyncio.sleep(0.0005)
        assert gone() is None
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
