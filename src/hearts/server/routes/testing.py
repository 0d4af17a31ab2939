"""Test-only routes, present only with HEARTS_TEST_AUTOPLAY=1."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException

from hearts.server.routes.deps import CurrentPlayer, RegistryDep
from hearts.server.tables.seats import TableError

router = APIRouter(prefix="/api/test", include_in_schema=False)


@router.post("/autoplay")
async def autoplay(player: CurrentPlayer, registry: RegistryDep) -> dict[str, bool]:
    """A Normal bot plays the player's seat to the end of the current match, at its pace.

    The match itself is real (ranked unless Undo was used): it lets tests
    reach the end of a match in seconds.
    """
    table = await registry.table_for(player.token)
    if table is None:
        raise HTTPException(status_code=404, detail="No match yet")
    try:
        await table.autoplay(0)
    except TableError as error:
        raise HTTPException(status_code=409, detail=error.message) from None
    return {"ok": True}
