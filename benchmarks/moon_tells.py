"""Which signs tell, before a seat has won its points, that it is going for the moon?

Hands are played by four bots of one level (``--players``, default
``expert-2026-11``, the level the Expert is measured against); every seat
is looked at from the seat it passed to, at the start of every trick while
it could still take every penalty card.  Two signs are counted against
whether that seat went on to shoot:

- **the pass** (``ExpertBot(pass_tell=True)``): none of the three cards it
  passed ranks above :data:`hearts.bots.moon.TELL_RANK`.  By the tricks
  played and whether it has won every penalty card so far or nobody has won
  one yet, this is how :data:`hearts.bots.moon.TELL_TABLE` was measured;
- **its plays** (what ``shoot_prior`` weighs): the log-likelihood ratio of
  its plays so far under the playout policy shooting against avoiding
  points (a legal card at random with chance ``--noise``), from its *true*
  cards, so the best this sign can do.

Each row prints the number of (seat, trick) looks, how many of those seats
shot, and the share.

Examples::

    python benchmarks/moon_tells.py
    python benchmarks/moon_tells.py --matches 120 --seed 2000
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import random

from hearts.bots import make_bot, policy
from hearts.bots.likelihood import may_still_shoot
from hearts.bots.moon import TELL_RANK
from hearts.match import Match, Phase
from hearts.rules import PassDirection

Key = tuple[str, ...]


def tricks_bucket(tricks: int) -> str:
    return "0" if tricks == 0 else "1-4" if tricks <= 4 else "5-8" if tricks <= 8 else "9-12"


def ratio_bucket(value: float) -> str:
    return "<0" if value < 0 else "0-1" if value < 1 else "1-2" if value < 2 else ">=2"


def count(players: str, matches: int, seed: int, noise: float) -> dict[str, dict[Key, list[int]]]:
    bot = make_bot(players)
    tables: dict[str, dict[Key, list[int]]] = {
        "pass": collections.defaultdict(lambda: [0, 0]),
        "plays": collections.defaultdict(lambda: [0, 0]),
        "hands": collections.defaultdict(lambda: [0, 0]),
    }
    for m in range(matches):
        match = Match(seed=seed + m)
        rng = random.Random(m)
        for hand in range(4):
            if hand:
                match.next_hand()
            passed = [0, 0, 0, 0]
            if match.phase is Phase.PASSING:
                chosen = [list(bot.decide(match.view(s), rng).cards) for s in range(4)]
                for s in range(4):
                    passed[s] = sum(1 << card for card in chosen[s])
                    match.confirm_pass(s, chosen[s])
            ratios = [0.0] * 4
            looks: list[tuple[int, list[float], int]] = []
            while match.phase is Phase.PLAYING:
                state = match.play_state
                assert state is not None
                state = state.copy()
                if state.trick_count == 0:
                    looks.append((state.tricks_played, ratios[:], may_still_shoot(state)))
                seat = match.turn
                assert seat is not None
                card = bot.decide(match.view(seat), rng).cards[0]
                legal = state.legal_mask()
                if legal & (legal - 1):
                    n = legal.bit_count()
                    threat = policy.moon_threat(state)
                    avoid = policy.choose(state, legal, policy.AVOID, threat)
                    shoot = policy.choose(state, legal, policy.SHOOT, threat)
                    p_avoid = noise / n + (1 - noise if avoid == card else 0.0)
                    p_shoot = noise / n + (1 - noise if shoot == card else 0.0)
                    ratios[seat] += math.log(p_shoot / p_avoid)
                match.play(card)
            if match.phase is Phase.PLAYING:
                break
            shooter = match.results[-1].shooter
            holding_pass = match.pass_direction is PassDirection.HOLD
            for s in range(4):
                if not holding_pass:
                    top = max(card % 13 for card in range(52) if passed[s] >> card & 1)
                    tell = "tell" if top <= TELL_RANK else "no tell"
                    tables["hands"][(tell,)][0] += 1
                    tables["hands"][(tell,)][1] += shooter == s
                for tricks, ratio, candidates in looks:
                    if not candidates >> s & 1:
                        continue
                    holder = "has won them all" if candidates == 1 << s else "none won yet"
                    shot = shooter == s
                    if not holding_pass:
                        row = tables["pass"][(tell, tricks_bucket(tricks), holder)]
                        row[0] += 1
                        row[1] += shot
                    row = tables["plays"][(tricks_bucket(tricks), ratio_bucket(ratio[s]))]
                    row[0] += 1
                    row[1] += shot
            if match.phase is not Phase.HAND_OVER:
                break
    return tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="expert-2026-11")
    parser.add_argument("--matches", type=int, default=60, help="matches of four hands")
    parser.add_argument("--seed", type=int, default=900)
    parser.add_argument("--noise", type=float, default=0.5, help="of the plays' likelihood")
    parser.add_argument("--json", action="store_true", help="also print the tables as JSON")
    args = parser.parse_args()
    tables = count(args.players, args.matches, args.seed, args.noise)
    titles = {
        "hands": "passes (hands): the pass, and whether the passer shot",
        "pass": "the pass: (sign, tricks played, the passer's penalty cards) looks, shot",
        "plays": "the plays: (tricks played, log-likelihood ratio shoot/avoid) looks, shot",
    }
    for name in ("hands", "pass", "plays"):
        print(titles[name])
        for key in sorted(tables[name]):
            looks, shot = tables[name][key]
            print(f"  {' / '.join(key):40} {looks:6} {shot:5} {100 * shot / looks:6.1f}%")
    if args.json:
        print(
            json.dumps(
                {name: {" / ".join(k): v for k, v in t.items()} for name, t in tables.items()}
            )
        )


if __name__ == "__main__":
    main()
