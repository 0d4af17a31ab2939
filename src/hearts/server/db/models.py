"""The tables: players (guests and accounts), their matches, results and statistics.

Portable types only (SQLite and PostgreSQL).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Player(Base):
    """Someone who plays: a guest, or an account once they sign up.

    Signing up fills in the account columns of the guest's own row, so the
    saved match and the statistics stay where they are.
    """

    __tablename__ = "players"

    token: Mapped[str] = mapped_column(String(64), primary_key=True)
    """Random; kept only in the signed session cookie."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    current_match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The match Play continues (not a foreign key: the two tables point at each other)."""
    username: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """As typed at sign-up; None for a guest."""
    username_key: Mapped[str | None] = mapped_column(
        String(32), nullable=True, unique=True, index=True
    )
    """The username in lower case: the database keeps names unique regardless of case."""
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    signed_up_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    ranking_points: Mapped[int] = mapped_column(Integer, default=0)


class MatchRow(Base):
    """One match, solo or at a shared table: everything needed to rebuild it exactly."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner_token: Mapped[str] = mapped_column(ForeignKey("players.token"), index=True)
    """The solo player, or the person who created the shared table."""
    level: Mapped[str] = mapped_column(String(16))
    """The computers' level."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    """seating (a shared table before its start), active, finished or abandoned (a loss)."""
    kind: Mapped[str] = mapped_column(String(16), default="solo")
    """solo, or shared (a table with other people, reached by its code)."""
    code: Mapped[str | None] = mapped_column(String(16), nullable=True, unique=True, index=True)
    """A shared table's invite code."""
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """A shared table's name."""
    seats: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)
    """A shared table's four seats: who sits there and whether they are away (tables/seats.py)."""
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
    used_hint: Mapped[bool] = mapped_column(Boolean, default=False)
    """A hint was asked for: the match is unranked."""
    ranked: Mapped[bool] = mapped_column(Boolean, default=True)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class MatchResult(Base):
    """How a finished or abandoned match went for its player.

    Its primary key is the match: a second result for the same match is
    refused by the database, so statistics and ranking points move once.
    """

    __tablename__ = "match_results"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    player_token: Mapped[str] = mapped_column(ForeignKey("players.token"), index=True)
    level: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16))
    """finished or abandoned."""
    won: Mapped[bool] = mapped_column(Boolean)
    ranked: Mapped[bool] = mapped_column(Boolean)
    final_score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The player's total at the end; None for an abandoned match."""
    hands: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)
    moons: Mapped[int] = mapped_column(Integer)
    queens: Mapped[int] = mapped_column(Integer)
    ranking_points: Mapped[int] = mapped_column(Integer)
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PlayerStats(Base):
    """Running statistics of one player at one level ("all" sums every level)."""

    __tablename__ = "player_stats"

    player_token: Mapped[str] = mapped_column(ForeignKey("players.token"), primary_key=True)
    level: Mapped[str] = mapped_column(String(16), primary_key=True)
    played: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)
    finished: Mapped[int] = mapped_column(Integer, default=0)
    """Matches played to the end: the average final score is over these."""
    final_score_sum: Mapped[int] = mapped_column(Integer, default=0)
    best_winning_total: Mapped[int | None] = mapped_column(Integer, nullable=True)
    hands: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[int] = mapped_column(Integer, default=0)
    moons: Mapped[int] = mapped_column(Integer, default=0)
    queens: Mapped[int] = mapped_column(Integer, default=0)
    current_streak: Mapped[int] = mapped_column(Integer, default=0)
    best_streak: Mapped[int] = mapped_column(Integer, default=0)


class CoachReview(Base):
    """The coach's review of one seat in one finished hand of a match, computed once.

    ``hand_digest`` fingerprints the hand as it was reviewed: an undo before
    the next hand can change a finished hand, and its review is then redone.
    """

    __tablename__ = "coach_reviews"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    hand: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_digest: Mapped[str] = mapped_column(String(64))
    player_token: Mapped[str | None] = mapped_column(
        ForeignKey("players.token"), nullable=True, index=True
    )
    """The person whose decisions these were (None for a seat a bot played)."""
    accuracy: Mapped[float | None] = mapped_column(Float, nullable=True)
    """The hand's accuracy (None when every play was forced): the statistics' series."""
    review: Mapped[dict[str, Any]] = mapped_column(JSON)
    """:meth:`hearts.coach.HandReview.to_json`."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AuthFailure(Base):
    """A failed sign-in, kept for a while to throttle guessing (by account and by address)."""

    __tablename__ = "auth_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(128), index=True)
    """``user:<username in lower case>`` or ``addr:<client address>``."""
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class AuthSession(Base):
    """A signed-in session of an account, so that signing out ends it everywhere.

    The session cookie carries the id; a cookie whose id is gone (signed out,
    or the password changed since) no longer opens the account.
    """

    __tablename__ = "auth_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_token: Mapped[str] = mapped_column(ForeignKey("players.token"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
