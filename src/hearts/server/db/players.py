"""Players and accounts: who a session is, signing up, and failed sign-ins."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from hearts.server.db.models import AuthFailure, AuthSession, Player
from hearts.server.db.store import aware, now

Sessions = sessionmaker[Session]


@dataclass(frozen=True)
class PlayerInfo:
    token: str
    name: str | None
    """The username; None for a guest."""
    ranking_points: int
    fingerprint: str | None = None
    """A digest of the password hash, kept in the session of a signed-in account.

    A session without it (say, a guest cookie from before the sign-up) is no
    longer that player's; a new password ends every other session.
    """

    @property
    def guest(self) -> bool:
        return self.name is None


class NameTaken(Exception):
    """Another account has this username (in any case)."""


class AlreadySignedUp(Exception):
    """This player already has an account."""


def _info(row: Player) -> PlayerInfo:
    fingerprint = None
    if row.password_hash is not None:
        digest = hashlib.blake2b(row.password_hash.encode(), digest_size=12)
        fingerprint = digest.hexdigest()
    return PlayerInfo(row.token, row.username, row.ranking_points, fingerprint)


def player_info(sessions: Sessions, token: str) -> PlayerInfo | None:
    with sessions() as session:
        row = session.get(Player, token)
        return None if row is None else _info(row)


def check_sign_up(sessions: Sessions, token: str, username: str) -> None:
    """Raise what :func:`sign_up` would (before anyone pays for a password hash)."""
    with sessions() as session:
        row = session.get(Player, token)
        if row is None:
            raise LookupError("no such player")
        if row.username is not None:
            raise AlreadySignedUp
        taken = session.scalar(
            select(func.count()).select_from(Player).where(Player.username_key == username.lower())
        )
        if taken:
            raise NameTaken


def sign_up(sessions: Sessions, token: str, username: str, password_hash: str) -> PlayerInfo:
    """Give the guest ``token`` an account: its match and statistics stay with it."""
    try:
        with sessions.begin() as session:
            row = session.get(Player, token, with_for_update=True)
            if row is None:
                raise LookupError("no such player")
            if row.username is not None:
                raise AlreadySignedUp
            row.username = username
            row.username_key = username.lower()
            row.password_hash = password_hash
            row.signed_up_at = now()
            session.flush()
            return _info(row)
    except IntegrityError:
        raise NameTaken from None  # the unique index on username_key said no


@dataclass(frozen=True)
class Credentials:
    token: str
    password_hash: str


def credentials(sessions: Sessions, username: str) -> Credentials | None:
    """The account named ``username`` in any case, if there is one."""
    with sessions() as session:
        row = session.scalars(select(Player).where(Player.username_key == username.lower())).first()
        if row is None or row.password_hash is None:
            return None
        return Credentials(row.token, row.password_hash)


def set_password_hash(sessions: Sessions, token: str, password_hash: str) -> None:
    """Store a rehashed password (when the hashing parameters have grown)."""
    with sessions.begin() as session:
        row = session.get(Player, token)
        if row is not None:
            row.password_hash = password_hash


def is_guest(sessions: Sessions, token: str) -> bool:
    """Whether ``token`` is a player without an account."""
    with sessions() as session:
        row = session.get(Player, token)
        return row is not None and row.username is None


# --- failed sign-ins -------------------------------------------------------


def failures_since(
    sessions: Sessions, keys: list[str], since: datetime
) -> dict[str, list[datetime]]:
    """For each key, the moments of its failures after ``since``, oldest first."""
    with sessions() as session:
        rows = session.execute(
            select(AuthFailure.key, AuthFailure.at)
            .where(AuthFailure.key.in_(keys), AuthFailure.at > since)
            .order_by(AuthFailure.at)
        ).all()
    found: dict[str, list[datetime]] = {key: [] for key in keys}
    for key, at in rows:
        found[key].append(aware(at) or at)
    return found


def reserve_failures(
    sessions: Sessions, limits: dict[str, int], since: datetime
) -> tuple[list[int], str | None]:
    """Write a sign-in attempt down as a failure under each key *before* checking it.

    Returns the rows written and the first key that now holds more failures
    since ``since`` than its limit (None if none does). Counted after the
    rows are committed, so attempts made at once see each other: however
    many arrive together, no more than the limit get past.
    """
    moment = now()
    with sessions.begin() as session:
        session.execute(delete(AuthFailure).where(AuthFailure.at < since))
        rows = [AuthFailure(key=key, at=moment) for key in limits]
        session.add_all(rows)
        session.flush()
        ids = [row.id for row in rows]
    with sessions() as session:
        for key, limit in limits.items():
            count = session.scalar(
                select(func.count())
                .select_from(AuthFailure)
                .where(AuthFailure.key == key, AuthFailure.at > since)
            )
            if (count or 0) > limit:
                return ids, key
    return ids, None


def forget_failures(sessions: Sessions, ids: list[int]) -> None:
    """Take back failures written in advance (the attempt was refused unchecked, or was right)."""
    with sessions.begin() as session:
        session.execute(delete(AuthFailure).where(AuthFailure.id.in_(ids)))


def clear_failures(sessions: Sessions, key: str) -> None:
    with sessions.begin() as session:
        session.execute(delete(AuthFailure).where(AuthFailure.key == key))


# --- signed-in sessions ----------------------------------------------------


def begin_session(sessions: Sessions, token: str) -> str:
    """A new signed-in session of the account ``token``: its id, kept in the cookie."""
    session_id = secrets.token_urlsafe(24)
    with sessions.begin() as session:
        session.add(AuthSession(id=session_id, player_token=token, created_at=now()))
    return session_id


def session_open(sessions: Sessions, session_id: str, token: str) -> bool:
    """Whether the signed-in session ``session_id`` of ``token`` has not been ended."""
    with sessions() as session:
        row = session.get(AuthSession, session_id)
        return row is not None and row.player_token == token


def end_session(sessions: Sessions, session_id: str) -> None:
    """Sign out: the session ends wherever its cookie was copied."""
    with sessions.begin() as session:
        session.execute(delete(AuthSession).where(AuthSession.id == session_id))


def end_other_sessions(sessions: Sessions, token: str, keep: str | None) -> int:
    """End every signed-in session of ``token`` but ``keep``; how many ended."""
    with sessions.begin() as session:
        query = delete(AuthSession).where(AuthSession.player_token == token)
        if keep is not None:
            query = query.where(AuthSession.id != keep)
        result = session.execute(query)
        return int(getattr(result, "rowcount", 0) or 0)
