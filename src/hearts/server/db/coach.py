"""The coach's stored reviews: each finished hand and seat of a match is analysed once."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from hearts.server.db.models import CoachReview, MatchRow
from hearts.server.db.store import Sessions, aware, now


def hand_digest(record: dict[str, Any], hand: int) -> str:
    """A fingerprint of hand ``hand`` of ``record`` and the scores before it."""
    text = json.dumps(
        [record.get("rules", {}), record["hands"][:hand]], sort_keys=True, separators=(",", ":")
    )
    return hashlib.sha256(text.encode()).hexdigest()


def stored_review(
    sessions: Sessions, match_id: str, hand: int, seat: int, digest: str
) -> dict[str, Any] | None:
    """The review kept for this hand and seat, if it was made of the same hand."""
    with sessions() as session:
        row = session.get(CoachReview, (match_id, hand, seat))
        if row is None or row.hand_digest != digest:
            return None
        return dict(row.review)


def store_review(
    sessions: Sessions,
    match_id: str,
    hand: int,
    seat: int,
    digest: str,
    review: dict[str, Any],
    player: str | None = None,
) -> None:
    """Keep a review of ``player``'s seat (replacing one made of an earlier version of the hand)."""
    accuracy = review.get("accuracy")
    accuracy = float(accuracy) if isinstance(accuracy, int | float) else None
    with sessions() as session:
        row = session.get(CoachReview, (match_id, hand, seat))
        if row is None:
            session.add(
                CoachReview(
                    match_id=match_id,
                    hand=hand,
                    seat=seat,
                    hand_digest=digest,
                    player_token=player,
                    accuracy=accuracy,
                    review=review,
                    created_at=now(),
                )
            )
        else:
            row.hand_digest, row.review, row.created_at = digest, review, now()
            row.player_token, row.accuracy = player, accuracy
        try:
            session.commit()
        except IntegrityError:
            # Another server process stored the same review first: theirs stands.
            session.rollback()


@dataclass(frozen=True)
class LevelAccuracy:
    """A player's coach figures at one level of computers."""

    hands: int
    accuracy: float
    """Mean accuracy of the reviewed hands (hands with only forced plays left out)."""
    by_match: list[tuple[str, float]]
    """(day the match started, its mean accuracy) for the latest matches, oldest first."""


RECENT_MATCHES = 20


def accuracy_by_level(sessions: Sessions, player: str) -> dict[str, LevelAccuracy]:
    """The player's accuracy per level of computers, overall and match by match."""
    query = (
        select(MatchRow.level, MatchRow.id, MatchRow.created_at, CoachReview.accuracy)
        .join(MatchRow, MatchRow.id == CoachReview.match_id)
        .where(CoachReview.player_token == player, CoachReview.accuracy.is_not(None))
        .order_by(MatchRow.created_at, CoachReview.hand)
    )
    by_level: dict[str, dict[str, tuple[str, list[float]]]] = {}
    with sessions() as session:
        for level, match_id, created, accuracy in session.execute(query):
            matches = by_level.setdefault(level, {})
            day = (aware(created) or now()).date().isoformat()
            if accuracy is not None:
                matches.setdefault(match_id, (day, []))[1].append(float(accuracy))
    figures = {}
    for level, matches in by_level.items():
        every = [value for _, values in matches.values() for value in values]
        series = [(day, sum(v) / len(v)) for day, v in matches.values()][-RECENT_MATCHES:]
        figures[level] = LevelAccuracy(len(every), sum(every) / len(every), series)
    return figures
