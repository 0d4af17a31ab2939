"""The Expert's pass: a search over candidate sets of three cards, from its own hand only.

The 39 cards it cannot see are dealt at random to the other seats, each of which passes
by the rule of thumb (:func:`~hearts.bots.policy.heuristic_pass`; with ``spread_passes``,
a set drawn as ``expert-2026-11`` passes).  Every candidate set is exchanged in every
deal and the hand played to its end by the playout policy, once with our seat avoiding
points and once shooting the moon; the cheaper way counts, scored for the match
(:class:`~hearts.bots.matchcost.MatchCost`).  The deals come in rounds (:class:`Search`):
the sets clearly worse than the best are dropped after each round.
"""

from __future__ import annotations

import random
import time
from typing import Protocol

from hearts.bots import moon, policy
from hearts.bots.finish import Finisher
from hearts.bots.matchcost import MatchCost
from hearts.bots.search import Search, Weighed
from hearts.cards import ALL_CARDS_MASK, Card
from hearts.deal import Holdings
from hearts.hand import HandState
from hearts.rules import PassDirection
from hearts.view import SeatView


class PassSettings(Protocol):
    """The settings the pass search reads (the Expert's, :class:`~hearts.bots.expert.ExpertBot`,
    documents each)."""

    @property
    def pass_samples(self) -> int: ...
    @property
    def pass_rounds(self) -> int: ...
    @property
    def close(self) -> float: ...
    @property
    def time_limit(self) -> float | None: ...
    @property
    def pass_wide(self) -> bool: ...
    @property
    def pass_moon(self) -> bool: ...
    @property
    def spread_passes(self) -> bool: ...
    @property
    def pass_shoot_check(self) -> bool: ...
    @property
    def pass_shoot_bias(self) -> float: ...
    @property
    def playout_noise(self) -> float: ...
    @property
    def finisher(self) -> Finisher: ...


def weigh_passes(
    settings: PassSettings, view: SeatView, rng: random.Random
) -> Weighed[tuple[Card, ...]]:
    """The candidate sets, their costs and the set chosen."""
    started = time.perf_counter()
    limit = settings.time_limit
    hand = view.hand.mask
    direction = view.pass_direction
    candidates = (
        policy.wide_pass_candidates(hand) if settings.pass_wide else policy.pass_candidates(hand)
    )
    if settings.pass_moon:
        candidates = list(dict.fromkeys(candidates + policy.moon_pass_candidates(hand)))
    scorer = MatchCost.for_view(view)
    seat = view.seat
    unseen = ALL_CARDS_MASK & ~hand
    search = Search(len(candidates), 2, bias=(0.0, settings.pass_shoot_bias))
    receiver = direction.receiver(seat)
    finisher = settings.finisher
    done = 0
    for _ in range(settings.pass_rounds):
        batch = settings.pass_samples
        worlds: list[list[int]] = []
        for _ in range(batch):
            out_of_time = limit is not None and time.perf_counter() - started > limit
            if out_of_time and (worlds or done):
                break
            worlds.append(deal_others(seat, hand, unseen, rng))
        if not worlds:
            break
        active = search.active()
        for world in worlds:
            # The other seats' passes do not depend on ours: worked out once per deal.
            passes = others_passes(world, seat, direction, rng if settings.spread_passes else None)
            chaos = rng.getrandbits(32) if settings.playout_noise > 0 else 0
            row: list[list[float]] = []
            for c in active:
                costs = []
                shooting = 0
                for my_mode in (policy.AVOID, policy.SHOOT):
                    holdings = exchange(world, passes, seat, candidates[c], direction)
                    state = HandState(view.rules, holdings)
                    modes = [policy.AVOID] * 4
                    if settings.pass_shoot_check and receiver != seat:
                        if my_mode == policy.AVOID:
                            shooting = moon.moon_hands(
                                state, list(holdings), seat, view.rules, 1 << receiver
                            )
                        if shooting:
                            modes[receiver] = policy.SHOOT
                    modes[seat] = my_mode
                    finisher.playout(state, modes, seat, chaos)
                    costs.append(scorer.cost(state.taken))
                row.append(costs)
            search.add(active, 1.0, row)
        done += len(worlds)
        if len(worlds) < batch or search.settled(settings.close):
            break
    sets = [tuple(card for card in range(52) if mask >> card & 1) for mask in candidates]
    return search.weighed(sets)


def deal_others(seat: int, hand: int, unseen: int, rng: random.Random) -> list[int]:
    """Our hand as it is, the other 39 cards dealt at random to the other seats."""
    cards = [card for card in range(52) if unseen >> card & 1]
    rng.shuffle(cards)
    world = [0, 0, 0, 0]
    world[seat] = hand
    others = [s for s in range(4) if s != seat]
    for index, card in enumerate(cards):
        world[others[index // 13]] |= 1 << card
    return world


def others_passes(
    world: list[int], seat: int, direction: PassDirection, rng: random.Random | None = None
) -> list[int]:
    """What the other seats pass (ours left at 0): by rule of thumb, or with ``rng`` drawn as
    ``expert-2026-11`` passes (:func:`~hearts.bots.policy.drawn_pass`); nothing on a hold."""
    if direction is PassDirection.HOLD:
        return [0, 0, 0, 0]
    if rng is not None:
        return [0 if s == seat else policy.drawn_pass(world[s], rng) for s in range(4)]
    return [0 if s == seat else policy.heuristic_pass(world[s]) for s in range(4)]


def exchange(
    world: list[int], others: list[int], seat: int, passed: int, direction: PassDirection
) -> Holdings:
    """Holdings after the exchange: ours is ``passed``, the others' are ``others``."""
    if direction is PassDirection.HOLD:
        return world[0], world[1], world[2], world[3]
    passes = others[:]
    passes[seat] = passed
    holdings = [world[s] & ~passes[s] for s in range(4)]
    for s in range(4):
        holdings[direction.receiver(s)] |= passes[s]
    return holdings[0], holdings[1], holdings[2], holdings[3]
