"""Seeded dealing: the same seed gives the same cards on every machine.

The shuffle is written out here (Fisher-Yates driven by ``Random.random``,
whose Mersenne Twister stream and IEEE doubles are the same everywhere) so
that a change in how the standard library shuffles can never change a deal.
"""

from __future__ import annotations

import random

Holdings = tuple[int, int, int, int]


def shuffled_deck(rng: random.Random) -> list[int]:
    deck = list(range(52))
    rand = rng.random
    for i in range(51, 0, -1):
        j = int(rand() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def random_deal(rng: random.Random) -> Holdings:
    """Deal 13 cards to each seat from ``rng``; seat ``s`` gets every fourth card."""
    deck = shuffled_deck(rng)
    masks = [0, 0, 0, 0]
    for position, card in enumerate(deck):
        masks[position & 3] |= 1 << card
    return masks[0], masks[1], masks[2], masks[3]


def hand_rng(seed: int, hand_number: int) -> random.Random:
    """The generator for the deal of hand ``hand_number`` of the match seeded ``seed``.

    Seeding from a string hashes it with SHA-512, so neighbouring seeds and
    hand numbers give unrelated deals.
    """
    return random.Random(f"hearts-deal:{seed}:{hand_number}")


def seeded_deal(seed: int, hand_number: int = 1) -> Holdings:
    return random_deal(hand_rng(seed, hand_number))
