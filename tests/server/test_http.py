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


def real_web(settings: Settings) -> Settings:
    return settings.with_changes(web_dir=Path(pages.__file__).parents[1] / "web")


def test_help_index_lists_every_page(settings: Settings) -> None:
    with TestClient(create_app(real_web(settings))) as client:
        for path in ("/help", "/help/"):
            response = client.get(path)
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("text/html")
            html = response.text
            assert html.startswith("<!doctype html>") and "<h1>Help</h1>" in html
            for page, title in HELP_TITLES.items():
                assert f'<a href="/help/{page}">{title}</a>' in html


def test_unknown_pages_get_a_page_and_the_api_keeps_json(settings: Settings) -> None:
    with TestClient(create_app(real_web(settings))) as client:
        for path in ("/nowhere", "/help/cheats", "/tables", "/stats/old"):
            response = client.get(path)
            assert response.status_code == 404, path
            assert response.headers["content-type"].startswith("text/html"), path
            assert "There is no page here" in response.text and 'href="/help"' in response.text
        for path in ("/api/nothing", "/static/missing.js", "/api/tables/x"):
            response = client.get(path, headers={"Accept": "text/html"})
            assert response.status_code == 404, path
            assert response.headers["content-type"].startswith("application/json"), path
            assert isinstance(response.json()["detail"], str)
        # Not a page request: a POST to nowhere is not answered with HTML.
        answer = client.post("/nowhere", headers={"X-CSRF-Token": csrf(client)})
        assert answer.status_code in (404, 405)
        assert answer.headers["content-type"].startswith("application/json")


def test_the_rules_dialog_gets_the_article_alone(settings: Settings) -> None:
    # The game's Rules dialog frames /help/rules?embed=1: no site navigation and
    # no link back to the game in it, and its links leave the frame (a new tab).
    with TestClient(create_app(real_web(settings))) as client:
        framed = client.get("/help/rules?embed=1").text
        whole = client.get("/help/rules").text
    assert '<base target="_blank">' in framed
    assert "<nav" not in framed and 'href="/"' not in framed
    assert "<nav" in whole and '<base target="_blank">' not in whole
    assert framed.count("<h1>") == 1


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


def test_help_agrees_with_the_rules_and_the_friends_table(settings: Settings) -> None:
    with TestClient(create_app(real_web(settings))) as client:
        faq = client.get("/help/faq").text
        adjudications = client.get("/help/adjudications").text
        history = client.get("/help/history").text
        rules = client.get("/help/rules").text
    # The queen is worth as much as all thirteen hearts, not half of them.
    assert "half of all the hearts" not in faq and "all thirteen hearts" in faq
    # The fixed moon and the queen that does not break hearts are the standard
    # game's; the house rules a friends' table offers are each described.
    assert "There is no option to subtract 26" not in adjudications
    assert 'id="house-rules"' in adjudications
    for words in (
        "takes 26 off",
        "shooter chooses",
        "queen of spades breaks hearts",
        "Black Maria",
        "jack of diamonds",
        "Passing",
        "ends at another total",
    ):
        assert words in adjudications, words
    assert "This game uses the first." not in history
    assert (
        "/help/adjudications#house-rules" in rules and "/help/adjudications#house-rules" in history
    )
    # Claim and the hint's effect on ranking are explained.
    assert "What does Claim do?" in faq and "<h2>Claim</h2>" in adjudications
    assert "Undo, Restart hand or Hint" in faq


def test_export_in_the_first_hand_says_why(client: TestClient, player: Player) -> None:
    player.start()
    response = client.get("/api/match/record")
    assert response.status_code == 409
    detail = response.json()["detail"]
    assert "hand in play is left out" in detail and "everyone's cards" in detail


def test_a_guest_names_themself_at_a_new_table(client: TestClient, player: Player) -> None:
    from hearts.server.routes.deps import seat_name

    # An account keeps its username; a guest's choice is tidied and checked.
    assert seat_name("alice", "Queen of Hearts") == "alice"
    assert seat_name("Guest 0269", None) == "Guest 0269"
    assert seat_name("Guest 0269", "   ") == "Guest 0269"
    assert seat_name("Guest 0269", "  Ann \t the  Bold ") == "Ann the Bold"
    for bad in ("x" * 21, "Ann\x00", "Ann\u200b"):
        with pytest.raises(ValueError):
            seat_name("Guest 0269", bad)
    refused = post(client, "/api/tables", {"name": "Tea", "player_name": "x" * 21})
    assert refused.status_code == 400 and "20 characters" in refused.json()["detail"]
    made = post(client, "/api/tables", {"name": "Tea", "player_name": "Ann"})
    assert made.status_code == 200
