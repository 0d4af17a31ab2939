"""The weakest computer players: random, beginner and easy.

``RandomBot`` and ``BeginnerBot`` are yardsticks for measuring the others;
``EasyBot`` is the level people play against first.  None of them looks at
anything but its own cards and the trick on the table.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from hearts.bots.base import Bot
from hearts.cards import SUIT_MASK, Card, cards_in
from hearts.view import SeatView


def _by_rank(card: Card) -> tuple[int, int]:
    """Rank first, then suit: how a beginner sees "high" and "low" across suits."""
    return card % 13, card // 13


def _led_suit(view: SeatView) -> int | None:
    trick = view.current_trick
    if trick is None or not trick.cards:
        return None
    return trick.cards[0][1] // 13


@dataclass(frozen=True)
class RandomBot(Bot):
    """Uniformly random legal plays and a random pass: the floor to measure against."""

    @property
    def level(self) -> str:
        return "random"

    def choose_pass(self, view: SeatView, rng: random.Random) -> list[Card]:
        return rng.sample(cards_in(view.hand.mask), 3)

    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        return rng.choice(cards_in(view.legal.mask))


@dataclass(frozen=True)
class BeginnerBot(Bot):
    """Always the lowest legal card; passes its three highest. Never uses the generator."""

    @property
    def level(self) -> str:
        return "beginner"

    def choose_pass(self, view: SeatView, rng: random.Random) -> list[Card]:
        return sorted(cards_in(view.hand.mask), key=_by_rank)[-3:]

    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        return min(cards_in(view.legal.mask), key=_by_rank)


@dataclass(frozen=True)
class EasyBot(Bot):
    """Nearly random play that sheds high cards at the wrong moments.

    Following suit it often plays its highest card, so it wins tricks it
    should duck; it passes mostly at random.  A player who simply ducks
    beats it comfortably.
    """

    high_follow: float = 0.55
    """Chance of following suit with the highest card instead of a random one."""
    high_discard: float = 0.3
    """Chance of discarding the highest-ranked card (of any suit) when void."""
    careful_pass: float = 0.15
    """Chance of passing the three highest cards instead of three random ones."""

    @property
    def level(self) -> str:
        return "easy"

    def choose_pass(self, view: SeatView, rng: random.Random) -> list[Card]:
        cards = cards_in(view.hand.mask)
        if rng.random() < self.careful_pass:
            return sorted(cards, key=_by_rank)[-3:]
        return rng.sample(cards, 3)

    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        legal = view.legal.mask
        cards = cards_in(legal)
        led = _led_suit(view)
        roll = rng.random()
        if led is not None and legal & SUIT_MASK[led]:
            if roll < self.high_follow:
                return cards[-1]
        elif led is not None and roll < self.high_discard:
            return max(cards, key=_by_rank)
        return rng.choice(cards)
