"""Statistics of the session's player, and the leaderboard."""

from __future__ import annotations

import asyncio
from dataclasses import asdict
from typing import Annotated, Any

from fastapi import APIRouter, Query

from hearts.server.db import results
from hearts.server.routes.deps import (
    ANY_API,
    CurrentPlayer,
    OptionalPlayer,
    SessionsDep,
    player_json,
    refusals,
)

router = APIRouter(prefix="/api")


@router.get("/stats", responses=refusals(401, *ANY_API))
async def stats(player: CurrentPlayer, sessions: SessionsDep) -> dict[str, Any]:
    """Per level and for all levels together; the rank when the player is on the board."""
    by_level = await asyncio.to_thread(results.player_stats, sessions, player.token)
    rank = None
    if not player.guest:
        board = await asyncio.to_thread(results.leaderboard, sessions, 1, player.token)
        rank = board.my_rank
    return {
        "player": {**(player_json(player) or {}), "rank": rank},
        "levels": {level: asdict(values) for level, values in by_level.items()},
    }


@router.get("/leaderboard", responses=refusals(*ANY_API))
async def leaderboard(
    sessions: SessionsDep,
    player: OptionalPlayer,
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
) -> dict[str, Any]:
    """Accounts by ranking points, 20 to a page; ``me`` says where the viewer stands."""
    viewer = None if player is None else player.token
    board = await asyncio.to_thread(results.leaderboard, sessions, page, viewer)
    return {
        "page": board.page,
        "pages": board.pages,
        "per_page": results.PER_PAGE,
        "total": board.total,
        "rows": [
            {
                "rank": row.rank,
                "name": row.name,
                "points": row.points,
                "best": row.best,
                "me": row.token == viewer,
            }
            for row in board.rows
        ],
        "me": (
            None
            if board.my_rank is None
            else {"rank": board.my_rank, "page": board.my_page, "points": board.my_points}
        ),
    }
