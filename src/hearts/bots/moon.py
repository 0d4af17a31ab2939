"""Who may be shooting the moon, for the Expert's search.

Moons decide most of the difference between two strong players
(``docs/strength.md``), so the Expert asks three questions before it plays:

- may it still shoot itself (:func:`may_shoot`)?
- which opponent, if any, is it to suspect of shooting, and in what share
  of its deals (:func:`suspicion`)?  From the cards won so far
  (:data:`MOON_TABLE`) and, optionally, from the pass it received
  (:data:`TELL_TABLE`);
- in a sampled deal, which opponents hold a hand that takes every penalty
  card if they go for it (:func:`moon_hands`)?
- and so, in which of the sampled deals does the suspect shoot
  (:func:`moon_places`, :func:`fit_moon`)?

Everything here reads the seat's view, or a deal sampled from it; nothing
sees a hidden card.
"""

from __future__ import annotations

from collections.abc import Sequence

from hearts.bots import policy
from hearts.bots.base import taken_cards
from hearts.bots.likelihood import may_still_shoot
from hearts.hand import HandState
from hearts.rules import Rules
from hearts.view import SeatView

MOON_TABLE: tuple[tuple[float, float, float], ...] = (
    (0.15, 0.32, 0.21),
    (0.40, 0.37, 0.60),
    (0.32, 0.24, 0.81),
    (0.47, 0.43, 0.68),
)
"""How often a seat that had won every penalty card so far went on to shoot the moon, among
four ``expert-2026-11`` players (400 hands, ``docs/strength.md``): by the points won (1-3,
4-7, 8-13, 14 or more) and the tricks played (1-4, 5-8, 9-12)."""

TELL_RANK = 6
"""A pass is a moon tell when none of its three cards ranks above this (6: the eight)."""

TELL_TABLE: tuple[tuple[float, float, float], ...] = (
    (0.35, 0.35, 0.35),
    (0.32, 0.50, 0.53),
)
"""How often a seat that had passed us a moon tell went on to shoot the moon, while it still
could, among four ``expert-2026-11`` players (240 hands, ``docs/strength.md``): nobody having
won a penalty card yet (first row), or that seat having won every one so far (second row), by
the tricks played (0-4, 5-8, 9-12).  Against 4% and 19 to 52% after other passes."""


def may_shoot(view: SeatView) -> bool:
    """Whether the seat may still shoot: only while no other seat has won a penalty card."""
    return all(holder == view.seat for holder in penalty_holders(view))


def suspicion(
    view: SeatView, *, table: bool, points: int, share: float, tell: bool, scale: float = 1.0
) -> tuple[int | None, float]:
    """The opponent suspected of shooting (or None), and in what share of the deals.

    With ``table``, an opponent holding every penalty card won so far is suspected from
    the first point, in the share :data:`MOON_TABLE` gives times ``scale`` (at most 1);
    without it, from ``points`` points, in ``share`` of the deals.  With ``tell``, the seat
    that passed us a moon tell is suspected too (:func:`pass_tell`), in the larger of the
    two shares.
    """
    if table:
        suspect = suspected_shooter(view, 1)
        share = 0.0
        if suspect is not None:
            won = taken_cards(view)[suspect] & view.rules.penalty_mask
            won_points = view.rules.hand_points_of_cards(won)
            row = 0 if won_points <= 3 else 1 if won_points <= 7 else 2 if won_points <= 13 else 3
            share = min(1.0, MOON_TABLE[row][_column(view)] * scale)
    else:
        suspect = suspected_shooter(view, points)
    if tell:
        teller, tell_share = pass_tell(view)
        if teller is not None and (suspect is None or suspect == teller):
            return teller, max(share if suspect is not None else 0.0, tell_share)
    return suspect, share


def pass_tell(view: SeatView) -> tuple[int | None, float]:
    """The seat that passed us a moon tell while it can still take every penalty card, and
    how often such a seat shoots (:data:`TELL_TABLE`); else (None, 0)."""
    received = view.received
    if received is None or len(received) != 3 or max(card % 13 for card in received) > TELL_RANK:
        return None, 0.0
    giver = view.pass_direction.giver(view.seat)
    holders = penalty_holders(view)
    if holders and holders != [giver]:
        return None, 0.0
    return giver, TELL_TABLE[1 if holders else 0][_column(view)]


def suspected_shooter(view: SeatView, points: int = 8) -> int | None:
    """An opponent who has won every penalty card so far, and at least ``points`` of them."""
    holders = penalty_holders(view)
    if len(holders) != 1 or holders[0] == view.seat:
        return None
    shooter = holders[0]
    won = taken_cards(view)[shooter] & view.rules.penalty_mask
    if view.rules.hand_points_of_cards(won) < points:
        return None
    return shooter


def penalty_holders(view: SeatView) -> list[int]:
    """The seats that have won a penalty card this hand."""
    penalty = view.rules.penalty_mask
    return [seat for seat, won in enumerate(taken_cards(view)) if won & penalty]


def moon_hands(
    template: HandState, world: list[int], seat: int, rules: Rules, among: int = 0b1111
) -> int:
    """The opponents (a mask, of those in ``among``) who, in this deal, take every penalty
    card when they shoot from here with the policy and every other seat avoids points."""
    found = 0
    candidates = may_still_shoot(template) & among
    for other in range(4):
        if other == seat or not candidates >> other & 1:
            continue
        modes = [policy.AVOID] * 4
        modes[other] = policy.SHOOT
        state = template.copy()
        state.hands = world[:]
        policy.playout(state, (modes[0], modes[1], modes[2], modes[3]), True)
        if rules.score_hand(state.taken, "add")[1] == other:
            found |= 1 << other
    return found


def _column(view: SeatView) -> int:
    """The column of :data:`MOON_TABLE` and :data:`TELL_TABLE` for the tricks played."""
    tricks = sum(1 for trick in view.tricks if trick.winner is not None)
    return 0 if tricks <= 4 else 1 if tricks <= 8 else 2


def moon_places(
    weights: list[float],
    samples: int,
    done: int,
    by_weight: bool,
    odds: list[float] | None = None,
) -> list[float]:
    """Where in [0, 1) each deal of a round falls (``weights``, by deal; ``done`` deals came in
    earlier rounds): a suspect shoots in the deals that fall below its share.

    The first round places the deals in order: by their place among ``samples``, as the frozen
    Expert did (its first ``moon_suspicion`` share of them), or, ``by_weight``, by the middle
    of each deal's stretch of the round's weight, so that the deals below a share hold that
    share of the weight.  Later rounds interleave them.  With ``odds`` (by deal), every round
    is placed by weight, the deals with the highest odds first (ties in order).
    """
    if odds is not None or (done == 0 and by_weight):
        total = sum(weights)
        if total > 0:
            order: Sequence[int] = range(len(weights))
            if odds is not None:
                order = sorted(order, key=lambda deal: -odds[deal])
            places = [0.0] * len(weights)
            running = 0.0
            for deal in order:
                places[deal] = (running + weights[deal] / 2) / total
                running += weights[deal]
            return places
    return [
        (index + 0.5) / samples if index < samples else ((index * 0.618034) % 1.0)
        for index in range(done, done + len(weights))
    ]


def fit_moon(
    weights: list[float], comes_off: list[bool], share: float, most: float
) -> list[float] | None:
    """The deals' weights again, so that the deals where a suspect's moon ``comes_off`` hold
    ``share`` of the weight, or ``most`` times the share they held if that is less (and
    the others the rest); None if the moon comes off in none of the deals or in all of them.

    The moon table says how often a suspect went on to shoot; the deals where its moon
    comes off are those in which it can, so they are what that share is of.
    """
    total = sum(weights)
    off = sum(weight for weight, fits in zip(weights, comes_off, strict=True) if fits)
    if total <= 0 or off <= 0 or off >= total:
        return None
    target = min(share, most * off / total)
    up, down = target * total / off, (1 - target) * total / (total - off)
    return [
        weight * (up if fits else down) for weight, fits in zip(weights, comes_off, strict=True)
    ]
