"""How well the Expert's search foresees its own moons: what it expected, what it got.

At each of its decisions the Expert's search scores every candidate twice, once
with our seat avoiding points and once shooting, and a candidate's cost is the
cheaper of the two.  Where the chosen candidate's cheaper way is shooting, the
search expects a moon.  This plays the arena's hands (the same deal sets,
rotations and decision seeds as ``hearts arena``), the Expert in one seat against
three ``expert-2026-11``, and for each hand in which the Expert chose a card for
its moon it notes the first such play: the trick, what the search expected of
shooting (the chosen card's cost) and of its best card avoiding points, and what
the hand cost in the end, on the same scale
(:class:`~hearts.bots.matchcost.MatchCost`, as the search scores).  Passes
chosen for the moon are noted the same way.

A search whose moons come true as often as it expects would show, on average,
about the same gap between the expected and the real cost in the hands it went
for the moon as in the others.  ``docs/strength.md`` ("The twenty-sixth
session") has what it showed.

Example::

    python benchmarks/moon_calibration.py --deal-sets 13 --seed 500 [--set shoot_bias=5]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import random
import statistics
from dataclasses import dataclass
from typing import Any

from hearts import arena
from hearts.arena import HandOutcome, Unit, parse_settings
from hearts.bots import Decision, make_bot, search
from hearts.bots.expert import ExpertBot
from hearts.bots.matchcost import MatchCost
from hearts.bots.search import Weighed
from hearts.view import SeatView

HANDS_PER_SET = 4
"""A deal set is one pass cycle, as in the arena's hands mode."""

AVOID, SHOOT = 0, 1


@dataclass(frozen=True)
class Choice:
    """One decision of the Expert: the trick it was in (0 for the pass), the chosen option's
    expected cost avoiding points and shooting (None where it could not shoot), whether the
    search chose it for shooting (with ``shoot_bias``, shooting must win by the handicap),
    the best expected cost of any option avoiding points, the hand's real cost on the same
    scale, and whether the Expert shot the moon."""

    trick: int
    avoid: float
    shoot: float | None
    for_the_moon: bool
    best_avoid: float
    real: float
    moon: bool

    @property
    def expected(self) -> float:
        """The chosen option's expected cost, in the way the search chose it for."""
        return self.shoot if self.for_the_moon and self.shoot is not None else self.avoid


_last: list[tuple[int, int, list[list[float]]]] = []
"""The last search: the chosen option's index, its mode, every option's costs by mode."""


def _recording(original: Any) -> Any:
    def weighed(self: search.Search, options: list[Any]) -> Weighed[Any]:
        result = original(self, options)
        by_mode = [
            [total / self.weight[c] if self.weight[c] > 0 else float("inf") for total in sums]
            for c, sums in enumerate(self.sums)
        ]
        chosen = options.index(result.chosen)
        _last[:] = [(chosen, self.cost(chosen)[1], by_mode)]
        return result

    return weighed


search.Search.weighed = _recording(search.Search.weighed)  # type: ignore[method-assign]


@dataclass(frozen=True)
class RecordingExpert(ExpertBot):
    """The Expert, noting for each of its decisions the hand, the trick (0 for the pass), the
    scale the hand is costed on and what its search weighed (:data:`_last`, if it searched)."""

    @property
    def level(self) -> str:
        return "expert"

    def decide(self, view: SeatView, rng: random.Random) -> Decision:
        _last.clear()
        decision = super().decide(view, rng)
        trick = 0 if decision.kind == "pass" else len(view.tricks)
        _decisions.append((view.hand_number, trick, MatchCost.for_view(view), list(_last)))
        return decision


_decisions: list[tuple[int, int, MatchCost, list[tuple[int, int, list[list[float]]]]]] = []
"""The Expert's decisions in the unit being played (:class:`RecordingExpert`)."""


def play_unit(job: tuple[int, int, int, dict[str, Any]]) -> list[dict[str, Any]]:
    """One deal set in one rotation, played by :func:`hearts.arena.play_unit` (the Expert is
    entrant 0, so it sits at the rotation's seat): each hand's record (:func:`hand_record`)."""
    seed, deal_set, rotation, settings = job
    frozen = make_bot("expert-2026-11")
    entrants = (RecordingExpert(**settings), frozen, frozen, frozen)
    _decisions.clear()
    result = arena.play_unit(Unit(seed, deal_set, rotation, entrants, HANDS_PER_SET))
    by_hand: dict[int, list[tuple[int, MatchCost, list[tuple[int, int, list[list[float]]]]]]] = {}
    for hand, trick, scale, searched in _decisions:
        by_hand.setdefault(hand, []).append((trick, scale, searched))
    return [
        hand_record(outcome, rotation, decisions)
        for outcome, decisions in zip(result.hands, by_hand.values(), strict=True)
    ]


def hand_record(
    outcome: HandOutcome,
    expert_seat: int,
    decisions: list[tuple[int, MatchCost, list[tuple[int, int, list[list[float]]]]]],
) -> dict[str, Any]:
    """A hand's record: whether the Expert shot the moon, the hand's real cost to it (on the
    scale of its first decision), its expected cost at its first play with a choice, and its
    first choice for the moon in the pass and in the play (a :class:`Choice`, or None)."""
    real = decisions[0][1].of_points(outcome.points)
    moon = outcome.shooter == expert_seat
    record: dict[str, Any] = {"moon": moon, "real": real, "pass": None, "play": None}
    for trick, _, searched in decisions:
        if not searched:
            continue
        chosen, mode, by_mode = searched[0]
        modes = by_mode[chosen]
        choice = Choice(
            trick,
            modes[AVOID],
            modes[SHOOT] if len(modes) > 1 else None,
            mode == SHOOT,
            min(costs[AVOID] for costs in by_mode),
            real,
            moon,
        )
        kind = "pass" if trick == 0 else "play"
        if kind == "play" and "first_play" not in record:
            record["first_play"] = choice.expected
        if record[kind] is None and choice.for_the_moon:
            record[kind] = dataclasses.asdict(choice)
    return record


def summary(hands: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures: moons, the choices for the moon by phase and trick, the expected and real
    costs."""

    def group(choices: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "hands": len(choices),
            "moons": sum(c["moon"] for c in choices),
            "expected_shooting": round(statistics.fmean(c["shoot"] for c in choices), 2),
            "best_avoiding": round(statistics.fmean(c["best_avoid"] for c in choices), 2),
            "real": round(statistics.fmean(c["real"] for c in choices), 2),
        }

    firsts = [h for h in hands if "first_play" in h]
    out: dict[str, Any] = {
        "hands": len(hands),
        "moons": sum(h["moon"] for h in hands),
        "first_play_expected": round(statistics.fmean(h["first_play"] for h in firsts), 2),
        "first_play_real": round(statistics.fmean(h["real"] for h in firsts), 2),
    }
    passes = [h["pass"] for h in hands if h["pass"]]
    if passes:
        out["pass_for_the_moon"] = group(passes)
    plays = [h["play"] for h in hands if h["play"]]
    if plays:
        out["play_for_the_moon"] = group(plays)
        by_trick: dict[str, list[dict[str, Any]]] = {}
        for c in plays:
            by_trick.setdefault("1" if c["trick"] == 1 else "2+", []).append(c)
        out["play_for_the_moon_by_trick"] = {k: group(v) for k, v in sorted(by_trick.items())}
        by_gain: dict[str, list[dict[str, Any]]] = {}
        for c in plays:
            gain = c["best_avoid"] - c["shoot"]
            band = "0-2" if gain < 2 else "2-5" if gain < 5 else "5-10" if gain < 10 else "10+"
            by_gain.setdefault(band, []).append(c)
        out["play_for_the_moon_by_expected_gain"] = {
            k: group(by_gain[k]) for k in ("0-2", "2-5", "5-10", "10+") if k in by_gain
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deal-sets", type=int, default=13, help="deal sets (16 hands each)")
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--save", help="write every hand's record to this JSON file")
    args = parser.parse_args()
    settings = parse_settings(f"expert.{item}" for item in args.set).get("expert", {})
    jobs = [(args.seed, d, r, settings) for d in range(args.deal_sets) for r in range(4)]
    if args.workers > 1:
        with multiprocessing.Pool(args.workers) as pool:
            units = pool.map(play_unit, jobs)
    else:
        units = [play_unit(job) for job in jobs]
    hands = [hand for unit in units for hand in unit]
    if args.save:
        with open(args.save, "w") as file:
            json.dump(hands, file)
    print(json.dumps({"seed": args.seed, "settings": settings, **summary(hands)}, indent=1))


if __name__ == "__main__":
    main()
