"""What each table message shows: digests stored, replaced, forgotten, in batches."""

from __future__ import annotations

from bot.storage import Database
from bot.storage.shown import ShownPanels
from tests.storage.helpers import new_game


async def test_digests_are_stored_replaced_and_forgotten(db: Database) -> None:
    games = [await new_game(db, channel_id=300 + n) for n in range(3)]
    ids = [g.id for g in games]
    shown = ShownPanels(db)
    assert await shown.digests(ids) == {}
    await shown.save({ids[0]: "a", ids[1]: "b"})
    assert await shown.digests(ids) == {ids[0]: "a", ids[1]: "b"}
    await shown.save({ids[0]: "a2", ids[1]: None, ids[2]: "c"})
    assert await shown.digests(ids) == {ids[0]: "a2", ids[2]: "c"}
    assert await shown.digests([ids[2]]) == {ids[2]: "c"}


async def test_many_digests_in_one_go(db: Database) -> None:
    games = [await new_game(db, channel_id=1000 + n) for n in range(520)]
    shown = ShownPanels(db)
    await shown.save({g.id: f"d{g.id}" for g in games})
    found = await shown.digests([g.id for g in games])
    assert len(found) == 520 and all(found[g.id] == f"d{g.id}" for g in games)
