"""Limits and security headers: body sizes, request and message rates, open sockets."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from fastapi.testclient import TestClient
from player import ORIGIN, Player, connect, new_guest, post
from starlette.websockets import WebSocketDisconnect

from hearts.server import limits
from hearts.server.app import create_app
from hearts.server.limits import HTTP_BURST, HTTP_RATE, Bucket, Buckets, content_security_policy
from hearts.server.settings import Settings


@pytest.mark.parametrize("path", ["/", "/api/session", "/static/app.js", "/nothing", "/healthz"])
def test_every_answer_has_the_security_headers(client: TestClient, path: str) -> None:
    headers = client.get(path).headers
    policy = headers["content-security-policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'self'" in policy
    assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy
    assert "connect-src 'self' ws://testserver wss://testserver" in policy
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "same-origin"
    assert headers["x-frame-options"] == "SAMEORIGIN"


def test_a_strange_host_does_not_reach_the_policy() -> None:
    assert "evil" not in content_security_policy("a; script-src evil")
    assert "ws://[::1]:8000" in content_security_policy("[::1]:8000")


def test_pages_answer_head(client: TestClient) -> None:
    assert client.head("/").status_code == 200
    assert client.head("/healthz").status_code == 200


def test_bodies_have_a_size_limit(client: TestClient) -> None:
    new_guest(client)
    response = post(client, "/api/tables", {"name": "x", "padding": "y" * 70_000})
    assert response.status_code == 413 and "64 KB" in response.json()["detail"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted while read
        for _ in range(80):
            yield b" " * 1024

    csrf = client.get("/api/session").json()["csrf"]
    response = client.post(
        "/api/account/signin",
        content=chunks(),
        headers={"X-CSRF-Token": csrf, "Content-Type": "application/json"},
    )
    assert response.status_code == 413
    assert client.get("/api/session").status_code == 200  # the server carries on


class StillClock:
    """The buckets' clock, held still until a test moves it: the tokens a test counts do
    not depend on how fast the machine answers."""

    def __init__(self) -> None:
        self.now = time.monotonic()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def still_clock(monkeypatch: pytest.MonkeyPatch) -> StillClock:
    clock = StillClock()
    monkeypatch.setattr(limits, "clock", clock)
    return clock


def test_too_many_requests_from_one_address(client: TestClient, still_clock: StillClock) -> None:
    statuses = [client.get("/api/session").status_code for _ in range(400)]
    # The whole burst, and not one request more.
    assert statuses == [200] * int(HTTP_BURST) + [429] * (400 - int(HTTP_BURST))
    response = client.get("/api/session")
    assert response.json() == {"detail": "Too many requests: slow down a little"}
    # A second later the address may send a second's worth again.
    still_clock.advance(1.0)
    statuses = [client.get("/api/session").status_code for _ in range(40)]
    assert statuses == [200] * int(HTTP_RATE) + [429] * (40 - int(HTTP_RATE))


def test_token_buckets(still_clock: StillClock) -> None:
    bucket = Bucket(rate=10.0, burst=3.0)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    still_clock.advance(0.15)
    assert bucket.take() and not bucket.take()
    still_clock.advance(60.0)  # never more than the burst saved up
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    buckets = Buckets(rate=1.0, burst=1.0)
    assert buckets.take("a") and not buckets.take("a") and buckets.take("b")


def test_a_socket_that_floods_is_slowed_down(settings: Settings, still_clock: StillClock) -> None:
    defaults = Settings()
    limited = settings.with_changes(
        socket_rate=defaults.socket_rate, socket_burst=defaults.socket_burst
    )
    with TestClient(create_app(limited)) as client, ExitStack() as stack:
        new_guest(client)
        player = Player(stack.enter_context(connect(client)))
        player.send("hello")
        player.receive()
        _flood_then_recover(player, still_clock)


def _flood_then_recover(player: Player, clock: StillClock) -> None:
    player.start()
    for number in range(150):
        player.send("set_pace", pace="quick", seq=number)
    refused = []
    for _ in range(150):
        message = player.receive()
        if message["type"] == "error":
            assert message["code"] == "too_fast"
            refused.append(message["seq"])
    assert refused and all(isinstance(seq, int) for seq in refused)  # the tab knows which
    clock.advance(0.5)  # the bucket fills up again
    player.send("set_pace", pace="relaxed")
    for _ in range(10):
        message = player.receive()
        if (
            message["type"] == "state"
            and message["table"]
            and message["table"]["pace"] == "relaxed"
        ):
            break
    else:
        raise AssertionError("the socket did not recover")


def test_open_sockets_per_player_are_capped(client: TestClient, token: str) -> None:
    limit = client.app.state.settings.max_sockets_per_player  # type: ignore[attr-defined]
    with ExitStack() as stack:
        for _ in range(limit):
            stack.enter_context(connect(client))
        with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws", headers=ORIGIN):
            pass
    with connect(client) as socket:  # closed ones make room again
        tab = Player(socket)
        tab.send("hello")
        assert tab.receive()["type"] == "state"
