"""What a seat can infer about the hidden cards, and deals sampled from it.

Everything here is computed from a :class:`~hearts.view.SeatView`: the cards
not yet seen, how many each other seat still holds, the suits a seat has
shown it lacks (and since which trick), the cards we passed (their receiver
holds them until they are played), a lead of hearts before they were broken
(that seat held nothing else), and a point card dropped on the first trick
(that seat held nothing but point cards).  :func:`sample_hidden` deals the
unseen cards at random among the other seats, consistent with all of it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property

from hearts.cards import ALL_CARDS_MASK, HEARTS_MASK, SUIT_MASK
from hearts.hand import HandState
from hearts.view import SeatView


@dataclass
class Knowledge:
    """One seat's knowledge of the hidden cards at one moment (read-only once built: the
    deal plan that :func:`sample_hidden` uses is worked out from it once)."""

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

    @cached_property
    def deal_plan(
        self,
    ) -> tuple[list[int], dict[int, tuple[int, ...]], dict[int, int], list[int]]:
        """What :func:`sample_hidden` deals each time: the cards to place (low to high), the
        seats each may go to, how many seats that is, and each seat's room for them."""
        others = [s for s in range(4) if s != self.seat]
        free = self.unseen
        for s in others:
            free &= ~self.must_hold[s]
        cards = []
        mask = free
        while mask:
            low = mask & -mask
            cards.append(low.bit_length() - 1)
            mask ^= low
        may_hold = self.may_hold
        options = {card: tuple(s for s in others if may_hold[s] >> card & 1) for card in cards}
        constraint = {card: len(seats) for card, seats in options.items()}
        base_room = [self.counts[s] - self.must_hold[s].bit_count() for s in range(4)]
        return cards, options, constraint, base_room

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
    cards, options, constraint, base_room = knowledge.deal_plan
    cards = cards[:]
    rand = rng.random
    for _ in range(tries):
        rng.shuffle(cards)
        cards.sort(key=constraint.__getitem__)
        room = base_room[:]
        hands = knowledge.must_hold[:]
        hands[seat] = knowledge.may_hold[seat]
        for card in cards:
            seats = options[card]
            total = 0
            for s in seats:
                total += room[s]
            if not total:
                break
            # A seat with room is picked with probability proportional to its room
            # (the last seat with room if rounding leaves the pick unspent).
            pick = rand() * total
            chosen = -1
            for s in seats:
                if room[s]:
                    chosen = s
                    pick -= room[s]
                    if pick < 0:
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
