"""The coach: known positions get the right verdict and the right better card; the API's shape."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from coach_positions import (
    DUCK_WITH_THE_TWO,
    DUCK_WITH_THE_TWO_PLAYS,
    QUEEN_ON_ACE,
    QUEEN_ON_ACE_PLAYS,
    STOP_THE_MOON,
    STOP_THE_MOON_PLAYS,
    hand_record,
)

import hearts
from hearts import Budget, Match, Phase, RecordError, Rules, analyse, write_record
from hearts.bots import make_bot
from hearts.coach import HandInPlay, NoSuchHand
from hearts.coach.review import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    NOISE_Z,
    accuracy_of,
    verdict_for,
)
from hearts.suggest import NoSuchSeat
from helpers import MOON_BY_SOUTH, play_lowest

SMALL = Budget(samples=24, pass_samples=12)
"""Enough to exercise every path quickly; the known positions use the default budget."""

KNOWN = {
    # name: (holdings, plays before South's decision, trick, the mistake, the right card)
    "queen on the ace": (QUEEN_ON_ACE, QUEEN_ON_ACE_PLAYS, 2, "KS", "QS"),
    "stop the moon": (STOP_THE_MOON, STOP_THE_MOON_PLAYS, 11, "2H", "AH"),
    "duck with the two": (DUCK_WITH_THE_TWO, DUCK_WITH_THE_TWO_PLAYS, 3, "AD", "2D"),
}


def south_play(record: dict[str, Any], trick: int) -> hearts.DecisionReview:
    analysis = analyse(record, seat=0, hand=1)
    return next(d for d in analysis.decisions if d.kind == "play" and d.trick == trick)


@pytest.mark.parametrize("name", list(KNOWN))
def test_a_known_mistake_is_flagged_with_the_right_card(name: str) -> None:
    holdings, plays, trick, wrong, right = KNOWN[name]
    decision = south_play(hand_record(holdings, [*plays, wrong]), trick)
    assert decision.made == (wrong,)
    assert decision.best == (right,)
    assert decision.verdict in ("mistake", "blunder")
    assert decision.loss - NOISE_Z * decision.noise >= MISTAKE
    assert decision.option([right]).cost < decision.option([wrong]).cost


@pytest.mark.parametrize("name", list(KNOWN))
def test_the_right_card_in_a_known_position_is_fine(name: str) -> None:
    holdings, plays, trick, _, right = KNOWN[name]
    decision = south_play(hand_record(holdings, [*plays, right]), trick)
    assert decision.made == decision.best == (right,)
    assert decision.loss == 0.0
    assert decision.verdict == "fine"
    assert {option.choice[0] for option in decision.options} == set(decision.legal)


def test_stopping_the_moon_is_costed_in_points_too() -> None:
    holdings, plays, trick, wrong, right = KNOWN["stop the moon"]
    decision = south_play(hand_record(holdings, [*plays, wrong]), trick)
    # Every deal South thinks possible ends in East's moon when it ducks: 26 points.
    assert decision.option([wrong]).points == pytest.approx(26.0)
    assert decision.option([right]).points < 5


# --- the moon choice -----------------------------------------------------------------


def moon_record(style: str) -> dict[str, Any]:
    """South takes every trick; adding 26 to the others ends the match (target 20) with a win."""
    match = Match(Rules(target=20, moon="choice", passing="none"), seed=0, deal=MOON_BY_SOUTH)
    play_lowest(match)
    assert match.phase is Phase.MOON_CHOICE
    match.choose_moon(0, "add" if style == "add" else "subtract")
    return write_record(match)


def test_a_moon_choice_that_gives_up_the_win_is_a_blunder() -> None:
    analysis = analyse(moon_record("subtract"), seat=0, budget=SMALL)
    moon = analysis.decisions[-1]
    assert moon.kind == "moon"
    assert moon.made == ("subtract",) and moon.best == ("add",)
    assert moon.legal == ("add", "subtract")
    assert moon.verdict == "blunder" and moon.noise == 0.0 and moon.samples == 0
    assert moon.option(["add"]).points == 0.0 and moon.option(["subtract"]).points == -26.0


def test_the_winning_moon_choice_is_fine() -> None:
    moon = analyse(moon_record("add"), seat=0, budget=SMALL).decisions[-1]
    assert (moon.kind, moon.verdict, moon.loss) == ("moon", "fine", 0.0)


# --- the shape of an analysis --------------------------------------------------------


def bot_match(seed: int, hands: int, rules: Rules | None = None) -> Match:
    """A match between Normal bots, stopped after ``hands`` finished hands (or at its end)."""
    match = Match(rules, seed=seed)
    bot = make_bot("normal")
    rng = random.Random(seed)
    while True:
        while match.phase in (Phase.PASSING, Phase.PLAYING, Phase.MOON_CHOICE):
            seat = match.waiting_for()[0]
            decision = bot.decide(match.view(seat), rng)
            if decision.kind == "pass":
                match.confirm_pass(seat, decision.cards)
            elif decision.kind == "play":
                match.play(decision.cards[0], seat)
            else:
                match.choose_moon(seat, "add")
        if match.phase is Phase.MATCH_OVER or len(match.results) >= hands:
            return match
        match.next_hand()


@pytest.fixture(scope="module")
def two_hands() -> dict[str, Any]:
    return write_record(bot_match(seed=11, hands=2))


def test_every_decision_of_a_hand_is_reviewed(two_hands: dict[str, Any]) -> None:
    analysis = analyse(two_hands, seat=1, hand=2, budget=SMALL)
    assert analysis.seat == 1 and analysis.player == "Robin"
    [hand] = analysis.hands
    assert hand.hand == 2
    kinds = [decision.kind for decision in hand.decisions]
    assert kinds == ["pass"] + ["play"] * 13
    assert [d.trick for d in hand.decisions[1:]] == list(range(1, 14))
    match = hearts.read_record(two_hands)
    assert hand.points == match.results[1].points[1]
    passed = hand.decisions[0]
    assert len(passed.made) == 3 and len(passed.legal) == 13
    assert passed.option(passed.made) in passed.options
    for decision in hand.decisions:
        costs = [option.cost for option in decision.options]
        assert costs == sorted(costs)
        if decision.forced:
            assert len(decision.legal) == 1 and decision.loss == 0.0 and not decision.options
        else:
            made = decision.option(decision.made)
            best = decision.option(decision.best)
            assert decision.loss == pytest.approx(made.cost - best.cost)
            assert decision.verdict == verdict_for(decision.loss, decision.noise)
    unforced = [d for d in hand.decisions if not d.forced]
    assert hand.average_loss == pytest.approx(sum(d.loss for d in unforced) / len(unforced))
    assert hand.accuracy == pytest.approx(sum(d.accuracy for d in unforced) / len(unforced))
    assert sum(hand.verdicts().values()) == len(unforced)


def test_a_hand_is_reviewed_alike_alone_or_with_the_match(two_hands: dict[str, Any]) -> None:
    whole = analyse(two_hands, seat=2, budget=SMALL)
    assert [hand.hand for hand in whole.hands] == [1, 2]
    alone = analyse(two_hands, seat=2, hand=2, budget=SMALL)
    assert alone.hands == whole.hands[1:]
    again = analyse(two_hands, seat=2, hand=2, budget=SMALL)
    assert again == alone


def test_the_seed_changes_the_samples_not_the_decisions(two_hands: dict[str, Any]) -> None:
    one = analyse(two_hands, seat=0, hand=1, seed=1, budget=SMALL)
    two = analyse(two_hands, seat=0, hand=1, seed=2, budget=SMALL)
    assert [d.made for d in one.decisions] == [d.made for d in two.decisions]
    assert one.seed == 1 and two.seed == 2
    assert [d.options for d in one.decisions] != [d.options for d in two.decisions]


def test_the_json_form_is_plain_data(two_hands: dict[str, Any]) -> None:
    analysis = analyse(two_hands, seat=3, hand=1, budget=SMALL)
    data = json.loads(json.dumps(analysis.to_json()))
    assert data["seat"] == 3 and data["cost_terms"] == "match"
    decision = next(d for d in data["hands"][0]["decisions"] if not d["forced"])
    assert set(decision) >= {"kind", "made", "legal", "options", "best", "loss", "verdict"}
    assert decision["options"][0]["choice"] == decision["best"] or decision["loss"] == 0
    assert data["hands"][0]["verdicts"] == analysis.hands[0].verdicts()


def test_a_hold_hand_has_no_pass_to_review() -> None:
    record = write_record(bot_match(seed=3, hands=1, rules=Rules(passing="none")))
    analysis = analyse(record, seat=0, budget=SMALL)
    assert [d.kind for d in analysis.decisions] == ["play"] * 13


# --- refusals ------------------------------------------------------------------------


def test_a_hand_in_play_is_refused(two_hands: dict[str, Any]) -> None:
    match = hearts.read_record(two_hands)
    match.next_hand()
    in_pass = write_record(match)
    with pytest.raises(HandInPlay, match="hand 3 is still being played"):
        analyse(in_pass, seat=0, hand=3)
    # Without a hand number only the finished hands are reviewed.
    assert [hand.hand for hand in analyse(in_pass, seat=0, budget=SMALL).hands] == [1, 2]


def test_a_hand_half_played_is_refused() -> None:
    match = Match(Rules(passing="none"), seed=4)
    for _ in range(9):
        match.play(match.legal_moves()[0])
    with pytest.raises(HandInPlay):
        analyse(write_record(match), seat=0, hand=1)
    assert analyse(write_record(match), seat=0).hands == ()


@pytest.mark.parametrize("hand", [0, 3, -1, True, "1"])
def test_no_such_hand(two_hands: dict[str, Any], hand: Any) -> None:
    with pytest.raises(NoSuchHand):
        analyse(two_hands, seat=0, hand=hand)


@pytest.mark.parametrize("seat", [4, -1, True, "0"])
def test_no_such_seat(two_hands: dict[str, Any], seat: Any) -> None:
    with pytest.raises(NoSuchSeat):
        analyse(two_hands, seat=seat)


def test_an_invalid_record_is_refused_with_the_checkers_reason() -> None:
    with pytest.raises(RecordError, match="format"):
        analyse({"hands": []}, seat=0)


def test_a_budget_too_small_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 2 samples"):
        Budget(samples=1)


# --- verdicts and accuracy -----------------------------------------------------------


def test_verdicts_grade_the_loss_once_the_noise_is_taken_off() -> None:
    assert verdict_for(0.0, 0.0) == "fine"
    assert verdict_for(INACCURACY, 0.0) == "inaccuracy"
    assert verdict_for(MISTAKE, 0.0) == "mistake"
    assert verdict_for(BLUNDER, 0.0) == "blunder"
    assert verdict_for(MISTAKE + 0.1, 0.1) == "inaccuracy"  # within two standard errors
    assert verdict_for(BLUNDER + 2 * NOISE_Z, 1.0) == "blunder"


def test_accuracy_falls_with_the_loss() -> None:
    assert accuracy_of(0.0) == 100.0
    assert 70 < accuracy_of(1.0) < 80
    assert accuracy_of(3.0) > accuracy_of(8.0) > 0


# --- the moon, searched as the Expert searches it ---------------------------------------


def moon_positions(count: int) -> list[hearts.SeatView]:
    """Play positions of Normal matches in which an opponent has won every penalty card."""
    from hearts.bots import moon

    bot = make_bot("normal")
    found: list[hearts.SeatView] = []
    for seed in range(5, 40):
        match = Match(seed=seed)
        rng = random.Random(seed)
        for seat in range(4):
            match.confirm_pass(seat, bot.decide(match.view(seat), rng).cards)
        while match.phase is Phase.PLAYING:
            turn = match.turn
            assert turn is not None
            view = match.view(turn)
            suspect, share = moon.suspicion(view, table=True, points=8, share=0.5, tell=False)
            if suspect is not None and share > 0 and len(view.legal) > 1:
                found.append(view)
                if len(found) == count:
                    return found
            match.play(bot.decide(view, rng).cards[0], turn)
    return found


def per_sample_costs(view: hearts.SeatView, budget: Budget) -> list[tuple[float, ...]]:
    from hearts.coach.estimate import PlaySampler

    sampler = PlaySampler(view, budget)
    sampler.extend(budget.samples, random.Random(1))
    return [option.per_sample for option in sampler.estimate(list(view.legal)).options]


def test_where_a_moon_is_feared_the_next_choice_is_searched() -> None:
    # In the deals where the suspect shoots, the seat's next card is the cheapest of its
    # cards there, not the rule of thumb's: a cost can only go down, and it does somewhere.
    lowered = 0
    for view in moon_positions(6):
        searched = per_sample_costs(view, Budget(samples=24))
        plain = per_sample_costs(view, Budget(samples=24, moon_lookahead=0))
        for costs, before in zip(searched, plain, strict=True):
            assert all(a <= b + 1e-9 for a, b in zip(costs, before, strict=True))
            lowered += sum(a < b - 1e-9 for a, b in zip(costs, before, strict=True))
    assert lowered > 0


def test_without_a_moon_feared_nothing_is_searched() -> None:
    # Early in a hand nobody has won a penalty card: the costs are the rule of thumb's.
    match = Match(seed=3)
    bot = make_bot("normal")
    rng = random.Random(0)
    for seat in range(4):
        match.confirm_pass(seat, bot.decide(match.view(seat), rng).cards)
    choices = []
    while len(choices) < 3:
        turn = match.turn
        assert turn is not None
        view = match.view(turn)
        if len(view.legal) > 1:
            choices.append(view)
        match.play(bot.decide(view, rng).cards[0], turn)
    for view in choices:
        searched = per_sample_costs(view, Budget(samples=24))
        assert searched == per_sample_costs(view, Budget(samples=24, moon_lookahead=0))


def test_a_negative_moon_lookahead_is_refused() -> None:
    with pytest.raises(ValueError, match="moon_lookahead"):
        Budget(moon_lookahead=-1)
