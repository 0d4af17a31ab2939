"""The coach in the server: a stored review, or a new one made in the coach's worker.

Used by the route that shows a player their review and by the table, which
asks for every person's review as soon as a hand ends (so it is ready when
they look, and the statistics can count it).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from hearts.server.db import coach as stored
from hearts.server.db.store import Sessions
from hearts.server.workers import CoachBusy, CoachPool

log = logging.getLogger(__name__)


def up_to(record: dict[str, Any], hand: int) -> dict[str, Any]:
    """The record's first ``hand`` hands: what the coach needs, and nothing after."""
    kept = {key: value for key, value in record.items() if key not in ("hands", "result")}
    kept["hands"] = record["hands"][:hand]
    return kept


async def hand_review(
    sessions: Sessions,
    pool: CoachPool,
    player: str,
    match_id: str,
    record: dict[str, Any],
    seat: int,
    hand: int,
) -> dict[str, Any]:
    """``seat``'s review of finished ``hand`` of the match: stored, or made now and stored.

    Raises :class:`CoachBusy` when the coach cannot take it now.
    """
    record = up_to(record, hand)
    digest = stored.hand_digest(record, hand)
    review = await asyncio.to_thread(stored.stored_review, sessions, match_id, hand, seat, digest)
    if review is None:
        key = (match_id, hand, seat, digest)
        review = await pool.review(player, record, seat, hand, key=key)
        await asyncio.to_thread(
            stored.store_review, sessions, match_id, hand, seat, digest, review, player
        )
    return review


async def review_in_background(
    sessions: Sessions,
    pool: CoachPool,
    player: str,
    match_id: str,
    record: dict[str, Any],
    seat: int,
    hand: int,
) -> None:
    """:func:`hand_review` after a hand ends; if the coach is busy, the review waits until asked."""
    try:
        await hand_review(sessions, pool, player, match_id, record, seat, hand)
    except CoachBusy:
        log.info("coach busy: hand %s of match %s is reviewed when asked", hand, match_id)
    except Exception:
        log.exception("the coach failed on hand %s of match %s", hand, match_id)
