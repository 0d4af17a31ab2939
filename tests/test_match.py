# mypy: disable-error-code="comparison-overlap"
"""The match state machine: passing, play, events, scoring variants and the end of a match."""

from __future__ import annotations

import random

import pytest

from hearts.cards import JACK_OF_DIAMONDS, QUEEN_OF_SPADES, TWO_OF_CLUBS, CardSet
from hearts.deal import Holdings, seeded_deal
from hearts.errors import IllegalMove, IllegalPass, IllegalPlay
from hearts.match import (
    CardPlayed,
    Event,
    HandScored,
    Match,
    MatchWon,
    MoonShot,
    PassesExchanged,
    Phase,
    TrickWon,
)
from hearts.rules import PassDirection, Rules
from helpers import (
    MOON_BY_SOUTH,
    STANDARD,
    WEST_24,
    WEST_25,
    c,
    make_deal,
    mask,
    match_after_pass,
    next_hand_after_pass,
    play_lowest,
    random_step,
    rotate,
    views,
)


def play_hands(hands: list[Holdings], rules: Rules = STANDARD) -> Match:
    """A match whose hands are played by lowest legal card from these holdings after the pass."""
    match = match_after_pass(hands[0], rules)
    play_lowest(match)
    for holdings in hands[1:]:
        next_hand_after_pass(match, holdings)
        play_lowest(match)
    return match


def passing_match(rules: Rules = STANDARD) -> Match:
    return Match(rules, seed=11)


def three(match: Match, seat: int, which: slice = slice(-3, None)) -> list[int]:
    return list(match.holding(seat))[which]


# --- a new match ----------------------------------------------------------------------


def test_a_new_match() -> None:
    match = Match(seed=5)
    assert match.phase is Phase.PASSING
    assert match.hand_number == 1
    assert match.pass_direction is PassDirection.LEFT
    assert match.waiting_for() == (0, 1, 2, 3)
    assert match.turn is None
    assert match.legal_moves() == []
    assert match.totals == (0, 0, 0, 0)
    assert match.results == ()
    assert match.winner is None
    assert match.rewound is False
    assert match.play_state is None
    assert match.players == ("You", "Robin", "Alex", "Sam")
    deal = seeded_deal(5, 1)
    assert tuple(match.holding(seat).mask for seat in range(4)) == deal
    assert "hand 1 passing" in repr(match)


def test_the_seed_fixes_every_deal() -> None:
    a, b = Match(seed=42), Match(seed=42)
    assert a.current.deal == b.current.deal == seeded_deal(42, 1)
    assert Match(seed=43).current.deal != a.current.deal
    rng = random.Random(0)
    while a.phase is not Phase.HAND_OVER:
        random_step(a, rng)
    a.next_hand()
    assert a.current.deal == seeded_deal(42, 2) != seeded_deal(42, 1)


def test_a_match_needs_four_players_and_a_valid_deal() -> None:
    with pytest.raises(ValueError):
        Match(players=("a", "b", "c"))
    deal = make_deal("", "", "", "")
    with pytest.raises(ValueError):
        Match(deal=(deal[0], deal[0], deal[2], deal[3]))
    with pytest.raises(ValueError):
        Match(deal=(deal[0] | deal[1], 0, deal[2], deal[3]))
    match = Match(players=["Ann", "Bo", "Cy", "Di"], seed=1)
    assert match.players == ("Ann", "Bo", "Cy", "Di")
    assert match.view(2).players == ("Ann", "Bo", "Cy", "Di")


# --- passing ---------------------------------------------------------------------------


def test_a_pass_must_be_exactly_three_cards() -> None:
    match = passing_match()
    for count in (0, 1, 2, 4, 13):
        with pytest.raises(IllegalPass, match=r"^pass exactly three cards$") as caught:
            match.confirm_pass(0, list(match.holding(0))[:count])
        assert caught.value.about("South") == "South must pass exactly three cards"
    with pytest.raises(IllegalPass, match=r"^pass exactly three cards$"):
        match.select_pass(0, list(match.holding(0))[:4])
    assert match.current.passes == [None, None, None, None]


def test_a_pass_must_be_of_your_own_cards() -> None:
    match = passing_match()
    other = next(iter(match.holding(2)))
    with pytest.raises(IllegalPass, match=r"^you do not hold that card$") as caught:
        match.confirm_pass(0, [*three(match, 0, slice(0, 2)), other])
    assert caught.value.about("South") == f"South does not hold {CardSet([other])}"
    with pytest.raises(IllegalPass, match=r"^you do not hold that card$"):
        match.select_pass(0, [other])
    with pytest.raises(IllegalPass, match=r"^that is not a card$"):
        match.confirm_pass(0, [52, 0, 1])
    with pytest.raises(IllegalPass, match=r"^there is no such seat$"):
        match.confirm_pass(4, three(match, 0))
    assert match.waiting_for() == (0, 1, 2, 3)


def test_a_pass_may_not_name_a_card_twice() -> None:
    match = passing_match()
    card, other = three(match, 0, slice(0, 2))
    with pytest.raises(IllegalPass, match=r"^the same card is chosen twice$"):
        match.confirm_pass(0, [card, card, other])
    with pytest.raises(IllegalPass, match=r"^the same card is chosen twice$"):
        match.select_pass(0, [card, card])


def test_a_confirmed_pass_cannot_be_changed() -> None:
    match = passing_match()
    first = three(match, 0, slice(0, 3))
    assert match.confirm_pass(0, first) == []
    with pytest.raises(IllegalPass, match=r"^you have already confirmed your pass$") as caught:
        match.confirm_pass(0, three(match, 0))
    assert caught.value.about("South") == "South has already confirmed a pass"
    with pytest.raises(IllegalPass, match=r"^you have already confirmed your pass$"):
        match.select_pass(0, three(match, 0))
    assert match.current.passes[0] == CardSet(first).mask
    assert match.pass_selection(0) == CardSet(first)


def test_the_selection_can_change_until_it_is_confirmed() -> None:
    match = passing_match()
    hand = list(match.holding(1))
    match.select_pass(1, hand[:1])
    assert match.pass_selection(1) == CardSet(hand[:1])
    match.select_pass(1, hand[:3])
    match.select_pass(1, hand[5:8])
    assert match.pass_selection(1) == CardSet(hand[5:8])
    match.select_pass(1, [])
    assert match.pass_selection(1) == CardSet()
    with pytest.raises(IllegalPass, match=r"^pass exactly three cards$"):
        match.confirm_pass(1)  # an empty selection is no pass
    match.select_pass(1, hand[10:13])
    assert match.waiting_for() == (0, 1, 2, 3)  # selecting is not confirming
    match.confirm_pass(1)  # confirms the selection
    assert match.current.passes[1] == CardSet(hand[10:13]).mask
    assert match.waiting_for() == (0, 2, 3)


def test_confirming_other_cards_replaces_the_selection() -> None:
    match = passing_match()
    hand = list(match.holding(3))
    match.select_pass(3, hand[:3])
    match.confirm_pass(3, hand[3:6])
    assert match.current.passes[3] == CardSet(hand[3:6]).mask


@pytest.mark.parametrize(
    ("hand_number", "direction"),
    [(1, PassDirection.LEFT), (2, PassDirection.RIGHT), (3, PassDirection.ACROSS)],
)
def test_the_exchange_happens_only_when_all_four_have_confirmed(
    hand_number: int, direction: PassDirection
) -> None:
    rng = random.Random(hand_number)
    match = Match(seed=99)
    while match.hand_number < hand_number:
        random_step(match, rng)
    assert match.phase is Phase.PASSING and match.pass_direction is direction
    dealt = [match.holding(seat).mask for seat in range(4)]
    passes = [CardSet(three(match, seat, slice(seat, seat + 3))).mask for seat in range(4)]
    for seat in (2, 0, 3):
        assert match.confirm_pass(seat, CardSet(passes[seat])) == []
        assert match.phase is Phase.PASSING
        assert [match.holding(s).mask for s in range(4)] == dealt
        assert all(view.received is None for view in views(match))
    assert match.waiting_for() == (1,)
    with pytest.raises(IllegalPlay, match=r"^the pass is not finished yet$"):
        match.play(TWO_OF_CLUBS)
    events = match.confirm_pass(1, CardSet(passes[1]))
    assert events == [PassesExchanged(direction)]
    assert match.phase is Phase.PLAYING
    for seat in range(4):
        giver = (seat - direction.value) % 4
        assert match.holding(seat).mask == (dealt[seat] & ~passes[seat]) | passes[giver]
        assert match.view(seat).received == CardSet(passes[giver])
    with pytest.raises(IllegalPass, match=r"^the pass is over$"):
        match.select_pass(0, [])


def test_passing_left_means_south_to_west() -> None:
    match = passing_match()
    south = three(match, 0)
    for seat in range(4):
        match.confirm_pass(seat, three(match, seat))
    assert set(south) <= set(match.holding(1))
    assert not set(south) & set(match.holding(0))


def test_there_is_no_pass_on_a_hold_hand() -> None:
    rng = random.Random(4)
    match = Match(seed=4)
    while match.hand_number < 4:
        random_step(match, rng)
    assert match.pass_direction is PassDirection.HOLD
    assert match.phase is Phase.PLAYING  # play starts at once
    assert tuple(match.holding(s).mask for s in range(4)) == match.current.deal
    assert match.current.passes == [None, None, None, None]
    with pytest.raises(IllegalPass, match=r"^there is no pass this hand$"):
        match.confirm_pass(0, three(match, 0))
    with pytest.raises(IllegalPass, match=r"^there is no pass this hand$"):
        match.select_pass(0, three(match, 0))
    assert match.view(0).pass_to is None and match.view(0).received is None
    while match.phase is Phase.PLAYING:
        random_step(match, rng)
    match.next_hand()
    assert match.hand_number == 5
    assert match.pass_direction is PassDirection.LEFT
    assert match.phase is Phase.PASSING


def test_passing_none_plays_every_hand_without_a_pass() -> None:
    rules = Rules(passing="none")
    match = Match(rules, seed=8)
    rng = random.Random(8)
    for number in (1, 2, 3):
        assert match.hand_number == number
        assert match.phase is Phase.PLAYING
        assert match.pass_direction is PassDirection.HOLD
        while match.phase is Phase.PLAYING:
            random_step(match, rng)
        match.next_hand()


@pytest.mark.parametrize(
    ("passing", "expected"),
    [
        ("left-only", [PassDirection.LEFT] * 5),
        ("no-hold", [PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS] * 2),
        ("standard", [PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS] * 2),
    ],
)
def test_pass_variants_in_a_match(passing: str, expected: list[PassDirection]) -> None:
    rules = Rules.from_dict({"passing": passing})
    match = Match(rules, seed=3)
    rng = random.Random(3)
    seen: list[PassDirection] = []
    while len(seen) < len(expected):
        if match.phase is Phase.PASSING and not any(match.current.passes):
            seen.append(match.pass_direction)
            dealt = [match.holding(s).mask for s in range(4)]
            for seat in range(4):
                match.confirm_pass(seat, three(match, seat))
            for seat in range(4):
                receiver = match.pass_direction.receiver(seat)
                assert set(CardSet(dealt[seat])) - set(match.holding(seat)) <= set(
                    match.holding(receiver)
                )
        random_step(match, rng)
    assert seen == expected


# --- play and its events ------------------------------------------------------------------


def test_events_of_a_hand() -> None:
    match = match_after_pass(WEST_25)
    assert match.turn == 0
    events = match.play(TWO_OF_CLUBS)
    assert events == [CardPlayed(0, TWO_OF_CLUBS)]
    match.play(c("3C"))
    match.play(c("AD"))
    events = match.play(c("2H"), seat=3)
    assert events == [
        CardPlayed(3, c("2H")),
        TrickWon(1, 1, ((0, c("2C")), (1, c("3C")), (2, c("AD")), (3, c("2H"))), 1),
    ]
    all_events: list[Event] = []
    while match.phase is Phase.PLAYING:
        all_events += match.play(min(match.legal_moves()))
    tricks = [e for e in all_events if isinstance(e, TrickWon)]
    assert [t.number for t in tricks] == list(range(2, 14))
    assert [t.seat for t in tricks] == [1] * 11 + [2]
    assert sum(t.points for t in tricks) == 25
    assert [type(e) for e in all_events[-2:]] == [TrickWon, HandScored]
    scored = all_events[-1]
    assert isinstance(scored, HandScored)
    assert scored.result.points == (0, 25, 1, 0)
    assert scored.result.number == 1
    assert scored.result.shooter is None
    assert scored.result.taken[2] & (1 << c("AH"))
    assert not any(isinstance(e, MoonShot | MatchWon) for e in all_events)
    assert match.phase is Phase.HAND_OVER
    assert match.results == (scored.result,)
    assert match.totals == (0, 25, 1, 0)


def test_each_seat_plays_in_turn_clockwise() -> None:
    match = Match(seed=21)
    rng = random.Random(21)
    while match.phase is Phase.PASSING:
        random_step(match, rng)
    order = []
    while match.phase is Phase.PLAYING:
        seat = match.turn
        assert seat is not None
        events = match.play(rng.choice(match.legal_moves()), seat=seat)
        assert isinstance(events[0], CardPlayed) and events[0].seat == seat
        order.append(seat)
        won = [e for e in events if isinstance(e, TrickWon)]
        if not won:
            assert match.turn == (seat + 1) % 4
        elif match.phase is Phase.PLAYING:
            assert match.turn == won[0].seat  # the winner leads next
    assert len(order) == 52


def test_a_refused_play_changes_nothing() -> None:
    match = match_after_pass(WEST_25)
    before = views(match)
    for card, seat in [(c("AH"), None), (c("3C"), None), (TWO_OF_CLUBS, 1), (c("AC"), 0)]:
        with pytest.raises(IllegalMove):
            match.play(card, seat)
    assert views(match) == before
    assert match.current.plays == []


def test_playing_and_dealing_at_the_wrong_time() -> None:
    match = match_after_pass(WEST_25)
    with pytest.raises(IllegalMove, match=r"^the hand is not over yet$"):
        match.next_hand()
    with pytest.raises(IllegalMove, match=r"^there is no moon to score now$"):
        match.choose_moon(1, "add")
    play_lowest(match)
    assert match.phase is Phase.HAND_OVER
    with pytest.raises(IllegalPlay, match=r"^the hand is over$"):
        match.play(TWO_OF_CLUBS)
    assert match.legal_moves() == [] and match.turn is None and match.waiting_for() == ()
    assert match.next_hand() == []
    assert match.hand_number == 2 and match.phase is Phase.PASSING
    assert match.pass_direction is PassDirection.RIGHT


def test_a_copy_is_independent() -> None:
    match = Match(seed=17)
    rng = random.Random(17)
    for _ in range(30):
        random_step(match, rng)
    before = views(match)
    copy = match.copy()
    assert views(copy) == before
    for _ in range(80):
        random_step(copy, rng)
    assert views(match) == before
    assert views(copy) != before


# --- moons in a match -----------------------------------------------------------------------


def test_a_moon_in_the_standard_game() -> None:
    match = match_after_pass(MOON_BY_SOUTH)
    events: list[Event] = []
    while match.phase is Phase.PLAYING:
        events += match.play(min(match.legal_moves()))
    assert MoonShot(0) in events
    assert events.index(MoonShot(0)) < len(events) - 1
    assert isinstance(events[-1], HandScored)
    assert events[-1].result.points == (0, 26, 26, 26)
    assert events[-1].result.shooter == 0
    assert match.totals == (0, 26, 26, 26)


def test_a_moon_subtracted() -> None:
    match = play_hands([MOON_BY_SOUTH], Rules(moon="subtract"))
    assert match.totals == (-26, 0, 0, 0)
    assert match.phase is Phase.HAND_OVER


@pytest.mark.parametrize(
    ("style", "points"), [("add", (26, 0, 26, 26)), ("subtract", (0, -26, 0, 0))]
)
def test_the_shooter_chooses_under_moon_choice(style: str, points: tuple[int, ...]) -> None:
    match = match_after_pass(rotate(MOON_BY_SOUTH, 1), Rules(moon="choice"))
    events: list[Event] = []
    while match.phase is Phase.PLAYING:
        events += match.play(min(match.legal_moves()))
    assert events[-1] == MoonShot(1)
    assert match.phase is Phase.MOON_CHOICE
    assert match.turn == 1 and match.moon_shooter == 1 and match.waiting_for() == (1,)
    assert match.results == () and match.totals == (0, 0, 0, 0)
    assert match.legal_moves() == []
    with pytest.raises(IllegalPlay, match=r"^the moon must be scored first$"):
        match.play(TWO_OF_CLUBS)
    with pytest.raises(IllegalMove, match=r"^the hand is not over yet$"):
        match.next_hand()
    with pytest.raises(IllegalMove, match=r"^only the shooter chooses$") as caught:
        match.choose_moon(0, "add")
    assert caught.value.about("South") == "South did not shoot the moon"
    with pytest.raises(IllegalMove, match=r'^choose "add" or "subtract"$'):
        match.choose_moon(1, "double")  # type: ignore[arg-type]
    assert match.phase is Phase.MOON_CHOICE
    events = match.choose_moon(1, style)  # type: ignore[arg-type]
    assert isinstance(events[0], HandScored)
    assert events[0].result.points == points
    assert events[0].result.moon_choice == style
    assert match.totals == points
    assert match.phase is Phase.HAND_OVER
    assert match.current.moon_choice == style


def test_the_jack_of_diamonds_keeps_its_value_in_a_moon() -> None:
    match = play_hands([MOON_BY_SOUTH], Rules(jack_of_diamonds=True))
    result = match.results[0]
    assert result.taken[0] >> JACK_OF_DIAMONDS & 1
    assert result.points == (-10, 26, 26, 26)


def test_black_maria_moon_in_a_match() -> None:
    match = play_hands([MOON_BY_SOUTH], Rules(black_maria=True))
    assert match.results[0].shooter == 0
    assert match.results[0].points == (0, 43, 43, 43)


def test_black_maria_and_jack_of_diamonds_without_a_moon() -> None:
    match = play_hands([WEST_25], Rules(black_maria=True, jack_of_diamonds=True))
    # West takes the queen, the king of spades and twelve hearts; North the ace of
    # spades with the last heart; South's jack of diamonds falls to West.
    result = match.results[0]
    assert result.shooter is None
    assert sum(result.points) == 43 - 10
    for seat in range(4):
        assert result.points[seat] == match.rules.hand_points_of_cards(result.taken[seat])


# --- the end of a match ---------------------------------------------------------------------


def test_a_match_ends_when_a_total_reaches_exactly_100_with_a_single_lowest() -> None:
    match = play_hands([WEST_25, WEST_25, WEST_24])
    assert match.totals == (0, 74, 4, 0)
    assert match.phase is Phase.HAND_OVER
    next_hand_after_pass(match, MOON_BY_SOUTH)  # hand 4 is a hold hand
    events: list[Event] = []
    while match.phase is Phase.PLAYING:
        events += match.play(min(match.legal_moves()))
    assert match.totals == (0, 100, 30, 26)
    assert match.phase is Phase.MATCH_OVER
    assert match.winner == 0  # lowest wins, not the first to 100
    assert events[-1] == MatchWon(0, (0, 100, 30, 26))
    assert isinstance(events[-2], HandScored)
    assert [r.points for r in match.results] == [
        (0, 25, 1, 0),
        (0, 25, 1, 0),
        (0, 24, 2, 0),
        (0, 26, 26, 26),
    ]
    assert all(view.winner == 0 and view.phase is Phase.MATCH_OVER for view in views(match))
    for act in (match.next_hand, match.restart_hand, lambda: match.undo(0)):
        with pytest.raises(IllegalMove):
            act()
    with pytest.raises(IllegalPlay, match=r"^the match is over$"):
        match.play(TWO_OF_CLUBS)
    assert match.totals == (0, 100, 30, 26)


def test_a_shared_lowest_total_means_another_hand() -> None:
    match = play_hands([WEST_25] * 4)
    assert match.totals == (0, 100, 4, 0)
    assert match.phase is Phase.HAND_OVER
    assert match.winner is None
    next_hand_after_pass(match, rotate(WEST_25, 1))
    assert match.hand_number == 5
    assert match.pass_direction is PassDirection.LEFT  # the cycle goes on
    play_lowest(match)
    assert match.totals == (0, 100, 29, 1)
    assert match.phase is Phase.MATCH_OVER
    assert match.winner == 0


def test_no_winner_below_the_target() -> None:
    match = play_hands([MOON_BY_SOUTH, rotate(MOON_BY_SOUTH, 1), MOON_BY_SOUTH])
    assert match.totals == (26, 52, 78, 78)
    assert match.phase is Phase.HAND_OVER


def test_a_lower_target() -> None:
    hands = [WEST_25, WEST_25, rotate(MOON_BY_SOUTH, 3)]
    short = play_hands(hands[:2], Rules(target=50))
    assert short.totals == (0, 50, 2, 0)
    assert short.phase is Phase.HAND_OVER  # South and East share the lowest total
    short = play_hands(hands, Rules(target=50))
    assert short.totals == (26, 76, 28, 0)
    assert short.phase is Phase.MATCH_OVER and short.winner == 3
    standard = play_hands(hands)
    assert standard.totals == (26, 76, 28, 0)
    assert standard.phase is Phase.HAND_OVER


def test_totals_may_go_below_zero() -> None:
    match = play_hands([MOON_BY_SOUTH, MOON_BY_SOUTH], Rules(moon="subtract", target=26))
    assert match.totals == (-52, 0, 0, 0)
    assert match.phase is Phase.HAND_OVER
    match = play_hands([MOON_BY_SOUTH, WEST_25], Rules(moon="subtract", target=25))
    assert match.totals == (-26, 25, 1, 0)
    assert match.phase is Phase.MATCH_OVER and match.winner == 0


def test_the_queen_goes_to_whoever_wins_its_trick() -> None:
    # Lowest-card play: West leads clubs and North discards spades from 3S up, so
    # the queen falls on West's eleventh club.
    match = play_hands([WEST_25])
    assert match.results[0].taken[1] >> QUEEN_OF_SPADES & 1
    assert match.view(0).tricks[10].cards == (
        (1, c("KC")),
        (2, c("QS")),
        (3, c("QH")),
        (0, c("JD")),
    )
    assert match.view(0).tricks[10].winner == 1
    assert match.view(0).tricks[10].points == 14
    assert mask("QS KC QH JD") & match.results[0].taken[1] == mask("QS KC QH JD")
