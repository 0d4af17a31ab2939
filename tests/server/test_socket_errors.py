"""Bad input: each kind gets an error with a human reason; the socket stays up; nothing changes."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient
from player import ORIGIN, Player, connect, new_guest
from starlette.websockets import WebSocketDisconnect

from hearts.server.security import SESSION_COOKIE


def still_works(player: Player) -> None:
    player.send("set_pace", pace="quick")
    assert player.state()["pace"] == "quick"


def refused(client: TestClient, headers: dict[str, str]) -> bool:
    """Whether the WebSocket handshake is refused (HTTP 403 before accept)."""
    try:
        with client.websocket_connect("/ws", headers=headers):
            return False
    except WebSocketDisconnect as closed:
        return closed.code == 1008


def test_the_socket_needs_a_session(client: TestClient) -> None:
    assert refused(client, ORIGIN)  # no cookie yet
    client.cookies.set(SESSION_COOKIE, "forged.cookie.value")
    assert refused(client, ORIGIN)
    client.cookies.clear()
    new_guest(client)
    assert not refused(client, ORIGIN)


def test_the_socket_checks_the_origin(client: TestClient) -> None:
    new_guest(client)
    assert refused(client, {})
    assert refused(client, {"origin": "https://evil.example"})
    assert refused(client, {"origin": "http://testserver.evil.example"})
    assert not refused(client, {"origin": "http://testserver"})


def test_a_hello_token_is_ignored(client: TestClient) -> None:
    # Tokens are no longer credentials: someone else's token in hello changes nothing.
    other = new_guest(client)
    client.cookies.clear()
    new_guest(client)
    with connect(client) as socket:
        player = Player(socket)
        player.send("hello", token=other)
        assert player.receive() == {"type": "state", "version": 0, "table": None}


def test_intent_before_hello(client: TestClient, token: str) -> None:
    with connect(client) as socket:
        player = Player(socket)
        player.send("play", card="2C")
        assert player.error()["code"] == "hello_first"


def test_malformed_json(player: Player) -> None:
    player.start()
    version = player.version
    player.socket.send_text("{not json")
    error = player.error()
    assert error["code"] == "bad_json" and error["message"] == "That message is not valid JSON"
    player.socket.send_text("[1, 2]")
    assert player.error()["code"] == "bad_message"
    still_works(player)
    assert player.version == version + 1


def test_unknown_type(player: Player) -> None:
    player.start()
    player.send("shuffle", seq=4)
    error = player.error()
    assert error == {
        "type": "error",
        "code": "unknown_type",
        "message": 'Unknown message type "shuffle"',
        "seq": 4,
    }
    player.socket.send_text(json.dumps({"card": "2C"}))
    assert player.error()["code"] == "unknown_type"
    still_works(player)


def test_wrong_field_types(player: Player) -> None:
    table = player.start()
    player.send("select_pass", cards="2C 3C")
    assert player.error()["code"] == "bad_message"
    player.send("play", card=12)
    assert player.error()["message"].startswith("Bad field card")
    player.send("new_match", level="hard", abandon=True)
    assert player.error()["code"] == "bad_message"
    player.send("confirm_pass", cards=table["hand"][:2])
    assert player.error()["code"] == "bad_message"
    player.send("confirm_pass", cards=["XX", "YY", "ZZ"])
    assert player.error()["message"] == "Not a card: 'XX'"
    player.send("undo", version="3")
    assert player.error()["code"] == "bad_message"
    still_works(player)


def test_oversized_message(player: Player) -> None:
    player.start()
    player.socket.send_text(json.dumps({"type": "play", "card": "2C", "pad": "x" * 70_000}))
    error = player.error()
    assert error["code"] == "too_large" and "64 KB" in error["message"]
    still_works(player)


def test_stale_version_changes_nothing(player: Player) -> None:
    table = player.start()
    old = player.version
    player.send("select_pass", cards=table["hand"][:1], version=old)
    assert player.state()["pass_selection"] == table["hand"][:1]
    # A second tab (or a double click) still at the old version:
    player.send("confirm_pass", cards=table["hand"][:3], version=old, seq=9)
    error = player.error()
    assert error["code"] == "stale" and error["seq"] == 9
    player.send("set_pace", pace="quick", version=player.version)
    table = player.state()
    assert table["phase"] == "passing" and table["passed"] is None


def test_second_tab_sees_the_same_table(client: TestClient, player: Player) -> None:
    player.start()
    with connect(client) as socket:
        other = Player(socket)
        other.send("hello")
        table = other.state()
        assert other.version == player.version and table["hand"] == (player.table or {})["hand"]
        other.send("set_pace", pace="quick")
        assert other.state()["pace"] == "quick"
        assert player.state()["pace"] == "quick"


def test_new_match_after_a_decision_needs_abandon(player: Player) -> None:
    table = player.start()
    first = table["match_id"]
    player.send("new_match", level="easy", abandon=False)  # no decision yet: replaced freely
    table = player.until(lambda t: t["match_id"] != first)
    second = table["match_id"]
    player.send("confirm_pass", cards=table["hand"][:3])
    player.until(lambda t: t["awaiting_continue"])
    player.send("new_match", level="expert", abandon=False, seq=2)
    error = player.error()
    assert error["code"] == "confirm_abandon" and error["seq"] == 2
    player.send("new_match", level="expert", abandon=True)
    table = player.until(lambda t: t["match_id"] != second)
    assert table["level"] == "expert" and table["hand_number"] == 1
