"""A browser tab in the tests: send intents, read states and errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

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


def new_guest(client: TestClient) -> str:
    response = client.post("/api/guest")
    assert response.status_code == 200
    token: str = response.json()["token"]
    return token
