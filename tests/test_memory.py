import gc

from bot import memory


def test_settle_freezes_what_is_alive() -> None:
    kept = [object() for _ in range(10)]
    try:
        memory.settle()
        assert gc.get_freeze_count() >= len(kept)
    finally:
        gc.unfreeze()
