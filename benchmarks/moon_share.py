"""How much of a play search's weight plays a suspected shooter as shooting, and how often
its moon comes off there.

Where an opponent has won every penalty card so far, the Expert plays it as
shooting the moon in a share of its deals (:func:`hearts.bots.moon.suspicion`,
from :data:`~hearts.bots.moon.MOON_TABLE`): the first deals of the round, by
their place among the ``samples`` the search draws.  The deals drawn come from
the weighed pool, and a deal drawn several times is kept once with its count
as weight, so fewer than ``samples`` distinct deals are played out.  This
prints, over every play position with a suspect (from whole hands among
four ``expert-2026-11``, as ``expert_decisions.py`` deals them):

- the share the table intends;
- the share of the drawn weight that is in fact played as shooting
  (``moon_by_weight=true`` places the deals by weight, ``moon_evidence=1`` by
  weight and by how well the suspect's plays fit a moon, ``moon_fit`` in the
  deals where its moon comes off);
- the share of the drawn weight in which the suspect is played as shooting
  *and* its moon comes off: it takes every penalty card shooting from here
  while every other seat, ours too, avoids points by the playout policy
  (:func:`hearts.bots.moon.moon_hands`), which is at most what the search
  expects of the moon;
- the share in which it would come off if the suspect shot in every deal;
- how often the suspect really shot the moon in that hand;
- how many distinct deals are drawn.

It repeats the first round of :meth:`~hearts.bots.expert.ExpertBot.weigh_plays`
up to the playouts, and plays only the moon's.  The positions of one hand
are not independent: the real share is of few hands.

Example::

    python benchmarks/moon_share.py --set pool=1600,samples=300
    python benchmarks/moon_share.py --matches 20 --set moon_fit=4
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass

from expert_decisions import positions_and_shooters
from expert_regret import add_settings_argument, experts
from hearts.bots.expert import ExpertBot
from hearts.bots.knowledge import Knowledge, sample_hidden, state_template
from hearts.bots.moon import fit_moon, moon_hands, moon_places
from hearts.bots.search import resample
from hearts.match import Phase
from hearts.view import SeatView


@dataclass
class Shares:
    """Sums over the positions with a suspect (divide by ``count``)."""

    count: int = 0
    meant: float = 0.0
    shooting: float = 0.0
    comes_off: float = 0.0
    if_all_shot: float = 0.0
    real: float = 0.0
    distinct: float = 0.0

    def line(self) -> str:
        n = max(self.count, 1)
        return (
            f"{self.count} plays with a suspect; share meant {self.meant / n:.3f}, "
            f"of the drawn weight played as shooting {self.shooting / n:.3f}, "
            f"played as shooting and the moon comes off {self.comes_off / n:.3f} "
            f"(if it shot in every deal {self.if_all_shot / n:.3f}); "
            f"the suspect really shot {self.real / n:.3f}; "
            f"{self.distinct / n:.0f} distinct deals"
        )


def share_of(weights: list[float], chosen: list[bool]) -> float:
    """The share of the weight in the chosen deals."""
    return sum(w for w, yes in zip(weights, chosen, strict=True) if yes) / sum(weights)


def shares(bot: ExpertBot, positions: list[tuple[SeatView, int | None]]) -> Shares:
    """The shares of the module's docstring, summed over the positions with a suspect."""
    found = Shares()
    for index, (view, shooter) in enumerate(positions):
        suspect, suspicion = bot.suspicion(view)
        if suspect is None or suspicion <= 0:
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
        template = state_template(view, drawn[0])
        comes_off = [
            moon_hands(template, world, view.seat, view.rules, 1 << suspect) != 0 for world in drawn
        ]
        odds = None
        if bot.moon_evidence:
            odds = [bot.moon_evidence * evidence.shoot_odds(world, suspect) for world in drawn]
        places = moon_places(weights, bot.samples, 0, bot.moon_by_weight, odds)
        shoots = [place < suspicion for place in places]
        fitted = fit_moon(weights, comes_off, suspicion, bot.moon_fit) if bot.moon_fit else None
        played = weights if fitted is None else fitted
        if fitted is not None:
            shoots = comes_off
        both = [shot and off for shot, off in zip(shoots, comes_off, strict=True)]
        found.count += 1
        found.meant += suspicion
        found.shooting += share_of(played, shoots)
        found.comes_off += share_of(played, both)
        found.if_all_shot += share_of(weights, comes_off)
        found.real += shooter == suspect
        found.distinct += len(drawn)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=8)
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--seed", type=int, default=77)
    add_settings_argument(parser)
    args = parser.parse_args()
    plays = [
        (view, shooter)
        for view, shooter in positions_and_shooters(
            "expert-2026-11", args.matches, args.hands, args.seed
        )
        if view.phase is not Phase.PASSING and view.legal.mask & (view.legal.mask - 1)
    ]
    for settings, bot in experts(args.set):
        print(f"expert {settings or '(defaults)'}: {shares(bot, plays).line()}")


if __name__ == "__main__":
    main()
