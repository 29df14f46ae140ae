"""Discord's shard of a server, and the shards one process runs."""

from __future__ import annotations

import pytest

from bot.cluster.sharding import ShardSet, shard_of


def test_shard_of_follows_discords_formula() -> None:
    guild = (7 << 22) | 999  # the timestamp bits say 7
    assert shard_of(guild, 4) == 3 and shard_of(guild, 8) == 7 and shard_of(guild, 1) == 0
    assert shard_of(None, 4) == 0  # direct messages live on shard 0


def test_a_shard_set_owns_only_its_shards() -> None:
    low, high = ShardSet((1, 0), 4), ShardSet((2, 3), 4)
    assert low.shard_ids == (0, 1) and str(low) == "shards 0,1 of 4"
    for shard in range(4):
        guild = (shard << 22) | 5
        assert low.owns(guild) != high.owns(guild)
    assert ShardSet.everything(3).is_everything and not low.is_everything


def test_an_empty_shard_set_owns_nothing() -> None:
    nothing = ShardSet((), 4)
    assert not any(nothing.owns((shard << 22) | 5) for shard in range(4))
    assert not nothing.is_everything and str(nothing) == "no shard of 4"


@pytest.mark.parametrize(("ids", "count"), [((2,), 2), ((-1,), 2), ((0,), 0)])
def test_impossible_shard_sets_are_refused(ids: tuple[int, ...], count: int) -> None:
    with pytest.raises(ValueError):
        ShardSet(ids, count)
