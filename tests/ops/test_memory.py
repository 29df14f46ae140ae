import gc

from bot.ops import memory


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
