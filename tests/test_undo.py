# mypy: disable-error-code="comparison-overlap"
"""Undo and restart hand: back to an earlier point of the current hand, exactly."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hearts.cards import CardSet
from hearts.errors import IllegalMove
from hearts.match import Match, Phase
from hearts.rules import Rules
from helpers import (
    MOON_BY_SOUTH,
    STANDARD,
    WEST_25,
    examples,
    house_rules,
    match_after_pass,
    play_lowest,
    random_prefix,
    random_step,
    replay,
    same_state,
    seeds,
    views,
)


def steps(match: Match, count: int, rng: random.Random) -> None:
    for _ in range(count):
        random_step(match, rng)


def playing_match(seed: int, plays: int) -> Match:
    """A match in its first hand with all passes made and ``plays`` cards played."""
    match = Match(seed=seed)
    rng = random.Random(seed)
    steps(match, 4 + plays, rng)
    assert match.phase is Phase.PLAYING and len(match.current.plays) == plays
    return match


def last_play_index(match: Match, seat: int) -> int | None:
    plays = match.view(seat).plays
    indexes = [i for i, (who, _) in enumerate(plays) if who == seat]
    return indexes[-1] if indexes else None


def expected_after_undo(match: Match, seat: int) -> Match | None:
    """The match replayed up to just before ``seat``'s last decision this hand."""
    log = match.current
    if log.moon_choice is not None and match.moon_shooter == seat:
        return replay(match, keep_moon_choice=False)
    index = last_play_index(match, seat)
    if index is not None:
        return replay(match, last_plays=index)
    if log.passes[seat] is None:
        return None
    passes = log.passes[:]
    passes[seat] = None
    expected = replay(match, last_passes=passes)
    expected.select_pass(seat, CardSet(log.passes[seat] or 0))
    return expected


# --- undoing plays ---


def test_undo_takes_back_the_seats_last_play_and_every_later_one() -> None:
    match = playing_match(seed=5, plays=23)
    seat = match.view(0).plays[-3][0]  # played three cards ago
    index = last_play_index(match, seat)
    assert index is not None and index < 23
    card = match.view(0).plays[index][1]
    match.undo(seat)
    assert len(match.current.plays) == index
    assert match.turn == seat
    assert card in match.view(seat).legal
    assert same_state(match, replay(match))
    expected = playing_match(seed=5, plays=index)
    assert same_state(match, expected)
    assert match.rewound and not expected.rewound


def test_undo_twice_goes_back_two_decisions() -> None:
    match = playing_match(seed=6, plays=30)
    seat = match.turn
    assert seat is not None
    indexes = [i for i, (who, _) in enumerate(match.view(0).plays) if who == seat]
    match.undo(seat)
    match.undo(seat)
    assert same_state(match, playing_match(seed=6, plays=indexes[-2]))


def test_undo_then_play_on() -> None:
    match = playing_match(seed=8, plays=10)
    seat = match.view(0).plays[-1][0]
    match.undo(seat)
    assert match.turn == seat
    rng = random.Random(1)
    while match.phase is Phase.PLAYING:
        random_step(match, rng)
    assert match.phase is Phase.HAND_OVER
    assert sum(match.totals) in (26, 78)


def test_an_undone_trick_is_whole_again() -> None:
    match = playing_match(seed=9, plays=8)  # two full tricks
    leader = match.view(0).tricks[1].leader
    match.undo(leader)
    assert len(match.current.plays) == 4
    assert match.turn == leader
    assert match.view(0).current_trick is None
    assert len(match.view(0).tricks) == 1


# --- undoing a pass ---


def test_undo_of_a_confirmed_pass_reopens_it_with_the_selection() -> None:
    match = Match(seed=14)
    chosen = [CardSet(list(match.holding(seat))[:3]) for seat in range(4)]
    match.confirm_pass(2, chosen[2])
    match.confirm_pass(0, chosen[0])
    match.undo(2)
    assert match.phase is Phase.PASSING
    assert match.waiting_for() == (1, 2, 3)
    assert match.pass_selection(2) == chosen[2]
    assert match.view(2).pass_selection == chosen[2]
    assert match.view(2).passed is None
    assert match.view(1).pass_confirmed == (True, False, False, False)
    expected = Match(seed=14)
    expected.confirm_pass(0, chosen[0])
    expected.select_pass(2, chosen[2])
    assert same_state(match, expected)
    # The reopened pass can be changed, or confirmed as it was.
    match.select_pass(2, list(match.holding(2))[-3:])
    match.select_pass(2, chosen[2])
    assert match.confirm_pass(2) == []
    assert match.current.passes[2] == chosen[2].mask


def test_undo_of_a_pass_leaves_other_seats_choosing_alone() -> None:
    match = Match(seed=16)
    west = CardSet(list(match.holding(1))[4:6])
    match.select_pass(1, west)
    match.confirm_pass(0, list(match.holding(0))[:3])
    match.undo(0)
    assert match.pass_selection(1) == west
    assert match.view(1).pass_selection == west
    assert match.waiting_for() == (0, 1, 2, 3)


def test_undo_of_a_pass_after_the_exchange_takes_back_the_exchange() -> None:
    match = Match(seed=15)
    chosen = [CardSet(list(match.holding(seat))[-3:]) for seat in range(4)]
    for seat in range(4):
        match.confirm_pass(seat, chosen[seat])
    assert match.phase is Phase.PLAYING
    turn = match.turn
    assert turn is not None
    seat = (turn + 2) % 4  # has not played yet: its last decision is the pass
    match.play(match.legal_moves()[0])
    match.undo(seat)
    assert match.phase is Phase.PASSING
    assert match.current.plays == []
    assert match.waiting_for() == (seat,)
    assert match.pass_selection(seat) == chosen[seat]
    for s in range(4):
        assert match.holding(s).mask == match.current.deal[s]
        assert match.view(s).received is None
    events = match.confirm_pass(seat)
    assert events and match.phase is Phase.PLAYING
    assert match.view(seat).passed == chosen[seat]


def test_nothing_to_undo_at_the_start_of_a_hand() -> None:
    match = Match(seed=3)
    with pytest.raises(IllegalMove, match=r"^you have nothing to undo in this hand$") as caught:
        match.undo(0)
    assert caught.value.about("South") == "South has nothing to undo in this hand"
    assert not match.rewound


def test_undo_for_no_seat_is_refused() -> None:
    match = Match(seed=3)
    match.confirm_pass(3, list(match.holding(3))[:3])
    for seat in (-1, 4):
        assert not match.can_undo(seat)
        with pytest.raises(IllegalMove, match=r"^there is no such seat$"):
            match.undo(seat)
    assert match.waiting_for() == (0, 1, 2)
    assert not match.rewound


def test_undo_never_reaches_into_an_earlier_hand() -> None:
    match = Match(seed=4)
    rng = random.Random(4)
    while match.phase is not Phase.HAND_OVER:
        random_step(match, rng)
    match.next_hand()
    totals = match.totals
    before = views(match)
    for seat in range(4):
        with pytest.raises(IllegalMove, match="nothing to undo"):
            match.undo(seat)
    assert views(match) == before and match.totals == totals
    assert match.hand_number == 2
    assert not match.rewound


def test_on_a_hold_hand_a_seat_that_has_not_played_has_nothing_to_undo() -> None:
    match = Match(Rules(passing="none"), seed=4)
    turn = match.turn
    assert turn is not None
    for seat in range(4):
        with pytest.raises(IllegalMove, match="nothing to undo"):
            match.undo(seat)
    match.play(match.legal_moves()[0])
    match.undo(turn)
    assert match.current.plays == [] and match.turn == turn


# --- undo after the hand is scored ---


def test_undo_after_the_hand_is_scored_unscores_it() -> None:
    match = Match(seed=22)
    rng = random.Random(22)
    while match.phase is not Phase.HAND_OVER:
        random_step(match, rng)
    match.next_hand()
    while match.phase is not Phase.HAND_OVER:
        random_step(match, rng)
    first = match.results[0]
    assert len(match.results) == 2
    last_seat = match.view(0).plays[-1][0]
    match.undo(last_seat)
    assert match.phase is Phase.PLAYING
    assert match.results == (first,)
    assert match.totals == first.points
    assert match.turn == last_seat
    assert len(match.current.plays) == 51
    assert same_state(match, replay(match))


def test_undo_of_a_moon_choice() -> None:
    match = match_after_pass(MOON_BY_SOUTH, Rules(moon="choice"))
    play_lowest(match)
    assert match.phase is Phase.MOON_CHOICE
    match.choose_moon(0, "subtract")
    assert match.totals == (-26, 0, 0, 0)
    match.undo(0)
    assert match.phase is Phase.MOON_CHOICE
    assert match.totals == (0, 0, 0, 0) and match.current.moon_choice is None
    match.choose_moon(0, "add")
    assert match.totals == (0, 26, 26, 26)
    # Another seat's undo takes back its last card, and the choice after it.
    match.undo(2)
    assert match.phase is Phase.PLAYING and match.turn == 2
    assert match.results == ()


def test_undo_never_changes_a_finished_match() -> None:
    match = Match(Rules(target=1), seed=2)
    rng = random.Random(2)
    while match.phase is not Phase.MATCH_OVER:
        random_step(match, rng)
    before = views(match)
    for seat in range(4):
        with pytest.raises(IllegalMove, match=r"^the match is over$"):
            match.undo(seat)
    with pytest.raises(IllegalMove):
        match.restart_hand()
    assert views(match) == before
    assert not match.rewound


# --- restart hand ---


def test_restart_hand_deals_the_same_cards_and_keeps_earlier_scores() -> None:
    match = Match(seed=30)
    rng = random.Random(30)
    while match.hand_number < 2:
        random_step(match, rng)
    fresh = match.copy()
    steps(match, 4 + 21, rng)
    assert match.phase is Phase.PLAYING
    totals, results, deal = match.totals, match.results, match.current.deal
    match.restart_hand()
    assert match.rewound
    assert match.hand_number == 2
    assert match.phase is Phase.PASSING
    assert match.current.deal == deal
    assert match.current.passes == [None, None, None, None]
    assert match.current.plays == []
    assert match.totals == totals and match.results == results
    for seat in range(4):
        assert match.view(seat).hand == match.view(seat).dealt == fresh.view(seat).dealt
    assert same_state(match, fresh)


def test_restart_a_hold_hand_and_a_moon_choice() -> None:
    match = match_after_pass(MOON_BY_SOUTH, Rules(moon="choice", passing="none"))
    play_lowest(match)
    assert match.phase is Phase.MOON_CHOICE
    match.restart_hand()
    assert match.phase is Phase.PLAYING and match.turn == 0
    assert match.current.plays == []
    assert same_state(match, match_after_pass(MOON_BY_SOUTH, Rules(moon="choice", passing="none")))


def test_restart_is_refused_once_the_hand_is_scored() -> None:
    match = match_after_pass(WEST_25)
    play_lowest(match)
    with pytest.raises(IllegalMove, match=r"^the hand is already over$"):
        match.restart_hand()
    assert match.totals == (0, 25, 1, 0)
    assert not match.rewound


def test_the_rewound_flag_stays_set() -> None:
    match = playing_match(seed=40, plays=3)
    assert not match.rewound
    seat = match.view(0).plays[-1][0]
    match.undo(seat)
    assert match.rewound
    rng = random.Random(0)
    while match.phase is not Phase.HAND_OVER:
        random_step(match, rng)
    match.next_hand()
    assert match.rewound
    assert match.copy().rewound


# --- undo against a replay, on many random matches ---


@examples(500)
@given(seed=seeds, rules=st.one_of(st.just(STANDARD), house_rules), seat=st.integers(0, 3))
def test_undo_equals_replaying_to_before_the_last_decision(
    seed: int, rules: Rules, seat: int
) -> None:
    match = random_prefix(rules, seed, stop=0.01, select=True, pending_selection=True)
    if match.phase is Phase.MATCH_OVER:
        assert not match.can_undo(seat)
        with pytest.raises(IllegalMove):
            match.undo(seat)
        return
    expected = expected_after_undo(match, seat)
    assert match.can_undo(seat) == (expected is not None)  # asking is the same answer
    if expected is None:
        before = views(match)
        with pytest.raises(IllegalMove, match="nothing to undo"):
            match.undo(seat)
        assert views(match) == before and not match.rewound
        return
    match.undo(seat)
    assert match.rewound
    assert same_state(match, expected)
    assert match.pass_selection(seat) == expected.pass_selection(seat)


@examples(100)
@given(seed=seeds, rules=st.one_of(st.just(STANDARD), house_rules))
def test_restart_equals_a_fresh_deal_of_the_same_hand(seed: int, rules: Rules) -> None:
    match = random_prefix(rules, seed, stop=0.01)
    if match.phase in (Phase.HAND_OVER, Phase.MATCH_OVER):
        with pytest.raises(IllegalMove):
            match.restart_hand()
        return
    deal, results = match.current.deal, match.results
    match.restart_hand()
    assert match.rewound
    assert match.current.deal == deal and match.results == results
    assert match.current.passes == [None, None, None, None]
    assert match.current.plays == [] and match.current.moon_choice is None
    assert [view.hand for view in views(match)] == [CardSet(m) for m in deal]
    assert same_state(match, replay(match))
    if rules.pass_direction(match.hand_number).name == "HOLD":
        assert match.phase is Phase.PLAYING
        assert match.turn == next(s for s in range(4) if deal[s] & 1)
    else:
        assert match.phase is Phase.PASSING and match.waiting_for() == (0, 1, 2, 3)
