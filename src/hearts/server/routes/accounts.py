"""The session and accounts: who is playing, guests, sign up, sign in, sign out."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from hearts.server import accounts
from hearts.server.accounts import AccountError, Attempt
from hearts.server.db import players, store
from hearts.server.db.players import PlayerInfo, Sessions
from hearts.server.routes.deps import (
    ANY_API,
    ANY_POST,
    CurrentPlayer,
    OptionalPlayer,
    PasswordsDep,
    SessionsDep,
    busy,
    client_key,
    player_json,
    refusals,
)
from hearts.server.security import csrf_token
from hearts.server.work import Busy

router = APIRouter(prefix="/api")

_STATUS = {
    "bad_username": 400,
    "bad_password": 400,
    "name_taken": 409,
    "signed_in": 409,
    "wrong_credentials": 401,
    "throttled": 429,
}


class Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class GuestIn(Strict):
    token: str | None = Field(default=None, max_length=200)
    """A guest token kept by an earlier version of the page, to keep its saved match."""


class CredentialsIn(Strict):
    username: str = Field(max_length=64)
    password: str = Field(max_length=512)


class NewPasswordIn(Strict):
    current: str = Field(max_length=512)
    new: str = Field(max_length=512)


def _refuse(error: AccountError) -> HTTPException:
    headers = None if error.retry_after is None else {"Retry-After": str(error.retry_after)}
    return HTTPException(_STATUS.get(error.code, 400), detail=error.message, headers=headers)


async def _begin(request: Request, sessions: Sessions, info: PlayerInfo) -> dict[str, Any]:
    """A fresh session for ``info`` (a new CSRF token too); the answer to send back."""
    session = request.session
    old = session.get("sid")
    if isinstance(old, str):
        await asyncio.to_thread(players.end_session, sessions, old)
    session.clear()
    session["player"] = info.token
    if info.fingerprint is not None:
        session["auth"] = info.fingerprint
        session["sid"] = await asyncio.to_thread(players.begin_session, sessions, info.token)
    return {"player": player_json(info), "csrf": csrf_token(session)}


@router.get("/session", responses=refusals(*ANY_API))
async def current_session(request: Request, player: OptionalPlayer) -> dict[str, Any]:
    """The CSRF token to send with every change, and who this session plays as."""
    session = request.session
    if player is None:
        session.pop("player", None)
        session.pop("auth", None)
    today = datetime.now(UTC).date().isoformat()
    if session.get("seen") != today:
        session["seen"] = today  # a changed session is sent again: the cookie lives on
    return {"csrf": csrf_token(session), "player": player_json(player)}


@router.post("/guest", responses=refusals(400, *ANY_POST))
async def guest(
    request: Request, sessions: SessionsDep, player: OptionalPlayer, body: GuestIn | None = None
) -> dict[str, Any]:
    """Play as a guest: the session's player, or a new one (or the old page's, adopted)."""
    if player is None:
        token = body.token if body is not None else None
        if not token or not await asyncio.to_thread(players.is_guest, sessions, token):
            token = await asyncio.to_thread(store.create_guest, sessions)
        player = await asyncio.to_thread(players.player_info, sessions, token)
        if player is None:
            raise HTTPException(status_code=500, detail="The guest could not be made")
        request.session["player"] = player.token
        request.session.pop("auth", None)
    return {"player": player_json(player)}


@router.post("/account/signup", responses=refusals(400, 401, 409, 503, *ANY_POST))
async def sign_up(
    request: Request,
    body: CredentialsIn,
    sessions: SessionsDep,
    player: CurrentPlayer,
    passwords: PasswordsDep,
) -> dict[str, Any]:
    """The session's guest becomes an account: its saved match and statistics stay.

    Everything that can refuse it is checked before the password is hashed.
    """
    try:
        await asyncio.to_thread(
            accounts.check_sign_up, sessions, player.token, body.username, body.password
        )
        password_hash = await passwords.run(
            client_key(request), accounts.hash_password, body.password
        )
        info = await asyncio.to_thread(
            accounts.sign_up, sessions, player.token, body.username, password_hash
        )
    except AccountError as error:
        raise _refuse(error) from None
    except Busy as error:
        raise busy(error) from None
    return await _begin(request, sessions, info)


@router.post("/account/signin", responses=refusals(400, 401, 503, *ANY_POST))
async def sign_in(
    request: Request, body: CredentialsIn, sessions: SessionsDep, passwords: PasswordsDep
) -> dict[str, Any]:
    address = client_key(request)
    attempt = Attempt(body.username, body.password, address)
    try:
        info = await passwords.run(address, accounts.sign_in, sessions, attempt)
    except AccountError as error:
        raise _refuse(error) from None
    except Busy as error:
        raise busy(error) from None
    return await _begin(request, sessions, info)


@router.post("/account/password", responses=refusals(400, 401, 503, *ANY_POST))
async def change_password(
    request: Request,
    body: NewPasswordIn,
    sessions: SessionsDep,
    player: CurrentPlayer,
    passwords: PasswordsDep,
) -> dict[str, Any]:
    """A new password (the current one is asked for); every other session of the account ends."""
    if player.guest:
        raise HTTPException(status_code=401, detail="A guest has no password: sign up first")
    address = client_key(request)
    try:
        info = await passwords.run(
            address,
            accounts.change_password,
            sessions,
            player.token,
            body.current,
            body.new,
            address,
        )
    except AccountError as error:
        raise _refuse(error) from None
    except Busy as error:
        raise busy(error) from None
    keep = request.session.get("sid")
    await asyncio.to_thread(
        players.end_other_sessions, sessions, info.token, keep if isinstance(keep, str) else None
    )
    request.session["auth"] = info.fingerprint
    return {"player": player_json(info), "csrf": csrf_token(request.session)}


@router.post("/account/signout", responses=refusals(*ANY_POST))
async def sign_out(request: Request, sessions: SessionsDep) -> dict[str, Any]:
    """End this session on the server (a copied cookie opens nothing) and forget the player
    in this browser; the page then starts a new guest."""
    session_id = request.session.get("sid")
    if isinstance(session_id, str):
        await asyncio.to_thread(players.end_session, sessions, session_id)
    request.session.clear()
    return {"player": None, "csrf": csrf_token(request.session)}
