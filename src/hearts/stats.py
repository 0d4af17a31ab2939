"""The statistics of a duplicate-deal tournament: averages over clusters and their intervals.

The deal sets of a tournament (:mod:`hearts.arena`) are its independent
samples; the four rotations of one deal set share their cards and are not.
So every interval here treats a cluster (a deal set) as one sample:
:func:`ratio_ci95` for one level's points per hand, :func:`difference_ci95`
for two levels (or a variant and its control) on the same clusters, with
Student's t for the few clusters a short run has.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Final

_T_975: Final = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
"""Student's t, two-sided 95%, for 1 to 30 degrees of freedom."""


def t_975(df: int) -> float:
    """Student's t quantile 0.975 (a table to 30 degrees of freedom, then Cornish-Fisher)."""
    if df < 1:
        raise ValueError("at least one degree of freedom")
    if df <= len(_T_975):
        return _T_975[df - 1]
    z = 1.959963984540054
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def ratio_ci95(clusters: Sequence[tuple[float, int]]) -> tuple[float, tuple[float, float] | None]:
    """The average over clusters ``(total, count)`` and its 95% interval (None with one cluster).

    >>> mean, (low, high) = ratio_ci95([(1, 1), (2, 1), (3, 1), (4, 1), (5, 1)])
    >>> mean, round(low, 4), round(high, 4)
    (3.0, 1.0371, 4.9629)
    """
    clusters = [(y, n) for y, n in clusters if n > 0]
    if not clusters:
        raise ValueError("no samples")
    total = sum(y for y, _ in clusters)
    count = sum(n for _, n in clusters)
    ratio = total / count
    d = len(clusters)
    if d < 2:
        return ratio, None
    spread = sum((y - ratio * n) ** 2 for y, n in clusters)
    error = math.sqrt(d / (d - 1) * spread) / count
    half = t_975(d - 1) * error
    return ratio, (ratio - half, ratio + half)


def difference_ci95(
    first: Mapping[int, Sequence[float]], second: Mapping[int, Sequence[float]]
) -> tuple[float, tuple[float, float] | None]:
    """The difference of two averages over the same clusters, and its 95% interval.

    ``first`` and ``second`` map a cluster (a deal set) to ``(total, count)``
    of each level.  The difference is ``R1 - R2`` of the two ratio averages;
    its standard error is the cluster-robust one of the linearised residuals
    ``e_d = (y1_d - R1 * n1_d) / N1 - (y2_d - R2 * n2_d) / N2``, i.e.
    ``sqrt(D / (D - 1) * sum(e_d**2))``, which pairs the two levels deal set
    by deal set (when all deal sets have the same length, it is the standard
    error of the mean of the per-deal-set differences).  None with one deal set.

    >>> diff, (low, high) = difference_ci95({0: (3, 1), 1: (5, 1)}, {0: (1, 1), 1: (2, 1)})
    >>> diff, round(low, 3), round(high, 3)
    (2.5, -3.853, 8.853)
    """
    clusters = sorted(set(first) & set(second))
    if not clusters:
        raise ValueError("no shared samples")
    n1 = sum(first[d][1] for d in clusters)
    n2 = sum(second[d][1] for d in clusters)
    if n1 <= 0 or n2 <= 0:
        raise ValueError("no samples")
    r1 = sum(first[d][0] for d in clusters) / n1
    r2 = sum(second[d][0] for d in clusters) / n2
    count = len(clusters)
    if count < 2:
        return r1 - r2, None
    spread = sum(
        ((first[d][0] - r1 * first[d][1]) / n1 - (second[d][0] - r2 * second[d][1]) / n2) ** 2
        for d in clusters
    )
    half = t_975(count - 1) * math.sqrt(count / (count - 1) * spread)
    return r1 - r2, (r1 - r2 - half, r1 - r2 + half)


def percentile(values: Sequence[float], fraction: float) -> float:
    """Linear interpolation between the closest ranks (``fraction`` 0.5 is the median)."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    position = fraction * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)
