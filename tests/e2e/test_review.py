"""Review after the game, end to end for all five games: a seeded game is played to the end
through the loopback; the finished table offers **Review**; each person's review is worked
out in the AI workers in the background and stored; pressing Review shows a person their own
review only (the moves where the hard AI would have chosen otherwise, each with what they did,
what it suggests and the difference, and a button to that position in the replay); someone
who did not play is refused; a game whose moves were pruned says so."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

from bot.engines.qdice import ai as qdice_ai
from bot.sandbox.loopback import Channel, Message, User
from bot.storage.reviews import ReviewStore
from bot.tables.review import Review
from tests.e2e import qdice_play
from tests.e2e.conftest import World
from tests.e2e.seeding import open_seeded
from tests.e2e.test_replay import GAMES

BUDGET = 0.05
"""Seconds the hard AI takes over each position of a review here (a short game, quickly)."""


def _easy_dice(observation: Any, rng: random.Random) -> str:
    return qdice_ai.decide(observation, "easy", rng, None)


def _replies(w: World, channel: Channel, user: User) -> list[Message]:
    return [m for m in w.fake.messages(channel, viewer=user) if m.ephemeral]


async def _press_review(w: World, room: Channel, final: Message, user: User) -> Message:
    before = len(_replies(w, room, user))
    await w.fake.click(user, final, label="Review")
    await w.fake.wait_idle()
    replies = _replies(w, room, user)
    assert len(replies) == before + 1, "no private reply to Review"
    return replies[-1]


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_review_end_to_end(w: World, game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    finish, setup = GAMES[game]
    if game == "qdice":  # the careful player agrees with the hard AI all through so short a game
        monkeypatch.setattr(qdice_play, "choose_action", _easy_dice)
    room = w.channel()
    guests = [getattr(w, name) for name in setup["guests"]]
    message = await open_seeded(
        w.fake, w.bot.tables, room, game, w.alice, guests,
        seed=setup["seed"], ai=setup["ai"], options=setup["options"],
    )  # fmt: skip
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    reviews = w.bot.tables.reviews
    reviews.budget = BUDGET
    assert not [b for b in message.refresh().buttons if b.label == "Review"]

    await finish(w, room, message, table)
    assert table.record.status == "finished"
    await reviews.wait(table.id)
    await w.fake.wait_idle()
    final = message.refresh()
    assert [b for b in final.buttons if b.label == "Review"], "the finished table has no Review"

    # Worked out and stored for each person who played, from the log.
    people = [s for s in table.seats if not s.is_ai]
    store = ReviewStore(w.bot.db)
    assert await store.seats(table.id) == [s.seat for s in people]
    actions = await w.bot.db.actions(table.id)
    listed = 0
    for seat in people:
        stored = await store.get(table.id, seat.seat)
        assert stored is not None and stored.user_id == seat.user_id
        review = Review.model_validate(json.loads(stored.body_json))
        made = [a for a in actions if a.seat == seat.seat and a.user_id == seat.user_id]
        assert 0 < review.positions <= len(made)
        assert len(review.entries) <= review.positions
        drops = [e.drop or 0.0 for e in review.entries]
        assert drops == sorted(drops, reverse=True)
        for e in review.entries:
            assert e.suggested != e.done and e.suggestion and e.words and e.done_text
        listed += len(review.entries)

        # Shown to the person alone: their review and nobody else's.
        user = {w.alice.id: w.alice, w.bob.id: w.bob}[seat.user_id or 0]
        shown = await _press_review(w, room, final, user)
        assert shown.visible_to(user)
        for someone in (w.alice, w.bob, w.dave):
            if someone is not user:
                assert not shown.visible_to(someone)
        text = shown.text()
        assert f"review for {seat.name}" in text
        assert f"went over your {review.positions} moves" in text
        for number, e in enumerate(review.entries[:5], start=1):
            assert f"{number}. Step {e.step:,}" in text
            assert f"**You:** {e.done_text}"[:200] in text
            assert "**Hard AI:** " + e.suggestion.split("\n")[0] in text
        steps = [b for b in shown.buttons if b.label.startswith("Step ")]
        assert len(steps) == min(5, len(review.entries))
        if steps:  # the position: the replay just before the move
            await w.fake.click(user, shown, custom_id=steps[0].custom_id)
            await w.fake.wait_idle()
            moved = shown.refresh()
            assert f"Step {review.entries[0].step - 1:,} of" in moved.text()
            # The replay offers the review again (as /history's replays do).
            again = await _press_review(w, room, moved, user)
            assert again.visible_to(user) and f"review for {seat.name}" in again.text()
    assert listed, "nobody's review lists a move (the hard AI agreed with every one)"

    # Someone who did not play is refused.
    refused = await _press_review(w, room, final, w.dave)
    assert "You didn't play" in refused.text() and "· review for" not in refused.text()


async def test_a_pruned_game_says_it_cannot_be_reviewed(w: World) -> None:
    room = w.channel()
    message = await open_seeded(
        w.fake, w.bot.tables, room, "qdice", w.bob, [], seed=8, ai=1, options={"target": 1000}
    )
    table = w.bot.tables.in_location(room.id)
    assert table is not None
    w.bot.tables.reviews.budget = BUDGET
    await qdice_play.play_to_the_end(w.fake, w.bot.tables, table, message, {w.bob.id: w.bob})
    await w.bot.tables.reviews.wait(table.id)
    await w.fake.wait_idle()
    final = message.refresh()
    shown = await _press_review(w, room, final, w.bob)
    assert "review for" in shown.text()

    await w.bot.db.update_game(table.id, ended_at=time.time() - 40 * 86400)
    assert await w.bot.db.prune(older_than_days=30) >= 1
    explained = (await _press_review(w, room, final, w.bob)).text()
    assert f"Game #{table.id} was played too long ago" in explained
    assert "can't be reviewed" in explained
