"""The coach judges a decision from the seat's view at that moment and nothing else.

At passes and plays of random matches, a second record is built that differs
only in cards hidden from the deciding seat at that moment (two unplayed,
never passed cards swapped between two other seats, in the same suit or,
when the plays so far stay legal, across suits), and the rest of the hand is
played differently.  The review of that decision is the same in both.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from hearts import Budget, Match, Phase, analyse, write_record
from hearts.errors import IllegalMove
from hearts.match import MoonStyle
from helpers import STANDARD, random_prefix, random_step, replay
from test_view import hidden_swaps, swapped

SMALL = Budget(samples=16, pass_samples=8)
POSITIONS = 16


def position(seed: int, passing: bool) -> tuple[Match, int]:
    """A random match stopped where a seat owes a pass (``passing``) or a play, and that seat."""
    while True:
        match = random_prefix(STANDARD, seed, stop=0.03)
        rng = random.Random(seed)
        wanted = Phase.PASSING if passing else Phase.PLAYING
        while match.phase is not wanted and match.phase is not Phase.MATCH_OVER:
            random_step(match, rng)
        if match.phase is not Phase.MATCH_OVER:
            break
        seed += 1_000_003
    if passing:
        return match, rng.choice(match.waiting_for())
    turn = match.turn
    assert turn is not None
    return match, turn


def decide_and_finish(match: Match, seat: int, decision: list[int], rng: random.Random) -> None:
    """Make ``seat``'s decision, then play the hand to its end at random."""
    if match.phase is Phase.PASSING:
        match.confirm_pass(seat, decision)
    else:
        match.play(decision[0], seat)
    number = match.hand_number
    while len(match.results) < number:
        if match.phase is Phase.MOON_CHOICE:
            turn = match.turn
            assert turn is not None
            style: MoonStyle = "add" if rng.random() < 0.5 else "subtract"
            match.choose_moon(turn, style)
        else:
            random_step(match, rng)


def a_hidden_swap(match: Match, seat: int, rng: random.Random) -> tuple[int, int, int, int] | None:
    """A swap of cards hidden from ``seat``: across suits when the past stays legal, else in one."""
    across = hidden_swaps(match, seat, same_suit=False)
    for swap in rng.sample(across, min(len(across), 5)):
        try:
            replay(match, last_deal=swapped(match.current.deal, swap))
        except IllegalMove:
            continue
        return swap
    alike = hidden_swaps(match, seat)
    return rng.choice(alike) if alike else None


def review_of(record: dict[str, Any], seat: int, hand: int, kind: str, trick: int | None) -> Any:
    analysis = analyse(record, seat, hand=hand, seed=7, budget=SMALL)
    return next(d for d in analysis.decisions if d.kind == kind and d.trick == trick)


@pytest.mark.parametrize("index", range(POSITIONS))
def test_swapping_hidden_cards_never_changes_a_review(index: int) -> None:
    passing = index % 2 == 0
    rng = random.Random(index)
    seed = 4000 + index
    while True:
        match, seat = position(seed, passing)
        swap = a_hidden_swap(match, seat, rng)
        if swap is not None:
            break
        seed += 100  # late in a hand nothing may be left to swap
    other = replay(match, last_deal=swapped(match.current.deal, swap))
    assert other.view(seat) == match.view(seat)
    if passing:
        decision = rng.sample(list(match.holding(seat)), 3)
        kind, trick = "pass", None
    else:
        decision = [rng.choice(match.legal_moves())]
        kind, trick = (
            "play",
            len(match.view(seat).tricks) + (1 if match.view(seat).current_trick is None else 0),
        )
    hand = match.hand_number
    decide_and_finish(match, seat, decision, random.Random(1))
    decide_and_finish(other, seat, decision, random.Random(2))
    first, second = write_record(match), write_record(other)
    assert first["hands"][-1]["deal"] != second["hands"][-1]["deal"]

    assert review_of(first, seat, hand, kind, trick) == review_of(second, seat, hand, kind, trick)
