"""Data access: plain functions over a session factory, each one transaction.

They are synchronous; the tables call them through ``asyncio.to_thread``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.orm import Session, sessionmaker

from hearts.server.db.models import Base, MatchRow, Player
from hearts.server.db.results import record_result
from hearts.server.results import Outcome

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
    kind: str = "solo"
    code: str | None = None
    name: str | None = None
    seats: list[dict[str, Any]] | None = None
    """Replaced as a whole, never changed in place (a copy of the data shares it)."""
    used_hint: bool = False
    """A hint was asked for (the match is then unranked, as after Undo)."""


_FIELDS = [f.name for f in fields(MatchData)]


def _to_data(row: MatchRow) -> MatchData:
    data = MatchData(**{name: getattr(row, name) for name in _FIELDS})
    data.running_since = aware(data.running_since)
    data.created_at = aware(data.created_at) or now()
    data.updated_at = aware(data.updated_at) or now()
    data.finished_at = aware(data.finished_at)
    return data


def create_guest(sessions: Sessions) -> str:
    """A new player without an account; returns its token."""
    token = secrets.token_urlsafe(24)
    with sessions.begin() as session:
        session.add(Player(token=token, created_at=now(), ranking_points=0))
    return token


def player_exists(sessions: Sessions, token: str) -> bool:
    with sessions() as session:
        return session.get(Player, token) is not None


def current_match(sessions: Sessions, token: str) -> MatchData | None:
    """The player's match that Play continues (active or finished), if any."""
    with sessions() as session:
        player = session.get(Player, token)
        if player is None or player.current_match_id is None:
            return None
        row = session.get(MatchRow, player.current_match_id)
        return None if row is None else _to_data(row)


def start_match(
    sessions: Sessions, data: MatchData, replaced: str | None, abandoned: Outcome | None
) -> None:
    """Insert a new match and make it the player's current one.

    The match it replaces is marked abandoned when ``abandoned`` gives its
    result (a loss, counted in the same transaction) or, when it held no
    decision of the player, deleted: nothing happened in it.
    """
    with sessions.begin() as session:
        if replaced is not None:
            old = session.get(MatchRow, replaced)
            if old is not None and abandoned is not None:
                if old.status == "active":
                    old.status = "abandoned"
                    old.version += 1
                    old.updated_at = old.finished_at = now()
                    record_result(session, old.id, old.owner_token, abandoned)
            elif old is not None and old.status == "active":
                session.delete(old)
        session.add(MatchRow(**{name: getattr(data, name) for name in _FIELDS}))
        player = session.get(Player, data.owner_token)
        if player is None:
            raise LookupError("no such player")
        player.current_match_id = data.id


def save_match(sessions: Sessions, data: MatchData, result: Outcome | None = None) -> None:
    """Write every field of ``data`` to its row; with ``result``, count the finished match.

    Both happen in one transaction: a match is never finished without its result.
    """
    with sessions.begin() as session:
        row = session.get(MatchRow, data.id)
        if row is None:
            raise LookupError(f"no match {data.id}")
        for name in _FIELDS:
            if name not in ("id", "owner_token", "created_at"):
                setattr(row, name, getattr(data, name))
        if result is not None:
            session.flush()
            record_result(session, data.id, data.owner_token, result)


def insert_match(sessions: Sessions, data: MatchData) -> None:
    """A new shared table (its code is unique: IntegrityError when taken)."""
    with sessions.begin() as session:
        session.add(MatchRow(**{name: getattr(data, name) for name in _FIELDS}))


def load_match(sessions: Sessions, match_id: str) -> MatchData | None:
    with sessions() as session:
        row = session.get(MatchRow, match_id)
        return None if row is None else _to_data(row)


def find_code(sessions: Sessions, code: str) -> MatchData | None:
    """The shared table with this invite code."""
    with sessions() as session:
        row = session.scalars(select(MatchRow).where(MatchRow.code == code)).first()
        return None if row is None else _to_data(row)


Work = Callable[[MatchData], "tuple[MatchData, Outcome | None] | None"]

_WRITTEN = [name for name in _FIELDS if name not in ("id", "owner_token", "created_at")]
_MATCHES = Base.metadata.tables[MatchRow.__tablename__]
# Built once, so that SQLAlchemy compiles each of them once (an action is frequent).
_LOCK = (
    select(_MATCHES.c.version, _MATCHES.c.updated_at)
    .where(_MATCHES.c.id == bindparam("match_id"))
    .with_for_update()
)
_WRITE = update(_MATCHES).where(_MATCHES.c.id == bindparam("match_id"))


def transact(sessions: Sessions, match_id: str, work: Work, known: MatchData) -> bool:
    """Run ``work`` on the match's row while holding its lock, and write what it returns.

    ``known`` is the caller's copy of the row. The lock (SELECT ... FOR UPDATE
    on PostgreSQL; SQLite has one writer anyway) reads only the row's version
    and time of change: when they match ``known``, ``work`` gets ``known``;
    when another server process moved the row on, it gets the row as it is now.
    ``work`` returns the new data with the match's result if it just ended, or
    None to write nothing. So every action on one table is serialised across
    processes. True when something was written.
    """
    with sessions.begin() as session:
        connection = session.connection()  # plain statements: no ORM work on the way
        stamp = connection.execute(_LOCK, {"match_id": match_id}).one_or_none()
        if stamp is None:
            raise LookupError(f"no match {match_id}")
        current = known
        if (stamp.version, aware(stamp.updated_at)) != (known.version, known.updated_at):
            row = session.get(MatchRow, match_id, populate_existing=True)
            assert row is not None  # locked above
            current = _to_data(row)
        outcome = work(current)
        if outcome is None:
            return False
        data, result = outcome
        values = {name: getattr(data, name) for name in _WRITTEN}
        connection.execute(_WRITE, {"match_id": match_id, **values})
        if result is not None:
            record_result(session, data.id, data.owner_token, result)
        return True


def save_clock(
    sessions: Sessions, match_id: str, elapsed_ms: int, running_since: datetime | None
) -> None:
    """The clock alone: starting or stopping it is not a change of the table's state."""
    with sessions.begin() as session:
        row = session.get(MatchRow, match_id)
        if row is not None:
            row.elapsed_ms = elapsed_ms
            row.running_since = running_since
