"""The expected cost of every option of one decision, from one seat's view only.

This is the Expert's way of looking at a position, kept apart from the bot so
that it can report a cost for *every* option, not just pick one:

- a play: the hidden cards are sampled from what the seat knows
  (:func:`hearts.bots.knowledge.sample_hidden`), each sample weighted by how
  likely the opponents' plays so far were in it; every legal card is played
  in every sample and the hand finished by the playout policy
  (:func:`hearts.bots.policy.playout`), the same samples for every card;
- a pass: the 39 unseen cards are dealt at random to the other seats, who pass
  by the policy's rule of thumb; the candidate passes (the policy's shortlist,
  the Expert's own choice and the pass made) are each played to the end of the
  hand in every deal;
- a moon choice under ``moon: "choice"``: both scorings are exact.

An option's cost is the weighted mean, over the samples, of the match-aware
cost (:class:`~hearts.bots.matchcost.MatchCost`) of the finished hand.  When
the seat may still shoot the moon, each option is also finished with the seat
trying to, and the cheaper of the two ways counts (as the Expert does); a seat
trying for the moon goes back to avoiding points once the moon is gone (the
playout's ``give_up``, as the Expert's since December 2026).  The spread of the
per-sample differences gives each option's standard error against the best
option.
"""

from __future__ import annotations

import abc
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from hearts.bots import moon, passing, policy
from hearts.bots.base import taken_cards
from hearts.bots.finish import Finisher
from hearts.bots.knowledge import Knowledge, sample_hidden, state_template
from hearts.bots.likelihood import Evidence
from hearts.bots.matchcost import MatchCost
from hearts.cards import ALL_CARDS_MASK
from hearts.coach.review import MOON_STYLES, Budget
from hearts.hand import HandState
from hearts.view import SeatView

FINISHER: Final = Finisher(give_up=True)
"""How the seats play on in the playouts: as the Expert's do."""

SUSPICION_POINTS: Final = 8
"""Without the moon table: an opponent holding every penalty card so far is suspected from
this many points (the Expert's ``suspicion_points``)."""


@dataclass(frozen=True)
class Estimate:
    """One option's estimated cost."""

    option: int
    """A card for a play, a mask of three cards for a pass, 0 add / 1 subtract for a moon."""
    cost: float
    """Expected :class:`MatchCost` of the hand."""
    points: float
    """Expected points the seat scores in the hand (moon applied)."""
    per_sample: tuple[float, ...]
    """The cost in each sampled deal (empty for an exact estimate)."""


@dataclass(frozen=True)
class Estimates:
    """Every option of one decision, and the samples' weights."""

    options: tuple[Estimate, ...]
    weights: tuple[float, ...]
    """Each sampled deal's weight (they sum to 1); empty for an exact estimate."""

    @property
    def effective_samples(self) -> float:
        """How many equally weighted deals the weighted ones are worth (Kish's formula)."""
        if not self.weights:
            return math.inf
        return 1.0 / sum(w * w for w in self.weights)

    def by_option(self, option: int) -> Estimate:
        return next(estimate for estimate in self.options if estimate.option == option)

    def noise(self, option: int, best: int) -> float:
        """The standard error of ``cost(option) - cost(best)`` over the samples."""
        a = self.by_option(option).per_sample
        b = self.by_option(best).per_sample
        n = len(self.weights)
        if option == best or n < 2 or not a:
            return 0.0
        diffs = [x - y for x, y in zip(a, b, strict=True)]
        mean = sum(w * d for w, d in zip(self.weights, diffs, strict=True))
        spread = sum(w * w * (d - mean) ** 2 for w, d in zip(self.weights, diffs, strict=True))
        # The weighted variance of a mean, with the usual n / (n - 1) correction.
        return math.sqrt(spread * n / (n - 1))


# --- sampling ----------------------------------------------------------------


class Sampler(abc.ABC):
    """Sampled deals for one decision, and each option's finish in each of them.

    More deals can be added (:meth:`extend`); a finish already played is
    never played again, so a second, larger estimate costs only the new deals.
    """

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.scorer = MatchCost.for_view(view)
        self.worlds: list[list[int]] = []
        self.raw_weights: list[float] = []
        self._finishes: dict[tuple[int, int], list[tuple[float, int]]] = {}

    @abc.abstractmethod
    def _sample(self, rng: random.Random) -> tuple[list[int], float] | None:
        """A deal of the hidden cards and its (unnormalised) weight; None if none fits."""

    @abc.abstractmethod
    def _finish(self, option: int, mode: int, index: int) -> tuple[float, int]:
        """The cost and the seat's points of ``option`` in deal ``index``, the seat in ``mode``."""

    @abc.abstractmethod
    def _modes(self) -> tuple[int, ...]:
        """The ways the seat may play on: avoiding points, and shooting while it can."""

    def extend(self, count: int, rng: random.Random) -> None:
        for _ in range(count):
            sampled = self._sample(rng)
            if sampled is None:
                break
            self.worlds.append(sampled[0])
            self.raw_weights.append(sampled[1])
        if not self.worlds or sum(self.raw_weights) <= 0.0:
            raise ValueError("no deal of the hidden cards agrees with this view")

    def estimate(self, options: Sequence[int]) -> Estimates:
        """Each option over every deal sampled so far; the seat's cheaper way to play on counts."""
        total = sum(self.raw_weights)
        weights = tuple(w / total for w in self.raw_weights)
        estimates = []
        for option in dict.fromkeys(options):
            best: Estimate | None = None
            for mode in self._modes():
                finishes = self._finishes.setdefault((option, mode), [])
                for index in range(len(finishes), len(self.worlds)):
                    finishes.append(self._finish(option, mode, index))
                cost = sum(w * c for w, (c, _) in zip(weights, finishes, strict=True))
                if best is None or cost < best.cost:
                    points = sum(w * p for w, (_, p) in zip(weights, finishes, strict=True))
                    best = Estimate(option, cost, points, tuple(c for c, _ in finishes))
            assert best is not None
            estimates.append(best)
        return Estimates(tuple(estimates), weights)


# --- plays -------------------------------------------------------------------


class PlaySampler(Sampler):
    """Deals of the unseen cards consistent with the view, weighted by the opponents' plays.

    An opponent who has won every penalty card so far is played as shooting in a share of
    the deals (the Expert's moon table, :func:`hearts.bots.moon.suspicion`), and in those
    deals the seat's next ``budget.moon_lookahead`` choices are searched, as the Expert
    searches them (:class:`hearts.bots.finish.Finisher`): the card that stops the moon is
    found there, not left to the rule of thumb.
    """

    def __init__(self, view: SeatView, budget: Budget) -> None:
        super().__init__(view)
        self.noise = budget.play_noise
        self.knowledge = Knowledge.from_view(view)
        self.suspect, self.suspicion = moon.suspicion(
            view,
            table=budget.moon_table,
            points=SUSPICION_POINTS,
            share=budget.moon_suspicion,
            tell=False,
        )
        self.lookahead = budget.moon_lookahead
        self.my_modes = (policy.AVOID, policy.SHOOT) if moon.may_shoot(view) else (policy.AVOID,)
        self._template: HandState | None = None
        self._evidence: Evidence | None = None

    def _sample(self, rng: random.Random) -> tuple[list[int], float] | None:
        world = sample_hidden(self.knowledge, rng)
        if world is None:
            return None
        if self._template is None or self._evidence is None:
            self._template = state_template(self.view, world)
            # Each opponent played the policy's card, except with chance ``noise``
            # any legal card at random, whether leading, following or discarding.
            noise = (self.noise,) * 14
            self._evidence = Evidence.of(self.view, world, (noise, noise, noise), None)
        return world, self._evidence.weigh(world)[0]

    def _modes(self) -> tuple[int, ...]:
        return self.my_modes

    def _finish(self, option: int, mode: int, index: int) -> tuple[float, int]:
        assert self._template is not None
        seat = self.view.seat
        modes = [policy.AVOID] * 4
        # The suspected shooter shoots in its share of the deals, interleaved.
        shooting = self.suspect is not None and int((index + 1) * self.suspicion) > int(
            index * self.suspicion
        )
        if shooting and self.suspect is not None:
            modes[self.suspect] = policy.SHOOT
        modes[seat] = mode
        state = self._template.copy()
        state.hands = self.worlds[index][:]
        state.play(option)
        scorer = self.scorer
        if shooting and self.lookahead > 0:
            _, taken = FINISHER.finish(
                state, modes, seat, 0, lambda won: scorer.of_points(scorer.points(won)),
                self.lookahead,
            )  # fmt: skip
        else:
            FINISHER.playout(state, modes, seat, 0)
            taken = state.taken
        points = scorer.points(taken)
        return scorer.of_points(points), points[seat]


# --- passes ------------------------------------------------------------------


class PassSampler(Sampler):
    """Deals of the 39 unseen cards, all equally likely; the others pass by rule of thumb."""

    def __init__(self, view: SeatView) -> None:
        super().__init__(view)
        self.unseen = [card for card in range(52) if (ALL_CARDS_MASK & ~view.hand.mask) >> card & 1]
        self.others = [s for s in range(4) if s != view.seat]

    def _sample(self, rng: random.Random) -> tuple[list[int], float] | None:
        rng.shuffle(self.unseen)
        world = [0, 0, 0, 0]
        world[self.view.seat] = self.view.hand.mask
        for index, card in enumerate(self.unseen):
            world[self.others[index // 13]] |= 1 << card
        return world, 1.0

    def _modes(self) -> tuple[int, ...]:
        return (policy.AVOID, policy.SHOOT)

    def _finish(self, option: int, mode: int, index: int) -> tuple[float, int]:
        view = self.view
        seat = view.seat
        world = self.worlds[index]
        direction = view.pass_direction
        others = passing.others_passes(world, seat, direction)  # by rule of thumb
        holdings = passing.exchange(world, others, seat, option, direction)
        state = HandState(view.rules, holdings)
        modes = [policy.AVOID] * 4
        modes[seat] = mode
        FINISHER.playout(state, modes, seat, 0)
        points = self.scorer.points(state.taken)
        return self.scorer.of_points(points), points[seat]


# --- the moon ----------------------------------------------------------------


def estimate_moon(view: SeatView) -> Estimates:
    """Both ways to score our moon, exactly: the hand is over, nothing is hidden that matters."""
    scorer = MatchCost.for_view(view)
    taken = taken_cards(view)
    estimates = []
    for index, style in enumerate(MOON_STYLES):
        points, _ = view.rules.score_hand(taken, style)
        estimates.append(Estimate(index, scorer.of_points(points), float(points[view.seat]), ()))
    return Estimates(tuple(estimates), ())
