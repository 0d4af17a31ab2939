"""Which kinds of set the Expert passes: the rule of thumb's, another usual one, or a new one.

For the first hand (pass left) of matches with seeds 0, 1, ..., every seat's pass is
chosen by the Expert with the given settings (``--set pass_wide=true`` for the wider
pass), and each chosen set is counted as one of

- the rule of thumb's set (the first of :func:`hearts.bots.policy.pass_candidates`);
- another of the usual candidate sets;
- a new set (only :func:`hearts.bots.policy.wide_pass_candidates` has it) that empties
  a club, diamond or heart suit;
- a new set of three of the six most dangerous cards that empties no suit.

Example::

    python benchmarks/pass_kinds.py --deals 40 --set pass_wide=true
"""

from __future__ import annotations

import argparse
import collections
import random

from hearts import Match
from hearts.arena import parse_settings
from hearts.bots.expert import ExpertBot
from hearts.bots.policy import pass_candidates
from hearts.cards import CLUBS, DIAMONDS, HEARTS, SUIT_MASK

KINDS = (
    "the rule of thumb's set",
    "another usual set",
    "a new set that empties a suit",
    "a new set of three of the six most dangerous",
)


def kind(hand: int, chosen: int) -> str:
    usual = pass_candidates(hand)
    if chosen == usual[0]:
        return KINDS[0]
    if chosen in usual:
        return KINDS[1]
    kept = hand & ~chosen
    suits = (SUIT_MASK[CLUBS], SUIT_MASK[DIAMONDS], SUIT_MASK[HEARTS])
    empties = any(hand & suit and not kept & suit for suit in suits)
    return KINDS[2] if empties else KINDS[3]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=40, help="matches, from seed 0 (default 40)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    settings = parse_settings(f"expert.{item}" for item in args.set).get("expert", {})
    bot = ExpertBot(**settings)
    counts: collections.Counter[str] = collections.Counter()
    for seed in range(args.deals):
        match = Match(seed=seed)
        for seat in range(4):
            view = match.view(seat)
            weighed = bot.weigh_passes(view, random.Random(seed * 4 + seat))
            counts[kind(view.hand.mask, sum(1 << card for card in weighed.chosen))] += 1
    total = sum(counts.values())
    print(f"{total} passes, settings {settings or 'default'}:")
    for name in KINDS:
        print(f"  {name}: {counts[name]} ({100 * counts[name] / total:.1f}%)")


if __name__ == "__main__":
    main()
