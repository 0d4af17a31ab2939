"""The tables in memory, found by their owner; loading, creating and replacing matches."""

from __future__ import annotations

import asyncio
from collections import defaultdict

from hearts.bots import PLAYER_LEVELS
from hearts.server.db import store
from hearts.server.tables.pacing import PACES
from hearts.server.tables.seats import TableError
from hearts.server.tables.table import Listener, Table, TableEnv


class TableRegistry:
    """Each player's current table, loaded from the database on first use."""

    def __init__(self, env: TableEnv) -> None:
        self.env = env
        self._by_player: dict[str, Table] = {}
        self._player_locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._waiting: defaultdict[str, list[Listener]] = defaultdict(list)
        """Sockets of players without any match yet: they follow the first one."""

    async def table_for(self, token: str) -> Table | None:
        """The player's current match (active or finished), or None before the first."""
        async with self._player_locks[token]:
            return await self._load(token)

    async def follow(self, token: str, listener: Listener) -> bool:
        """Send ``listener`` the player's table from now on; False while there is none yet."""
        async with self._player_locks[token]:
            table = await self._load(token)
            if table is None:
                self._waiting[token].append(listener)
                return False
            await table.subscribe(0, listener)
            return True

    async def _load(self, token: str) -> Table | None:
        table = self._by_player.get(token)
        if table is not None:
            return table
        data = await asyncio.to_thread(store.current_match, self.env.sessions, token)
        if data is None:
            return None
        table = Table.restore(data, self.env)
        self._by_player[token] = table
        return table

    async def new_match(
        self, token: str, level: str, abandon: bool, version: int | None, listener: Listener
    ) -> Table:
        """Start a match for ``token``; the one it replaces is abandoned (a loss) or dropped."""
        if level not in PLAYER_LEVELS:
            raise TableError("bad_message", "The level is easy, normal or expert")
        async with self._player_locks[token]:
            old = await self._load(token)
            if old is None:
                table = Table.new(token, level, PACES[0], 1, self.env)
                await asyncio.to_thread(
                    store.start_match, self.env.sessions, table.data, None, None
                )
                self._by_player[token] = table
                await table.subscribe(0, listener)
                for each in self._waiting.pop(token, []):
                    if each is not listener:
                        await table.subscribe(0, each)
                return table
            async with old.lock:
                if version is not None and version != old.version:
                    raise TableError(
                        "stale", "The table has changed since that was sent; nothing was changed"
                    )
                counts = old.data.status == "active" and old.has_decision()
                if counts and not abandon:
                    raise TableError(
                        "confirm_abandon",
                        "Starting a new match abandons this one, and that counts as a loss",
                    )
                table = Table.new(token, level, old.data.pace, old.version + 1, self.env)
                lost = old.result(abandoned=True) if counts else None
                await asyncio.to_thread(
                    store.start_match, self.env.sessions, table.data, old.data.id, lost
                )
                old.close()
                if counts:
                    old.data.status = "abandoned"
                listeners = old.listeners
                old.listeners = {seat: [] for seat in listeners}
            self._by_player[token] = table
            await table.subscribe(0, listener)
            # Every other socket of the player follows to the new match.
            for seat, seat_listeners in listeners.items():
                for each in seat_listeners:
                    if each is not listener:
                        await table.subscribe(seat, each)
            return table

    async def leave(self, token: str, listener: Listener) -> None:
        """A socket closed: stop listening, and forget an idle table."""
        async with self._player_locks[token]:
            waiting = self._waiting.get(token)
            if waiting is not None and listener in waiting:
                waiting.remove(listener)
                if not waiting:
                    del self._waiting[token]
            table = self._by_player.get(token)
            if table is None:
                return
            await table.unsubscribe(listener)
            if not table.has_listeners() and not table.bots_busy():
                table.close()
                del self._by_player[token]

    def close(self) -> None:
        for table in self._by_player.values():
            table.close()
        self._by_player.clear()
