"""Every message the browser may send, one typed shape per ``type`` (docs/protocol.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Level = Literal["easy", "normal", "expert"]
Pace = Literal["relaxed", "quick"]


class Intent(BaseModel):
    """Fields every message may carry. Types are strict: ``"3"`` is not a number."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    seq: int | None = None
    version: int | None = None


class Hello(Intent):
    """Follow the player's solo table, or the shared table ``table`` (its invite code).

    Who the player is comes from the session cookie.
    """

    type: Literal["hello"]
    table: str | None = Field(default=None, min_length=1, max_length=16)
    watch: bool = False
    """Only watch a shared table, even with a seat at it."""


class NewMatch(Intent):
    type: Literal["new_match"]
    level: Level
    abandon: bool = False


class SelectPass(Intent):
    type: Literal["select_pass"]
    cards: list[str] = Field(max_length=3)


class ConfirmPass(Intent):
    type: Literal["confirm_pass"]
    cards: list[str] = Field(min_length=3, max_length=3)


class Continue(Intent):
    type: Literal["continue"]


class Play(Intent):
    type: Literal["play"]
    card: str


class Undo(Intent):
    type: Literal["undo"]


class RestartHand(Intent):
    type: Literal["restart_hand"]


class Hint(Intent):
    type: Literal["hint"]
    accept_unranked: bool = False
    """In a ranked match the first hint must say it accepts that the match becomes unranked."""


class Claim(Intent):
    type: Literal["claim"]


class Pause(Intent):
    type: Literal["pause"]


class Resume(Intent):
    type: Literal["resume"]


class SetPace(Intent):
    type: Literal["set_pace"]
    pace: Pace


class NextHand(Intent):
    type: Literal["next_hand"]


class Sit(Intent):
    type: Literal["sit"]
    seat: int = Field(ge=0, le=3)
    name: str | None = Field(default=None, max_length=40)
    """A guest's name at this table (an account's username is used as it is)."""


class Stand(Intent):
    type: Literal["stand"]


class Start(Intent):
    type: Literal["start"]


class Leave(Intent):
    type: Literal["leave"]


class ChooseMoon(Intent):
    type: Literal["choose_moon"]
    style: Literal["add", "subtract"]
