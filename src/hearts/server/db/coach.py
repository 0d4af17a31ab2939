"""The coach's stored reviews: each finished hand and seat of a match is analysed once."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from sqlalchemy.exc import IntegrityError

from hearts.server.db.models import CoachReview
from hearts.server.db.store import Sessions, now


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
    sessions: Sessions, match_id: str, hand: int, seat: int, digest: str, review: dict[str, Any]
) -> None:
    """Keep a review (replacing one made of an earlier version of the hand)."""
    with sessions() as session:
        row = session.get(CoachReview, (match_id, hand, seat))
        if row is None:
            session.add(
                CoachReview(
                    match_id=match_id,
                    hand=hand,
                    seat=seat,
                    hand_digest=digest,
                    review=review,
                    created_at=now(),
                )
            )
        else:
            row.hand_digest, row.review, row.created_at = digest, review, now()
        try:
            session.commit()
        except IntegrityError:
            # Another server process stored the same review first: theirs stands.
            session.rollback()
