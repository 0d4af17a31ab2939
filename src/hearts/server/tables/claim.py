"""Claim: finish the hand at once when the rest of it cannot change any score.

Two cases, both certain:

* no card that scores (a penalty card, or the jack of diamonds under that
  house rule) is left in any hand or in the unfinished trick: whoever wins
  the remaining tricks, nobody's points change;
* the claimer is on lead (after the first trick) and each card they hold is
  higher than every card of its suit still held by the others: every lead
  wins its trick, so the claimer takes every remaining trick, whatever is
  played.

The remaining tricks are then played out with the lowest legal card of each
seat in turn, which gives the same points as any other legal play.
"""

from __future__ import annotations

from hearts.cards import SUIT_MASK, SUITS
from hearts.match import Match, Phase


def can_claim(match: Match, seat: int) -> bool:
    state = match.play_state
    if match.phase is not Phase.PLAYING or state is None:
        return False
    scoring = sum(1 << card for card, points in enumerate(match.rules.card_points) if points)
    held = state.hands[0] | state.hands[1] | state.hands[2] | state.hands[3]
    if not (held | state.trick_mask) & scoring:
        return True
    if state.turn != seat or state.trick_count or state.tricks_played == 0:
        return False
    mine = state.hands[seat]
    others = held & ~mine
    for suit in SUITS:
        my_suit = mine & SUIT_MASK[suit]
        their_suit = others & SUIT_MASK[suit]
        if my_suit and their_suit:
            lowest_mine = (my_suit & -my_suit).bit_length() - 1
            highest_theirs = their_suit.bit_length() - 1
            if lowest_mine < highest_theirs:
                return False
    return True


def play_out(match: Match) -> None:
    """Play the rest of the hand, each seat its lowest legal card."""
    while match.phase is Phase.PLAYING:
        match.play(min(match.legal_moves()))
