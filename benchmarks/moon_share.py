"""How much of a play search's weight plays a suspected shooter as shooting.

Where an opponent has won every penalty card so far, the Expert plays it as
shooting the moon in a share of its deals (:func:`hearts.bots.moon.suspicion`,
from :data:`~hearts.bots.moon.MOON_TABLE`): the first deals of the round, by
their place among the ``samples`` the search draws.  The deals drawn come from
the weighed pool, and a deal drawn several times is kept once with its count
as weight, so fewer than ``samples`` distinct deals are played out.  This
prints, over every play position with a suspect (from whole hands among
four ``expert-2026-11``, as ``expert_decisions.py`` deals them), the share the
table intends, the share of the drawn weight that is in fact played as
shooting (``moon_by_weight=true`` places the deals by weight,
``moon_evidence=1`` by weight and by how well the suspect's plays fit a
moon), and how many
distinct deals are drawn.  It repeats the first round
of :meth:`~hearts.bots.expert.ExpertBot.weigh_plays` up to the playouts, and
plays none.

Example::

    python benchmarks/moon_share.py --set pool=1600,samples=300
"""

from __future__ import annotations

import argparse
import random

from expert_decisions import positions
from expert_regret import add_settings_argument, experts
from hearts.bots.expert import ExpertBot, moon_places
from hearts.bots.knowledge import Knowledge, sample_hidden
from hearts.bots.search import resample
from hearts.match import Phase
from hearts.view import SeatView


def shares(bot: ExpertBot, views: list[SeatView]) -> tuple[int, float, float, float]:
    """Positions with a suspect; mean intended share, mean share of the drawn weight played
    as shooting, mean distinct deals drawn."""
    intended = actual = distinct = 0.0
    count = 0
    for index, view in enumerate(views):
        suspect, suspicion = bot.suspicion(view)
        if suspicion <= 0:
            continue
        rng = random.Random(index)
        knowledge = Knowledge.from_view(view)
        dealt = (sample_hidden(knowledge, rng) for _ in range(max(bot.pool, bot.samples)))
        worlds = [world for world in dealt if world is not None]
        evidence = bot.evidence(view, worlds[0])
        weighed = [evidence.weigh(world) for world in worlds]
        drawn, weights, _ = resample(
            worlds, [w for w, _ in weighed], [s for _, s in weighed], bot.samples, rng
        )
        odds = None
        if bot.moon_evidence and suspect is not None:
            odds = [bot.moon_evidence * evidence.shoot_odds(world, suspect) for world in drawn]
        places = moon_places(weights, bot.samples, 0, bot.moon_by_weight, odds)
        shooting = sum(
            weight for place, weight in zip(places, weights, strict=True) if place < suspicion
        )
        intended += suspicion
        actual += shooting / sum(weights)
        distinct += len(drawn)
        count += 1
    if not count:
        return 0, 0.0, 0.0, 0.0
    return count, intended / count, actual / count, distinct / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=8)
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--seed", type=int, default=77)
    add_settings_argument(parser)
    args = parser.parse_args()
    views = [
        view
        for view in positions("expert-2026-11", args.matches, args.hands, args.seed)
        if view.phase is not Phase.PASSING and view.legal.mask & (view.legal.mask - 1)
    ]
    for settings, bot in experts(args.set):
        count, intended, actual, distinct = shares(bot, views)
        print(
            f"expert {settings or '(defaults)'}: {count} plays with a suspect; share meant "
            f"{intended:.3f}, share of the drawn weight played as shooting {actual:.3f}; "
            f"{distinct:.0f} distinct deals of {bot.samples} drawn"
        )


if __name__ == "__main__":
    main()
