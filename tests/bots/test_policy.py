"""The playout policy's rules of thumb, in positions where each one decides."""

from __future__ import annotations

import itertools
import random

from hearts.bots import policy
from hearts.cards import card_text
from hearts.hand import HandState
from helpers import STANDARD, cs, make_deal, mask


def random_hands(rng: random.Random) -> list[int]:
    """Four random holdings of 13 cards."""
    deck = list(range(52))
    rng.shuffle(deck)
    return [sum(1 << card for card in deck[13 * s : 13 * s + 13]) for s in range(4)]


def policy_card(hands: tuple[int, int, int, int], plays: str) -> str:
    state = HandState.replayed(STANDARD, hands, cs(plays))
    card = policy.choose(state, state.legal_mask(), policy.AVOID, policy.moon_threat(state))
    return card_text(card)


def test_leads_its_lowest_card_outside_hearts() -> None:
    deal = make_deal(
        "2C AC KC 5C 6C 7C 4D 9S TS JS AS 9H TH",
        "3C AD KD QD JD TD 9D 8D 7D 6D 5D 3D 2D",
        "4C QS AH 2H 3H 4H 5H 6H 7H 8H JH QH KH",
        "9C TC JC QC 8C 2S 3S 4S 5S 6S 7S 8S KS",
    )
    # East wins the first trick with the nine of clubs and leads the ten; South's
    # ace wins it while North throws the ace of hearts. South leads with hearts
    # broken: its lowest card outside hearts, not a spade while the queen is out
    # and South holds the ace.
    assert policy_card(deal, "2C 3C 4C 9C TC AC AD AH") == "4D"


def test_ducks_under_the_winning_card_with_its_highest_card_below_it() -> None:
    deal = make_deal("2C", "9C", "4C", "5C 8C KC", voids={3: "C"})
    assert policy_card(deal, "2C 9C 4C") == "8C"


def test_wins_with_its_highest_card_when_it_cannot_duck() -> None:
    deal = make_deal("2C", "3C", "4C", "5C KC", voids={3: "C"})
    assert policy_card(deal, "2C 3C 4C") == "KC"


def test_last_to_a_spade_trick_drops_the_queen_under_the_king() -> None:
    deal = make_deal("2C QS AS", "AC KS", "3C 3S", "4C 4S")
    # West wins the first trick with the ace of clubs and leads the king of spades.
    assert policy_card(deal, "2C AC 3C 4C KS 3S 4S") == "QS"


def test_discards_its_highest_card_when_it_holds_no_point_to_throw() -> None:
    hearts = "2H 3H 4H 5H 6H 7H 8H 9H TH JH"
    deal = make_deal("2C", f"5D 2S JS {hearts}", "3C", "4C")
    # West has no club and may not throw a heart on the first trick.
    assert policy_card(deal, "2C") == "JS"


def test_a_shooter_that_gives_up_keeps_its_moons_and_takes_fewer_points() -> None:
    rng = random.Random(3)
    penalty = STANDARD.penalty_mask
    moons = {False: 0, True: 0}
    points = {False: 0, True: 0}
    changed = 0
    for _ in range(300):
        hands = tuple(random_hands(rng))
        taken = {}
        for give_up in (False, True):
            state = HandState(STANDARD, (hands[0], hands[1], hands[2], hands[3]))
            policy.playout(state, (policy.SHOOT, policy.AVOID, policy.AVOID, policy.AVOID), give_up)
            taken[give_up] = state.taken[0] & penalty
            moons[give_up] += taken[give_up] == penalty
            points[give_up] += STANDARD.hand_points_of_cards(taken[give_up])
        changed += taken[False] != taken[True]
    # Giving up only starts once the moon is gone: the same moons, and a shooter that has
    # failed stops collecting hearts.
    assert moons[True] == moons[False] > 0
    assert changed > 100
    assert points[True] < points[False] - 300


def test_a_seat_that_has_won_every_point_so_far_may_seize_the_moon() -> None:
    rng = random.Random(4)
    penalty = STANDARD.penalty_mask
    moons = {0: 0, 10: 0, 99: 0}
    for _ in range(400):
        hands = tuple(random_hands(rng))
        taken = {}
        for seize in moons:
            state = HandState(STANDARD, (hands[0], hands[1], hands[2], hands[3]))
            policy.playout(state, (policy.AVOID,) * 4, True, seize)
            taken[seize] = [state.taken[s] & penalty for s in range(4)]
            moons[seize] += penalty in taken[seize]
        # Nobody ever holds 99 points: the same as never seizing.
        assert taken[99] == taken[0]
    assert moons[10] > 2 * moons[0]


def test_playout_noise_leaves_the_steady_seat_to_the_policy() -> None:
    deals = random.Random(6)
    state: HandState
    rolls = [0, 0, 0, 0]

    class Dice(random.Random):
        """Notes whose turn it is each time the playout rolls for a random card."""

        def random(self) -> float:
            rolls[state.turn] += 1
            return super().random()

    changed = 0
    for _ in range(100):
        cards = list(range(52))
        deals.shuffle(cards)
        hands = tuple(sum(1 << card for card in cards[13 * s : 13 * s + 13]) for s in range(4))
        quiet = HandState(STANDARD, (hands[0], hands[1], hands[2], hands[3]))
        policy.playout(quiet, (policy.AVOID,) * 4)
        state = HandState(STANDARD, (hands[0], hands[1], hands[2], hands[3]))
        policy.playout(state, (policy.AVOID,) * 4, False, 0, 0.5, Dice(1), 2)
        assert state.tricks_played == 13
        changed += state.taken != quiet.taken
    # Seat 2 never rolls, so it always plays the policy's card; the others roll whenever
    # they have a choice, and half the time play another card, which changes the tricks.
    assert rolls[2] == 0
    assert min(rolls[s] for s in (0, 1, 3)) > 300
    assert changed > 90


def test_the_wide_pass_candidates_add_every_trio_of_the_six_worst_and_the_voids() -> None:
    hand = mask("QS 3S AH KH 4H 2C 5C 8C 3D 9D JD 7C TS")
    plain = policy.pass_candidates(hand)
    wide = policy.wide_pass_candidates(hand)
    # The usual candidates come first, in their order (the first of equals is kept).
    assert wide[: len(plain)] == plain
    assert len(wide) == len(set(wide))
    assert all(candidate & ~hand == 0 and candidate.bit_count() == 3 for candidate in wide)
    worst = [card for _, card in policy.pass_dangers(hand)[:6]]
    trios = [sum(1 << card for card in trio) for trio in itertools.combinations(worst, 3)]
    # Three diamonds and three hearts: passing a suit empties it.  Four clubs are not
    # a short suit.
    voids = [mask("3D 9D JD"), mask("AH KH 4H")]
    assert wide == list(dict.fromkeys([*plain, *trios, *voids]))


def test_a_short_suit_is_made_up_to_three_with_the_most_dangerous_cards() -> None:
    # Singletons in diamonds and clubs; the ace of hearts is the worst card to keep,
    # the queen of spades is guarded by five spades.
    hand = mask("QS 3S 4S 5S 6S 7S AH 2H 3H 4H 5H 9D 2C")
    ranked = [card_text(card) for _, card in policy.pass_dangers(hand)]
    assert ranked[:3] == ["AH", "9D", "2C"]
    # Both voids make the same set; it is there once.
    wide = policy.wide_pass_candidates(hand)
    assert wide.count(mask("9D AH 2C")) == 1


def test_the_moon_pass_sets_keep_the_high_cards() -> None:
    # Five hearts, the lowest two of them among the three lowest cards; clubs are a short
    # suit of low cards, diamonds a short suit with the ace, spades four cards.
    hand = mask("AH KH QH 2H 3H AS KS QS 4S 2C 7C 5D AD")
    sets = policy.moon_pass_candidates(hand)
    assert sets[0] == mask("2H 2C 3H")  # the lowest three, a heart first among equals
    assert sets[1] == mask("2H 3H QH")  # the three lowest hearts
    # Clubs emptied, the lowest other card making up three; emptying the diamonds would
    # pass the ace, which is not a moon's pass.
    assert mask("2C 7C 2H") in sets
    assert len(sets) == 3
    assert all(candidate & ~hand == 0 and candidate.bit_count() == 3 for candidate in sets)


def test_a_drawn_pass_is_one_of_the_candidates_about_as_often_as_the_shares_say() -> None:
    hand = mask("QS 3S AH KH 4H 2C 5C 8C 3D 9D JD 7C TS")
    candidates = policy.pass_candidates(hand)
    assert len(candidates) == len(policy.PASS_SHARES)
    rng = random.Random(5)
    draws = 20_000
    counts = [0] * len(candidates)
    for _ in range(draws):
        counts[candidates.index(policy.drawn_pass(hand, rng))] += 1
    total = sum(policy.PASS_SHARES)
    for count, share in zip(counts, policy.PASS_SHARES, strict=True):
        assert abs(count / draws - share / total) < 0.01
    # The same generator state gives the same pass.
    assert policy.drawn_pass(hand, random.Random(9)) == policy.drawn_pass(hand, random.Random(9))


def test_a_paused_playout_goes_on_as_if_it_had_not_stopped() -> None:
    rng = random.Random(11)
    paused = 0
    for _ in range(60):
        hands = tuple(random_hands(rng))
        modes = (policy.SHOOT, policy.AVOID, policy.AVOID, policy.AVOID)
        whole = HandState(STANDARD, hands)
        assert policy.playout(whole, modes, True, 10) is None
        state = HandState(STANDARD, hands)
        seats = rng.randrange(1, 16)  # a mask of one to four seats
        current = policy.playout(state, modes, True, 10, pause=seats)
        while current is not None:
            paused += 1
            seat = state.turn
            assert seats >> seat & 1
            legal = state.legal_mask()
            assert legal & (legal - 1)  # it stops only where the seat has a choice
            # Resumed with the policy's own card, it finishes as the whole playout did.
            card = policy.choose(state, legal, current[seat], policy.moon_threat(state))
            current = policy.playout(state, current, True, 10, pause=seats, first=card)
        assert state.tricks_played == 13
        assert state.taken == whole.taken
    assert paused > 60 * 5


def test_an_alert_seat_takes_a_trick_from_a_shooter_with_only_one_point() -> None:
    deal = make_deal("2C 3D 5D 7D", "AC KD QD 8D", "3C 2D AD 4D", "4C 5H 6H 7H", voids={3: "D"})
    # West won the five of hearts with the king of diamonds: every point so far, one of
    # them, and leads the queen.  North holds the ace and the four.
    plays = cs("2C AC 3C 4C KD 2D 5H 3D QD")
    modes = (policy.AVOID, policy.SHOOT, policy.AVOID, policy.AVOID)
    north: dict[int, str] = {}
    for alert in (0, 1 << 2):
        state = HandState.replayed(STANDARD, deal, plays)
        assert policy.moon_threat(state) == -1  # fewer than 10 points: no threat yet
        assert policy.moon_threat(state, 1) == 1
        policy.playout(state, modes, True, pause=1 << 3, alert=alert)
        north[alert] = card_text(state.trick[2])
    # Waiting for 10 points, North ducks; alert, it takes the trick from the shooter.
    assert north == {0: "4D", 1 << 2: "AD"}


def sharp_card(hands: tuple[int, int, int, int], plays: str) -> str:
    state = HandState.replayed(STANDARD, hands, cs(plays))
    legal = state.legal_mask()
    return card_text(policy.choose_sharp(state, legal, policy.AVOID, policy.moon_threat(state)))


def test_the_sharp_policy_leads_a_low_heart_when_few_hearts_are_lower() -> None:
    def deal(south_heart: str, north_heart: str) -> tuple[int, int, int, int]:
        return make_deal(
            f"2C AC KC 5C 6C 7C 4D 9S TS JS AS {south_heart} TH",
            "3C AD KD QD JD TD 9D 8D 7D 6D 5D 3D 2D",
            f"4C QS AH 2H 3H {north_heart} 6H 7H 8H 9H JH QH KH",
            "9C TC JC QC 8C 2S 3S 4S 5S 6S 7S 8S KS",
        )

    # South wins the second trick with hearts broken by North's ace. Only the two and
    # three of hearts are lower than its four: a heart lead goes under someone else's.
    plays = "2C 3C 4C 9C TC AC AD AH"
    assert sharp_card(deal("4H", "5H"), plays) == "4H"
    assert policy_card(deal("4H", "5H"), plays) == "4D"
    # With three hearts out below its lowest, it leads as the policy does.
    assert sharp_card(deal("5H", "4H"), plays) == "4D"


def test_the_sharp_policy_takes_a_clean_trick_last_with_its_highest_card() -> None:
    deal = make_deal("2C", "9C", "4C", "5C 8C KC", voids={3: "C"})
    assert sharp_card(deal, "2C 9C 4C") == "KC"
    assert policy_card(deal, "2C 9C 4C") == "8C"
    # Under the king of spades it still drops the queen, and never wins with her.
    deal = make_deal("2C QS AS", "AC KS", "3C 3S", "4C 4S")
    assert sharp_card(deal, "2C AC 3C 4C KS 3S 4S") == "QS"
    deal = make_deal("2C QS AS", "AC 8S", "3C 3S", "4C 4S")
    assert sharp_card(deal, "2C AC 3C 4C 8S 3S 4S") == "AS"


def test_the_sharp_policy_empties_a_suit_when_it_has_nothing_dangerous_to_throw() -> None:
    deal = make_deal(
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2S 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        "QS AD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
        "KH AH 3S 4S 5S 6S 7S 8S 9S TS JS KS AS",
    )
    # West has no club and no heart: its lone spade goes, making a void.
    assert sharp_card(deal, "2C") == "2S"
    assert policy_card(deal, "2C") == "KD"


def test_a_playout_plays_only_the_sharp_seat_by_the_sharp_policy() -> None:
    rng = random.Random(8)
    differ = 0
    for _ in range(40):
        hands = random_hands(rng)
        seat = rng.randrange(4)
        played = HandState(STANDARD, hands)
        policy.playout(played, (policy.AVOID,) * 4, sharp=seat)
        # The same hand card by card: our seat by the sharp rules, the others by the policy.
        state = HandState(STANDARD, hands)
        while state.tricks_played < 13:
            choose = policy.choose_sharp if state.turn == seat else policy.choose
            state.play(choose(state, state.legal_mask(), policy.AVOID, policy.moon_threat(state)))
        assert played.taken == state.taken
        plain = HandState(STANDARD, hands)
        policy.playout(plain, (policy.AVOID,) * 4)
        differ += plain.taken != state.taken
    assert differ > 5
