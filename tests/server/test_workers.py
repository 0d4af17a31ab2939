"""The bot pool survives a worker process that dies; hints are bounded per player."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from hearts.match import Match
from hearts.server.workers import QUICK_LEVELS, BotPool, Hints, HintsBusy, decide, hint


def test_a_killed_worker_process_is_replaced() -> None:
    view = Match(seed=3).view(0)
    pool = BotPool(workers=1, processes=True, quick_levels=frozenset())

    async def scenario() -> None:
        before = set(multiprocessing.active_children())
        first = await pool.decide("easy", view, seed=1)
        workers = set(multiprocessing.active_children()) - before
        assert workers
        for worker in workers:
            os.kill(worker.pid or 0, signal.SIGKILL)
            worker.join(10)
        # A job sent to the broken pool is run again in a new one: same job, same answer.
        assert await pool.decide("easy", view, seed=1) == first
        assert pool.restarts == 1
        # A job in flight when its worker dies is run again too. The job lasts four
        # seconds, so the kill lands while it runs even on a loaded machine (an
        # Easy decision could finish first and leave nothing to kill).
        job = asyncio.ensure_future(pool.run(time.sleep, 4))
        await asyncio.sleep(0.2)
        assert not job.done()
        for worker in set(multiprocessing.active_children()) - before:
            os.kill(worker.pid or 0, signal.SIGKILL)
        assert await job is None
        assert pool.restarts == 2

    try:
        asyncio.run(scenario())
    finally:
        pool.close()


def test_a_closed_pool_is_not_restarted() -> None:
    pool = BotPool(workers=1, processes=False, quick_levels=frozenset())
    pool.close()
    view = Match(seed=3).view(0)
    try:
        asyncio.run(pool.decide("easy", view, seed=1))
    except RuntimeError as error:  # the executor refuses new jobs after shutdown
        assert "shutdown" in str(error)
    else:
        raise AssertionError("a closed pool took a job")
    assert pool.restarts == 0


def test_quick_levels_decide_without_the_executor() -> None:
    view = Match(seed=3).view(0)
    pool = BotPool(workers=1, processes=False)
    pool.close()  # an executor that takes no job: the quick levels do not need it
    for level in QUICK_LEVELS:
        assert asyncio.run(pool.decide(level, view, seed=1)) == decide(level, view, 1)


class GatedPool(BotPool):
    """A pool whose jobs wait for the test to open the gate: hints in flight on demand."""

    def __init__(self) -> None:
        super().__init__(workers=2, processes=False)
        self.gate = asyncio.Event()
        self.started = 0

    async def run(self, job: Any, *args: Any) -> Any:
        self.started += 1
        await self.gate.wait()
        return job(*args)


def test_hints_one_in_flight_per_player_and_cached() -> None:
    views = [Match(seed=seed).view(0) for seed in (3, 4, 5)]
    pool = GatedPool()
    hints = Hints(pool, max_waiting=2)

    async def scenario() -> None:
        first = asyncio.ensure_future(hints.hint("ann", "a", views[0]))
        await asyncio.sleep(0)
        # The same decision again (another tab) joins the hint in flight.
        again = asyncio.ensure_future(hints.hint("ann", "a", views[0]))
        # Another decision while one is in flight: refused, nothing queued.
        with pytest.raises(HintsBusy):
            await hints.hint("ann", "b", views[1])
        # Another player may ask; past max_waiting in all, everyone is refused for now.
        bo = asyncio.ensure_future(hints.hint("bo", "c", views[2]))
        await asyncio.sleep(0)
        with pytest.raises(HintsBusy):
            await hints.hint("cy", "d", views[1])
        await asyncio.sleep(0)
        assert pool.started == 2
        pool.gate.set()
        assert await first == await again == hint(views[0])
        assert await bo == hint(views[2])
        # Answered from the cache: no work at all.
        assert await hints.hint("cy", "a", views[0]) == hint(views[0])
        assert pool.started == 2 and hints.computed == 2
        # A hint whose asker went away still holds its player's place until it is done.
        pool.gate.clear()
        gone = asyncio.ensure_future(hints.hint("ann", "e", views[1]))
        await asyncio.sleep(0)
        gone.cancel()
        with pytest.raises(HintsBusy):
            await hints.hint("ann", "f", views[2])
        pool.gate.set()
        for _ in range(3):
            await asyncio.sleep(0)
        assert await hints.hint("ann", "f", views[2]) == hint(views[2])

    try:
        asyncio.run(scenario())
    finally:
        pool.close()


SERVER = """
import asyncio, multiprocessing, os, signal, sys
from hearts.match import Match
from hearts.server.workers import BotPool

if __name__ == "__main__":
    pool = BotPool(1, True, quick_levels=frozenset())
    view = Match(seed=1).view(0)
    asyncio.run(pool.decide("easy", view, 1))
    worker = multiprocessing.active_children()[0]
    os.kill(worker.pid, signal.SIGINT)  # Ctrl-C in a terminal reaches the workers too
    os.kill(worker.pid, signal.SIGTERM)
    asyncio.run(pool.decide("easy", view, 2))
    print(worker.pid, pool.restarts, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # the server dies without stopping its pool
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_workers_ignore_stop_signals_and_end_with_their_server(tmp_path: Path) -> None:
    script = tmp_path / "server.py"
    script.write_text(SERVER, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=60, check=False
    )
    assert run.returncode == -signal.SIGKILL, run.stderr
    pid, restarts = (int(word) for word in run.stdout.split())
    assert restarts == 0  # SIGINT and SIGTERM left the worker running
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid), "the worker outlived its server"
