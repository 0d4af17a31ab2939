"""Accounts: the username and password rules, Argon2id hashing, and sign-in throttling.

Synchronous (hashing takes tens of milliseconds on purpose); the routes run
what hashes in the passwords' own bounded threads (:mod:`hearts.server.work`)
and check everything that needs no hash first.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import timedelta
from functools import cache
from pathlib import Path
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


COMMON_PASSWORDS: Final = Path(__file__).parent / "common-passwords.txt"


@cache
def _common_passwords() -> frozenset[str]:
    lines = COMMON_PASSWORDS.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def check_password(password: str, username: str = "") -> str:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise AccountError(
            "bad_password",
            f"A password has {PASSWORD_MIN} to {PASSWORD_MAX} characters",
        )
    lowered = password.lower()
    if lowered in _common_passwords() or (username and lowered == username.lower()):
        raise AccountError(
            "bad_password", "That password is one of the first that anyone would try: pick another"
        )
    return password


def hash_password(password: str) -> str:
    return _hasher.hash(password)


@cache
def _decoy_hash() -> str:
    """Verified against when the username is unknown, so both cases take as long."""
    return _hasher.hash(secrets.token_urlsafe(16))


def check_sign_up(sessions: Sessions, token: str, username: str, password: str) -> None:
    """Everything that can refuse a sign-up without hashing: the rules, the name, the player."""
    check_username(username)
    check_password(password, username)
    try:
        players.check_sign_up(sessions, token, username)
    except players.NameTaken:
        raise AccountError("name_taken", "That username is taken: try another") from None
    except players.AlreadySignedUp:
        raise AccountError("signed_in", "You already have an account: sign out first") from None


def sign_up(sessions: Sessions, token: str, username: str, password_hash: str) -> PlayerInfo:
    """Turn the guest ``token`` into an account named ``username`` (checked and hashed before)."""
    try:
        return players.sign_up(sessions, token, username, password_hash)
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
    leaves the window. The count is taken before the password is checked:
    each attempt is first written down as a failure, and one that finds more
    than the limit already written is refused without a hash, so attempts
    made at the same moment cannot slip past the limit together.
    """
    user_key = f"user:{attempt.username.lower()[:64]}"
    address_key = f"addr:{attempt.address[:100]}"
    moment = now()
    since = moment - THROTTLE_WINDOW
    limits = {user_key: ACCOUNT_FAILURES, address_key: ADDRESS_FAILURES}
    reserved, over = players.reserve_failures(sessions, limits, since)
    if over is not None:
        players.forget_failures(sessions, reserved)
        failures = players.failures_since(sessions, [over], since)[over]
        limit = limits[over]
        oldest = failures[-limit] if len(failures) >= limit else moment
        wait = max(1, int((oldest + THROTTLE_WINDOW - moment).total_seconds()) + 1)
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
        raise AccountError("wrong_credentials", WRONG_CREDENTIALS)  # the failure stays written
    players.forget_failures(sessions, reserved)
    players.clear_failures(sessions, user_key)
    if _hasher.check_needs_rehash(found.password_hash):
        players.set_password_hash(sessions, found.token, hash_password(attempt.password))
    info = players.player_info(sessions, found.token)
    if info is None:
        raise AccountError("wrong_credentials", WRONG_CREDENTIALS)
    return info


def change_password(
    sessions: Sessions, token: str, current: str, new_password: str, address: str
) -> PlayerInfo:
    """A new password for the account ``token`` once its current one is given (checked and
    throttled as a sign-in); the caller ends the account's other sessions."""
    info = players.player_info(sessions, token)
    if info is None or info.name is None:
        raise AccountError("wrong_credentials", "Sign in first")
    check_password(new_password, info.name)
    sign_in(sessions, Attempt(info.name, current, address))
    players.set_password_hash(sessions, token, hash_password(new_password))
    changed = players.player_info(sessions, token)
    if changed is None:
        raise AccountError("wrong_credentials", "Sign in first")
    return changed


def _verify(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False
