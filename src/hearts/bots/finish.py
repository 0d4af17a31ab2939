"""Finishing a sampled deal: the playout policy, with some choices searched.

The Expert scores a card in a deal by finishing the hand there.  Mostly the
playout policy (:func:`hearts.bots.policy.playout`) plays every seat; a few
choices can be searched instead: our own next ones (each distinct card tried,
the cheapest kept, as where an opponent is played as shooting the moon) and
each opponent's next one (the card that leaves it best off).  The coach
(:mod:`hearts.coach.estimate`) costs a play the same way, so it judges a
moon-stopping card as the Expert finds it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from hearts.bots import playmodel, policy
from hearts.bots.equivalence import distinct_in_deal
from hearts.hand import HandState
from hearts.rules import Rules


@dataclass(frozen=True)
class Finisher:
    """How the seats play on in a deal's playout (the Expert's settings of the same names)."""

    give_up: bool = True
    """A seat shooting the moon goes back to avoiding points once another seat has won a
    penalty card."""
    seize: int = 0
    """A seat that has won every penalty card so far, this many points' worth (10 or more),
    starts shooting (0: never)."""
    noise: float = 0.0
    """How often each seat other than ours plays a random legal card (0: never)."""
    alert: int = 0
    """Where an opponent is played as shooting the moon: 1, our seat tries to stop it from
    the shooter's first point; 2, every seat avoiding points does; 0, they wait for 10
    points, as anywhere else (:func:`hearts.bots.policy.moon_threat`)."""

    sharp: bool = False
    """Our own seat plays by :func:`hearts.bots.policy.choose_sharp` (the others by
    :func:`hearts.bots.policy.choose`): in the playouts we play our later cards better than the
    rule of thumb the opponents are modelled by, as the Expert does."""

    model: playmodel.PlayModel | None = None
    """With ``drawn``: the model whose chances the opponents' next cards are drawn with."""
    drawn: int = 0
    """How many of the opponents' next cards with a choice, before our own next one, are drawn
    from ``model``'s chances (:meth:`draw_replies`) instead of played by the policy."""

    def draw_replies(
        self,
        state: HandState,
        modes: Sequence[int],
        seat: int,
        draws: Sequence[float],
        memo: playmodel.Memo | None = None,
    ) -> list[int]:
        """Play the opponents' next cards in ``state`` up to our own next turn: each card with a
        choice of a seat avoiding points drawn from the model's chances by the next of the
        uniform numbers ``draws`` (at most ``drawn`` of them), a forced card played, a
        shooter's card the policy's.  Where the draws run out, the policy takes over as usual
        (:meth:`playout`).  The seats' modes to play on in come back: with ``give_up``, a
        shooter whose moon those cards ended avoids points from then on."""
        model = self.model
        current = list(modes)
        if model is None or not self.drawn:
            return current
        used = 0
        while state.tricks_played < 13 and state.turn != seat:
            legal = state.legal_mask()
            turn = state.turn
            if not legal & (legal - 1):
                card = legal.bit_length() - 1
            elif used >= self.drawn or used >= len(draws):
                break
            elif current[turn] == policy.SHOOT:
                card = policy.choose(state, legal, policy.SHOOT)
            else:
                threat = self.threat(state, current, seat)
                card = model.draw(state, legal, threat, draws[used], memo)
                used += 1
            if state.play(card) >= 0 and self.give_up:
                policy.give_up_moons(state, current)
        return current

    def playout(
        self,
        state: HandState,
        modes: Sequence[int],
        seat: int,
        chaos: int,
        pause: int = 0,
        first: int = -1,
    ) -> tuple[int, int, int, int] | None:
        """Finish the hand in ``state`` with the policy, each seat in its mode; with
        ``noise``, the seats other than ``seat`` (ours) play at random that often, the draws
        coming from the seed ``chaos``.  ``pause`` and ``first`` are
        :func:`hearts.bots.policy.playout`'s: stop at the choice of a seat of that mask, or
        start with that card; the modes at a pause are returned."""
        alert = self.alert_seats(modes, seat)
        return policy.playout(
            state,
            (modes[0], modes[1], modes[2], modes[3]),
            self.give_up,
            self.seize,
            self.noise,
            random.Random(chaos) if self.noise > 0 else None,
            seat,
            pause,
            first,
            alert,
            seat if self.sharp else -1,
        )

    def choose(self, state: HandState, legal: int, mode: int, threat: int, seat: int) -> int:
        """The policy's card for the seat to play in ``state``, ``seat`` being ours."""
        if self.sharp and state.turn == seat:
            return policy.choose_sharp(state, legal, mode, threat)
        return policy.choose(state, legal, mode, threat)

    def alert_seats(self, modes: Sequence[int], seat: int) -> int:
        """The seats (a mask) that try to stop a shooter from its first point in a playout
        starting in ``modes``: none unless an opponent of ``seat`` is shooting."""
        if not self.alert or not any(
            modes[other] == policy.SHOOT for other in range(4) if other != seat
        ):
            return 0
        if self.alert == 1:
            return 1 << seat if modes[seat] == policy.AVOID else 0
        return sum(1 << other for other in range(4) if modes[other] == policy.AVOID)

    def threat(self, state: HandState, modes: Sequence[int], seat: int) -> int:
        """The moon threat the seat to play in ``state`` answers, in a playout in ``modes``."""
        if self.alert_seats(modes, seat) >> state.turn & 1:
            return policy.moon_threat(state, 1)
        return policy.moon_threat(state)

    def fork(
        self,
        state: HandState,
        modes: Sequence[int],
        seat: int,
        chaos: int,
        cost: Callable[[list[int]], float],
    ) -> float | Fork:
        """Finish the hand in ``state`` by the policy up to our next choice, and there finish it
        once with each of our cards that can play differently for all we will know then; the
        plain cost if the hand ends first (see :func:`consistent_rows`)."""
        paused = self.playout(state, modes, seat, chaos, 1 << seat)
        if paused is None:
            return cost(state.taken)
        legal = state.legal_mask()
        preferred = self.choose(state, legal, paused[seat], self.threat(state, paused, seat), seat)
        # One card of each group of equivalent cards, always the lowest: the same cards in
        # every deal that looks the same to us then; the policy's card's group first.
        cards = distinct_in_deal(state, legal, -1)
        first = max(card for card in cards if card <= preferred)
        costs = {first: 0.0}
        for card in cards:
            trial = state.copy()
            self.playout(trial, paused, seat, chaos, 0, card)
            costs[card] = cost(trial.taken)
        seen = (state.played_mask, *state.trick, *state.taken)
        return Fork(seen, costs)

    def finish(
        self,
        state: HandState,
        modes: Sequence[int],
        seat: int,
        chaos: int,
        cost: Callable[[list[int]], float],
        depth: int,
        replies: int = 0,
        first: int = -1,
    ) -> tuple[float, list[int]]:
        """Our cost of finishing the hand in ``state`` (``first`` played first, if given): by
        the policy for every seat, except that our next ``depth`` choices each take the
        cheapest of our distinct cards in this deal, and the next choice of each opponent in
        the mask ``replies`` takes the card best for that opponent; every card tried is
        finished the same way (an opponent's, by the policy alone).  With ``noise``, each
        part after a choice draws its random plays from ``chaos`` afresh, the same for every
        card tried.  The cards each seat took in the finish chosen come with the cost."""
        pause = replies | (1 << seat if depth > 0 else 0)
        paused = self.playout(state, modes, seat, chaos, pause, first)
        if paused is None:
            return cost(state.taken), state.taken
        turn = state.turn
        legal = state.legal_mask()
        preferred = self.choose(state, legal, paused[turn], self.threat(state, paused, seat), seat)
        cards = distinct_in_deal(state, legal, preferred)
        if turn == seat:
            return min(
                (
                    self.finish(state.copy(), paused, seat, chaos, cost, depth - 1, replies, card)
                    for card in cards
                ),
                key=_first,
            )
        # An opponent's choice: the first card (the policy's) unless another leaves it better off.
        best: HandState | None = None
        best_card, best_own = preferred, math.inf
        for card in cards:
            trial = state.copy()
            self.playout(trial, paused, seat, chaos, 0, card)
            own = own_cost(trial.rules, trial.taken, turn)
            if own < best_own:
                best, best_card, best_own = trial, card, own
        replies &= ~(1 << turn)
        if best is not None and not replies and depth <= 0:
            return cost(best.taken), best.taken  # nothing more to choose: that is the finish
        return self.finish(state, paused, seat, chaos, cost, depth, replies, best_card)


def _first(result: tuple[float, list[int]]) -> float:
    return result[0]


@dataclass(frozen=True)
class Fork:
    """Our next choice in one deal's playout: what we will know then and each card's cost."""

    seen: tuple[int, ...]
    """Everything public at that choice: the cards played, the trick on the table by seat,
    the cards each seat has won."""
    costs: dict[int, float]
    """Each of our cards that can play differently (the lowest of each group of equivalent
    cards), the policy's first, finished by the policy."""


def consistent_rows(
    rows: Sequence[Sequence[Sequence[float | Fork]]], weights: Sequence[float], least: int
) -> list[list[list[float]]]:
    """``rows`` (deal, candidate, mode) with every :class:`Fork` resolved to one cost.

    The deals in which a candidate, in a mode, reaches our next choice with the same things
    seen are one group: we cannot tell them apart then, so one card is played in all of them,
    the one of least weighted cost over the group (``weights`` by deal).  In a group of fewer
    than ``least`` deals the policy's card is played instead, as it is without the search.
    """
    groups: dict[tuple[int, int, tuple[int, ...]], list[int]] = {}
    for d, row in enumerate(rows):
        for c, entries in enumerate(row):
            for m, entry in enumerate(entries):
                if isinstance(entry, Fork):
                    groups.setdefault((c, m, entry.seen), []).append(d)
    if not groups:
        # Nothing to resolve (the setting is off, or no deal reached our next choice).
        return cast(list[list[list[float]]], rows)
    chosen: dict[tuple[int, int, int], int] = {}
    for (c, m, _), deals in groups.items():
        if len(deals) < least:
            continue
        totals: dict[int, float] = {}
        for d in deals:
            fork = rows[d][c][m]
            assert isinstance(fork, Fork)
            for card, cost in fork.costs.items():
                totals[card] = totals.get(card, 0.0) + weights[d] * cost
        best = min(totals, key=totals.__getitem__)
        for d in deals:
            chosen[d, c, m] = best
    resolved = []
    for d, row in enumerate(rows):
        costs_row = []
        for c, entries in enumerate(row):
            costs = []
            for m, entry in enumerate(entries):
                if isinstance(entry, Fork):
                    card = chosen.get((d, c, m), next(iter(entry.costs)))
                    costs.append(entry.costs[card])
                else:
                    costs.append(entry)
            costs_row.append(costs)
        resolved.append(costs_row)
    return resolved


def own_cost(rules: Rules, taken: list[int], seat: int) -> float:
    """A seat's points in a finished hand (each seat's cards ``taken``) less the other seats'
    average, a moon scored as the rules score it: what a seat playing for itself keeps low."""
    points, _ = rules.score_hand(taken, "add")
    return points[seat] - (points[0] + points[1] + points[2] + points[3] - points[seat]) / 3
