"""A variant of an arena's settings against its control, on the same deals.

``hearts arena --variant`` plays a tournament twice, as given (the control)
and with some settings changed (the variant), with the same seed: the same
deal sets, and the same generator for every decision.  :func:`variant_changes`
then pairs the two runs deal set by deal set (see ``docs/strength.md``).

The control of a long tournament takes as long as the variant, and it is
the same for every variant measured against it: ``hearts arena --save``
keeps it, and ``--control`` reads it back instead of playing it again, once
its first deal sets, played again, still score exactly as saved
(:func:`check_control`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from hearts.arena_figures import ArenaError, ArenaResult
from hearts.stats import t_975

if TYPE_CHECKING:
    from hearts.bots.base import Bot

CONTROL_CHECK: Final = 2
"""Deal sets of a saved control played again before it is used (32 hands of a long run)."""


@dataclass(frozen=True)
class VariantChange:
    """How a change of settings moved "the first level minus another level" (paired).

    The control and the variant play the same deal sets with the same
    generators, so a deal set in which the change altered no decision
    scores exactly the same in both: pairing the two runs deal set by deal
    set cancels the luck they share, and the interval is narrower than
    that of either run's difference (half to four fifths as wide for the
    Expert's settings measured in ``docs/strength.md``).
    """

    level: str
    other: str
    control: float
    variant: float
    ci95: tuple[float, float] | None
    """Of ``variant - control``."""
    identical: int
    """Deal sets in which every level scored the same in both runs."""
    deal_sets: int

    @property
    def change(self) -> float:
        return self.variant - self.control

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "other": self.other,
            "control": round(self.control, 4),
            "variant": round(self.variant, 4),
            "change": round(self.change, 4),
            "ci95": None if self.ci95 is None else [round(x, 4) for x in self.ci95],
            "identical_deal_sets": self.identical,
            "deal_sets": self.deal_sets,
        }

    def line(self) -> str:
        ci = "n/a" if self.ci95 is None else f"[{self.ci95[0]:+.3f}, {self.ci95[1]:+.3f}]"
        return (
            f"variant minus control ({self.level} minus {self.other}): "
            f"{self.change:+.3f} pts/hand, 95% CI {ci}; {self.variant:+.3f} against "
            f"{self.control:+.3f} ({self.identical} of {self.deal_sets} deal sets identical)"
        )


def variant_changes(control: ArenaResult, variant: ArenaResult) -> tuple[VariantChange, ...]:
    """For each other level: the variant's change of "first level minus it", paired by deal set.

    Each run's difference is linearised as in :func:`hearts.stats.difference_ci95`; the
    change's standard error is the cluster-robust one of the per-deal-set
    residuals of the variant minus those of the control.
    """
    if control.seed != variant.seed or control.seats != variant.seats:
        raise ArenaError("a variant is compared with a control of the same seats and seed")
    first = control.seats[0]
    shared = set(control.per_deal_set.get(first, {})) & set(variant.per_deal_set.get(first, {}))
    changes = []
    for other in list(dict.fromkeys(control.seats))[1:]:
        clusters = sorted(
            shared
            & set(control.per_deal_set.get(other, {}))
            & set(variant.per_deal_set.get(other, {}))
        )
        if not clusters:
            continue
        residuals = []
        diffs = []
        for run in (control, variant):
            mine, theirs = run.per_deal_set[first], run.per_deal_set[other]
            n1 = sum(mine[d][1] for d in clusters)
            n2 = sum(theirs[d][1] for d in clusters)
            r1 = sum(mine[d][0] for d in clusters) / n1
            r2 = sum(theirs[d][0] for d in clusters) / n2
            diffs.append(r1 - r2)
            residuals.append(
                [
                    (mine[d][0] - r1 * mine[d][1]) / n1 - (theirs[d][0] - r2 * theirs[d][1]) / n2
                    for d in clusters
                ]
            )
        count = len(clusters)
        change = diffs[1] - diffs[0]
        ci: tuple[float, float] | None = None
        if count >= 2:
            spread = sum((v - c) ** 2 for c, v in zip(residuals[0], residuals[1], strict=True))
            half = t_975(count - 1) * math.sqrt(count / (count - 1) * spread)
            ci = (change - half, change + half)
        identical = sum(
            all(
                control.per_deal_set[level].get(d) == variant.per_deal_set[level].get(d)
                for level in control.per_deal_set
            )
            for d in clusters
        )
        changes.append(VariantChange(first, other, diffs[0], diffs[1], ci, identical, count))
    return tuple(changes)


def check_control(saved: ArenaResult, replay: ArenaResult) -> None:
    """Refuse a saved control whose first deal sets, played again (``replay``), no longer
    score exactly as they did: the bots have changed since it was saved."""
    for level, sets in replay.per_deal_set.items():
        for deal_set, figures in sorted(sets.items()):
            then = saved.per_deal_set.get(level, {}).get(deal_set)
            if then != figures:
                raise ArenaError(
                    f"the saved control does not play the same any more: in deal set {deal_set}, "
                    f"{level} now takes {figures[0]} points in {figures[1]} seat-hands, "
                    f"against {'none' if then is None else then[0]} when it was saved; "
                    "play the control again (--save without --control)"
                )


def source_digest() -> str:
    """A digest of the ``hearts`` package's Python source, to tell whether the code that
    played a saved control has changed since."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def load_control(path: Path, asked: dict[str, Any]) -> tuple[ArenaResult, bool]:
    """The control saved in ``path``, if it was played as ``asked`` (ArenaError if not), and
    whether the code has changed since it was saved."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ArenaError(f"cannot read {path}: {error.strerror or error}") from None
    except ValueError:
        raise ArenaError(f"{path} is not JSON") from None
    saved, run = ArenaResult.from_saved(data)
    for key in ("seats", "hands", "seed", "matches"):
        if run.get(key) != asked[key]:
            raise ArenaError(
                f"{path} was played with {key} {json.dumps(run.get(key))}, "
                f"not {json.dumps(asked[key])}: the control must be the same tournament"
            )
    # The bots' settings, not the --set that gave them: a setting that has become the
    # default since matches a control saved with it given.  A setting added since is
    # not in the file; the deal sets played again check that it changes nothing.
    then = run.get("bots")
    if isinstance(then, dict) and not all(isinstance(v, dict) for v in then.values()):
        raise ArenaError(f"{path}: a saved arena result with a bad field: bots")
    if not isinstance(then, dict):
        # Saved before the bots' settings were written: only the --set can be compared.
        if run.get("settings") != asked["settings"]:
            raise ArenaError(
                f"{path} was played with --set {json.dumps(run.get('settings'))}, "
                f"not {json.dumps(asked['settings'])}: the control must be the same tournament"
            )
        then = {}
    for level, fields in asked["bots"].items():
        for name, value in fields.items():
            before = then.get(level, {}).get(name, value)
            if before != value:
                raise ArenaError(
                    f"{path} was played with {level}.{name}={json.dumps(before)}, "
                    f"not {json.dumps(value)}: the control must be the same tournament"
                )
    return saved, run.get("source") != asked["source"]


def bot_fields(bots: list[Bot]) -> dict[str, dict[str, Any]]:
    """Every setting of each level's bot, as JSON values."""
    return {
        bot.level: json.loads(json.dumps(dataclasses.asdict(bot), default=repr)) for bot in bots
    }


def check_writable(path: Path) -> None:
    """Refuse a file to save to that could not be written."""
    folder = path.parent
    if path.is_dir() or not folder.is_dir() or not os.access(folder, os.W_OK):
        raise ArenaError(f"cannot write {path}: not a file in a folder that can be written")


def save_run(path: Path, data: dict[str, Any]) -> None:
    """Write a saved run whole or not at all."""
    partial = path.with_name(path.name + ".partial")
    try:
        partial.write_text(json.dumps(data) + "\n", encoding="utf-8")
        partial.replace(path)
    except OSError as error:
        raise ArenaError(f"cannot write {path}: {error.strerror or error}") from None
