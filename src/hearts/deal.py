"""Seeded dealing: the same seed gives the same cards on every machine.

The shuffle is written out here, driven only by ``Random.random`` (whose
Mersenne Twister stream and IEEE doubles are the same everywhere), so that a
change in how the standard library shuffles can never change a deal.
"""

from __future__ import annotations

import random

Holdings = tuple[int, int, int, int]


_CARDS = range(52)
_BITS = [1 << card for card in _CARDS]


def shuffled_deck(rng: random.Random) -> list[int]:
    """The 52 cards in a uniformly random order.

    Each card gets a random 53-bit key and the deck is sorted by key: the
    same result as a Fisher-Yates shuffle, with the loop in C.  (Two equal
    keys would happen about once in 10**14 deals.)
    """
    rand = rng.random
    keys = [rand() for _ in _CARDS]
    return sorted(_CARDS, key=keys.__getitem__)


def random_deal(rng: random.Random) -> Holdings:
    """Deal 13 cards to each seat from ``rng``; seat ``s`` gets every fourth card."""
    deck = shuffled_deck(rng)
    bit = _BITS.__getitem__
    return (
        sum(map(bit, deck[0::4])),
        sum(map(bit, deck[1::4])),
        sum(map(bit, deck[2::4])),
        sum(map(bit, deck[3::4])),
    )


def hand_rng(seed: int, hand_number: int) -> random.Random:
    """The generator for the deal of hand ``hand_number`` of the match seeded ``seed``.

    Seeding from a string hashes it with SHA-512, so neighbouring seeds and
    hand numbers give unrelated deals.
    """
    return random.Random(f"hearts-deal:{seed}:{hand_number}")


def seeded_deal(seed: int, hand_number: int = 1) -> Holdings:
    return random_deal(hand_rng(seed, hand_number))
