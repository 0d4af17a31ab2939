"""Expert: search over the hidden cards, from what its seat knows and nothing else.

For a play, the Expert

1. infers what it can from its view (:mod:`hearts.bots.knowledge`): the
   unseen cards, who is void in what, where the cards it passed are;
2. samples deals of the unseen cards consistent with all of it, and weights
   each by how likely the opponents' actual plays were in it (under a noisy
   version of the playout policy);
3. plays every legal card in every sampled deal and finishes the hand with
   the fast playout policy (:mod:`hearts.bots.policy`), once with itself
   avoiding points and, while nobody else has taken a penalty card, once
   trying to take them all (the moon);
4. scores each finish for the match, not just the hand: points given to the
   opponent who most threatens its win count for more, and a finish that
   ends the match counts as a win or a loss;
5. picks the card with the lowest weighted cost.

An opponent who has taken every penalty card so far is assumed, in part of
the deals, to be shooting, so the search sees the moon coming and spends a
heart to stop it.

For the pass it shortlists sets of dangerous cards and plays whole sampled
hands with each, the other seats passing by the same rules of thumb.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from hearts.bots import policy
from hearts.bots.base import Bot, taken_cards
from hearts.bots.knowledge import Knowledge, sample_hidden, state_template
from hearts.cards import ALL_CARDS_MASK, Card
from hearts.deal import Holdings
from hearts.hand import HandState
from hearts.rules import PassDirection, Rules
from hearts.view import SeatView

WIN_COST = -60.0
LOSS_COST = 60.0
"""A finish that ends the match counts far beyond any hand's points."""
TIE_MARGIN = 0.05
"""A card must beat the policy's choice by this much (in points) to replace it."""


@dataclass(frozen=True)
class ExpertBot(Bot):
    """Search-based player; its budget is a number of sampled deals (or a time limit)."""

    samples: int = 100
    """Deals sampled per play decision."""
    pass_samples: int = 40
    """Deals sampled per candidate pass."""
    time_limit: float | None = None
    """If set, stop sampling once this many seconds have passed (results then depend on speed)."""
    moon_suspicion: float = 0.5
    """Share of deals in which an opponent holding every penalty card so far is shooting."""
    play_noise: float = 0.35
    """How often, in the likelihood model, an opponent plays other than the policy would."""

    @property
    def level(self) -> str:
        return "expert"

    # --- playing -------------------------------------------------------------

    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        started = time.perf_counter()
        seat = view.seat
        legal = list(view.legal)
        knowledge = Knowledge.from_view(view)
        worlds: list[list[int]] = []
        weights: list[float] = []
        for _ in range(self.samples):
            if self._out_of_time(started) and worlds:
                break
            world = sample_hidden(knowledge, rng)
            if world is None:
                break
            worlds.append(world)
            weights.append(self._likelihood(view, world))
        if not worlds:
            return policy.choose(_fallback_state(view), view.legal.mask, policy.AVOID)

        template = state_template(view, worlds[0])
        scorer = MatchScorer.for_view(view)
        shooter_suspect = _suspected_shooter(view)
        modes_by_world = []
        for index in range(len(worlds)):
            modes = [policy.AVOID] * 4
            if shooter_suspect is not None and (index + 0.5) / len(worlds) < self.moon_suspicion:
                modes[shooter_suspect] = policy.SHOOT
            modes_by_world.append(modes)

        my_modes = [policy.AVOID]
        if _may_shoot(view):
            my_modes.append(policy.SHOOT)
        # The policy's own card goes first and keeps its place unless another
        # card is clearly better: many cards tie in the playouts (the policy
        # would shed the queen later anyway), and the rule of thumb is the
        # safer of equals.
        preferred = policy.choose(
            template, view.legal.mask, policy.AVOID, policy.moon_threat(template)
        )
        legal.sort(key=lambda card: card != preferred)
        best_card, best_cost = legal[0], math.inf
        total_weight = sum(weights)
        for card in legal:
            card_cost = math.inf
            for my_mode in my_modes:
                cost = 0.0
                for world, weight, modes in zip(worlds, weights, modes_by_world, strict=True):
                    state = template.copy()
                    state.hands = world[:]
                    state.play(card)
                    modes[seat] = my_mode
                    policy.playout(state, (modes[0], modes[1], modes[2], modes[3]))
                    cost += weight * scorer.cost(state.taken)
                card_cost = min(card_cost, cost / total_weight)
            if card_cost < best_cost - TIE_MARGIN:
                best_card, best_cost = card, card_cost
        return best_card

    def _likelihood(self, view: SeatView, world: list[int]) -> float:
        """How likely the opponents' plays so far were, had they held ``world``."""
        start = world[:]
        for trick in view.tricks:
            for who, card in trick.cards:
                start[who] |= 1 << card
        state = HandState(view.rules, start)
        noise = self.play_noise
        likelihood = 1.0
        threat = -1
        for who, card in view.plays:
            legal = state.legal_mask()
            if who != view.seat and legal & (legal - 1):
                expected = policy.choose(state, legal, policy.AVOID, threat)
                chance = noise / legal.bit_count() + (1 - noise if expected == card else 0.0)
                likelihood *= chance
            if state.play(card) >= 0:
                threat = policy.moon_threat(state)
        return likelihood

    def _out_of_time(self, started: float) -> bool:
        return self.time_limit is not None and time.perf_counter() - started > self.time_limit

    # --- passing -------------------------------------------------------------

    def choose_pass(self, view: SeatView, rng: random.Random) -> list[Card]:
        started = time.perf_counter()
        hand = view.hand.mask
        direction = view.pass_direction
        candidates = _pass_candidates(hand)
        scorer = MatchScorer.for_view(view)
        seat = view.seat
        worlds: list[list[int]] = []
        unseen = ALL_CARDS_MASK & ~hand
        for _ in range(self.pass_samples):
            if self._out_of_time(started) and worlds:
                break
            worlds.append(_deal_others(seat, hand, unseen, rng))
        best, best_cost = candidates[0], math.inf
        for passed in candidates:
            cost = math.inf
            for my_mode in (policy.AVOID, policy.SHOOT):
                total = 0.0
                for world in worlds:
                    holdings = _after_passes(world, seat, passed, direction)
                    state = HandState(view.rules, holdings)
                    modes = [policy.AVOID] * 4
                    modes[seat] = my_mode
                    policy.playout(state, (modes[0], modes[1], modes[2], modes[3]))
                    total += scorer.cost(state.taken)
                cost = min(cost, total / len(worlds))
            if cost < best_cost - 1e-9:
                best, best_cost = passed, cost
        return [card for card in range(52) if best >> card & 1]


@dataclass(frozen=True)
class MatchScorer:
    """The cost of a hand's outcome for one seat, given the match so far."""

    rules: Rules
    seat: int
    totals: tuple[int, int, int, int]
    weights: tuple[float, float, float, float]
    """How much each opponent's points help us (they sum to 1; ours is 0)."""

    @classmethod
    def for_view(cls, view: SeatView) -> MatchScorer:
        seat = view.seat
        totals = view.totals
        opponents = [s for s in range(4) if s != seat]
        leader = min(totals[s] for s in opponents)
        # The opponent nearest the lowest total threatens our win most: points
        # they take are worth more to us, and more so as the match nears its end.
        closeness = max(totals) / view.rules.target
        spread = 30.0 - 20.0 * min(closeness, 1.0)
        raw = [0.0 if s == seat else math.exp(-(totals[s] - leader) / spread) for s in range(4)]
        norm = sum(raw)
        weights = (raw[0] / norm, raw[1] / norm, raw[2] / norm, raw[3] / norm)
        return cls(view.rules, seat, totals, weights)

    def cost(self, taken: list[int]) -> float:
        points, _ = self.rules.score_hand(taken, "add")
        seat = self.seat
        totals = [self.totals[s] + points[s] for s in range(4)]
        if max(totals) >= self.rules.target:
            best_other = min(totals[s] for s in range(4) if s != seat)
            margin = (totals[seat] - best_other) * 0.1
            return (WIN_COST if totals[seat] < best_other else LOSS_COST) + margin
        w = self.weights
        return points[seat] - (
            w[0] * points[0] + w[1] * points[1] + w[2] * points[2] + w[3] * points[3]
        )


def _may_shoot(view: SeatView) -> bool:
    """Only while no other seat has won a penalty card this hand."""
    penalty = view.rules.penalty_mask
    taken = taken_cards(view)
    return not any(taken[s] & penalty for s in range(4) if s != view.seat)


def _suspected_shooter(view: SeatView) -> int | None:
    """An opponent who has won every penalty card so far, and enough of them to worry."""
    penalty = view.rules.penalty_mask
    taken = taken_cards(view)
    holders = [s for s in range(4) if taken[s] & penalty]
    if len(holders) != 1 or holders[0] == view.seat:
        return None
    shooter = holders[0]
    if view.rules.hand_points_of_cards(taken[shooter] & penalty) < 8:
        return None
    return shooter


def _fallback_state(view: SeatView) -> HandState:
    """A state with the view's trick on the table (other hands filled arbitrarily)."""
    knowledge = Knowledge.from_view(view)
    hidden = [0, 0, 0, 0]
    hidden[view.seat] = view.hand.mask
    pool = knowledge.unseen
    for s in range(4):
        if s != view.seat:
            for _ in range(view.cards_left[s]):
                low = pool & -pool
                hidden[s] |= low
                pool ^= low
    return state_template(view, hidden)


def _pass_candidates(hand: int) -> list[int]:
    """The three most dangerous cards, and sets that swap one of them for a runner-up."""
    ranked = [card for _, card in policy.pass_dangers(hand)]
    top, rest = ranked[:3], ranked[3:6]
    base = sum(1 << card for card in top)
    candidates = [base]
    for out in top:
        for alternative in rest:
            candidates.append(base & ~(1 << out) | 1 << alternative)
    # A hand for the moon passes its lowest cards instead.
    low = sum(1 << card for card in ranked[-3:])
    candidates.append(low)
    return list(dict.fromkeys(candidates))


def _deal_others(seat: int, hand: int, unseen: int, rng: random.Random) -> list[int]:
    """Our hand as it is, the other 39 cards dealt at random to the other seats."""
    cards = [card for card in range(52) if unseen >> card & 1]
    rng.shuffle(cards)
    world = [0, 0, 0, 0]
    world[seat] = hand
    others = [s for s in range(4) if s != seat]
    for index, card in enumerate(cards):
        world[others[index // 13]] |= 1 << card
    return world


def _after_passes(world: list[int], seat: int, passed: int, direction: PassDirection) -> Holdings:
    """Holdings after the exchange: ours is ``passed``, the others pass by rule of thumb."""
    if direction is PassDirection.HOLD:
        return world[0], world[1], world[2], world[3]
    passes = [passed if s == seat else policy.heuristic_pass(world[s]) for s in range(4)]
    holdings = [world[s] & ~passes[s] for s in range(4)]
    for s in range(4):
        holdings[direction.receiver(s)] |= passes[s]
    return holdings[0], holdings[1], holdings[2], holdings[3]
