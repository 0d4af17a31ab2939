"""Which legal cards the Expert need score apart: touching cards of a suit play the same.

Two cards of a suit worth the same points are equivalent when no card that
could fall between them is still out: whichever is played, the tricks go
the same way, so the search scores one card of each group.
"""

from __future__ import annotations

from hearts.cards import Card
from hearts.hand import HandState
from hearts.view import SeatView


def distinct_cards(view: SeatView, preferred: Card) -> list[Card]:
    """The legal cards with one of each group of equivalent cards, ``preferred`` first.

    Two cards of a suit are equivalent when they are worth the same points
    and every card ranked between them is in our hand or already played: no
    other card can fall between them, so whichever is played, the tricks go
    the same way.  A group is represented by ``preferred`` if it holds it,
    else by its lowest card.
    """
    points = view.rules.card_points
    out = view.hand.mask | view.played.mask
    legal = sorted(view.legal)
    groups: list[list[Card]] = []
    for card in legal:
        last = groups[-1][-1] if groups else -1
        if (
            groups
            and last // 13 == card // 13
            and points[last] == points[card]
            and all(out >> between & 1 for between in range(last + 1, card))
        ):
            groups[-1].append(card)
        else:
            groups.append([card])
    chosen = [preferred if preferred in group else group[0] for group in groups]
    chosen.sort(key=lambda card: card != preferred)
    return chosen


def distinct_in_deal(state: HandState, legal: int, preferred: int) -> list[int]:
    """The cards of ``legal`` (the seat to play's) with one of each group of equivalent cards in
    the deal ``state`` holds, ``preferred`` first: as :func:`distinct_cards`, except that every
    holding is known, so two cards are equivalent when no card between them is in another
    seat's hand or on the table."""
    points = state.rules.card_points
    turn = state.turn
    elsewhere = state.trick_mask
    for other in range(4):
        if other != turn:
            elsewhere |= state.hands[other]
    chosen: list[int] = []
    last = -1
    for card in range(52):
        if not legal >> card & 1:
            continue
        if (
            last >= 0
            and last // 13 == card // 13
            and points[last] == points[card]
            and not elsewhere & ((1 << card) - (1 << (last + 1)))
        ):
            if card == preferred:
                chosen[-1] = card
        else:
            chosen.append(card)
        last = card
    chosen.sort(key=lambda card: card != preferred)
    return chosen
