"""Whole matches of four bots of one level, saved hand by hand for learning their plays.

Each line of the output (JSON lines) is one hand: the holdings after the
pass (``hands``, four card masks), the 52 cards in the order played
(``plays``), the pass direction and the match totals before the hand.  That
is all it takes to replay every decision of the hand in a ``HandState``;
``benchmarks/fit_play_model.py`` learns the level's plays from it.

Every decision has its own generator, seeded from the match seed, hand and
decision index, so the same command writes the same file on any machine.

Example::

    python benchmarks/play_games.py --level expert-2026-11 --matches 40 --seed 0 \\
        --workers 2 --out /tmp/learn/games.jsonl
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import time
from typing import Any

from hearts.bots import make_bot
from hearts.match import Match, Phase


def play_match(level: str, seed: int) -> list[dict[str, Any]]:
    """Every hand of one match, from ``Match(seed=seed)`` to its end."""
    bot = make_bot(level)
    match = Match(seed=seed)
    hands: list[dict[str, Any]] = []
    while True:
        totals = list(match.totals)
        direction = match.pass_direction.name
        number = match.hand_number
        index = 0

        def rng(number: int = number) -> random.Random:
            nonlocal index
            index += 1
            return random.Random(f"play-games:{seed}:{number}:{index}")

        if match.phase is Phase.PASSING:
            chosen = [list(bot.decide(match.view(seat), rng()).cards) for seat in range(4)]
            for seat in range(4):
                match.confirm_pass(seat, chosen[seat])
        log = match.current
        holdings = log.holdings_after_pass(match.pass_direction)
        while match.phase in (Phase.PLAYING, Phase.MOON_CHOICE):
            turn = match.turn
            assert turn is not None
            decision = bot.decide(match.view(turn), rng())
            if decision.kind == "moon":
                match.choose_moon(turn, "subtract" if decision.moon == "subtract" else "add")
                continue
            match.play(decision.cards[0], turn)
        hands.append(
            {
                "seed": seed,
                "hand": number,
                "direction": direction,
                "totals": totals,
                "hands": holdings,
                "plays": list(log.plays),
            }
        )
        if match.phase is Phase.MATCH_OVER:
            return hands
        match.next_hand()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="expert-2026-11")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0, help="the first match's seed")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    started = time.time()
    seeds = [args.seed + m for m in range(args.matches)]
    count = 0
    with multiprocessing.Pool(args.workers) as pool, open(args.out, "w") as out:
        jobs = [pool.apply_async(play_match, (args.level, seed)) for seed in seeds]
        for job in jobs:
            for hand in job.get():
                out.write(json.dumps(hand) + "\n")
                count += 1
            out.flush()
    print(f"{count} hands of {args.matches} matches in {time.time() - started:.0f} s: {args.out}")


if __name__ == "__main__":
    main()
