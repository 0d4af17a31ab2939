"""The frames of a record's replay: what the replay page steps through."""

from __future__ import annotations

from typing import Any

from hearts.cards import CardSet
from hearts.record import read_record
from hearts.rules import SEATS, PassDirection
from hearts.view import split_tricks


def replay_frames(record: object) -> dict[str, Any]:
    """Every hand of ``record``: the deal, passes, tricks, points and running totals.

    Raises :class:`~hearts.record.RecordError` with the checker's reason.
    """
    match = read_record(record, seed=0)
    rules = match.rules
    results = {result.number: result for result in match.results}
    totals = [0, 0, 0, 0]
    hands = []
    for log in match.hand_logs:
        direction = rules.pass_direction(log.number)
        held = direction is PassDirection.HOLD
        exchanged = held or all(p is not None for p in log.passes)
        tricks = []
        if exchanged and log.plays:
            tricks = [
                {
                    "number": trick.number,
                    "leader": trick.leader,
                    "cards": [[seat, CardSet([card]).texts()[0]] for seat, card in trick.cards],
                    "winner": trick.winner,
                    "points": trick.points,
                }
                for trick in split_tricks(log.plays, log.first_leader(direction), rules)
            ]
        result = results.get(log.number)
        if result is not None:
            totals = [totals[seat] + result.points[seat] for seat in SEATS]
        hands.append(
            {
                "number": log.number,
                "pass_direction": direction.name.lower(),
                "deal": [CardSet(mask).texts() for mask in log.deal],
                "passes": None
                if held
                else [None if p is None else CardSet(p).texts() for p in log.passes],
                "tricks": tricks,
                "points": None if result is None else list(result.points),
                "shooter": None if result is None else result.shooter,
                "totals": None if result is None else list(totals),
            }
        )
    return {
        "players": list(match.players),
        "rules": rules.to_dict(),
        "hands": hands,
        "totals": list(match.totals),
        "winner": match.winner,
    }
