"""The JSON API of the game: the current match's record, a record's replay."""

from __future__ import annotations

import asyncio
import json
from typing import Any, Final

from fastapi import APIRouter, HTTPException, Request

from hearts.match import Phase
from hearts.record import RecordError, write_record
from hearts.server.replay import replay_frames
from hearts.server.routes.deps import ANY_API, ANY_POST, CurrentPlayer, RegistryDep, refusals

MAX_REPLAY_BYTES: Final = 2 * 1024 * 1024

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


@router.post("/replay", responses=refusals(400, *ANY_POST))
async def replay(request: Request) -> dict[str, Any]:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_REPLAY_BYTES:
            raise HTTPException(status_code=413, detail="A record is at most 2 MB")
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise HTTPException(status_code=400, detail="not JSON") from None
    try:
        return await asyncio.to_thread(replay_frames, data)
    except RecordError as error:
        raise HTTPException(status_code=400, detail=str(error)) from None
