"""Where bots think: a pool of processes (or threads), off the event loop.

A job receives only a seat's view, the bot's level and a seed, so a worker
can never see a hidden card, and the same job gives the same decision anywhere.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from hearts.bots import Decision, make_bot
from hearts.suggest import DEFAULT_SEED
from hearts.view import SeatView


def decide(level: str, view: SeatView, seed: int) -> Decision:
    """A bot's decision (module level: it runs in worker processes)."""
    return make_bot(level).decide(view, random.Random(seed))


def hint(level: str, view: SeatView) -> Decision:
    """The suggestion of :mod:`hearts.suggest`: the level's bot with the fixed hint seed."""
    return make_bot(level).decide(view, random.Random(DEFAULT_SEED))


class BotPool:
    """The executor the tables send bot decisions and hints to."""

    def __init__(self, workers: int, processes: bool) -> None:
        self._executor: Executor
        if processes:
            # spawn: forking a process that runs an event loop and threads is unsafe.
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(max_workers=workers, mp_context=context)
        else:
            self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bot")

    async def decide(self, level: str, view: SeatView, seed: int) -> Decision:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, decide, level, view, seed)

    async def hint(self, level: str, view: SeatView) -> Decision:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, hint, level, view)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
