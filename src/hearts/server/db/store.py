"""Data access: plain functions over a session factory, each one transaction.

They are synchronous; the tables call them through ``asyncio.to_thread``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from hearts.server.db.models import Guest, MatchRow

Sessions = sessionmaker[Session]


def now() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime | None) -> datetime | None:
    """SQLite gives back naive datetimes; they were stored as UTC."""
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment


@dataclass
class MatchData:
    """A match row as plain values."""

    id: str
    owner_token: str
    level: str
    status: str
    record: dict[str, Any]
    seed: int
    pass_selections: list[list[str]]
    awaiting_continue: bool
    paused: bool
    pace: str
    elapsed_ms: int
    running_since: datetime | None
    used_undo: bool
    ranked: bool
    version: int
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None = None


_FIELDS = [f.name for f in fields(MatchData)]


def _to_data(row: MatchRow) -> MatchData:
    data = MatchData(**{name: getattr(row, name) for name in _FIELDS})
    data.running_since = aware(data.running_since)
    data.created_at = aware(data.created_at) or now()
    data.updated_at = aware(data.updated_at) or now()
    data.finished_at = aware(data.finished_at)
    return data


def create_guest(sessions: Sessions) -> str:
    token = secrets.token_urlsafe(24)
    with sessions.begin() as session:
        session.add(Guest(token=token, created_at=now()))
    return token


def guest_exists(sessions: Sessions, token: str) -> bool:
    with sessions() as session:
        return session.get(Guest, token) is not None


def current_match(sessions: Sessions, token: str) -> MatchData | None:
    """The guest's match that Play continues (active or finished), if any."""
    with sessions() as session:
        guest = session.get(Guest, token)
        if guest is None or guest.current_match_id is None:
            return None
        row = session.get(MatchRow, guest.current_match_id)
        return None if row is None else _to_data(row)


def start_match(sessions: Sessions, data: MatchData, replaced: str | None, abandon: bool) -> None:
    """Insert a new match and make it the guest's current one.

    The match it replaces is marked abandoned (``abandon``) or, when it held
    no decision of the player, deleted: nothing happened in it.
    """
    with sessions.begin() as session:
        if replaced is not None:
            old = session.get(MatchRow, replaced)
            if old is not None and abandon:
                old.status = "abandoned"
                old.version += 1
                old.updated_at = old.finished_at = now()
            elif old is not None and old.status == "active":
                session.delete(old)
        session.add(MatchRow(**{name: getattr(data, name) for name in _FIELDS}))
        guest = session.get(Guest, data.owner_token)
        if guest is None:
            raise LookupError("no such guest")
        guest.current_match_id = data.id


def save_match(sessions: Sessions, data: MatchData) -> None:
    """Write every field of ``data`` to its row."""
    with sessions.begin() as session:
        row = session.get(MatchRow, data.id)
        if row is None:
            raise LookupError(f"no match {data.id}")
        for name in _FIELDS:
            if name not in ("id", "owner_token", "created_at"):
                setattr(row, name, getattr(data, name))


def save_clock(
    sessions: Sessions, match_id: str, elapsed_ms: int, running_since: datetime | None
) -> None:
    """The clock alone: starting or stopping it is not a change of the table's state."""
    with sessions.begin() as session:
        row = session.get(MatchRow, match_id)
        if row is not None:
            row.elapsed_ms = elapsed_ms
            row.running_since = running_since
