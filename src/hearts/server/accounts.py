"""Accounts: the username and password rules, Argon2id hashing, and sign-in throttling.

Synchronous (hashing takes tens of milliseconds on purpose); the routes run
these functions in a worker thread.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import timedelta
from functools import cache
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from hearts.server.db import players
from hearts.server.db.players import PlayerInfo, Sessions
from hearts.server.db.store import now

USERNAME_RULE: Final = (
    "A username has 3 to 20 characters: letters, digits, _ or -, starting with a letter or a digit"
)
_USERNAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{2,19}")
PASSWORD_MIN: Final = 8
PASSWORD_MAX: Final = 128

THROTTLE_WINDOW: Final = timedelta(minutes=15)
ACCOUNT_FAILURES: Final = 5
"""Failed sign-ins per username within the window before it is refused for a while."""
ADDRESS_FAILURES: Final = 20
"""Failed sign-ins per client address within the window."""

WRONG_CREDENTIALS: Final = "Wrong username or password"

_hasher: Final = PasswordHasher()
"""Argon2id with argon2-cffi's defaults (RFC 9106's low-memory profile)."""


class AccountError(Exception):
    """A refused account request: ``code`` for programs, ``message`` for people."""

    def __init__(self, code: str, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after


def check_username(username: str) -> str:
    if _USERNAME.fullmatch(username) is None:
        raise AccountError("bad_username", USERNAME_RULE)
    return username


def check_password(password: str) -> str:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise AccountError(
            "bad_password",
            f"A password has {PASSWORD_MIN} to {PASSWORD_MAX} characters",
        )
    return password


def hash_password(password: str) -> str:
    return _hasher.hash(password)


@cache
def _decoy_hash() -> str:
    """Verified against when the username is unknown, so both cases take as long."""
    return _hasher.hash(secrets.token_urlsafe(16))


def sign_up(sessions: Sessions, token: str, username: str, password: str) -> PlayerInfo:
    """Turn the guest ``token`` into an account named ``username``."""
    check_username(username)
    check_password(password)
    try:
        return players.sign_up(sessions, token, username, hash_password(password))
    except players.NameTaken:
        raise AccountError("name_taken", "That username is taken: try another") from None
    except players.AlreadySignedUp:
        raise AccountError("signed_in", "You already have an account: sign out first") from None


@dataclass(frozen=True)
class Attempt:
    username: str
    password: str
    address: str


def sign_in(sessions: Sessions, attempt: Attempt) -> PlayerInfo:
    """The account for a right username and password; every refusal says the same.

    Failures are counted per username (whether or not it exists) and per
    address; past either limit, sign-in is refused until the oldest failure
    leaves the window.
    """
    user_key = f"user:{attempt.username.lower()[:64]}"
    address_key = f"addr:{attempt.address[:100]}"
    moment = now()
    since = moment - THROTTLE_WINDOW
    failures = players.failures_since(sessions, [user_key, address_key], since)
    for key, limit in ((user_key, ACCOUNT_FAILURES), (address_key, ADDRESS_FAILURES)):
        if len(failures[key]) >= limit:
            free_at = failures[key][-limit] + THROTTLE_WINDOW
            wait = max(1, int((free_at - moment).total_seconds()) + 1)
            minutes = -(-wait // 60)
            raise AccountError(
                "throttled",
                f"Too many sign-in attempts. Try again in {minutes} minute"
                + ("s" if minutes != 1 else ""),
                retry_after=wait,
            )
    found = players.credentials(sessions, attempt.username)
    ok = _verify(found.password_hash if found else _decoy_hash(), attempt.password)
    if found is None or not ok:
        players.add_failure(sessions, [user_key, address_key], forget_before=since)
        raise AccountError("wrong_credentials", WRONG_CREDENTIALS)
    players.clear_failures(sessions, user_key)
    if _hasher.check_needs_rehash(found.password_hash):
        players.set_password_hash(sessions, found.token, hash_password(attempt.password))
    info = players.player_info(sessions, found.token)
    if info is None:
        raise AccountError("wrong_credentials", WRONG_CREDENTIALS)
    return info


def _verify(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False
