"""Who sits where: a person or a bot of some level."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

SOLO_NAMES: Final = ("You", "Robin", "Alex", "Sam")
"""South is the person; Robin sits West (to the left), Alex North, Sam East."""


@dataclass(frozen=True)
class Seat:
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


class TableError(Exception):
    """An intent the table refuses: ``code`` for programs, ``message`` for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def human(reason: str) -> str:
    """The engine's reasons start in lower case ("you must follow clubs")."""
    return reason[:1].upper() + reason[1:]
