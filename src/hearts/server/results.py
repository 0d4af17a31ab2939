"""What a match earned its player: the result that statistics and ranking points count.

Pure functions of the match, shared by the end screen (``state`` messages)
and the database (``db/results.py``), so both always agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from hearts.cards import QUEEN_OF_SPADES
from hearts.match import Match, Phase
from hearts.rules import STANDARD

RANKING_POINTS: Final = {"easy": 10, "normal": 30, "expert": 100}
"""Points for winning a ranked solo match at each level."""


@dataclass(frozen=True)
class Outcome:
    """One player's result in one match that is over (finished or abandoned)."""

    level: str
    status: str
    """finished or abandoned."""
    won: bool
    ranked: bool
    final_score: int | None
    """The player's total at the end of a finished match; None when abandoned."""
    hands: int
    """Hands completed."""
    points: int
    """Points scored over those hands."""
    moons: int
    queens: int
    """Hands in which the player took the queen of spades."""
    ranking_points: int


def is_ranked(match: Match, rewound: bool) -> bool:
    """Ranked: standard rules, and neither Undo nor Restart hand was used."""
    return match.rules == STANDARD and not rewound


def outcome(match: Match, seat: int, level: str, ranked: bool, *, abandoned: bool) -> Outcome:
    """The result of ``match`` for ``seat``: won only by finishing with the unique lowest total.

    ``ranked`` is the table's own flag (False once Undo or Restart hand was used).
    """
    if not abandoned and match.phase is not Phase.MATCH_OVER:
        raise ValueError("the match is not over")
    results = match.results
    won = not abandoned and match.winner == seat
    ranked = ranked and match.rules == STANDARD
    queen = 1 << QUEEN_OF_SPADES
    return Outcome(
        level=level,
        status="abandoned" if abandoned else "finished",
        won=won,
        ranked=ranked,
        final_score=None if abandoned else match.totals[seat],
        hands=len(results),
        points=sum(result.points[seat] for result in results),
        moons=sum(1 for result in results if result.shooter == seat),
        queens=sum(1 for result in results if result.taken[seat] & queen),
        ranking_points=RANKING_POINTS.get(level, 0) if won and ranked else 0,
    )
