"""Claim is offered only when the rest of the hand cannot change any score."""

from __future__ import annotations

import random

from hearts import Match, Phase
from hearts.server.tables.claim import can_claim, play_out


def random_finish(match: Match, rng: random.Random) -> tuple[int, ...]:
    while match.phase is Phase.PLAYING:
        match.play(rng.choice(match.legal_moves()))
    return match.results[-1].points


def test_a_claim_never_changes_the_score() -> None:
    rng = random.Random(1)
    offered = 0
    for seed in range(60):
        match = Match(seed=seed)
        for seat in range(4):
            match.confirm_pass(seat, rng.sample(list(match.holding(seat)), 3))
        while match.phase is Phase.PLAYING:
            seat = match.turn
            assert seat is not None
            if can_claim(match, seat):
                offered += 1
                claimed = match.copy()
                play_out(claimed)
                points = claimed.results[-1].points
                for trial in range(5):
                    assert random_finish(match.copy(), random.Random(trial)) == points
            match.play(rng.choice(match.legal_moves()))
    assert offered > 50
