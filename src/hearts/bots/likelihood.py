"""The evidence the Expert weighs its deals by: the opponents' plays so far, and a pass.

:class:`Evidence` keeps, for each play by another seat, the public state
just before it, so that weighing a deal of the hidden cards
(:meth:`Evidence.weigh`) only has to put in the cards of the player; with
``pass_noise`` it also weighs the pass received from across.  How likely a
play was comes from the playout policy with some noise, or from the learned
model of :mod:`hearts.bots.playmodel`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Final

from hearts.bots import playmodel, policy
from hearts.bots.playmodel import PlayModel
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
    """Chances of plays avoiding points already worked out, by (play, the player's cards that
    decide it): with the model, the cards of the suit led (all its cards if it did not
    follow); else the legal cards, and above them the spade honours it held."""
    odds_cache: dict[tuple[int, int], float] = field(default_factory=dict, compare=False)
    """For :meth:`shoot_odds`: the log odds of a play, shooting against avoiding points, by
    the same key as ``cache`` without the model."""
    card_scores: playmodel.Memo = field(default_factory=dict, compare=False)
    """The learned model's scores of cards already worked out (see
    :meth:`hearts.bots.playmodel.PlayModel.scores`)."""
    shoot_prior: float = 0.0
    """The chance that an opponent who could still take every penalty card is shooting."""
    model: PlayModel | None = field(default=None, compare=False)
    """The learned model of a play avoiding points, instead of the noisy policy."""
    model_floor: float = 0.3
    """With ``model``: the share of a uniform chance over the legal cards mixed in."""

    def weigh(self, world: list[int]) -> tuple[float, int]:
        """How likely the opponents' plays so far were, had they held ``world``; and the
        opponents (a mask of seats) who are more likely shooting than not in it.

        With ``shoot_prior`` 0, each opponent plays the playout policy avoiding
        points, except with the chance ``noise`` gives a legal card at random.
        With a prior, an opponent who could still take every penalty card is a
        mixture: with chance ``shoot_prior`` every one of its plays came from the
        policy shooting, else from the policy avoiding.  With ``model``, the chance
        of a play avoiding points is the learned model's instead, worked out once
        per play and holding that decides it.  With a ``giver``, the pass from
        across is weighed too (:meth:`pass_likelihood`).
        """
        prior = self.shoot_prior
        avoid = [1.0, 1.0, 1.0, 1.0]
        shoot = [1.0, 1.0, 1.0, 1.0]
        model = self.model
        floor = self.model_floor
        cache = self.cache
        memo = self.card_scores
        for index, (before, who, card, later, threat) in enumerate(self.plays):
            # Only the player's own cards differ between deals: the rest of the
            # state before the play is the same in all of them.
            hand = world[who] | later
            before.hands[who] = hand
            legal = before.legal_mask()
            if not legal & (legal - 1):
                continue
            led = before.led_mask
            if model is not None:
                # Following suit, the chance depends on the cards of that suit alone.
                key = (index, hand & led if legal & led else hand)
                known = cache.get(key)
                if known is None:
                    chances = model.chances(before, legal, threat, self.voids[index], memo, index)
                    known = (1 - floor) * chances[card]
                    known += floor / legal.bit_count()
                    cache[key] = known
                avoid[who] *= known
            else:
                # The policy's card depends on the legal cards and, for a lead, on whether
                # the player holds the queen or a higher spade: the same in many deals.
                key = (index, legal | (hand & _SPADE_HONOURS) << 52)
                known = cache.get(key)
                if known is None:
                    chance, fit = self._noise(before, legal)
                    expected = policy.choose(before, legal, policy.AVOID, threat)
                    known = cache[key] = chance + (fit if expected == card else 0.0)
                avoid[who] *= known
            if prior > 0:
                chance, fit = self._noise(before, legal)
                expected = policy.choose(before, legal, policy.SHOOT, threat)
                shoot[who] *= chance + (fit if expected == card else 0.0)
        likelihood = 1.0 if self.giver < 0 else self.pass_likelihood(world)
        shooting = 0
        if prior <= 0:
            for seat in range(4):
                likelihood *= avoid[seat]
            return likelihood, shooting
        candidates = self.may_still_shoot
        for seat in range(4):
            if seat == self.seat:
                continue
            if candidates >> seat & 1:
                mixed = (1 - prior) * avoid[seat] + prior * shoot[seat]
                if prior * shoot[seat] > (1 - prior) * avoid[seat]:
                    shooting |= 1 << seat
                likelihood *= mixed
            else:
                likelihood *= avoid[seat]
        return likelihood, shooting

    def shoot_odds(self, world: list[int], seat: int) -> float:
        """How much better ``seat``'s plays so far fit the policy shooting the moon than the
        policy avoiding points, had it held its cards of ``world``: the log of the ratio of
        the two likelihoods, each with the noise of the plain likelihood (0 when every play
        fits both as well)."""
        cache = self.odds_cache
        odds = 0.0
        for index, (before, who, card, later, threat) in enumerate(self.plays):
            if who != seat:
                continue
            hand = world[who] | later
            before.hands[who] = hand
            legal = before.legal_mask()
            if not legal & (legal - 1):
                continue
            key = (index, legal | (hand & _SPADE_HONOURS) << 52)
            known = cache.get(key)
            if known is None:
                chance, fit = self._noise(before, legal)
                shooting = policy.choose(before, legal, policy.SHOOT, threat) == card
                avoiding = policy.choose(before, legal, policy.AVOID, threat) == card
                known = cache[key] = math.log(
                    (chance + (fit if shooting else 0.0)) / (chance + (fit if avoiding else 0.0))
                )
            odds += known
        return odds

    def _noise(self, before: HandState, legal: int) -> tuple[float, float]:
        """For a play from ``legal`` (a lead, a follow or a discard): the chance of each legal
        card at random, and the chance more of the policy's card."""
        lead_noise, follow_noise, discard_noise = self.noise
        led = before.led_mask
        noise = lead_noise if not led else follow_noise if legal & led else discard_noise
        count = legal.bit_count()
        return noise[count] / count, 1 - noise[count]

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
        *,
        shoot_prior: float = 0.0,
        model: PlayModel | None = None,
        model_floor: float = 0.3,
    ) -> Evidence:
        """The evidence in ``view``, its states replayed from ``world`` (any deal of the
        hidden cards consistent with the view: only the player's cards are ever read)."""
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
            shoot_prior=shoot_prior,
            model=model,
            model_floor=model_floor,
            **pass_evidence(view, pass_noise),
        )


_SPADE_HONOURS: Final = policy.QS_BIT | policy.HIGH_SPADES
"""The cards besides the legal ones that the policy's lead depends on (:func:`policy.choose`)."""

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
