"""The dispatch table: each message ``type`` and the handler that carries it out."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from hearts.cards import parse_card
from hearts.server.routes.deps import seat_name
from hearts.server.tables.registry import TableRegistry
from hearts.server.tables.seats import TableError
from hearts.server.tables.table import Listener, Table
from hearts.server.ws import messages as m

log = logging.getLogger(__name__)


@dataclass
class Connection:
    """One socket: who it speaks for (from the session, at the handshake), and how to reach it.

    It keeps no seat: every intent acts for the seat the table says its player
    holds at that moment (:meth:`Table.acting_seat`), and every state it is sent
    is worked out the same way.
    """

    registry: TableRegistry
    send: Listener
    token: str
    name: str
    """How others see this player at a shared table."""
    greeted: bool = False
    """Whether ``hello`` came: until then the socket follows no table."""
    shared: Table | None = None
    """The shared table this socket follows (None: the player's solo table)."""
    watching: bool = False
    """Whether the socket asked only to watch its shared table (intents are refused)."""
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def error(self, code: str, message: str, seq: int | None) -> None:
        self.send({"type": "error", "code": code, "message": message, "seq": seq})

    async def table(self) -> Table:
        if self.shared is not None:
            return self.shared
        table = await self.registry.table_for(self.token)
        if table is None:
            raise TableError("no_match", "Start a match first")
        return table

    async def seated(self) -> Table:
        """The table, for an intent that needs a seat (the table checks which one, now)."""
        table = await self.table()
        if self.watching:
            raise TableError("not_seated", "Take a seat to play; you are watching this table")
        return table

    async def close(self) -> None:
        """Stop following whatever table this socket follows."""
        if self.shared is not None:
            await self.registry.leave_shared(self.shared, self.send)
        elif self.greeted:
            await self.registry.leave(self.token, self.send)
        self.shared, self.watching = None, False


def cards_of(texts: list[str]) -> list[int]:
    cards = []
    for text in texts:
        try:
            cards.append(parse_card(text))
        except ValueError:
            raise TableError("bad_message", f"Not a card: {text[:10]!r}") from None
    return cards


async def hello(conn: Connection, msg: m.Hello) -> None:
    if msg.table is not None and not await conn.registry.exists(msg.table):
        raise TableError("no_table", "There is no table with that link")  # nothing changes
    await conn.close()  # a second hello starts afresh
    conn.greeted = True
    if msg.table is not None:
        conn.shared = await conn.registry.follow_shared(msg.table, conn.token, msg.watch, conn.send)
        conn.watching = msg.watch
    elif not await conn.registry.follow(conn.token, conn.send):
        conn.send({"type": "state", "version": 0, "table": None})


async def new_match(conn: Connection, msg: m.NewMatch) -> None:
    if conn.shared is not None:
        raise TableError("not_allowed", "New match is for a game against the computer")
    await conn.registry.new_match(conn.token, msg.level, msg.abandon, msg.version, conn.send)


async def select_pass(conn: Connection, msg: m.SelectPass) -> None:
    table = await conn.seated()
    await table.select_pass(conn.token, cards_of(msg.cards), msg.version)


async def confirm_pass(conn: Connection, msg: m.ConfirmPass) -> None:
    table = await conn.seated()
    await table.confirm_pass(conn.token, cards_of(msg.cards), msg.version)


async def continue_play(conn: Connection, msg: m.Continue) -> None:
    table = await conn.seated()
    await table.continue_play(conn.token, msg.version)


async def play(conn: Connection, msg: m.Play) -> None:
    card = cards_of([msg.card])[0]
    table = await conn.seated()
    await table.play(conn.token, card, msg.version)


async def choose_moon(conn: Connection, msg: m.ChooseMoon) -> None:
    table = await conn.seated()
    await table.choose_moon(conn.token, msg.style, msg.version)


async def undo(conn: Connection, msg: m.Undo) -> None:
    table = await conn.seated()
    await table.undo(conn.token, msg.version)


async def restart_hand(conn: Connection, msg: m.RestartHand) -> None:
    table = await conn.seated()
    await table.restart_hand(conn.token, msg.version)


async def claim(conn: Connection, msg: m.Claim) -> None:
    table = await conn.seated()
    await table.claim(conn.token, msg.version)


async def pause(conn: Connection, msg: m.Pause) -> None:
    table = await conn.seated()
    await table.pause(conn.token, msg.version)


async def resume(conn: Connection, msg: m.Resume) -> None:
    table = await conn.seated()
    await table.resume(conn.token, msg.version)


async def set_pace(conn: Connection, msg: m.SetPace) -> None:
    table = await conn.seated()
    await table.set_pace(conn.token, msg.pace, msg.version)


async def next_hand(conn: Connection, msg: m.NextHand) -> None:
    table = await conn.seated()
    await table.next_hand(conn.token, msg.version)


def shared_table(conn: Connection) -> Table:
    if conn.shared is None:
        raise TableError("not_now", "That is for a table with other people")
    return conn.shared


async def sit(conn: Connection, msg: m.Sit) -> None:
    table = shared_table(conn)
    try:
        name = seat_name(conn.name, msg.name)
    except ValueError as error:
        raise TableError("bad_name", str(error)) from None
    await table.sit(conn.token, name, msg.seat, conn.send)
    conn.watching = False


async def stand(conn: Connection, msg: m.Stand) -> None:
    await shared_table(conn).stand(conn.token)


async def start(conn: Connection, msg: m.Start) -> None:
    await shared_table(conn).start(conn.token)


async def leave(conn: Connection, msg: m.Leave) -> None:
    await shared_table(conn).leave(conn.token)


async def hint(conn: Connection, msg: m.Hint) -> None:
    table = await conn.seated()

    async def answer() -> None:
        try:
            cards = await table.hint(conn.token, msg.version, msg.accept_unranked)
        except TableError as error:
            conn.error(error.code, error.message, msg.seq)
        except Exception:
            log.exception("hint failed")
            conn.error("server_error", "No hint could be computed", msg.seq)
        else:
            conn.send({"type": "hint", "cards": cards, "seq": msg.seq})

    # A hint may take a while (Expert): meanwhile the socket keeps taking intents.
    task = asyncio.create_task(answer())
    conn.tasks.add(task)
    task.add_done_callback(conn.tasks.discard)


Handler = Callable[[Connection, Any], Awaitable[None]]

HANDLERS: dict[str, tuple[type[m.Intent], Handler]] = {
    "hello": (m.Hello, hello),
    "new_match": (m.NewMatch, new_match),
    "select_pass": (m.SelectPass, select_pass),
    "confirm_pass": (m.ConfirmPass, confirm_pass),
    "continue": (m.Continue, continue_play),
    "play": (m.Play, play),
    "undo": (m.Undo, undo),
    "restart_hand": (m.RestartHand, restart_hand),
    "hint": (m.Hint, hint),
    "claim": (m.Claim, claim),
    "pause": (m.Pause, pause),
    "resume": (m.Resume, resume),
    "set_pace": (m.SetPace, set_pace),
    "next_hand": (m.NextHand, next_hand),
    "sit": (m.Sit, sit),
    "stand": (m.Stand, stand),
    "start": (m.Start, start),
    "leave": (m.Leave, leave),
    "choose_moon": (m.ChooseMoon, choose_moon),
}
"""Each ``type``: the shape its message must have, and what to do with it."""
