"""The play of one hand as plain ints: the fast path for search and playouts.

:class:`HandState` holds the four holdings, the trick on the table and the
cards each seat has won, all as bitmasks.  :meth:`HandState.legal_mask` and
:meth:`HandState.play` are a handful of integer operations and allocate
nothing, so a bot can play thousands of hands per second from a sampled deal.
``play`` trusts its caller; :meth:`HandState.check_play` says why a card is not
allowed, and :class:`hearts.match.Match` always calls it first.
"""

from __future__ import annotations

import random
from typing import Final

from hearts import errors
from hearts.cards import (
    ALL_CARDS_MASK,
    HEARTS_MASK,
    SUIT_MASK,
    SUIT_NAMES,
    TWO_OF_CLUBS,
    Card,
    card_text,
)
from hearts.rules import Rules

TWO_OF_CLUBS_BIT: Final = 1 << TWO_OF_CLUBS
_SUIT_OF_BIT: Final = {1 << c: c // 13 for c in range(52)}


class HandState:
    """Trick play from the first lead to the last trick (passes already made)."""

    __slots__ = (
        "best_card",
        "best_seat",
        "breaks_mask",
        "forbidden_first",
        "hands",
        "hearts_broken",
        "leader",
        "led_mask",
        "played_mask",
        "rules",
        "taken",
        "trick",
        "trick_count",
        "trick_mask",
        "tricks_played",
        "turn",
    )

    rules: Rules
    hands: list[int]
    taken: list[int]
    trick: list[int]
    turn: int
    leader: int
    led_mask: int
    best_card: int
    best_seat: int
    trick_mask: int
    trick_count: int
    tricks_played: int
    hearts_broken: bool
    played_mask: int
    forbidden_first: int
    breaks_mask: int

    def __init__(self, rules: Rules, hands: list[int] | tuple[int, ...]) -> None:
        """Start play with ``hands`` (four masks of 13 cards, after the pass)."""
        if len(hands) != 4:
            raise ValueError("a hand needs four holdings")
        union = 0
        for holding in hands:
            if holding & union or holding.bit_count() != 13:
                raise ValueError("the four holdings must be 13 distinct cards each")
            union |= holding
        self.rules = rules
        self.hands = list(hands)
        self.taken = [0, 0, 0, 0]
        self.trick = [-1, -1, -1, -1]
        self.turn = next(s for s in range(4) if hands[s] & TWO_OF_CLUBS_BIT)
        self.leader = self.turn
        self.led_mask = 0
        self.best_card = -1
        self.best_seat = -1
        self.trick_mask = 0
        self.trick_count = 0
        self.tricks_played = 0
        self.hearts_broken = False
        self.played_mask = 0
        self.forbidden_first = rules.first_trick_forbidden()
        self.breaks_mask = rules.breaks_hearts()

    @classmethod
    def replayed(
        cls, rules: Rules, hands: list[int] | tuple[int, ...], plays: list[Card] | tuple[Card, ...]
    ) -> HandState:
        """The state after ``plays`` from the holdings ``hands`` (unchecked, like :meth:`play`)."""
        state = cls(rules, hands)
        for card in plays:
            state.play(card)
        return state

    def copy(self) -> HandState:
        other = HandState.__new__(HandState)
        other.rules = self.rules
        other.hands = self.hands[:]
        other.taken = self.taken[:]
        other.trick = self.trick[:]
        other.turn = self.turn
        other.leader = self.leader
        other.led_mask = self.led_mask
        other.best_card = self.best_card
        other.best_seat = self.best_seat
        other.trick_mask = self.trick_mask
        other.trick_count = self.trick_count
        other.tricks_played = self.tricks_played
        other.hearts_broken = self.hearts_broken
        other.played_mask = self.played_mask
        other.forbidden_first = self.forbidden_first
        other.breaks_mask = self.breaks_mask
        return other

    @property
    def is_over(self) -> bool:
        return self.tricks_played == 13

    def legal_mask(self) -> int:
        """The cards the seat to play may play, as a mask (0 once the hand is over)."""
        hand = self.hands[self.turn]
        led = self.led_mask
        if led:
            follow = hand & led
            if follow:
                return follow
            if self.tricks_played == 0:
                safe = hand & ~self.forbidden_first
                if safe:
                    return safe
            return hand
        if self.tricks_played == 0:
            return hand & TWO_OF_CLUBS_BIT
        if not self.hearts_broken:
            safe = hand & ~HEARTS_MASK
            if safe:
                return safe
        return hand

    def check_play(self, card: Card) -> None:
        """Raise :class:`hearts.errors.IllegalPlay` with the reason ``card`` is not allowed."""
        if self.tricks_played == 13:
            raise errors.IllegalPlay("the hand is over")
        b = 1 << card
        hand = self.hands[self.turn]
        if not hand & b:
            raise errors.not_held(card_text(card))
        if self.legal_mask() & b:
            return
        if self.led_mask:
            if hand & self.led_mask:
                raise errors.must_follow(SUIT_NAMES[_SUIT_OF_BIT[self.led_mask & -self.led_mask]])
            raise errors.no_points_first_trick()
        if self.tricks_played == 0:
            raise errors.first_lead_two_of_clubs()
        raise errors.hearts_not_broken()

    def play(self, card: Card) -> int:
        """Play ``card`` for the seat to play, unchecked; return the trick's winner or -1."""
        b = 1 << card
        seat = self.turn
        self.hands[seat] ^= b
        self.played_mask |= b
        self.trick[seat] = card
        if b & self.breaks_mask:
            self.hearts_broken = True
        if not self.led_mask:
            self.led_mask = SUIT_MASK[card // 13]
            self.leader = seat
            self.best_card = card
            self.best_seat = seat
        elif b & self.led_mask and card > self.best_card:
            self.best_card = card
            self.best_seat = seat
        self.trick_mask |= b
        self.trick_count += 1
        if self.trick_count < 4:
            self.turn = (seat + 1) & 3
            return -1
        winner = self.best_seat
        self.taken[winner] |= self.trick_mask
        self.trick_mask = 0
        self.trick_count = 0
        self.led_mask = 0
        self.tricks_played += 1
        self.turn = winner
        self.leader = winner
        return winner

    def play_random(self, rng: random.Random) -> None:
        """Finish the hand with uniformly random legal plays.

        This is :meth:`legal_mask` and :meth:`play` written out in one loop on
        local variables: playouts spend their time here, and the inlined loop
        is about a third faster than calling the two methods per card.
        """
        rand = rng.random
        suit_mask = SUIT_MASK
        hands, taken, trick = self.hands, self.taken, self.trick
        turn, leader, led = self.turn, self.leader, self.led_mask
        best_card, best_seat = self.best_card, self.best_seat
        trick_mask, trick_count = self.trick_mask, self.trick_count
        tricks_played, broken = self.tricks_played, self.hearts_broken
        played = self.played_mask
        forbidden, breaks = self.forbidden_first, self.breaks_mask
        while tricks_played < 13:
            hand = hands[turn]
            if led:
                legal = hand & led
                if not legal:
                    legal = hand
                    if tricks_played == 0:
                        legal = hand & ~forbidden or hand
            elif tricks_played == 0:
                legal = hand & TWO_OF_CLUBS_BIT
            elif broken:
                legal = hand
            else:
                legal = hand & ~HEARTS_MASK or hand
            for _ in range(int(rand() * legal.bit_count())):
                legal &= legal - 1
            b = legal & -legal
            card = b.bit_length() - 1
            hands[turn] = hand ^ b
            played |= b
            trick[turn] = card
            if b & breaks:
                broken = True
            if not led:
                led = suit_mask[card // 13]
                leader = best_seat = turn
                best_card = card
            elif b & led and card > best_card:
                best_card = card
                best_seat = turn
            trick_mask |= b
            trick_count += 1
            if trick_count < 4:
                turn = (turn + 1) & 3
            else:
                taken[best_seat] |= trick_mask
                trick_mask = trick_count = led = 0
                tricks_played += 1
                turn = leader = best_seat
        self.turn, self.leader, self.led_mask = turn, leader, led
        self.best_card, self.best_seat = best_card, best_seat
        self.trick_mask, self.trick_count = trick_mask, trick_count
        self.tricks_played, self.hearts_broken = tricks_played, broken
        self.played_mask = played

    def unseen_mask(self, seat: int) -> int:
        """Cards not yet played and not in ``seat``'s holding."""
        return ALL_CARDS_MASK & ~self.played_mask & ~self.hands[seat]


def random_card(mask: int, rng: random.Random) -> Card:
    """A uniformly random card of a non-empty mask."""
    for _ in range(int(rng.random() * mask.bit_count())):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1
