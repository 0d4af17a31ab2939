"""Players and accounts: who a session is, signing up, and failed sign-ins."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from hearts.server.db.models import AuthFailure, Player
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


def add_failure(sessions: Sessions, keys: list[str], forget_before: datetime) -> None:
    """Note a failed sign-in under each key; forget failures older than ``forget_before``."""
    moment = now()
    with sessions.begin() as session:
        session.execute(delete(AuthFailure).where(AuthFailure.at < forget_before))
        for key in keys:
            session.add(AuthFailure(key=key, at=moment))


def clear_failures(sessions: Sessions, key: str) -> None:
    with sessions.begin() as session:
        session.execute(delete(AuthFailure).where(AuthFailure.key == key))
