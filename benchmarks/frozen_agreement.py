"""How predictable are ``expert-2026-11``'s cards, and by what?

The Expert's playouts model its opponents by the rule policy
(:mod:`hearts.bots.policy`); the opponents in the arena are ``expert-2026-11``,
a search whose card also depends on its own random deals.  This plays
matches of four ``expert-2026-11`` and, at every play with a choice, asks
several predictors for the card from the same position:

- ``again``: ``expert-2026-11`` itself with other decision seeds (how often a
  second draw of the same player agrees with the first: about the most any
  model of it can hope for);
- ``policy``: the rule policy's card, avoiding points (what the playouts play);
- ``sharp``: :func:`hearts.bots.policy.choose_sharp`;
- ``kN``: ``expert-2026-11`` with N deals instead of 100 (the same search, cheaper).

Printed: by kind of play (a lead in tricks 2 to 6, a later lead, a follow, a
discard), how many plays and how often each predictor named the card played;
then each predictor's mean CPU per call.

Example::

    python benchmarks/frozen_agreement.py --matches 8 --seed 0 --deals 4,8,16
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time
from collections import Counter

from hearts.bots import policy
from hearts.bots.expert_2026_11 import Expert202611Bot
from hearts.match import Match, Phase
from hearts.view import SeatView

KINDS = ("lead 2-6", "lead 7-13", "follow", "discard")


def kind_of(view: SeatView) -> str:
    trick = view.current_trick
    if trick is None or not trick.cards or trick.complete:
        return "lead 2-6" if len(view.tricks) < 6 else "lead 7-13"
    led = trick.cards[0][1] // 13
    return "follow" if any(card // 13 == led for card in view.legal) else "discard"


def play_match(seed: int, deals: tuple[int, ...], hands: int) -> tuple[Counter[str], Counter[str]]:
    """Hits by (kind, predictor) and CPU seconds by predictor over one match's first hands."""
    bot = Expert202611Bot()
    lites = {f"k{k}": Expert202611Bot(samples=k) for k in deals}
    hits: Counter[str] = Counter()
    cost: Counter[str] = Counter()
    match = Match(seed=seed)
    for number in range(hands):
        if match.phase is Phase.PASSING:
            for seat in range(4):
                rng = random.Random(f"agree:{seed}:{number}:pass:{seat}")
                match.confirm_pass(seat, list(bot.decide(match.view(seat), rng).cards))
        index = 0
        while match.phase in (Phase.PLAYING, Phase.MOON_CHOICE):
            turn = match.turn
            assert turn is not None
            view = match.view(turn)
            index += 1
            decision = bot.decide(view, random.Random(f"agree:{seed}:{number}:{index}"))
            if decision.kind == "moon":
                match.choose_moon(turn, "add")
                continue
            card = decision.cards[0]
            legal = view.legal.mask
            if legal & (legal - 1):
                kind = kind_of(view)
                hits[f"{kind}|n"] += 1
                state = match.play_state
                assert state is not None
                threat = policy.moon_threat(state)
                started = time.process_time()
                hits[f"{kind}|policy"] += policy.choose(state, legal, policy.AVOID, threat) == card
                cost["policy"] += time.process_time() - started
                started = time.process_time()
                sharp = policy.choose_sharp(state, legal, policy.AVOID, threat)
                hits[f"{kind}|sharp"] += sharp == card
                cost["sharp"] += time.process_time() - started
                predictors = [("again", bot), *lites.items()]
                for name, predictor in predictors:
                    rng = random.Random(f"agree:{seed}:{number}:{index}:{name}")
                    started = time.process_time()
                    hits[f"{kind}|{name}"] += predictor.decide(view, rng).cards[0] == card
                    cost[name] += time.process_time() - started
                cost["calls"] += 1
            match.play(card, turn)
        if match.phase is Phase.MATCH_OVER:
            break
        match.next_hand()
    return hits, cost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=8)
    parser.add_argument("--hands", type=int, default=4, help="hands per match (at most)")
    parser.add_argument("--seed", type=int, default=0, help="the first match's seed")
    parser.add_argument("--deals", default="4,8,16", help="deal counts for the cheaper searches")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    deals = tuple(int(k) for k in args.deals.split(",") if k)
    jobs = [(args.seed + m, deals, args.hands) for m in range(args.matches)]
    hits: Counter[str] = Counter()
    cost: Counter[str] = Counter()
    with multiprocessing.Pool(args.workers) as pool:
        for match_hits, match_cost in pool.starmap(play_match, jobs):
            hits.update(match_hits)
            cost.update(match_cost)
    names = ["again", "policy", "sharp", *(f"k{k}" for k in deals)]
    print(f"{'kind':<10}{'plays':>7}" + "".join(f"{name:>8}" for name in names))
    for kind in (*KINDS, "all"):
        kinds = KINDS if kind == "all" else (kind,)
        count = sum(hits[f"{k}|n"] for k in kinds)
        if not count:
            continue
        shares = [sum(hits[f"{k}|{name}"] for k in kinds) / count for name in names]
        print(f"{kind:<10}{count:>7}" + "".join(f"{share:>8.3f}" for share in shares))
    calls = cost["calls"] or 1
    print("CPU ms per call: " + ", ".join(f"{n} {1000 * cost[n] / calls:.3f}" for n in names))


if __name__ == "__main__":
    main()
