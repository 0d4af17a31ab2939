"""The Expert in known positions: what a strong player does there."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from hearts.bots import expert as expert_module
from hearts.bots import moon, passing, playmodel, policy
from hearts.bots.base import Decision
from hearts.bots.equivalence import distinct_cards, distinct_in_deal
from hearts.bots.expert import ExpertBot
from hearts.bots.finish import Finisher, own_cost
from hearts.bots.matchcost import MatchCost
from hearts.bots.normal import NormalBot
from hearts.bots.search import TIE_MARGIN, Search, resample
from hearts.cards import card_text, cards_in
from hearts.hand import HandState
from hearts.match import Match, Phase
from hearts.rules import PassDirection, Rules
from hearts.view import SeatView
from helpers import STANDARD, c, cs, make_deal, mask, texts

NO_PASS = Rules(passing="none")
"""Positions start at trick 1 without the pass getting in the way."""


def position(deal: tuple[int, int, int, int], plays: str, rules: Rules = NO_PASS) -> Match:
    match = Match(rules, seed=0, deal=deal)
    for card in plays.split():
        match.play(c(card))
    return match


def expert_play(match: Match, seat: int = 0, seed: int = 0) -> str:
    assert match.turn == seat
    decision = ExpertBot().decide(match.view(seat), random.Random(seed))
    assert decision.kind == "play"
    return texts(decision.cards)


def test_drops_the_queen_under_the_ace_of_spades() -> None:
    deal = make_deal(
        "QS 2S 3S 4C 5C 2D 3D 4D 5D 6D 7D 8D 9D",
        "AC AS KS",
        "2C 5S",
        "3C 6S",
    )
    # North leads 2C, West wins with the ace and leads the ace of spades.
    match = position(deal, "2C 3C 4C AC AS 5S 6S")
    assert expert_play(match) == "QS"


def test_discards_the_queen_when_void() -> None:
    deal = make_deal(
        "QS 2S 3S 4S 2H 3H 4H 5H 6H 7H 3C 4C 5C",
        "AC AD KD QD JD",
        "2C TD 9D",
        "6C 8D 7D",
    )
    # West wins the first trick and leads the ace of diamonds; South has none.
    match = position(deal, "2C 6C 3C AC AD 9D 7D")
    assert expert_play(match) == "QS"


def moon_running() -> SeatView:
    """North's view (seat 0): West (seat 1) has won every trick, the queen with them, and
    leads the jack of diamonds; East, void, drops a heart on it."""
    deal = make_deal(
        "AD 2D 3D 4D 5D 6D 2S 3S 4S 5S 6H 7H 8H",
        "QS AS KS AC KC QC JD AH KH QH JH TH 9H",
        "8C 9C TC JC 6S 7S 8S 7D 8D 9D TD QD KD",
        "2C 3C 4C 5C 6C 7C 9S TS JS 2H 3H 4H 5H",
    )
    plays = "2C 2D AC 8C AS 6S 9S 2S KS 7S TS 3S QS 8S JS 4S KC 9C 3C 3D QC TC 4C 4D JD 7D 2H"
    return position(deal, plays).view(0)


@pytest.mark.parametrize(
    "settings",
    [
        {},
        {"moon_by_weight": True},
        {"moon_evidence": 1, "moon_scale": 1.4},
        {"moon_evidence": -1, "moon_scale": 1.4},
        {"moon_fit": 4.0},
    ],
)
def test_takes_a_point_to_stop_a_moon(settings: dict[str, Any]) -> None:
    view = moon_running()
    assert view.points_taken == (0, 13, 0, 0)
    # Ducking lets West run six top hearts for the moon; the ace costs one point.
    decision = ExpertBot(**settings).decide(view, random.Random(0))
    assert texts(decision.cards) == "AD"


def test_placed_by_weight_a_suspect_shoots_in_the_tables_share_of_the_weight() -> None:
    rng = random.Random(3)
    # Counts of a resampled round: a few deals drawn many times, most once.
    weights = [float(rng.choice((1, 1, 1, 2, 5))) for _ in range(90)]
    total = sum(weights)
    by_place = moon.moon_places(weights, 150, 0, False)
    by_weight = moon.moon_places(weights, 150, 0, True)
    assert by_place == [(index + 0.5) / 150 for index in range(90)]
    assert by_weight == sorted(by_weight) and by_weight[0] > 0 and by_weight[-1] < 1
    for share in (0.1, 0.25, 0.4, 0.75):
        placed = sum(w for p, w in zip(by_place, weights, strict=True) if p < share) / total
        weighed = sum(w for p, w in zip(by_weight, weights, strict=True) if p < share) / total
        # By place, 90 deals of 150 hold more than their share; by weight, the share exactly
        # (to within the deal astride it).
        assert placed > share + 0.05
        assert abs(weighed - share) <= max(weights) / total
    # Later rounds are interleaved either way.
    assert moon.moon_places(weights[:5], 150, 150, True) == [
        (index * 0.618034) % 1.0 for index in range(150, 155)
    ]


def test_by_their_odds_the_deals_that_fit_a_moon_best_shoot_first() -> None:
    weights = [1.0, 3.0, 1.0, 2.0, 1.0, 2.0]
    odds = [0.0, -1.5, 2.0, 0.0, 4.0, -1.5]
    places = moon.moon_places(weights, 150, 0, False, odds)
    # Highest odds first (ties in their order), each deal at the middle of its weight.
    order = sorted(range(6), key=lambda deal: places[deal])
    assert order == [4, 2, 0, 3, 1, 5]
    assert places[4] == pytest.approx(0.5 / 10) and places[2] == pytest.approx(1.5 / 10)
    assert places[5] == pytest.approx(9 / 10)
    # A suspect at a share of 0.2 shoots in the two deals that fit a moon best.
    assert [deal for deal in range(6) if places[deal] < 0.2] == [2, 4]
    # Later rounds are placed the same way, by their own weight.
    assert moon.moon_places(weights, 150, 150, False, odds) == places


def test_fitted_the_deals_where_a_moon_comes_off_hold_the_tables_share() -> None:
    weights = [3.0, 1.0, 2.0, 1.0, 1.0, 2.0]
    comes_off = [False, True, False, False, True, False]  # 2 of 10 of the weight
    fitted = moon.fit_moon(weights, comes_off, 0.4, 4.0)
    assert fitted is not None and sum(fitted) == pytest.approx(10.0)
    off = sum(w for w, fits in zip(fitted, comes_off, strict=True) if fits)
    assert off == pytest.approx(4.0)
    # Each side keeps its own proportions.
    assert fitted[1] == fitted[4] and fitted[0] / fitted[3] == pytest.approx(3.0)
    # A share above what the deals can carry is capped at ``most`` times theirs.
    capped = moon.fit_moon(weights, comes_off, 0.9, 2.0)
    assert capped is not None
    assert sum(w for w, fits in zip(capped, comes_off, strict=True) if fits) == pytest.approx(4.0)
    # More deals where it comes off than the share: they weigh less.
    lowered = moon.fit_moon(weights, comes_off, 0.1, 4.0)
    assert lowered is not None
    assert sum(w for w, fits in zip(lowered, comes_off, strict=True) if fits) == pytest.approx(1.0)
    # Nothing to fit where the moon comes off in none of the deals, or in all of them.
    assert moon.fit_moon(weights, [False] * 6, 0.4, 4.0) is None
    assert moon.fit_moon(weights, [True] * 6, 0.4, 4.0) is None


def test_fitted_the_suspect_shoots_where_its_moon_comes_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = moon_running()
    bot = ExpertBot(samples=40, pool=120, moon_fit=4.0, moon_lookahead=0)
    suspect, share = bot.suspicion(view)
    assert suspect == 1 and share > 0
    comes_off: list[bool] = []  # by deal, as the moon check answered
    played: list[bool] = []  # by playout, whether West shot in it
    real_finish = expert_module.Finisher.finish

    def hands(template: Any, world: Any, seat: int, rules: Any, among: int) -> int:
        # Told that the moon comes off in every third deal (the real check never finds
        # it in this position: North's ace of diamonds stops it).
        assert (seat, among) == (0, 1 << suspect)
        comes_off.append(len(comes_off) % 3 == 0)
        return among if comes_off[-1] else 0

    def finish(self: Any, state: Any, modes: Any, *args: Any, **kwargs: Any) -> Any:
        played.append(modes[1] == expert_module.policy.SHOOT)
        return real_finish(self, state, modes, *args, **kwargs)

    monkeypatch.setattr(expert_module.moon, "moon_hands", hands)
    monkeypatch.setattr(expert_module.Finisher, "finish", finish)
    bot.weigh_plays(view, random.Random(1))
    assert len(comes_off) > 3
    # Every card is scored in every deal (in each of our modes): the suspect shoots in
    # exactly the deals where its moon came off.
    per_deal = len(played) // len(comes_off)
    assert len(played) == per_deal * len(comes_off)
    assert played == [off for off in comes_off for _ in range(per_deal)]


def aces_led() -> SeatView:
    """East's view (seat 1) after three tricks: East led 2C; North (seat 0) won, then led
    its aces as a shooter does, not its lowest card as a player keeping out of points
    would, and took the queen; South (seat 2) played under them whatever it held."""
    deal = make_deal(
        "AC KC QC JC AD KD QD JD AS KS AH KH QH",
        "2C 3C 4C 5C 2D 3D 4D 5D 2S 3S 4S 5S 2H",
        "6C 7C 8C 9C 6D 7D 8D 9D 6S 7S 8S 9S 3H",
        "TC TD TS JS QS 4H 5H 6H 7H 8H 9H TH JH",
    )
    return position(deal, "2C 6C TC AC AS 2S 6S QS AD 2D 6D TD").view(1)


def test_a_seat_leading_its_aces_fits_a_moon_better_than_one_ducking() -> None:
    view = aces_led()
    knowledge = expert_module.Knowledge.from_view(view)
    rng = random.Random(0)
    for _ in range(20):
        world = expert_module.sample_hidden(knowledge, rng)
        assert world is not None
        evidence = ExpertBot(play_noise=0.5).evidence(view, world)
        north = evidence.shoot_odds(world, 0)
        assert north > 0
        assert evidence.shoot_odds(world, 2) < north
        # Worked out again from the cache, the same.
        assert evidence.shoot_odds(world, 0) == north
    # Our own plays are not evidence: they give no odds either way.
    assert ExpertBot().evidence(view, world).shoot_odds(world, 1) == 0.0


def test_shoots_the_moon_with_a_hand_of_winners() -> None:
    deal = make_deal(
        "AH KH QH JH TH 9H 8H 7H AS KS QS AC AD",
        "",
        "",
        "",
    )
    match = Match(NO_PASS, seed=0, deal=deal)
    bots = [ExpertBot(), NormalBot(), NormalBot(), NormalBot()]
    rng = random.Random(3)
    while match.phase is Phase.PLAYING:
        seat = match.turn
        assert seat is not None
        match.play(bots[seat].decide(match.view(seat), rng).cards[0])
    result = match.results[-1]
    assert result.shooter == 0
    assert result.points == (0, 26, 26, 26)


def test_passes_the_queen_when_short_in_spades() -> None:
    deal = make_deal(
        "QS 3S AH KH 4H 2C 5C 8C 3D 6D 9D JD 7C",
        "",
        "",
        "",
    )
    match = Match(seed=0, deal=deal)
    decision = ExpertBot().decide(match.view(0), random.Random(0))
    assert decision.kind == "pass"
    assert c("QS") in decision.cards


def test_with_the_wide_pass_the_search_weighs_emptying_a_short_suit() -> None:
    deal = make_deal("QS 3S AH KH 4H 2C 5C 8C 3D 9D JD 7C TS", "", "", "")
    view = Match(seed=0, deal=deal).view(0)
    small = ExpertBot(pass_samples=8, pass_rounds=1, pass_wide=False)
    plain = small.weigh_passes(view, random.Random(0))
    wide = dataclasses.replace(small, pass_wide=True).weigh_passes(view, random.Random(0))
    diamonds = tuple(sorted(cs("3D 9D JD")))
    assert diamonds not in plain.options
    assert diamonds in wide.options
    assert len(wide.options) == len(policy.wide_pass_candidates(view.hand.mask))
    # The usual sets are scored on the same deals either way.
    assert wide.costs[: len(plain.costs)] == plain.costs


def test_with_the_moon_pass_the_search_weighs_passing_low_cards() -> None:
    deal = make_deal("AH KH QH 2H 3H AS KS QS 4S 2C 7C 5D AD", "", "", "")
    view = Match(seed=0, deal=deal).view(0)
    small = ExpertBot(pass_samples=8, pass_rounds=1)
    wide = small.weigh_passes(view, random.Random(0))
    moon = dataclasses.replace(small, pass_moon=True).weigh_passes(view, random.Random(0))
    low_hearts = tuple(sorted(cs("2H 3H QH")))
    assert low_hearts not in wide.options
    assert low_hearts in moon.options
    assert moon.options[: len(wide.options)] == wide.options
    assert moon.costs[: len(wide.costs)] == wide.costs


def test_points_to_the_leader_count_for_more() -> None:
    match = Match(seed=0)
    view = match.view(0)
    scorer = MatchCost.for_view(view)
    assert scorer.weights == (0.0, 1 / 3, 1 / 3, 1 / 3)
    # Late in a match the opponent with the lowest total is the threat.
    threat = MatchCost.for_view(_with_totals(view, (60, 30, 70, 80)))
    assert threat.weights[1] > threat.weights[2] > threat.weights[3]
    # The queen on the leader is better for us than the queen on the last seat.
    queen = 1 << c("QS")
    on_leader = threat.cost([0, queen, 0, 0])
    on_last = threat.cost([0, 0, 0, queen])
    assert on_leader < on_last


def test_a_finish_that_wins_the_match_beats_any_points() -> None:
    view = _with_totals(Match(seed=0).view(0), (80, 95, 99, 90))
    scorer = MatchCost.for_view(view)
    hearts = sum(1 << c(f"{rank}H") for rank in "23456789TJQKA")
    # North reaching 100+ while we stay lowest ends the match in our favour...
    win = scorer.cost([1 << c("2H"), 0, hearts & ~(1 << c("2H")), 0])
    # ...while East shooting the moon puts East lowest, over the target.
    lose = scorer.cost([0, 0, 0, hearts | 1 << c("QS")])
    assert win < 0 < lose


def test_decisions_are_legal_and_repeatable() -> None:
    match = Match(seed=11)
    bots = [ExpertBot(samples=8, pass_samples=4)] * 4
    for seat in range(4):
        decision = bots[seat].decide(match.view(seat), random.Random(seat))
        again = bots[seat].decide(match.view(seat), random.Random(seat))
        assert decision == again
        match.confirm_pass(seat, list(decision.cards))
    while match.phase is Phase.PLAYING:
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        decision = bots[seat].decide(view, random.Random(len(view.plays)))
        assert isinstance(decision, Decision) and decision.cards[0] in view.legal
        match.play(decision.cards[0])
    assert match.phase is Phase.HAND_OVER


def test_weighing_shows_every_option_with_its_cost_and_the_choice() -> None:
    match = Match(seed=5)
    bot = ExpertBot(samples=30, pass_samples=20)
    passes = bot.weigh_passes(match.view(0), random.Random(1))
    assert all(
        len(option) == 3 and set(option) <= set(match.view(0).hand) for option in passes.options
    )
    assert len(passes.costs) == len(passes.options) and passes.chosen in passes.options
    assert list(passes.chosen) == bot.choose_pass(match.view(0), random.Random(1))
    for seat in range(4):
        match.confirm_pass(seat, bot.choose_pass(match.view(seat), random.Random(seat)))
    while True:  # up to South's first play with a choice
        turn = match.turn
        assert turn is not None, "South had no choice to make in the whole hand"
        view = match.view(turn)
        if turn == 0:
            plays = bot.weigh_plays(view, random.Random(2))
            if len(plays.options) > 1:
                break
        match.play(bot.choose_play(view, random.Random(len(view.plays))))
    assert set(plays.options) <= set(view.legal) and len(plays.costs) == len(plays.options)
    chosen_cost = plays.costs[plays.options.index(plays.chosen)]
    assert chosen_cost <= min(plays.costs) + TIE_MARGIN
    assert plays.chosen == bot.choose_play(view, random.Random(2))


def names(cards: list[int]) -> list[str]:
    return [card_text(card) for card in cards]


def _with_totals(view: SeatView, totals: tuple[int, int, int, int]) -> SeatView:
    return dataclasses.replace(view, totals=totals)


# --- the budget ---------------------------------------------------------------------------


def test_equivalent_cards_are_scored_once() -> None:
    deal = make_deal(
        "5C 6C 9C KC 2D 3D 4D 5D 6D 7D 8D 9D TD",
        "2C",
        "7C",
        "8C",
    )
    # West leads 2C, North and East follow with 7C and 8C: nothing can fall between
    # 5C, 6C and 9C any more, while TC, JC and QC are still out between 9C and KC.
    match = position(deal, "2C 7C 8C")
    view = match.view(0)
    assert names(distinct_cards(view, c("6C"))) == ["6C", "KC"]
    assert names(distinct_cards(view, c("KC"))) == ["KC", "5C"]


def test_cards_of_different_points_are_never_equivalent() -> None:
    deal = make_deal(
        "JS QS KS 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
        "2C AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH KH",
        "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AS QH",
        "2S 3S 4S 5S 6S 7S 8S 9S TS AH QD KD AD",
    )
    # North wins the first trick with 3C and leads the ace of spades: JS, QS and KS
    # touch, but the queen is worth 13 points and the others nothing.
    match = position(deal, "2C 3C QD 2D AS 2S")
    view = match.view(0)
    assert names(distinct_cards(view, c("JS"))) == ["JS", "QS", "KS"]


def test_search_drops_clearly_worse_candidates_and_keeps_close_ones() -> None:
    rng = random.Random(1)
    search = Search(3, 1)
    for _ in range(100):
        noise = rng.gauss(0, 3)
        # candidate 0 and 1 are close, candidate 2 is 5 points worse on every deal
        search.add([0, 1, 2], 1.0, [[noise], [noise + rng.gauss(0, 0.5)], [noise + 5]])
    assert not search.settled(2.0)
    assert search.active() == [0, 1]
    assert search.best() in (0, 1)


def test_search_prefers_the_first_candidate_within_the_tie_margin() -> None:
    search = Search(2, 2)
    for cost in (1.0, 3.0):
        search.add([0, 1], 1.0, [[cost, 9.0], [cost - 0.01, 9.0]])
    assert search.best() == 0
    search = Search(2, 2)
    for cost in (1.0, 3.0):
        # the second candidate is clearly better in its second mode
        search.add([0, 1], 1.0, [[cost, 9.0], [9.0, cost - 1.0]])
    assert search.best() == 1 and search.cost(1) == (1.0, 1)
    # The same one-point gap on every deal: no doubt left, the other candidate is dropped.
    assert search.settled(2.0) and search.active() == [1]


def test_a_wider_tie_margin_keeps_the_first_candidate_over_a_small_gain() -> None:
    for margin, best in ((0.05, 1), (0.5, 1), (1.5, 0)):
        search = Search(2, 1, margin)
        for cost in (1.0, 3.0):
            search.add([0, 1], 1.0, [[cost], [cost - 1.0]])  # a point cheaper on every deal
        assert search.best() == best
        # Only a candidate worse by more than the margin can be dropped.
        assert search.settled(2.0) == (best == 1)


def test_a_handicap_on_shooting_counts_in_the_choice_and_in_dropping() -> None:
    def searched(bias: tuple[float, ...]) -> Search:
        search = Search(2, 2, bias=bias)
        for cost in (1.0, 3.0):
            # the second candidate is two points better, but only by shooting
            search.add([0, 1], 1.0, [[cost, 9.0], [9.0, cost - 2.0]])
        return search

    plain = searched(())
    assert plain.best() == 1 and plain.cost(1) == (0.0, 1)
    handicapped = searched((0.0, 3.0))
    assert handicapped.cost(1) == (3.0, 1) and handicapped.cost(0) == (2.0, 0)
    assert handicapped.best() == 0
    # The handicap counts in every deal's difference too: the shot is now clearly worse.
    assert handicapped.settled(2.0) and handicapped.active() == [0]


def test_the_shoot_bias_raises_only_the_costs_that_came_from_shooting() -> None:
    # Trick 3 of match 11: South may still shoot, and in some deals shooting is its cheaper way.
    view = [v for v in south_decisions(lambda v: searchable(v) and moon.may_shoot(v))][2]
    plain = ExpertBot(samples=40, pool=200).weigh_plays(view, random.Random(0))
    for bias in (1.0, 4.0):
        biased = ExpertBot(samples=40, pool=200, shoot_bias=bias).weigh_plays(
            view, random.Random(0)
        )
        for before, after in zip(plain.costs, biased.costs, strict=True):
            assert before <= after <= before + bias
    assert biased.costs != plain.costs


def test_the_late_shoot_bias_counts_only_once_a_trick_has_been_played() -> None:
    def weighed(view: SeatView, **settings: float) -> tuple[float, ...]:
        return ExpertBot(samples=40, pool=200, **settings).weigh_plays(view, random.Random(0)).costs

    # Trick 3 of match 11: once a trick has been played, the late handicap adds to the flat one.
    late = [v for v in south_decisions(lambda v: searchable(v) and moon.may_shoot(v))][2]
    assert weighed(late, late_shoot_bias=4.0) == weighed(late, shoot_bias=4.0)
    assert weighed(late, shoot_bias=1.0, late_shoot_bias=3.0) == weighed(late, shoot_bias=4.0)
    assert weighed(late, late_shoot_bias=4.0) != weighed(late)
    # In the first trick it adds nothing: a strong hand following the two of clubs.
    deal = make_deal("AC QC 9C AH KH QH 5H 3H AS KS 4S AD 7D", "", "", "2C")
    first = position(deal, "2C").view(0)
    assert searchable(first) and moon.may_shoot(first)
    assert weighed(first, late_shoot_bias=4.0) == weighed(first)
    assert weighed(first, shoot_bias=4.0) != weighed(first)


def test_the_pass_shoot_bias_raises_only_the_costs_that_came_from_shooting() -> None:
    deal = make_deal("AH KH QH JH TH 9H 8H 7H AS KS QS AC AD", "", "", "")
    view = Match(STANDARD, seed=0, deal=deal).view(0)
    plain = ExpertBot(pass_samples=40, pass_rounds=1).weigh_passes(view, random.Random(0))
    biased = ExpertBot(pass_samples=40, pass_rounds=1, pass_shoot_bias=10.0).weigh_passes(
        view, random.Random(0)
    )
    assert plain.options == biased.options
    for before, after in zip(plain.costs, biased.costs, strict=True):
        assert before <= after <= before + 10.0
    assert biased.costs != plain.costs


def count_deals(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A counter (in a one-item list) of the deals the Expert asks the sampler for."""
    calls = [0]
    sample = expert_module.sample_hidden

    def counting(*args: object, **kwargs: object) -> list[int] | None:
        calls[0] += 1
        return sample(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(expert_module, "sample_hidden", counting)
    return calls


def searchable(view: SeatView) -> bool:
    """More than one legal card that is not equivalent to another."""
    return len(distinct_cards(view, min(view.legal))) > 1


def south_decisions(wanted: Callable[[SeatView], bool]) -> Iterator[SeatView]:
    """South's views that ``wanted`` picks, in a hand of match 11 played by Normal bots."""
    match = Match(seed=11)
    normal = NormalBot()
    rng = random.Random(0)
    for seat in range(4):
        match.confirm_pass(seat, list(normal.decide(match.view(seat), rng).cards))
    while match.phase is Phase.PLAYING:
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        if seat == 0 and wanted(view):
            yield view
        match.play(normal.decide(view, rng).cards[0])


def test_close_decisions_get_more_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = count_deals(monkeypatch)
    bot = ExpertBot(samples=20, rounds=5, pool=0)
    used = []
    for view in south_decisions(lambda view: len(view.legal) > 1):
        calls[0] = 0
        bot.decide(view, random.Random(len(view.plays)))
        used.append(calls[0])
    # One deal when all legal cards are equivalent, else rounds of 20 up to 5 rounds.
    assert all(n == 1 or (20 <= n <= 100 and n % 20 == 0) for n in used), used
    assert 20 in used and 100 in used  # some decisions settle at once, others search on


def test_resampling_draws_deals_in_proportion_to_their_weights() -> None:
    worlds = [[i, 0, 0, 0] for i in range(5)]
    weights = [0.0, 6.0, 0.0, 3.0, 1.0]
    kept, counts, shooters = resample(worlds, weights, [0, 2, 0, 4, 0], 10, random.Random(3))
    # Systematic resampling: each deal is drawn its expected number of times, give or take one.
    assert [world[0] for world in kept] == [1, 3, 4]
    assert counts == [6.0, 3.0, 1.0]
    assert shooters == [2, 4, 0]


def test_a_pool_of_deals_is_weighed_before_the_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = count_deals(monkeypatch)
    playouts = [0]
    playout = expert_module.policy.playout

    def counting_playouts(*args: object) -> None:
        playouts[0] += 1
        playout(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(expert_module.policy, "playout", counting_playouts)
    bot = ExpertBot(samples=10, pool=50, rounds=1)
    searched = 0
    for view in south_decisions(searchable):
        calls[0] = playouts[0] = 0
        first = bot.decide(view, random.Random(5))
        # 50 deals weighed; at most 10 distinct ones played out, for every card and mode.
        assert calls[0] == 50
        assert 0 < playouts[0] <= 10 * len(distinct_cards(view, min(view.legal))) * 2
        assert bot.decide(view, random.Random(5)) == first
        searched += 1
    assert searched >= 3


def test_the_deals_weights_are_counted_as_equal_deals() -> None:
    search = Search(1, 1)
    for weight in (1.0, 1.0, 1.0, 1.0):
        search.add([0], weight, [[0.0]])
    assert search.effective() == pytest.approx(4.0)
    search.add([0], 100.0, [[0.0]])
    assert search.effective() == pytest.approx(104**2 / 10004)


def test_an_opponent_playing_for_the_moon_is_seen_shooting() -> None:
    view = aces_led()
    knowledge = expert_module.Knowledge.from_view(view)
    # Leads weighed as much as any play: the shooter's aces are what gives it away.
    bot = ExpertBot(shoot_prior=0.1, play_noise=0.5, lead_noise=None, discard_noise=None)
    rng = random.Random(0)
    flagged = 0
    for _ in range(20):
        world = expert_module.sample_hidden(knowledge, rng)
        assert world is not None
        weight, shooting = bot.evidence(view, world).weigh(world)
        assert weight > 0
        flagged += shooting >> 0 & 1
        assert not shooting >> 2 & 1 and not shooting >> 3 & 1
    assert flagged == 20
    # Without a prior nobody is ever modelled as shooting.
    world = expert_module.sample_hidden(knowledge, rng)
    assert world is not None
    assert ExpertBot().evidence(view, world).weigh(world)[1] == 0


def test_more_deals_while_the_weights_are_worth_few(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = count_deals(monkeypatch)
    # No candidate is ever dropped (close is huge): only the weights decide when to stop.
    wanting = ExpertBot(
        samples=10, pool=0, rounds=1, close=1e9, min_effective=1000.0, max_samples=30
    )
    content = ExpertBot(samples=10, pool=0, rounds=1, close=1e9, min_effective=1.0, max_samples=30)
    dealt: list[int] = []
    for view in south_decisions(searchable):
        calls[0] = 0
        wanting.decide(view, random.Random(5))
        # Never worth 1,000 deals: dealt up to the cap, unless one card was left
        # clearly best (worse by the same points in every deal: no doubt at all).
        dealt.append(calls[0])
        calls[0] = 0
        content.decide(view, random.Random(5))
        assert calls[0] == 10  # one round is worth more than one deal
    assert set(dealt) <= {10, 20, 30}, dealt
    assert dealt.count(30) >= 3, dealt


def replayed_likelihood(
    view: SeatView, world: list[int], lead: float, follow: float, discard: float
) -> float:
    """The likelihood written the plain way: replay the whole hand in the deal."""
    start = world[:]
    for trick in view.tricks:
        for who, card in trick.cards:
            start[who] |= 1 << card
    state = HandState(view.rules, start)
    likelihood = 1.0
    threat = -1
    for who, card in view.plays:
        legal = state.legal_mask()
        if who != view.seat and legal & (legal - 1):
            count = legal.bit_count()
            led = state.led_mask
            noise = lead if not led else follow if legal & led else discard
            expected = policy.choose(state, legal, policy.AVOID, threat)
            likelihood *= noise / count + (1 - noise if expected == card else 0.0)
        if state.play(card) >= 0:
            threat = policy.moon_threat(state)
    return likelihood


def weighed_positions(seed: int, rng_seed: int) -> Iterator[tuple[SeatView, list[list[int]]]]:
    """Every play of one hand of ``Match(seed=seed)`` played by Normal bots: the view of the
    seat to play and six deals of its hidden cards, sampled as the Expert samples them."""
    match = Match(seed=seed)
    normal = NormalBot()
    rng = random.Random(rng_seed)
    while match.phase is not Phase.HAND_OVER:
        if match.phase is Phase.PASSING:
            for seat in range(4):
                match.confirm_pass(seat, normal.choose_pass(match.view(seat), rng))
            continue
        view = match.view(match.turn)
        knowledge = expert_module.Knowledge.from_view(view)
        deals = []
        for _ in range(6):
            world = expert_module.sample_hidden(knowledge, rng)
            assert world is not None
            deals.append(world)
        yield view, deals
        match.play(normal.choose_play(view, rng))


@pytest.mark.parametrize(("lead", "follow", "discard"), [(0.5, 0.5, 0.5), (0.95, 0.7, 0.8)])
def test_the_likelihood_replays_only_what_differs_between_deals(
    lead: float, follow: float, discard: float
) -> None:
    # The evidence keeps the state before each opponent's play from one deal and puts
    # in each other deal's cards of the player: the same weights as replaying the hand,
    # with the noise of a lead, a follow or a discard as the deal has it.  A play's chance,
    # once worked out, is kept for the deals that give the player the same choice: weighed
    # in the other order, the deals keep their weights.
    bot = ExpertBot(play_noise=follow, lead_noise=lead, discard_noise=discard)
    compared = 0
    for view, deals in weighed_positions(21, 5):
        weights = bot.deal_weights(view, deals)
        assert len(weights) == len(deals)
        assert bot.deal_weights(view, deals[::-1]) == weights[::-1]
        for world, weight in zip(deals, weights, strict=True):
            expected = replayed_likelihood(view, world, lead, follow, discard)
            assert weight == pytest.approx(expected, rel=1e-12)
            compared += weight < 1.0
    assert compared > 100


def test_the_pass_from_across_is_weighed_by_the_experts_own_candidates() -> None:
    # Two hands of Normal play, then the third hand passes across: every seat passes its
    # three most dangerous cards, the first of the Expert's candidate sets.
    match = Match(seed=8)
    normal = NormalBot()
    rng = random.Random(1)
    while match.hand_number < 3 or match.phase is not Phase.PASSING:
        if match.phase is Phase.PASSING:
            for seat in range(4):
                match.confirm_pass(seat, normal.choose_pass(match.view(seat), rng))
        elif match.phase is Phase.PLAYING:
            match.play(normal.choose_play(match.view(match.turn), rng))
        else:
            match.next_hand()
    assert match.view(0).pass_direction is PassDirection.ACROSS
    dealt = [match.view(seat).hand.mask for seat in range(4)]
    for seat in range(4):
        match.confirm_pass(seat, sorted(cards_in(policy.heuristic_pass(dealt[seat]))))
    while match.turn != 0 or match.play_state.tricks_played < 1:
        match.play(min(match.legal_moves()))
    view = match.view(0)
    truth = list(match.play_state.hands)
    bot = ExpertBot(pass_noise=0.5)
    evidence = bot.evidence(view, truth)
    assert evidence.giver == 2
    fits = 0.5 / 286 + 0.5 / len(policy.pass_candidates(dealt[2]))
    assert evidence.pass_likelihood(truth) == pytest.approx(fits)
    # Other deals of the hidden cards: North's pass fits some of them and not others.
    knowledge = expert_module.Knowledge.from_view(view)
    kinds = set()
    for _ in range(200):
        world = expert_module.sample_hidden(knowledge, rng)
        assert world is not None
        before = (world[2] | evidence.giver_played) & ~view.passed.mask | view.received.mask
        candidates = policy.pass_candidates(before)
        fitting = view.received.mask in candidates
        expected = 0.5 / 286 + (0.5 / len(candidates) if fitting else 0.0)
        assert evidence.pass_likelihood(world) == pytest.approx(expected)
        kinds.add(fitting)
    assert kinds == {True, False}
    # Without pass_noise the pass is not weighed.
    assert ExpertBot().evidence(view, truth).giver == -1


def test_the_moon_table_suspects_from_the_first_point() -> None:
    deal = make_deal(
        "AC KC QC JC AD KD QD JD AS KS AH KH QH",
        "2C 3C 4C 5C 2D 3D 4D 5D 2S 3S 4S 5S 2H",
        "6C 7C 8C 9C 6D 7D 8D 9D 6S 7S 8S 9S 3H",
        "TC TD TS JS QS 4H 5H 6H 7H 8H 9H TH JH",
    )
    # North (seat 0) wins the clubs and the diamonds without a point: nobody is suspected.
    match = position(deal, "2C 6C TC AC AD 2D 6D TD")
    assert ExpertBot().suspicion(match.view(1)) == (None, 0.0)
    # Then the spades, with the queen: 13 points after three tricks.
    match = position(deal, "2C 6C TC AC AD 2D 6D TD AS 2S 6S QS")
    view = match.view(1)
    assert ExpertBot().suspicion(view) == (0, moon.MOON_TABLE[2][0])
    # Scaled, in fewer (or more) of the deals, never in more than all of them.
    assert ExpertBot(moon_scale=0.5).suspicion(view) == (0, moon.MOON_TABLE[2][0] * 0.5)
    assert ExpertBot(moon_scale=5.0).suspicion(view) == (0, 1.0)
    # Without the table: from 8 points, in half of the deals, whatever the trick.
    table_off = ExpertBot(moon_table=False)
    assert table_off.suspicion(view) == (0, 0.5)
    assert dataclasses.replace(table_off, suspicion_points=14).suspicion(view) == (None, 0.5)


def test_a_seat_may_shoot_only_while_nobody_else_has_won_a_penalty_card() -> None:
    deal = make_deal(
        "AC KC QC JC AD KD QD JD AS KS AH KH QH",
        "2C 3C 4C 5C 2D 3D 4D 5D 2S 3S 4S 5S 2H",
        "6C 7C 8C 9C 6D 7D 8D 9D 6S 7S 8S 9S 3H",
        "TC TD TS JS QS 4H 5H 6H 7H 8H 9H TH JH",
    )
    match = position(deal, "2C 6C TC AC")
    assert all(moon.may_shoot(match.view(seat)) for seat in range(4))
    # North wins the queen of spades: it may still shoot, the others may not.
    match = position(deal, "2C 6C TC AC AD 2D 6D TD AS 2S 6S QS")
    assert [moon.may_shoot(match.view(seat)) for seat in range(4)] == [True, False, False, False]


@pytest.mark.parametrize("give_up", [True, False])
def test_the_playouts_give_up_a_lost_moon_by_default(
    give_up: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: set[tuple[bool, int]] = set()
    playout = policy.playout

    def recording(
        state: HandState, modes: tuple[int, int, int, int], give_up: bool, seize: int, *rest: object
    ) -> None:
        seen.add((give_up, seize))
        assert rest[:2] == (0.0, None)  # no playout noise by default
        playout(state, modes, give_up, seize)

    monkeypatch.setattr(policy, "playout", recording)
    bot = dataclasses.replace(ExpertBot(), samples=4, pool=0, pass_samples=2)
    if not give_up:
        bot = dataclasses.replace(bot, give_up=False)
    bot.decide(next(south_decisions(searchable)), random.Random(1))
    bot.decide(Match(seed=3).view(0), random.Random(1))  # a pass
    assert seen == {(give_up, 0)}


def test_with_playout_noise_the_other_seats_sometimes_play_at_random() -> None:
    # With noise the opponents' random plays move the costs; the draws come from the
    # decision's generator, so the same seed gives the same costs.
    view = next(south_decisions(searchable))
    quiet = dataclasses.replace(ExpertBot(), samples=30, pool=0)
    noisy = dataclasses.replace(quiet, playout_noise=0.3)
    calm = quiet.weigh_plays(view, random.Random(5))
    shaken = noisy.weigh_plays(view, random.Random(5))
    assert calm.options == shaken.options
    assert calm.costs != shaken.costs
    assert noisy.weigh_plays(view, random.Random(5)) == shaken


@pytest.mark.parametrize(("passed", "tell"), [("2C 4C 8D", True), ("2C 4C TC", False)])
def test_a_pass_of_three_low_cards_is_a_moon_tell(passed: str, tell: bool) -> None:
    # Passing left, North (seat 0) receives from East (seat 3).
    match = Match(Rules(), seed=0, deal=MOON_HAND)
    assert match.pass_direction is PassDirection.LEFT
    normal = NormalBot()
    rng = random.Random(0)
    for seat in range(3):
        match.confirm_pass(seat, list(normal.decide(match.view(seat), rng).cards))
    match.confirm_pass(3, [c(card) for card in passed.split()])
    bot = ExpertBot(pass_tell=True)
    seen_off = False
    while match.phase is Phase.PLAYING:
        view = match.view(0)
        holders = {
            seat
            for seat in range(4)
            if any(
                trick.winner == seat and (1 << card) & view.rules.penalty_mask
                for trick in view.tricks
                for _, card in trick.cards
            )
        }
        tricks = sum(1 for trick in view.tricks if trick.winner is not None)
        column = 0 if tricks <= 4 else 1 if tricks <= 8 else 2
        if tell and holders <= {3}:
            # Suspected from the first trick, as long as East may still shoot.
            row = 1 if holders else 0
            suspect, share = bot.suspicion(view)
            assert suspect == 3
            assert share >= moon.TELL_TABLE[row][column]
        else:
            assert moon.pass_tell(view) == (None, 0.0)
            seen_off = seen_off or tell
        if not view.tricks:
            # Without the setting nobody is suspected before a point is won.
            assert ExpertBot().suspicion(view) == (None, 0.0)
        seat = match.turn
        assert seat is not None
        match.play(normal.decide(match.view(seat), rng).cards[0])
    # West holds the top cards and wins a penalty card in this hand: from then on East
    # cannot shoot, and the tell is off.
    assert seen_off == tell


MOON_HAND = make_deal(
    "3C 5C 9C 2D 3D 4D 2S 3S 4S 2H 3H 4H 5H",
    "AC KC QC JC AD KD QD AS KS QS AH KH QH",
    "6C 7C 8C 5D 6D 7D 5S 6S 7S 6H 7H 8H 9H",
    "2C 4C TC 8D 9D TD JD 8S 9S TS JS TH JH",
)
"""West (seat 1) holds the top three of every suit: shooting, it takes every penalty card."""


def test_the_shoot_check_finds_the_opponents_holding_a_moon_hand() -> None:
    match = position(MOON_HAND, "2C")
    view = match.view(0)
    state = match.play_state
    assert state is not None
    world = list(state.hands)
    template = expert_module.state_template(view, world)
    assert moon.moon_hands(template, world, 0, view.rules) == 1 << 1
    # The same cards with West's top hearts and queen of spades across at North: no moon.
    west, north = world[1], world[2]
    moved = mask("QS AH KH QH")
    back = mask("6H 7H 8H 9H")
    world[1], world[2] = west & ~moved | back, north & ~back | moved
    assert moon.moon_hands(template, world, 0, view.rules) == 0


def test_with_the_shoot_check_the_search_expects_the_moon_hand_to_shoot() -> None:
    # West shooting changes what every club costs; the same seed gives the same costs.
    view = position(MOON_HAND, "2C").view(0)
    plain = dataclasses.replace(ExpertBot(), samples=30, pool=0)
    checked = dataclasses.replace(plain, shoot_check=True)
    before = plain.weigh_plays(view, random.Random(3))
    after = checked.weigh_plays(view, random.Random(3))
    assert before.options == after.options
    assert before.costs != after.costs
    assert checked.weigh_plays(view, random.Random(3)) == after


def test_the_pass_shoot_check_asks_only_about_the_seat_we_pass_to(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: set[int] = set()
    found: list[int] = []
    moon_hands = moon.moon_hands

    def recording(
        template: HandState, world: list[int], seat: int, rules: Rules, among: int = 0b1111
    ) -> int:
        asked.add(among)
        found.append(moon_hands(template, world, seat, rules, among))
        return found[-1]

    monkeypatch.setattr(moon, "moon_hands", recording)
    view = Match(seed=3).view(0)  # South passes left, to West
    assert view.pass_direction is PassDirection.LEFT
    plain = dataclasses.replace(ExpertBot(), pass_samples=40, pass_rounds=1)
    checked = dataclasses.replace(plain, pass_shoot_check=True)
    before = plain.weigh_passes(view, random.Random(2))
    assert not asked
    after = checked.weigh_passes(view, random.Random(2))
    assert asked == {1 << 1}
    assert any(found) and before.costs != after.costs


def test_cards_equivalent_in_a_deal_are_tried_once() -> None:
    deal = make_deal("2C", "3C 4C 6C 8C", "5C", "7C", voids={1: "C"})
    state = HandState.replayed(STANDARD, deal, cs("2C"))
    legal = state.legal_mask()
    assert texts(cards_in(legal)) == "3C 4C 6C 8C"
    # 3C and 4C touch; 5C (seat 2's) sits between 4C and 6C, 7C (seat 3's) between 6C and 8C.
    for preferred, tried in (("4C", ["4C", "6C", "8C"]), ("8C", ["8C", "3C", "6C"])):
        cards = distinct_in_deal(state, legal, c(preferred))
        assert [card_text(card) for card in cards] == tried  # the preferred card first


def random_hands(rng: random.Random) -> tuple[int, int, int, int]:
    """The 52 cards dealt at random, thirteen to each seat, as masks."""
    cards = list(range(52))
    rng.shuffle(cards)
    hands = [sum(1 << card for card in cards[13 * s : 13 * s + 13]) for s in range(4)]
    return hands[0], hands[1], hands[2], hands[3]


def test_the_lookahead_never_scores_a_deal_worse_than_the_policy() -> None:
    rng = random.Random(4)
    bot = ExpertBot(lookahead=1)
    scorer = MatchCost.for_view(Match(seed=1).view(0))
    better = 0
    for _ in range(40):
        hands = random_hands(rng)
        seat = rng.randrange(4)
        for depth in (0, 1, 2):
            state = HandState(STANDARD, hands)
            modes = [policy.AVOID] * 4
            cost, _ = bot.finisher.finish(state, modes, seat, 0, scorer.cost, depth)
            if depth == 0:
                plain = cost
            else:
                assert cost <= plain
                better += cost < plain
                plain = cost
    assert better > 10  # our own choices, made in the deal, often save points


@pytest.mark.parametrize(
    "setting",
    [{"lookahead": 1}, {"replies": True}, {"model_replies": 3}, {"sharp": True}],
    ids=str,
)
def test_with_a_searched_or_drawn_reply_some_plays_change(setting: dict[str, Any]) -> None:
    base = ExpertBot(samples=12, pool=0)
    changed_bot = dataclasses.replace(base, **setting)
    changed = 0
    for view in itertools.islice(south_decisions(searchable), 12):
        plain = base.decide(view, random.Random(2))
        changed += changed_bot.decide(view, random.Random(2)) != plain
    assert changed > 0


def test_an_opponent_replying_never_ends_a_deal_worse_off_than_by_the_policy() -> None:
    rng = random.Random(5)
    bot = ExpertBot(replies=True)
    better = 0
    for _ in range(60):
        hands = random_hands(rng)
        seat = rng.randrange(4)
        opponent = (seat + rng.randrange(1, 4)) % 4
        finishes: list[list[int]] = []

        def record(taken: list[int], finishes: list[list[int]] = finishes) -> float:
            finishes.append(list(taken))
            return 0.0

        for replies in (0, 1 << opponent):
            bot.finisher.finish(
                HandState(STANDARD, hands), [policy.AVOID] * 4, seat, 0, record, 0, replies
            )
        plain, replied = (own_cost(STANDARD, taken, opponent) for taken in finishes)
        assert replied <= plain  # the policy's card is among those the opponent tries
        better += replied < plain
    assert better > 5  # choosing in the deal often saves the opponent points


def test_the_moon_lookahead_searches_only_the_deals_of_a_suspected_moon() -> None:
    def suspect(view: SeatView) -> bool:
        return (
            searchable(view)
            and moon.suspicion(view, table=True, points=8, share=0.5, tell=False, scale=100.0)[1]
            == 1.0
        )

    with_suspect = list(itertools.islice(south_decisions(suspect), 3))
    without = list(
        itertools.islice(south_decisions(lambda view: searchable(view) and not suspect(view)), 3)
    )
    assert with_suspect and without
    # Played as shooting in every deal, the suspect gets the lookahead in every deal...
    base = ExpertBot(samples=10, pool=0, moon_scale=100.0, moon_lookahead=0, moon_fit=0)
    for view in with_suspect:
        moon_only = dataclasses.replace(base, moon_lookahead=1).weigh_plays(view, random.Random(3))
        everywhere = dataclasses.replace(base, lookahead=1).weigh_plays(view, random.Random(3))
        plain = base.weigh_plays(view, random.Random(3))
        assert moon_only == everywhere
        assert moon_only.costs != plain.costs
    # ...and with nobody suspected, no deal is searched deeper.
    for view in without:
        moon_only = dataclasses.replace(base, moon_lookahead=1).weigh_plays(view, random.Random(3))
        assert moon_only == base.weigh_plays(view, random.Random(3))


def test_the_shoot_lookahead_searches_only_our_own_shooting() -> None:
    may = list(itertools.islice(south_decisions(lambda v: searchable(v) and moon.may_shoot(v)), 4))
    may_not = list(
        itertools.islice(south_decisions(lambda v: searchable(v) and not moon.may_shoot(v)), 3)
    )
    assert may and may_not
    base = ExpertBot(samples=10, pool=0)
    deeper = dataclasses.replace(base, shoot_lookahead=1)
    lowered = 0
    for view in may:
        plain = base.weigh_plays(view, random.Random(3))
        searched = deeper.weigh_plays(view, random.Random(3))
        # Our shooting finds its best next card in each deal, which is never dearer than
        # the policy's: no card costs more, and some cost less.
        assert all(new <= old + 1e-9 for new, old in zip(searched.costs, plain.costs, strict=True))
        lowered += searched.costs != plain.costs
    assert lowered > 0
    # Once another seat has won a penalty card, we cannot shoot and nothing changes.
    for view in may_not:
        assert deeper.weigh_plays(view, random.Random(3)) == base.weigh_plays(
            view, random.Random(3)
        )


# --- our next card chosen by what we will have seen ------------------------------------


def test_deals_that_look_the_same_get_the_same_next_card() -> None:
    from hearts.bots.finish import Fork, consistent_rows

    rows = [
        [[Fork((1,), {5: 1.0, 6: 3.0}), 7.0]],
        [[Fork((1,), {5: 4.0, 6: 0.0}), 8.0]],
        [[Fork((2,), {5: 2.0, 6: 1.0}), 9.0]],
    ]
    # Deals 0 and 1 look alike: 6 costs 3.0 over both, 5 costs 5.0, so 6 is played in both,
    # though 5 is cheaper in deal 0.  Deal 2 is alone: the policy's card (listed first).
    assert consistent_rows(rows, [1.0, 1.0, 1.0], 2) == [[[3.0, 7.0]], [[0.0, 8.0]], [[2.0, 9.0]]]
    # Alone but large enough, deal 2 takes its cheapest; the weights decide within a group.
    assert consistent_rows(rows, [3.0, 1.0, 1.0], 1) == [[[1.0, 7.0]], [[4.0, 8.0]], [[1.0, 9.0]]]


def test_a_consistent_search_costs_the_same_options_differently() -> None:
    # The same options are costed; with the setting on, some of their costs move.
    plain = ExpertBot(samples=20, pool=40)
    searched = ExpertBot(samples=20, pool=40, consistent=2)
    assert ExpertBot(samples=20, pool=40, consistent=0) == plain
    views = list(itertools.islice(south_decisions(searchable), 6))
    assert views
    changed = 0
    for index, view in enumerate(views):
        before = plain.weigh_plays(view, random.Random(index))
        after = searched.weigh_plays(view, random.Random(index))
        assert before.options == after.options
        changed += before.costs != after.costs
    assert changed > 0


def test_the_moon_alert_applies_only_where_an_opponent_is_played_as_shooting() -> None:
    avoid, shoot = policy.AVOID, policy.SHOOT
    ours = Finisher(alert=1)
    everyone = Finisher(alert=2)
    opponent_shoots = [avoid, shoot, avoid, avoid]
    for finisher in (Finisher(), ours, everyone):
        # Nobody shooting, or only we are: nobody is alert.
        assert finisher.alert_seats([avoid] * 4, 0) == 0
        assert finisher.alert_seats([shoot, avoid, avoid, avoid], 0) == 0
    assert Finisher().alert_seats(opponent_shoots, 0) == 0
    assert ours.alert_seats(opponent_shoots, 0) == 0b0001
    assert ours.alert_seats(opponent_shoots, 2) == 0b0100
    # Shooting ourselves too, we have nothing to stop.
    assert ours.alert_seats([shoot, shoot, avoid, avoid], 0) == 0
    assert everyone.alert_seats(opponent_shoots, 0) == 0b1101


def random_state(rng: random.Random, tricks: int) -> HandState:
    """A random deal played by the policy for ``tricks`` tricks and one card more."""
    state = HandState(STANDARD, random_hands(rng))
    for _ in range(4 * tricks + 1):
        state.play(policy.choose(state, state.legal_mask(), policy.AVOID))
    return state


def test_drawn_replies_play_the_opponents_cards_up_to_our_next_turn() -> None:
    rng = random.Random(8)
    finisher = Finisher(model=playmodel.shipped(), drawn=3)
    spreads = 0
    for _ in range(40):
        start = random_state(rng, rng.randrange(6))
        seat = (start.turn - 1) % 4  # we have just played the trick's first card
        replies = set()
        for u in (0.01, 0.5, 0.99):
            state = start.copy()
            modes = finisher.draw_replies(state, [policy.AVOID] * 4, seat, [u] * 3)
            assert modes == [policy.AVOID] * 4
            assert state.hands[seat] == start.hands[seat]  # our cards are never drawn
            assert state.turn == seat or state.tricks_played > start.tricks_played
            replies.add(tuple(state.trick) if state.turn == seat else state.played_mask)
        spreads += len(replies) > 1
        # With nothing to draw, or no model, the policy is left to play every card.
        for idle in (Finisher(model=playmodel.shipped()), Finisher(drawn=3)):
            state = start.copy()
            assert idle.draw_replies(state, [policy.AVOID] * 4, seat, [0.5] * 3) == [0] * 4
            assert state.played_mask == start.played_mask
    assert spreads > 10  # different draws give different replies


def test_a_shooter_replies_by_the_policy_and_gives_up_a_lost_moon() -> None:
    rng = random.Random(9)
    finisher = Finisher(model=playmodel.shipped(), drawn=3)
    lost = kept = 0
    for _ in range(60):
        start = random_state(rng, rng.randrange(3, 9))
        seat = (start.turn - 1) % 4
        shooter = start.turn
        modes = [policy.AVOID] * 4
        modes[shooter] = policy.SHOOT
        expected = policy.choose(start, start.legal_mask(), policy.SHOOT)
        for u in (0.01, 0.99):
            state = start.copy()
            after = finisher.draw_replies(state, modes, seat, [u] * 3)
            assert modes[shooter] == policy.SHOOT  # the caller's modes are left alone
            assert (start.hands[shooter] & ~state.hands[shooter]) >> expected & 1
            penalty = state.forbidden_first
            others = any(state.taken[s] & penalty for s in range(4) if s != shooter)
            assert after[shooter] == (policy.AVOID if others else policy.SHOOT)
            lost += others
            kept += not others
    assert lost and kept


def test_with_the_sharp_policy_for_our_seat_the_pass_costs_change() -> None:
    # The pass search plays whole hands: with `sharp`, our seat plays them by the sharper
    # rules, on the same deals, so the costs move and some choices with them.
    small = ExpertBot(pass_samples=16, pass_rounds=1)
    sharp = dataclasses.replace(small, sharp=True)
    moved = changed = 0
    for seed in range(6):
        view = Match(seed=seed).view(0)
        plain = small.weigh_passes(view, random.Random(0))
        sharper = sharp.weigh_passes(view, random.Random(0))
        assert plain.options == sharper.options
        moved += plain.costs != sharper.costs
        changed += plain.chosen != sharper.chosen
    assert moved == 6
    assert changed > 0


def test_with_spread_passes_the_other_seats_pass_a_drawn_candidate_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The pass search deals the other hands, then each other seat passes: by rule of thumb,
    # or with `spread_passes` one of its candidate sets drawn as the November Expert passes.
    world = Match(seed=3).current.deal
    rng = random.Random(1)
    other_than_the_rule = 0
    for direction in (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS):
        plain = passing.others_passes(list(world), 2, direction)
        assert plain == [0 if s == 2 else policy.heuristic_pass(world[s]) for s in range(4)]
        for _ in range(10):
            drawn = passing.others_passes(list(world), 2, direction, rng)
            assert drawn[2] == 0
            for seat in (0, 1, 3):
                assert drawn[seat] in policy.pass_candidates(world[seat])
                other_than_the_rule += drawn[seat] != plain[seat]
    # The rule of thumb's set is drawn about one time in seven: most of these 90 are others.
    assert other_than_the_rule > 60
    assert passing.others_passes(list(world), 2, PassDirection.HOLD, rng) == [0] * 4
    # The search draws three passes a deal with it, none without it.
    calls: list[int] = []
    real = policy.drawn_pass

    def counting(hand: int, rng: random.Random) -> int:
        calls.append(hand)
        return real(hand, rng)

    monkeypatch.setattr(policy, "drawn_pass", counting)
    small = ExpertBot(pass_samples=16, pass_rounds=1)
    view = Match(seed=3).view(0)
    small.weigh_passes(view, random.Random(0))
    assert calls == []
    dataclasses.replace(small, spread_passes=True).weigh_passes(view, random.Random(0))
    assert len(calls) == 3 * 16


def test_the_pass_search_deals_and_exchanges_whole_hands() -> None:
    # Our hand stays ours in every deal; after the exchange every seat holds 13 cards,
    # ours without the three passed and with the three passed to us.
    match = Match(seed=4)
    hand = match.current.deal[1]
    unseen = ((1 << 52) - 1) & ~hand
    rng = random.Random(5)
    for direction in (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS):
        world = passing.deal_others(1, hand, unseen, rng)
        assert world[1] == hand and sum(world) == (1 << 52) - 1
        assert [w.bit_count() for w in world] == [13] * 4
        others = passing.others_passes(world, 1, direction)
        ours = policy.pass_candidates(hand)[-1]
        after = passing.exchange(world, others, 1, ours, direction)
        assert [h.bit_count() for h in after] == [13] * 4 and sum(after) == (1 << 52) - 1
        assert after[1] & ours == 0
        giver = next(s for s in range(4) if direction.receiver(s) == 1)
        assert after[1] & others[giver] == others[giver]
        assert after[direction.receiver(1)] & ours == ours
    world = passing.deal_others(1, hand, unseen, rng)
    assert passing.exchange(world, [0] * 4, 1, 0, PassDirection.HOLD) == tuple(world)
