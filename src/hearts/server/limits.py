"""Limits that keep one client from taking the server down: request rates,
body sizes, open sockets, and the security headers every answer carries.

Plain ASGI middleware and small in-memory counters (per server process).
"""

from __future__ import annotations

import re
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Final

from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES: Final = 64 * 1024
"""Any request body, except the routes below."""
BODY_LIMITS: Final = {"/api/replay": 2 * 1024 * 1024, "/api/coach": 2 * 1024 * 1024}
"""Routes allowed a bigger body (a whole match's record)."""

HTTP_RATE: Final = 30.0
"""Requests per second one client address may keep up over time..."""
HTTP_BURST: Final = 300.0
"""...and how many it may send at once."""
SOCKET_RATE: Final = 20.0
"""Messages per second one socket may keep up (a person sends a few a minute)..."""
SOCKET_BURST: Final = 60.0


def clock() -> float:
    """The seconds the buckets count by: :func:`time.monotonic`, behind a name of its own so
    that a test can hold time still and count tokens exactly, however fast the machine."""
    return time.monotonic()


@dataclass
class Bucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst`` saved up."""

    rate: float
    burst: float
    tokens: float = -1.0
    at: float = field(default_factory=lambda: clock())

    def take(self) -> bool:
        now = clock()
        if self.tokens < 0:
            self.tokens = self.burst
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Buckets:
    """One bucket per key (a client address); idle buckets are forgotten."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self._buckets: dict[str, Bucket] = {}
        self._swept = clock()

    def take(self, key: str) -> bool:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = Bucket(self.rate, self.burst)
        allowed = bucket.take()
        self._sweep()
        return allowed

    def _sweep(self) -> None:
        now = clock()
        if now - self._swept < 60:
            return
        self._swept = now
        full_after = self.burst / self.rate
        for key, bucket in list(self._buckets.items()):
            if now - bucket.at > full_after:
                del self._buckets[key]  # it would be full again anyway


class Connections:
    """Open sockets per player and per address, with a cap on each."""

    def __init__(self, per_player: int, per_address: int) -> None:
        self.per_player, self.per_address = per_player, per_address
        self._players: defaultdict[str, int] = defaultdict(int)
        self._addresses: defaultdict[str, int] = defaultdict(int)

    def open(self, player: str, address: str) -> bool:
        if self._players[player] >= self.per_player:
            return False
        if self._addresses[address] >= self.per_address:
            return False
        self._players[player] += 1
        self._addresses[address] += 1
        return True

    def close(self, player: str, address: str) -> None:
        for counts, key in ((self._players, player), (self._addresses, address)):
            counts[key] -= 1
            if counts[key] <= 0:
                del counts[key]


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


_HOST: Final = re.compile(r"[A-Za-z0-9.\-]+(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")


def content_security_policy(host: str | None) -> str:
    """Only this site's own scripts, styles, images and socket; framed only by itself."""
    sockets = "'self'"
    if host and _HOST.fullmatch(host):
        sockets += f" ws://{host} wss://{host}"
    return (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        f"connect-src {sockets}; frame-ancestors 'self'; base-uri 'none'; "
        "form-action 'self'; object-src 'none'"
    )


class Guard:
    """Security headers on every answer; body size and request rate limits on requests."""

    def __init__(self, app: ASGIApp, rate: float = HTTP_RATE, burst: float = HTTP_BURST) -> None:
        self.app = app
        self.buckets = Buckets(rate, burst)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), None)
        policy = content_security_policy(host)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers["Content-Security-Policy"] = policy
                headers["X-Content-Type-Options"] = "nosniff"
                headers["Referrer-Policy"] = "same-origin"
                headers["X-Frame-Options"] = "SAMEORIGIN"
                headers["Cross-Origin-Opener-Policy"] = "same-origin"
            await send(message)

        if scope["path"].startswith("/api/") and not self.buckets.take(client_address(scope)):
            await _refuse(send_with_headers, 429, "Too many requests: slow down a little")
            return
        limit = BODY_LIMITS.get(scope["path"], MAX_BODY_BYTES)
        declared = next((v for k, v in scope["headers"] if k == b"content-length"), None)
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _refuse(send_with_headers, 413, f"A request body is at most {limit // 1024} KB")
            return
        await self.app(scope, _limited(receive, limit), send_with_headers)


def _limited(receive: Receive, limit: int) -> Receive:
    """Stop reading a body (sent without a length) once it passes ``limit``."""
    seen = 0

    async def limited() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                raise BodyTooLarge(limit)
        return message

    return limited


class BodyTooLarge(HTTPException):
    """Raised while the body is read: the app answers 413 (FastAPI lets HTTP errors through)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"A request body is at most {limit // 1024} KB")


async def _refuse(send: Send, status: int, detail: str) -> None:
    body = ('{"detail": "' + detail + '"}').encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
