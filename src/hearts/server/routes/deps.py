"""Dependencies as Annotated aliases."""

from __future__ import annotations

import asyncio
import hashlib
import re
from typing import Annotated, Any, Final

from fastapi import Depends, HTTPException, Request
from pydantic import BaseModel

from hearts.server.db import players
from hearts.server.db.players import PlayerInfo, Sessions
from hearts.server.settings import Settings
from hearts.server.tables.registry import TableRegistry
from hearts.server.work import BoundedWork, Busy


def get_registry(request: Request) -> TableRegistry:
    registry: TableRegistry = request.app.state.registry
    return registry


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_passwords(request: Request) -> BoundedWork:
    work: BoundedWork = request.app.state.passwords
    return work


def get_replays(request: Request) -> BoundedWork:
    work: BoundedWork = request.app.state.replays
    return work


def get_sessions(request: Request) -> Sessions:
    registry: TableRegistry = request.app.state.registry
    return registry.env.sessions


RegistryDep = Annotated[TableRegistry, Depends(get_registry)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
SessionsDep = Annotated[Sessions, Depends(get_sessions)]
PasswordsDep = Annotated[BoundedWork, Depends(get_passwords)]
"""Where password hashes are computed: threads of their own, bounded per client."""
ReplaysDep = Annotated[BoundedWork, Depends(get_replays)]


def session_player_sync(sessions: Sessions, session: dict[str, Any]) -> PlayerInfo | None:
    """The player a session speaks for, if it still may.

    An account's session must carry the account's fingerprint (set at sign-in
    or sign-up): an old guest cookie of the same player does not.
    """
    token = session.get("player")
    if not isinstance(token, str):
        return None
    info = players.player_info(sessions, token)
    if info is None:
        return None
    if not info.guest:
        # An account needs its signed-in session, still open on the server: a
        # cookie copied before signing out (or before a new password) opens nothing.
        session_id = session.get("sid")
        if session.get("auth") != info.fingerprint or not isinstance(session_id, str):
            return None
        if not players.session_open(sessions, session_id, token):
            return None
    return info


async def session_player(sessions: Sessions, session: dict[str, Any]) -> PlayerInfo | None:
    return await asyncio.to_thread(session_player_sync, sessions, session)


async def get_player(request: Request, sessions: SessionsDep) -> PlayerInfo:
    info = await session_player(sessions, request.session)
    if info is None:
        raise HTTPException(status_code=401, detail="No player in this session: reload the page")
    return info


async def get_optional_player(request: Request, sessions: SessionsDep) -> PlayerInfo | None:
    return await session_player(sessions, request.session)


CurrentPlayer = Annotated[PlayerInfo, Depends(get_player)]
OptionalPlayer = Annotated[PlayerInfo | None, Depends(get_optional_player)]


def display_name(info: PlayerInfo) -> str:
    """The username, or for a guest "Guest" and four digits drawn from its token."""
    if info.name is not None:
        return info.name
    digits = int.from_bytes(hashlib.blake2b(info.token.encode(), digest_size=4).digest(), "big")
    return f"Guest {digits % 10000:04d}"


GUEST_NAME: Final = re.compile(r"Guest [0-9]{4}")
"""A guest's display name (usernames hold no space, so no account is named so)."""
SEAT_NAME_MAX: Final = 20


def seat_name(display: str, chosen: str | None) -> str:
    """The name shown at a shared table: an account's username; a guest's own
    choice when they gave one (spaces tidied, 1 to 20 printable characters),
    else their "Guest 0269". Raises ValueError with a sentence for the player."""
    if chosen is None or GUEST_NAME.fullmatch(display) is None:
        return display
    name = " ".join(chosen.split())
    if not name:
        return display
    if len(name) > SEAT_NAME_MAX:
        raise ValueError(f"A name at the table is at most {SEAT_NAME_MAX} characters")
    if not name.isprintable():
        raise ValueError("A name at the table may only hold letters, digits and punctuation")
    return name


def player_json(info: PlayerInfo | None) -> dict[str, Any] | None:
    if info is None:
        return None
    return {"name": info.name, "guest": info.guest, "ranking_points": info.ranking_points}


class Problem(BaseModel):
    """Every refusal: a sentence to show the player."""

    detail: str


_WHY: Final = {
    400: "The request is malformed or breaks a rule (the detail says which)",
    401: "This session has no player (load a page first) or the sign-in failed",
    403: "The X-CSRF-Token header is missing or is not this session's",
    404: "There is nothing of that kind yet",
    409: "Not now: the state does not allow it (the detail says why)",
    503: "The server is busy with this kind of work: try again (see Retry-After)",
    413: "The body is larger than this route accepts",
    429: "Too many requests or attempts: wait (see Retry-After) and try again",
}

ANY_API: Final = (429,)
"""What any /api request may be answered besides its own refusals (limits.Guard)."""
ANY_POST: Final = (403, 413, 429)
"""...and any POST (security.CsrfCheck, limits.Guard)."""


def client_key(request: Request) -> str:
    """Who a request comes from, for the bounds on expensive work: its address."""
    return request.client.host if request.client else "unknown"


def busy(error: Busy) -> HTTPException:
    """429 when this client already has such work in flight, 503 when everyone's is full."""
    status = 429 if error.mine else 503
    return HTTPException(status_code=status, detail=error.message, headers={"Retry-After": "1"})


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for a route: each refusal it may answer, for the OpenAPI schema."""
    return {
        status: {"model": Problem, "description": _WHY[status]} for status in sorted(set(statuses))
    }
