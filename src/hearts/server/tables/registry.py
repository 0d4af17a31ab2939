"""The tables in memory: solo tables by their player, shared tables by their code.

Loading, creating and replacing matches; and catching up when another
server process changed a table (``on_change``, called by the bus).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy.exc import IntegrityError

from hearts.bots import PLAYER_LEVELS
from hearts.rules import Rules
from hearts.server.db import store
from hearts.server.tables.pacing import PACES
from hearts.server.tables.seats import TableError
from hearts.server.tables.table import Listener, Table, TableEnv


class KeyedLocks:
    """A lock per key, kept only while someone holds or waits for it.

    Keys come from clients (a player's token, a table code typed into a link):
    nothing stays behind for a key once its work is done.
    """

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)


class TableRegistry:
    """Each player's current table, loaded from the database on first use."""

    def __init__(self, env: TableEnv) -> None:
        self.env = env
        self._by_player: dict[str, Table] = {}
        self._player_locks = KeyedLocks()
        self._waiting: dict[str, list[Listener]] = {}
        """Sockets of players without any match yet: they follow the first one."""
        self._shared: dict[str, Table] = {}
        """Shared tables by invite code."""
        self._code_locks = KeyedLocks()

    async def table_for(self, token: str) -> Table | None:
        """The player's current match (active or finished), or None before the first."""
        async with self._player_locks.hold(token):
            return await self._load(token)

    async def follow(self, token: str, listener: Listener) -> bool:
        """Send ``listener`` the player's table from now on; False while there is none yet."""
        async with self._player_locks.hold(token):
            table = await self._load(token)
            if table is None:
                self._waiting.setdefault(token, []).append(listener)
                return False
            await table.subscribe(listener, token)
            return True

    async def _load(self, token: str) -> Table | None:
        table = self._by_player.get(token)
        if table is not None:
            return table
        data = await self.env.db.run(store.current_match, token)
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
        async with self._player_locks.hold(token):
            old = await self._load(token)
            if old is None:
                table = Table.new(token, level, PACES[0], 1, self.env)
                await self.env.db.run(store.start_match, table.data, None, None)
                self._by_player[token] = table
                await table.subscribe(listener, token)
                for each in self._waiting.pop(token, []):
                    if each is not listener:
                        await table.subscribe(each, token)
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
                await self.env.db.run(store.start_match, table.data, old.data.id, lost)
                old.close()
                if counts:
                    old.data.status = "abandoned"
                followers = old.subscribers
                old.subscribers = {}
            self._by_player[token] = table
            await table.subscribe(listener, token)
            # Every other socket of the player follows to the new match.
            for each, subscriber in followers.items():
                if each is not listener:
                    await table.subscribe(each, subscriber.token)
            return table

    async def leave(self, token: str, listener: Listener) -> None:
        """A socket closed: stop listening, and forget an idle table."""
        async with self._player_locks.hold(token):
            waiting = self._waiting.get(token)
            if waiting is not None and listener in waiting:
                waiting.remove(listener)
                if not waiting:
                    del self._waiting[token]
            table = self._by_player.get(token)
            if table is None:
                return
            await table.unsubscribe(listener)
            if not table.has_listeners():
                # Nobody follows it: it stops here (the computers too) and leaves
                # memory; the row has everything to pick up when the player is back.
                table.close()
                self._by_player.pop(token, None)

    # --- shared tables ----------------------------------------------------------

    async def create_shared(
        self, creator: str, creator_name: str, name: str, level: str, rules: Rules
    ) -> Table:
        """A new table with the creator at South, waiting for people to sit."""
        if level not in PLAYER_LEVELS:
            raise TableError("bad_message", "The level is easy, normal or expert")
        for _ in range(5):
            table = Table.new_shared(creator, creator_name, name, level, rules, self.env)
            try:
                await self.env.db.run(store.insert_match, table.data)
            except IntegrityError:
                continue  # the code was taken: draw another
            return table  # kept in memory only once someone follows it
        raise TableError("server_error", "No free table code was found; try again")

    async def exists(self, code: str) -> bool:
        """Whether ``code`` is a shared table's (nothing is kept for a code that is not)."""
        if code in self._shared:
            return True
        data = await self.env.db.run(store.find_code, code)
        return data is not None and data.kind == "shared"

    async def shared(self, code: str) -> Table | None:
        """The shared table ``code`` to read from: the one in memory, or else a copy read
        from its row that is not kept (only sockets that follow a table keep it here)."""
        table = self._shared.get(code)
        if table is not None:
            return table
        data = await self.env.db.run(store.find_code, code)
        if data is None or data.kind != "shared":
            return None
        return Table.restore(data, self.env)

    async def _shared_table(self, code: str) -> Table | None:
        table = self._shared.get(code)
        if table is None:
            data = await self.env.db.run(store.find_code, code)
            if data is None or data.kind != "shared":
                return None
            table = Table.restore(data, self.env)
            self._shared[code] = table
        return table

    async def follow_shared(self, code: str, token: str, watch: bool, listener: Listener) -> Table:
        """Send ``listener`` the shared table ``code``: as its player's seat, or as a watcher."""
        async with self._code_locks.hold(code):
            table = await self._shared_table(code)
            if table is None:
                raise TableError("no_table", "There is no table with that link")
            await table.subscribe(listener, token, watch=watch)
            return table

    async def leave_shared(self, table: Table, listener: Listener) -> None:
        await table.unsubscribe(listener)
        code = table.data.code or ""
        async with self._code_locks.hold(code):
            if not table.has_listeners() and self._shared.get(code) is table:
                # Nobody is at the table: it stops (no computer plays on) and leaves
                # memory; it resumes from its row when someone comes back.
                table.close()
                self._shared.pop(code, None)

    async def on_change(self, match_id: str) -> None:
        """Another process changed the match ``match_id``: the table here catches up."""
        tables = [*self._by_player.values(), *self._shared.values()]
        for table in tables:
            if table.data.id == match_id:
                await table.refresh()

    def close(self) -> None:
        for table in [*self._by_player.values(), *self._shared.values()]:
            table.close()
        self._by_player.clear()
        self._shared.clear()
