"""The coach's findings as values: one decision, one hand, a match; verdicts and accuracy.

Every cost is in points for the hand, in match-aware terms (see
:class:`~hearts.bots.matchcost.MatchCost`): the seat's own points minus a
weighted share of the opponents', or a win or a loss when the hand ends the
match.  Each option also carries the plain points the seat would score.

The **loss** of a decision is the expected cost of the choice made minus
that of the best option.  Its **verdict** grades the loss once the sampling
noise is taken off: ``loss - NOISE_Z * noise`` (``noise`` is the standard
error of the loss) is compared with :data:`THRESHOLDS`, so a verdict of
"mistake" means that the choice cost more than :data:`MISTAKE` points with
about 97.5% confidence.  docs/coach.md says how the thresholds were chosen.

**Accuracy** of a decision is ``100 * exp(-loss / ACCURACY_SCALE)``: 100 for
the best choice, about 78 for a one-point loss, 47 for three, 13 for eight.
A hand's (or a match's) accuracy is the mean over its decisions that were not
forced (a single legal card), and so is its **average loss**.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

DecisionKind = Literal["pass", "play", "moon"]
Verdict = Literal["fine", "inaccuracy", "mistake", "blunder"]

INACCURACY: Final = 1.0
MISTAKE: Final = 3.0
BLUNDER: Final = 8.0
THRESHOLDS: Final[tuple[tuple[float, Verdict], ...]] = (
    (BLUNDER, "blunder"),
    (MISTAKE, "mistake"),
    (INACCURACY, "inaccuracy"),
)
"""The least loss (in points, noise taken off) for each verdict, worst first."""
NOISE_Z: Final = 2.0
"""How many standard errors are taken off a loss before grading it."""
ACCURACY_SCALE: Final = 4.0
"""The loss (in points) that brings a decision's accuracy down to 100/e, about 37."""
COST_TERMS: Final = "match"
"""Costs are match-aware (``"match"``), not only the seat's own points for the hand."""


@dataclass(frozen=True)
class Budget:
    """How much work one decision gets: sampled deals, the same ones for every option.

    A decision whose loss looks like :data:`CONFIRM_AT` points or more on the
    first ``samples`` deals, or whose deals' weights are so uneven that they
    are worth fewer than :data:`MIN_EFFECTIVE_SHARE` of them, gets
    ``confirm_factor`` times as many again, and every option is costed over
    all of them before it is graded.
    """

    samples: int = 300
    """Sampled deals per play."""
    pass_samples: int = 300
    """Sampled deals per pass (each candidate pass is played in all of them)."""
    confirm_factor: int = 3
    """Extra deals, as a multiple of the first ones, for a decision that may be graded."""
    moon_table: bool = True
    """Suspect an opponent holding every penalty card won so far from its first point, in the
    share of deals the Expert's moon table gives (:data:`hearts.bots.moon.MOON_TABLE`)..."""
    moon_suspicion: float = 0.5
    """...or, with ``moon_table`` off, from 8 points, in this share of the deals."""
    moon_lookahead: int = 1
    """In the deals where an opponent is played as shooting, the seat's next choices searched
    (each distinct card tried, the cheapest kept), as the Expert does; 0: the rule of thumb."""
    play_noise: float = 0.35
    """How often, when weighting a sample, an opponent is assumed to play other than the policy."""

    def __post_init__(self) -> None:
        if self.samples < 2 or self.pass_samples < 2:
            raise ValueError("a budget needs at least 2 samples per decision")
        if self.confirm_factor < 0:
            raise ValueError("confirm_factor cannot be negative")
        if self.moon_lookahead < 0:
            raise ValueError("moon_lookahead cannot be negative")
        if not 0.0 <= self.moon_suspicion <= 1.0 or not 0.0 < self.play_noise <= 1.0:
            raise ValueError("moon_suspicion must be in [0, 1] and play_noise in (0, 1]")


CONFIRM_AT: Final = 0.5
"""A first estimate of the loss from which a decision gets the extra deals (points)."""
MIN_EFFECTIVE_SHARE: Final = 0.2
"""Extra deals too when the weighted deals are worth fewer than this share of equal ones."""

MOON_STYLES: Final = ("add", "subtract")
"""The moon's two scorings under ``moon: "choice"``, as options 0 and 1."""


def verdict_for(loss: float, noise: float) -> Verdict:
    """The verdict on a loss whose standard error is ``noise``."""
    sure = loss - NOISE_Z * noise
    for threshold, verdict in THRESHOLDS:
        if sure >= threshold:
            return verdict
    return "fine"


def accuracy_of(loss: float) -> float:
    """One decision's accuracy, 0 to 100."""
    return 100.0 * math.exp(-max(loss, 0.0) / ACCURACY_SCALE)


@dataclass(frozen=True)
class Option:
    """One option of a decision and what it is expected to cost."""

    choice: tuple[str, ...]
    """Card texts (one for a play, three for a pass) or the moon's scoring, ``("add",)``."""
    cost: float
    """Expected match-aware cost, in points (lower is better)."""
    points: float
    """Expected points the seat scores in the hand with this option."""

    def to_json(self) -> dict[str, Any]:
        return {
            "choice": list(self.choice),
            "cost": round(self.cost, 3),
            "points": round(self.points, 3),
        }


@dataclass(frozen=True)
class DecisionReview:
    """One decision of one seat, judged from what that seat knew then."""

    hand: int
    seat: int
    kind: DecisionKind
    trick: int | None
    """The trick of a play (1 to 13); None for a pass or a moon."""
    made: tuple[str, ...]
    """The choice made."""
    legal: tuple[str, ...]
    """The cards one could play; for a pass the hand (any three of it); for a moon both scorings."""
    options: tuple[Option, ...]
    """The options costed, cheapest first (for a pass: a shortlist and the pass made)."""
    best: tuple[str, ...]
    loss: float
    """Expected cost of the choice made minus the best option's, in points (0 when best)."""
    noise: float
    """The standard error of ``loss`` from the sampling."""
    verdict: Verdict
    forced: bool
    """Only one legal card: no decision, not counted in the averages."""
    samples: int
    """Sampled deals behind the estimate (more when a first estimate needed confirming; 0 when
    exact or forced)."""

    @property
    def accuracy(self) -> float:
        return accuracy_of(self.loss)

    def option(self, choice: Sequence[str]) -> Option:
        """The option for ``choice`` (card texts in any order)."""
        wanted = sorted(choice)
        return next(option for option in self.options if sorted(option.choice) == wanted)

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "seat": self.seat,
            "kind": self.kind,
            "trick": self.trick,
            "made": list(self.made),
            "legal": list(self.legal),
            "options": [option.to_json() for option in self.options],
            "best": list(self.best),
            "loss": round(self.loss, 3),
            "noise": round(self.noise, 3),
            "verdict": self.verdict,
            "forced": self.forced,
            "samples": self.samples,
            "cost_terms": COST_TERMS,
        }


def average_loss(decisions: Sequence[DecisionReview]) -> float | None:
    counted = [decision.loss for decision in decisions if not decision.forced]
    return sum(counted) / len(counted) if counted else None


def average_accuracy(decisions: Sequence[DecisionReview]) -> float | None:
    counted = [decision.accuracy for decision in decisions if not decision.forced]
    return sum(counted) / len(counted) if counted else None


@dataclass(frozen=True)
class HandReview:
    """Every decision of one seat in one finished hand."""

    hand: int
    seat: int
    points: int
    """What the seat scored in the hand."""
    decisions: tuple[DecisionReview, ...]

    @property
    def average_loss(self) -> float | None:
        """Mean loss per decision that was not forced (None if every one was)."""
        return average_loss(self.decisions)

    @property
    def accuracy(self) -> float | None:
        return average_accuracy(self.decisions)

    def verdicts(self) -> dict[Verdict, int]:
        counts: dict[Verdict, int] = {"fine": 0, "inaccuracy": 0, "mistake": 0, "blunder": 0}
        for decision in self.decisions:
            if not decision.forced:
                counts[decision.verdict] += 1
        return counts

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "seat": self.seat,
            "points": self.points,
            "average_loss": _rounded(self.average_loss),
            "accuracy": _rounded(self.accuracy, 1),
            "verdicts": self.verdicts(),
            "decisions": [decision.to_json() for decision in self.decisions],
        }


@dataclass(frozen=True)
class Analysis:
    """The coach's review of one seat over the finished hands asked for."""

    seat: int
    player: str
    hands: tuple[HandReview, ...]
    seed: int

    @property
    def decisions(self) -> tuple[DecisionReview, ...]:
        return tuple(decision for hand in self.hands for decision in hand.decisions)

    @property
    def average_loss(self) -> float | None:
        return average_loss(self.decisions)

    @property
    def accuracy(self) -> float | None:
        return average_accuracy(self.decisions)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "player": self.player,
            "seed": self.seed,
            "average_loss": _rounded(self.average_loss),
            "accuracy": _rounded(self.accuracy, 1),
            "cost_terms": COST_TERMS,
            "hands": [hand.to_json() for hand in self.hands],
        }


def _rounded(value: float | None, digits: int = 3) -> float | None:
    return None if value is None else round(value, digits)
