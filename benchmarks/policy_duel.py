"""The playout policy against the November 2026 policy, on duplicate deals.

The Expert's search finishes every sampled deal with the playout policy
(:mod:`hearts.bots.policy`), so a better policy is a better search.  Played
on its own the policy makes a whole hand in about a tenth of a millisecond,
so a change to it can be measured on tens of thousands of hands in seconds
before the Expert is measured with it in the arena.

Each deal is played four times, the policy under test in each seat in turn
and the November policy (the copy frozen in :mod:`hearts.bots.expert_2026_11`)
in the other three; the passes rotate left, right, across, hold by deal.
Printed: the policy's points per hand minus the mean of its three opponents'
(negative is better), with a 95% interval over deals; then the same with the
roles swapped.

Today the two policies are the same rules, so both lines read zero.  With
``--sharp`` the tested seat plays :func:`hearts.bots.policy.choose_sharp`, the
three rules that won −0.96 points per hand here and did not make the Expert
measurably stronger in the arena, neither for every seat of its playouts nor
for its own (``docs/strength.md``).  Change the policy, then run this before
the arena.

Example::

    python benchmarks/policy_duel.py --deals 10000 --seed 0 [--sharp]
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Callable

from hearts.bots import expert_2026_11 as november
from hearts.bots import policy
from hearts.hand import HandState
from hearts.rules import Rules

Chooser = Callable[[HandState, int, int, int], int]
Passer = Callable[[int], int]
RECEIVER_OFFSET = (1, 3, 2, 0)
"""How many seats on from the passer the cards go, passing left, right, across; 0: hold."""


def play_hand(rules: Rules, hands: list[int], choosers: list[Chooser]) -> tuple[int, ...]:
    state = HandState(rules, hands)
    threat = -1
    while state.tricks_played < 13:
        chooser = choosers[state.turn]
        if state.play(chooser(state, state.legal_mask(), policy.AVOID, threat)) >= 0:
            threat = policy.moon_threat(state)
    return rules.score_hand(state.taken)[0]


def duel(
    tested: tuple[Chooser, Passer], others: tuple[Chooser, Passer], deals: int, seed: int
) -> tuple[float, float]:
    """Mean and standard error, over deals, of the tested policy's points minus its opponents'."""
    rules = Rules()
    rng = random.Random(seed)
    deck = list(range(52))
    differences = []
    for number in range(deals):
        rng.shuffle(deck)
        dealt = [sum(1 << card for card in deck[13 * s : 13 * s + 13]) for s in range(4)]
        offset = RECEIVER_OFFSET[number % 4]
        total = 0.0
        for seat in range(4):
            players = [tested if s == seat else others for s in range(4)]
            passes = [players[s][1](dealt[s]) if offset else 0 for s in range(4)]
            hands = [dealt[s] & ~passes[s] for s in range(4)]
            for s in range(4):
                hands[(s + offset) % 4] |= passes[s]
            scores = play_hand(rules, hands, [player[0] for player in players])
            total += scores[seat] - (sum(scores) - scores[seat]) / 3
        differences.append(total / 4)
    mean = sum(differences) / deals
    variance = sum((d - mean) ** 2 for d in differences) / (deals - 1)
    return mean, math.sqrt(variance / deals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--sharp", action="store_true", help="test policy.choose_sharp instead of policy.choose"
    )
    args = parser.parse_args()
    current = (policy.choose_sharp if args.sharp else policy.choose, policy.heuristic_pass)
    frozen = (november.choose, november.heuristic_pass)
    for name, tested, others in [
        ("policy vs 3 November policies", current, frozen),
        ("November policy vs 3 policies", frozen, current),
    ]:
        mean, error = duel(tested, others, args.deals, args.seed)
        print(
            f"{name}: {mean:+.3f} points per hand, 95% CI [{mean - 1.96 * error:+.3f}, "
            f"{mean + 1.96 * error:+.3f}] over {args.deals} deals x 4 seats"
        )


if __name__ == "__main__":
    main()
