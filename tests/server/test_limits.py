"""Limits and security headers: body sizes, request and message rates, open sockets."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from fastapi.testclient import TestClient
from player import ORIGIN, Player, connect, new_guest, post
from starlette.websockets import WebSocketDisconnect

from hearts.server.app import create_app
from hearts.server.limits import Bucket, Buckets, content_security_policy
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


def test_too_many_requests_from_one_address(client: TestClient) -> None:
    statuses = [client.get("/api/session").status_code for _ in range(1000)]
    assert 429 in statuses
    first = statuses.index(429)
    assert first >= 250 and set(statuses[:first]) == {200}
    response = client.get("/api/session")
    assert response.status_code in (200, 429)
    if response.status_code == 429:
        assert response.json() == {"detail": "Too many requests: slow down a little"}


def test_token_buckets() -> None:
    bucket = Bucket(rate=10.0, burst=3.0)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    time.sleep(0.15)
    assert bucket.take()
    buckets = Buckets(rate=1.0, burst=1.0)
    assert buckets.take("a") and not buckets.take("a") and buckets.take("b")


def test_a_socket_that_floods_is_slowed_down(settings: Settings) -> None:
    defaults = Settings()
    limited = settings.with_changes(
        socket_rate=defaults.socket_rate, socket_burst=defaults.socket_burst
    )
    with TestClient(create_app(limited)) as client, ExitStack() as stack:
        new_guest(client)
        player = Player(stack.enter_context(connect(client)))
        player.send("hello")
        player.receive()
        _flood_then_recover(player)


def _flood_then_recover(player: Player) -> None:
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
    time.sleep(0.5)  # the bucket fills up again
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
