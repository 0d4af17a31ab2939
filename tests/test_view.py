"""A seat's view: its own cards and what was shown to everyone, nothing hidden."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hearts.cards import TWO_OF_CLUBS, CardSet
from hearts.deal import Holdings
from hearts.errors import IllegalMove
from hearts.match import Match, Phase
from hearts.rules import PassDirection, Rules
from hearts.view import SeatView, Trick, split_tricks
from helpers import (
    STANDARD,
    WEST_25,
    c,
    cs,
    examples,
    house_rules,
    match_after_pass,
    random_prefix,
    random_step,
    replay,
    seeds,
    views,
)


def confirm_all(match: Match, order: tuple[int, ...] = (0, 1, 2, 3)) -> list[CardSet]:
    passes = []
    for seat in order:
        cards = CardSet(list(match.holding(seat))[:3])
        match.confirm_pass(seat, cards)
        passes.append(cards)
    return passes


# --- what a seat sees -------------------------------------------------------------------


def test_view_while_passing() -> None:
    match = Match(seed=12, players=("Ann", "Bo", "Cy", "Di"))
    view = match.view(2)
    assert view.seat == 2
    assert view.players == ("Ann", "Bo", "Cy", "Di")
    assert view.rules == STANDARD
    assert view.phase is Phase.PASSING
    assert view.hand_number == 1
    assert view.pass_direction is PassDirection.LEFT
    assert view.pass_to == 3
    assert view.hand == view.dealt == CardSet(match.current.deal[2])
    assert len(view.hand) == 13
    assert view.pass_selection == CardSet()
    assert view.passed is None and view.received is None
    assert view.pass_confirmed == (False, False, False, False)
    assert view.tricks == () and view.plays == () and view.current_trick is None
    assert view.turn is None and view.legal == CardSet()
    assert not view.hearts_broken
    assert view.points_taken == (0, 0, 0, 0)
    assert view.cards_left == (13, 13, 13, 13)
    assert view.totals == (0, 0, 0, 0) and view.results == () and view.winner is None


def test_a_seat_sees_its_own_selection_but_not_the_others() -> None:
    match = Match(seed=12)
    before = views(match)
    chosen = list(match.holding(1))[:2]
    match.select_pass(1, chosen)
    after = views(match)
    assert after[1].pass_selection == CardSet(chosen)
    for seat in (0, 2, 3):
        assert after[seat] == before[seat]
        assert after[seat].pass_selection == CardSet()


def test_a_seat_sees_who_confirmed_but_not_what() -> None:
    match = Match(seed=12)
    passed = CardSet(list(match.holding(1))[-3:])
    match.confirm_pass(1, passed)
    for view in views(match):
        assert view.pass_confirmed == (False, True, False, False)
        assert view.received is None
    assert match.view(1).passed == passed
    assert match.view(1).pass_selection == passed
    assert match.view(1).hand == match.view(1).dealt  # nothing leaves before the exchange
    for seat in (0, 2, 3):
        assert match.view(seat).passed is None
        assert not set(passed) & set(match.view(seat).hand)
    # West passes left to North: North sees nothing of it until all four confirmed.
    confirm_all(match, order=(0, 2))
    assert match.view(2).received is None
    assert match.phase is Phase.PASSING


def test_after_the_exchange_a_seat_sees_what_it_passed_and_received() -> None:
    match = Match(seed=12)
    dealt = [match.view(seat).dealt for seat in range(4)]
    passes = confirm_all(match)
    for seat in range(4):
        view = match.view(seat)
        giver = (seat - 1) % 4
        assert view.passed == passes[seat]
        assert view.received == passes[giver]
        assert view.hand == (dealt[seat] - passes[seat]) | passes[giver]
        assert view.dealt == dealt[seat]
        assert view.pass_selection == CardSet()
        assert view.pass_confirmed == (True, True, True, True)
        assert view.phase is Phase.PLAYING


def test_legal_cards_only_on_the_seats_turn() -> None:
    match = Match(seed=31)
    rng = random.Random(31)
    while match.phase is not Phase.HAND_OVER:
        if match.phase is Phase.PLAYING:
            for view in views(match):
                assert view.turn == match.turn
                if view.seat == match.turn:
                    assert list(view.legal) == match.legal_moves()
                    assert view.legal
                    assert set(view.legal) <= set(view.hand)
                else:
                    assert view.legal == CardSet()
        random_step(match, rng)
    assert all(view.legal == CardSet() and view.turn is None for view in views(match))


def test_played_cards_tricks_and_points() -> None:
    match = match_after_pass(WEST_25)
    for card in cs("2C 3C AD 2H 4C 3S 3H 2D 5C"):
        match.play(card)
    view = match.view(2)
    assert view.plays == (
        (0, c("2C")),
        (1, c("3C")),
        (2, c("AD")),
        (3, c("2H")),
        (1, c("4C")),
        (2, c("3S")),
        (3, c("3H")),
        (0, c("2D")),
        (1, c("5C")),
    )
    assert view.played == CardSet(cs("2C 3C AD 2H 4C 3S 3H 2D 5C"))
    assert [t.winner for t in view.tricks] == [1, 1, None]
    assert [t.leader for t in view.tricks] == [0, 1, 1]
    assert [t.points for t in view.tricks] == [1, 1, 0]
    assert view.current_trick == Trick(3, 1, ((1, c("5C")),), None, 0)
    assert not view.current_trick.complete
    assert view.tricks[0].complete
    assert view.points_taken == (0, 2, 0, 0)
    assert view.cards_left == (11, 10, 11, 11)
    assert view.hearts_broken
    assert view.turn == 2
    assert view.hand == CardSet(WEST_25[2]) - view.played


def test_a_view_for_no_seat() -> None:
    match = Match(seed=1)
    for seat in (-1, 4):
        with pytest.raises(ValueError):
            match.view(seat)


def test_views_are_values() -> None:
    match = Match(seed=3)
    view = match.view(0)
    assert isinstance(view, SeatView)
    assert view == match.view(0)
    with pytest.raises(AttributeError):
        view.seat = 1  # type: ignore[misc]
    assert hash(view.hand) == hash(match.view(0).hand)


def test_split_tricks() -> None:
    plays = cs("2C KC 3C AH  5D 2D 9D AS  KS")
    tricks = split_tricks(plays, first_leader=3, rules=STANDARD)
    assert tricks[0] == Trick(1, 3, ((3, c("2C")), (0, c("KC")), (1, c("3C")), (2, c("AH"))), 0, 1)
    # The king of clubs won; South leads; 9D is the highest diamond (North's).
    assert tricks[1].leader == 0 and tricks[1].winner == 2
    assert tricks[2] == Trick(3, 2, ((2, c("KS")),), None, 0)
    assert split_tricks([], 0, STANDARD) == []
    maria = split_tricks(plays[:8], 3, Rules(black_maria=True))
    assert [t.points for t in maria] == [1, 7]


def test_the_first_leader_is_whoever_received_the_two_of_clubs() -> None:
    match = Match(seed=0)
    holder = next(s for s in range(4) if TWO_OF_CLUBS in match.holding(s))
    for seat in range(4):
        cards = list(match.holding(seat))
        match.confirm_pass(seat, cards[:3])  # the lowest three: 2C travels left
    assert match.turn == (holder + 1) % 4
    match.play(TWO_OF_CLUBS)
    assert match.view(0).tricks[0].leader == (holder + 1) % 4


# --- hidden cards make no difference ---------------------------------------------------------


def hidden_swaps(
    match: Match, observer: int, same_suit: bool = True
) -> list[tuple[int, int, int, int]]:
    """Swaps (seat_a, card_a, seat_b, card_b) of cards hidden from ``observer``.

    Both cards are still unplayed, never passed nor chosen by anyone, and
    neither is the two of clubs. With ``same_suit`` both are of one suit and
    worth the same points, so exchanging them between two other seats keeps
    every decision so far legal; other swaps may make a past play illegal.
    """
    log = match.current
    shown = 0
    for seat in range(4):
        shown |= log.passes[seat] or 0
        shown |= match.pass_selection(seat).mask
    state = match.play_state
    if state is not None:
        shown |= state.played_mask
    shown |= 1 << TWO_OF_CLUBS
    points = match.rules.card_points
    swaps = []
    others = [seat for seat in range(4) if seat != observer]
    for a, b in combinations(others, 2):
        for card_a in CardSet(log.deal[a] & ~shown):
            for card_b in CardSet(log.deal[b] & ~shown):
                alike = card_a // 13 == card_b // 13 and points[card_a] == points[card_b]
                if alike is same_suit:
                    swaps.append((a, card_a, b, card_b))
    return swaps


def swapped(deal: Holdings, swap: tuple[int, int, int, int]) -> Holdings:
    a, card_a, b, card_b = swap
    moved = (1 << card_a) | (1 << card_b)
    masks = list(deal)
    masks[a] ^= moved
    masks[b] ^= moved
    return masks[0], masks[1], masks[2], masks[3]


def compare_after_swap(match: Match, observer: int, swap: tuple[int, int, int, int]) -> None:
    other = replay(match, last_deal=swapped(match.current.deal, swap))
    assert other.current.deal != match.current.deal
    assert other.phase is match.phase and other.turn == match.turn
    assert other.view(observer) == match.view(observer)
    a, _, b, _ = swap
    assert other.view(a) != match.view(a)
    assert other.view(b) != match.view(b)


def check_hidden_swap(match: Match, observer: int, pick: random.Random) -> bool:
    """Swap hidden cards, replay, and compare views; False if nothing can be swapped.

    A swap across suits changes how many cards of each suit the two seats hold;
    it is tried too, when the plays so far stay legal with it.
    """
    swaps = hidden_swaps(match, observer)
    if not swaps:
        return False
    compare_after_swap(match, observer, pick.choice(swaps))
    across = hidden_swaps(match, observer, same_suit=False)
    for swap in pick.sample(across, min(len(across), 5)):
        try:
            replay(match, last_deal=swapped(match.current.deal, swap))
        except IllegalMove:
            continue
        compare_after_swap(match, observer, swap)
        break
    return True


def test_cards_hidden_from_a_seat_do_not_change_its_view() -> None:
    match = Match(seed=2026)
    rng = random.Random(2026)
    for _ in range(4):
        random_step(match, rng)  # all four passes: play starts
    for _ in range(17):
        random_step(match, rng)
    assert match.phase is Phase.PLAYING
    for observer in range(4):
        assert check_hidden_swap(match, observer, random.Random(observer))


def test_a_hidden_selection_does_not_change_other_views() -> None:
    a, b = Match(seed=9), Match(seed=9)
    a.select_pass(3, list(a.holding(3))[:3])
    b.select_pass(3, list(b.holding(3))[-2:])
    for seat in (0, 1, 2):
        assert a.view(seat) == b.view(seat)
    assert a.view(3) != b.view(3)


def test_another_deal_of_the_hidden_cards_gives_the_same_view() -> None:
    match = Match(seed=2026)
    swaps = hidden_swaps(match, 0)
    assert swaps
    other = Match(seed=2026, deal=swapped(match.current.deal, swaps[0]))
    assert other.view(0) == match.view(0)
    assert [other.holding(s) for s in range(4)] != [match.holding(s) for s in range(4)]


@examples(500)
@given(seed=seeds, rules=st.one_of(st.just(STANDARD), house_rules), observer=st.integers(0, 3))
def test_hidden_cards_never_change_a_view(seed: int, rules: Rules, observer: int) -> None:
    match = random_prefix(rules, seed, stop=0.01, select=True, pending_selection=True)
    check_hidden_swap(match, observer, random.Random(seed))
