"""A seat's view: exactly what one seat may know, and nothing more.

Bots and clients receive a :class:`SeatView`, never a match.  It is built
only from what the seat saw: its own cards, its own pass and what it
received, every played card and who won it, which seats have confirmed a
pass, and the scores.  Two matches that differ only in cards hidden from a
seat give that seat equal views (a test proves it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from hearts.cards import SUIT_MASK, Card, CardSet
from hearts.rules import SEATS, PassDirection, Rules

if TYPE_CHECKING:
    from hearts.match import HandResult, Match, Phase


@dataclass(frozen=True)
class Trick:
    """A trick: who led, the cards as (seat, card) in play order, and (once complete) the winner."""

    number: int
    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int | None
    points: int

    @property
    def complete(self) -> bool:
        return len(self.cards) == 4


def split_tricks(
    plays: list[Card] | tuple[Card, ...], first_leader: int, rules: Rules
) -> list[Trick]:
    """Group a hand's plays into tricks, the last one possibly unfinished."""
    tricks = []
    leader = first_leader
    for start in range(0, len(plays), 4):
        chunk = plays[start : start + 4]
        cards = tuple(((leader + i) & 3, card) for i, card in enumerate(chunk))
        winner = None
        if len(chunk) == 4:
            led = SUIT_MASK[chunk[0] // 13]
            best = max(card for card in chunk if led >> card & 1)
            winner = cards[chunk.index(best)][0]
        points = rules.hand_points_of_cards(sum(1 << card for card in chunk))
        tricks.append(Trick(start // 4 + 1, leader, cards, winner, points))
        if winner is not None:
            leader = winner
    return tricks


@dataclass(frozen=True)
class SeatView:
    """What ``seat`` knows of the match at one moment."""

    seat: int
    players: tuple[str, str, str, str]
    rules: Rules
    phase: Phase
    hand_number: int
    pass_direction: PassDirection
    pass_to: int | None
    """The seat this seat passes to this hand (None on a hold hand)."""
    hand: CardSet
    """The cards this seat holds now."""
    dealt: CardSet
    pass_selection: CardSet
    """This seat's unconfirmed pass choice."""
    passed: CardSet | None
    """The three cards this seat confirmed to pass."""
    received: CardSet | None
    """The three cards this seat received, once the passes are exchanged."""
    pass_confirmed: tuple[bool, bool, bool, bool]
    tricks: tuple[Trick, ...]
    """This hand's tricks, the last one possibly in progress."""
    turn: int | None
    legal: CardSet
    """The cards this seat may play now (empty when it is not its turn)."""
    hearts_broken: bool
    points_taken: tuple[int, int, int, int]
    """Points each seat has taken in this hand so far, before any moon."""
    cards_left: tuple[int, int, int, int]
    totals: tuple[int, int, int, int]
    results: tuple[HandResult, ...]
    winner: int | None

    @property
    def plays(self) -> tuple[tuple[int, Card], ...]:
        """Every card played this hand as (seat, card), in order."""
        return tuple(pair for trick in self.tricks for pair in trick.cards)

    @property
    def current_trick(self) -> Trick | None:
        if self.tricks and not self.tricks[-1].complete:
            return self.tricks[-1]
        return None

    @property
    def played(self) -> CardSet:
        return CardSet(card for _, card in self.plays)


def build_view(match: Match, seat: int) -> SeatView:
    """Only reads the match's hidden parts that belong to ``seat``."""
    from hearts.match import Phase

    if seat not in SEATS:
        raise ValueError("there is no such seat")
    log = match.current
    direction = match.pass_direction
    exchanged = match.phase is not Phase.PASSING
    passed_mask = log.passes[seat]
    received = None
    if exchanged and direction is not PassDirection.HOLD:
        received_mask = log.passes[direction.giver(seat)]
        received = CardSet(received_mask or 0)

    state = match.play_state
    tricks: tuple[Trick, ...] = ()
    points_taken = (0, 0, 0, 0)
    cards_left = (13, 13, 13, 13)
    hearts_broken = False
    legal = CardSet()
    if state is not None:
        tricks = tuple(split_tricks(log.plays, log.first_leader(direction), match.rules))
        p = [match.rules.hand_points_of_cards(m) for m in state.taken]
        points_taken = (p[0], p[1], p[2], p[3])
        c = [h.bit_count() for h in state.hands]
        cards_left = (c[0], c[1], c[2], c[3])
        hearts_broken = state.hearts_broken
        if match.phase is Phase.PLAYING and state.turn == seat:
            legal = CardSet(state.legal_mask())

    return SeatView(
        seat=seat,
        players=match.players,
        rules=match.rules,
        phase=match.phase,
        hand_number=match.hand_number,
        pass_direction=direction,
        pass_to=None if direction is PassDirection.HOLD else direction.receiver(seat),
        hand=match.holding(seat),
        dealt=CardSet(log.deal[seat]),
        pass_selection=match.pass_selection(seat) if not exchanged else CardSet(),
        passed=None if passed_mask is None else CardSet(passed_mask),
        received=received,
        pass_confirmed=(
            log.passes[0] is not None,
            log.passes[1] is not None,
            log.passes[2] is not None,
            log.passes[3] is not None,
        ),
        tricks=tricks,
        turn=match.turn,
        legal=legal,
        hearts_broken=hearts_broken,
        points_taken=points_taken,
        cards_left=cards_left,
        totals=match.totals,
        results=match.results,
        winner=match.winner,
    )


@dataclass(frozen=True)
class PublicView:
    """What a spectator may know: played cards, who has passed, and the scores.

    No holding, no passed card, no pass selection: nothing that is hidden
    from any seat.
    """

    players: tuple[str, str, str, str]
    rules: Rules
    phase: Phase
    hand_number: int
    pass_direction: PassDirection
    pass_confirmed: tuple[bool, bool, bool, bool]
    tricks: tuple[Trick, ...]
    turn: int | None
    hearts_broken: bool
    points_taken: tuple[int, int, int, int]
    cards_left: tuple[int, int, int, int]
    totals: tuple[int, int, int, int]
    results: tuple[HandResult, ...]
    winner: int | None

    @property
    def current_trick(self) -> Trick | None:
        if self.tricks and not self.tricks[-1].complete:
            return self.tricks[-1]
        return None


def build_public_view(match: Match) -> PublicView:
    """The parts of a seat's view that every seat shares (seat 0's, minus its own cards)."""
    seat = build_view(match, 0)
    return PublicView(
        players=seat.players,
        rules=seat.rules,
        phase=seat.phase,
        hand_number=seat.hand_number,
        pass_direction=seat.pass_direction,
        pass_confirmed=seat.pass_confirmed,
        tricks=seat.tricks,
        turn=seat.turn,
        hearts_broken=seat.hearts_broken,
        points_taken=seat.points_taken,
        cards_left=seat.cards_left,
        totals=seat.totals,
        results=seat.results,
        winner=seat.winner,
    )
