"""How much the levers tried on the Expert really differ, beyond the noise of their runs.

Every lever in the table "Every lever at a glance" of ``docs/strength.md``
was measured as a paired change with a 95% interval.  If none of them
changed anything, their figures would scatter around zero by their own
noise alone; if some did, the figures scatter more.  This reads the table's
paired figures (rows marked "unpaired", or with no interval, are left out),
takes each interval's half-width over 1.96 as its standard error, and
prints:

- Cochran's Q, the spread of the figures in units of their own noise,
  against its expectation with no real differences (the number of levers
  less one);
- tau, the DerSimonian-Laird estimate of how far the levers' true effects
  spread around their mean, in points per hand (0: no spread beyond noise);
- each lever's figure, its z (figure over standard error), and the figure
  shrunk towards the mean by tau (what a lever of that figure is likely
  worth, given how levers have turned out).

``--exclude`` drops rows whose lever cell contains the given text (for
instance the few levers known to be far from zero), to see whether the
rest differ at all.

Example::

    python benchmarks/lever_spread.py
    python benchmarks/lever_spread.py --exclude playout_noise --exclude shoot_check=true \\
        --exclude moon_lookahead=1
"""

from __future__ import annotations

import argparse
import math
import re
from dataclasses import dataclass
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "strength.md"
TABLE_HEADING = "#### Every lever at a glance"
NUMBER = r"[+\-−]?\d+(?:\.\d+)?"
FIGURE = re.compile(rf"({NUMBER}) \[({NUMBER}), ({NUMBER})\]")


@dataclass(frozen=True)
class Lever:
    name: str
    figure: float
    error: float
    """The standard error, from the 95% interval's half-width."""


def number(text: str) -> float:
    return float(text.replace("−", "-"))


def levers(doc: str) -> list[Lever]:
    """The paired figures of the lever table, in its order."""
    start = doc.index(TABLE_HEADING)
    found = []
    for line in doc[start:].splitlines()[1:]:
        if line.startswith("#"):
            break
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 5 or not line.startswith("| "):
            continue
        last = cells[3]
        match = FIGURE.search(last)
        if match is None or "unpaired" in last[: match.end() + 12]:
            continue
        low, high = number(match[2]), number(match[3])
        if high <= low:
            continue
        found.append(Lever(cells[0], number(match[1]), (high - low) / 2 / 1.96))
    return found


def spread(found: list[Lever]) -> tuple[float, float, float]:
    """Cochran's Q, the inverse-variance mean, and the DerSimonian-Laird tau."""
    weights = [1 / lever.error**2 for lever in found]
    total = sum(weights)
    mean = sum(w * lever.figure for w, lever in zip(weights, found, strict=True)) / total
    q = sum(w * (lever.figure - mean) ** 2 for w, lever in zip(weights, found, strict=True))
    scale = total - sum(w * w for w in weights) / total
    tau2 = max(0.0, (q - (len(found) - 1)) / scale) if scale > 0 else 0.0
    return q, mean, math.sqrt(tau2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--doc", type=Path, default=DOC, help="the strength document")
    parser.add_argument(
        "--exclude", action="append", default=[], help="leave out rows whose lever has this text"
    )
    args = parser.parse_args()
    found = [
        lever
        for lever in levers(args.doc.read_text(encoding="utf-8"))
        if not any(text in lever.name for text in args.exclude)
    ]
    if len(found) < 2:
        parser.error("fewer than two paired figures in the table")
    q, mean, tau = spread(found)
    print(f"{'lever':58} {'figure':>8} {'z':>6} {'shrunk':>8}")
    for lever in found:
        shrink = tau**2 / (tau**2 + lever.error**2)
        shrunk = mean + shrink * (lever.figure - mean)
        name = lever.name if len(lever.name) <= 58 else lever.name[:55] + "..."
        print(f"{name:58} {lever.figure:+8.3f} {lever.figure / lever.error:+6.2f} {shrunk:+8.3f}")
    beyond = sum(abs(lever.figure / lever.error) > 1.96 for lever in found)
    print()
    print(
        f"levers: {len(found)}; |z| > 1.96: {beyond} (with no real effects, about "
        f"{0.05 * len(found):.1f})"
    )
    print(
        f"Cochran's Q {q:.1f} on {len(found) - 1} degrees of freedom "
        f"(with no real differences, about {len(found) - 1})"
    )
    print(f"mean {mean:+.3f} pts/hand; tau (the true effects' spread) {tau:.3f} pts/hand")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
