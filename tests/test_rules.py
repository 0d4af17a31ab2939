"""Every rule of RULES.md, and every exception to it, on crafted hands."""

from __future__ import annotations

import pytest

from hearts.cards import HEARTS_MASK, QUEEN_OF_SPADES, TWO_OF_CLUBS
from hearts.errors import IllegalMove, IllegalPlay
from hearts.hand import HandState
from hearts.match import CardPlayed, Match, Phase
from hearts.rules import SEAT_NAMES, PassDirection, Rules, RulesError
from helpers import STANDARD, c, hand_state, make_deal, mask, play_texts, texts

# West wins the first trick with the only other club and leads the second.
#   South: twelve clubs and the two of diamonds
#   West:  AC, QS, 3D-6D, 2H-8H
#   North: 7D-AD, 2S-5S, 9H
#   East:  6S-JS, KS, AS, TH-AH
WEST_LEADS_SECOND = (
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2D",
    "AC QS 3D 4D 5D 6D 2H 3H 4H 5H 6H 7H 8H",
    "7D 8D 9D TD JD QD KD AD 2S 3S 4S 5S 9H",
    "6S 7S 8S 9S TS JS KS AS TH JH QH KH AH",
)


def west_leads_second(rules: Rules = STANDARD) -> HandState:
    """The state after the first trick 2C AC 2S 6S: West to lead, hearts not broken."""
    state = hand_state(*WEST_LEADS_SECOND, rules=rules)
    play_texts(state, "2C AC 2S 6S")
    assert state.turn == 1 and state.tricks_played == 1 and not state.hearts_broken
    return state


def reason(state: HandState, card: str) -> str:
    with pytest.raises(IllegalPlay) as caught:
        state.check_play(c(card))
    return str(caught.value)


def legal(state: HandState) -> str:
    return texts(state.legal_mask())


# --- the deal and the first lead --------------------------------------------------


def test_a_hand_needs_four_holdings_of_thirteen_distinct_cards() -> None:
    deal = make_deal("", "", "", "")
    with pytest.raises(ValueError):
        HandState(STANDARD, deal[:3])
    with pytest.raises(ValueError):
        HandState(STANDARD, (deal[0], deal[0], deal[2], deal[3]))
    with pytest.raises(ValueError):
        HandState(STANDARD, (deal[0] & (deal[0] - 1), deal[1], deal[2], deal[3]))


@pytest.mark.parametrize("holder", [0, 1, 2, 3])
def test_the_holder_of_the_two_of_clubs_leads_it(holder: int) -> None:
    seats = ["", "", "", ""]
    seats[holder] = "2C AH QS"
    state = hand_state(*seats)
    assert state.turn == holder
    assert state.legal_mask() == 1 << TWO_OF_CLUBS
    assert reason(state, "AH") == "the first lead must be the two of clubs"
    assert reason(state, "QS") == "the first lead must be the two of clubs"
    state.check_play(TWO_OF_CLUBS)


def test_the_first_lead_is_the_two_of_clubs_even_after_the_pass_moved_it() -> None:
    # South is dealt 2C and passes it left: West must lead it.
    deal = make_deal("2C 3C 4C", "", "", "")
    match = Match(seed=0, deal=deal)
    assert match.pass_direction is PassDirection.LEFT
    west_card = next(iter(match.holding(1)))
    match.confirm_pass(0, [TWO_OF_CLUBS, c("3C"), c("4C")])
    for seat in (1, 2, 3):
        match.confirm_pass(seat, list(match.holding(seat))[-3:])
    assert match.turn == 1
    assert match.legal_moves() == [TWO_OF_CLUBS]
    with pytest.raises(IllegalPlay, match=r"^the first lead must be the two of clubs$"):
        match.play(west_card)
    with pytest.raises(IllegalPlay, match=r"^not your turn$") as caught:
        match.play(TWO_OF_CLUBS, seat=0)
    assert caught.value.about("South") == "not South's turn"
    with pytest.raises(IllegalPlay, match=r"^you do not hold that card$") as caught:
        match.play(next(iter(match.holding(0))))
    assert caught.value.about("West").startswith("West does not hold ")
    assert TWO_OF_CLUBS in match.holding(1) and TWO_OF_CLUBS not in match.holding(0)
    assert match.play(TWO_OF_CLUBS, seat=1) == [CardPlayed(1, TWO_OF_CLUBS)]
    assert match.view(1).plays == ((1, TWO_OF_CLUBS),)


def test_a_card_from_nowhere_is_refused() -> None:
    match = Match(Rules(passing="none"), seed=3)
    for bad in (-1, 52):
        with pytest.raises(IllegalPlay, match="that is not a card"):
            match.play(bad)


# --- following suit ----------------------------------------------------------------


def test_you_must_follow_clubs() -> None:
    state = hand_state("2C", "3C 2D", "", "")
    play_texts(state, "2C")
    assert legal(state) == "3C"
    with pytest.raises(IllegalPlay, match=r"^you must follow clubs$") as caught:
        state.check_play(c("2D"))
    assert caught.value.about("West") == "West must follow clubs"


def test_you_must_follow_the_suit_led_on_later_tricks() -> None:
    state = west_leads_second()
    play_texts(state, "3D")
    assert state.turn == 2
    assert legal(state) == "7D 8D 9D TD JD QD KD AD"
    assert reason(state, "3S") == "you must follow diamonds"
    assert reason(state, "9H") == "you must follow diamonds"
    play_texts(state, "AD")
    # East is void in diamonds: after the first trick any card may be played.
    assert legal(state) == "7S 8S 9S TS JS KS AS TH JH QH KH AH"


def test_spades_and_hearts_must_be_followed_too() -> None:
    state = west_leads_second()
    play_texts(state, "QS")
    assert reason(state, "7D") == "you must follow spades"
    play_texts(state, "3S 7S 2D")
    assert state.turn == 1  # West wins with the queen
    play_texts(state, "3D")
    play_texts(state, "AD TH 3C")  # East discards a heart: hearts are broken
    assert state.hearts_broken and state.turn == 2
    play_texts(state, "9H")
    assert reason(state, "8S") == "you must follow hearts"


def test_you_do_not_hold_that_card() -> None:
    state = hand_state("2C", "", "", "")
    with pytest.raises(IllegalPlay, match=r"^you do not hold that card$") as caught:
        state.check_play(c("AH"))
    assert caught.value.about("North") == "North does not hold AH"


# --- the first trick -----------------------------------------------------------------


def test_first_trick_void_in_clubs_with_a_safe_card_may_not_play_points() -> None:
    state = hand_state("2C", "QS AH KH 2D", "", "", voids={1: "C"})
    play_texts(state, "2C")
    assert state.turn == 1
    assert state.legal_mask() == state.hands[1] & ~(HEARTS_MASK | 1 << QUEEN_OF_SPADES)
    assert "2D" in legal(state)
    assert reason(state, "QS") == "no points on the first trick"
    assert reason(state, "AH") == "no points on the first trick"
    state.check_play(c("2D"))


def test_first_trick_void_in_clubs_holding_only_hearts_and_the_queen() -> None:
    state = hand_state("2C", "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", "", "")
    play_texts(state, "2C")
    assert legal(state) == "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    state.check_play(c("QS"))
    state.check_play(c("KH"))
    trial = state.copy()
    play_texts(trial, "QS")
    assert not trial.hearts_broken  # the queen never breaks hearts in the standard game
    play_texts(state, "2H")
    assert state.hearts_broken  # a heart on the first trick breaks them


def test_first_trick_void_in_clubs_holding_only_hearts() -> None:
    state = hand_state("2C", "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "", "")
    play_texts(state, "2C")
    assert state.legal_mask() == HEARTS_MASK
    play_texts(state, "AH")
    assert state.hearts_broken


def test_first_trick_the_last_seats_may_not_discard_points_either() -> None:
    state = hand_state(*WEST_LEADS_SECOND)
    play_texts(state, "2C AC")
    assert reason(state, "9H") == "no points on the first trick"
    play_texts(state, "2S")
    assert legal(state) == "6S 7S 8S 9S TS JS KS AS"  # no hearts, though void in clubs
    assert reason(state, "AH") == "no points on the first trick"


def test_the_jack_of_diamonds_is_not_a_point_card_on_the_first_trick() -> None:
    for rules in (STANDARD, Rules(jack_of_diamonds=True)):
        state = hand_state("2C", "JD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", "", "", rules=rules)
        play_texts(state, "2C")
        assert legal(state) == "JD"
        assert reason(state, "2H") == "no points on the first trick"


def test_black_maria_forbids_the_ace_and_king_of_spades_on_the_first_trick() -> None:
    seats = ("2C", "AS KS 2D", "", "")
    standard = hand_state(*seats, voids={1: "C"})
    play_texts(standard, "2C")
    standard.check_play(c("AS"))
    maria = hand_state(*seats, rules=Rules(black_maria=True), voids={1: "C"})
    play_texts(maria, "2C")
    assert reason(maria, "AS") == "no points on the first trick"
    assert reason(maria, "KS") == "no points on the first trick"
    assert "AS" not in legal(maria) and "2D" in legal(maria)


def test_black_maria_allows_any_point_card_to_a_hand_of_nothing_else() -> None:
    rules = Rules(black_maria=True)
    state = hand_state("2C", "AS KS QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH", "", "", rules=rules)
    play_texts(state, "2C")
    assert legal(state) == "QS KS AS 2H 3H 4H 5H 6H 7H 8H 9H TH JH"
    state.check_play(c("KS"))


# --- breaking hearts -------------------------------------------------------------------


def test_a_heart_may_not_be_led_before_hearts_are_broken() -> None:
    state = west_leads_second()
    assert legal(state) == "3D 4D 5D 6D QS"
    assert reason(state, "2H") == "hearts are not broken yet"


def test_a_hand_of_only_hearts_may_lead_one_before_they_are_broken() -> None:
    state = hand_state(
        "2C", "AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", "", "", voids={2: "C", 3: "C"}
    )
    play_texts(state, "2C AC 3D 3S")
    assert state.turn == 1 and not state.hearts_broken
    assert state.legal_mask() == state.hands[1] == HEARTS_MASK & ~mask("AH")
    play_texts(state, "5H")
    # A heart led by a hand of only hearts breaks them too.
    assert state.hearts_broken


def test_a_heart_discarded_on_a_trick_breaks_hearts() -> None:
    state = west_leads_second()
    play_texts(state, "3D 7D TH")  # East, void in diamonds, discards a heart
    assert state.hearts_broken
    play_texts(state, "2D")
    assert state.turn == 2  # North's 7D wins; East's heart is not of the suit led
    assert "9H" in legal(state)
    state.check_play(c("9H"))


def test_the_queen_of_spades_may_be_led_any_time_after_the_first_trick() -> None:
    state = west_leads_second()
    state.check_play(QUEEN_OF_SPADES)
    play_texts(state, "QS")
    assert not state.hearts_broken


def test_the_queen_of_spades_does_not_break_hearts() -> None:
    state = west_leads_second()
    play_texts(state, "QS 3S 7S 2D")
    assert state.turn == 1 and not state.hearts_broken
    assert legal(state) == "3D 4D 5D 6D"
    assert reason(state, "2H") == "hearts are not broken yet"


def test_the_queen_breaks_hearts_under_the_house_rule() -> None:
    state = west_leads_second(Rules(queen_breaks_hearts=True))
    play_texts(state, "QS")
    assert state.hearts_broken
    play_texts(state, "3S 7S 2D")
    assert state.turn == 1
    assert legal(state) == "3D 4D 5D 6D 2H 3H 4H 5H 6H 7H 8H"
    state.check_play(c("2H"))


# East wins the first trick with AC and must lead 2D; South, void in diamonds, holds QS.
QUEEN_DISCARD = make_deal("2C QS", "3C", "4C", "AC 2D", voids={0: "D", 1: "C", 2: "C", 3: "C"})


@pytest.mark.parametrize(("queen_breaks_hearts", "broken"), [(False, False), (True, True)])
def test_a_discarded_queen_breaks_hearts_only_under_the_house_rule(
    queen_breaks_hearts: bool, broken: bool
) -> None:
    state = HandState(Rules(queen_breaks_hearts=queen_breaks_hearts), QUEEN_DISCARD)
    play_texts(state, "2C 3C 4C AC")
    assert state.turn == 3
    assert legal(state) == "2D"  # East holds 2D and hearts: hearts are not broken
    play_texts(state, "2D QS")
    assert state.hearts_broken is broken


# --- winning tricks ------------------------------------------------------------------


def test_the_highest_card_of_the_suit_led_wins_and_leads_next() -> None:
    state = west_leads_second()
    play_texts(state, "3D")
    play_texts(state, "8D")
    play_texts(state, "AH")  # East discards the highest heart: hearts never win off-suit
    winner = state.play(c("2D"))
    assert winner == 2
    assert state.turn == 2 and state.leader == 2
    assert state.taken[2] == mask("3D 8D AH 2D")
    assert state.tricks_played == 2


def test_a_higher_card_of_another_suit_never_wins() -> None:
    state = hand_state("2C", "3C", "AS", "AD", voids={2: "C", 3: "C"})
    play_texts(state, "2C 3C AS AD")
    assert state.turn == 1
    assert state.taken[1] == mask("2C 3C AS AD")


# --- scoring ---------------------------------------------------------------------------


def test_card_points_in_the_standard_game() -> None:
    rules = STANDARD
    assert rules.hand_points_of_cards(mask("2H")) == 1
    assert rules.hand_points_of_cards(mask("QS")) == 13
    assert rules.hand_points_of_cards(mask("JD")) == 0
    assert rules.hand_points_of_cards(mask("AS KS 2C JD")) == 0
    assert rules.hand_points_of_cards(HEARTS_MASK | 1 << QUEEN_OF_SPADES) == 26
    assert sum(rules.card_points) == 26
    assert rules.moon_points == 26


def test_standard_scoring_without_a_moon() -> None:
    taken = (mask("QS 2H"), mask("3H 4H 5H"), mask("6H 7H 8H 9H TH JH QH KH AH"), 0)
    assert STANDARD.score_hand(taken) == ((14, 3, 9, 0), None)


def test_a_moon_is_all_hearts_and_the_queen() -> None:
    everything = HEARTS_MASK | 1 << QUEEN_OF_SPADES
    rest = ((1 << 52) - 1) & ~everything
    assert STANDARD.score_hand((rest, everything, 0, 0)) == ((26, 0, 26, 26), 1)
    # All the hearts without the queen is no moon.
    assert STANDARD.score_hand((HEARTS_MASK, 1 << QUEEN_OF_SPADES, 0, 0)) == ((13, 13, 0, 0), None)


def test_moon_subtract_and_choice() -> None:
    everything = HEARTS_MASK | 1 << QUEEN_OF_SPADES
    taken = (0, 0, everything, 0)
    assert Rules(moon="subtract").score_hand(taken) == ((0, 0, -26, 0), 2)
    choice = Rules(moon="choice")
    assert choice.score_hand(taken, "add") == ((26, 26, 0, 26), 2)
    assert choice.score_hand(taken, "subtract") == ((0, 0, -26, 0), 2)
    with pytest.raises(ValueError):
        choice.score_hand(taken)
    assert choice.score_hand((everything & ~mask("2H"), mask("2H"), 0, 0)) == (
        (25, 1, 0, 0),
        None,
    )


def test_jack_of_diamonds_scores_minus_ten() -> None:
    rules = Rules(jack_of_diamonds=True)
    assert rules.hand_points_of_cards(mask("JD")) == -10
    assert rules.hand_points_of_cards(mask("JD QS 2H")) == 4
    assert rules.score_hand((mask("JD"), mask("QS 2H"), HEARTS_MASK & ~mask("2H"), 0)) == (
        (-10, 14, 12, 0),
        None,
    )
    # The moon needs every heart and the queen, not the jack.
    everything = HEARTS_MASK | 1 << QUEEN_OF_SPADES
    assert rules.score_hand((everything, mask("JD"), 0, 0)) == ((0, 16, 26, 26), 0)
    assert rules.score_hand((everything | mask("JD"), 0, 0, 0)) == ((-10, 26, 26, 26), 0)
    subtract = Rules(jack_of_diamonds=True, moon="subtract")
    assert subtract.score_hand((everything | mask("JD"), 0, 0, 0)) == ((-36, 0, 0, 0), 0)


def test_black_maria_scores_and_its_moon() -> None:
    rules = Rules(black_maria=True)
    assert rules.hand_points_of_cards(mask("AS")) == 7
    assert rules.hand_points_of_cards(mask("KS")) == 10
    assert rules.hand_points_of_cards(mask("QS")) == 13
    assert sum(rules.card_points) == 43
    everything = HEARTS_MASK | mask("QS KS AS")
    # Hearts and the queen are no moon without the ace and king of spades.
    hearts_and_queen = HEARTS_MASK | mask("QS")
    assert rules.score_hand((hearts_and_queen, mask("AS KS"), 0, 0)) == ((26, 17, 0, 0), None)
    points, shooter = rules.score_hand((0, 0, 0, everything))
    assert shooter == 3
    assert points == (43, 43, 43, 0)  # the moon is worth every penalty point (docs/rules.md)


def test_hand_points_of_single_cards_match_the_card_table() -> None:
    for rules in (STANDARD, Rules(jack_of_diamonds=True, black_maria=True)):
        for card in range(52):
            assert rules.hand_points_of_cards(1 << card) == rules.card_points[card]


# --- passing ------------------------------------------------------------------------------


def test_standard_pass_cycle() -> None:
    directions = [STANDARD.pass_direction(n) for n in range(1, 10)]
    L, R, A, H = PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.HOLD
    assert directions == [L, R, A, H, L, R, A, H, L]


@pytest.mark.parametrize(
    ("passing", "expected"),
    [
        ("none", "HOLD HOLD HOLD HOLD HOLD"),
        ("left-only", "LEFT LEFT LEFT LEFT LEFT"),
        ("no-hold", "LEFT RIGHT ACROSS LEFT RIGHT"),
        ("standard", "LEFT RIGHT ACROSS HOLD LEFT"),
    ],
)
def test_pass_cycle_variants(passing: str, expected: str) -> None:
    rules = Rules.from_dict({"passing": passing})
    assert " ".join(rules.pass_direction(n).name for n in range(1, 6)) == expected


def test_receiving_seats() -> None:
    assert SEAT_NAMES == ("South", "West", "North", "East")
    # Left is the next seat clockwise: South passes to West.
    assert PassDirection.LEFT.receiver(0) == 1
    assert PassDirection.LEFT.receiver(3) == 0
    assert PassDirection.RIGHT.receiver(0) == 3
    assert PassDirection.RIGHT.receiver(1) == 0
    assert PassDirection.ACROSS.receiver(0) == 2
    assert PassDirection.ACROSS.receiver(1) == 3
    assert PassDirection.HOLD.receiver(2) == 2
    for direction in PassDirection:
        for seat in range(4):
            assert direction.giver(direction.receiver(seat)) == seat


# --- the rules object -----------------------------------------------------------------------


def test_the_standard_rules() -> None:
    rules = Rules()
    assert rules.is_standard
    assert rules.to_dict() == {}
    assert Rules.from_dict({}) == rules
    assert (rules.target, rules.moon, rules.passing) == (100, "add", "standard")
    assert not (rules.jack_of_diamonds or rules.queen_breaks_hearts or rules.black_maria)


def test_house_rules_round_trip() -> None:
    data = {
        "target": 50,
        "jack_of_diamonds": True,
        "moon": "choice",
        "queen_breaks_hearts": True,
        "passing": "no-hold",
        "black_maria": True,
    }
    rules = Rules.from_dict(data)
    assert rules.to_dict() == data
    assert not rules.is_standard
    assert Rules.from_dict({"target": 100}).to_dict() == {}


@pytest.mark.parametrize(
    "data",
    [
        {"trump": "spades"},
        {"target": 0},
        {"target": True},
        {"target": "100"},
        {"target": 10_001},
        {"moon": "double"},
        {"passing": "right-only"},
        {"jack_of_diamonds": "yes"},
        {"black_maria": 1},
        {"queen_breaks_hearts": None},
    ],
)
def test_bad_rules_are_refused(data: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        Rules.from_dict(data)


def test_rules_must_be_an_object() -> None:
    with pytest.raises(RulesError):
        Rules.from_dict([("target", 50)])  # type: ignore[arg-type]


def test_errors_are_value_errors_with_reasons() -> None:
    assert issubclass(IllegalPlay, IllegalMove)
    assert issubclass(IllegalMove, ValueError)
    assert issubclass(RulesError, ValueError)
    match = Match(seed=1)
    with pytest.raises(IllegalPlay) as caught:
        match.play(TWO_OF_CLUBS)
    assert caught.value.reason == str(caught.value) == "the pass is not finished yet"
    assert match.phase is Phase.PASSING
