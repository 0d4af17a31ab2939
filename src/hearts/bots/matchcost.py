"""What a hand's outcome costs one seat, given the match so far: the Expert's and the coach's
scale (lower is better).

While the match goes on, a hand costs the seat its own points less a weighted share of the
opponents' points: the opponent nearest the lowest total threatens the seat's win most, so
points it takes are worth more, and more so as the match nears its end.  A hand that ends
the match costs :data:`WIN_COST` or :data:`LOSS_COST`, far beyond any hand's points, plus a
tenth of the margin.

>>> from hearts import Match
>>> cost = MatchCost.for_view(Match(seed=1).view(0))
>>> cost.of_points((0, 26, 0, 0)) < cost.of_points((26, 0, 0, 0))
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from hearts.rules import Rules
from hearts.view import SeatView

WIN_COST = -60.0
LOSS_COST = 60.0
"""A finish that ends the match counts far beyond any hand's points."""


@dataclass(frozen=True)
class MatchCost:
    """The cost of a hand's outcome for one seat, given the match's totals before it."""

    rules: Rules
    seat: int
    totals: tuple[int, int, int, int]
    weights: tuple[float, float, float, float]
    """How much each opponent's points help us (they sum to 1; ours is 0)."""

    @classmethod
    def for_view(cls, view: SeatView) -> MatchCost:
        seat = view.seat
        totals = view.totals
        leader = min(totals[s] for s in range(4) if s != seat)
        closeness = min(max(totals) / view.rules.target, 1.0)
        spread = 30.0 - 20.0 * closeness
        raw = [0.0 if s == seat else math.exp(-(totals[s] - leader) / spread) for s in range(4)]
        norm = sum(raw)
        weights = (raw[0] / norm, raw[1] / norm, raw[2] / norm, raw[3] / norm)
        return cls(view.rules, seat, totals, weights)

    def of_points(self, points: Sequence[int]) -> float:
        """The cost of the hand's points (one per seat)."""
        seat = self.seat
        totals = [self.totals[s] + points[s] for s in range(4)]
        if max(totals) >= self.rules.target:
            best_other = min(totals[s] for s in range(4) if s != seat)
            margin = (totals[seat] - best_other) * 0.1
            return (WIN_COST if totals[seat] < best_other else LOSS_COST) + margin
        w = self.weights
        return points[seat] - (
            w[0] * points[0] + w[1] * points[1] + w[2] * points[2] + w[3] * points[3]
        )

    def cost(self, taken: list[int]) -> float:
        """The cost of a finished hand, from the cards each seat took; a moon adds 26 to the
        others (the Expert's search scores every moon so)."""
        points, _ = self.rules.score_hand(taken, "add")
        return self.of_points(points)

    def points(self, taken: Sequence[int]) -> tuple[int, int, int, int]:
        """The hand's points; a moon is scored the way that suits its shooter.

        Under ``moon: "choice"`` the shooter picks: our seat the cheaper scoring
        for us, an opponent (whose mind we cannot read) adds to the others.
        """
        points, shooter = self.rules.score_hand(list(taken), "add")
        if shooter == self.seat and self.rules.moon == "choice":
            other, _ = self.rules.score_hand(list(taken), "subtract")
            if self.of_points(other) < self.of_points(points):
                points = other
        return points
