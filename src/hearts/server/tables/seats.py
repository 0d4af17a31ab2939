"""Who sits where: a person or a bot of some level; a shared table's seat records."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, Final

SOLO_NAMES: Final = ("You", "Robin", "Alex", "Sam")
"""South is the person; Robin sits West (to the left), Alex North, Sam East."""

BOT_NAMES: Final = ("Kit", "Robin", "Alex", "Sam")
"""The computers' names at a shared table, by seat."""


@dataclass(frozen=True)
class Seat:
    """Who decides for a seat now."""

    name: str
    bot_level: str | None = None
    """None for a person."""

    @property
    def is_bot(self) -> bool:
        return self.bot_level is not None


def solo_seats(level: str) -> tuple[Seat, Seat, Seat, Seat]:
    """One person against three bots, all at ``level``."""
    return (
        Seat(SOLO_NAMES[0]),
        Seat(SOLO_NAMES[1], level),
        Seat(SOLO_NAMES[2], level),
        Seat(SOLO_NAMES[3], level),
    )


@dataclass(frozen=True)
class Place:
    """A seat of a shared table as stored with the match (``matches.seats``)."""

    token: str | None = None
    """The person sitting here; None for a computer."""
    name: str | None = None
    left: bool = False
    """The person left for good: a bot keeps the seat."""
    away_since: str | None = None
    """ISO time the person's last connection closed (None while connected)."""
    bot: bool = False
    """A bot plays for the person now (they were away longer than the grace period)."""

    @property
    def person(self) -> bool:
        return self.token is not None

    @property
    def bot_plays(self) -> bool:
        return self.token is None or self.left or self.bot

    def away_at(self) -> datetime | None:
        return None if self.away_since is None else datetime.fromisoformat(self.away_since)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Place:
        return cls(
            token=data.get("token"),
            name=data.get("name"),
            left=bool(data.get("left")),
            away_since=data.get("away_since"),
            bot=bool(data.get("bot")),
        )


def places_of(seats: list[dict[str, Any]] | None) -> list[Place]:
    return [Place.from_json(seat) for seat in seats or [{}, {}, {}, {}]]


def shared_seats(places: list[Place], level: str) -> tuple[Seat, ...]:
    """Who decides at each seat of a shared table."""
    return tuple(
        Seat(place.name or BOT_NAMES[number], level if place.bot_plays else None)
        for number, place in enumerate(places)
    )


class TableError(Exception):
    """An intent the table refuses: ``code`` for programs, ``message`` for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def human(reason: str) -> str:
    """The engine's reasons start in lower case ("you must follow clubs")."""
    return reason[:1].upper() + reason[1:]
