"""The Expert as it played in November 2026, frozen as the reference level ``expert-2026-11``.

This is a copy of the Expert's search, its playout policy and its deal
sampler as they were at commit 92e818d, gathered in one module so that later
work on :mod:`hearts.bots.expert`, :mod:`hearts.bots.policy` or
:mod:`hearts.bots.knowledge` cannot change it: the new Expert is measured
against it (``hearts arena --seats expert,expert-2026-11,expert-2026-11,expert-2026-11``).
``tests/bots/test_frozen.py`` checks it still makes the decisions recorded
from the code it was copied from.  Do not improve it; add a new level instead.

For a play it samples deals of the unseen cards consistent with the view,
weights each by how likely the opponents' plays were, plays every legal card
in every deal and finishes the hand with the fast rule-based policy (once
avoiding points and, while nobody else has a penalty card, once shooting),
and picks the card with the lowest weighted match-aware cost.  For the pass
it plays whole sampled hands with a short list of candidate passes.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Final

from hearts.bots.base import Bot, taken_cards
from hearts.cards import (
    ACE_OF_SPADES,
    ALL_CARDS_MASK,
    HEARTS_MASK,
    KING_OF_SPADES,
    QUEEN_OF_SPADES,
    SPADES,
    SUIT_MASK,
    TWO_OF_CLUBS,
    Card,
)
from hearts.deal import Holdings
from hearts.hand import TWO_OF_CLUBS_BIT, HandState
from hearts.rules import PassDirection, Rules
from hearts.view import SeatView

# --- the playout policy (hearts.bots.policy at 92e818d) -------------------------

QS_BIT: Final = 1 << QUEEN_OF_SPADES
HIGH_SPADES: Final = (1 << ACE_OF_SPADES) | (1 << KING_OF_SPADES)
SPADES_MASK: Final = SUIT_MASK[SPADES]
_SUITS: Final = tuple(enumerate(SUIT_MASK))

AVOID: Final = 0
SHOOT: Final = 1


def highest_rank(mask: int) -> int:
    """The card of highest rank in a non-empty mask (ties: the later suit)."""
    best = -1
    best_rank = -1
    for _, suit_mask in _SUITS:
        cards = mask & suit_mask
        if cards:
            card = cards.bit_length() - 1
            if card % 13 >= best_rank:
                best, best_rank = card, card % 13
    return best


def lowest_rank(mask: int) -> int:
    """The card of lowest rank in a non-empty mask (ties: the earlier suit)."""
    best = -1
    best_rank = 13
    for _, suit_mask in _SUITS:
        cards = mask & suit_mask
        if cards:
            card = (cards & -cards).bit_length() - 1
            if card % 13 < best_rank:
                best, best_rank = card, card % 13
    return best


def moon_threat(state: HandState) -> int:
    """The seat that has won every penalty card so far, 10 points' worth or more; else -1."""
    penalty = state.forbidden_first  # the penalty cards of the rules in force
    taken = state.taken
    holder = -1
    for seat in (0, 1, 2, 3):
        if taken[seat] & penalty:
            if holder >= 0:
                return -1
            holder = seat
    if holder < 0:
        return -1
    won = taken[holder] & penalty
    points = (won & HEARTS_MASK).bit_count() + (13 if won & QS_BIT else 0)
    return holder if points >= 10 else -1


def choose(state: HandState, legal: int, mode: int, threat: int = -1) -> int:
    """The policy's card for the seat to play, from the non-empty mask ``legal``.

    ``threat`` is the seat that may be shooting the moon (see
    :func:`moon_threat`), or -1; the others then try to take a point from it.
    """
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    if mode == SHOOT:
        return _shoot(state, legal)
    led = state.led_mask
    if not led:
        return _lead(state, legal, state.hands[state.turn])
    follow = legal & led
    if threat >= 0 and threat != state.turn:
        return _stop_moon(state, legal, follow, threat)
    if follow:
        return _follow(state, follow, led)
    return _discard(state, legal)


def _stop_moon(state: HandState, legal: int, follow: int, threat: int) -> int:
    """Take a trick with a point in it from the shooter, or give a point to someone else."""
    winning = state.best_seat
    if follow:
        if winning == threat and follow >> (state.best_card + 1):
            # Beat the shooter's card and keep whatever points fall on the trick.
            return follow.bit_length() - 1
        return _follow(state, follow, state.led_mask)
    if winning != threat:
        points = legal & (HEARTS_MASK | QS_BIT)
        if points:
            # A point on someone else's trick ends the moon.
            return QUEEN_OF_SPADES if points & QS_BIT else points.bit_length() - 1
    non_points = legal & ~HEARTS_MASK & ~QS_BIT
    return highest_rank(non_points or legal)


def _lead(state: HandState, legal: int, hand: int) -> int:
    if legal & TWO_OF_CLUBS_BIT:
        return TWO_OF_CLUBS
    queen_out = not state.played_mask & QS_BIT
    if hand & QS_BIT or (queen_out and hand & HIGH_SPADES):
        # Leading spades would only walk the queen (or into it).
        safer = legal & ~SPADES_MASK
        if safer:
            legal = safer
    elif queen_out and legal & SPADES_MASK and not hand & HIGH_SPADES:
        # Low spades flush the queen out while others must follow.
        spades = legal & SPADES_MASK
        return (spades & -spades).bit_length() - 1
    non_hearts = legal & ~HEARTS_MASK
    return lowest_rank(non_hearts or legal)


def _follow(state: HandState, follow: int, led: int) -> int:
    best = state.best_card
    below = follow & ((1 << best) - 1)
    if led == SPADES_MASK:
        if follow & QS_BIT and best > QUEEN_OF_SPADES:
            return QUEEN_OF_SPADES  # the ace or king is already winning: give them the queen
        if below:
            return below.bit_length() - 1
        no_queen = follow & ~QS_BIT
        if state.trick_count == 3 and not state.trick_mask & QS_BIT and no_queen:
            return no_queen.bit_length() - 1
        if no_queen:
            # Must go over: the lowest winner keeps the high spades for later.
            return (no_queen & -no_queen).bit_length() - 1
        return QUEEN_OF_SPADES
    if below:
        return below.bit_length() - 1
    if state.trick_count == 3 or led != SUIT_MASK[3]:
        # Winning anyway: win with the highest and keep the low cards to duck later.
        return follow.bit_length() - 1
    return (follow & -follow).bit_length() - 1


def _discard(state: HandState, legal: int) -> int:
    if legal & QS_BIT:
        return QUEEN_OF_SPADES
    if not state.played_mask & QS_BIT and legal & HIGH_SPADES:
        return (legal & HIGH_SPADES).bit_length() - 1
    hearts = legal & HEARTS_MASK
    if hearts:
        return hearts.bit_length() - 1
    return highest_rank(legal)


def _shoot(state: HandState, legal: int) -> int:
    led = state.led_mask
    if not led:
        # Lead the strongest card; hearts last, once the rest are won.
        non_hearts = legal & ~HEARTS_MASK
        return highest_rank(non_hearts or legal)
    follow = legal & led
    if follow:
        return follow.bit_length() - 1
    # Keep every point card and every winner: throw the lowest non-heart.
    non_points = legal & ~HEARTS_MASK & ~QS_BIT
    return lowest_rank(non_points or legal)


def playout(state: HandState, modes: tuple[int, int, int, int]) -> None:
    """Finish the hand with the policy, each seat in its own mode."""
    threat = moon_threat(state)
    while state.tricks_played < 13:
        if state.play(choose(state, state.legal_mask(), modes[state.turn], threat)) >= 0:
            threat = moon_threat(state)


def pass_dangers(hand: int) -> list[tuple[int, int]]:
    """(danger, card) for every card of ``hand``, most dangerous to keep first.

    The queen of spades unless well guarded by four other spades; the ace and
    king of spades without the queen and with few spades to protect them; high
    hearts; high cards of short side suits (passing them makes a void).
    """
    spades = hand & SPADES_MASK
    guards = (spades & ~QS_BIT & ~HIGH_SPADES).bit_count()
    dangers = []
    for suit, suit_mask in _SUITS:
        cards = hand & suit_mask
        length = cards.bit_count()
        while cards:
            low = cards & -cards
            cards ^= low
            card = low.bit_length() - 1
            rank = card % 13
            if card == QUEEN_OF_SPADES:
                danger = 20 if guards >= 4 else 100
            elif low & HIGH_SPADES:
                guarded = guards >= 4 or (hand & QS_BIT and guards >= 3)
                danger = 25 if guarded else 80 + rank
            elif suit == SPADES:
                danger = rank  # low spades guard the queen: keep them
            elif suit == 3:
                danger = 10 + 4 * rank if rank >= 8 else rank
            else:
                danger = 3 * rank + (12 * (4 - length) if length <= 3 else 0)
            dangers.append((danger, card))
    dangers.sort(reverse=True)
    return dangers


def heuristic_pass(hand: int) -> int:
    """The three most dangerous cards of ``hand``, as a mask."""
    mask = 0
    for _, card in pass_dangers(hand)[:3]:
        mask |= 1 << card
    return mask


# --- knowledge and sampling (hearts.bots.knowledge at 92e818d) ---------------


@dataclass
class Knowledge:
    """One seat's knowledge of the hidden cards at one moment."""

    seat: int
    unseen: int
    """Cards neither in our hand nor played: they are in the other three hands."""
    counts: list[int]
    """How many cards each seat holds now."""
    may_hold: list[int]
    """Per seat, the cards it may still hold (ours: exactly our hand)."""
    must_hold: list[int]
    """Per seat, cards it certainly holds (the unplayed cards we passed it)."""
    void_since: list[dict[int, int]]
    """Per seat, suit -> the trick number (from 1) on which it showed it had none."""

    @classmethod
    def from_view(cls, view: SeatView) -> Knowledge:
        seat = view.seat
        rules = view.rules
        played = view.played.mask
        hand = view.hand.mask
        unseen = ALL_CARDS_MASK & ~played & ~hand
        may_hold = [unseen, unseen, unseen, unseen]
        may_hold[seat] = hand
        must_hold = [0, 0, 0, 0]
        void_since: list[dict[int, int]] = [{}, {}, {}, {}]

        def void(who: int, suit: int, trick_number: int) -> None:
            may_hold[who] &= ~SUIT_MASK[suit]
            void_since[who].setdefault(suit, trick_number)

        broken = False
        for trick in view.tricks:
            if not trick.cards:
                continue
            leader, lead = trick.cards[0]
            led_suit = lead // 13
            if (1 << lead) & HEARTS_MASK and not broken:
                # Hearts were led before they broke: the leader held nothing else.
                for suit in range(3):
                    void(leader, suit, trick.number)
            for who, card in trick.cards[1:]:
                if card // 13 != led_suit:
                    void(who, led_suit, trick.number)
                    if trick.number == 1 and (1 << card) & rules.first_trick_forbidden():
                        # Points on the first trick: that seat held only point cards.
                        may_hold[who] &= rules.first_trick_forbidden()
            for _, card in trick.cards:
                if (1 << card) & rules.breaks_hearts():
                    broken = True

        if view.passed is not None and view.pass_to is not None:
            passed_unplayed = view.passed.mask & ~played
            receiver = view.pass_to
            must_hold[receiver] |= passed_unplayed
            for other in range(4):
                if other != receiver:
                    may_hold[other] &= ~passed_unplayed
        for other in range(4):
            if other != seat:
                may_hold[other] |= must_hold[other]
        return cls(
            seat=seat,
            unseen=unseen,
            counts=list(view.cards_left),
            may_hold=may_hold,
            must_hold=must_hold,
            void_since=void_since,
        )

    def is_void(self, seat: int, suit: int) -> bool:
        return not self.may_hold[seat] & SUIT_MASK[suit]


def sample_hidden(knowledge: Knowledge, rng: random.Random, tries: int = 40) -> list[int] | None:
    """Deal the unseen cards to the other seats at random, respecting every constraint.

    Cards are placed most-constrained first, each to one of the seats that may
    hold it with probability proportional to the room that seat has left.
    Returns the four holdings (ours included), or None if no consistent deal
    was found in ``tries`` attempts (the constraints may then be contradictory,
    which only a hand-edited view can cause).
    """
    seat = knowledge.seat
    others = [s for s in range(4) if s != seat]
    free = knowledge.unseen
    for s in others:
        free &= ~knowledge.must_hold[s]
    cards = []
    mask = free
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    options = {card: [s for s in others if knowledge.may_hold[s] >> card & 1] for card in cards}
    base_room = [knowledge.counts[s] - knowledge.must_hold[s].bit_count() for s in range(4)]
    rand = rng.random
    for _ in range(tries):
        rng.shuffle(cards)
        cards.sort(key=lambda card: len(options[card]))
        room = base_room[:]
        hands = knowledge.must_hold[:]
        hands[seat] = knowledge.may_hold[seat]
        for card in cards:
            seats = [s for s in options[card] if room[s] > 0]
            if not seats:
                break
            total = sum(room[s] for s in seats)
            pick = rand() * total
            chosen = seats[-1]
            for s in seats:
                pick -= room[s]
                if pick < 0:
                    chosen = s
                    break
            hands[chosen] |= 1 << card
            room[chosen] -= 1
        else:
            return hands
    return None


def state_template(view: SeatView, hidden: list[int]) -> HandState:
    """The trick-play state of the view's hand, with ``hidden`` as the holdings now.

    The holdings at the start of play are the holdings now plus what each
    seat has played; replaying the plays from there reproduces the trick on
    the table, the won cards, the turn and whether hearts are broken.
    """
    start = hidden[:]
    for trick in view.tricks:
        for who, card in trick.cards:
            start[who] |= 1 << card
    return HandState.replayed(view.rules, start, [card for _, card in view.plays])


# --- the search (hearts.bots.expert at 92e818d) ----------------------------------


WIN_COST = -60.0
LOSS_COST = 60.0
"""A finish that ends the match counts far beyond any hand's points."""
TIE_MARGIN = 0.05
"""A card must beat the policy's choice by this much (in points) to replace it."""


@dataclass(frozen=True)
class Expert202611Bot(Bot):
    """The Expert of November 2026 (frozen); its budget is a number of sampled deals."""

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
        return "expert-2026-11"

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
            return choose(_fallback_state(view), view.legal.mask, AVOID)

        template = state_template(view, worlds[0])
        scorer = MatchScorer.for_view(view)
        shooter_suspect = _suspected_shooter(view)
        modes_by_world = []
        for index in range(len(worlds)):
            modes = [AVOID] * 4
            if shooter_suspect is not None and (index + 0.5) / len(worlds) < self.moon_suspicion:
                modes[shooter_suspect] = SHOOT
            modes_by_world.append(modes)

        my_modes = [AVOID]
        if _may_shoot(view):
            my_modes.append(SHOOT)
        # The policy's own card goes first and keeps its place unless another
        # card is clearly better: many cards tie in the playouts (the policy
        # would shed the queen later anyway), and the rule of thumb is the
        # safer of equals.
        preferred = choose(template, view.legal.mask, AVOID, moon_threat(template))
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
                    playout(state, (modes[0], modes[1], modes[2], modes[3]))
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
                expected = choose(state, legal, AVOID, threat)
                chance = noise / legal.bit_count() + (1 - noise if expected == card else 0.0)
                likelihood *= chance
            if state.play(card) >= 0:
                threat = moon_threat(state)
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
            for my_mode in (AVOID, SHOOT):
                total = 0.0
                for world in worlds:
                    holdings = _after_passes(world, seat, passed, direction)
                    state = HandState(view.rules, holdings)
                    modes = [AVOID] * 4
                    modes[seat] = my_mode
                    playout(state, (modes[0], modes[1], modes[2], modes[3]))
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
    ranked = [card for _, card in pass_dangers(hand)]
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
    passes = [passed if s == seat else heuristic_pass(world[s]) for s in range(4)]
    holdings = [world[s] & ~passes[s] for s in range(4)]
    for s in range(4):
        holdings[direction.receiver(s)] |= passes[s]
    return holdings[0], holdings[1], holdings[2], holdings[3]
