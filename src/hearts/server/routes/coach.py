"""The coach's routes: a finished hand of the player's match, or any seat of a loaded record.

Never during a hand: while a hand of the player's match is in play, the
coach refuses (it is not a second hint).  A review of the player's match is
stored, so each finished hand and seat is analysed once.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request

from hearts.coach import hands_to_review
from hearts.match import Phase
from hearts.record import RecordError, read_record, write_record
from hearts.server.coaching import hand_review, up_to
from hearts.server.db import coach as stored
from hearts.server.routes.api import record_body
from hearts.server.routes.deps import (
    ANY_API,
    ANY_POST,
    CurrentPlayer,
    RegistryDep,
    ReplaysDep,
    SessionsDep,
    client_key,
    refusals,
)
from hearts.server.routes.deps import busy as busy_work
from hearts.server.work import Busy
from hearts.server.workers import CoachBusy, CoachPool
from hearts.suggest import check_seat

router = APIRouter(prefix="/api")


def coach_pool(request: Request) -> CoachPool:
    pool: CoachPool = request.app.state.coach
    return pool


async def run_review(
    pool: CoachPool, token: str, record: dict[str, Any], seat: int, hand: int
) -> dict[str, Any]:
    try:
        return await pool.review(token, up_to(record, hand), seat, hand)
    except CoachBusy as error:
        raise busy(error) from None


def busy(error: CoachBusy) -> HTTPException:
    return HTTPException(status_code=429, detail=str(error), headers={"Retry-After": "10"})


@router.get("/match/coach", responses=refusals(401, 404, 409, *ANY_API))
async def match_coach(
    request: Request,
    player: CurrentPlayer,
    registry: RegistryDep,
    sessions: SessionsDep,
    hand: Annotated[int | None, Query(ge=1, le=1000)] = None,
    table_code: Annotated[str | None, Query(alias="table", min_length=1, max_length=16)] = None,
) -> dict[str, Any]:
    """The player's decisions in a finished hand of their match (the last one by default).

    ``table`` names a shared table the player sits at; without it, their solo match.
    """
    if table_code is None:
        table = await registry.table_for(player.token)
    else:
        table = await registry.shared(table_code)
    if table is None:
        raise HTTPException(status_code=404, detail="No match yet")
    async with table.lock:
        match = table.match
        seat = table.seat_of(player.token) if table.shared else 0
        in_play = match.phase in (Phase.PASSING, Phase.PLAYING, Phase.MOON_CHOICE)
        finished = [result.number for result in match.results]
        record = write_record(match)
        match_id = table.data.id
    if seat is None:
        raise HTTPException(status_code=404, detail="You have no seat at this table")
    if in_play:
        raise HTTPException(
            status_code=409, detail="The coach waits until this hand is over: finish it first"
        )
    if hand is None:
        if not finished:
            raise HTTPException(status_code=409, detail="No hand has been finished yet")
        hand = finished[-1]
    if hand not in finished:
        raise HTTPException(status_code=404, detail=f"No finished hand {hand} in this match")
    try:
        return await hand_review(
            sessions, coach_pool(request), player.token, match_id, record, seat, hand
        )
    except CoachBusy as error:
        raise busy(error) from None


@router.post("/coach", responses=refusals(400, 401, 503, *ANY_POST))
async def record_coach(
    request: Request,
    player: CurrentPlayer,
    replays: ReplaysDep,
    seat: Annotated[int, Query(ge=0, le=3)],
    hand: Annotated[int, Query(ge=1, le=1000)],
) -> dict[str, Any]:
    """Any seat's decisions in a finished hand of a record sent as the body (the replay viewer)."""
    data = await record_body(request)
    try:
        check_seat(seat)
        # Reading a record is the replay's work: the same bounded thread, one per client.
        match = await replays.run(client_key(request), read_record, data, 0)
        hands_to_review(match, hand)
    except (RecordError, ValueError) as error:
        raise HTTPException(status_code=400, detail=str(error)) from None
    except Busy as error:
        raise busy_work(error) from None
    return await run_review(coach_pool(request), player.token, data, seat, hand)


@router.get("/stats/coach", responses=refusals(401, *ANY_API))
async def coach_stats(player: CurrentPlayer, sessions: SessionsDep) -> dict[str, Any]:
    """The player's accuracy per level of computers: overall, and for each recent match."""
    figures = await asyncio.to_thread(stored.accuracy_by_level, sessions, player.token)
    return {
        "levels": {
            level: {
                "hands": value.hands,
                "accuracy": round(value.accuracy, 1),
                "matches": [
                    {"day": day, "accuracy": round(accuracy, 1)} for day, accuracy in value.by_match
                ],
            }
            for level, value in figures.items()
        }
    }
