"""Who acts when no person does: the computers, the next-hand timer, the grace period.

One :class:`Turns` per table. After every change the table asks it to look
again (:meth:`Turns.schedule`): a computer that owes a decision thinks on its
own seat's view only, waits for the pace, and applies the decision through
the table's one way of changing (:meth:`Table.change`), dropped if the table
moved on meanwhile. A disconnected person's seat is played by a bot once the
grace period is over (:meth:`Turns.schedule_grace`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Iterable
from datetime import timedelta
from typing import TYPE_CHECKING

from hearts.bots import Decision
from hearts.match import Phase
from hearts.server.db.store import now
from hearts.server.tables.pacing import bot_delay, next_hand_delay
from hearts.server.tables.seats import Place, TableError
from hearts.view import SeatView

if TYPE_CHECKING:
    from hearts.server.tables.table import Table

log = logging.getLogger(__name__)


class Turns:
    """The computers and the timers of one table."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.next_hand_at: float | None = None
        """When a shared table deals the next hand by itself (event loop time)."""
        self._bots: asyncio.Task[None] | None = None
        self._grace: asyncio.Task[None] | None = None

    def due(self) -> tuple[list[int], float] | None:
        """The bot seats that owe a decision now, and how long to wait before acting.

        An empty list of seats means "press on": Continue or the next hand.
        """
        table = self.table
        data, match, scale = table.data, table.match, table.env.pace_scale
        if data.status != "active" or data.paused:
            return None
        if table.shared and not table.has_listeners():
            return None  # nobody is at the table: the computers do not play on alone
        if match.phase is Phase.HAND_OVER and table.shared:
            return [], next_hand_delay(data.pace, scale)
        if table.autoplaying and (data.awaiting_continue or match.phase is Phase.HAND_OVER):
            return [], bot_delay(data.pace, False, scale)
        if data.awaiting_continue:
            return None
        if match.phase is Phase.PASSING:
            # Bots pass at once: their passes are hidden anyway.
            seats = [s for s in match.waiting_for() if table.seats[s].is_bot]
            return (seats, 0.0) if seats else None
        turn = match.turn
        if turn is None or not table.seats[turn].is_bot:
            return None
        state = match.play_state
        after_trick = state is not None and state.trick_count == 0 and state.tricks_played > 0
        return [turn], bot_delay(data.pace, after_trick, scale)

    def schedule(self, *, follower: bool = False) -> None:
        """Let the bots (or the next-hand timer) act after their delay.

        A ``follower`` (a process that only saw another process's change)
        waits longer: it acts only if the process that made the change did
        not (it stopped, say). Both acting is harmless: the second finds the
        version moved and drops its decision.
        """
        task = self._bots
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        self._bots = None
        self.next_hand_at = None
        due = self.due()
        if due is None:
            return
        seats, delay = due
        loop = asyncio.get_running_loop()
        if not seats and self.table.shared:
            self.next_hand_at = loop.time() + delay
        if follower:
            delay += 3.0
        views = [(seat, self.bot_level(seat), self.table.match.view(seat)) for seat in seats]
        self._bots = asyncio.create_task(self._run(self.table.data.version, views, delay))

    async def _run(
        self, version: int, views: list[tuple[int, str, SeatView]], delay: float
    ) -> None:
        loop = asyncio.get_running_loop()
        started = loop.time()
        jobs = [
            self.table.env.pool.decide(level, view, self.seed(seat)) for seat, level, view in views
        ]
        try:
            decisions = await asyncio.gather(*jobs)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a bot failed to decide at table %s", self.table.data.id)
            return
        wait = delay - (loop.time() - started)
        if wait > 0:
            await asyncio.sleep(wait)
        seats = [seat for seat, _, _ in views]
        # A TableError: the table moved on meanwhile (undo, pause); the decision is dropped.
        with contextlib.suppress(TableError):
            if seats:
                await self.table.change(
                    version,
                    lambda: self._apply(version, zip(seats, decisions, strict=True)),
                    finished_too=False,
                )
            else:
                await self.table.change(version, lambda: self._press_on(version))

    def _check_version(self, version: int) -> None:
        """A bot's decision holds only for the version it was made for (also at shared tables)."""
        if self.table.data.version != version:
            raise TableError("stale", "The table moved on")

    def _apply(self, version: int, decisions: Iterable[tuple[int, Decision]]) -> None:
        self._check_version(version)
        for seat, decision in decisions:
            if not self.table.seats[seat].is_bot:
                raise TableError("stale", "The person is back")
            if decision.kind == "pass":
                self.table.match.confirm_pass(seat, decision.cards)
            elif decision.kind == "play":
                self.table.match.play(decision.cards[0], seat)
            elif decision.moon is not None:
                self.table.match.choose_moon(seat, decision.moon)

    def _press_on(self, version: int) -> None:
        """Continue after the pass (autoplay), or the next hand (autoplay, shared tables)."""
        self._check_version(version)
        if self.table.data.awaiting_continue:
            self.table.data.awaiting_continue = False
        elif self.table.match.phase is Phase.HAND_OVER:
            self.table.match.next_hand()

    def schedule_grace(self) -> None:
        """Wake up when a disconnected person's grace period ends, to let a bot take over."""
        if self._grace is not None and self._grace is not asyncio.current_task():
            self._grace.cancel()
        self._grace = None
        deadlines = [
            moment + timedelta(seconds=self.table.env.grace_seconds)
            for place in self.table.places()
            if not place.bot and not place.left and (moment := place.away_at()) is not None
        ]
        if not deadlines or self.table.data.status not in ("active", "seating"):
            return
        wait = max(0.0, (min(deadlines) - now()).total_seconds())
        self._grace = asyncio.create_task(self._grace_over(wait))

    async def _grace_over(self, wait: float) -> None:
        await asyncio.sleep(wait)
        with contextlib.suppress(TableError, LookupError):
            await self.table.change(None, self._take_over, presence=True)

    def _take_over(self) -> None:
        """A bot plays for each person whose grace period is over (once the match is on)."""
        if self.table.data.status != "active":
            return
        limit = now() - timedelta(seconds=self.table.env.grace_seconds)
        for seat, place in enumerate(self.table.places()):
            away = place.away_at()
            if not place.bot and not place.left and away is not None and away <= limit:
                self.table.set_place(seat, bot=True)

    def away_ms(self, place: Place) -> int | None:
        """Milliseconds until a bot takes over for a disconnected person."""
        away = place.away_at()
        if away is None or place.bot or place.left:
            return None
        deadline = away + timedelta(seconds=self.table.env.grace_seconds)
        return max(0, int((deadline - now()).total_seconds() * 1000))

    def next_hand_ms(self) -> int | None:
        if self.next_hand_at is None:
            return None
        remaining = self.next_hand_at - asyncio.get_running_loop().time()
        return max(0, int(remaining * 1000))

    def bot_level(self, seat: int) -> str:
        return self.table.seats[seat].bot_level or self.table.data.level

    def seed(self, seat: int) -> int:
        """Each decision its own seed, the same after a restart."""
        match = self.table.match
        text = f"{self.table.data.seed}:{match.hand_number}:{len(match.current.plays)}:{seat}"
        return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")

    def busy(self) -> bool:
        return self._bots is not None and not self._bots.done()

    def close(self) -> None:
        for task in (self._bots, self._grace):
            if task is not None:
                task.cancel()
        self._bots = self._grace = None
