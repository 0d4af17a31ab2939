"""The last tricks of a hand played exactly, when every holding is known (max^n).

In each deal it samples, the Expert knows where every card is, so near the
end of the hand the rest can be searched to the last card instead of
played out by the rule of thumb: each seat, in turn, picks the card that
leaves it the lowest cost at the end of the hand, assuming every later
seat does the same.  A seat's cost is its points minus the average of the
other three seats' (so a moon it shoots is worth -26 to it and one it
lets another seat shoot +8.67); the searching seat's own cost is the one
it was given (the Expert's match-aware scorer).  When a seat's cards tie
for it, it picks the one worst for the searching seat (paranoid ties): a
careful player does not count on gifts.

Cards that are equivalent for the rest of the hand (same suit, same
points, and every card between them in the same hand or played in an
earlier trick) are searched once.  With four tricks left, a deal is a few
hundred positions at most; the Expert uses it for the last ``solve``
tricks only (``docs/strength.md``).
"""

from __future__ import annotations

from collections.abc import Callable

from hearts.hand import HandState

Costs = tuple[float, float, float, float]
CostOf = Callable[[list[int]], float]
"""A seat's cost of a finished hand, from each seat's won cards (masks)."""

TIE = 1e-9


def solve(state: HandState, root: int, cost: CostOf) -> float:
    """``root``'s cost at the end of the hand when every seat plays the rest of it
    perfectly for itself, every holding known; ``cost(taken)`` is ``root``'s cost of a
    finished hand (``taken``: each seat's won cards as masks)."""
    return _best(state, root, cost, state.rules.card_points)[root]


def _best(state: HandState, root: int, cost: CostOf, points: tuple[int, ...]) -> Costs:
    if state.tricks_played == 13:
        return _leaf(state, root, cost)
    seat = state.turn
    legal = state.legal_mask()
    if not legal & (legal - 1):
        child = state.copy()
        child.play(legal.bit_length() - 1)
        return _best(child, root, cost, points)
    # A card between two of ours that is already out (in an earlier trick, or in our
    # hand) cannot split them; one on the table now can.
    out = (state.played_mask & ~state.trick_mask) | state.hands[seat]
    best: Costs | None = None
    last = -1
    mask = legal
    while mask:
        low = mask & -mask
        mask ^= low
        card = low.bit_length() - 1
        between = (low - 1) & ~((2 << last) - 1) if last >= 0 else 0
        if (
            last >= 0
            and last // 13 == card // 13
            and points[last] == points[card]
            and out & between == between
        ):
            last = card
            continue
        last = card
        child = state.copy()
        child.play(card)
        result = _best(child, root, cost, points)
        if (
            best is None
            or result[seat] < best[seat] - TIE
            or (result[seat] <= best[seat] + TIE and seat != root and result[root] > best[root])
        ):
            best = result
    assert best is not None
    return best


def _leaf(state: HandState, root: int, cost: CostOf) -> Costs:
    scored, _ = state.rules.score_hand(state.taken, "add")
    total = scored[0] + scored[1] + scored[2] + scored[3]
    each = [p - (total - p) / 3 for p in scored]
    each[root] = cost(state.taken)
    return (each[0], each[1], each[2], each[3])
