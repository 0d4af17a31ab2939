"""How well the Expert's weighted deals predict where the hidden cards really are.

The Expert weighs each sampled deal of the hidden cards by how likely the
opponents' plays so far were in it (``ExpertBot.deal_weights``).  That is
inference, and it can be scored without playing a single hand out: in real
positions (every play with a choice from the second trick on, in hands played
by four bots of one level, ``--players``, default ``expert-2026-11``, the
level the Expert is measured against), deal the hidden cards ``--pool`` times
as the Expert does, weigh the deals with each setting, and score the chance
the weighted deals give each unseen card of being where it really is (the
log of it: a proper scoring rule, so the truer the chances the higher the
score).  The figures are per unseen card, minus the score of the unweighted
deals (which know the voids and the passed cards, and nothing else):
positive means the weights help, negative that they mislead.  All settings
are scored on the same deals.  The spade honours (queen, king, ace) are
also scored apart: where they lie decides most hands.

Examples::

    python benchmarks/expert_inference.py
    python benchmarks/expert_inference.py --set play_noise=0.8 \\
        --set lead_noise=0.95,play_noise=0.65,discard_noise=0.8
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from typing import Any

from hearts.bots import make_bot
from hearts.bots.expert import ExpertBot
from hearts.bots.knowledge import Knowledge, sample_hidden
from hearts.cards import ACE_OF_SPADES, KING_OF_SPADES, QUEEN_OF_SPADES
from hearts.match import Match, Phase
from hearts.view import SeatView

HONOURS = (QUEEN_OF_SPADES, KING_OF_SPADES, ACE_OF_SPADES)
FLOOR = 1e-3
"""A chance below this scores as this: one impossible-looking card must not outweigh all."""


Position = tuple[SeatView, list[int]]


def positions(players: str, matches: int, hands: int, seed: int) -> list[Position]:
    """(view, the true holdings now) at every play with a choice from the second trick on."""
    bot = make_bot(players)
    found: list[Position] = []
    for m in range(matches):
        match = Match(seed=seed + m)
        rng = random.Random(m)
        for hand in range(hands):
            if hand:
                match.next_hand()
            if match.phase is Phase.PASSING:
                chosen = [list(bot.decide(match.view(seat), rng).cards) for seat in range(4)]
                for seat in range(4):
                    match.confirm_pass(seat, chosen[seat])
            while match.phase is Phase.PLAYING:
                view = match.view(match.turn)
                if len(view.tricks) >= 2 and len(view.legal) > 1:
                    found.append((view, list(match.play_state.hands)))
                match.play(bot.decide(view, rng).cards[0])
            if match.phase is not Phase.HAND_OVER:
                break
    return found


def log_scores(
    deals: list[list[int]], weights: list[float], truth: list[int], unseen: list[int], seat: int
) -> tuple[float, float]:
    """Summed log-chance of each unseen card's true seat, all cards and the spade honours."""
    total = sum(weights)
    score = honours = 0.0
    for card in unseen:
        holder = next(s for s in range(4) if s != seat and truth[s] >> card & 1)
        chance = sum(w for w, deal in zip(weights, deals, strict=True) if deal[holder] >> card & 1)
        value = math.log(max(chance / total, FLOOR))
        score += value
        if card in HONOURS:
            honours += value
    return score, honours


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="expert-2026-11")
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--seed", type=int, default=300)
    parser.add_argument("--pool", type=int, default=300, help="deals per position")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE[,NAME=VALUE]",
        help="Expert settings to score besides the defaults (repeat for more)",
    )
    args = parser.parse_args()
    specs: list[dict[str, Any]] = [{}]
    for spec in args.set:
        settings: dict[str, Any] = {}
        for pair in filter(None, spec.split(",")):
            name, value = pair.split("=", 1)
            settings[name] = json.loads(value)
        specs.append(settings)
    bots = [make_bot("expert", **settings) for settings in specs]
    started = time.process_time()
    found = positions(args.players, args.matches, args.hands, args.seed)
    cards = honour_cards = 0
    base = [0.0, 0.0]
    sums = [[0.0, 0.0] for _ in bots]
    for index, (view, truth) in enumerate(found):
        knowledge = Knowledge.from_view(view)
        rng = random.Random(index)
        deals = [deal for _ in range(args.pool) if (deal := sample_hidden(knowledge, rng))]
        unseen = [card for card in range(52) if knowledge.unseen >> card & 1]
        cards += len(unseen)
        honour_cards += sum(card in HONOURS for card in unseen)
        flat = log_scores(deals, [1.0] * len(deals), truth, unseen, view.seat)
        base = [base[0] + flat[0], base[1] + flat[1]]
        for bot, total in zip(bots, sums, strict=True):
            assert isinstance(bot, ExpertBot)
            weights = bot.deal_weights(view, deals)
            score = log_scores(deals, weights, truth, unseen, view.seat)
            total[0] += score[0]
            total[1] += score[1]
    print(
        f"{len(found)} positions ({args.matches} matches x {args.hands} hands of {args.players}, "
        f"seed {args.seed}), {args.pool} deals each, {cards} unseen cards: "
        f"{time.process_time() - started:.0f} s CPU"
    )
    print(
        f"unweighted deals: {base[0] / cards:.4f} per card, "
        f"{base[1] / honour_cards:.4f} per spade honour"
    )
    for settings, total in zip(specs, sums, strict=True):
        print(
            f"expert {settings or '(defaults)'}: {(total[0] - base[0]) / cards:+.4f} per card, "
            f"{(total[1] - base[1]) / honour_cards:+.4f} per spade honour, against unweighted"
        )


if __name__ == "__main__":
    main()
