"""The dispatch table: each message ``type`` and the handler that carries it out."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from hearts.cards import parse_card
from hearts.server.tables.registry import TableRegistry
from hearts.server.tables.seats import TableError
from hearts.server.tables.table import Listener, Table
from hearts.server.ws import messages as m

log = logging.getLogger(__name__)


@dataclass
class Connection:
    """One socket: who it speaks for (from the session, at the handshake), and how to reach it."""

    registry: TableRegistry
    send: Listener
    token: str
    greeted: bool = False
    """Whether ``hello`` came: until then the socket follows no table."""
    seat: int = 0
    """A solo player always sits South."""
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def error(self, code: str, message: str, seq: int | None) -> None:
        self.send({"type": "error", "code": code, "message": message, "seq": seq})

    async def table(self) -> Table:
        table = await self.registry.table_for(self.token)
        if table is None:
            raise TableError("no_match", "Start a match first")
        return table


def cards_of(texts: list[str]) -> list[int]:
    cards = []
    for text in texts:
        try:
            cards.append(parse_card(text))
        except ValueError:
            raise TableError("bad_message", f"Not a card: {text[:10]!r}") from None
    return cards


async def hello(conn: Connection, msg: m.Hello) -> None:
    if conn.greeted:
        await conn.registry.leave(conn.token, conn.send)  # a second hello starts afresh
    conn.greeted = True
    if not await conn.registry.follow(conn.token, conn.send):
        conn.send({"type": "state", "version": 0, "table": None})


async def new_match(conn: Connection, msg: m.NewMatch) -> None:
    await conn.registry.new_match(conn.token, msg.level, msg.abandon, msg.version, conn.send)


async def select_pass(conn: Connection, msg: m.SelectPass) -> None:
    await (await conn.table()).select_pass(conn.seat, cards_of(msg.cards), msg.version)


async def confirm_pass(conn: Connection, msg: m.ConfirmPass) -> None:
    await (await conn.table()).confirm_pass(conn.seat, cards_of(msg.cards), msg.version)


async def continue_play(conn: Connection, msg: m.Continue) -> None:
    await (await conn.table()).continue_play(conn.seat, msg.version)


async def play(conn: Connection, msg: m.Play) -> None:
    card = cards_of([msg.card])[0]
    await (await conn.table()).play(conn.seat, card, msg.version)


async def undo(conn: Connection, msg: m.Undo) -> None:
    await (await conn.table()).undo(conn.seat, msg.version)


async def restart_hand(conn: Connection, msg: m.RestartHand) -> None:
    await (await conn.table()).restart_hand(conn.seat, msg.version)


async def claim(conn: Connection, msg: m.Claim) -> None:
    await (await conn.table()).claim(conn.seat, msg.version)


async def pause(conn: Connection, msg: m.Pause) -> None:
    await (await conn.table()).pause(conn.seat, msg.version)


async def resume(conn: Connection, msg: m.Resume) -> None:
    await (await conn.table()).resume(conn.seat, msg.version)


async def set_pace(conn: Connection, msg: m.SetPace) -> None:
    await (await conn.table()).set_pace(conn.seat, msg.pace, msg.version)


async def next_hand(conn: Connection, msg: m.NextHand) -> None:
    await (await conn.table()).next_hand(conn.seat, msg.version)


async def hint(conn: Connection, msg: m.Hint) -> None:
    table = await conn.table()

    async def answer() -> None:
        try:
            cards = await table.hint(conn.seat, msg.version)
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
}
"""Each ``type``: the shape its message must have, and what to do with it."""
