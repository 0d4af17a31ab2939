"""The Normal computer player: the sensible rules of thumb of a club player.

It passes the dangerous spades when it cannot guard the queen, high hearts,
and high cards of short suits; ducks under the trick's winner; dumps the
queen, then the high spades while the queen is out, then high hearts; leads
low from safe suits and flushes the queen with low spades; and stops an
obvious moon.  It counts only the cards played and the suits seats have
shown they lack, and it looks no further ahead than the trick on the table.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from hearts.bots.base import Bot
from hearts.cards import (
    ACE_OF_SPADES,
    ALL_CARDS_MASK,
    CLUBS,
    HEARTS,
    HEARTS_MASK,
    KING_OF_SPADES,
    QUEEN_OF_SPADES,
    SPADES,
    SUIT_MASK,
    SUITS,
    Card,
    cards_in,
)
from hearts.view import SeatView

QUEEN_BIT: Final = 1 << QUEEN_OF_SPADES
SPADE_HONOURS: Final = (1 << KING_OF_SPADES) | (1 << ACE_OF_SPADES)
"""The spades that win a trick the queen falls on."""
SPADES_BELOW_QUEEN: Final = SUIT_MASK[SPADES] & (QUEEN_BIT - 1)


def highest(mask: int) -> Card:
    """The highest card of a non-empty mask (within one suit: the highest rank)."""
    return mask.bit_length() - 1


def lowest(mask: int) -> Card:
    return (mask & -mask).bit_length() - 1


def above(card: Card) -> int:
    """The cards of ``card``'s suit that beat it, as a mask."""
    return SUIT_MASK[card // 13] & ~((2 << card) - 1)


@dataclass(frozen=True, slots=True)
class Situation:
    """What one decision needs from a view, worked out once."""

    seat: int
    hand: int
    legal: int
    unseen: int
    """Cards neither played nor ours: somewhere in the other three hands."""
    trick: int
    """The cards on the table, as a mask."""
    led: int | None
    best_card: Card
    best_seat: int
    later: tuple[int, ...]
    """The seats still to play to this trick after us."""
    trick_number: int
    voids: tuple[int, int, int, int]
    """Per seat, a bit per suit it has shown it lacks."""
    queen_out: bool
    """The queen is still to be played and is not ours: someone can drop it on us."""
    penalty: int
    threat: int | None
    """An opponent who has taken every point so far, and enough of them to be shooting."""

    @classmethod
    def of(cls, view: SeatView, moon_alarm: int) -> Situation:
        seat = view.seat
        hand = view.hand.mask
        played = 0
        voids = [0, 0, 0, 0]
        for done in view.tricks:
            if not done.cards:
                continue
            led_suit = done.cards[0][1] // 13
            for who, card in done.cards:
                played |= 1 << card
                if card // 13 != led_suit:
                    voids[who] |= 1 << led_suit
        current = view.current_trick
        trick = 0
        led = None
        best_card, best_seat = -1, -1
        later: tuple[int, ...] = ()
        if current is not None and current.cards:
            led = current.cards[0][1] // 13
            for who, card in current.cards:
                trick |= 1 << card
                if card // 13 == led and card > best_card:
                    best_card, best_seat = card, who
            later = tuple((seat + i) & 3 for i in range(1, 4 - len(current.cards)))
        rules = view.rules
        taken = view.points_taken
        scorers = [s for s in range(4) if taken[s] > 0]
        threat = None
        if (
            len(scorers) == 1
            and scorers[0] != seat
            and taken[scorers[0]] >= moon_alarm
            and rules.penalty_mask & ~played
        ):
            threat = scorers[0]
        return cls(
            seat=seat,
            hand=hand,
            legal=view.legal.mask,
            unseen=ALL_CARDS_MASK & ~played & ~hand,
            trick=trick,
            led=led,
            best_card=best_card,
            best_seat=best_seat,
            later=later,
            trick_number=len(view.tricks) if current is not None else len(view.tricks) + 1,
            voids=(voids[0], voids[1], voids[2], voids[3]),
            queen_out=not (played | hand) & QUEEN_BIT,
            penalty=rules.penalty_mask,
            threat=threat,
        )

    def void_later(self, suit: int) -> bool:
        """Whether a seat still to play has shown it lacks ``suit`` (and may throw points)."""
        return any(self.voids[s] >> suit & 1 for s in self.later)


@dataclass(frozen=True)
class NormalBot(Bot):
    """Plays by the rules of thumb above; deterministic, so the generator is unused."""

    moon_alarm: int = 15
    """Points one opponent must have taken alone before we spend a trick to stop a moon."""
    queen_guards: int = 3
    """Spades below the queen needed to keep the queen (or the ace and king) safely."""

    @property
    def level(self) -> str:
        return "normal"

    # --- the pass -------------------------------------------------------------

    def choose_pass(self, view: SeatView, rng: random.Random) -> list[Card]:
        remaining = view.hand.mask
        chosen: list[Card] = []
        for _ in range(3):
            # Scored against what stays: once the queen goes, the ace and king lose their guard.
            card = max(cards_in(remaining), key=lambda c: (self._pass_danger(c, remaining), c))
            chosen.append(card)
            remaining &= ~(1 << card)
        return chosen

    def _pass_danger(self, card: Card, holding: int) -> int:
        suit, rank = card // 13, card % 13
        guards = (holding & SPADES_BELOW_QUEEN).bit_count()
        if card == QUEEN_OF_SPADES:
            return 100 if guards < self.queen_guards else -10
        if suit == SPADES:
            if rank > QUEEN_OF_SPADES % 13:
                if holding & QUEEN_BIT:
                    # Kept beside a guarded queen they do no harm: they win spades the queen
                    # is not on and never catch it.
                    return 5
                return 80 + rank if guards < self.queen_guards else 10 + rank
            # Low spades guard the queen, ours or another's: keep them.
            return rank - 20
        if suit == HEARTS:
            if rank >= 9:
                return 40 + 2 * rank
            return rank if rank >= 6 else rank - 10
        length = (holding & SUIT_MASK[suit]).bit_count()
        void_bonus = (0, 20, 12, 5)[length] if length < 4 else 0
        if suit == CLUBS and rank == 0:
            void_bonus = 0  # the two of clubs leads the hand; passing it voids nothing
        return 3 * rank + void_bonus

    # --- the play -------------------------------------------------------------

    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        situation = Situation.of(view, self.moon_alarm)
        if situation.led is None:
            return self._lead(situation)
        if situation.legal & SUIT_MASK[situation.led]:
            return self._follow(situation)
        return self._discard(situation)

    def _lead(self, t: Situation) -> Card:
        legal = t.legal
        if t.threat is not None and legal & HEARTS_MASK:
            top = highest(legal & HEARTS_MASK)
            if not t.unseen & above(top):
                # A heart nobody can beat: the shooter loses a heart to us.
                return top
        best: tuple[float, Card] | None = None
        for suit in SUITS:
            cards = legal & SUIT_MASK[suit]
            if not cards:
                continue
            low = lowest(cards)
            others = t.unseen & SUIT_MASK[suit]
            beaters = (others & above(low)).bit_count()
            card = low
            score: float
            if not others:
                # Everyone else discards: we win and eat whatever they throw.
                score = -20.0
                card = highest(cards)
            elif not beaters:
                score = -15.0 if suit == HEARTS else -8.0
                card = highest(cards)
            else:
                score = float(min(beaters, 5))
                score -= 1.5 * sum(1 for s in range(4) if s != t.seat and t.voids[s] >> suit & 1)
            if suit == SPADES and t.queen_out:
                # Low spades push the queen out; leading from the ace or king invites it.
                score += -6.0 if t.hand & SPADE_HONOURS else 3.0
            if suit == SPADES and t.hand & QUEEN_BIT:
                score -= 40.0
            if (t.hand & SUIT_MASK[suit]).bit_count() <= 2:
                score += 1.0
            if best is None or score > best[0]:
                best = (score, card)
        assert best is not None
        return best[1]

    def _follow(self, t: Situation) -> Card:
        cards = t.legal
        threat = t.threat
        if (
            threat is not None
            and (t.trick & t.penalty or t.led == HEARTS)
            and (t.best_seat == threat or threat in t.later)
        ):
            top = highest(cards)
            if top > t.best_card and top != QUEEN_OF_SPADES:
                return top
        if t.trick_number == 1:
            # No points can fall on the first trick: the safest moment to shed a high club.
            return highest(cards)
        under = cards & ((1 << t.best_card) - 1)
        if under:
            return highest(under)
        safe = cards & ~QUEEN_BIT or cards
        if not t.later:
            return highest(safe)
        if t.led == HEARTS or (t.led == SPADES and t.queen_out) or t.void_later(t.led or 0):
            # Someone after us may still beat a low card; a high one keeps the trick for sure.
            return lowest(safe)
        return highest(safe)

    def _discard(self, t: Situation) -> Card:
        legal = t.legal
        threat = t.threat
        give_points = threat is None or (t.best_seat != threat and threat not in t.later)
        if give_points:
            if legal & QUEEN_BIT:
                return QUEEN_OF_SPADES
            if threat is not None and legal & HEARTS_MASK:
                # Any heart on a trick the shooter cannot win ends the moon.
                return highest(legal & HEARTS_MASK)
            if t.queen_out and legal & SPADE_HONOURS:
                return highest(legal & SPADE_HONOURS)
            pool = legal
        else:
            # Points here would feed the moon; throw something else and keep the hearts.
            pool = legal & ~t.penalty or legal
        hand = t.hand
        unseen = t.unseen

        def danger(card: Card) -> int:
            suit = card // 13
            value = card % 13
            if suit == HEARTS:
                value += 5
            if not unseen & above(card):
                value += 4  # a sure winner later: it would collect a trick of points
            if suit != HEARTS and (hand & SUIT_MASK[suit]).bit_count() == 1:
                value += 3  # the last of its suit: one more void to discard into
            return value

        return max(cards_in(pool), key=lambda c: (danger(c), c))
