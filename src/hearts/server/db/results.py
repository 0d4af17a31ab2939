"""Results, statistics and the leaderboard.

A result row is keyed by its match, so the database itself refuses to count
a match twice: :func:`record_result` inserts it first, inside a savepoint,
and moves statistics and ranking points only when that insert succeeds.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

from sqlalchemy import ColumnElement, and_, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from hearts.server.db.models import MatchResult, Player, PlayerStats
from hearts.server.results import Outcome

Sessions = sessionmaker[Session]

LEVELS: Final = ("easy", "normal", "expert")
ALL: Final = "all"
"""The statistics row that sums every level."""
PER_PAGE: Final = 20


def record_result(session: Session, match_id: str, token: str, result: Outcome) -> bool:
    """Count ``result`` for the player, once: False when the match was already counted."""
    try:
        with session.begin_nested():
            session.add(
                MatchResult(
                    match_id=match_id,
                    player_token=token,
                    level=result.level,
                    status=result.status,
                    won=result.won,
                    ranked=result.ranked,
                    final_score=result.final_score,
                    hands=result.hands,
                    points=result.points,
                    moons=result.moons,
                    queens=result.queens,
                    ranking_points=result.ranking_points,
                    recorded_at=datetime.now(UTC),
                )
            )
    except IntegrityError:
        return False
    for level in (result.level, ALL):
        _add(_stats_row(session, token, level), result)
    if result.ranking_points:
        session.execute(
            update(Player)
            .where(Player.token == token)
            .values(ranking_points=Player.ranking_points + result.ranking_points)
        )
    return True


def _stats_row(session: Session, token: str, level: str) -> PlayerStats:
    """The player's row at ``level``, locked for this transaction (made when missing)."""
    key = (token, level)
    row = session.get(PlayerStats, key, with_for_update=True)
    if row is not None:
        return row
    try:
        with session.begin_nested():
            session.add(
                PlayerStats(
                    player_token=token,
                    level=level,
                    played=0,
                    won=0,
                    finished=0,
                    final_score_sum=0,
                    best_winning_total=None,
                    hands=0,
                    points=0,
                    moons=0,
                    queens=0,
                    current_streak=0,
                    best_streak=0,
                )
            )
    except IntegrityError:
        pass  # made meanwhile by another transaction: lock that one
    row = session.get(PlayerStats, key, with_for_update=True, populate_existing=True)
    if row is None:
        raise LookupError(f"no statistics row for {level}")
    return row


def _add(row: PlayerStats, result: Outcome) -> None:
    row.played += 1
    row.hands += result.hands
    row.points += result.points
    row.moons += result.moons
    row.queens += result.queens
    if result.final_score is not None:
        row.finished += 1
        row.final_score_sum += result.final_score
    if result.won:
        row.won += 1
        row.current_streak += 1
        row.best_streak = max(row.best_streak, row.current_streak)
        if result.final_score is not None and (
            row.best_winning_total is None or result.final_score < row.best_winning_total
        ):
            row.best_winning_total = result.final_score
    else:
        row.current_streak = 0


# --- reading ---------------------------------------------------------------


@dataclass(frozen=True)
class Stats:
    """One level's statistics as a player sees them."""

    played: int = 0
    won: int = 0
    win_rate: float | None = None
    average_final_score: float | None = None
    best_winning_total: int | None = None
    hands: int = 0
    average_points_per_hand: float | None = None
    moons: int = 0
    queens: int = 0
    current_streak: int = 0
    best_streak: int = 0


def _stats(row: PlayerStats | None) -> Stats:
    if row is None:
        return Stats()
    return Stats(
        played=row.played,
        won=row.won,
        win_rate=row.won / row.played if row.played else None,
        average_final_score=row.final_score_sum / row.finished if row.finished else None,
        best_winning_total=row.best_winning_total,
        hands=row.hands,
        average_points_per_hand=row.points / row.hands if row.hands else None,
        moons=row.moons,
        queens=row.queens,
        current_streak=row.current_streak,
        best_streak=row.best_streak,
    )


def player_stats(sessions: Sessions, token: str) -> dict[str, Stats]:
    """The player's statistics by level, and ``all`` for every level together."""
    with sessions() as session:
        rows = session.scalars(select(PlayerStats).where(PlayerStats.player_token == token))
        by_level = {row.level: row for row in rows}
    return {level: _stats(by_level.get(level)) for level in (*LEVELS, ALL)}


def result_of(sessions: Sessions, match_id: str) -> MatchResult | None:
    with sessions() as session:
        return session.get(MatchResult, match_id)


@dataclass(frozen=True)
class BoardRow:
    rank: int
    name: str
    points: int
    best: dict[str, int | None]
    token: str


@dataclass(frozen=True)
class Board:
    page: int
    pages: int
    total: int
    rows: list[BoardRow]
    my_rank: int | None
    my_page: int | None
    my_points: int | None


def _on_board() -> ColumnElement[bool]:
    """Who is on the leaderboard: accounts that have played at least one match."""
    return and_(
        Player.username_key.is_not(None),
        PlayerStats.player_token == Player.token,
        PlayerStats.level == ALL,
        PlayerStats.played > 0,
    )


def leaderboard(sessions: Sessions, page: int, viewer: str | None) -> Board:
    """One page of accounts by ranking points (ties share a rank), and where ``viewer`` stands."""
    with sessions() as session:
        where = _on_board()
        total = session.scalar(select(func.count()).select_from(Player, PlayerStats).where(where))
        total = total or 0
        pages = max(1, -(-total // PER_PAGE))
        rank = func.rank().over(order_by=Player.ranking_points.desc()).label("rank")
        query = (
            select(Player.token, Player.username, Player.ranking_points, rank)
            .select_from(Player, PlayerStats)
            .where(where)
            .order_by(Player.ranking_points.desc(), Player.username_key)
            .offset((page - 1) * PER_PAGE)
            .limit(PER_PAGE)
        )
        found = session.execute(query).all()
        tokens = [row.token for row in found]
        best: dict[str, dict[str, int | None]] = {token: dict.fromkeys(LEVELS) for token in tokens}
        if tokens:
            for stats in session.scalars(
                select(PlayerStats).where(
                    PlayerStats.player_token.in_(tokens), PlayerStats.level.in_(LEVELS)
                )
            ):
                best[stats.player_token][stats.level] = stats.best_winning_total
        rows = [
            BoardRow(
                rank=int(row.rank),
                name=row.username or "",
                points=row.ranking_points,
                best=best[row.token],
                token=row.token,
            )
            for row in found
        ]
        my_rank = my_page = my_points = None
        me = None if viewer is None else session.get(Player, viewer)
        mine = None if me is None else session.get(PlayerStats, (me.token, ALL))
        if me is not None and me.username_key is not None and mine is not None and mine.played:
            ahead = session.scalar(
                select(func.count())
                .select_from(Player, PlayerStats)
                .where(where, Player.ranking_points > me.ranking_points)
            )
            before = session.scalar(
                select(func.count())
                .select_from(Player, PlayerStats)
                .where(
                    where,
                    or_(
                        Player.ranking_points > me.ranking_points,
                        and_(
                            Player.ranking_points == me.ranking_points,
                            Player.username_key < me.username_key,
                        ),
                    ),
                )
            )
            my_rank = (ahead or 0) + 1
            my_page = (before or 0) // PER_PAGE + 1
            my_points = me.ranking_points
    return Board(page, pages, total, rows, my_rank, my_page, my_points)
