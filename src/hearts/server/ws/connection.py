"""One WebSocket connection: read, check, dispatch; write from a queue in order."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any, Final

from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect

from hearts.server.db.session import StorageLost
from hearts.server.limits import Bucket
from hearts.server.tables.registry import TableRegistry
from hearts.server.tables.seats import TableError
from hearts.server.ws.handlers import HANDLERS, Connection

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES: Final = 64 * 1024
MAX_QUEUED: Final = 1000
"""Messages waiting for a socket that does not read them before it is closed."""


async def serve(
    socket: WebSocket, registry: TableRegistry, token: str, name: str, rate: Bucket
) -> None:
    """Serve one browser tab of the player ``token`` (shown as ``name``) until it goes away;
    ``rate`` is how many messages it may send."""
    await socket.accept()
    outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

    def send(message: dict[str, Any]) -> None:
        if outbox.qsize() < MAX_QUEUED:
            outbox.put_nowait(message)
        elif outbox.qsize() == MAX_QUEUED:
            outbox.put_nowait(None)  # a tab that stopped reading: the writer hangs up

    conn = Connection(registry, send, token, name)
    writer = asyncio.create_task(_write(socket, outbox))
    try:
        while True:
            event = await socket.receive()
            if event["type"] == "websocket.disconnect":
                break
            text = event.get("text")
            if not rate.take():  # dropped unread (a text frame's seq is still echoed)
                seq = _seq_of(text) if isinstance(text, str) else None
                conn.error("too_fast", "Too many messages at once: slow down a little", seq)
                continue
            if text is None:
                data = event.get("bytes") or b""
                text = data.decode("utf-8", errors="replace")
            await handle(conn, text)
    except WebSocketDisconnect:
        pass
    finally:
        for task in list(conn.tasks):
            task.cancel()
        writer.cancel()
        # Leaving the table must finish even if this handler is being cancelled
        # (server shutdown): the others are told the seat is away.
        await asyncio.shield(asyncio.ensure_future(conn.close()))


async def _write(socket: WebSocket, outbox: asyncio.Queue[dict[str, Any] | None]) -> None:
    while True:
        message = await outbox.get()
        if message is None:
            with contextlib.suppress(Exception):
                await socket.close(code=1013)
            return
        try:
            await socket.send_text(json.dumps(message))
        except Exception:  # the socket closed: the reader notices and cleans up
            return


async def handle(conn: Connection, text: str) -> None:
    """Parse one message and carry it out; anything wrong is answered by an ``error``."""
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
        conn.error("too_large", "That message is too large (the limit is 64 KB)", None)
        return
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        conn.error("bad_json", "That message is not valid JSON", None)
        return
    if not isinstance(data, dict):
        conn.error("bad_message", "A message must be a JSON object with a type", None)
        return
    seq = _seq(data)
    kind = data.get("type")
    entry = HANDLERS.get(kind) if isinstance(kind, str) else None
    if entry is None:
        shown = json.dumps(kind)[:40]
        conn.error("unknown_type", f"Unknown message type {shown}", seq)
        return
    shape, handler = entry
    try:
        message = shape.model_validate(data)
    except ValidationError as error:
        conn.error("bad_message", _describe(error), seq)
        return
    if not conn.greeted and kind != "hello":
        conn.error("hello_first", "Say hello first", seq)
        return
    try:
        await handler(conn, message)
    except TableError as error:
        conn.error(error.code, error.message, seq)
    except StorageLost:
        conn.error("unavailable", "The server cannot save moves right now: nothing was kept", seq)
    except Exception:
        log.exception("%s failed", kind)
        conn.error("server_error", "Something went wrong on the server; nothing changed", seq)


def _seq(data: dict[str, Any]) -> int | None:
    seq = data.get("seq")
    return seq if isinstance(seq, int) and not isinstance(seq, bool) else None


def _seq_of(text: str) -> int | None:
    """The ``seq`` of a message refused unread, when it is cheap to find (a small JSON object)."""
    if len(text) > 1024:
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return _seq(data) if isinstance(data, dict) else None


def _describe(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "message"
    return f"Bad field {where}: {first['msg'].lower()}"
