"""The Expert's decisions outside the arena: CPU time per decision, and how much the seed matters.

Positions come from hands played by four bots of one level (``--players``,
default ``expert-2026-11``): every pass, and every play with more than one
legal card.  Then, for each level given:

- ``times``: the CPU time of each decision (``time.process_time``, which
  other jobs on the machine disturb much less than wall time), as median,
  95th percentile and maximum, passes and plays apart;
- ``seeds``: in how many of the play positions the decision changes when
  only the generator's seed changes (a measure of the search's noise);
- ``changes``: in how many positions the decision with the ``--set``
  settings differs from the level's default one, on the same seed (to be
  read against ``seeds``: part of any change is the search's noise).

Examples::

    python benchmarks/expert_decisions.py times expert-2026-11 expert
    python benchmarks/expert_decisions.py seeds expert-2026-11 expert --players normal
    python benchmarks/expert_decisions.py times expert --set rounds=1 --set pass_rounds=1
    python benchmarks/expert_decisions.py changes expert --players normal --set lookahead=1
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from hearts.bots import Bot, make_bot
from hearts.match import Match, Phase
from hearts.view import SeatView


def positions(players: str, matches: int, hands: int, seed: int) -> list[SeatView]:
    return [view for view, _ in positions_and_shooters(players, matches, hands, seed)]


def positions_and_shooters(
    players: str, matches: int, hands: int, seed: int
) -> list[tuple[SeatView, int | None]]:
    """Every pass and every play with a choice of the hands played, each with the seat that
    shot the moon in its hand (None if nobody did)."""
    bot = make_bot(players)
    found: list[tuple[SeatView, int | None]] = []
    for m in range(matches):
        match = Match(seed=seed + m)
        rng = random.Random(m)
        for hand in range(hands):
            if hand:
                match.next_hand()
            views: list[SeatView] = []
            if match.phase is Phase.PASSING:
                chosen = []
                for seat in range(4):
                    views.append(match.view(seat))
                    chosen.append(list(bot.decide(match.view(seat), rng).cards))
                for seat in range(4):
                    match.confirm_pass(seat, chosen[seat])
            while match.phase is Phase.PLAYING:
                turn = match.turn
                assert turn is not None
                view = match.view(turn)
                if len(view.legal) > 1:
                    views.append(view)
                match.play(bot.decide(view, rng).cards[0])
            shooter = match.results[-1].shooter if match.results else None
            found.extend((view, shooter) for view in views)
            if match.phase is not Phase.HAND_OVER:
                break
    return found


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[round(fraction * (len(ordered) - 1))]


def times(bot: Bot, views: list[SeatView]) -> str:
    spent: dict[str, list[float]] = {"pass": [], "play": []}
    for index, view in enumerate(views):
        start = time.process_time()
        decision = bot.decide(view, random.Random(index))
        spent[decision.kind].append((time.process_time() - start) * 1000)
    every = spent["pass"] + spent["play"]
    parts = [
        f"{kind} n={len(values)} p50 {percentile(values, 0.5):.0f} "
        f"p95 {percentile(values, 0.95):.0f} max {max(values):.0f} ms"
        for kind, values in [*spent.items(), ("all", every)]
        if values
    ]
    return "; ".join(parts)


def seeds(bot: Bot, views: list[SeatView]) -> str:
    plays = [view for view in views if view.phase is Phase.PLAYING]
    changed = sum(
        bot.decide(view, random.Random(2 * index)) != bot.decide(view, random.Random(2 * index + 1))
        for index, view in enumerate(plays)
    )
    return f"the decision changes with the seed in {changed} of {len(plays)} play positions"


def changes(bot: Bot, default: Bot, views: list[SeatView]) -> str:
    changed = {"pass": 0, "play": 0}
    seen = {"pass": 0, "play": 0}
    for index, view in enumerate(views):
        decision = bot.decide(view, random.Random(index))
        seen[decision.kind] += 1
        changed[decision.kind] += decision != default.decide(view, random.Random(index))
    return "; ".join(
        f"{kind}: {changed[kind]} of {seen[kind]} decisions differ from the default"
        for kind in ("pass", "play")
        if seen[kind]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=["times", "seeds", "changes"])
    parser.add_argument("levels", nargs="+")
    parser.add_argument("--players", default="expert-2026-11", help="who plays the positions")
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--hands", type=int, default=2, help="hands per match")
    parser.add_argument("--seed", type=int, default=900)
    parser.add_argument(
        "--set", dest="settings", action="append", default=[], help="NAME=VALUE for every level"
    )
    args = parser.parse_args()
    settings: dict[str, Any] = {}
    for item in args.settings:
        name, _, text = item.partition("=")
        try:
            settings[name] = json.loads(text)
        except ValueError:
            settings[name] = text
    views = positions(args.players, args.matches, args.hands, args.seed)
    for level in args.levels:
        bot = make_bot(level, **settings)
        if args.what == "times":
            result = times(bot, views)
        elif args.what == "seeds":
            result = seeds(bot, views)
        else:
            result = changes(bot, make_bot(level), views)
        print(f"{level} {settings or ''}: {result}", flush=True)


if __name__ == "__main__":
    main()
