"""The figures of a duplicate tournament (:mod:`hearts.arena`): what is counted, what is
reported, and a result saved to stand in as a variant's control.

:class:`Tally` collects one level's counts while the results come in;
:class:`LevelReport` is a level's figures and :class:`ArenaResult` the whole
tournament's.  What each figure means is in the docstring of :mod:`hearts.arena`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from hearts.stats import difference_ci95, percentile, ratio_ci95

POINTS_FROM: Final = ("hearts", "spades", "moons", "other")
"""Where a seat's points come from (:meth:`hearts.arena.HandOutcome.points_from`)."""

_KINDS: Final = ("pass", "play", "moon")
"""The kinds of decision, in the order their times are reported."""

SAVED_FORMAT: Final = "hearts-arena/1"
"""The format of a result saved to stand in as a variant's control (``hearts arena --save``)."""


class ArenaError(ValueError):
    """A tournament that cannot be run as asked, or a bot that failed in it."""


@dataclass(frozen=True)
class LevelReport:
    """The figures of one level (see the module's docstring)."""

    seats: int
    hands: int
    """Hands played by seats of this level: a hand counts once per seat."""
    points_per_hand: float
    ci95: tuple[float, float] | None
    match_win_rate: float | None
    decision_ms_p50: float
    decision_ms_p95: float
    moons_shot: int
    moons_stopped: int
    points_from: dict[str, float] | None = None
    """Points per hand by where they came from (:data:`POINTS_FROM`); None in a result
    saved before they were counted."""
    decision_ms_by_kind: dict[str, tuple[float, float]] | None = None
    """Kind of decision (``pass``, ``play``, ``moon``) -> its median and 95th percentile
    in milliseconds; None in a result saved before they were kept apart."""

    def to_json(self) -> dict[str, Any]:
        return {
            "points_per_hand": round(self.points_per_hand, 4),
            "ci95": None if self.ci95 is None else [round(x, 4) for x in self.ci95],
            "match_win_rate": (
                None if self.match_win_rate is None else round(self.match_win_rate, 4)
            ),
            "decision_ms_p50": round(self.decision_ms_p50, 3),
            "decision_ms_p95": round(self.decision_ms_p95, 3),
            "moons_shot": self.moons_shot,
            "moons_stopped": self.moons_stopped,
            "points_from": (
                None
                if self.points_from is None
                else {key: round(value, 4) for key, value in self.points_from.items()}
            ),
            "decision_ms_by_kind": (
                None
                if self.decision_ms_by_kind is None
                else {
                    kind: [round(p50, 3), round(p95, 3)]
                    for kind, (p50, p95) in self.decision_ms_by_kind.items()
                }
            ),
            "seats": self.seats,
            "hands": self.hands,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LevelReport:
        win_rate = data["match_win_rate"]
        points_from = data.get("points_from")
        by_kind = data.get("decision_ms_by_kind")
        return cls(
            seats=int(data["seats"]),
            hands=int(data["hands"]),
            points_per_hand=float(data["points_per_hand"]),
            ci95=_interval(data["ci95"]),
            match_win_rate=None if win_rate is None else float(win_rate),
            decision_ms_p50=float(data["decision_ms_p50"]),
            decision_ms_p95=float(data["decision_ms_p95"]),
            moons_shot=int(data["moons_shot"]),
            moons_stopped=int(data["moons_stopped"]),
            points_from=(
                None
                if points_from is None
                else {str(key): float(points_from[key]) for key in POINTS_FROM}
            ),
            decision_ms_by_kind=(
                None
                if by_kind is None
                else {str(kind): _pair(times) for kind, times in by_kind.items()}
            ),
        )


def _interval(value: Any) -> tuple[float, float] | None:
    """An interval read back from JSON (a list of two numbers, or null)."""
    return None if value is None else _pair(value)


def _pair(value: Any) -> tuple[float, float]:
    """Two numbers read back from a JSON list."""
    low, high = value
    return float(low), float(high)


@dataclass(frozen=True)
class Difference:
    """The first entrant's level minus another level, in points per hand, paired by deal set."""

    level: str
    other: str
    points_per_hand: float
    ci95: tuple[float, float] | None
    part: str | None = None
    """None for all the points; else the part of them it counts (:data:`POINTS_FROM`)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "other": self.other,
            **({} if self.part is None else {"part": self.part}),
            "points_per_hand": round(self.points_per_hand, 4),
            "ci95": None if self.ci95 is None else [round(x, 4) for x in self.ci95],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Difference:
        part = data.get("part")
        if part is not None and part not in POINTS_FROM:
            raise ValueError(f"no part of the points is called {part!r}")
        return cls(
            str(data["level"]),
            str(data["other"]),
            float(data["points_per_hand"]),
            _interval(data["ci95"]),
            part,
        )

    def text(self) -> str:
        """The difference in a few words: ``+0.123 [-0.100, +0.346]``."""
        ci = "n/a" if self.ci95 is None else f"[{self.ci95[0]:+.3f}, {self.ci95[1]:+.3f}]"
        return f"{self.points_per_hand:+.3f} {ci}"


def paired_differences(
    seats: Sequence[str],
    per_deal_set: Mapping[str, Mapping[int, tuple[int, int]]],
    parts_per_deal_set: Mapping[str, Mapping[int, tuple[int, ...]]] | None = None,
) -> tuple[Difference, ...]:
    """The first seat's level minus each other level, paired deal set by deal set.

    ``per_deal_set`` maps a level and a deal set to (points, seat-hands).
    With ``parts_per_deal_set`` (a level and a deal set to its points split as
    :data:`POINTS_FROM`), the differences are of each part instead, in that
    order for each other level; a level without its parts is left out.
    """
    first = seats[0]
    differences = []
    for other in list(dict.fromkeys(seats))[1:]:
        mine, theirs = per_deal_set.get(first), per_deal_set.get(other)
        if not mine or not theirs:
            continue
        if parts_per_deal_set is None:
            differences.append(Difference(first, other, *difference_ci95(mine, theirs)))
            continue
        my_parts, their_parts = parts_per_deal_set.get(first), parts_per_deal_set.get(other)
        if not my_parts or not their_parts:
            continue
        for index, part in enumerate(POINTS_FROM):
            diff, ci = difference_ci95(
                {d: (parts[index], mine[d][1]) for d, parts in my_parts.items()},
                {d: (parts[index], theirs[d][1]) for d, parts in their_parts.items()},
            )
            differences.append(Difference(first, other, diff, ci, part))
    return tuple(differences)


@dataclass(frozen=True)
class ArenaResult:
    seed: int
    seats: tuple[str, str, str, str]
    """The level of each entrant, in the order given."""
    levels: dict[str, LevelReport]
    hands: int
    """Hands played in all, every rotation counted."""
    matches: int
    """Matches played in all (0 in hands mode)."""
    deal_sets: int
    records: tuple[dict[str, Any], ...] = ()
    differences: tuple[Difference, ...] = ()
    """The first entrant's level minus each other level (negative: it scored fewer points)."""
    per_deal_set: dict[str, dict[int, tuple[int, int]]] = field(default_factory=dict)
    """Level -> deal set -> (points, seat-hands): what the figures are computed from."""
    parts_per_deal_set: dict[str, dict[int, tuple[int, ...]]] = field(default_factory=dict)
    """Level -> deal set -> its points split as :data:`POINTS_FROM` (empty in a result
    saved before the parts were counted by deal set)."""
    part_differences: tuple[Difference, ...] = ()
    """The differences split by where the points came from, each part paired deal set
    by deal set like the whole (:func:`paired_differences`)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "levels": {level: report.to_json() for level, report in self.levels.items()},
            "differences": [difference.to_json() for difference in self.differences],
            "part_differences": [difference.to_json() for difference in self.part_differences],
            "hands": self.hands,
            "matches": self.matches,
            "seed": self.seed,
            "seats": list(self.seats),
        }

    def json_line(self) -> str:
        return json.dumps(self.to_json())

    def to_saved(self, run: Mapping[str, Any]) -> dict[str, Any]:
        """What :meth:`from_saved` needs for this result to stand in as a variant's control:
        the figures, the points of every deal set, and ``run`` (how it was asked for)."""
        return {
            "format": SAVED_FORMAT,
            "run": dict(run),
            **self.to_json(),
            "deal_sets": self.deal_sets,
            "per_deal_set": {
                level: {str(d): list(figures) for d, figures in sets.items()}
                for level, sets in self.per_deal_set.items()
            },
            "parts_per_deal_set": {
                level: {str(d): list(parts) for d, parts in sets.items()}
                for level, sets in self.parts_per_deal_set.items()
            },
        }

    @classmethod
    def from_saved(cls, data: Any) -> tuple[ArenaResult, dict[str, Any]]:
        """A result saved by :meth:`to_saved`, and its ``run``; ArenaError if it is not one."""
        if not isinstance(data, dict) or data.get("format") != SAVED_FORMAT:
            raise ArenaError(f"not a saved arena result ({SAVED_FORMAT})")
        try:
            seats = [str(level) for level in data["seats"]]
            if len(seats) != 4 or not isinstance(data["run"], dict):
                raise ValueError("four seats and a run")
            result = cls(
                seed=int(data["seed"]),
                seats=(seats[0], seats[1], seats[2], seats[3]),
                levels={
                    str(level): LevelReport.from_json(report)
                    for level, report in data["levels"].items()
                },
                hands=int(data["hands"]),
                matches=int(data["matches"]),
                deal_sets=int(data["deal_sets"]),
                differences=tuple(Difference.from_json(d) for d in data["differences"]),
                per_deal_set={
                    str(level): {int(d): (int(y), int(n)) for d, (y, n) in sets.items()}
                    for level, sets in data["per_deal_set"].items()
                },
                parts_per_deal_set={
                    str(level): {int(d): _parts(parts) for d, parts in sets.items()}
                    for level, sets in data.get("parts_per_deal_set", {}).items()
                },
                part_differences=tuple(
                    Difference.from_json(d) for d in data.get("part_differences", [])
                ),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise ArenaError(f"a saved arena result with a bad field: {error}") from None
        return result, data["run"]

    def table(self) -> list[str]:
        """The figures as a text table."""
        mode = f"{self.matches} matches, " if self.matches else ""
        width = max(10, *(len(level) + 1 for level in self.levels))
        lines = [
            f"seats {','.join(self.seats)}, seed {self.seed}: {mode}{self.hands} hands "
            f"({self.deal_sets} deal sets x 4 rotations)",
            f"{'level':<{width}}{'seats':>6}{'hands':>8}{'pts/hand':>10}  {'95% CI':<17}"
            f"{'win rate':>9}{'moons':>7}{'stopped':>9}{'p50 ms':>9}{'p95 ms':>9}",
        ]
        for level, r in self.levels.items():
            ci = "n/a" if r.ci95 is None else f"[{r.ci95[0]:.3f}, {r.ci95[1]:.3f}]"
            win = "-" if r.match_win_rate is None else f"{r.match_win_rate:.1%}"
            lines.append(
                f"{level:<{width}}{r.seats:>6}{r.hands:>8}{r.points_per_hand:>10.3f}  {ci:<17}"
                f"{win:>9}{r.moons_shot:>7}{r.moons_stopped:>9}"
                f"{r.decision_ms_p50:>9.3f}{r.decision_ms_p95:>9.3f}"
            )
        for level, r in self.levels.items():
            if r.points_from is not None:
                parts = ", ".join(
                    f"{key} {value:.3f}"
                    for key, value in r.points_from.items()
                    if key != "other" or value
                )
                lines.append(f"{level} pts/hand from {parts}")
        for level, r in self.levels.items():
            if r.decision_ms_by_kind:
                kinds = ", ".join(
                    f"{kind} {p50:.3f} / {p95:.3f}"
                    for kind, (p50, p95) in r.decision_ms_by_kind.items()
                )
                lines.append(f"{level} p50 / p95 ms by decision: {kinds}")
        for d in self.differences:
            ci = "n/a" if d.ci95 is None else f"[{d.ci95[0]:.3f}, {d.ci95[1]:.3f}]"
            lines.append(
                f"{d.level} minus {d.other}: {d.points_per_hand:+.3f} pts/hand, 95% CI {ci}"
            )
            split = [p for p in self.part_differences if p.other == d.other]
            if split:
                lines.append(f"  of which {parts_text(split)}")
        return lines


def parts_text(parts: Sequence[Difference]) -> str:
    """Part differences in one line: ``hearts +0.02 [...], spades ...`` (a part that is
    zero throughout, as the jack's bonus is under the standard rules, left out)."""
    return ", ".join(
        f"{p.part} {p.text()}" for p in parts if p.points_per_hand or p.ci95 not in (None, (0, 0))
    )


def _parts(value: Any) -> tuple[int, ...]:
    """A deal set's points by part, read back from JSON."""
    parts = tuple(int(x) for x in value)
    if len(parts) != len(POINTS_FROM):
        raise ValueError(f"{len(POINTS_FROM)} parts of the points, not {len(parts)}")
    return parts


@dataclass
class Tally:
    """What one level collects while results come in."""

    seats: int
    hands: int = 0
    wins: int = 0
    moons_shot: int = 0
    moons_stopped: int = 0
    per_deal_set: dict[int, list[int]] = field(default_factory=dict)
    """deal set -> [points, seat-hands]"""
    parts_per_deal_set: dict[int, list[int]] = field(default_factory=dict)
    """deal set -> its points split as :data:`POINTS_FROM`"""
    seconds: dict[str, list[float]] = field(default_factory=dict)
    """kind of decision -> the wall time of each, in seconds"""

    def add_hand(
        self, deal_set: int, points: int, parts: Sequence[int], shot: bool, stopped: bool
    ) -> None:
        """One hand of one seat of the level: its points, them split as :data:`POINTS_FROM`,
        and whether the seat shot the moon or stopped one."""
        self.hands += 1
        sums = self.per_deal_set.setdefault(deal_set, [0, 0])
        sums[0] += points
        sums[1] += 1
        split = self.parts_per_deal_set.setdefault(deal_set, [0] * len(POINTS_FROM))
        for index, part in enumerate(parts):
            split[index] += part
        self.moons_shot += shot
        self.moons_stopped += stopped

    def report(self, matches: int | None) -> LevelReport:
        average, ci = ratio_ci95([(y, n) for y, n in self.per_deal_set.values()])
        by_kind = {kind: [s * 1000 for s in times] for kind, times in self.seconds.items()}
        ms = [t for times in by_kind.values() for t in times] or [0.0]
        totals = [
            sum(parts[i] for parts in self.parts_per_deal_set.values())
            for i in range(len(POINTS_FROM))
        ]
        return LevelReport(
            seats=self.seats,
            hands=self.hands,
            points_per_hand=average,
            ci95=ci,
            match_win_rate=None if matches is None else self.wins / (matches * self.seats),
            decision_ms_p50=percentile(ms, 0.5),
            decision_ms_p95=percentile(ms, 0.95),
            moons_shot=self.moons_shot,
            moons_stopped=self.moons_stopped,
            points_from={
                key: total / max(self.hands, 1)
                for key, total in zip(POINTS_FROM, totals, strict=True)
            },
            decision_ms_by_kind={
                kind: (percentile(by_kind[kind], 0.5), percentile(by_kind[kind], 0.95))
                for kind in _KINDS
                if kind in by_kind
            },
        )
