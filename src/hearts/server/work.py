"""Expensive work off the event loop, bounded so that no client can slow the others.

Password hashes and replays cost tens to hundreds of milliseconds of CPU
each. Each kind runs in a few threads of its own (not the default pool that
serves session look-ups), each client has at most one job of a kind in
flight, and at most ``max_waiting`` jobs of a kind wait at all: past that
the request is refused at once (the routes answer 429 or 503 with
``Retry-After``) instead of queueing without end.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class Busy(Exception):
    """The job was refused for now: ``mine`` when the client already has one in flight."""

    def __init__(self, message: str, *, mine: bool) -> None:
        super().__init__(message)
        self.message = message
        self.mine = mine


class BoundedWork:
    """One kind of expensive work: its own threads, one job per client, a bounded queue."""

    def __init__(self, name: str, workers: int, max_waiting: int) -> None:
        self._name = name
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)
        self._max_waiting = max_waiting
        self._clients: set[str] = set()

    @property
    def in_flight(self) -> int:
        return len(self._clients)

    async def run(self, client: str, job: Callable[..., T], *args: Any) -> T:
        """``job(*args)`` in this kind's threads, for ``client`` (an address or a player)."""
        if client in self._clients:
            raise Busy(f"Your last {self._name} is still being worked on: a moment", mine=True)
        if len(self._clients) >= self._max_waiting:
            raise Busy(f"The server is busy with other {self._name}s: try again soon", mine=False)
        self._clients.add(client)
        future = asyncio.get_running_loop().run_in_executor(self._executor, job, *args)
        # The client's place is given back when the work is done, not when the
        # request goes away: hanging up does not make room for another job.
        future.add_done_callback(lambda done: self._done(client, done))
        return await asyncio.shield(future)

    def _done(self, client: str, future: asyncio.Future[Any]) -> None:
        self._clients.discard(client)
        if not future.cancelled():
            future.exception()  # retrieved: an asker that went away leaves no warning behind

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
