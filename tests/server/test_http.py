"""The HTTP routes: pages, help, static files, guest, record export, replay, health."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from player import Player, csrf, post

from hearts import Match, read_record, write_record
from hearts.server.app import create_app
from hearts.server.routes import pages
from hearts.server.routes.pages import HELP_PAGES, HELP_TITLES
from hearts.server.settings import Settings


def test_health(client: TestClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200 and response.text == "ok"


@pytest.mark.parametrize("path", ["/", "/replay", *(f"/help/{page}" for page in HELP_PAGES)])
def test_pages(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")


@pytest.mark.parametrize("page", HELP_PAGES)
def test_help_pages_share_one_frame(settings: Settings, page: str) -> None:
    # The real web folder: each article is served inside help/_layout.html.
    real = settings.with_changes(web_dir=Path(pages.__file__).parents[1] / "web")
    with TestClient(create_app(real)) as client:
        html = client.get(f"/help/{page}").text
        assert client.get("/help/_layout").status_code == 404
    assert html.startswith("<!doctype html>") and "$" not in html.split("<main>")[0]
    assert f'<a href="/help/{page}" aria-current="page">{HELP_TITLES[page]}</a>' in html
    assert html.count('aria-current="page"') == 1
    assert html.count("<h1>") == 1


def test_unknown_help_page(client: TestClient) -> None:
    assert client.get("/help/cheats").status_code == 404
    assert client.get("/help/..%2Fsecret").status_code == 404


def test_static_files(client: TestClient) -> None:
    assert client.get("/static/app.js").text == "export {};"
    assert client.get("/static/missing.js").status_code == 404


def test_record_export_leaves_out_the_hand_in_play(client: TestClient, player: Player) -> None:
    assert client.get("/api/match/record").status_code == 404
    player.start()
    response = client.get("/api/match/record")
    assert response.status_code == 409
    from test_socket_play import play_hand

    play_hand(player)
    record = client.get("/api/match/record").json()
    assert len(record["hands"]) == 1 and record["meta"]["level"] == "easy"
    player.send("next_hand")
    player.until(lambda t: t["hand_number"] == 2)
    record = client.get("/api/match/record").json()
    assert len(record["hands"]) == 1  # hand 2 is in play: its deal stays hidden
    assert read_record(record).hand_number == 1


def test_replay_frames(client: TestClient) -> None:
    match = Match(seed=5)
    for seat in range(4):
        match.confirm_pass(seat, list(match.holding(seat))[:3])
    while match.phase.value == "playing":
        match.play(match.legal_moves()[0])
    response = post(client, "/api/replay", write_record(match))
    assert response.status_code == 200
    frames = response.json()
    hand = frames["hands"][0]
    assert len(hand["deal"]) == 4 and all(len(cards) == 13 for cards in hand["deal"])
    assert all(len(cards) == 3 for cards in hand["passes"])
    assert len(hand["tricks"]) == 13 and hand["tricks"][0]["cards"][0][1] == "2C"
    assert hand["points"] == list(match.results[0].points) == hand["totals"]
    assert frames["totals"] == list(match.totals)


def test_replay_refuses_a_bad_record(client: TestClient) -> None:
    record = write_record(Match(seed=5))
    record["hands"][0]["plays"] = ["3C"]
    response = post(client, "/api/replay", record)
    assert response.status_code == 400
    assert "hand 1" in response.json()["detail"]
    headers = {"X-CSRF-Token": csrf(client)}
    response = client.post("/api/replay", content=b"{oops", headers=headers)
    assert response.status_code == 400 and response.json()["detail"] == "not JSON"
    response = client.post("/api/replay", content=b" " * (2 * 1024 * 1024 + 1), headers=headers)
    assert response.status_code == 413
