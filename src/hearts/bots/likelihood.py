"""The evidence the Expert weighs its deals by: the opponents' plays so far, and a pass.

:class:`Evidence` keeps, for each play by another seat, the public state
just before it, so that weighing a deal of the hidden cards only has to put
in the cards of the player (:meth:`hearts.bots.expert.ExpertBot.deal_weights`);
with ``pass_noise`` it also weighs the pass received from across.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Final

from hearts.bots import playmodel, policy
from hearts.hand import HandState
from hearts.rules import PassDirection
from hearts.view import SeatView


@dataclass(frozen=True)
class Evidence:
    """The opponents' plays so far, each with the public state just before it.

    Whether a deal explains a play depends only on the cards the player held
    then; the rest of the state before the play (the trick, the cards gone,
    the moon threat) is the same in every deal, so it is replayed once per
    decision instead of once per deal.  The states are scratch space: weighing
    a deal writes the player's cards in that deal into them.
    """

    seat: int
    plays: tuple[tuple[HandState, int, int, int, int], ...]
    """(state before the play, player, card, the player's cards played from then on, the
    moon threat) for each play by another seat."""
    noise: tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]
    """For a lead, a follow and a discard, by number of legal cards: the chance the play was
    not the policy's."""
    may_still_shoot: int
    """The seats (a mask) that could still take every penalty card (see :func:`may_still_shoot`)."""
    giver: int = -1
    """The seat across whose pass is weighed (-1: none)."""
    giver_played: int = 0
    """The cards it has played this hand."""
    exchanged: tuple[int, int] = (0, 0)
    """The cards we passed it and the cards it passed us."""
    pass_noise: float = 1.0
    """The chance that the giver passed any three cards rather than one of our candidates."""
    voids: tuple[int, ...] = ()
    """For each play in ``plays``: the suits each seat was known to lack just before it (bit
    ``4 * seat + suit``, as :func:`hearts.bots.playmodel.features` takes them)."""
    cache: dict[tuple[int, int], float] = field(default_factory=dict, compare=False)
    """Chances of plays already worked out, by (play, the player's cards that decide it)."""
    card_scores: dict[tuple[int, int, int], float] = field(default_factory=dict, compare=False)
    """The learned model's scores of cards already worked out (see
    :meth:`hearts.bots.playmodel.PlayModel.scores`)."""

    def pass_likelihood(self, world: list[int]) -> float:
        """How likely the giver's pass was had it held, before the exchange, what ``world``
        gives it: one of our own candidate sets for that hand, each as likely, with chance
        ``1 - pass_noise``, else any three of its cards."""
        ours, theirs = self.exchanged
        dealt = (world[self.giver] | self.giver_played) & ~ours | theirs
        candidates = policy.pass_candidates(dealt)
        chance = self.pass_noise / ANY_THREE
        if theirs in candidates:
            chance += (1 - self.pass_noise) / len(candidates)
        return chance

    @classmethod
    def of(
        cls,
        view: SeatView,
        world: list[int],
        noise: tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]],
        pass_noise: float | None,
    ) -> Evidence:
        start = world[:]
        for trick in view.tricks:
            for who, card in trick.cards:
                start[who] |= 1 << card
        state = HandState(view.rules, start)
        plays = view.plays
        threat = -1
        evidence = []
        voids = 0
        known_voids = []
        for index, (who, card) in enumerate(plays):
            if who != view.seat:
                later = sum(1 << c for w, c in plays[index:] if w == who)
                evidence.append((state.copy(), who, card, later, threat))
                known_voids.append(voids)
            voids |= playmodel.void_bits(state, card)
            if state.play(card) >= 0:
                threat = policy.moon_threat(state)
        return cls(
            seat=view.seat,
            plays=tuple(evidence),
            voids=tuple(known_voids),
            noise=noise,
            may_still_shoot=may_still_shoot(state),
            **pass_evidence(view, pass_noise),
        )


ANY_THREE: Final = math.comb(13, 3)
"""The number of ways to pass three cards of thirteen."""


def pass_evidence(view: SeatView, pass_noise: float | None) -> dict[str, Any]:
    """Evidence fields for the pass received from across, when it is weighed."""
    if (
        pass_noise is None
        or view.pass_direction is not PassDirection.ACROSS
        or view.passed is None
        or view.received is None
    ):
        return {}
    giver = view.pass_direction.giver(view.seat)
    played = sum(1 << card for who, card in view.plays if who == giver)
    return {
        "giver": giver,
        "giver_played": played,
        "exchanged": (view.passed.mask, view.received.mask),
        "pass_noise": pass_noise,
    }


def may_still_shoot(state: HandState) -> int:
    """The seats (a mask) that could still take every penalty card of the hand."""
    penalty = state.forbidden_first
    holders = [seat for seat in range(4) if state.taken[seat] & penalty]
    if len(holders) > 1:
        return 0
    if holders:
        return 1 << holders[0]
    return 0b1111
