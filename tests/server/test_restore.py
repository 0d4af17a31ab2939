"""Restarting the server continues every match exactly where it was."""

from __future__ import annotations

import sqlalchemy
from fastapi.testclient import TestClient
from player import Player, connect, new_guest

from hearts.server.app import create_app
from hearts.server.settings import Settings


def test_a_match_continues_after_a_restart(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        new_guest(client)
        cookies = dict(client.cookies)
        with connect(client) as socket:
            player = Player(socket)
            player.send("hello")
            player.receive()
            player.pass_and_continue(player.start())
            table = player.my_turn()
            player.send("play", card=table["legal"][0])
            player.until(lambda t: t["turn"] == 0)
            player.send("undo")
            player.state()
            player.send("select_pass", cards=[])  # refused: the pass is over
            player.error()
            before, version = player.table, player.version

    # A new app on the same database file, as after kill -9 and a restart.
    with TestClient(create_app(settings), cookies=cookies) as client, connect(client) as socket:
        player = Player(socket)
        player.send("hello")
        after = player.state()
    assert player.version == version
    assert before is not None
    for key in ("match_id", "hand", "tricks", "legal", "turn", "totals", "used_undo", "ranked"):
        assert after[key] == before[key], key


def test_an_unconfirmed_pass_selection_is_restored(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        new_guest(client)
        cookies = dict(client.cookies)
        with connect(client) as socket:
            player = Player(socket)
            player.send("hello")
            player.receive()
            table = player.start()
            player.send("select_pass", cards=table["hand"][4:6])
            selected = player.state()["pass_selection"]
    with TestClient(create_app(settings), cookies=cookies) as client, connect(client) as socket:
        player = Player(socket)
        player.send("hello")
        assert player.state()["pass_selection"] == selected == table["hand"][4:6]


def test_the_seed_and_hidden_cards_stay_in_the_database(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        token = new_guest(client)
        with connect(client) as socket:
            player = Player(socket)
            player.send("hello")
            player.receive()
            player.start()
            assert "seed" not in (player.table or {})
    engine = sqlalchemy.create_engine(settings.db_url)
    with engine.connect() as db:
        status, seed, version = db.execute(
            sqlalchemy.text("SELECT status, seed, version FROM matches WHERE owner_token = :owner"),
            {"owner": token},
        ).one()
    engine.dispose()
    assert status == "active" and seed == 20241129 and version == player.version
