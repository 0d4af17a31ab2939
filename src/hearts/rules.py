"""The rules in force: the standard game plus the house rules of RULES.md.

Every number the game scores comes from a :class:`Rules` object, so a house
rule changes the points in one place and the engine, the record checker and
the bots all agree.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Final, Literal

from hearts.cards import (
    ACE_OF_SPADES,
    HEARTS_MASK,
    JACK_OF_DIAMONDS,
    KING_OF_SPADES,
    QUEEN_OF_SPADES,
)

MoonScoring = Literal["add", "subtract", "choice"]
PassingCycle = Literal["standard", "none", "left-only", "no-hold"]

SEATS: Final = (0, 1, 2, 3)
SEAT_NAMES: Final = ("South", "West", "North", "East")


class PassDirection(enum.IntEnum):
    """Where a seat's three cards go; the value is the clockwise offset."""

    HOLD = 0
    LEFT = 1
    ACROSS = 2
    RIGHT = 3

    def receiver(self, seat: int) -> int:
        """The seat that receives what ``seat`` passes."""
        return (seat + self.value) % 4

    def giver(self, seat: int) -> int:
        """The seat whose pass ``seat`` receives."""
        return (seat - self.value) % 4


_CYCLES: Final[dict[str, tuple[PassDirection, ...]]] = {
    "standard": (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.HOLD),
    "none": (PassDirection.HOLD,),
    "left-only": (PassDirection.LEFT,),
    "no-hold": (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS),
}


class RulesError(ValueError):
    """A rules dictionary that names an unknown rule or a bad value."""


@dataclass(frozen=True)
class Rules:
    """The rules of one match.  ``Rules()`` is the standard game.

    >>> Rules().hand_points_of_cards(HEARTS_MASK | 1 << QUEEN_OF_SPADES)
    26
    >>> Rules.from_dict({"target": 50}).to_dict()
    {'target': 50}
    """

    target: int = 100
    jack_of_diamonds: bool = False
    moon: MoonScoring = "add"
    queen_breaks_hearts: bool = False
    passing: PassingCycle = "standard"
    black_maria: bool = False

    # Derived tables, computed once; not part of the rules' identity.
    point_values: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    penalty_mask: int = field(init=False, repr=False, compare=False)
    moon_points: int = field(init=False, repr=False, compare=False)
    card_points: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.target, int) or isinstance(self.target, bool):
            raise RulesError("target must be a whole number")
        if not 1 <= self.target <= 10_000:
            raise RulesError("target must be between 1 and 10000")
        for flag in ("jack_of_diamonds", "queen_breaks_hearts", "black_maria"):
            if not isinstance(getattr(self, flag), bool):
                raise RulesError(f"{flag} must be true or false")
        if not isinstance(self.moon, str) or self.moon not in ("add", "subtract", "choice"):
            raise RulesError('moon must be "add", "subtract" or "choice"')
        if not isinstance(self.passing, str) or self.passing not in _CYCLES:
            raise RulesError('passing must be "standard", "none", "left-only" or "no-hold"')

        # (mask, points for each card of the mask): hearts first, then single cards.
        values: list[tuple[int, int]] = [(HEARTS_MASK, 1), (1 << QUEEN_OF_SPADES, 13)]
        if self.black_maria:
            values += [(1 << ACE_OF_SPADES, 7), (1 << KING_OF_SPADES, 10)]
        penalty = 0
        for mask, _ in values:
            penalty |= mask
        if self.jack_of_diamonds:
            values.append((1 << JACK_OF_DIAMONDS, -10))
        card_points = [0] * 52
        for mask, points in values:
            for card in range(52):
                if mask >> card & 1:
                    card_points[card] = points
        object.__setattr__(self, "point_values", tuple(values))
        object.__setattr__(self, "penalty_mask", penalty)
        object.__setattr__(
            self, "moon_points", sum(card_points[c] for c in range(52) if penalty >> c & 1)
        )
        object.__setattr__(self, "card_points", tuple(card_points))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from a record's ``rules`` object; unknown keys are an error."""
        if not isinstance(data, Mapping):
            raise RulesError("rules must be an object")
        known = {f.name for f in fields(cls) if f.init}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"unknown rule {unknown[0]!r}")
        return cls(**dict(data))

    def to_dict(self) -> dict[str, Any]:
        """Only the rules that differ from the standard game; ``{}`` when standard."""
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.init and getattr(self, f.name) != getattr(STANDARD, f.name)
        }

    @property
    def is_standard(self) -> bool:
        """Only the standard game earns ranking points."""
        return self == STANDARD

    def pass_direction(self, hand_number: int) -> PassDirection:
        """The pass direction of the hand numbered from 1 within the match."""
        cycle = _CYCLES[self.passing]
        return cycle[(hand_number - 1) % len(cycle)]

    def hand_points_of_cards(self, taken: int) -> int:
        """Points for the cards in the mask ``taken``, before any moon."""
        total = 0
        for mask, points in self.point_values:
            total += (taken & mask).bit_count() * points
        return total

    def first_trick_forbidden(self) -> int:
        """Cards that may not fall on the first trick: every penalty card.

        Under Black Maria that includes the ace and king of spades; the jack of
        diamonds is a bonus, not a penalty, so it may be played.
        """
        return self.penalty_mask

    def breaks_hearts(self) -> int:
        """Cards whose play breaks hearts."""
        return HEARTS_MASK | ((1 << QUEEN_OF_SPADES) if self.queen_breaks_hearts else 0)

    def score_hand(
        self, taken: tuple[int, int, int, int] | list[int], moon_choice: str | None = None
    ) -> tuple[tuple[int, int, int, int], int | None]:
        """Points each seat scores for the hand, and the seat that shot the moon.

        ``taken`` holds each seat's won cards as masks.  ``moon_choice`` is
        needed only under ``moon: "choice"``; it is ``"add"`` or ``"subtract"``.
        The jack of diamonds keeps its value for whoever took it, moon or not.
        """
        shooter = None
        for seat in SEATS:
            if taken[seat] & self.penalty_mask == self.penalty_mask:
                shooter = seat
                break
        if shooter is None:
            p = [self.hand_points_of_cards(m) for m in taken]
            return (p[0], p[1], p[2], p[3]), None
        style = self.moon if self.moon != "choice" else moon_choice
        if style not in ("add", "subtract"):
            raise ValueError('the shooter must choose "add" or "subtract"')
        bonus = [self._bonus_points(m) for m in taken]
        moon = self.moon_points
        if style == "add":
            p = [bonus[s] + (0 if s == shooter else moon) for s in SEATS]
        else:
            p = [bonus[s] - (moon if s == shooter else 0) for s in SEATS]
        return (p[0], p[1], p[2], p[3]), shooter

    def _bonus_points(self, taken: int) -> int:
        return -10 * bool(taken >> JACK_OF_DIAMONDS & 1) if self.jack_of_diamonds else 0


STANDARD: Final = Rules()
