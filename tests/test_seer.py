"""benchmarks/seer.py: the Expert given the true deal, on the arena's hands."""

from __future__ import annotations

import random

import pytest

from hearts.arena import Unit, play_unit
from hearts.bots import expert, make_bot, passing
from hearts.bots.knowledge import Knowledge
from helpers import load_benchmark

seer = load_benchmark("seer")


def test_the_seer_is_given_the_cards_of_the_hand_being_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seer.see(monkeypatch.setattr)
    seen = {"plays": 0, "passes": 0}
    to_play, to_pass = seer.true_holdings, seer.true_deal

    def play_spy(knowledge: Knowledge, rng: random.Random, tries: int = 40) -> list[int]:
        world: list[int] = to_play(knowledge, rng, tries)
        match = seer.SeenMatch.playing
        assert world == [match.holding(seat).mask for seat in range(4)]
        seen["plays"] += 1
        return world

    def pass_spy(seat: int, hand: int, unseen: int, rng: random.Random) -> list[int]:
        deal: list[int] = to_pass(seat, hand, unseen, rng)
        assert deal == list(seer.SeenMatch.playing.current.deal)
        assert deal[seat] == hand and sum(deal) == (1 << 52) - 1
        seen["passes"] += 1
        return deal

    monkeypatch.setattr(expert, "sample_hidden", play_spy)
    monkeypatch.setattr(passing, "deal_others", pass_spy)
    quick = make_bot("expert", samples=4, pool=0, pass_samples=4, pass_rounds=1)
    other = make_bot("random")
    # Seat 0 passes (hand 1 passes left) and plays its hand, every deal the true one.
    play_unit(Unit(5, 0, 0, (quick, other, other, other), hands=1))
    assert seen["passes"] == 4 and seen["plays"] > 8


def test_a_seer_asked_for_another_seats_hand_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    seer.see(monkeypatch.setattr)
    match = seer.SeenMatch(seed=3)
    view = match.view(0)
    with pytest.raises(RuntimeError, match="not the one it is passing"):
        seer.true_deal(1, view.hand.mask, 0, random.Random(0))
