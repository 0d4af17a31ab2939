"""The coach: after a hand, what each of one seat's decisions cost.

:func:`analyse` replays a record and, for every pass, play and moon choice of
one seat in the finished hands asked for, rebuilds that seat's view at that
moment (the view a bot would have had, never the cards revealed later),
costs every option from it (:mod:`hearts.coach.estimate`) and grades the
choice made (:mod:`hearts.coach.review`).

Each decision gets its own generator, seeded from the seed, the hand and the
decision, so a hand's review is the same whether it is analysed alone or
with the whole match.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Final

from hearts.cards import CardSet, card_text
from hearts.coach.review import (
    ACCURACY_SCALE,
    BLUNDER,
    CONFIRM_AT,
    COST_TERMS,
    INACCURACY,
    MIN_EFFECTIVE_SHARE,
    MISTAKE,
    MOON_STYLES,
    NOISE_Z,
    Analysis,
    Budget,
    DecisionKind,
    DecisionReview,
    HandReview,
    Option,
    Verdict,
    verdict_for,
)
from hearts.match import Match, Phase
from hearts.record import read_record
from hearts.suggest import check_seat
from hearts.view import SeatView

if TYPE_CHECKING:
    from hearts.coach.estimate import Estimates

DEFAULT_SEED: Final = 0
DEFAULT_BUDGET: Final = Budget()


class NoSuchHand(ValueError):
    """A hand number the record does not have."""


class HandInPlay(ValueError):
    """The hand is not over yet: the coach only looks at finished hands."""


def analyse(
    record: object,
    seat: int,
    hand: int | None = None,
    seed: int | None = None,
    *,
    budget: Budget | None = None,
) -> Analysis:
    """Review ``seat``'s decisions in a ``hearts-record/1`` record.

    ``hand`` picks one hand (from 1); without it every finished hand is
    reviewed.  Raises :class:`~hearts.record.RecordError` for an invalid
    record, :class:`~hearts.suggest.NoSuchSeat`, :class:`NoSuchHand`, and
    :class:`HandInPlay` for a hand that is not over (all are ``ValueError``).
    """
    check_seat(seat)
    return analyse_match(read_record(record, seed=0), seat, hand, seed, budget=budget)


def analyse_match(
    match: Match,
    seat: int,
    hand: int | None = None,
    seed: int | None = None,
    *,
    budget: Budget | None = None,
) -> Analysis:
    """:func:`analyse` for a match already replayed."""
    check_seat(seat)
    numbers = hands_to_review(match, hand)
    seed = DEFAULT_SEED if seed is None else seed
    reviews = tuple(review_hands(match, seat, numbers, seed, budget or DEFAULT_BUDGET))
    return Analysis(seat, match.players[seat], reviews, seed)


def finished_hands(match: Match) -> list[int]:
    """The numbers of the hands that have been scored."""
    return [result.number for result in match.results]


def hands_to_review(match: Match, hand: int | None) -> list[int]:
    """The hand asked for, checked, or every finished hand."""
    finished = finished_hands(match)
    if hand is None:
        return finished
    if isinstance(hand, bool) or not isinstance(hand, int):
        raise NoSuchHand(f"no hand {hand!r}: give a hand number")
    if not 1 <= hand <= match.hand_number:
        raise NoSuchHand(f"no hand {hand}: the record has hands 1 to {match.hand_number}")
    if hand not in finished:
        raise HandInPlay(f"hand {hand} is still being played: the coach waits until it is over")
    return [hand]


def review_hands(
    match: Match, seat: int, numbers: Iterable[int], seed: int, budget: Budget
) -> Iterator[HandReview]:
    """The review of each hand in ``numbers`` (finished hands), one at a time."""
    wanted = set(numbers)
    results = {result.number: result for result in match.results}
    decisions: list[DecisionReview] = []
    current = 0
    for number, kind, view, made in decision_points(match, seat, wanted):
        if number != current:
            if decisions:
                yield HandReview(current, seat, results[current].points[seat], tuple(decisions))
            decisions, current = [], number
        decisions.append(review_decision(view, kind, made, seed, budget))
    if decisions:
        yield HandReview(current, seat, results[current].points[seat], tuple(decisions))


def decision_points(
    match: Match, seat: int, wanted: set[int]
) -> Iterator[tuple[int, DecisionKind, SeatView, tuple[int, ...]]]:
    """(hand, kind, the seat's view just before, the choice made) for each decision in ``wanted``.

    The match is replayed from its record, so each view is exactly what the
    seat saw then.  A pass is seen before any seat has confirmed one.
    """
    logs = match.hand_logs
    last = max(wanted, default=0)
    replay = Match(match.rules, match.players, seed=0, deal=logs[0].deal)
    for log in logs[:last]:
        number = log.number
        if number > 1:
            replay.next_hand(log.deal)
        looking = number in wanted
        if replay.phase is Phase.PASSING:
            passed = log.passes[seat]
            if looking and passed is not None:
                yield number, "pass", replay.view(seat), tuple(CardSet(passed))
            for giver in range(4):
                cards = log.passes[giver]
                if cards is not None:
                    replay.confirm_pass(giver, CardSet(cards))
        for card in log.plays:
            if looking and replay.turn == seat:
                yield number, "play", replay.view(seat), (card,)
            replay.play(card)
        if log.moon_choice is not None:
            shooter = replay.moon_shooter
            assert shooter is not None
            if looking and shooter == seat:
                yield number, "moon", replay.view(seat), (MOON_STYLES.index(log.moon_choice),)
            replay.choose_moon(shooter, log.moon_choice)


def trick_number(view: SeatView) -> int:
    """The number (from 1) of the trick being played or about to be led."""
    return len(view.tricks) + (1 if view.current_trick is None else 0)


def decision_rng(seed: int, view: SeatView, kind: DecisionKind) -> random.Random:
    """The generator of one decision: the seed, the hand and the decision, nothing hidden."""
    index = {"pass": 0, "play": trick_number(view), "moon": 14}[kind]
    return random.Random(f"hearts-coach:{seed}:{view.hand_number}:{index}")


def review_decision(
    view: SeatView, kind: DecisionKind, made: tuple[int, ...], seed: int, budget: Budget
) -> DecisionReview:
    """Cost every option of the decision ``view.seat`` faces in ``view`` and grade ``made``.

    ``made`` is the card played, the three cards passed, or ``(0,)`` for
    adding the moon and ``(1,)`` for subtracting it.  Only ``view`` and the
    seed go into the estimate.
    """
    # The bots' modules load on the first review, not with ``import hearts``.
    from hearts.bots.policy import pass_candidates
    from hearts.coach.estimate import (
        PassSampler,
        PlaySampler,
        Sampler,
        estimate_moon,
    )

    rng = decision_rng(seed, view, kind)
    texts = _card_texts
    sampler: Sampler | None = None
    trick = None
    if kind == "play":
        legal = tuple(card_text(card) for card in view.legal)
        trick = trick_number(view)
        if len(view.legal) == 1:
            # Nothing to decide: listed, never counted.
            return DecisionReview(
                hand=view.hand_number,
                seat=view.seat,
                kind=kind,
                trick=trick,
                made=legal,
                legal=legal,
                options=(),
                best=legal,
                loss=0.0,
                noise=0.0,
                verdict="fine",
                forced=True,
                samples=0,
            )
        made_option = made[0]
        options = list(view.legal)
        sampler = PlaySampler(view, budget)
        first = budget.samples
    elif kind == "pass":
        legal = tuple(card_text(card) for card in view.hand)
        made_option = sum(1 << card for card in made)
        options = [*pass_candidates(view.hand.mask), _expert_pass(view, rng), made_option]
        sampler = PassSampler(view)
        first = budget.pass_samples
        texts = _mask_texts
    else:
        legal = MOON_STYLES
        made_option = made[0]
        texts = _moon_texts
    if sampler is None:
        estimates = estimate_moon(view)
    else:
        sampler.extend(first, rng)
        estimates = sampler.estimate(options)
        cheapest = min(estimate.cost for estimate in estimates.options)
        looks_costly = estimates.by_option(made_option).cost - cheapest >= CONFIRM_AT
        if looks_costly or estimates.effective_samples < first * MIN_EFFECTIVE_SHARE:
            # It may be graded, or a few heavy deals decide: cost every option again
            # over many more deals.
            sampler.extend(first * budget.confirm_factor, rng)
            estimates = sampler.estimate(options)
    samples = 0 if sampler is None else len(sampler.worlds)
    return _graded(view, kind, trick, legal, estimates, made_option, samples, texts)


def _graded(
    view: SeatView,
    kind: DecisionKind,
    trick: int | None,
    legal: tuple[str, ...],
    estimates: Estimates,
    made: int,
    samples: int,
    texts: Callable[[int], tuple[str, ...]],
) -> DecisionReview:
    ranked = sorted(estimates.options, key=lambda estimate: estimate.cost)
    chosen = estimates.by_option(made)
    # A choice that ties with the cheapest is the best one shown.
    best = chosen if chosen.cost <= ranked[0].cost + 1e-9 else ranked[0]
    loss = max(chosen.cost - best.cost, 0.0)
    noise = estimates.noise(made, best.option)
    options = tuple(Option(texts(e.option), e.cost, e.points) for e in ranked)
    return DecisionReview(
        hand=view.hand_number,
        seat=view.seat,
        kind=kind,
        trick=trick,
        made=texts(made),
        legal=legal,
        options=options,
        best=texts(best.option),
        loss=loss,
        noise=noise,
        verdict=verdict_for(loss, noise),
        forced=False,
        samples=samples,
    )


def _expert_pass(view: SeatView, rng: random.Random) -> int:
    """The Expert's own pass in this view, so a stronger Expert widens the shortlist."""
    from hearts.bots import make_bot

    decision = make_bot("expert").decide(view, random.Random(rng.getrandbits(64)))
    return sum(1 << card for card in decision.cards)


def _card_texts(option: int) -> tuple[str, ...]:
    return (card_text(option),)


def _mask_texts(option: int) -> tuple[str, ...]:
    return tuple(CardSet(option).texts())


def _moon_texts(option: int) -> tuple[str, ...]:
    return (MOON_STYLES[option],)


__all__ = [
    "ACCURACY_SCALE",
    "BLUNDER",
    "COST_TERMS",
    "DEFAULT_BUDGET",
    "INACCURACY",
    "MISTAKE",
    "NOISE_Z",
    "Analysis",
    "Budget",
    "DecisionKind",
    "DecisionReview",
    "HandInPlay",
    "HandReview",
    "NoSuchHand",
    "Option",
    "Verdict",
    "analyse",
    "analyse_match",
]
