"""Where bots think: a pool of processes (or threads), off the event loop.

A job receives only a seat's view, the bot's level and a seed, so a worker
can never see a hidden card, and the same job gives the same decision anywhere.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import signal
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final, TypeVar

from hearts.bots import Decision, make_bot
from hearts.suggest import DEFAULT_LEVEL, DEFAULT_SEED
from hearts.view import SeatView

log = logging.getLogger(__name__)

T = TypeVar("T")

QUICK_LEVELS: Final = frozenset({"easy", "normal"})
"""Levels whose bots decide in a tenth of a millisecond or so: sending the job to
a worker process (pickling the view, waking threads up) costs ten times more, so
they decide in the server's own thread. Expert searches and goes to the pool."""


def _leave_stopping_to_the_server() -> None:
    """In each worker: Ctrl-C, or a SIGTERM sent to the server's whole process group
    (systemd does that), reaches the workers too. They ignore it: the server stops
    them itself when it shuts down, and a worker ends at once if its server dies
    without doing so (killed), instead of waiting forever for jobs."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent,), daemon=True).start()


def _end_with(parent: multiprocessing.process.BaseProcess) -> None:
    parent.join()  # returns when the server process is gone
    os._exit(0)


def decide(level: str, view: SeatView, seed: int) -> Decision:
    """A bot's decision (module level: it runs in worker processes)."""
    return make_bot(level).decide(view, random.Random(seed))


HINT_LEVEL: Final = DEFAULT_LEVEL
"""Hints are advice: always the Expert's, whatever level the computers play at."""


def hint(view: SeatView) -> Decision:
    """The suggestion of :mod:`hearts.suggest`: the Expert with the fixed hint seed."""
    return make_bot(HINT_LEVEL).decide(view, random.Random(DEFAULT_SEED))


class BotPool:
    """Where the tables' bot decisions and hints are made: at once for the quick
    levels, otherwise in an executor.

    A worker process that dies (killed, out of memory) breaks a
    ``ProcessPoolExecutor`` for good; the pool then starts a new one and runs
    the job again, once. A job is a pure function of its arguments, so running
    it twice is harmless.
    """

    def __init__(
        self, workers: int, processes: bool, quick_levels: frozenset[str] = QUICK_LEVELS
    ) -> None:
        self._workers = workers
        self._processes = processes
        self._quick = quick_levels
        self._lock = threading.Lock()
        self._closed = False
        self._executor = self._make()
        self.restarts = 0
        """How many times a broken pool was replaced (tests and logs)."""

    def _make(self) -> Executor:
        if self._processes:
            # spawn: forking a process that runs an event loop and threads is unsafe.
            context = multiprocessing.get_context("spawn")
            return ProcessPoolExecutor(
                max_workers=self._workers,
                mp_context=context,
                initializer=_leave_stopping_to_the_server,
            )
        return ThreadPoolExecutor(max_workers=self._workers, thread_name_prefix="bot")

    async def decide(self, level: str, view: SeatView, seed: int) -> Decision:
        if level in self._quick:
            return decide(level, view, seed)
        return await self._run(decide, level, view, seed)

    async def run(self, job: Callable[..., T], *args: Any) -> T:
        """``job(*args)`` in the executor (a pure function: run again if a worker died)."""
        return await self._run(job, *args)

    async def _run(self, job: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        executor = self._executor
        try:
            return await loop.run_in_executor(executor, job, *args)
        except BrokenProcessPool:
            if not self._replace(executor):
                raise
        return await loop.run_in_executor(self._executor, job, *args)

    def _replace(self, broken: Executor) -> bool:
        """A new executor in place of ``broken`` (unless another job already made one)."""
        with self._lock:
            if self._closed:
                return False
            if self._executor is broken:
                log.warning("a bot worker process died: starting a new pool")
                self._executor = self._make()
                self.restarts += 1
                broken.shutdown(wait=False, cancel_futures=True)
            return True

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._executor.shutdown(wait=False, cancel_futures=True)


class HintsBusy(Exception):
    """A hint refused for now: ``message`` says why, for the player."""


class Hints:
    """Where hints are thought out, so that no player can slow the computers down.

    Hints have an executor of their own (the computers' moves never wait
    behind them); each player has at most one hint in flight (asking again
    for the same decision joins it, asking for another is refused); at most
    ``max_waiting`` are in flight at all; and each answer is kept for its
    decision point, so asking twice costs nothing.
    """

    def __init__(self, pool: BotPool, max_waiting: int, cache_size: int = 4096) -> None:
        self._pool = pool
        self._max_waiting = max_waiting
        self._cache_size = cache_size
        self._cache: OrderedDict[Hashable, Decision] = OrderedDict()
        self._running: dict[str, tuple[Hashable, asyncio.Future[Decision]]] = {}
        self.computed = 0
        """How many hints were worked out (not answered from the cache): tests and logs."""

    async def hint(self, player: str, key: Hashable, view: SeatView) -> Decision:
        """The Expert's decision for ``view``; ``key`` names the decision point."""
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        running = self._running.get(player)
        if running is not None:
            running_key, future = running
            if running_key != key:
                raise HintsBusy("Still working out your last hint: a moment, please")
        elif len(self._running) >= self._max_waiting:
            raise HintsBusy("Hints are busy right now: ask again in a moment")
        else:
            future = asyncio.ensure_future(self._pool.run(hint, view))
            self._running[player] = (key, future)
            self.computed += 1
            # Forgotten when the work is done, not when the asker goes away:
            # closing the socket does not free a place for another hint.
            future.add_done_callback(lambda done: self._finished(player, key, done))
        return await asyncio.shield(future)

    def _finished(self, player: str, key: Hashable, future: asyncio.Future[Decision]) -> None:
        running = self._running.get(player)
        if running is not None and running[1] is future:
            del self._running[player]
        if not future.cancelled() and future.exception() is None:
            self._cache[key] = future.result()
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def close(self) -> None:
        self._pool.close()


# --- the coach -------------------------------------------------------------------

COACH_WAITING: Final = 8
"""Analyses queued or running at once, all players together; more are refused."""


class CoachBusy(Exception):
    """An analysis refused for now: the player has one running, or the queue is full."""


def review_hand(record: dict[str, Any], seat: int, hand: int) -> dict[str, Any]:
    """The coach's review of one finished hand as JSON (module level: it runs in a worker)."""
    from hearts.coach import analyse

    return analyse(record, seat, hand).hands[0].to_json()


class CoachPool:
    """Where the coach works after a hand: its own single worker, so an analysis (a few
    seconds of search) never holds up the bots' moves or another player's hint.

    At most one analysis per player is queued or running, and at most
    :data:`COACH_WAITING` in all; beyond that :class:`CoachBusy` says so at once.
    Asking again for the review being made (the same ``key``) waits for it.
    """

    def __init__(self, processes: bool, waiting: int = COACH_WAITING) -> None:
        self._processes = processes
        self._waiting = waiting
        self._jobs: dict[Hashable, asyncio.Future[dict[str, Any]]] = {}
        self._players: dict[str, Hashable] = {}
        self._executor = self._make()
        self._lock = threading.Lock()

    def _make(self) -> Executor:
        if self._processes:
            context = multiprocessing.get_context("spawn")
            return ProcessPoolExecutor(
                max_workers=1, mp_context=context, initializer=_leave_stopping_to_the_server
            )
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="coach")

    async def review(
        self,
        player: str,
        record: dict[str, Any],
        seat: int,
        hand: int,
        key: Hashable | None = None,
    ) -> dict[str, Any]:
        """``seat``'s review of ``hand`` (finished) in ``record``; :class:`CoachBusy` if refused."""
        job = self._jobs.get(key) if key is not None else None
        if job is None:
            if player in self._players:
                raise CoachBusy("The coach is already looking at a hand for you: wait for it")
            if len(self._jobs) >= self._waiting:
                raise CoachBusy("The coach is busy: try again in a minute")
            name = key if key is not None else object()
            job = asyncio.ensure_future(self._run(record, seat, hand))
            self._jobs[name] = job
            self._players[player] = name

            def done(_: object) -> None:
                self._jobs.pop(name, None)
                if self._players.get(player) is name:
                    del self._players[player]

            job.add_done_callback(done)
        return await asyncio.shield(job)

    async def _run(self, record: dict[str, Any], seat: int, hand: int) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        executor = self._executor
        try:
            return await loop.run_in_executor(executor, review_hand, record, seat, hand)
        except BrokenProcessPool:
            with self._lock:
                if self._executor is executor:
                    log.warning("the coach's worker process died: starting a new one")
                    self._executor = self._make()
            return await loop.run_in_executor(self._executor, review_hand, record, seat, hand)

    @property
    def in_flight(self) -> int:
        return len(self._jobs)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
