"""The reference search bots (PIMC, ISMCTS, PIMC with UCT): legal, repeatable, fair, not foolish."""

from __future__ import annotations

import random

import pytest
from test_fairness import positions

from hearts.bots import make_bot
from hearts.bots.base import Bot
from hearts.bots.reference import (
    IsmctsBot,
    PimcBot,
    PimcUctBot,
    distinct_cards,
    pass_candidates,
)
from hearts.match import Match, Phase
from hearts.rules import Rules
from helpers import c, cs, make_deal, mask, replay, texts
from test_view import hidden_swaps, swapped

NO_PASS = Rules(passing="none")

SMALL: dict[str, Bot] = {
    "pimc": PimcBot(simulations=60, worlds=6, pass_simulations=60),
    "ismcts": IsmctsBot(iterations=60, pass_simulations=60),
    "pimc-uct": PimcUctBot(simulations=20, worlds=4, pass_simulations=60),
}
"""Budgets that keep these tests quick; legality and fairness do not depend on them."""


def test_registered_by_level() -> None:
    assert make_bot("pimc") == PimcBot()
    assert make_bot("ismcts") == IsmctsBot()
    assert make_bot("pimc-uct") == PimcUctBot()
    assert PimcBot().simulations >= 2000 and IsmctsBot().iterations >= 2000


@pytest.mark.parametrize("level", SMALL)
def test_a_hand_of_legal_and_repeatable_decisions(level: str) -> None:
    bot = SMALL[level]
    match = Match(seed=11)
    for seat in range(4):
        decision = bot.decide(match.view(seat), random.Random(seat))
        assert decision == bot.decide(match.view(seat), random.Random(seat))
        match.confirm_pass(seat, list(decision.cards))
    while match.phase is Phase.PLAYING:
        turn = match.turn
        assert turn is not None
        view = match.view(turn)
        decision = bot.decide(view, random.Random(len(view.plays)))
        assert decision.kind == "play" and decision.cards[0] in view.legal
        assert decision == bot.decide(view, random.Random(len(view.plays)))
        match.play(decision.cards[0])
    assert match.phase is Phase.HAND_OVER


@pytest.mark.parametrize("level", SMALL)
def test_hidden_cards_do_not_change_a_decision(level: str) -> None:
    bot = SMALL[level]
    tested = 0
    for index, (match, seat) in enumerate(positions(24, first_seed=4242)):
        swaps = hidden_swaps(match, seat)
        if not swaps:
            continue
        pick = random.Random(index)
        swap = pick.choice(swaps)
        other = replay(match, last_deal=swapped(match.current.deal, swap))
        assert other.view(seat) == match.view(seat)
        seed = pick.randrange(2**32)
        same = bot.decide(match.view(seat), random.Random(seed))
        assert bot.decide(other.view(seat), random.Random(seed)) == same
        tested += 1
    assert tested >= 16


def test_equivalent_cards_are_searched_once() -> None:
    deal = make_deal(
        "2C 5C 7C 8C 9C JC 2D 3D 4D 5D 6D 7D 8D",
        "3C",
        "6C",
        "TC QC",
    )
    match = Match(NO_PASS, seed=0, deal=deal)
    # East wins the first trick with the ten and leads the queen of clubs.
    for card in cs("2C 3C 6C TC QC"):
        match.play(card)
    view = match.view(0)
    assert texts(view.legal) == "5C 7C 8C 9C JC"
    # The six and the ten are gone: no other seat holds a club between any two of ours.
    assert texts(distinct_cards(view)) == "5C"


def test_a_card_on_the_table_separates_a_run() -> None:
    deal = make_deal(
        "2C 8C TC 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
        "6C 9C",
        "4C",
        "5C",
    )
    match = Match(NO_PASS, seed=0, deal=deal)
    # West wins the first trick and leads the nine: the eight ducks, the ten wins.
    for card in cs("2C 6C 4C 5C 9C"):
        match.play(card)
    for _ in range(2):
        match.play(min(match.legal_moves()))
    view = match.view(0)
    assert view.turn == 0
    assert texts(distinct_cards(view)) == "8C TC"


@pytest.mark.parametrize("level", SMALL)
def test_drops_the_queen_under_the_ace_of_spades(level: str) -> None:
    deal = make_deal(
        "QS 2S 3S 4C 5C 2D 3D 4D 5D 6D 7D 8D 9D",
        "AC AS KS",
        "2C 5S",
        "3C 6S",
    )
    match = Match(NO_PASS, seed=0, deal=deal)
    # North leads 2C, West wins with the ace and leads the ace of spades.
    for card in cs("2C 3C 4C AC AS 5S 6S"):
        match.play(card)
    bot = {
        "pimc": PimcBot(simulations=300),
        "ismcts": IsmctsBot(iterations=300),
        "pimc-uct": PimcUctBot(simulations=100, worlds=4),
    }[level]
    decision = bot.decide(match.view(0), random.Random(0))
    assert texts(decision.cards) == "QS"


def test_pass_shortlist_holds_the_unguarded_queen() -> None:
    hand = mask("QS 3S AH KH 4H 2C 5C 8C 3D 6D 9D JD 7C")
    shortlist = pass_candidates(hand, 6)
    assert len(shortlist) == 20
    assert shortlist[0] & 1 << c("QS")
    assert all(candidate.bit_count() == 3 and candidate & ~hand == 0 for candidate in shortlist)
