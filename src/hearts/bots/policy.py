"""A fast rule-based policy on bitmasks: the playout policy of the Expert's search.

The Expert evaluates each candidate card by finishing sampled deals with
this policy for all four seats, so it must be cheap (a few microseconds a
card) and reasonable: duck under the winning card, take a clean trick last,
never keep the queen of spades when it can be dropped, lead low, keep out of
spades while holding the queen.  A seat may also play in *shoot* mode
(taking every trick it can), which is how the search finds a moon; the
Expert's playouts give a moon up once another seat has won a penalty card.
"""

from __future__ import annotations

import itertools
import random
from typing import Final

from hearts.cards import (
    ACE_OF_SPADES,
    CLUBS,
    DIAMONDS,
    HEARTS,
    HEARTS_MASK,
    KING_OF_SPADES,
    QUEEN_OF_SPADES,
    SPADES,
    SUIT_MASK,
    TWO_OF_CLUBS,
)
from hearts.hand import TWO_OF_CLUBS_BIT, HandState, random_card

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


def moon_threat(state: HandState, least: int = 10) -> int:
    """The seat that has won every penalty card so far, ``least`` points' worth or more
    (10 unless told); else -1."""
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
    return holder if _points(taken[holder] & penalty) >= least else -1


def _points(won: int) -> int:
    """The standard points of the penalty cards ``won``."""
    return (won & HEARTS_MASK).bit_count() + (13 if won & QS_BIT else 0)


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


def choose_sharp(state: HandState, legal: int, mode: int, threat: int = -1) -> int:
    """:func:`choose` with three rules more, each of which takes fewer points in play against
    :func:`choose` (``benchmarks/policy_duel.py --sharp``): lead the lowest heart when at most two
    unplayed hearts we do not hold are lower; last to a trick without points, take it with the
    highest card (dropping the queen of spades under the ace or king first); when we cannot
    follow and may throw no heart, make a void (throw a singleton) before the highest card.
    The Expert's playouts can play its own seat by it (``sharp``)."""
    if mode == AVOID and legal & (legal - 1):
        card = _sharp_rule(state, legal, threat)
        if card >= 0:
            return card
    return choose(state, legal, mode, threat)


def _sharp_rule(state: HandState, legal: int, threat: int) -> int:
    """The card one of :func:`choose_sharp`'s own rules plays (a seat avoiding points, with a
    choice), or -1 where :func:`choose` decides."""
    led = state.led_mask
    hand = state.hands[state.turn]
    if not led:
        hearts = legal & HEARTS_MASK
        if hearts and not legal & TWO_OF_CLUBS_BIT:
            low = hearts & -hearts
            lower = HEARTS_MASK & (low - 1) & ~hand & ~state.played_mask
            if lower.bit_count() <= 2:
                return low.bit_length() - 1
        return -1
    if threat >= 0 and threat != state.turn:
        return -1  # stopping a moon comes first
    follow = legal & led
    if follow:
        if state.trick_count == 3 and not state.trick_mask & (HEARTS_MASK | QS_BIT):
            if follow & QS_BIT and state.best_card > QUEEN_OF_SPADES:
                return QUEEN_OF_SPADES
            safe = follow & ~QS_BIT
            if safe:
                return safe.bit_length() - 1
        return -1
    if not legal & (QS_BIT | HEARTS_MASK) and (
        state.played_mask & QS_BIT or not legal & HIGH_SPADES
    ):
        # Nothing dangerous to throw: empty a suit, so that later we can throw when it is led.
        singles = 0
        for _, suit_mask in _SUITS:
            cards = hand & suit_mask
            if cards and not cards & (cards - 1):
                singles |= cards & legal
        if singles:
            return highest_rank(singles)
    return -1


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


def playout(
    state: HandState,
    modes: tuple[int, int, int, int],
    give_up: bool = False,
    seize: int = 0,
    noise: float = 0.0,
    rng: random.Random | None = None,
    steady: int = -1,
    pause: int = 0,
    first: int = -1,
    alert: int = 0,
    sharp: int = -1,
) -> tuple[int, int, int, int] | None:
    """Finish the hand with the policy, each seat in its own mode.

    With ``give_up``, a seat shooting the moon goes back to avoiding points
    once another seat has won a penalty card, as a player would: the moon
    is gone, so the rest of the hand is about taking as few points as it can.
    With ``seize`` (points), a seat avoiding points that has won every
    penalty card so far, at least that many points' worth, starts shooting.
    With ``noise`` (and ``rng``), every seat but ``steady`` plays a legal card
    at random instead of the policy's, with that chance, whenever it has a choice.
    The seats of the mask ``alert`` try to stop a moon from the shooter's first point,
    where the others wait for 10 (:func:`moon_threat`).  The seat ``sharp`` (if any) plays
    by :func:`choose_sharp`.

    With ``pause`` (a mask of seats), the playout stops short when one of those
    seats is to play and has a choice of cards, and returns every seat's mode
    as it stands then; otherwise it finishes the hand and returns None.  Calling
    ``playout`` again with those modes, the same other arguments and a
    ``first`` card (a legal card of the seat to play, played before the
    policy takes over) goes on exactly as if the policy had chosen that card.
    """
    threat = moon_threat(state)
    early = moon_threat(state, 1) if alert else -1
    shooting = give_up and SHOOT in modes
    current = list(modes)
    chaos = rng if noise > 0 else None
    # One test in the loop for both: the seat to play now (to play ``first``), then ``pause``.
    hold = 1 << state.turn if first >= 0 else pause
    while state.tricks_played < 13:
        legal = state.legal_mask()
        if hold >> state.turn & 1:
            if first >= 0:
                card, first, hold = first, -1, pause
            elif legal & (legal - 1):
                return (current[0], current[1], current[2], current[3])
            else:
                card = legal.bit_length() - 1
        elif (
            chaos is not None
            and state.turn != steady
            and legal & (legal - 1)
            and chaos.random() < noise
        ):
            card = random_card(legal, chaos)
        else:
            turn = state.turn
            chooser = choose_sharp if turn == sharp else choose
            card = chooser(state, legal, current[turn], early if alert >> turn & 1 else threat)
        if state.play(card) >= 0:
            threat = moon_threat(state)
            if alert:
                early = moon_threat(state, 1)
            if (
                seize
                and threat >= 0
                and current[threat] == AVOID
                and _points(state.taken[threat] & state.forbidden_first) >= seize
            ):
                current[threat] = SHOOT
                shooting = give_up
            if shooting:
                shooting = give_up_moons(state, current)
    return None


def give_up_moons(state: HandState, modes: list[int]) -> bool:
    """Put each shooter back to avoiding points once another seat has won a penalty card;
    True while some seat is still shooting."""
    penalty = state.forbidden_first
    taken = state.taken
    holders = [seat for seat in (0, 1, 2, 3) if taken[seat] & penalty]
    still = False
    for seat in (0, 1, 2, 3):
        if modes[seat] == SHOOT:
            if holders and holders != [seat]:
                modes[seat] = AVOID
            else:
                still = True
    return still


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


def pass_candidates(hand: int) -> list[int]:
    """The Expert's pass candidates: the three most dangerous cards, sets that swap one of them
    for a runner-up, and the three lowest (a hand going for the moon)."""
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


PASS_SHARES: Final = (0.142, 0.124, 0.085, 0.053, 0.134, 0.091, 0.049, 0.110, 0.074, 0.051, 0.087)
"""How often ``expert-2026-11`` passed each of :func:`pass_candidates`' sets, by index, over
1,440 passes (``benchmarks/frozen_passes.py --matches 120``): the rule of thumb's three cards
(the first set) only one time in seven; holding the queen of spades, it passed her half the
time, where the rule of thumb passes her five times in six."""


def drawn_pass(hand: int, rng: random.Random) -> int:
    """One of :func:`pass_candidates`' sets for ``hand``, drawn with :data:`PASS_SHARES`: how
    ``expert-2026-11`` passes, as a spread rather than one set."""
    candidates = pass_candidates(hand)
    shares = PASS_SHARES[: len(candidates)]
    point = rng.random() * sum(shares)
    for candidate, share in zip(candidates, shares, strict=True):
        point -= share
        if point < 0:
            return candidate
    return candidates[-1]


def _made_up_to_three(cards: int, ranked: list[int]) -> int:
    """The set ``cards`` (three cards or fewer) made up to three with the first of ``ranked``."""
    for card in ranked:
        if cards.bit_count() == 3:
            break
        cards |= 1 << card
    return cards


def wide_pass_candidates(hand: int) -> list[int]:
    """:func:`pass_candidates` first, then every other set of three of the six most dangerous
    cards, then each set that empties a short club, diamond or heart suit (three cards or
    fewer), the most dangerous other cards making up the three."""
    ranked = [card for _, card in pass_dangers(hand)]
    candidates = pass_candidates(hand)
    for trio in itertools.combinations(ranked[:6], 3):
        candidates.append(sum(1 << card for card in trio))
    for suit in (CLUBS, DIAMONDS, HEARTS):
        cards = hand & SUIT_MASK[suit]
        if not 0 < cards.bit_count() <= 3:
            continue
        candidates.append(_made_up_to_three(cards, ranked))
    return list(dict.fromkeys(candidates))


MOON_VOID_BELOW: Final = 10
"""A short suit is emptied for a moon only if every card of it ranks below this (the queen)."""


def moon_pass_candidates(hand: int) -> list[int]:
    """Sets for a hand going for the moon, which keeps its high cards and passes low ones:
    the three lowest cards (low hearts first among equals), the three lowest hearts, and
    each set that empties a short suit of low cards (three cards or fewer, all below the
    queen), the lowest other cards making up the three."""

    def low_first(card: int) -> tuple[int, bool, int]:
        suit = card // 13
        return card % 13, suit != HEARTS, (hand & SUIT_MASK[suit]).bit_count()

    ranked = sorted((card for card in range(52) if hand >> card & 1), key=low_first)
    candidates = [sum(1 << card for card in ranked[:3])]
    hearts = [card for card in ranked if card // 13 == HEARTS]
    if len(hearts) >= 3:
        candidates.append(sum(1 << card for card in hearts[:3]))
    for suit_mask in SUIT_MASK:
        cards = hand & suit_mask
        if not 0 < cards.bit_count() <= 3 or (cards.bit_length() - 1) % 13 >= MOON_VOID_BELOW:
            continue
        candidates.append(_made_up_to_three(cards, ranked))
    return list(dict.fromkeys(candidates))
