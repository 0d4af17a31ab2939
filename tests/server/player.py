"""A browser tab in the tests: send intents, read states and errors."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Final

import httpx
import sqlalchemy
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from hearts.server.security import SESSION_COOKIE
from hearts.server.settings import Settings

Table = dict[str, Any]


class Player:
    """A browser tab: sends intents, reads states and errors."""

    def __init__(self, socket: WebSocketTestSession) -> None:
        self.socket = socket
        self.version = 0
        self.table: Table | None = None
        self.claimed = False

    def send(self, kind: str, **fields: Any) -> None:
        self.socket.send_json({"type": kind, **fields})

    def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = self.socket.receive_json()
        if message["type"] == "state":
            self.version = message["version"]
            self.table = message["table"]
        return message

    def state(self) -> Table:
        """The next state (failing on an error)."""
        message = self.receive()
        assert message["type"] == "state", message
        assert message["table"] is not None
        table: Table = message["table"]
        return table

    def until(self, done: Callable[[Table], bool], limit: int = 400) -> Table:
        """Read states until one satisfies ``done``."""
        for _ in range(limit):
            table = self.state()
            if done(table):
                return table
        raise AssertionError("the expected state never came")

    def error(self) -> dict[str, Any]:
        """The next error, skipping states."""
        for _ in range(400):
            message = self.receive()
            if message["type"] == "error":
                return message
        raise AssertionError("no error came")

    def start(self, level: str = "easy") -> Table:
        """A new match, after the bots have passed."""
        self.send("new_match", level=level, abandon=True)
        return self.until(lambda t: t["phase"] == "passing" and all(t["pass_confirmed"][1:]))

    def pass_and_continue(self, table: Table) -> Table:
        """Confirm the first three cards, then Continue; returns the first playing state."""
        if table["phase"] == "passing":
            self.send("confirm_pass", cards=table["hand"][:3])
            table = self.until(lambda t: t["awaiting_continue"])
            self.send("continue")
            table = self.until(lambda t: not t["awaiting_continue"])
        return table

    def my_turn(self) -> Table:
        return self.until(
            lambda t: t["phase"] != "playing" or (t["turn"] == 0 and bool(t["legal"]))
        )


ORIGIN: Final = {"origin": "http://testserver"}
"""The Origin a page of the test server sends with its WebSocket handshake."""


def browser(client: TestClient) -> TestClient:
    """Another browser (its own cookies) on the same running app and event loop."""
    other = TestClient(client.app)
    other.portal = client.portal
    return other


def connect(client: TestClient) -> AbstractContextManager[WebSocketTestSession]:
    """A WebSocket as a page of this site opens it (the client's cookies go along)."""
    return client.websocket_connect("/ws", headers=ORIGIN)


def csrf(client: TestClient) -> str:
    token: str = client.get("/api/session").json()["csrf"]
    return token


def post(client: TestClient, url: str, body: Any = None) -> httpx.Response:
    """A POST as the page sends it: with the session's CSRF token."""
    return client.post(url, json=body, headers={"X-CSRF-Token": csrf(client)})


def session_data(client: TestClient) -> dict[str, Any]:
    """What the signed session cookie holds (signed, not encrypted: tests may read it)."""
    cookie = client.cookies.get(SESSION_COOKIE)
    assert cookie, "no session cookie"
    payload = cookie.split(".", 1)[0]
    data: dict[str, Any] = json.loads(base64.b64decode(payload))
    return data


def new_guest(client: TestClient) -> str:
    """Make the client's session a guest; returns the player's token (as the database knows it)."""
    response = post(client, "/api/guest")
    assert response.status_code == 200, response.text
    token: str = session_data(client)["player"]
    return token


PASSWORD = "correct horse battery"


def sign_up(client: TestClient, username: str, password: str = PASSWORD) -> dict[str, object]:
    response = post(client, "/api/account/signup", {"username": username, "password": password})
    assert response.status_code == 200, response.text
    body: dict[str, object] = response.json()
    return body


def sign_in(client: TestClient, username: str, password: str = PASSWORD) -> int:
    response = post(client, "/api/account/signin", {"username": username, "password": password})
    return response.status_code


def db(settings: Settings, sql: str, **params: object) -> list[tuple[object, ...]]:
    engine = sqlalchemy.create_engine(settings.db_url)
    try:
        with engine.begin() as connection:
            result = connection.execute(sqlalchemy.text(sql), params)
            return [tuple(row) for row in result] if result.returns_rows else []
    finally:
        engine.dispose()
