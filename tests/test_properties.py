"""Invariants over thousands of random hands and matches, reproducible from their seeds."""

from __future__ import annotations

import dataclasses
import json
import random

from hypothesis import given
from hypothesis import strategies as st

from hearts.cards import (
    ACE_OF_SPADES,
    HEARTS,
    JACK_OF_DIAMONDS,
    KING_OF_SPADES,
    QUEEN_OF_SPADES,
    TWO_OF_CLUBS,
    Card,
    CardSet,
    card_text,
)
from hearts.deal import hand_rng, random_deal, seeded_deal, shuffled_deck
from hearts.hand import HandState, random_card
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
from hearts.record import read_record, write_record
from hearts.rules import Rules
from hearts.view import SeatView
from helpers import (
    STANDARD,
    examples,
    house_rules,
    random_prefix,
    random_step,
    same_state,
    seeds,
)

any_rules = st.one_of(st.just(STANDARD), house_rules)


# --- the rules written out again, slowly, from RULES.md -------------------------------------


def penalty_cards(rules: Rules) -> set[Card]:
    cards = {card for card in range(52) if card // 13 == HEARTS} | {QUEEN_OF_SPADES}
    if rules.black_maria:
        cards |= {ACE_OF_SPADES, KING_OF_SPADES}
    return cards


def card_value(rules: Rules, card: Card) -> int:
    if card // 13 == HEARTS:
        return 1
    if card == QUEEN_OF_SPADES:
        return 13
    if rules.black_maria and card == ACE_OF_SPADES:
        return 7
    if rules.black_maria and card == KING_OF_SPADES:
        return 10
    if rules.jack_of_diamonds and card == JACK_OF_DIAMONDS:
        return -10
    return 0


def reference_legal(
    rules: Rules, hand: set[Card], trick: list[Card], first_trick: bool, broken: bool
) -> set[Card]:
    """The cards RULES.md allows, by the letter."""
    if not trick:
        if first_trick:
            return {TWO_OF_CLUBS} & hand
        non_hearts = {card for card in hand if card // 13 != HEARTS}
        if not broken and non_hearts:
            return non_hearts
        return set(hand)
    led = trick[0] // 13
    follow = {card for card in hand if card // 13 == led}
    if follow:
        return follow
    if first_trick:
        safe = hand - penalty_cards(rules)
        if safe:
            return safe
    return set(hand)


def reference_score(
    rules: Rules, taken: list[set[Card]], choice: str | None = None
) -> tuple[list[int], int | None]:
    penalty = penalty_cards(rules)
    shooter = next((seat for seat in range(4) if penalty <= taken[seat]), None)
    if shooter is None:
        return [sum(card_value(rules, card) for card in won) for won in taken], None
    moon = sum(card_value(rules, card) for card in penalty)
    bonus = [-10 if rules.jack_of_diamonds and JACK_OF_DIAMONDS in won else 0 for won in taken]
    style = rules.moon if rules.moon != "choice" else choice
    if style == "add":
        return [bonus[s] + (0 if s == shooter else moon) for s in range(4)], shooter
    return [bonus[s] - (moon if s == shooter else 0) for s in range(4)], shooter


def play_both(rules: Rules, deal: tuple[int, int, int, int], rng: random.Random) -> None:
    """Play a hand on HandState and on the reference side by side, comparing every step."""
    state = HandState(rules, deal)
    hands = [set(CardSet(holding)) for holding in deal]
    taken: list[set[Card]] = [set(), set(), set(), set()]
    seat = next(s for s in range(4) if TWO_OF_CLUBS in hands[s])
    broken = False
    breakers = {QUEEN_OF_SPADES} if rules.queen_breaks_hearts else set()
    for number in range(13):
        trick: list[Card] = []
        seats: list[int] = []
        for _ in range(4):
            assert state.turn == seat
            allowed = reference_legal(rules, hands[seat], trick, number == 0, broken)
            assert set(CardSet(state.legal_mask())) == allowed
            assert allowed, "a play is due but nothing is legal"
            for card in hands[seat]:
                if card in allowed:
                    state.check_play(card)
            refused = hands[seat] - allowed
            if refused:
                card = rng.choice(sorted(refused))
                try:
                    state.check_play(card)
                except ValueError:
                    pass
                else:
                    raise AssertionError(f"check_play allowed an illegal card {card}")
            card = rng.choice(sorted(allowed))
            result = state.play(card)
            hands[seat].remove(card)
            trick.append(card)
            seats.append(seat)
            if card // 13 == HEARTS or card in breakers:
                broken = True
            assert state.hearts_broken is broken
            seat = (seat + 1) % 4
            if len(trick) < 4:
                assert result == -1
        led = trick[0] // 13
        best = max(card for card in trick if card // 13 == led)
        winner = seats[trick.index(best)]
        assert result == winner
        taken[winner] |= set(trick)
        seat = winner
        assert state.tricks_played == number + 1
    assert state.is_over and state.legal_mask() == 0
    assert [set(CardSet(m)) for m in state.taken] == taken
    assert all(h == 0 for h in state.hands)
    choice = rng.choice(["add", "subtract"]) if rules.moon == "choice" else None
    points, shooter = reference_score(rules, taken, choice)
    assert rules.score_hand(state.taken, choice) == (tuple(points), shooter)


@examples(150)
@given(seed=seeds, rules=any_rules)
def test_legal_moves_agree_with_the_rule_book(seed: int, rules: Rules) -> None:
    rng = random.Random(seed)
    for _ in range(10):
        play_both(rules, random_deal(rng), rng)


def test_legal_moves_agree_with_the_rule_book_on_awkward_deals() -> None:
    # Deals by suit give voids, hands of only hearts and first tricks of only points.
    rng = random.Random(7)
    for _ in range(300):
        suits = [list(range(s * 13, s * 13 + 13)) for s in range(4)]
        deck = [card for suit in rng.sample(suits, 4) for card in suit]
        cut = rng.randrange(52)
        deck = deck[cut:] + deck[:cut]
        masks = [0, 0, 0, 0]
        for position, card in enumerate(deck):
            masks[position // 13] |= 1 << card
        rules = Rules(black_maria=rng.random() < 0.5, queen_breaks_hearts=rng.random() < 0.5)
        play_both(rules, (masks[0], masks[1], masks[2], masks[3]), rng)


# --- whole matches ------------------------------------------------------------------------------


def visible_to(view: SeatView) -> set[Card]:
    """Every card of the current hand a view mentions (results are of finished hands)."""
    cards: set[Card] = set()
    for value in (view.hand, view.dealt, view.pass_selection, view.passed, view.received):
        if value is not None:
            cards |= set(value)
    cards |= {card for _, card in view.plays}
    cards |= set(view.legal)
    return cards


def check_views(match: Match) -> None:
    """No view names a card another seat holds, unless its own pass put it there."""
    for seat in range(4):
        view = match.view(seat)
        known = visible_to(view)
        passed = set(view.passed or CardSet())
        for other in range(4):
            if other != seat:
                hidden = set(match.holding(other)) - passed
                assert not known & hidden, f"seat {seat} sees cards of seat {other}"
        assert view.hand == match.holding(seat)


def check_step(match: Match, events: list[Event], turn_before: int | None) -> None:
    state = match.play_state
    if match.phase is Phase.PLAYING:
        assert state is not None
        legal = match.legal_moves()
        assert legal, "a play is due but nothing is legal"
        assert set(legal) <= set(match.holding(state.turn))
    if state is not None:
        union = state.played_mask
        for holding in state.hands:
            assert not holding & union
            union |= holding
        assert union == (1 << 52) - 1
        plays = match.current.plays
        assert len(set(plays)) == len(plays) == state.played_mask.bit_count()
    for event in events:
        if isinstance(event, CardPlayed):
            assert event.seat == turn_before


def check_hand_scored(match: Match, result_events: list[Event]) -> None:
    rules = match.rules
    result = match.results[-1]
    plays = match.current.plays
    assert sorted(plays) == list(range(52)), "every card is played once"
    taken = [set(CardSet(m)) for m in result.taken]
    assert set().union(*taken) == set(range(52))
    points, shooter = reference_score(rules, taken, result.moon_choice)
    assert result.points == tuple(points) and result.shooter == shooter
    penalty_total = sum(card_value(rules, card) for card in penalty_cards(rules))
    if rules == STANDARD:
        assert sum(result.points) == 26 or sorted(result.points) == [0, 26, 26, 26]
    elif shooter is None:
        bonus = -10 if rules.jack_of_diamonds else 0
        assert sum(result.points) == penalty_total + bonus
    tricks = [e for e in result_events if isinstance(e, TrickWon)]
    assert sum(t.points for t in tricks) == sum(rules.hand_points_of_cards(m) for m in result.taken)
    moons = [e.seat for e in result_events if isinstance(e, MoonShot)]
    assert moons == ([] if shooter is None else [shooter])
    totals = match.totals
    assert totals == tuple(sum(r.points[s] for r in match.results) for s in range(4))
    over = max(totals) >= rules.target and totals.count(min(totals)) == 1
    assert (match.phase is Phase.MATCH_OVER) is over
    if over:
        assert match.winner == totals.index(min(totals))
        assert result_events[-1] == MatchWon(totals.index(min(totals)), totals)
    else:
        assert match.phase is Phase.HAND_OVER and match.winner is None


def run_match(rules: Rules, seed: int, with_views: bool) -> Match:
    rng = random.Random(seed)
    match = Match(rules, seed=seed)
    hand_events: list[Event] = []
    while match.phase is not Phase.MATCH_OVER:
        turn = match.turn
        phase = match.phase
        if phase is Phase.PASSING:
            seat = rng.choice(match.waiting_for())
            events = match.confirm_pass(seat, rng.sample(list(match.holding(seat)), 3))
            if events:
                assert events == [PassesExchanged(match.pass_direction)]
        elif phase is Phase.PLAYING:
            events = match.play(rng.choice(match.legal_moves()))
        elif phase is Phase.MOON_CHOICE:
            assert turn is not None and turn == match.moon_shooter
            events = match.choose_moon(turn, rng.choice(["add", "subtract"]))
        else:
            events = match.next_hand()
            hand_events = []
        hand_events += events
        check_step(match, events, turn)
        if with_views:
            check_views(match)
        if any(isinstance(e, HandScored) for e in events):
            check_hand_scored(match, hand_events)
        assert match.hand_number < 300
    return match


def test_thousands_of_random_standard_matches() -> None:
    for seed in range(1000):
        match = run_match(STANDARD, seed, with_views=seed < 20)
        assert match.winner is not None


@examples(150)
@given(seed=seeds, rules=house_rules)
def test_random_matches_under_house_rules(seed: int, rules: Rules) -> None:
    match = run_match(rules, seed, with_views=seed % 8 == 0)
    assert match.phase is Phase.MATCH_OVER


@examples(200)
@given(seed=seeds, rules=any_rules)
def test_views_never_show_another_seats_cards(seed: int, rules: Rules) -> None:
    match = random_prefix(rules, seed, stop=0.004, select=True, pending_selection=True)
    check_views(match)


# --- records -----------------------------------------------------------------------------------


@examples(400)
@given(seed=seeds, rules=any_rules)
def test_a_record_of_any_prefix_replays_to_the_same_state(seed: int, rules: Rules) -> None:
    match = random_prefix(rules, seed, stop=0.005)
    record = write_record(match)
    text = json.dumps(record)
    again = read_record(json.loads(text), seed=match.seed)
    assert same_state(again, match)
    assert again.rules == match.rules
    assert again.results == match.results
    assert write_record(again) == record
    # The same seed deals the same later hands.
    rng = random.Random(seed)
    for _ in range(60):
        if match.phase is Phase.MATCH_OVER:
            break
        state = rng.getstate()
        random_step(match, rng)
        rng.setstate(state)
        random_step(again, rng)
    assert same_state(again, match)


# --- HandState ---------------------------------------------------------------------------------


def snapshot(state: HandState) -> dict[str, object]:
    return {
        name: (value[:] if isinstance(value, list) else value)
        for name in HandState.__slots__
        for value in [getattr(state, name)]
    }


@examples(200)
@given(seed=seeds, plays=st.integers(0, 51), rules=any_rules)
def test_hand_state_copy_is_independent(seed: int, plays: int, rules: Rules) -> None:
    rng = random.Random(seed)
    state = HandState(rules, random_deal(rng))
    for _ in range(plays):
        state.play(random_card(state.legal_mask(), rng))
    before = snapshot(state)
    trial = state.copy()
    assert snapshot(trial) == before
    trial.play_random(random.Random(seed))
    assert trial.is_over
    assert snapshot(state) == before
    state.play_random(random.Random(seed))  # the same generator gives the same ending
    assert snapshot(state) == snapshot(trial)


@examples(200)
@given(seed=seeds, plays=st.integers(0, 51), rules=any_rules)
def test_play_random_is_legal_mask_and_play_written_out(
    seed: int, plays: int, rules: Rules
) -> None:
    rng = random.Random(seed)
    state = HandState(rules, random_deal(rng))
    for _ in range(plays):
        state.play(random_card(state.legal_mask(), rng))
    fast, slow = state.copy(), state.copy()
    fast.play_random(random.Random(seed + 1))
    slow_rng = random.Random(seed + 1)
    while not slow.is_over:
        slow.play(random_card(slow.legal_mask(), slow_rng))
    assert snapshot(fast) == snapshot(slow)


def test_unseen_cards() -> None:
    rng = random.Random(5)
    state = HandState(STANDARD, random_deal(rng))
    for _ in range(9):
        state.play(random_card(state.legal_mask(), rng))
    for seat in range(4):
        unseen = state.unseen_mask(seat)
        others = sum(state.hands[s] for s in range(4) if s != seat)
        assert unseen == others


# --- dealing ------------------------------------------------------------------------------------


GOLDEN_SEED_1_HAND_1 = [
    "4C 5C 8C TC JC AC 6D 4S 5S 9S 3H 7H 9H",
    "9C KC 8D TD JD QD KD AD JS KS 2H 4H JH",
    "3C 6C QC 3D 4D 7D 2S TS QS 8H TH QH AH",
    "2C 7C 2D 5D 9D 3S 6S 7S 8S AS 5H 6H KH",
]


def test_the_seeded_deal_is_pinned() -> None:
    assert [str(CardSet(m)) for m in seeded_deal(1, 1)] == GOLDEN_SEED_1_HAND_1
    assert [str(CardSet(m)) for m in Match(seed=1).current.deal] == GOLDEN_SEED_1_HAND_1


def test_the_shuffle_is_pinned() -> None:
    deck = shuffled_deck(random.Random(0))
    assert sorted(deck) == list(range(52))
    assert " ".join(card_text(card) for card in deck[:8]) == "3H JS AD 9H JH 6H 4D 5C"
    # Seat s is dealt every fourth card, from the first.
    seeded = shuffled_deck(hand_rng(1, 1))
    assert " ".join(card_text(card) for card in seeded[:8]) == "4C JS 8H 2D 3H KS 4D 8S"
    deal = seeded_deal(1, 1)
    for position, card in enumerate(seeded):
        assert deal[position % 4] >> card & 1


@examples(200)
@given(seed=seeds, hand=st.integers(1, 50))
def test_every_deal_is_four_hands_of_thirteen(seed: int, hand: int) -> None:
    deal = seeded_deal(seed, hand)
    assert all(m.bit_count() == 13 for m in deal)
    assert deal[0] | deal[1] | deal[2] | deal[3] == (1 << 52) - 1
    assert deal == seeded_deal(seed, hand)
    assert deal != seeded_deal(seed, hand + 1)


def test_seat_view_fields_are_all_checked() -> None:
    # visible_to must look at every field that holds cards; a new one must be added there.
    carded = {
        f.name
        for f in dataclasses.fields(SeatView)
        if "CardSet" in str(f.type) or "Trick" in str(f.type) or "HandResult" in str(f.type)
    }
    assert carded == {
        "hand",
        "dealt",
        "pass_selection",
        "passed",
        "received",
        "tricks",
        "legal",
        "results",
    }
