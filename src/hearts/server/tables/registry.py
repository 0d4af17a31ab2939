"""The tables in memory: solo tables by their player, shared tables by their code.

Loading, creating and replacing matches; and catching up when another
server process changed a table (``on_change``, called by the bus).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict

from sqlalchemy.exc import IntegrityError

from hearts.bots import PLAYER_LEVELS
from hearts.rules import Rules
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
        self._shared: dict[str, Table] = {}
        """Shared tables by invite code."""
        self._code_locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)

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
        async with self._player_locks[token]:
            old = await self._load(token)
            if old is None:
                table = Table.new(token, level, PACES[0], 1, self.env)
                await self.env.db.run(store.start_match, table.data, None, None)
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
                await self.env.db.run(store.start_match, table.data, old.data.id, lost)
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
            if not table.has_listeners() and not table.turns.busy():
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
            assert table.data.code is not None
            self._shared[table.data.code] = table
            return table
        raise TableError("server_error", "No free table code was found; try again")

    async def shared(self, code: str) -> Table | None:
        async with self._code_locks[code]:
            table = self._shared.get(code)
            if table is None:
                data = await self.env.db.run(store.find_code, code)
                if data is None or data.kind != "shared":
                    return None
                table = Table.restore(data, self.env)
                self._shared[code] = table
            return table

    async def follow_shared(
        self, code: str, token: str, watch: bool, listener: Listener
    ) -> tuple[Table, int | None]:
        """Send ``listener`` the shared table ``code``: as its seat's person, or as a watcher."""
        table = await self.shared(code)
        if table is None:
            raise TableError("no_table", "There is no table with that link")
        seat = None if watch else table.seat_of(token)
        role = "visitor" if table.data.status == "seating" and not watch else "spectator"
        await table.subscribe(seat, listener, role)
        return table, seat

    async def leave_shared(self, table: Table, listener: Listener) -> None:
        await table.unsubscribe(listener)
        code = table.data.code or ""
        async with self._code_locks[code]:
            if not table.has_listeners() and not table.turns.busy():
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
