"""Replays of finished games, on their own: steps, the last deal, refusals, the kept few."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.engines.base import GameError
from bot.games import all_games
from bot.storage.db import Database
from bot.storage.models import ActionRecord, SeatRecord
from bot.tables.replay import REPLAY_ID, SAVE_EVERY, Replays, ReplayUnavailable
from tests.support.logged_games import play_logged, save_played

GAMES = all_games()
GUILD = 5


@pytest.fixture
async def db() -> AsyncIterator[Database]:
    async with await Database.open(":memory:") as database:
        yield database


async def store(
    db: Database,
    game: str,
    n: int,
    seed: int,
    *,
    options: dict[str, Any] | None = None,
    finish: bool = True,
) -> tuple[int, list[ActionRecord], Any]:
    """A game played by random legal moves (private selections too), stored as the bot
    stores one; its id, its log and its final state."""
    engine = GAMES[game].engine
    seats = [
        SeatRecord(seat=i, user_id=100 + i if i % 2 == 0 else None, name=f"P{i}", is_ai=i % 2 == 1)
        for i in range(n)
    ]
    record = await db.create_game(
        guild_id=GUILD, channel_id=1, game=game, host_id=100,
        config={"options": options or {}}, seed=seed, seats=seats,
    )  # fmt: skip
    state = engine.new_game(engine.parse_config(options), n, seed)
    rng = random.Random(seed)
    actions = play_logged(
        engine,
        state,
        lambda s, seat: rng.choice(engine.legal_actions(s, seat)),
        lambda seat: 100 + seat if seat % 2 == 0 else None,
        at=1.0,
        moves=None if finish else 10,
    )
    await save_played(db, record.id, engine, state, actions, finished=finish)
    return record.id, actions, state


async def test_private_selections_fold_into_the_move_they_lead_to(db: Database) -> None:
    game_id, actions, final = await store(db, "qdice", 2, 3, options={"target": 4000})
    replay = await Replays(db, GAMES).open(game_id, GUILD)
    engine = GAMES["qdice"].engine
    state = engine.new_game(engine.parse_config({"target": 4000}), 2, 3)
    spoken = [a for a in actions if engine.apply(state, a.seat, a.action)]
    assert len(spoken) < len(actions), "no die was ever picked before a roll"
    assert replay.last == len(spoken) and replay.steps[-1].end == len(actions)
    assert [s.seat for s in replay.steps[1:]] == [a.seat for a in spoken]
    assert replay.state_at(replay.last) == final
    assert replay.state_at(10**6) == final and replay.state_at(-3) == replay.state_at(0)
    assert replay.hands_step() == replay.last  # nothing in Quantum dice is hidden
    assert replay.last > SAVE_EVERY  # so some steps start from a saved copy past the deal
    for index in (1, SAVE_EVERY - 1, SAVE_EVERY, SAVE_EVERY + 5, replay.last - 1):
        again = engine.new_game(engine.parse_config({"target": 4000}), 2, 3)
        for action in actions[: replay.steps[index].end]:
            engine.apply(again, action.seat, action.action)
        assert replay.state_at(index) == again


async def test_show_hands_opens_the_last_deal_with_every_hand(db: Database) -> None:
    game_id, _, final = await store(db, "flux", 3, 4)
    replays = Replays(db, GAMES)
    replay = await replays.open(game_id, GUILD)
    engine = GAMES["flux"].engine
    deal = replay.hands_step()
    dealt = replay.state_at(deal)
    assert (
        engine.deal_of(dealt) == engine.deal_of(final) > engine.deal_of(replay.state_at(deal - 1))
    )
    panel = await replays.hands(game_id, GUILD)
    assert "every card of the last deal, face up" in panel.description
    # It opens on the deal, named as the table names it: not on the move that led to it
    # (the end of the hand before), whose lines would sit above the new deal.
    hand = final.hand_no  # type: ignore[attr-defined]
    assert f"**Hand {hand}, as it was dealt** (the last of the game) · Step {deal} of " in (
        panel.description
    )
    assert "'s move" not in panel.description
    assert not any(line in panel.description for line in replay.steps[deal].lines)
    (hands,) = panel.fields
    for seat, hand in enumerate(dealt.hands):  # type: ignore[attr-defined]
        assert hand and f"**P{seat}**: " in hands.value
    assert panel.image_png is not None and panel.image_png.startswith(b"\x89PNG")

    start = await replays.step(game_id, 0, GUILD)
    assert "start of the game" in start.description and "The game begins" in start.description
    controls = {c.label: c for c in start.controls}
    assert controls["⏮ First"].disabled and controls["◀ Previous"].disabled
    assert not controls["Next ▶"].disabled
    for control in start.controls:
        if control.label == "Review":  # a person played: their review is a click away
            assert control.custom_id == f"qv:{game_id}"
            continue
        match = REPLAY_ID.fullmatch(control.custom_id or "")
        assert match is not None and int(match["game"]) == game_id
    assert REPLAY_ID.fullmatch(controls["Next ▶"].custom_id or "")["target"] == "1"  # type: ignore[index]
    end = await replays.step(game_id, replay.last, GUILD)
    ends = {c.label: c for c in end.controls}
    assert ends["Next ▶"].disabled and ends["Last ⏭"].disabled and not ends["⏮ First"].disabled
    mover = replay.steps[replay.last].seat
    assert mover is not None and f"**P{mover}**'s move" in end.description
    assert len({c.custom_id for c in end.controls}) == len(end.controls)  # ids never clash


@pytest.mark.parametrize(("game", "n", "options", "heading"), [
    ("qpoker", 3, {"rounds": 2}, "Round 2 of 2, as it was dealt"),
    ("flume", 4, {"target": 5}, "Hand {}, as it was dealt"),
])  # fmt: skip
async def test_show_hands_names_the_deal_it_shows(
    db: Database, game: str, n: int, options: dict[str, Any], heading: str
) -> None:
    game_id, _, final = await store(db, game, n, 3, options=options)
    replays = Replays(db, GAMES)
    replay = await replays.open(game_id, GUILD)
    panel = await replays.hands(game_id, GUILD)
    heading = heading.format(getattr(final, "hand_no", None))
    assert f"**{heading}**" in panel.description, panel.description
    assert replay.hands_step() > 0 and "'s move" not in panel.description
    assert not any(line in panel.description for line in replay.steps[replay.hands_step()].lines)
    step = await replays.step(game_id, replay.hands_step(), GUILD)  # the same step, replayed
    assert "'s move" in step.description and heading not in step.description


async def test_a_move_an_ai_made_for_a_person_says_so(db: Database) -> None:
    game_id, _, _ = await store(db, "qdice", 2, 3, options={"target": 1000})
    await db._run("UPDATE actions SET user_id = NULL WHERE game_id = ?", (game_id,))
    replay = await Replays(db, GAMES).open(game_id, GUILD)
    index = next(i for i, s in enumerate(replay.steps) if s.seat == 0)
    assert "(an AI played it for them)" in replay.panel(index).description
    other = next(i for i, s in enumerate(replay.steps) if s.seat == 1)  # an AI seat's own move
    assert "played it for them" not in replay.panel(other).description


async def test_refusals_say_why(db: Database) -> None:
    replays = Replays(db, GAMES)
    live, _, _ = await store(db, "flux", 3, 5, finish=False)
    with pytest.raises(ReplayUnavailable, match=r"^error-replay-in-play\b"):
        await replays.hands(live, GUILD)
    cancelled, _, _ = await store(db, "flux", 3, 6, finish=False)
    await db.cancel_game(cancelled)
    with pytest.raises(ReplayUnavailable, match=r"^error-replay-cancelled\b"):
        await replays.open(cancelled, GUILD)
    with pytest.raises(ReplayUnavailable, match=r"^error-replay-not-here\b"):
        await replays.open(999, GUILD)
    done, _, _ = await store(db, "qdice", 2, 7, options={"target": 1000})
    with pytest.raises(ReplayUnavailable, match=r"^error-replay-not-here\b"):
        await replays.open(done, GUILD + 1)
    assert (await replays.open(done, GUILD)).id == done
    with pytest.raises(
        ReplayUnavailable, match=r"^error-replay-not-here\b"
    ):  # kept, still not theirs
        await replays.open(done, None)

    changed, _, _ = await store(db, "qdice", 2, 8, options={"target": 1000})
    record = await db.load_game(changed)
    assert record is not None and record.state_json is not None
    tampered = json.loads(record.state_json)
    tampered["state"]["scores"][0] += 50
    await db._run(
        "UPDATE snapshots SET state_json = ? WHERE game_id = ?", (json.dumps(tampered), changed)
    )
    with pytest.raises(ReplayUnavailable, match=r"^error-replay-changed\b"):
        await replays.open(changed, GUILD)

    pruned, _, _ = await store(db, "qdice", 2, 9, options={"target": 1000})
    await db.update_game(pruned, ended_at=1.0)
    assert await db.prune(older_than_days=30) == 1
    with pytest.raises(ReplayUnavailable, match=r"^error-replay-too-old\b") as refused:
        await replays.open(pruned, GUILD)
    assert isinstance(refused.value, GameError)  # a sentence the person reads


async def test_a_game_saved_before_its_state_kept_a_new_field_still_replays(db: Database) -> None:
    # QuantumPoker's state learned to keep the match winners; a match saved before that
    # replays to its end all the same (only what the stored copy holds is compared).
    game_id, _, final = await store(db, "qpoker", 3, 4, options={"rounds": 1})
    record = await db.load_game(game_id)
    assert record is not None and record.state_json is not None
    saved = json.loads(record.state_json)
    assert saved["state"].pop("winners")
    await db._run(
        "UPDATE snapshots SET state_json = ? WHERE game_id = ?", (json.dumps(saved), game_id)
    )
    replay = await Replays(db, GAMES).open(game_id, GUILD)
    assert replay.state_at(replay.last) == final
    saved["state"]["chips"][0] += 1  # a value that differs still refuses it
    await db._run(
        "UPDATE snapshots SET state_json = ? WHERE game_id = ?", (json.dumps(saved), game_id)
    )
    with pytest.raises(ReplayUnavailable, match=r"^error-replay-changed\b"):
        await Replays(db, GAMES).open(game_id, GUILD)


async def test_only_the_last_few_games_are_kept_and_a_build_is_shared(db: Database) -> None:
    replays = Replays(db, GAMES, keep=2)
    ids = [(await store(db, "qdice", 2, seed, options={"target": 1000}))[0] for seed in (1, 2, 3)]
    first, same = await asyncio.gather(replays.open(ids[0], GUILD), replays.open(ids[0], GUILD))
    assert first is same
    await replays.open(ids[1], GUILD)
    assert await replays.open(ids[0], GUILD) is first  # used again: now the newest
    await replays.open(ids[2], GUILD)
    assert await replays.open(ids[0], GUILD) is first
    rebuilt = await replays.open(ids[1], GUILD)  # it was the oldest, so it went
    assert rebuilt.id == ids[1] and rebuilt is not None
    assert len(replays._kept) == 2
