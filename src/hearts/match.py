"""The match as a state machine: deal, pass, play, score, next hand, match end.

A :class:`Match` is driven by decisions (confirm a pass, play a card, choose
how a moon scores) and by :meth:`Match.next_hand`.  Each decision is checked
against the rules and raises an :class:`~hearts.errors.IllegalMove` with a
human reason when it is not allowed, leaving the match unchanged.  Each
accepted decision returns the :data:`Event` values it caused, in order.

The match keeps, per hand, only what the game record keeps (the deal, the
confirmed passes, the plays, the moon choice); everything else is derived.
That is what makes undo, restart and the record round-trip exact.
"""

from __future__ import annotations

import enum
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from hearts import errors
from hearts.cards import Card, CardSet, card_text
from hearts.deal import Holdings, seeded_deal
from hearts.hand import HandState
from hearts.rules import SEATS, PassDirection, Rules

if TYPE_CHECKING:
    from hearts.view import PublicView, SeatView

DEFAULT_PLAYERS = ("You", "Robin", "Alex", "Sam")


class Phase(enum.Enum):
    PASSING = "passing"
    PLAYING = "playing"
    MOON_CHOICE = "moon_choice"
    HAND_OVER = "hand_over"
    MATCH_OVER = "match_over"


@dataclass(frozen=True)
class HandResult:
    """How one finished hand scored."""

    number: int
    points: tuple[int, int, int, int]
    """Points each seat scored, moon applied."""
    taken: tuple[int, int, int, int]
    """The cards each seat won, as masks."""
    shooter: int | None = None
    moon_choice: str | None = None


@dataclass(frozen=True)
class PassesExchanged:
    direction: PassDirection


@dataclass(frozen=True)
class CardPlayed:
    seat: int
    card: Card


@dataclass(frozen=True)
class TrickWon:
    seat: int
    number: int
    """1 for the first trick of the hand."""
    cards: tuple[tuple[int, Card], ...]
    """(seat, card) in the order played."""
    points: int


@dataclass(frozen=True)
class MoonShot:
    seat: int


@dataclass(frozen=True)
class HandScored:
    result: HandResult


@dataclass(frozen=True)
class MatchWon:
    seat: int
    totals: tuple[int, int, int, int]


Event = PassesExchanged | CardPlayed | TrickWon | MoonShot | HandScored | MatchWon
MoonStyle = Literal["add", "subtract"]


@dataclass
class HandLog:
    """What the record keeps of one hand."""

    number: int
    deal: Holdings
    passes: list[int | None] = field(default_factory=lambda: [None, None, None, None])
    plays: list[Card] = field(default_factory=list)
    moon_choice: MoonStyle | None = None

    def copy(self) -> HandLog:
        return HandLog(self.number, self.deal, self.passes[:], self.plays[:], self.moon_choice)

    def holdings_after_pass(self, direction: PassDirection) -> list[int]:
        """Each seat's 13 cards once the confirmed passes have been exchanged."""
        holdings = list(self.deal)
        if direction is not PassDirection.HOLD:
            for seat in SEATS:
                passed = self.passes[seat] or 0
                holdings[seat] &= ~passed
                holdings[direction.receiver(seat)] |= passed
        return holdings

    def first_leader(self, direction: PassDirection) -> int:
        """The seat that holds the two of clubs after the pass: it leads the first trick."""
        return next(s for s, cards in enumerate(self.holdings_after_pass(direction)) if cards & 1)


class Match:
    """A match of Hearts between four seats, from the first deal to the winner.

    >>> match = Match(seed=7)
    >>> match.phase, match.pass_direction.name
    (<Phase.PASSING: 'passing'>, 'LEFT')
    """

    def __init__(
        self,
        rules: Rules | None = None,
        players: Sequence[str] = DEFAULT_PLAYERS,
        seed: int | None = None,
        deal: Holdings | None = None,
    ) -> None:
        """Start a match and deal the first hand (``deal`` overrides the seeded deal)."""
        if len(players) != 4 or not all(isinstance(name, str) for name in players):
            raise ValueError("a match has four players, each with a name")
        self.rules = rules if rules is not None else Rules()
        self.players: tuple[str, str, str, str] = (players[0], players[1], players[2], players[3])
        self.seed = seed if seed is not None else secrets.randbits(63)
        self.rewound = False
        """True once undo or restart hand was used (the match is then unranked)."""
        self._hands: list[HandLog] = []
        self._results: list[HandResult] = []
        self._selection = [0, 0, 0, 0]
        self._state: HandState | None = None
        self._phase = Phase.PASSING
        self._winner: int | None = None
        self._start_hand(deal)

    # --- what anyone may ask -------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def hand_number(self) -> int:
        """The current hand's number, from 1."""
        return len(self._hands)

    @property
    def pass_direction(self) -> PassDirection:
        return self.rules.pass_direction(self.hand_number)

    @property
    def totals(self) -> tuple[int, int, int, int]:
        totals = [0, 0, 0, 0]
        for result in self._results:
            for seat in SEATS:
                totals[seat] += result.points[seat]
        return totals[0], totals[1], totals[2], totals[3]

    @property
    def results(self) -> tuple[HandResult, ...]:
        return tuple(self._results)

    @property
    def winner(self) -> int | None:
        return self._winner

    @property
    def turn(self) -> int | None:
        """The seat whose play or moon choice is due, if any."""
        if self._phase is Phase.PLAYING and self._state is not None:
            return self._state.turn
        if self._phase is Phase.MOON_CHOICE:
            return self.moon_shooter
        return None

    @property
    def moon_shooter(self) -> int | None:
        """The seat that took every penalty card this hand, once play is over."""
        state = self._state
        if state is None or not state.is_over:
            return None
        penalty = self.rules.penalty_mask
        return next((s for s in SEATS if state.taken[s] & penalty == penalty), None)

    def waiting_for(self) -> tuple[int, ...]:
        """The seats that owe a decision now."""
        if self._phase is Phase.PASSING:
            return tuple(s for s in SEATS if self.current.passes[s] is None)
        turn = self.turn
        return () if turn is None else (turn,)

    @property
    def current(self) -> HandLog:
        """The log of the current hand (do not modify it)."""
        return self._hands[-1]

    @property
    def hand_logs(self) -> tuple[HandLog, ...]:
        return tuple(self._hands)

    @property
    def play_state(self) -> HandState | None:
        """The trick-play state of the current hand, None during the pass (do not modify it)."""
        return self._state

    def holding(self, seat: int) -> CardSet:
        """The cards ``seat`` holds now (not a view: the server and replays use it)."""
        _check_seat(seat)
        if self._state is not None:
            return CardSet(self._state.hands[seat])
        return CardSet(self.current.deal[seat])

    def pass_selection(self, seat: int) -> CardSet:
        _check_seat(seat)
        return CardSet(self._selection[seat])

    def legal_moves(self) -> list[Card]:
        """The cards the seat to play may play; empty when no play is due."""
        if self._phase is not Phase.PLAYING or self._state is None:
            return []
        return list(CardSet(self._state.legal_mask()))

    def view(self, seat: int) -> SeatView:
        """Everything ``seat`` may know, and nothing else."""
        from hearts.view import build_view

        return build_view(self, seat)

    def public_view(self) -> PublicView:
        """What a spectator may know: played cards and scores, no hidden card."""
        from hearts.view import build_public_view

        return build_public_view(self)

    def copy(self) -> Match:
        other = Match.__new__(Match)
        other.rules = self.rules
        other.players = self.players
        other.seed = self.seed
        other.rewound = self.rewound
        other._hands = [log.copy() for log in self._hands]
        other._results = self._results[:]
        other._selection = self._selection[:]
        other._state = self._state.copy() if self._state is not None else None
        other._phase = self._phase
        other._winner = self._winner
        return other

    # --- decisions -----------------------------------------------------------

    def select_pass(self, seat: int, cards: Iterable[Card]) -> None:
        """Change ``seat``'s hidden selection (up to three cards) before it confirms."""
        mask = self._check_pass_cards(seat, cards, exact=False)
        self._selection[seat] = mask

    def confirm_pass(self, seat: int, cards: Iterable[Card] | None = None) -> list[Event]:
        """Confirm ``seat``'s pass (``cards``, or its selection); exchange once all four have."""
        mask = self._check_pass_cards(
            seat, cards if cards is not None else CardSet(self._selection[seat]), exact=True
        )
        self._selection[seat] = mask
        self.current.passes[seat] = mask
        if any(p is None for p in self.current.passes):
            return []
        self._begin_play()
        return [PassesExchanged(self.pass_direction)]

    def play(self, card: Card, seat: int | None = None) -> list[Event]:
        """Play ``card`` for the seat to play (``seat``, when given, must be that seat)."""
        state = self._state
        if self._phase is not Phase.PLAYING or state is None:
            raise errors.IllegalPlay(self._no_play_reason())
        if seat is not None and seat != state.turn:
            raise errors.not_your_turn()
        if not isinstance(card, int) or not 0 <= card < 52:
            raise errors.IllegalPlay("that is not a card")
        state.check_play(card)
        return self._apply_play(card)

    def choose_moon(self, seat: int, style: MoonStyle) -> list[Event]:
        """Under ``moon: "choice"``, the shooter picks how the moon scores."""
        if self._phase is not Phase.MOON_CHOICE:
            raise errors.IllegalMove("there is no moon to score now")
        if seat != self.moon_shooter:
            raise errors.IllegalMove("only the shooter chooses", "{who} did not shoot the moon")
        if style not in ("add", "subtract"):
            raise errors.IllegalMove('choose "add" or "subtract"')
        self.current.moon_choice = style
        return self._score_hand()

    def next_hand(self, deal: Holdings | None = None) -> list[Event]:
        """Deal the next hand after a scored one (``deal`` overrides the seeded deal)."""
        if self._phase is Phase.MATCH_OVER:
            raise errors.IllegalMove("the match is over")
        if self._phase is not Phase.HAND_OVER:
            raise errors.IllegalMove("the hand is not over yet")
        self._start_hand(deal)
        return []

    def can_undo(self, seat: int) -> bool:
        """Whether :meth:`undo` would accept ``seat``'s request (nothing is changed)."""
        if self._phase is Phase.MATCH_OVER or seat not in SEATS:
            return False
        log = self.current
        if log.moon_choice is not None and seat == self.moon_shooter:
            return True
        return bool(self._plays_by(seat)) or log.passes[seat] is not None

    def undo(self, seat: int) -> None:
        """Go back to just before ``seat``'s last decision in this hand.

        Every later decision of any seat is removed with it, and a scored hand
        is unscored.  Undo never reaches into an earlier hand nor changes a
        finished match.
        """
        if self._phase is Phase.MATCH_OVER:
            raise errors.IllegalMove("the match is over")
        if seat not in SEATS:
            # A negative index would otherwise reach another seat's pass.
            raise errors.IllegalMove("there is no such seat")
        log = self.current
        passes, plays, moon_choice = log.passes[:], log.plays[:], log.moon_choice
        selection = None
        if moon_choice is not None and seat == self.moon_shooter:
            moon_choice = None
        else:
            moon_choice = None
            mine = self._plays_by(seat)
            if mine:
                del plays[mine[-1] :]
            elif passes[seat] is not None:
                selection = passes[seat]
                passes[seat] = None
                plays = []
            else:
                raise errors.IllegalMove(
                    "you have nothing to undo in this hand",
                    "{who} has nothing to undo in this hand",
                )
        pending = self._selection[:]
        self.rewound = True
        self._rebuild_hand(passes, plays, moon_choice)
        if selection is not None:
            # The pass reopens with its cards chosen; other seats still choosing keep theirs.
            for other in SEATS:
                if passes[other] is None:
                    self._selection[other] = selection if other == seat else pending[other]

    def restart_hand(self) -> None:
        """Replay the current hand from the same dealt cards, before it is scored."""
        if self._phase in (Phase.HAND_OVER, Phase.MATCH_OVER):
            raise errors.IllegalMove("the hand is already over")
        self.rewound = True
        self._rebuild_hand([None, None, None, None], [], None)

    # --- the machinery -------------------------------------------------------

    def _start_hand(self, deal: Holdings | None) -> None:
        number = len(self._hands) + 1
        if deal is None:
            deal = seeded_deal(self.seed, number)
        HandState(self.rules, deal)  # validates the deal: four distinct holdings of 13
        self._hands.append(HandLog(number, (deal[0], deal[1], deal[2], deal[3])))
        self._rebuild_hand([None, None, None, None], [], None)

    def _rebuild_hand(
        self, passes: list[int | None], plays: list[Card], moon_choice: MoonStyle | None
    ) -> None:
        """Set the current hand to its deal, then re-apply the given decisions."""
        log = self.current
        if len(self._results) == log.number:
            self._results.pop()
        self._winner = None
        self._selection = [0, 0, 0, 0]
        log.passes = [None, None, None, None]
        log.plays = []
        log.moon_choice = None
        self._state = None
        if self.pass_direction is PassDirection.HOLD:
            self._begin_play()
        else:
            self._phase = Phase.PASSING
            log.passes = passes
            # As after confirm_pass: a confirmed pass is also the seat's selection.
            self._selection = [p or 0 for p in passes]
            if all(p is not None for p in passes):
                self._begin_play()
        for card in plays:
            self._apply_play(card)
        if moon_choice is not None:
            log.moon_choice = moon_choice
            self._score_hand()

    def _begin_play(self) -> None:
        self._state = HandState(self.rules, self.current.holdings_after_pass(self.pass_direction))
        self._phase = Phase.PLAYING

    def _apply_play(self, card: Card) -> list[Event]:
        state = self._state
        assert state is not None
        seat = state.turn
        leader = state.leader if state.trick_count else seat
        trick_cards = [(leader + i) & 3 for i in range(state.trick_count)]
        events: list[Event] = [CardPlayed(seat, card)]
        self.current.plays.append(card)
        previous_trick = state.trick[:]
        winner = state.play(card)
        if winner >= 0:
            order = [*trick_cards, seat]
            cards = tuple((s, card if s == seat else previous_trick[s]) for s in order)
            points = self.rules.hand_points_of_cards(sum(1 << c for _, c in cards))
            events.append(TrickWon(winner, state.tricks_played, cards, points))
            if state.is_over:
                shooter = self.moon_shooter
                if shooter is not None:
                    events.append(MoonShot(shooter))
                if shooter is not None and self.rules.moon == "choice":
                    self._phase = Phase.MOON_CHOICE
                else:
                    events += self._score_hand()
        return events

    def _score_hand(self) -> list[Event]:
        state = self._state
        assert state is not None
        log = self.current
        taken = (state.taken[0], state.taken[1], state.taken[2], state.taken[3])
        points, shooter = self.rules.score_hand(taken, log.moon_choice)
        result = HandResult(log.number, points, taken, shooter, log.moon_choice)
        self._results.append(result)
        events: list[Event] = [HandScored(result)]
        totals = self.totals
        lowest = min(totals)
        if max(totals) >= self.rules.target and totals.count(lowest) == 1:
            self._winner = totals.index(lowest)
            self._phase = Phase.MATCH_OVER
            events.append(MatchWon(self._winner, totals))
        else:
            self._phase = Phase.HAND_OVER
        return events

    def _plays_by(self, seat: int) -> list[int]:
        """Indexes into the current hand's plays of the cards ``seat`` played."""
        log = self.current
        if not log.plays:
            # Also while the pass is open, when the holdings cannot be formed.
            return []
        replay = HandState(self.rules, log.holdings_after_pass(self.pass_direction))
        indexes = []
        for index, card in enumerate(log.plays):
            if replay.turn == seat:
                indexes.append(index)
            replay.play(card)
        return indexes

    def _check_pass_cards(self, seat: int, cards: Iterable[Card], exact: bool) -> int:
        if seat not in SEATS:
            raise errors.IllegalPass("there is no such seat")
        if self._phase is not Phase.PASSING:
            if self.pass_direction is PassDirection.HOLD and self._phase is Phase.PLAYING:
                raise errors.IllegalPass("there is no pass this hand")
            raise errors.IllegalPass("the pass is over")
        if self.current.passes[seat] is not None:
            raise errors.IllegalPass(
                "you have already confirmed your pass", "{who} has already confirmed a pass"
            )
        card_list = list(cards)
        mask = 0
        for card in card_list:
            if not isinstance(card, int) or not 0 <= card < 52:
                raise errors.IllegalPass("that is not a card")
            if not self.current.deal[seat] >> card & 1:
                raise errors.IllegalPass(
                    "you do not hold that card", "{who} does not hold " + card_text(card)
                )
            mask |= 1 << card
        if mask.bit_count() != len(card_list):
            raise errors.IllegalPass("the same card is chosen twice")
        if len(card_list) > 3 or (exact and len(card_list) != 3):
            raise errors.IllegalPass(
                "pass exactly three cards", "{who} must pass exactly three cards"
            )
        return mask

    def _no_play_reason(self) -> str:
        return {
            Phase.PASSING: "the pass is not finished yet",
            Phase.MOON_CHOICE: "the moon must be scored first",
            Phase.HAND_OVER: "the hand is over",
            Phase.MATCH_OVER: "the match is over",
        }.get(self._phase, "no card can be played now")

    def __repr__(self) -> str:
        return (
            f"<Match hand {self.hand_number} {self._phase.value} "
            f"totals {list(self.totals)} turn {self.turn}>"
        )


def _check_seat(seat: int) -> None:
    # A negative index would silently reach another seat's cards.
    if seat not in SEATS:
        raise ValueError("there is no such seat")
