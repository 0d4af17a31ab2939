"""The tables: guests and their matches. Portable types only (SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Guest(Base):
    """A player without an account, known by a random token kept in the browser."""

    __tablename__ = "guests"

    token: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    current_match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The match Play continues (not a foreign key: the two tables point at each other)."""


class MatchRow(Base):
    """One solo match: everything needed to rebuild it exactly after a restart."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner_token: Mapped[str] = mapped_column(ForeignKey("guests.token"), index=True)
    level: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), index=True)
    """active, finished or abandoned (abandoned counts as a loss)."""
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The full hearts-record/1, hidden deals included: never sent as is."""
    seed: Mapped[int] = mapped_column(BigInteger)
    """Deals the hands after the record; never sent to a client."""
    pass_selections: Mapped[list[list[str]]] = mapped_column(JSON)
    """Each seat's unconfirmed pass choice, as card texts."""
    awaiting_continue: Mapped[bool] = mapped_column(Boolean, default=False)
    paused: Mapped[bool] = mapped_column(Boolean, default=False)
    pace: Mapped[str] = mapped_column(String(16))
    elapsed_ms: Mapped[int] = mapped_column(BigInteger, default=0)
    running_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    used_undo: Mapped[bool] = mapped_column(Boolean, default=False)
    ranked: Mapped[bool] = mapped_column(Boolean, default=True)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
