"""The ``table`` object of a ``state`` message: one seat's view, as JSON (docs/protocol.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hearts.cards import CardSet, card_text
from hearts.match import Match, Phase
from hearts.server.tables.claim import can_claim
from hearts.view import SeatView

if TYPE_CHECKING:
    from hearts.server.tables.table import Table


def table_json(table: Table, seat: int) -> dict[str, Any]:
    """What ``seat`` may know of ``table``, built from ``match.view(seat)`` only."""
    match = table.match
    view = match.view(seat)
    data = table.data
    playable = not data.paused and not data.awaiting_continue and data.status == "active"
    last = view.results[-1] if view.results else None
    return {
        "match_id": data.id,
        "level": data.level,
        "phase": view.phase.value,
        "status": data.status,
        "players": list(view.players),
        "hand_number": view.hand_number,
        "pass_direction": view.pass_direction.name.lower(),
        "pass_to": view.pass_to,
        "hand": view.hand.texts(),
        "legal": view.legal.texts() if playable else [],
        "pass_selection": view.pass_selection.texts(),
        "passed": _texts(view.passed),
        "received": _texts(view.received),
        "received_from": (None if view.received is None else view.pass_direction.giver(seat)),
        "pass_confirmed": list(view.pass_confirmed),
        "awaiting_continue": data.awaiting_continue,
        "tricks": [
            {
                "leader": trick.leader,
                "cards": [[s, card_text(card)] for s, card in trick.cards],
                "winner": trick.winner,
                "points": trick.points,
            }
            for trick in view.tricks
        ],
        "turn": view.turn,
        "cards_left": list(view.cards_left),
        "points_taken": list(view.points_taken),
        "totals": list(view.totals),
        "hand_points": [list(result.points) for result in view.results],
        "last_hand": (
            None if last is None else {"points": list(last.points), "shooter": last.shooter}
        ),
        "winner": view.winner,
        "prompt": prompt(view, data.awaiting_continue, data.paused),
        "paused": data.paused,
        "pace": data.pace,
        "elapsed_ms": table.elapsed_ms(),
        "ranked": data.ranked,
        "ranking_points": (
            table.result(seat).ranking_points if data.status == "finished" else None
        ),
        "used_undo": data.used_undo,
        "can_undo": playable_or_over(data.status, data.paused) and can_undo(match, seat),
        "can_claim": playable and can_claim(match, seat),
    }


def _texts(cards: CardSet | None) -> list[str] | None:
    return None if cards is None else cards.texts()


def playable_or_over(status: str, paused: bool) -> bool:
    return status == "active" and not paused


def can_undo(match: Match, seat: int) -> bool:
    """Whether :meth:`Match.undo` would accept (tried on a copy: exact and cheap)."""
    if match.phase is Phase.MATCH_OVER:
        return False
    try:
        match.copy().undo(seat)
    except ValueError:
        return False
    return True


def prompt(view: SeatView, awaiting_continue: bool, paused: bool) -> str:
    """The prompt line, naming people rather than directions."""
    names = view.players
    if paused:
        return "Paused"
    if view.phase is Phase.MATCH_OVER:
        winner = view.winner
        return (
            "You win the match!" if winner == view.seat else f"{names[winner or 0]} wins the match"
        )
    if view.phase is Phase.HAND_OVER:
        last = view.results[-1]
        if last.shooter is not None:
            who = "You" if last.shooter == view.seat else names[last.shooter]
            return f"{who} shot the moon! Press Next hand"
        return f"Hand {view.hand_number} is over. Press Next hand"
    if view.phase is Phase.PASSING:
        if view.pass_confirmed[view.seat]:
            return "Waiting for the others to pass"
        return f"Pass three cards to {names[view.pass_to or 0]}"
    if awaiting_continue:
        giver = view.pass_direction.giver(view.seat)
        return f"You received three cards from {names[giver]}. Press Continue"
    if view.phase is Phase.MOON_CHOICE:
        return "Choosing how the moon scores"
    turn = view.turn
    leading = view.current_trick is None
    if turn == view.seat:
        if not view.tricks:
            return "Your lead: the two of clubs"
        return "Your lead" if leading else "Your turn"
    who = names[turn or 0]
    return f"{who} to lead" if leading else f"{who} to play"
