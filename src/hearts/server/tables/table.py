"""A table: the match, its seats, its row, and the loop that lets bots act.

Every intent goes the same way: check it, apply it through :mod:`hearts.match`,
commit the row, then send each seat its own view and schedule the bots.  A
refused intent changes nothing: the match and the row are restored.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from hearts.bots import Decision, NothingToDecide
from hearts.cards import parse_card
from hearts.errors import IllegalMove, not_your_turn
from hearts.match import Match, Phase
from hearts.record import read_record, write_record
from hearts.rules import SEATS
from hearts.server.db import store
from hearts.server.db.store import MatchData, Sessions, now
from hearts.server.results import Outcome, outcome
from hearts.server.tables.claim import can_claim, play_out
from hearts.server.tables.pacing import PACES, bot_delay
from hearts.server.tables.seats import SOLO_NAMES, Seat, TableError, human, solo_seats
from hearts.server.tables.state import table_json
from hearts.server.workers import BotPool

log = logging.getLogger(__name__)

Listener = Callable[[dict[str, Any]], None]
"""Takes a message for one socket without blocking (it queues it)."""


@dataclass(frozen=True)
class TableEnv:
    sessions: Sessions
    pool: BotPool
    pace_scale: float


class Table:
    """One match and the four seats playing it."""

    def __init__(self, data: MatchData, match: Match, env: TableEnv) -> None:
        self.data = data
        self.match = match
        self.env = env
        self.seats: tuple[Seat, ...] = solo_seats(data.level)
        self.lock = asyncio.Lock()
        self.listeners: dict[int, list[Listener]] = {seat: [] for seat in SEATS}
        self._bot_task: asyncio.Task[None] | None = None
        self.autoplaying = False
        """Test-only (HEARTS_TEST_AUTOPLAY): a bot plays the person's seat to the end."""

    @classmethod
    def new(cls, token: str, level: str, pace: str, version: int, env: TableEnv) -> Table:
        match = Match(players=SOLO_NAMES)
        moment = now()
        data = MatchData(
            id=uuid.uuid4().hex,
            owner_token=token,
            level=level,
            status="active",
            record=write_record(match),
            seed=match.seed,
            pass_selections=[[], [], [], []],
            awaiting_continue=False,
            paused=False,
            pace=pace,
            elapsed_ms=0,
            running_since=None,
            used_undo=False,
            ranked=True,
            version=version,
            created_at=moment,
            updated_at=moment,
        )
        return cls(data, match, env)

    @classmethod
    def restore(cls, data: MatchData, env: TableEnv) -> Table:
        """Rebuild the table exactly from its row (after a restart, even a crash)."""
        match = read_record(data.record, seed=data.seed)
        match.rewound = data.used_undo
        for seat, texts in enumerate(data.pass_selections):
            if texts and match.phase is Phase.PASSING and match.current.passes[seat] is None:
                match.select_pass(seat, [parse_card(text) for text in texts])
        if data.running_since is not None:
            # The server stopped without stopping the clock: count up to its last commit.
            ran = data.updated_at - data.running_since
            data.elapsed_ms += max(0, int(ran.total_seconds() * 1000))
            data.running_since = None
        return cls(data, match, env)

    @property
    def version(self) -> int:
        return self.data.version

    def result(self, seat: int = 0, *, abandoned: bool = False) -> Outcome:
        """What the match counts for ``seat`` now that it is over (or abandoned)."""
        data = self.data
        return outcome(self.match, seat, data.level, data.ranked, abandoned=abandoned)

    def has_decision(self, seat: int = 0) -> bool:
        """Whether ``seat`` has decided anything in this match (undone decisions do not count)."""
        match = self.match
        if match.hand_number > 1 or match.current.passes[seat] is not None:
            return True
        return any(player == seat for player, _ in match.view(seat).plays)

    # --- sockets and the clock ------------------------------------------------

    async def subscribe(self, seat: int, listener: Listener) -> None:
        async with self.lock:
            self.listeners[seat].append(listener)
            if self._start_clock():
                await self._save_clock()
            listener(self.state_message(seat))
            if self._bot_task is None or self._bot_task.done():
                self._schedule_bots()  # a table restored after a restart picks up here

    async def unsubscribe(self, listener: Listener) -> None:
        async with self.lock:
            for listeners in self.listeners.values():
                if listener in listeners:
                    listeners.remove(listener)
            if not self.has_listeners() and self._stop_clock():
                await self._save_clock()

    def has_listeners(self) -> bool:
        return any(self.listeners.values())

    def elapsed_ms(self) -> int:
        running = self.data.running_since
        extra = 0 if running is None else int((now() - running).total_seconds() * 1000)
        return self.data.elapsed_ms + max(0, extra)

    def _start_clock(self) -> bool:
        data = self.data
        stopped = data.running_since is None and data.status == "active" and not data.paused
        if stopped and self.has_listeners():
            data.running_since = now()
            return True
        return False

    def _stop_clock(self) -> bool:
        if self.data.running_since is None:
            return False
        self.data.elapsed_ms = self.elapsed_ms()
        self.data.running_since = None
        return True

    async def _save_clock(self) -> None:
        data = self.data
        await asyncio.to_thread(
            store.save_clock, self.env.sessions, data.id, data.elapsed_ms, data.running_since
        )

    # --- what a person may ask ------------------------------------------------

    async def select_pass(self, seat: int, cards: list[int], version: int | None) -> None:
        await self._change(version, lambda: self.match.select_pass(seat, cards), while_paused=True)

    async def confirm_pass(self, seat: int, cards: list[int], version: int | None) -> None:
        await self._change(version, lambda: self.match.confirm_pass(seat, cards))

    async def continue_play(self, seat: int, version: int | None) -> None:
        def go_on() -> None:
            if not self.data.awaiting_continue:
                raise TableError("not_now", "There is nothing to continue")
            self.data.awaiting_continue = False

        await self._change(version, go_on)

    async def play(self, seat: int, card: int, version: int | None) -> None:
        def play_card() -> None:
            self._check_not_awaiting()
            if self.match.phase is Phase.PLAYING and self.match.turn != seat:
                raise TableError("not_your_turn", human(str(not_your_turn())))
            self.match.play(card, seat)

        await self._change(version, play_card)

    async def undo(self, seat: int, version: int | None) -> None:
        def undo_decision() -> None:
            self.match.undo(seat)
            self._rewound()

        await self._change(version, undo_decision)

    async def restart_hand(self, seat: int, version: int | None) -> None:
        def restart() -> None:
            self.match.restart_hand()
            self._rewound()

        await self._change(version, restart)

    async def claim(self, seat: int, version: int | None) -> None:
        def finish() -> None:
            self._check_not_awaiting()
            if not can_claim(self.match, seat):
                raise TableError(
                    "not_now",
                    "You can claim only when no points are left to win "
                    "or every remaining trick is certainly yours",
                )
            play_out(self.match)

        await self._change(version, finish)

    async def pause(self, seat: int, version: int | None) -> None:
        def pause() -> None:
            self.data.paused = True
            self._stop_clock()

        await self._change(version, pause, while_paused=True, when_same=self.data.paused)

    async def resume(self, seat: int, version: int | None) -> None:
        def resume() -> None:
            self.data.paused = False
            self._start_clock()

        await self._change(version, resume, while_paused=True, when_same=not self.data.paused)

    async def set_pace(self, seat: int, pace: str, version: int | None) -> None:
        def set_pace() -> None:
            if pace not in PACES:
                raise TableError("bad_message", "The pace is relaxed or quick")
            self.data.pace = pace

        await self._change(
            version,
            set_pace,
            while_paused=True,
            finished_too=True,
            when_same=self.data.pace == pace,
        )

    async def next_hand(self, seat: int, version: int | None) -> None:
        await self._change(version, lambda: self.match.next_hand())

    async def hint(self, seat: int, version: int | None) -> list[str]:
        async with self.lock:
            self._check(version, while_paused=True, finished_too=False)
            if self.data.awaiting_continue:
                raise TableError("not_now", "There is nothing to suggest now: press Continue")
            view = self.match.view(seat)
        try:
            decision = await self.env.pool.hint(self.data.level, view)
        except NothingToDecide:
            raise TableError("not_now", "There is nothing to suggest now") from None
        return decision.texts()

    # --- the one way to change the table --------------------------------------

    def _check(self, version: int | None, *, while_paused: bool, finished_too: bool) -> None:
        data = self.data
        if version is not None and version != data.version:
            raise TableError(
                "stale", "The table has changed since that was sent; nothing was changed"
            )
        if data.status != "active" and not finished_too:
            raise TableError("finished", "This match is over: start a new match")
        if data.paused and not while_paused:
            raise TableError("paused", "The game is paused: press Resume to play on")

    def _check_not_awaiting(self) -> None:
        if self.data.awaiting_continue:
            raise TableError("not_now", "Press Continue first")

    def _rewound(self) -> None:
        self.data.used_undo = True
        self.data.ranked = False

    async def _change(
        self,
        version: int | None,
        mutate: Callable[[], object],
        *,
        while_paused: bool = False,
        finished_too: bool = False,
        when_same: bool = False,
    ) -> None:
        """Check, apply, commit, then tell every seat and let the bots act."""
        async with self.lock:
            self._check(version, while_paused=while_paused, finished_too=finished_too)
            if when_same:
                # Nothing to change (pause when paused): just say how things are.
                self.broadcast()
                return
            match_before, data_before = self.match.copy(), replace(self.data)
            phase_before = self.match.phase
            try:
                mutate()
                finished = self._settle(phase_before)
                result = self.result() if finished else None
                await asyncio.to_thread(store.save_match, self.env.sessions, self.data, result)
            except IllegalMove as error:
                self.match, self.data = match_before, data_before
                raise TableError("illegal", human(str(error))) from None
            except BaseException:
                self.match, self.data = match_before, data_before
                raise
            self.broadcast()
            self._schedule_bots()

    def _settle(self, phase_before: Phase) -> bool:
        """What follows from a change: the continue step, the end of the match, the row.

        True when this change finished the match.
        """
        data, match = self.data, self.match
        finished = False
        if phase_before is Phase.PASSING and match.phase is Phase.PLAYING:
            data.awaiting_continue = True  # show the received cards before anyone plays
        elif match.phase is not Phase.PLAYING:
            data.awaiting_continue = False
        if match.phase is Phase.MATCH_OVER and data.status == "active":
            self._stop_clock()
            data.status = "finished"
            data.finished_at = now()
            finished = True
        data.pass_selections = [match.pass_selection(seat).texts() for seat in SEATS]
        data.record = write_record(match)
        data.version += 1
        data.updated_at = now()
        return finished

    def state_message(self, seat: int) -> dict[str, Any]:
        return {"type": "state", "version": self.data.version, "table": table_json(self, seat)}

    def broadcast(self) -> None:
        for seat, listeners in self.listeners.items():
            if listeners:
                message = self.state_message(seat)
                for listener in listeners:
                    listener(message)

    # --- the bots -------------------------------------------------------------

    def _bots_due(self) -> tuple[list[int], float] | None:
        """The bot seats that owe a decision now, and how long to wait before acting."""
        data, match = self.data, self.match
        if data.status != "active" or data.paused:
            return None
        if self.autoplaying and (data.awaiting_continue or match.phase is Phase.HAND_OVER):
            return [], bot_delay(data.pace, False, self.env.pace_scale)  # press on
        if data.awaiting_continue:
            return None
        if match.phase is Phase.PASSING:
            # Bots pass at once: their passes are hidden anyway.
            seats = [s for s in match.waiting_for() if self.seats[s].is_bot]
            return (seats, 0.0) if seats else None
        turn = match.turn
        if turn is None or not self.seats[turn].is_bot:
            return None
        state = match.play_state
        after_trick = state is not None and state.trick_count == 0 and state.tricks_played > 0
        return [turn], bot_delay(data.pace, after_trick, self.env.pace_scale)

    def _schedule_bots(self) -> None:
        task = self._bot_task
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        self._bot_task = None
        due = self._bots_due()
        if due is not None:
            seats, delay = due
            self._bot_task = asyncio.create_task(self._run_bots(self.data.version, seats, delay))

    async def _run_bots(self, version: int, seats: list[int], delay: float) -> None:
        loop = asyncio.get_running_loop()
        started = loop.time()
        jobs = [
            self.env.pool.decide(
                self.seats[s].bot_level or "easy", self.match.view(s), self._seed(s)
            )
            for s in seats
        ]
        try:
            decisions = await asyncio.gather(*jobs)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a bot failed to decide at table %s", self.data.id)
            return
        wait = delay - (loop.time() - started)
        if wait > 0:
            await asyncio.sleep(wait)
        # A TableError: the table moved on meanwhile (undo, pause); the decision is dropped.
        with contextlib.suppress(TableError):
            if seats:
                await self._change(version, lambda: self._apply(zip(seats, decisions, strict=True)))
            else:
                await self._change(version, self._press_on)

    def _press_on(self) -> None:
        """Autoplay's part of the person: Continue after the pass, Next hand after a hand."""
        if self.data.awaiting_continue:
            self.data.awaiting_continue = False
        elif self.match.phase is Phase.HAND_OVER:
            self.match.next_hand()

    async def autoplay(self, seat: int, level: str = "normal") -> None:
        """Test-only: a bot of ``level`` plays ``seat`` from now to the end of the match."""
        async with self.lock:
            self._check(None, while_paused=False, finished_too=False)
            seats = list(self.seats)
            seats[seat] = replace(seats[seat], bot_level=level)
            self.seats = tuple(seats)
            self.autoplaying = True
            self._schedule_bots()

    def _apply(self, decisions: Iterable[tuple[int, Decision]]) -> None:
        for seat, decision in decisions:
            if decision.kind == "pass":
                self.match.confirm_pass(seat, decision.cards)
            elif decision.kind == "play":
                self.match.play(decision.cards[0], seat)
            elif decision.moon is not None:
                self.match.choose_moon(seat, decision.moon)

    def bot_level(self, seat: int) -> str:
        return self.seats[seat].bot_level or self.data.level

    def _seed(self, seat: int) -> int:
        """Each decision its own seed, the same after a restart."""
        match = self.match
        text = f"{self.data.seed}:{match.hand_number}:{len(match.current.plays)}:{seat}"
        return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")

    def bots_busy(self) -> bool:
        return self._bot_task is not None and not self._bot_task.done()

    def close(self) -> None:
        if self._bot_task is not None:
            self._bot_task.cancel()
            self._bot_task = None
