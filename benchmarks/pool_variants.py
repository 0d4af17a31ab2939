"""A variant's paired change over several seeds, from runs saved by ``hearts arena --save``.

Each argument is a pair ``CONTROL.json:VARIANT.json`` of one seed: the
control and the variant saved from the same tournament (``--save`` and
``--save-variant`` of one ``--variant`` run, or two runs with ``--save``
whose only difference is the ``--set`` of the variant).  For each seed it
prints the paired change of "first level minus each other level", as
``hearts arena --variant`` does, and then the change over all the seeds
together: every deal set of every seed is one cluster of the same paired,
cluster-robust interval, so the seeds are pooled by their hands, not by an
average of their intervals.

An argument without a colon is a single saved run: the runs given so are
pooled the same way into one standing, "first level minus each other level"
over all their deal sets (the default's standing over several fresh seeds).

Example::

    python benchmarks/pool_variants.py \\
        /tmp/arena/control-61.json:/tmp/arena/tell-61.json \\
        /tmp/arena/control-62.json:/tmp/arena/tell-62.json
    python benchmarks/pool_variants.py \
        benchmarks/controls/expert-seed101.json benchmarks/controls/expert-seed102.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from hearts.arena_figures import ArenaError, ArenaResult, paired_differences, parts_text
from hearts.variants import variant_changes

SEED_STRIDE = 1_000_000
"""Deal set ``d`` of the ``i``-th pair becomes cluster ``i * SEED_STRIDE + d`` when pooled."""


def load(path: str) -> tuple[ArenaResult, dict[str, Any]]:
    return ArenaResult.from_saved(json.loads(Path(path).read_text(encoding="utf-8")))


def pooled(runs: list[ArenaResult]) -> ArenaResult:
    """The runs as one tournament of all their deal sets (only the deal sets' points kept)."""
    per_deal_set: dict[str, dict[int, tuple[int, int]]] = {}
    parts_per_deal_set: dict[str, dict[int, tuple[int, ...]]] = {}
    for index, run in enumerate(runs):
        for level, sets in run.per_deal_set.items():
            merged = per_deal_set.setdefault(level, {})
            for deal_set, figures in sets.items():
                merged[index * SEED_STRIDE + deal_set] = figures
        for level, split in run.parts_per_deal_set.items():
            merged_parts = parts_per_deal_set.setdefault(level, {})
            for deal_set, parts in split.items():
                merged_parts[index * SEED_STRIDE + deal_set] = parts
    if any(not run.parts_per_deal_set for run in runs):
        parts_per_deal_set = {}  # a run saved before the parts were counted: no split
    first = runs[0]
    return ArenaResult(
        seed=0,
        seats=first.seats,
        levels={},
        hands=sum(run.hands for run in runs),
        matches=sum(run.matches for run in runs),
        deal_sets=sum(run.deal_sets for run in runs),
        per_deal_set=per_deal_set,
        parts_per_deal_set=parts_per_deal_set,
    )


def standing(runs: list[ArenaResult]) -> list[str]:
    """ "First level minus each other level" over all the deal sets of ``runs``, a line each,
    each followed by a line of its parts (hearts, spades, moons) when every run has them."""
    together = pooled(runs)
    split = paired_differences(
        together.seats, together.per_deal_set, together.parts_per_deal_set or None
    )
    lines = []
    for d in paired_differences(together.seats, together.per_deal_set):
        interval = f"[{d.ci95[0]:+.3f}, {d.ci95[1]:+.3f}]" if d.ci95 else "(no interval)"
        lines.append(
            f"{d.level} minus {d.other} {d.points_per_hand:+.3f} pts/hand, 95% CI {interval}"
        )
        parts = [p for p in split if p.part is not None and p.other == d.other]
        if parts:
            lines.append(f"  of which {parts_text(parts)}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "pairs", nargs="+", metavar="CONTROL.json:VARIANT.json", help="or RUN.json for a standing"
    )
    args = parser.parse_args()
    controls: list[ArenaResult] = []
    variants: list[ArenaResult] = []
    runs: list[ArenaResult] = []
    try:
        for pair in args.pairs:
            control_path, colon, variant_path = pair.partition(":")
            if not colon:
                run, _ = load(pair)
                if runs and run.seats != runs[0].seats:
                    raise ArenaError(f"{pair}: not the same seats as {args.pairs[0]}")
                for line in standing([run]):
                    where = "" if line.startswith(" ") else f"seed {run.seed}, {run.hands} hands: "
                    print(f"{where}{line}")
                runs.append(run)
                continue
            (control, asked), (variant, changed) = load(control_path), load(variant_path)
            same = {key: asked.get(key) for key in ("seats", "hands", "seed", "matches")}
            if same != {key: changed.get(key) for key in same}:
                raise ArenaError(f"{pair}: not the same tournament ({same})")
            for change in variant_changes(control, variant):
                print(f"seed {control.seed}, {control.hands} hands: {change.line()}")
            print(
                f"  settings {json.dumps(asked['settings'])} -> {json.dumps(changed['settings'])}"
            )
            controls.append(control)
            variants.append(variant)
        if len(runs) > 1:
            hands = sum(run.hands for run in runs)
            for line in standing(runs):
                where = "" if line.startswith(" ") else f"all {len(runs)} runs, {hands} hands: "
                print(f"{where}{line}")
        if len(controls) > 1:
            hands = sum(run.hands for run in controls)
            for change in variant_changes(pooled(controls), pooled(variants)):
                print(f"all {len(controls)} seeds, {hands} hands: {change.line()}")
    except (ArenaError, OSError, ValueError) as error:
        print(f"pool_variants: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
