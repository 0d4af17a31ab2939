"""How much the Expert's decisions lose to search noise, against a far bigger search.

The Expert estimates each option's cost from a few hundred sampled deals, so
it sometimes picks an option that a much larger search of the same model
would rank lower.  This measures that: positions come from hands played by
four ``expert-2026-11``; a *gold* Expert (the same model with a budget many
times the default) costs every option of each position once; then each
setting given decides every position with two seeds, and its **regret** is
the gold cost of the option it chose minus the gold cost of the best option,
in points, averaged over decisions.

This measures the search's noise only, never the model: a setting that
changes what is estimated (the policy, the likelihood) needs the arena.  Less
regret is more strength only as far as the model is right; the December 2026
Expert's pool lowered the play regret from 0.17 to 0.04 and gained 0.65
points per hand in the arena (``docs/strength.md``).

Examples::

    python benchmarks/expert_regret.py plays --positions 160 --set pool=2400
    python benchmarks/expert_regret.py passes --positions 40 --set pass_rounds=3
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from expert_decisions import positions
from hearts.bots import make_bot
from hearts.bots.expert import ExpertBot
from hearts.bots.search import Weighed
from hearts.match import Phase
from hearts.view import SeatView

GOLD = {"plays": {"pool": 8000, "samples": 1000}, "passes": {"pass_samples": 3000}}
"""The gold search's budget: 10 times the default's deals for plays, ~19 times for passes."""


def weigh(bot: ExpertBot, kind: str, view: SeatView, seed: int) -> Weighed[Any]:
    rng = random.Random(seed)
    return bot.weigh_plays(view, rng) if kind == "plays" else bot.weigh_passes(view, rng)


def regret_of(
    bot: ExpertBot, kind: str, golds: list[tuple[SeatView, Weighed[Any]]]
) -> tuple[float, int, int, float]:
    """Mean regret, decisions, decisions not on the gold best, CPU seconds per decision."""
    total, wrong, count = 0.0, 0, 0
    started = time.process_time()
    for view, gold in golds:
        best = min(gold.costs)
        for seed in (1, 2):
            chosen = weigh(bot, kind, view, seed).chosen
            regret = gold.costs[gold.options.index(chosen)] - best
            total += regret
            wrong += regret > 0
            count += 1
    return total / count, count, wrong, (time.process_time() - started) / count


def add_settings_argument(parser: argparse.ArgumentParser) -> None:
    """``--set``: Expert settings to measure besides the default."""
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a setting to compare with the default (repeat; each --set is one more setting "
        "measured, several names joined with commas are measured together)",
    )


def experts(specs: list[str]) -> list[tuple[dict[str, Any], ExpertBot]]:
    """The default Expert, then one for each ``--set`` given, with its settings."""
    found = []
    for spec in ["", *specs]:
        settings: dict[str, Any] = {}
        for pair in filter(None, spec.split(",")):
            name, value = pair.split("=", 1)
            settings[name] = json.loads(value)
        bot = make_bot("expert", **settings)
        assert isinstance(bot, ExpertBot)
        found.append((settings, bot))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=["plays", "passes"])
    parser.add_argument("--positions", type=int, default=160)
    parser.add_argument("--seed", type=int, default=77)
    add_settings_argument(parser)
    args = parser.parse_args()
    views = [
        view
        for view in positions("expert-2026-11", 12, 4, args.seed)
        if (view.phase is Phase.PASSING) == (args.kind == "passes")
        and (args.kind == "passes" or view.plays)
    ]
    random.Random(args.seed).shuffle(views)
    gold_bot = make_bot("expert", **GOLD[args.kind])
    assert isinstance(gold_bot, ExpertBot)
    golds: list[tuple[SeatView, Weighed[Any]]] = []
    started = time.process_time()
    for view in views:
        gold = weigh(gold_bot, args.kind, view, 12345)
        if len(gold.options) > 1:
            golds.append((view, gold))
        if len(golds) == args.positions:
            break
    print(
        f"{len(golds)} {args.kind} positions with a choice, gold {GOLD[args.kind]}: "
        f"{time.process_time() - started:.0f} s CPU"
    )
    for settings, bot in experts(args.set):
        regret, count, wrong, cpu = regret_of(bot, args.kind, golds)
        print(
            f"expert {settings or '(defaults)'}: regret {regret:.3f} points per decision over "
            f"{count} decisions, {wrong} not the gold best; {cpu * 1000:.0f} ms CPU per decision"
        )


if __name__ == "__main__":
    main()
