"""The bookkeeping of the Expert's search: each candidate's weighted costs over sampled deals.

:class:`Search` adds up what each candidate (a card, or a set of cards to
pass) cost in each deal, for each mode of our own play, drops the candidates
that are clearly worse than the best, and picks the best; :class:`Weighed`
is what it hands back: every option with its cost, and the choice;
:func:`resample` draws the deals to play out from the many weighed.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Generic, TypeVar

TIE_MARGIN = 0.05
"""A card must beat the policy's choice by this much (in points) to replace it."""

OptionT = TypeVar("OptionT")


@dataclass(frozen=True)
class Weighed(Generic[OptionT]):
    """What a search compared: each option's expected cost (lower is better) and the choice.

    The costs are the search's own estimates, match-aware
    (:class:`~hearts.bots.matchcost.MatchCost`); benchmarks compare them across budgets
    (``benchmarks/expert_regret.py``).
    """

    options: tuple[OptionT, ...]
    costs: tuple[float, ...]
    chosen: OptionT


class Search:
    """Weighted costs of candidates over sampled deals, and which are still worth sampling.

    Each candidate has one cost per mode of our own play (avoiding points,
    shooting); a candidate's cost is its best mode's weighted average, plus that mode's
    ``bias`` (none unless told: a handicap on a mode whose playouts are known to flatter
    it).  The candidates listed first win ties (within ``margin`` points,
    :data:`TIE_MARGIN` unless told).
    """

    def __init__(
        self,
        candidates: int,
        modes: int,
        margin: float = TIE_MARGIN,
        bias: tuple[float, ...] = (),
    ) -> None:
        self.margin = margin
        self.bias = (bias + (0.0,) * modes)[:modes]
        self.sums = [[0.0] * modes for _ in range(candidates)]
        self.weight = [0.0] * candidates
        self.rows: list[tuple[list[int], float, list[list[float]]]] = []
        self.live = list(range(candidates))

    def add(self, active: list[int], weight: float, row: list[list[float]]) -> None:
        """The costs ``row[i][mode]`` of candidate ``active[i]`` in one more deal."""
        for c, costs in zip(active, row, strict=True):
            sums = self.sums[c]
            for mode, cost in enumerate(costs):
                sums[mode] += weight * cost
            self.weight[c] += weight
        self.rows.append((active, weight, row))

    def active(self) -> list[int]:
        return list(self.live)

    def effective(self) -> float:
        """Kish's effective number of deals: what the deals' weights are worth in equal deals."""
        total = sum(weight for _, weight, _ in self.rows)
        squares = sum(weight * weight for _, weight, _ in self.rows)
        return total * total / squares if squares > 0 else 0.0

    def cost(self, c: int) -> tuple[float, int]:
        """The candidate's cost and the mode it comes from."""
        weight = self.weight[c]
        if weight <= 0:
            return math.inf, 0
        sums, bias = self.sums[c], self.bias
        best_mode = min(range(len(sums)), key=lambda mode: sums[mode] + bias[mode] * weight)
        return sums[best_mode] / weight + bias[best_mode], best_mode

    def best(self) -> int:
        """The first candidate of lowest cost, unless a later one is lower by the tie margin."""
        best, best_cost = self.live[0], math.inf
        for c in self.live:
            cost, _ = self.cost(c)
            if cost < best_cost - self.margin:
                best, best_cost = c, cost
        return best

    def weighed(self, options: list[OptionT]) -> Weighed[OptionT]:
        """The options with their costs (in the candidates' order) and the best one."""
        costs = tuple(self.cost(c)[0] for c in range(len(options)))
        return Weighed(tuple(options), costs, options[self.best()])

    def settled(self, close: float) -> bool:
        """Drop the candidates clearly worse than the best; True once only the best is left.

        The difference is taken deal by deal over the deals both were scored
        on, each candidate in its best mode, with the weighted standard error
        of its mean.
        """
        best = self.best()
        best_mode = self.cost(best)[1]
        keep = [best]
        for c in self.live:
            if c == best:
                continue
            mode = self.cost(c)[1]
            handicap = self.bias[mode] - self.bias[best_mode]
            total = weights = 0.0
            diffs: list[tuple[float, float]] = []
            for active, weight, row in self.rows:
                if c in active and best in active:
                    diff = row[active.index(c)][mode] - row[active.index(best)][best_mode]
                    diff += handicap
                    diffs.append((weight, diff))
                    total += weight * diff
                    weights += weight
            if weights <= 0 or len(diffs) < 2:
                keep.append(c)
                continue
            mean = total / weights
            squares = sum(w * w * (d - mean) ** 2 for w, d in diffs)
            error = math.sqrt(squares) / weights
            if mean - self.margin < close * error:
                keep.append(c)
        self.live = sorted(keep)
        return len(self.live) == 1


def resample(
    worlds: list[list[int]],
    weights: list[float],
    shooters: list[int],
    count: int,
    rng: random.Random,
) -> tuple[list[list[int]], list[float], list[int]]:
    """``count`` draws from the deals in proportion to their weights (systematic
    resampling), each distinct deal kept once with the number of its draws as weight."""
    total = sum(weights)
    if total <= 0:
        return worlds[:count], [1.0] * min(count, len(worlds)), shooters[:count]
    step = total / count
    point = rng.random() * step
    drawn: dict[int, int] = {}
    cumulative = 0.0
    index = -1
    for _ in range(count):
        while cumulative <= point and index + 1 < len(weights):
            index += 1
            cumulative += weights[index]
        drawn[index] = drawn.get(index, 0) + 1
        point += step
    kept = sorted(drawn)
    return (
        [worlds[i] for i in kept],
        [float(drawn[i]) for i in kept],
        [shooters[i] for i in kept],
    )
