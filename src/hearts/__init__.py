"""Hearts: an exact rules engine, game records and computer players.

The core imports only the standard library; the web server lives in
``hearts.server`` and is never imported from here.
"""

from hearts.cards import (
    QUEEN_OF_SPADES,
    TWO_OF_CLUBS,
    Card,
    CardSet,
    card_label,
    card_name,
    card_text,
    parse_card,
)
from hearts.coach import Analysis, Budget, DecisionReview, HandReview, analyse
from hearts.errors import IllegalMove, IllegalPass, IllegalPlay
from hearts.hand import HandState
from hearts.match import (
    CardPlayed,
    Event,
    HandResult,
    HandScored,
    Match,
    MatchWon,
    MoonShot,
    PassesExchanged,
    Phase,
    TrickWon,
)
from hearts.record import RecordError, read_record, write_record
from hearts.rules import SEAT_NAMES, PassDirection, Rules
from hearts.suggest import suggest
from hearts.view import SeatView, Trick

__version__ = "0.1.0"

__all__ = [
    "QUEEN_OF_SPADES",
    "SEAT_NAMES",
    "TWO_OF_CLUBS",
    "Analysis",
    "Budget",
    "Card",
    "CardPlayed",
    "CardSet",
    "DecisionReview",
    "Event",
    "HandResult",
    "HandReview",
    "HandScored",
    "HandState",
    "IllegalMove",
    "IllegalPass",
    "IllegalPlay",
    "Match",
    "MatchWon",
    "MoonShot",
    "PassDirection",
    "PassesExchanged",
    "Phase",
    "RecordError",
    "Rules",
    "SeatView",
    "Trick",
    "TrickWon",
    "analyse",
    "card_label",
    "card_name",
    "card_text",
    "parse_card",
    "read_record",
    "suggest",
    "write_record",
]
