"""Ask a bot what one seat should do now: the hint of the game and of ``hearts suggest``.

The suggestion is computed from ``match.view(seat)`` only, so it can never
reveal a card hidden from that seat.  The bots are imported on the first
suggestion, not when :mod:`hearts` is imported.

Without a seed the generator is seeded with :data:`DEFAULT_SEED`, so asking
twice about the same record gives the same answer (a hint that changed on
every click would look broken).
"""

from __future__ import annotations

import random
from typing import Any, Final

from hearts.match import Match, Phase
from hearts.record import read_record
from hearts.rules import SEAT_NAMES

DEFAULT_SEED: Final = 0
"""The generator's seed when none is given."""

DEFAULT_LEVEL: Final = "expert"


class NoSuchSeat(ValueError):
    """A seat that is not 0 (South), 1 (West), 2 (North) or 3 (East)."""


class UnknownLevel(ValueError):
    """A bot level that does not exist."""


def suggest(
    record: object, seat: int, level: str = DEFAULT_LEVEL, seed: int | None = None
) -> list[str]:
    """What ``seat`` should do at the end of ``record`` (a ``hearts-record/1`` dict).

    Returns three card texts for a pass, one for a play, or ``"add"`` /
    ``"subtract"`` for a moon under ``moon: "choice"``.  A hand with no
    ``pass`` yet asks for the pass.  Raises :class:`~hearts.record.RecordError`
    for an invalid record, :class:`NoSuchSeat`, :class:`UnknownLevel`, and
    :class:`~hearts.bots.base.NothingToDecide` when the seat owes no decision
    now (all are ``ValueError``).

    >>> from hearts import Match, write_record
    >>> cards = suggest(write_record(Match(seed=1)), seat=0, level="beginner")
    >>> len(cards), all(len(text) == 2 for text in cards)
    (3, True)
    """
    check_seat(seat)
    check_level(level)
    return suggest_in_match(read_record(record, seed=0), seat, level, seed)


def suggest_in_match(
    match: Match, seat: int, level: str = DEFAULT_LEVEL, seed: int | None = None, **settings: Any
) -> list[str]:
    """:func:`suggest` for a match already replayed; ``settings`` change the level's defaults."""
    from hearts.bots import NothingToDecide, make_bot

    check_seat(seat)
    check_level(level)
    bot = make_bot(level, **settings)
    rng = random.Random(DEFAULT_SEED if seed is None else seed)
    try:
        return bot.decide(match.view(seat), rng).texts()
    except NothingToDecide:
        raise NothingToDecide(
            f"{SEAT_NAMES[seat]} has no decision to make now: {_what_now(match, seat)}"
        ) from None


def _what_now(match: Match, seat: int) -> str:
    turn = match.turn
    who = SEAT_NAMES[turn] if turn is not None else "nobody"
    return {
        Phase.PASSING: f"{SEAT_NAMES[seat]} has already passed",
        Phase.PLAYING: f"it is {who}'s turn to play",
        Phase.MOON_CHOICE: f"{who} chooses how the moon scores",
        Phase.HAND_OVER: "the hand is over",
        Phase.MATCH_OVER: "the match is over",
    }[match.phase]


def check_seat(seat: object) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        names = ", ".join(f"{number} {name}" for number, name in enumerate(SEAT_NAMES))
        raise NoSuchSeat(f"no seat {seat!r} (the seats are {names})")


def check_level(level: object) -> None:
    from hearts.bots import LEVELS

    if not isinstance(level, str) or level not in LEVELS:
        raise UnknownLevel(f"unknown level {level!r} (choose from {', '.join(LEVELS)})")
