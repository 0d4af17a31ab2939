"""Shared tables: create one (its rules, its computers, its name) and get the invite link."""

from __future__ import annotations

import unicodedata
from typing import Any, Literal

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, ConfigDict, Field

from hearts.rules import Rules, RulesError
from hearts.server.routes.deps import (
    ANY_POST,
    CurrentPlayer,
    RegistryDep,
    display_name,
    refusals,
    seat_name,
)
from hearts.server.tables.seats import TableError

router = APIRouter(prefix="/api")


class NewTable(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    name: str = Field(min_length=1, max_length=40)
    bot_level: Literal["easy", "normal", "expert"] = "normal"
    rules: dict[str, Any] = Field(default_factory=dict, max_length=10)
    """House rules that differ from the standard game (RULES.md); never ranked."""
    player_name: str | None = Field(default=None, max_length=40)
    """A guest creator's name at this table (an account's username is used as it is)."""


@router.post("/tables", responses=refusals(400, 401, *ANY_POST))
async def create_table(
    body: NewTable, player: CurrentPlayer, registry: RegistryDep
) -> dict[str, str]:
    """A table with the creator at South; empty seats are played by computers."""
    name = " ".join(body.name.split())
    if not name:
        raise HTTPException(status_code=400, detail="Give the table a name")
    if any(unicodedata.category(char).startswith("C") for char in name):
        # NUL, bidi overrides, zero-width and other invisible characters.
        raise HTTPException(
            status_code=400,
            detail="A table's name cannot hold control or invisible characters",
        )
    try:
        rules = Rules.from_dict(body.rules)
    except (RulesError, TypeError) as error:
        raise HTTPException(status_code=400, detail=f"Bad house rule: {error}") from None
    try:
        shown = seat_name(display_name(player), body.player_name)
    except ValueError as error:
        raise HTTPException(status_code=400, detail=str(error)) from None
    try:
        table = await registry.create_shared(player.token, shown, name, body.bot_level, rules)
    except TableError as error:
        raise HTTPException(status_code=400, detail=error.message) from None
    code = table.data.code or ""
    return {"code": code, "url": f"/t/{code}"}
