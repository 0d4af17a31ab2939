"""The JSON API of the game: the current match's record, a record's replay."""

from __future__ import annotations

import json
from typing import Any, Final

from fastapi import APIRouter, HTTPException, Request

from hearts.match import Phase
from hearts.record import RecordError, write_record
from hearts.server.replay import replay_frames
from hearts.server.routes.deps import (
    ANY_API,
    ANY_POST,
    CurrentPlayer,
    RegistryDep,
    ReplaysDep,
    busy,
    client_key,
    refusals,
)
from hearts.server.work import Busy

MAX_REPLAY_BYTES: Final = 2 * 1024 * 1024
MAX_REPLAY_HANDS: Final = 200
"""A match to 100 points lasts 20 hands or so; even a long house-rule match stays far below."""

router = APIRouter(prefix="/api")


@router.get("/match/record", responses=refusals(401, 404, 409, *ANY_API))
async def match_record(player: CurrentPlayer, registry: RegistryDep) -> dict[str, Any]:
    """The current match as hearts-record/1, without the hand still in play (its hidden cards)."""
    table = await registry.table_for(player.token)
    if table is None:
        raise HTTPException(status_code=404, detail="No match yet")
    async with table.lock:
        match = table.match
        record = write_record(match, meta={"level": table.data.level, "match_id": table.data.id})
        if match.phase not in (Phase.HAND_OVER, Phase.MATCH_OVER):
            record["hands"].pop()
    if not record["hands"]:
        raise HTTPException(
            status_code=409,
            detail=(
                "Nothing to export yet: a record holds finished hands only, and the hand in "
                "play is left out because its record would show everyone's cards. "
                "Export again once this hand is over."
            ),
        )
    return record


async def record_body(request: Request) -> Any:
    """A record sent as the body (the replay page, the coach): at most 2 MB, JSON, and at
    most :data:`MAX_REPLAY_HANDS` hands; 413 or 400 with the reason otherwise."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_REPLAY_BYTES:
            raise HTTPException(status_code=413, detail="A record is at most 2 MB")
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise HTTPException(status_code=400, detail="not JSON") from None
    hands = data.get("hands") if isinstance(data, dict) else None
    if isinstance(hands, list) and len(hands) > MAX_REPLAY_HANDS:
        raise HTTPException(
            status_code=400,
            detail=f"Records of up to {MAX_REPLAY_HANDS} hands are read here; "
            f"this one has {len(hands)}",
        )
    return data


@router.post("/replay", responses=refusals(400, 503, *ANY_POST))
async def replay(request: Request, replays: ReplaysDep) -> dict[str, Any]:
    """The frames of a record's replay, worked out in the replays' own thread: at most one
    at a time per client, and records of at most 200 hands."""
    data = await record_body(request)
    try:
        return await replays.run(client_key(request), replay_frames, data)
    except RecordError as error:
        raise HTTPException(status_code=400, detail=str(error)) from None
    except Busy as error:
        raise busy(error) from None
