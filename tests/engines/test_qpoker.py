"""QuantumPoker rules: every card effect, visibility rule, calling, payout case and match end.

The builders at the top are shared with the other QuantumPoker engine tests.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.engines.base import ConfigError, Event, IllegalAction, InvalidAction, Rng
from bot.engines.qpoker.engine import CARDS, Card, QPokerConfig, QPokerEngine, QPokerState, Qubit

ENGINE = QPokerEngine()


class CoinRng(Rng):
    """An Rng whose coin tosses (``randint(0, 1)``) come from a script, then from the seed."""

    coins: list[int] = []

    def randint(self, low: int, high: int) -> int:
        if (low, high) == (0, 1) and self.coins:
            self.calls += 1
            return self.coins.pop(0)
        return super().randint(low, high)


def qubits(spec: str) -> list[Qubit]:
    """``"1 0s ~ 1d ~s"``: a value (or ``~`` for superposition), then s = shown, d = doubled."""
    out = []
    for token in spec.split():
        out.append(
            Qubit(
                value=0 if token[0] == "~" else int(token[0]),
                superposed=token[0] == "~",
                shown="s" in token[1:],
                doubled="d" in token[1:],
            )
        )
    return out


def make_state(
    rows: list[str],
    cards_up: str = "X Y Z H CX",
    *,
    chips: list[int] | None = None,
    current: int = 0,
    coins: list[int] | None = None,
    carry: int = 0,
    out: list[bool] | None = None,
    **config: object,
) -> QPokerState:
    """A round in progress with the given qubits per seat (``""`` for a seat that is out)."""
    n = len(rows)
    state = ENGINE.new_game(QPokerConfig(**config), n, seed=7)  # type: ignore[arg-type]
    state.rng = CoinRng(seed=7, coins=list(coins or []))
    state.qubits = [qubits(row) for row in rows]
    state.out = out if out is not None else [not row for row in rows]
    state.community = cards(cards_up)
    state.played = []
    state.current = current
    state.starter = current
    if chips is not None:
        state.chips = list(chips)
    state.round_start = [
        c + sum(q.chips for q in row) for c, row in zip(state.chips, state.qubits, strict=True)
    ]
    state.carry = carry
    return state


def total_chips(state: QPokerState) -> int:
    """Every chip in the game: stacks, chips on qubits and the carried pot."""
    return sum(state.chips) + sum(q.chips for row in state.qubits for q in row) + state.carry


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def cards(spec: str) -> list[Card]:
    return spec.split()  # type: ignore[return-value]


# Card effects ------------------------------------------------------------------------------


def test_x_flips_own_value_and_keeps_visibility_and_bet() -> None:
    state = make_state(["1 0s 1d 0", "0 0 0 0"])
    ENGINE.apply(state, 0, "X:1")
    q = state.qubits[0][1]
    assert (q.value, q.shown, q.doubled) == (1, True, False)
    ENGINE.apply(state, 1, "Z:0")  # a turn passes
    ENGINE.apply(state, 0, "Y:0")
    assert state.community == ["H", "CX"]


def test_x_and_cx_do_nothing_in_superposition() -> None:
    state = make_state(["~ 0 0 0", "~s 1 0 0"])
    before = state.qubits[0][0].model_copy()
    events = ENGINE.apply(state, 0, "X:0")
    assert state.qubits[0][0] == before
    assert "nothing changes" in events[0].text
    other = state.qubits[1][0].model_copy()
    state.current = 0
    events = ENGINE.apply(state, 0, "CX:1.0")
    assert state.qubits[1][0] == other and "nothing changes" in events[0].text


def test_y_flips_and_shows_then_flips_and_hides() -> None:
    state = make_state(["0 1 1 1", "0 0 0 0"], cards_up="Y Y X X")
    ENGINE.apply(state, 0, "Y:0")
    assert (state.qubits[0][0].value, state.qubits[0][0].shown) == (1, True)
    state.current = 0
    ENGINE.apply(state, 0, "Y:0")
    assert (state.qubits[0][0].value, state.qubits[0][0].shown) == (0, False)
    assert not state.qubits[0][0].doubled


def test_y_in_superposition_only_turns_the_card() -> None:
    state = make_state(["~ 1 1 1", "0 0 0 0"], cards_up="Y Y X")
    ENGINE.apply(state, 0, "Y:0")
    q = state.qubits[0][0]
    assert q.superposed and q.shown
    state.current = 0
    ENGINE.apply(state, 0, "Y:0")
    assert q.superposed and not q.shown


def test_z_doubles_for_a_chip_and_halves_it_back() -> None:
    state = make_state(["1 0 0 0", "0 0 0 0"], cards_up="Z Z X", chips=[5, 5])
    total = total_chips(state)
    ENGINE.apply(state, 0, "Z:0")
    assert state.qubits[0][0].doubled and state.chips[0] == 4
    assert total_chips(state) == total
    state.current = 0
    ENGINE.apply(state, 0, "Z:0")
    assert not state.qubits[0][0].doubled and state.chips[0] == 5
    assert state.qubits[0][0].value == 1  # Z never changes the value


def test_z_with_no_chip_left_has_no_effect_but_is_used() -> None:
    state = make_state(["1 0 0 0", "0 0 0 0"], cards_up="Z X", chips=[0, 5])
    events = ENGINE.apply(state, 0, "Z:0")
    assert not state.qubits[0][0].doubled and state.chips[0] == 0
    assert "no effect" in events[0].text and state.community == ["X"]


def test_z_works_in_superposition() -> None:
    state = make_state(["~ 0 0 0", "0 0 0 0"], cards_up="Z X", chips=[3, 3])
    ENGINE.apply(state, 0, "Z:0")
    assert state.qubits[0][0].doubled and state.qubits[0][0].superposed


def test_h_puts_in_superposition_and_a_second_h_collapses_by_coin() -> None:
    for coin in (0, 1):
        state = make_state(["1 0 0 0", "0 0 0 0"], cards_up="H H X", coins=[coin])
        ENGINE.apply(state, 0, "H:0")
        assert state.qubits[0][0].superposed
        assert ENGINE.observe(state, 0).qubits[0][0].value is None  # not even for its owner
        state.current = 0
        ENGINE.apply(state, 0, "H:0")
        q = state.qubits[0][0]
        assert not q.superposed and q.value == coin


def test_hidden_collapse_event_does_not_tell_the_coin() -> None:
    texts = set()
    for coin in (0, 1):
        state = make_state(["~ 0 0 0", "0 0 0 0"], cards_up="H X", coins=[coin])
        texts.add(ENGINE.apply(state, 0, "H:0")[0].text)
    assert len(texts) == 1 and "face down" in texts.pop()
    state = make_state(["~s 0 0 0", "0 0 0 0"], cards_up="H X", coins=[1])
    assert ENGINE.apply(state, 0, "H:0")[0].text.endswith("to 1.")  # a shown one is public


def test_flip_events_of_hidden_qubits_do_not_depend_on_the_value() -> None:
    for move, rows in (("X:0", ["{} 0 0 0", "0 0 0 0"]), ("CX:1.0", ["0 0 0 0", "{} 0 0 0"])):
        texts = {
            ENGINE.apply(make_state([r.format(v) for r in rows]), 0, move)[0].text for v in (0, 1)
        }
        assert len(texts) == 1


def test_cx_flips_another_players_qubit_but_never_your_own() -> None:
    state = make_state(["0 0 0 0", "1s 0 0 0", "0 0 0 0"], cards_up="CX CX")
    with pytest.raises(IllegalAction, match="never your own"):
        ENGINE.apply(state, 0, "CX:0.1")
    events = ENGINE.apply(state, 0, "CX:1.0")
    assert state.qubits[1][0].value == 0 and "now reads 0" in events[0].text


def test_cx_and_swap_cannot_target_a_player_out_of_the_match() -> None:
    state = make_state(["0 0 0 0", "", "0 0 0 0"], cards_up="CX SWAP")
    with pytest.raises(IllegalAction, match="not in this round"):
        ENGINE.apply(state, 0, "CX:1.0")
    with pytest.raises(IllegalAction, match="not in this round"):
        ENGINE.apply(state, 0, "SWAP:0:1.0")
    with pytest.raises(IllegalAction, match="not in this round"):
        ENGINE.apply(state, 0, "CX:7.0")


def test_swap_carries_value_visibility_and_chips() -> None:
    state = make_state(["0 0 0 0", "1sd 0 0 0"], cards_up="SWAP X", chips=[10, 10])
    total = total_chips(state)
    ENGINE.apply(state, 0, "SWAP:2:1.0")
    got, gave = state.qubits[0][2], state.qubits[1][0]
    assert (got.value, got.shown, got.doubled) == (1, True, True)
    assert (gave.value, gave.shown, gave.doubled) == (0, False, False)
    assert total_chips(state) == total and state.chips == [10, 10]


def test_swap_lets_each_player_see_their_new_qubit_only() -> None:
    state = make_state(["1 0 0 0", "0 1 0 0", "0 0 0 0"], cards_up="SWAP X")
    ENGINE.apply(state, 0, "SWAP:0:1.1")
    assert ENGINE.observe(state, 0).qubits[0][0].value == 1  # received, hidden, but now mine
    assert ENGINE.observe(state, 1).qubits[1][1].value == 1  # what seat 0 gave
    assert ENGINE.observe(state, 2).qubits[0][0].value is None
    assert ENGINE.observe(state, 0).qubits[1][1].value is None  # given away: no longer seen


def test_a_card_is_taken_once_and_must_be_on_the_table() -> None:
    state = make_state(["0 0 0 0", "0 0 0 0"], cards_up="X")
    before = state.model_dump()
    with pytest.raises(IllegalAction, match="no Y card"):
        ENGINE.apply(state, 0, "Y:0")
    with pytest.raises(IllegalAction, match="no SWAP card"):
        ENGINE.apply(state, 0, "pick:SWAP")
    assert state.model_dump() == before


def test_every_card_taken_is_recorded_with_its_target_for_everyone() -> None:
    """The public log names each card's target, so the record of the round keeps it too
    (the hard AI replays the round from it)."""
    state = make_state(["0 1 0 0", "1 0 0 1", "0 0 1 1"], cards_up="X CX SWAP Y Z")
    ENGINE.apply(state, 0, "pick:SWAP")  # menu steps are not moves
    ENGINE.apply(state, 0, "back")
    for seat, move in ((0, "X:2"), (1, "CX:2.3"), (2, "SWAP:1:0.2")):
        ENGINE.apply(state, seat, move)
    records = [(p.seat, p.card, p.move) for p in state.played]
    assert records == [(0, "X", "X:2"), (1, "CX", "CX:2.3"), (2, "SWAP", "SWAP:1:0.2")]
    assert ENGINE.observe(state, 1).played == ENGINE.observe(state, None).played
    assert [p.move for p in ENGINE.observe(state, 1).played] == ["X:2", "CX:2.3", "SWAP:1:0.2"]


def test_refusals_leave_the_state_untouched() -> None:
    state = make_state(["0 0 0 0", "0 0 0 0"])
    before = state.model_dump()
    with pytest.raises(IllegalAction, match="not your turn"):
        ENGINE.apply(state, 1, "X:0")
    with pytest.raises(InvalidAction):
        ENGINE.apply(state, 0, "flip everything")
    with pytest.raises(IllegalAction, match="qubits 1 to 4"):
        ENGINE.apply(state, 0, "X:7")
    assert state.model_dump() == before


def test_menu_steps_only_change_the_pending_choice() -> None:
    state = make_state(["0 0 0 0", "0 0 0 0"], cards_up="SWAP X")
    ENGINE.apply(state, 0, "pick:SWAP")
    assert state.pending == "SWAP" and "pick:SWAP:2" in ENGINE.legal_actions(state, 0)
    ENGINE.apply(state, 0, "pick:SWAP:2")
    assert state.pending == "SWAP:2" and state.current == 0
    assert ENGINE.observe(state, 0).pending == "SWAP:2"
    assert ENGINE.observe(state, 1).pending is None and ENGINE.observe(state, None).pending is None
    ENGINE.apply(state, 0, "back")
    assert state.pending is None
    ENGINE.apply(state, 0, "pick:X")
    ENGINE.apply(state, 0, "SWAP:1:1.1")  # a complete move is accepted whatever is pending
    assert state.pending is None and state.current == 1


# Visibility -----------------------------------------------------------------------------


def test_visibility_own_values_others_only_when_shown() -> None:
    state = make_state(["1 0s ~ ~s", "1s 0 1d 0", "0 1 1 0s"])
    for seat in (None, 0, 1, 2):
        obs = ENGINE.observe(state, seat)
        for owner, row in enumerate(state.qubits):
            for qubit, view in zip(row, obs.qubits[owner], strict=True):
                visible = not qubit.superposed and (owner == seat or qubit.shown)
                assert view.value == (qubit.value if visible else None)
                assert (view.shown, view.superposed, view.doubled) == (
                    qubit.shown,
                    qubit.superposed,
                    qubit.doubled,
                )
    spectator = ENGINE.observe(state, None)
    assert [v.value for v in spectator.qubits[0]] == [None, 0, None, None]
    assert [v.value for v in ENGINE.observe(state, 0).qubits[0]] == [1, 0, None, None]


def test_observation_round_trips_and_state_round_trips() -> None:
    state = make_state(["1 0s ~ ~s", "1s 0 1d 0"])
    ENGINE.apply(state, 0, "pick:CX")
    again = ENGINE.load_state(ENGINE.dump_state(state))
    assert again.model_dump() == state.model_dump()
    obs = ENGINE.observe(state, 0)
    assert type(obs).model_validate_json(obs.model_dump_json()) == obs


# Turns and calling ------------------------------------------------------------------------


def test_turns_go_round_until_the_cards_are_used_then_measurement() -> None:
    state = make_state(["0 0 0 0", "0 0 0 0", "0 0 0 0"], cards_up="X X X X X")
    order = []
    while state.round == 1:
        (seat,) = ENGINE.to_act(state)
        order.append(seat)
        ENGINE.apply(state, seat, "X:0")
    assert order == [0, 1, 2, 0, 1]
    assert state.last_round is not None and state.last_round.round == 1


def test_calling_gives_everyone_else_one_last_turn_and_shows_the_callers_qubits() -> None:
    state = make_state(["1 0 ~ 1", "0 0 0 0", "0 0 0 0"], cards_up="X X X X X", current=1)
    events = ENGINE.apply(state, 1, "X:0")
    events = ENGINE.apply(state, 2, "call")
    assert kinds(events) == ["call"] and state.called_by == 2
    assert all(q.shown for q in state.qubits[2])
    assert state.final_left == [0, 1] and state.current == 0
    with pytest.raises(IllegalAction, match="already been called"):
        ENGINE.apply(state, 0, "call")
    assert "call" not in ENGINE.legal_actions(state, 0)
    ENGINE.apply(state, 0, "X:1")
    assert state.current == 1
    events = ENGINE.apply(state, 1, "X:1")
    assert "measure" in kinds(events) and state.round == 2  # the caller had no further turn
    assert len(state.last_round.values[0]) == 4 if state.last_round else False
    assert state.community and state.called_by is None


def test_call_reveals_only_what_is_not_superposed() -> None:
    state = make_state(["1 0 ~ 1", "0 0 0 0"], cards_up="X X X")
    event = ENGINE.apply(state, 0, "call")[0]
    assert "(1 0 ~ 1)" in event.text


def test_calling_can_be_switched_off() -> None:
    state = make_state(["0 0 0 0", "0 0 0 0"], calling=False)
    assert "call" not in ENGINE.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="off at this table"):
        ENGINE.apply(state, 0, "call")


def test_a_call_is_refused_when_someone_would_get_no_last_turn() -> None:
    # five players, five community cards, two taken: the third player may not call
    state = make_state(["0 0 0 0"] * 5, cards_up="X X X X X")
    ENGINE.apply(state, 0, "X:0")
    ENGINE.apply(state, 1, "X:0")
    assert state.current == 2 and len(state.community) == 3
    assert "call" not in ENGINE.legal_actions(state, 2)
    before = state.model_dump()
    with pytest.raises(IllegalAction, match="only 3 community cards are left for the 4 other"):
        ENGINE.apply(state, 2, "call")
    assert state.model_dump() == before
    # one card fewer than the others is refused; as many cards as others is allowed
    state = make_state(["0 0 0 0", "0 0 0 0", "0 0 0 0"], cards_up="X")
    with pytest.raises(IllegalAction, match="one last turn"):
        ENGINE.apply(state, 0, "call")
    state = make_state(["0 0 0 0", "0 0 0 0", "0 0 0 0"], cards_up="X X")
    ENGINE.apply(state, 0, "call")
    assert state.final_left == [1, 2]
    ENGINE.apply(state, 1, "X:0")
    events = ENGINE.apply(state, 2, "X:0")  # everyone else had their turn
    assert "measure" in kinds(events) and state.round == 2


def test_after_any_call_every_other_player_gets_exactly_one_turn() -> None:
    for n in range(2, 6):
        for taken in range(5):
            state = make_state(["0 0 0 0"] * n, cards_up="X X X X X")
            for _ in range(taken):
                (seat,) = ENGINE.to_act(state)
                ENGINE.apply(state, seat, "X:0")
            (caller,) = ENGINE.to_act(state)
            if "call" not in ENGINE.legal_actions(state, caller):
                assert len(state.community) < n - 1
                continue
            ENGINE.apply(state, caller, "call")
            turns = []
            while state.round == 1:
                (seat,) = ENGINE.to_act(state)
                turns.append(seat)
                ENGINE.apply(state, seat, "X:0")
            assert sorted(turns) == sorted(s for s in range(n) if s != caller)


# Measurement and payout -----------------------------------------------------------------


def finish_round(state: QPokerState) -> list[Event]:
    """End the round: the last community card is an X, played by the seat to act on qubit 4."""
    state.community = ["X"]
    (seat,) = ENGINE.to_act(state)
    return ENGINE.apply(state, seat, "X:3")


def test_sole_winner_takes_the_chips_on_the_others_ones() -> None:
    # After the final X on seat 0's qubit 4: seat 0 reads 1 1 1d 1 = 5 points.
    state = make_state(["1 1 1d 0", "1 0 1d 0", "1 0 0 0"], chips=[10, 10, 10])
    total = total_chips(state)
    events = finish_round(state)
    result = state.last_round
    assert result is not None
    assert result.points == [5, 3, 1] and result.winners == [0]
    assert result.share == 4  # 1 + 2 from seat 1, 1 from seat 2
    # Winner: own 5 chips back + 4. Seat 1: its two 0s back (2). Seat 2: its three 0s (3).
    assert state.chips[:3] == [a - 4 for a in (10 + 5 + 4, 10 + 2, 10 + 3)]  # next ante taken
    assert result.net == [4, -3, -1]
    assert total_chips(state) == total and state.carry == 0
    assert "wins the round with 5 points and takes 4 chips" in events[-2].text


def test_tied_winners_keep_their_own_chips_and_split_the_rest() -> None:
    # After the final X: seat 0 reads 1 1 1 0 = 3, seat 1 1 1 1 0 = 3, seat 2 1d 0 0 0 = 2.
    state = make_state(["1 1 1 1", "1 1 1 0", "1d 0 0 0"], chips=[10, 10, 10])
    total = total_chips(state)
    finish_round(state)
    result = state.last_round
    assert result is not None and result.winners == [0, 1] and result.points == [3, 3, 2]
    assert result.share == 1 and result.carry == 0  # seat 2's two chips, one each
    assert result.net == [1, 1, -2] and total_chips(state) == total


def test_everyone_tied_gets_everything_back() -> None:
    state = make_state(["1 1 1 1", "1 1 1 0", "1d 1 0 0"], chips=[10, 10, 10])
    total = total_chips(state)
    finish_round(state)  # 3 points each
    result = state.last_round
    assert result is not None and result.winners == [0, 1, 2] and result.share == 0
    assert result.net == [0, 0, 0] and total_chips(state) == total


def test_two_winners_split_with_an_odd_chip_carried_to_the_next_winner() -> None:
    # Seat 2: 1 point, seats 0 and 1: 3 points each; 2 carried + 1 from seat 2 = 3 chips.
    state = make_state(["1 1 1 1", "1 1 1 0", "1 0 0 0"], chips=[10, 10, 10], carry=2)
    total = total_chips(state)
    events = finish_round(state)
    result = state.last_round
    assert result is not None and result.winners == [0, 1]
    assert result.share == 1 and result.carry == 1 and state.carry == 1
    assert result.net == [1, 1, -1]
    assert "1 chip stays in the pot for the next round" in events[-2].text
    assert total_chips(state) == total


def test_carried_chip_goes_to_the_next_rounds_winner() -> None:
    state = make_state(["1 1 1 0", "0 0 0 0"], chips=[10, 10], carry=1)
    finish_round(state)  # seat 0: 4 points, seat 1: 0
    result = state.last_round
    assert result is not None and result.share == 1 and state.carry == 0
    assert result.net == [1, 0]


def test_nobody_scoring_is_a_tie_of_everyone() -> None:
    state = make_state(["0 0 0 1", "0 0 0 0"], chips=[10, 10])
    finish_round(state)
    result = state.last_round
    assert result is not None and result.winners == [0, 1] and result.net == [0, 0]


def test_measurement_collapses_superpositions_by_coin() -> None:
    state = make_state(["~ ~d 0 0", "~ 0 0 0"], chips=[10, 10], coins=[1, 1, 0])
    finish_round(state)  # seat 0's qubit 4 becomes 1
    result = state.last_round
    assert result is not None
    assert result.values[0] == [1, 1, 0, 1] and result.values[1] == [0, 0, 0, 0]
    assert result.points == [4, 0]


def test_measure_event_reveals_everything_once_measured() -> None:
    state = make_state(["1 0 0 0", "0 1d 0 0"])
    events = finish_round(state)
    measure = next(e for e in events if e.kind == "measure")
    assert "{p0} 1 0 0 1 = 2" in measure.text and "{p1} 0 1x2 0 0 = 2" in measure.text


# The match ------------------------------------------------------------------------------


def test_a_player_who_cannot_ante_is_out_and_the_last_one_left_wins() -> None:
    state = make_state(["0 0 0 0", "1 1 1 0", "0 0 0 0"], chips=[0, 10, 3])
    events = finish_round(state)  # seat 0 now reads 0 0 0 1 and loses that chip: 3 left
    assert state.out == [True, False, False]  # seat 2 got its four chips back: 7
    assert "out" in kinds(events) and not state.qubits[0] and state.chips[2] == 3
    assert state.community and state.current == 1
    state = make_state(["1 1 1 0", "1 0 0 0"], chips=[10, 0])
    events = finish_round(state)  # seat 1 loses its 1: 3 chips left, cannot ante
    assert state.out == [False, True] and ENGINE.is_over(state)
    assert kinds(events)[-2:] == ["out", "game_over"]
    assert ENGINE.outcome(state).winners == [0]
    assert ENGINE.to_act(state) == frozenset()


def test_the_match_ends_after_the_last_round_most_chips_winning() -> None:
    state = ENGINE.new_game(QPokerConfig(rounds=2, chips=8), 3, seed=11)
    moves = 0
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_act(state)
        ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
        moves += 1
    assert state.round == 2 and moves == 10
    outcome = ENGINE.outcome(state)
    assert outcome.scores == [float(c) for c in state.chips]
    assert set(outcome.winners) == {s for s, c in enumerate(state.chips) if c == max(state.chips)}
    with pytest.raises(IllegalAction, match="over"):
        ENGINE.apply(state, 0, "call")


def test_chips_left_in_the_pot_go_to_the_match_winner() -> None:
    # The last round: seats 0 and 1 tie on 3 points and split 3 chips (2 carried + 1 from
    # seat 2): one each, one left over. The match ends, so the last chip is not lost: it goes
    # to the first tied player from the dealer's left (the last round's starter, seat 0).
    state = make_state(["1 1 1 1", "1 1 1 0", "1 0 0 0"], chips=[10, 10, 10], carry=2, rounds=1)
    total = total_chips(state)
    events = finish_round(state)
    assert ENGINE.is_over(state) and state.carry == 0
    assert state.chips == [16, 15, 13] and sum(state.chips) == total
    pot = next(e for e in events if e.kind == "pot")
    assert pot.data["gains"] == {0: 1} and "{p0}" in pot.text
    # The match winners are decided before the pot is shared: the odd chip breaks no tie.
    outcome = ENGINE.outcome(state)
    assert outcome.winners == [0, 1] and outcome.ranks == [0, 0, 1]
    assert "share the win" in outcome.summary and "doesn't break" in pot.text
    assert ENGINE.observe(state, None).winners == [0, 1]
    # the same with seat 1 starting the round: seat 1 gets the odd chip
    state = make_state(
        ["1 1 1 0", "1 1 1 1", "1 0 0 0"], chips=[10, 10, 10], carry=2, rounds=1, current=1
    )
    finish_round(state)
    assert state.chips == [15, 16, 13] and state.carry == 0


def test_outcome_before_the_end_is_refused() -> None:
    with pytest.raises(IllegalAction):
        ENGINE.outcome(ENGINE.new_game(QPokerConfig(), 2, seed=1))


def test_first_turn_moves_one_seat_on_each_round_skipping_players_out() -> None:
    state = ENGINE.new_game(QPokerConfig(rounds=4), 3, seed=5)
    starters = [state.starter]
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_act(state)
        before = state.round
        ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
        if state.round != before and not ENGINE.is_over(state):
            starters.append(state.starter)
    assert starters == [0, 1, 2, 0]
    state = make_state(["1 1 1 1", "0 0 0 0", "0 0 0 0"], chips=[10, 0, 10], current=0)
    finish_round(state)  # seat 1 gets back only its 4 zeros' chips: 4, still in
    assert not state.out[1] and state.starter == 1
    state = make_state(["0 1 1 1", "1 0 0 0", "0 0 0 0"], chips=[10, 0, 10], current=0)
    finish_round(state)  # seat 1 loses the chip on its 1: 3 left, out
    assert state.out[1] and state.starter == 2


def test_new_round_deals_from_a_ten_and_ten_qubit_deck_and_a_full_pauli_deck() -> None:
    for seed in range(30):
        state = ENGINE.new_game(QPokerConfig(), 5, seed=seed)
        values = [q.value for row in state.qubits for q in row]
        assert len(values) == 20 and sum(values) == 10
        assert not any(q.shown or q.superposed or q.doubled for row in state.qubits for q in row)
        cards_left = state.community + state.deck
        assert sorted(cards_left) == sorted([c for c in CARDS for _ in range(8)])
        assert len(state.community) == 5 and state.chips == [16] * 5


def test_one_community_card_per_player_option() -> None:
    for n in (2, 3, 4, 5):
        state = ENGINE.new_game(QPokerConfig(community="per_player"), n, seed=n)
        assert len(state.community) == n
    state = make_state(["0 0 0 0", "1 0 0 0", "1 1 0 0"], chips=[10, 0, 10], community="per_player")
    finish_round(state)  # seat 1 loses the chip on its 1 and cannot ante again
    assert state.out == [False, True, False] and len(state.community) == 2


def test_config_limits() -> None:
    with pytest.raises(ValidationError):
        QPokerConfig(chips=3)
    with pytest.raises(ValidationError):
        QPokerConfig(community="seven")  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        ENGINE.new_game(QPokerConfig(), 6, seed=1)
