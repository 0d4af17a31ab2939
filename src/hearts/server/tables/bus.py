"""How the server processes serving one table hear of each other.

One process (SQLite, the default) needs nothing: :class:`LocalBus`.  Several
processes on PostgreSQL share a Redis: :class:`RedisBus` publishes each
committed change of a table, so every process with sockets at that table
catches up at once, and keeps track of which seats have a connection in
any process, so a person is "away" only when no process sees them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Final, Protocol

log = logging.getLogger(__name__)

OnChange = Callable[[str], Awaitable[None]]
CHANNEL: Final = "hearts:tables"
PRESENCE_TTL: Final = 30.0
"""Seconds a process's claim that a seat is connected lasts without renewal."""


class Bus(Protocol):
    async def start(self, on_change: OnChange) -> None:
        """Begin listening; ``on_change(match_id)`` runs for other processes' changes."""

    async def changed(self, match_id: str) -> None:
        """This process committed a change of the table."""

    async def arrive(self, match_id: str, seat: int) -> None:
        """This process has a socket for the person at ``seat`` now."""

    async def depart(self, match_id: str, seat: int) -> bool:
        """This process's last socket for ``seat`` closed: is the person connected elsewhere?"""

    async def close(self) -> None: ...


class LocalBus:
    """One process: every socket is here, so nothing needs telling."""

    async def start(self, on_change: OnChange) -> None:
        return None

    async def changed(self, match_id: str) -> None:
        return None

    async def arrive(self, match_id: str, seat: int) -> None:
        return None

    async def depart(self, match_id: str, seat: int) -> bool:
        return False

    async def close(self) -> None:
        return None


class RedisBus:
    """Several processes: pub/sub for changes, sorted sets for presence.

    Presence of ``seat`` at a table is a sorted set of process ids scored by
    when their claim expires; each process renews its claims every few
    seconds, so a process that dies stops counting within PRESENCE_TTL.
    """

    def __init__(self, url: str) -> None:
        from redis import asyncio as aioredis

        # A blocking pool: under load, wait a moment for a connection instead of failing.
        pool = aioredis.BlockingConnectionPool.from_url(
            url, decode_responses=True, max_connections=64, timeout=10
        )
        self._redis: Any = aioredis.Redis(connection_pool=pool)
        self._me = uuid.uuid4().hex
        self._claims: dict[tuple[str, int], int] = {}
        self._tasks: list[asyncio.Task[None]] = []

    @staticmethod
    def _key(match_id: str, seat: int) -> str:
        return f"hearts:presence:{match_id}:{seat}"

    async def start(self, on_change: OnChange) -> None:
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(CHANNEL)
        self._tasks.append(asyncio.create_task(self._listen(pubsub, on_change)))
        self._tasks.append(asyncio.create_task(self._renew()))

    async def _listen(self, pubsub: Any, on_change: OnChange) -> None:
        while True:
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lost the Redis subscription; retrying")
                await asyncio.sleep(1.0)
                continue
            if message is None:
                continue
            sender, _, match_id = str(message.get("data", "")).partition(":")
            if match_id and sender != self._me:
                try:
                    await on_change(match_id)
                except Exception:
                    log.exception("catching up with table %s failed", match_id)

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(PRESENCE_TTL / 3)
            expiry = time.time() + PRESENCE_TTL
            with contextlib.suppress(Exception):
                for match_id, seat in list(self._claims):
                    await self._redis.zadd(self._key(match_id, seat), {self._me: expiry})

    async def changed(self, match_id: str) -> None:
        await self._redis.publish(CHANNEL, f"{self._me}:{match_id}")

    async def arrive(self, match_id: str, seat: int) -> None:
        self._claims[(match_id, seat)] = self._claims.get((match_id, seat), 0) + 1
        await self._redis.zadd(self._key(match_id, seat), {self._me: time.time() + PRESENCE_TTL})

    async def depart(self, match_id: str, seat: int) -> bool:
        self._claims.pop((match_id, seat), None)
        key = self._key(match_id, seat)
        await self._redis.zrem(key, self._me)
        others: int = await self._redis.zcount(key, time.time(), "+inf")
        return others > 0

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for match_id, seat in list(self._claims):
            with contextlib.suppress(Exception):
                await self._redis.zrem(self._key(match_id, seat), self._me)
        with contextlib.suppress(Exception):
            await self._redis.aclose()
