"""``hearts serve``: uvicorn set up so that a bare server holds its own against hostile clients.

What a reverse proxy would otherwise do (docs/deploy.md still advises one):

- a WebSocket message larger than the game's 64 KB limit is refused by the
  server itself, before it is inflated (uvicorn's ``ws_max_size``; a
  compressed frame is never decompressed past it);
- a connection must finish its request head within ``HEARTS_HEAD_TIMEOUT``
  seconds, 10 by default (uvicorn has no such timeout of its own: a client
  could hold hundreds of connections open by never finishing a request);
- a text frame that is not UTF-8 is logged in one line, not a traceback.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Final

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from hearts.server.app import create_app
from hearts.server.settings import Settings
from hearts.server.ws.connection import MAX_MESSAGE_BYTES

KEEP_ALIVE: Final = 5
"""Seconds an idle keep-alive connection stays open between requests."""


class HeadTimeoutProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol, closing connections that are too slow to say what they want."""

    head_timeout = 10.0
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self.cycle is None or self.cycle.response_complete:
            self._arm()  # a new request begins: its head must come in time too
        super().data_received(data)

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.head_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _too_slow(self) -> None:
        self._head_timer = None
        waiting = self.cycle is None or self.cycle.response_complete
        if waiting and not self.transport.is_closing():
            self.transport.close()


class OneLineForBadText(logging.Filter):
    """uvicorn logs a whole traceback for each text frame that is not UTF-8: one line is enough."""

    def filter(self, record: logging.LogRecord) -> bool:
        if str(record.msg).startswith("Invalid UTF-8 sequence"):
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def serve(settings: Settings) -> None:
    """Serve the game until interrupted (``create_app`` may refuse a half-lost data folder)."""
    app = create_app(settings)
    logging.getLogger("uvicorn.error").addFilter(OneLineForBadText())
    protocol = type("Protocol", (HeadTimeoutProtocol,), {"head_timeout": settings.head_timeout})
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        http=protocol,
        ws_max_size=MAX_MESSAGE_BYTES,
        timeout_keep_alive=KEEP_ALIVE,
    )
