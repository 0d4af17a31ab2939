"""What ``expert-2026-11`` passes, against the rule of thumb the Expert's pass search assumes.

The Expert's pass search plays each of its candidate sets in sampled deals in
which the other three seats pass by rule of thumb
(:func:`hearts.bots.policy.heuristic_pass`: their three most dangerous cards).
The November Expert, which sits in those seats in the arena, passes one of the
same candidate sets (:func:`hearts.bots.policy.pass_candidates`), chosen by its
own search.  This plays the passes of matches of four ``expert-2026-11`` (the
hands are then played out by the rule policy, only to reach the next pass) and
prints:

- how often each candidate set (by its index in ``pass_candidates``) was passed:
  the shares behind :data:`hearts.bots.policy.PASS_SHARES`;
- how often the rule of thumb's set was the one passed;
- of the passers who held the queen of spades, how many passed it, and how many
  the rule of thumb and the shares would have passed it.

Example::

    python benchmarks/frozen_passes.py --matches 120 --seed 0
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from hearts.bots import policy
from hearts.bots.expert_2026_11 import Expert202611Bot
from hearts.cards import QUEEN_OF_SPADES
from hearts.match import Match, Phase


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=120)
    parser.add_argument("--seed", type=int, default=0, help="the first match's seed")
    args = parser.parse_args()
    bot = Expert202611Bot()
    by_index: Counter[int] = Counter()
    counts: Counter[str] = Counter()
    expected_queen = 0.0
    for seed in range(args.seed, args.seed + args.matches):
        match = Match(seed=seed)
        while match.phase is Phase.PASSING:
            for seat in range(4):
                view = match.view(seat)
                rng = random.Random(f"frozen-passes:{seed}:{match.hand_number}:{seat}")
                cards = bot.decide(view, rng).cards
                passed = sum(1 << card for card in cards)
                hand = view.hand.mask
                candidates = policy.pass_candidates(hand)
                by_index[candidates.index(passed) if passed in candidates else -1] += 1
                counts["passes"] += 1
                rule = policy.heuristic_pass(hand)
                counts["rule of thumb"] += passed == rule
                if hand >> QUEEN_OF_SPADES & 1:
                    counts["held the queen"] += 1
                    counts["passed it"] += passed >> QUEEN_OF_SPADES & 1
                    counts["rule of thumb passes it"] += rule >> QUEEN_OF_SPADES & 1
                    shares = policy.PASS_SHARES[: len(candidates)]
                    expected_queen += sum(
                        share
                        for share, candidate in zip(shares, candidates, strict=True)
                        if candidate >> QUEEN_OF_SPADES & 1
                    ) / sum(shares)
                match.confirm_pass(seat, list(cards))
            while match.phase in (Phase.PLAYING, Phase.MOON_CHOICE):
                turn = match.turn
                assert turn is not None
                if match.phase is Phase.MOON_CHOICE:
                    match.choose_moon(turn, "add")
                    continue
                state = match.play_state
                assert state is not None
                threat = policy.moon_threat(state)
                match.play(policy.choose(state, state.legal_mask(), policy.AVOID, threat), turn)
            if match.phase is Phase.MATCH_OVER:
                break
            match.next_hand()
    total = counts["passes"]
    print(f"{total} passes; the rule of thumb's set: {counts['rule of thumb'] / total:.3f}")
    print("candidate index: passes, share")
    for index in sorted(by_index):
        print(f"{index:>5}: {by_index[index]:>5}  {by_index[index] / total:.3f}")
    held = counts["held the queen"] or 1
    print(
        f"held the queen of spades: {counts['held the queen']}; passed it "
        f"{counts['passed it'] / held:.3f}, the rule of thumb "
        f"{counts['rule of thumb passes it'] / held:.3f}, the shares {expected_queen / held:.3f}"
    )


if __name__ == "__main__":
    main()
