"""The ``table`` object of a ``state`` message: one seat's view, as JSON (docs/protocol.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hearts.cards import CardSet, card_text
from hearts.match import Phase
from hearts.server.tables.claim import can_claim
from hearts.server.tables.seats import BOT_NAMES
from hearts.view import PublicView, SeatView

if TYPE_CHECKING:
    from hearts.server.tables.table import Table


def table_json(table: Table, seat: int | None, role: str = "player") -> dict[str, Any]:
    """What ``seat`` may know of ``table``, built from ``match.view(seat)`` only.

    ``seat`` None is a spectator (or a visitor while seating): built from the
    match's public view, with no card that has not been played.  At a shared
    table every seat number is turned so that the viewer is seat 0, as in a
    solo match, and South (seat 0) for a spectator.
    """
    if table.data.status == "seating":
        return _seating_json(table, seat, role)
    state = _public_json(table) if seat is None else _seat_json(table, seat)
    if table.shared:
        state.update(_shared_fields(table, seat, role))
        state = rotate(state, seat or 0)
    else:
        state["kind"] = "solo"
    return state


def _seat_json(table: Table, seat: int) -> dict[str, Any]:
    match = table.match
    view = match.view(seat)
    data = table.data
    playable = not data.paused and not data.awaiting_continue and data.status == "active"
    state = _common(table, view)
    state.update(
        {
            "hand": view.hand.texts(),
            "legal": view.legal.texts() if playable else [],
            "pass_to": view.pass_to,
            "pass_selection": view.pass_selection.texts(),
            "passed": _texts(view.passed),
            "received": _texts(view.received),
            "received_from": (None if view.received is None else view.pass_direction.giver(seat)),
            "prompt": (
                f"Hand {view.hand_number} is over: the next one starts in a moment"
                if table.shared and view.phase is Phase.HAND_OVER
                else prompt(view, data.awaiting_continue, data.paused)
            ),
            "can_undo": (
                playable_or_over(data.status, data.paused)
                and table.take_backs_allowed()
                and match.can_undo(seat)
            ),
            "can_claim": playable and can_claim(match, seat),
        }
    )
    return state


def _public_json(table: Table) -> dict[str, Any]:
    view = table.match.public_view()
    state = _common(table, view)
    state.update(
        {
            "hand": [],
            "legal": [],
            "pass_to": None,
            "pass_selection": [],
            "passed": None,
            "received": None,
            "received_from": None,
            "prompt": public_prompt(view, table.data.paused),
            "can_undo": False,
            "can_claim": False,
        }
    )
    return state


def _common(table: Table, view: SeatView | PublicView) -> dict[str, Any]:
    """The fields every viewer shares: played cards, who has passed, the scores."""
    data = table.data
    last = view.results[-1] if view.results else None
    return {
        "match_id": data.id,
        "level": data.level,
        "phase": view.phase.value,
        "status": data.status,
        "players": list(view.players),
        "hand_number": view.hand_number,
        "pass_direction": view.pass_direction.name.lower(),
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
        "paused": data.paused,
        "pace": data.pace,
        "elapsed_ms": table.elapsed_ms(),
        "ranked": data.ranked and not table.shared,
        "ranking_points": (
            table.result(0).ranking_points
            if data.status == "finished" and not table.shared
            else None
        ),
        "used_undo": data.used_undo,
        "used_hint": data.used_hint,
    }


def _shared_fields(table: Table, seat: int | None, role: str) -> dict[str, Any]:
    data = table.data
    token = None if seat is None else table.places()[seat].token
    here = table.connected_seats()
    return {
        "kind": "shared",
        "code": data.code,
        "name": data.name,
        "rules": table.match.rules.to_dict(),
        "house_rules": table.match.rules.to_dict() != {},
        "bot_level": data.level,
        "role": role if seat is None else "player",
        "you": seat,
        "creator": token is not None and token == data.owner_token,
        "seats": [
            {
                "name": place.name or BOT_NAMES[number],
                "kind": (
                    "you"
                    if number == seat
                    else "person"
                    if place.person and not place.left
                    else "bot"
                    if data.status != "seating"
                    else "empty"
                ),
                "connected": number in here
                or (place.person and place.away_since is None and not place.left),
                "away_ms": table.turns.away_ms(place),
                "bot_playing": place.person and place.bot_plays,
                "left": place.left,
            }
            for number, place in enumerate(table.places())
        ],
        "spectators": table.spectators(),
        "next_hand_ms": table.turns.next_hand_ms(),
    }


def _seating_json(table: Table, seat: int | None, role: str) -> dict[str, Any]:
    """A shared table before its start: who sits where, and nothing of the deal."""
    data = table.data
    state: dict[str, Any] = {
        "match_id": data.id,
        "level": data.level,
        "phase": "seating",
        "status": "seating",
        "players": list(table.seats_names()),
        "hand_number": 0,
        "pass_direction": None,
        "pass_to": None,
        "hand": [],
        "legal": [],
        "pass_selection": [],
        "passed": None,
        "received": None,
        "received_from": None,
        "pass_confirmed": [False, False, False, False],
        "awaiting_continue": False,
        "tricks": [],
        "turn": None,
        "cards_left": [0, 0, 0, 0],
        "points_taken": [0, 0, 0, 0],
        "totals": [0, 0, 0, 0],
        "hand_points": [],
        "last_hand": None,
        "winner": None,
        "prompt": (
            "Waiting for players: start when everyone is seated"
            if seat is not None and table.places()[seat].token == data.owner_token
            else "Waiting for the table's creator to start"
            if seat is not None
            else "Pick an empty seat, or just watch"
        ),
        "paused": False,
        "pace": data.pace,
        "elapsed_ms": 0,
        "ranked": False,
        "ranking_points": None,
        "used_undo": False,
        "used_hint": False,
        "can_undo": False,
        "can_claim": False,
    }
    state.update(_shared_fields(table, seat, role))
    for entry in state["seats"]:
        if entry["kind"] == "empty":
            entry["name"] = None
    return rotate(state, seat or 0)


SEAT_LISTS = ("players", "pass_confirmed", "cards_left", "points_taken", "totals", "seats")
SEAT_NUMBERS = ("turn", "pass_to", "received_from", "winner")


def rotate(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Renumber every seat so that ``seat`` becomes 0 (clockwise order kept)."""
    if seat == 0:
        return state

    def turn(number: int | None) -> int | None:
        return None if number is None else (number - seat) % 4

    def turn_list(values: list[Any]) -> list[Any]:
        return [values[(index + seat) % 4] for index in range(4)]

    out = dict(state)
    for key in SEAT_LISTS:
        out[key] = turn_list(state[key])
    for key in SEAT_NUMBERS:
        out[key] = turn(state[key])
    out["hand_points"] = [turn_list(points) for points in state["hand_points"]]
    if state["last_hand"] is not None:
        out["last_hand"] = {
            "points": turn_list(state["last_hand"]["points"]),
            "shooter": turn(state["last_hand"]["shooter"]),
        }
    out["tricks"] = [
        {
            "leader": turn(trick["leader"]),
            "cards": [[turn(s), card] for s, card in trick["cards"]],
            "winner": turn(trick["winner"]),
            "points": trick["points"],
        }
        for trick in state["tricks"]
    ]
    return out


def _texts(cards: CardSet | None) -> list[str] | None:
    return None if cards is None else cards.texts()


def playable_or_over(status: str, paused: bool) -> bool:
    return status == "active" and not paused


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


def public_prompt(view: PublicView, paused: bool) -> str:
    """The prompt line for a spectator."""
    names = view.players
    if paused:
        return "Paused"
    if view.phase is Phase.MATCH_OVER:
        return f"{names[view.winner or 0]} wins the match"
    if view.phase is Phase.HAND_OVER:
        return f"Hand {view.hand_number} is over"
    if view.phase is Phase.PASSING:
        return "The players are choosing cards to pass"
    if view.phase is Phase.MOON_CHOICE:
        return "Choosing how the moon scores"
    turn = view.turn
    return (
        f"{names[turn or 0]} to lead"
        if view.current_trick is None
        else f"{names[turn or 0]} to play"
    )
