"""Sessions, CSRF and the WebSocket origin check.

Sessions are Starlette's signed cookies (itsdangerous): HttpOnly,
SameSite=Lax, and Secure when the request came over HTTPS.  The session
holds the player's token and a CSRF token; every request that changes
something must echo the CSRF token in the ``X-CSRF-Token`` header.
"""

from __future__ import annotations

import hmac
import os
import secrets
from pathlib import Path
from typing import Any, Final

from starlette.datastructures import Headers
from starlette.middleware.sessions import SessionMiddleware
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from hearts.server.db.session import sqlite_path
from hearts.server.settings import Settings

SESSION_COOKIE: Final = "hearts_session"
SESSION_MAX_AGE: Final = 180 * 24 * 3600
"""Half a year; the page refreshes the cookie once a day while it is used."""
CSRF_HEADER: Final = "X-CSRF-Token"
SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})


class DataFolderError(RuntimeError):
    """The data folder holds half of what it should: starting would lose data silently."""


def check_data_folder(settings: Settings) -> None:
    """Refuse to start when the session key and the SQLite database are not both there or
    both missing (a deleted database, a volume that did not mount, a lost key)."""
    database = sqlite_path(settings.db_url)
    if settings.secret_key or database is None:
        return  # the key is not a file here, or the database is not one
    key = settings.data_dir / "secret.key"
    if key.exists() and not database.exists():
        raise DataFolderError(
            f"The session key {key} exists but the database {database} does not: "
            "the database was moved or deleted, or its volume is not mounted. "
            f"Put the database back. To start afresh on purpose, delete {key} too "
            "(every account and match will be new)."
        )
    if database.exists() and not key.exists():
        raise DataFolderError(
            f"The database {database} exists but its session key {key} does not. "
            "Put the key back (it signs the players' session cookies), or set "
            "HEARTS_SECRET_KEY to a long random text (everyone will be signed out; "
            "accounts and matches stay)."
        )


def session_secret(settings: Settings) -> str:
    """HEARTS_SECRET_KEY, or a key made once and kept in the data folder.

    Several server processes must share one key: set HEARTS_SECRET_KEY for them.
    """
    if settings.secret_key:
        return settings.secret_key
    path = settings.data_dir / "secret.key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_private(path, secrets.token_urlsafe(48))
    return path.read_text(encoding="utf-8").strip()


def _write_private(path: Path, text: str) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return  # another process made it first: use theirs
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(text)


class SessionCookies:
    """Starlette's session middleware, Secure on HTTPS requests and not on plain HTTP."""

    def __init__(self, app: ASGIApp, secret_key: str) -> None:
        options: dict[str, Any] = {
            "secret_key": secret_key,
            "session_cookie": SESSION_COOKIE,
            "max_age": SESSION_MAX_AGE,
            "same_site": "lax",
        }
        self.plain = SessionMiddleware(app, https_only=False, **options)
        self.secure = SessionMiddleware(app, https_only=True, **options)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        secure = scope.get("scheme") in ("https", "wss")
        await (self.secure if secure else self.plain)(scope, receive, send)


def csrf_token(session: dict[str, Any]) -> str:
    """The session's CSRF token, made when missing."""
    token = session.get("csrf")
    if not isinstance(token, str) or not token:
        token = secrets.token_urlsafe(24)
        session["csrf"] = token
    return token


class CsrfCheck:
    """Refuse a state-changing request that does not carry the session's CSRF token.

    Middleware inside the session middleware, so the refusal comes before
    anything reads the request's body.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            expected = scope.get("session", {}).get("csrf")
            given = Headers(scope=scope).get(CSRF_HEADER, "")
            if (
                not isinstance(expected, str)
                or not expected
                or not hmac.compare_digest(expected.encode(), given.encode())
            ):
                refusal = JSONResponse(
                    {"detail": "Missing or wrong CSRF token: reload the page and try again"},
                    status_code=403,
                )
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


def origin_allowed(headers: Any, settings: Settings) -> bool:
    """Whether a WebSocket handshake comes from a page of this site (or an allowed origin)."""
    origin = headers.get("origin")
    if not origin:
        return False
    if origin in settings.allowed_origins:
        return True
    host = headers.get("host")
    return bool(host) and origin in (f"http://{host}", f"https://{host}")
