"""The bots below Expert: always legal, reproducible, picklable, and Normal's tactics."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hearts.bots.base import Bot
from hearts.bots.easy import BeginnerBot, EasyBot, RandomBot
from hearts.bots.normal import NormalBot
from hearts.cards import SPADES, CardSet, card_text
from hearts.match import Match, Phase
from hearts.rules import Rules
from hearts.view import SeatView
from helpers import (
    STANDARD,
    c,
    examples,
    house_rules,
    make_deal,
    match_after_pass,
    random_prefix,
    seeds,
    texts,
)

BOTS: tuple[Bot, ...] = (RandomBot(), BeginnerBot(), EasyBot(), NormalBot())
any_rules = st.one_of(st.just(STANDARD), house_rules)


def decision_views(match: Match) -> list[SeatView]:
    """The views of every seat that owes a pass or a play now."""
    if match.phase in (Phase.PASSING, Phase.PLAYING):
        return [match.view(seat) for seat in match.waiting_for()]
    return []


def apply(match: Match, seat: int, cards: tuple[int, ...]) -> None:
    if match.phase is Phase.PASSING:
        match.confirm_pass(seat, cards)
    else:
        match.play(cards[0], seat)


def lowest_by_rank(cards: CardSet) -> int:
    return min(cards, key=lambda card: (card % 13, card // 13))


# --- every level: legal, reproducible, picklable ------------------------------------------


@pytest.mark.parametrize("bot", BOTS, ids=lambda bot: bot.level)
def test_whole_matches_are_legal(bot: Bot) -> None:
    """The match accepts every decision; the other seats are the other levels."""
    for seed in range(6):
        rules = Rules(target=40) if seed % 2 else STANDARD
        match = Match(rules, seed=seed)
        seats = [bot, *(other for other in BOTS if other is not bot)]
        seats = seats[seed % 4 :] + seats[: seed % 4]
        rng = random.Random(seed)
        while match.phase is not Phase.MATCH_OVER:
            if match.phase is Phase.HAND_OVER:
                match.next_hand()
                continue
            for view in decision_views(match) or [match.view(match.turn or 0)]:
                decision = seats[view.seat].decide(view, rng)
                if decision.kind == "moon":
                    match.choose_moon(view.seat, decision.moon or "add")
                else:
                    apply(match, view.seat, decision.cards)


@given(rules=any_rules, seed=seeds)
@examples(150)
def test_decisions_are_legal_in_random_positions(rules: Rules, seed: int) -> None:
    match = random_prefix(rules, seed, stop=0.03)
    for view in decision_views(match):
        for bot in BOTS:
            rng = random.Random(seed)
            if view.phase is Phase.PASSING:
                cards = bot.choose_pass(view, rng)
                assert len(set(cards)) == 3
                assert all(card in view.hand for card in cards)
            else:
                assert bot.choose_play(view, rng) in view.legal
            trial = match.copy()
            apply(trial, view.seat, bot.decide(view, random.Random(seed)).cards)


@given(rules=any_rules, seed=seeds)
@examples(60)
def test_same_view_and_seed_same_decision(rules: Rules, seed: int) -> None:
    match = random_prefix(rules, seed, stop=0.03)
    for view in decision_views(match):
        for bot in BOTS:
            first = bot.decide(view, random.Random(seed))
            again = pickle.loads(pickle.dumps(bot)).decide(view, random.Random(seed))
            assert first == again


@pytest.mark.parametrize(
    "bot",
    [*BOTS, EasyBot(high_follow=0.9, careful_pass=0.0), NormalBot(moon_alarm=20)],
    ids=lambda bot: repr(bot),
)
def test_bots_pickle(bot: Bot) -> None:
    copy = pickle.loads(pickle.dumps(bot))
    assert copy == bot
    assert type(copy) is type(bot)
    assert copy.level == bot.level


def test_levels() -> None:
    assert [bot.level for bot in BOTS] == ["random", "beginner", "easy", "normal"]


# --- the beginner: always the lowest card ------------------------------------------------


@given(rules=any_rules, seed=seeds)
@examples(100)
def test_beginner_plays_its_lowest_legal_card(rules: Rules, seed: int) -> None:
    match = random_prefix(rules, seed, stop=0.03)
    for view in decision_views(match):
        if view.phase is Phase.PLAYING:
            assert BeginnerBot().choose_play(view, random.Random(seed)) == lowest_by_rank(
                view.legal
            )


def test_beginner_breaks_rank_ties_by_suit_order() -> None:
    # West holds every club; North, void, may throw 3D or 3S (not 3H on the first trick).
    deal = make_deal(
        "",
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "3H 3S 3D AD KD QD JD AS KS JS TS 9S 8S",
        "",
    )
    match = match_after_pass(deal)
    match.play(c("2C"))
    assert card_text(BeginnerBot().choose_play(match.view(2), random.Random(0))) == "3D"
    match.play(c("3D"))
    match.play(match.legal_moves()[0])
    match.play(match.legal_moves()[0])
    match.play(c("3C"))
    # Now hearts may fall too; the three of spades still comes before the three of hearts.
    assert card_text(BeginnerBot().choose_play(match.view(2), random.Random(0))) == "3S"


def test_beginner_passes_its_three_highest() -> None:
    deal = make_deal("AS KH KD 2C 3C 4C 5C 6C 7C 8C 9C 2D 3D", "", "", "")
    view = Match(seed=0, deal=deal).view(0)
    assert texts(BeginnerBot().choose_pass(view, random.Random(0))) == "KD AS KH"


def play_texts_match(match: Match, text: str) -> None:
    for part in text.split():
        match.play(c(part))


# --- Normal's tactics ----------------------------------------------------------------------

# Both deals below: West leads 2C, South wins trick 1 with the ace of clubs.
QUEEN_VOID = (
    "AC AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D",
    "2C 2D 4S 5S 6S 7S 8S 9S TS JS KS AS 2H",
    "3C 5C 6C 7C 8C 9C QS 2S 3S 3H 4H 5H 6H",
    "4C TC JC QC KC 7H 8H 9H TH JH QH KH AH",
)
QUEEN_UNDER_ACE = (
    "AC 2S 5S 6S AD KD QD JD TD 9D 8D 7D 6D",
    "2C AS KS JS TS 9S 8S 7S 5D 4D 3D 2D 2H",
    "3C 5C 6C 7C 8C 9C QS 3S 4S 3H 4H 5H 6H",
    "4C TC JC QC KC 7H 8H 9H TH JH QH KH AH",
)


def position(seats: tuple[str, str, str, str], plays: str) -> SeatView:
    """North's view after ``plays`` from these holdings (after the pass)."""
    match = match_after_pass(make_deal(*seats))
    play_texts_match(match, plays)
    assert match.turn == 2
    return match.view(2)


def normal_play(view: SeatView, bot: NormalBot | None = None) -> str:
    return card_text((bot or NormalBot()).choose_play(view, random.Random(0)))


def test_normal_dumps_the_queen_when_void() -> None:
    # South leads the ace of diamonds; North has no diamond.
    view = position(QUEEN_VOID, "2C 3C 4C AC AD 2D")
    assert normal_play(view) == "QS"


def test_normal_drops_the_queen_under_the_ace_of_spades() -> None:
    view = position(QUEEN_UNDER_ACE, "2C 3C 4C AC 2S AS")
    assert normal_play(view) == "QS"


def test_normal_ducks_under_the_winner() -> None:
    seats = (
        "AC TD AD QD 8D 7D 6D 5D 2S 5S 6S 7S 8S",
        "2C 2D 3D AS KS JS TS 9S 2H 7H 8H 9H TH",
        "3C 5C 6C 7C 4D 9D JD KD QS 3S 4S 3H 4H",
        "4C 8C 9C TC JC QC KC 5H 6H JH QH KH AH",
    )
    view = position(seats, "2C 3C 4C AC TD 2D")
    assert normal_play(view) == "9D"  # the highest diamond under the ten


def test_normal_passes_the_dangerous_spades_when_short() -> None:
    deal = make_deal("QS KS AS 2S 2C 3C 4C 2D 3D 4D 2H 3H 4H", "", "", "")
    view = Match(seed=0, deal=deal).view(0)
    assert texts(NormalBot().choose_pass(view, random.Random(0))) == "QS KS AS"


def test_normal_keeps_a_well_guarded_queen() -> None:
    deal = make_deal("QS 2S 3S 4S 5S AC KC QC AD KD 2H 3H 4H", "", "", "")
    view = Match(seed=0, deal=deal).view(0)
    passed = NormalBot().choose_pass(view, random.Random(0))
    assert c("QS") not in passed
    assert texts(passed) == "AC KD AD"  # the ace of clubs, and a void in diamonds


def test_normal_passes_high_hearts_before_middling_cards() -> None:
    deal = make_deal("AH KH 2S 3S 4S 5S 9C TC 9D TD 2H 3H 4H", "", "", "")
    view = Match(seed=0, deal=deal).view(0)
    passed = NormalBot().choose_pass(view, random.Random(0))
    assert {c("AH"), c("KH")} <= set(passed)


def test_normal_does_not_lead_spades_holding_the_queen() -> None:
    seats = (
        "3C 4C 5C 6C 7C 8C 9C TC JC QC 2D 3D 4D",
        "2C 5D 6D 7D 8D 9D TD JD QD 4S 5S 6S 7S",
        "AC KC AD KD QS 2S 3S 2H 3H 4H 5H 6H 7H",
        "8S 9S TS JS KS AS 8H 9H TH JH QH KH AH",
    )
    match = match_after_pass(make_deal(*seats))
    play_texts_match(match, "2C AC 8S 3C")
    view = match.view(2)
    assert view.turn == 2
    # The other options are sure winners, and still better than offering the queen's suit.
    assert NormalBot().choose_play(view, random.Random(0)) // 13 != SPADES


def test_normal_takes_a_heart_to_stop_a_moon() -> None:
    seats = (
        "2C 5C 6C 7C 8C 9C 2D 3D 4D 2S 3S 4S 5S",
        "AC TC JC QC KC AD KD QD JD TD 9D 8D 9H",
        "3C 5D 6D 7D 6S 7S 8S 9S TS JS KS 4H AH",
        "4C QS AS 2H 3H 5H 6H 7H 8H TH JH QH KH",
    )
    # West wins every trick; East drops the queen and two hearts on them: 15 points, all West's.
    view = position(seats, "2C AC 3C 4C AD 5D QS 2D KD 6D 2H 3D QD 7D 3H 4D 9H")
    assert view.points_taken == (0, 15, 0, 0)
    assert normal_play(view) == "AH"
    # Without the alarm it ducks, as usual.
    assert normal_play(view, NormalBot(moon_alarm=16)) == "4H"


def test_normal_keeps_its_hearts_off_the_shooters_trick() -> None:
    seats = (
        "2C 5C 6C 7C 8C 9C 2D 3D 4D 2S 3S 4S 5S",
        "AC TC JC QC KC AD KD QD JD TD 9D 8D 7D",
        "3C 5D 6D AH 6S 7S 8S 9S TS JS KS 4H 9H",
        "4C QS AS 2H 3H 5H 6H 7H 8H TH JH QH KH",
    )
    # North runs out of diamonds while West, alone on 15 points, leads them.
    view = position(seats, "2C AC 3C 4C AD 5D QS 2D KD 6D 2H 3D QD 6S 3H 4D JD")
    assert view.points_taken == (0, 15, 0, 0)
    assert normal_play(view) not in ("4H", "9H", "AH")


def test_normal_self_play_scores_every_hand() -> None:
    for seed in range(20):
        match = Match(seed=seed)
        rng = random.Random(seed)
        bot = NormalBot()
        while match.phase not in (Phase.HAND_OVER, Phase.MATCH_OVER):
            for view in decision_views(match):
                apply(match, view.seat, bot.decide(view, rng).cards)
        assert sum(match.results[-1].points) in (26, 78)
