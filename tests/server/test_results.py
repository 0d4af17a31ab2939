"""Results: ranking points, statistics, exactly-once counting, abandoning, the leaderboard."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from player import PASSWORD, Player, Table, browser, connect, db, new_guest, post, sign_up
from sqlalchemy.exc import IntegrityError

from hearts import Match, Rules
from hearts.server.app import create_app
from hearts.server.db import results, store
from hearts.server.db.models import MatchResult
from hearts.server.db.session import make_engine, make_sessions
from hearts.server.results import RANKING_POINTS, Outcome, outcome
from hearts.server.settings import Settings


@pytest.fixture
def auto_client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings.with_changes(test_autoplay=True))) as client:
        yield client


def play_to_the_end(client: TestClient, level: str = "easy") -> Table:
    """A real match, South played by a Normal bot (the test-only fast path)."""
    with connect(client) as socket:
        tab = Player(socket)
        tab.send("hello")
        tab.receive()
        tab.start(level)
        assert post(client, "/api/test/autoplay").status_code == 200
        return tab.until(lambda t: t["status"] == "finished", limit=5000)


def stats(client: TestClient) -> dict[str, Any]:
    response = client.get("/api/stats")
    assert response.status_code == 200
    body: dict[str, Any] = response.json()
    return body


def finished_match(seed: int, rules: Rules | None = None) -> Match:
    match = Match(seed=seed, rules=rules)
    while match.winner is None:
        if match.phase.value == "passing":
            for seat in range(4):
                match.confirm_pass(seat, list(match.holding(seat))[:3])
        while match.phase.value == "playing":
            match.play(match.legal_moves()[0])
        if match.phase.value == "moon_choice":
            match.choose_moon(match.moon_shooter or 0, "add")
        if match.phase.value == "hand_over":
            match.next_hand()
    return match


def test_outcome_of_a_finished_match() -> None:
    match = finished_match(7)
    winner = match.winner
    assert winner is not None
    for seat in range(4):
        result = outcome(match, seat, "normal", True, abandoned=False)
        assert result.won == (seat == winner)
        assert result.final_score == match.totals[seat]
        assert result.hands == len(match.results)
        assert result.points == match.totals[seat]
        assert result.ranking_points == (RANKING_POINTS["normal"] if seat == winner else 0)
        assert result.queens == sum(1 for r in match.results if r.taken[seat] & (1 << 36))
    assert sum(outcome(match, s, "easy", True, abandoned=False).queens for s in range(4)) == len(
        match.results
    )
    assert outcome(match, winner, "expert", False, abandoned=False).ranking_points == 0
    abandoned = outcome(match, winner, "expert", True, abandoned=True)
    assert not abandoned.won and abandoned.final_score is None and abandoned.ranking_points == 0


def test_house_rules_never_rank() -> None:
    match = finished_match(7, Rules(jack_of_diamonds=True))
    winner = match.winner or 0
    result = outcome(match, winner, "expert", True, abandoned=False)
    assert result.won and not result.ranked and result.ranking_points == 0


def test_an_unfinished_match_has_no_final_result() -> None:
    with pytest.raises(ValueError):
        outcome(Match(seed=1), 0, "easy", True, abandoned=False)


def test_a_finished_match_counts_once_and_shows_its_points(auto_client: TestClient) -> None:
    new_guest(auto_client)
    sign_up(auto_client, "ada")
    table = play_to_the_end(auto_client, "easy")
    won = table["winner"] == 0
    assert table["ranking_points"] == (10 if won else 0)
    body = stats(auto_client)
    assert body["player"]["ranking_points"] == table["ranking_points"]
    easy, everything = body["levels"]["easy"], body["levels"]["all"]
    assert easy == everything
    assert easy["played"] == 1 and easy["won"] == int(won)
    assert easy["hands"] == table["hand_number"]
    assert easy["average_final_score"] == table["totals"][0]
    assert easy["average_points_per_hand"] == pytest.approx(table["totals"][0] / easy["hands"])
    assert easy["best_winning_total"] == (table["totals"][0] if won else None)
    assert easy["current_streak"] == easy["best_streak"] == int(won)
    assert body["levels"]["normal"]["played"] == 0
    board = auto_client.get("/api/leaderboard").json()
    assert board["rows"] == [
        {
            "rank": 1,
            "name": "ada",
            "points": table["ranking_points"],
            "best": {"easy": easy["best_winning_total"], "normal": None, "expert": None},
            "me": True,
        }
    ]
    assert board["me"] == {"rank": 1, "page": 1, "points": table["ranking_points"]}


def test_retries_tabs_and_restarts_do_not_count_twice(
    settings: Settings, auto_client: TestClient
) -> None:
    new_guest(auto_client)
    with connect(auto_client) as socket:
        other_tab = Player(socket)
        other_tab.send("hello")
        other_tab.receive()
        table = play_to_the_end(auto_client)
        other_tab.until(lambda t: t["status"] == "finished", limit=5000)
        other_tab.send("next_hand")
        assert other_tab.error()["code"] == "finished"
        other_tab.send("next_hand")
        assert other_tab.error()["code"] == "finished"
    cookies = dict(auto_client.cookies)
    with TestClient(create_app(settings), cookies=cookies) as restarted:
        with connect(restarted) as socket:
            tab = Player(socket)
            tab.send("hello")
            assert tab.state()["match_id"] == table["match_id"]
        assert stats(restarted)["levels"]["all"]["played"] == 1
    # Saving the finished match again with its result changes nothing either.
    engine = make_engine(settings.db_url)
    sessions = make_sessions(engine)
    data = store.current_match(sessions, store_token(settings))
    assert data is not None and data.status == "finished" and data.id == table["match_id"]
    result = outcome_for(data)
    store.save_match(sessions, data, result)
    with sessions.begin() as session:
        assert not results.record_result(session, data.id, data.owner_token, result)
    assert results.player_stats(sessions, data.owner_token)["all"].played == 1
    # And the database refuses a second result row for the match by itself.
    with pytest.raises(IntegrityError), sessions.begin() as session:
        session.add(
            MatchResult(
                match_id=data.id,
                player_token=data.owner_token,
                level="easy",
                status="finished",
                won=False,
                ranked=True,
                final_score=1,
                hands=1,
                points=1,
                moons=0,
                queens=0,
                ranking_points=0,
                recorded_at=store.now(),
            )
        )
    engine.dispose()


def store_token(settings: Settings) -> str:
    [(token,)] = db(settings, "SELECT token FROM players")
    assert isinstance(token, str)
    return token


def outcome_for(data: store.MatchData) -> Outcome:
    from hearts.record import read_record

    match = read_record(data.record, seed=data.seed)
    return outcome(match, 0, data.level, data.ranked, abandoned=False)


def test_undo_makes_the_match_unranked_but_it_still_counts(auto_client: TestClient) -> None:
    new_guest(auto_client)
    with connect(auto_client) as socket:
        tab = Player(socket)
        tab.send("hello")
        tab.receive()
        table = tab.start("normal")
        tab.send("confirm_pass", cards=table["hand"][:3])
        tab.until(lambda t: t["awaiting_continue"])
        tab.send("undo")
        tab.until(lambda t: t["phase"] == "passing" and not t["ranked"])
        assert post(auto_client, "/api/test/autoplay").status_code == 200
        table = tab.until(lambda t: t["status"] == "finished", limit=5000)
    assert table["ranking_points"] == 0
    body = stats(auto_client)
    assert body["levels"]["normal"]["played"] == 1
    assert body["player"]["ranking_points"] == 0


def test_a_hint_makes_the_match_unranked_but_it_still_counts(
    auto_client: TestClient, settings: Settings
) -> None:
    new_guest(auto_client)
    with connect(auto_client) as socket:
        tab = Player(socket)
        tab.send("hello")
        tab.receive()
        tab.start("normal")
        tab.send("hint", accept_unranked=True)
        table = tab.until(lambda t: not t["ranked"])
        assert table["used_hint"] and not table["used_undo"]
        assert tab.receive()["type"] == "hint"
        assert post(auto_client, "/api/test/autoplay").status_code == 200
        table = tab.until(lambda t: t["status"] == "finished", limit=5000)
    assert table["ranking_points"] == 0 and not table["ranked"]
    body = stats(auto_client)
    assert body["levels"]["normal"]["played"] == 1
    assert body["player"]["ranking_points"] == 0
    assert db(settings, "SELECT ranked, ranking_points FROM match_results") == [(0, 0)]


def test_abandoning_after_a_decision_is_a_loss(client: TestClient, player: Player) -> None:
    table = player.start("expert")
    player.send("new_match", level="expert", abandon=True)  # no decision: nothing counts
    table = player.until(lambda t: t["match_id"] != table["match_id"])
    assert stats(client)["levels"]["all"]["played"] == 0
    player.send("confirm_pass", cards=table["hand"][:3])
    player.until(lambda t: t["awaiting_continue"])
    player.send("new_match", level="easy", abandon=True)
    player.until(lambda t: t["match_id"] != table["match_id"])
    expert = stats(client)["levels"]["expert"]
    assert expert["played"] == 1 and expert["won"] == 0 and expert["win_rate"] == 0
    assert expert["hands"] == 0 and expert["average_final_score"] is None
    assert expert["current_streak"] == 0


def test_undo_and_restart_never_abandon(client: TestClient, player: Player) -> None:
    table = player.start()
    player.send("confirm_pass", cards=table["hand"][:3])
    player.until(lambda t: t["awaiting_continue"])
    player.send("restart_hand")
    player.until(lambda t: t["phase"] == "passing" and t["pass_confirmed"][0] is False)
    assert stats(client)["levels"]["all"]["played"] == 0


def test_streaks_and_best_totals(settings: Settings, client: TestClient) -> None:
    token = new_guest(client)
    engine = make_engine(settings.db_url)
    sessions = make_sessions(engine)
    sequence = [(True, 60), (True, 45), (False, 110), (True, 70)]
    for number, (won, score) in enumerate(sequence):
        match_id = f"m{number}"
        insert_match(settings, match_id, token, "finished")
        result = Outcome("normal", "finished", won, True, score, 10, score, 1, 2, 30 * won)
        with sessions.begin() as session:
            assert results.record_result(session, match_id, token, result)
    normal = results.player_stats(sessions, token)["normal"]
    engine.dispose()
    assert normal.played == 4 and normal.won == 3 and normal.win_rate == 0.75
    assert normal.current_streak == 1 and normal.best_streak == 2
    assert normal.best_winning_total == 45
    assert normal.average_final_score == (60 + 45 + 110 + 70) / 4
    assert normal.hands == 40 and normal.moons == 4 and normal.queens == 8
    assert stats(client)["player"]["ranking_points"] == 90


def test_leaderboard_pages_ties_and_my_place(settings: Settings, client: TestClient) -> None:
    engine = make_engine(settings.db_url)
    sessions = make_sessions(engine)
    for number in range(25):
        other = browser(client)
        token = new_guest(other)
        sign_up(other, f"p{number:02d}")
        insert_match(settings, f"m{number}", token, "abandoned")
        with sessions.begin() as session:
            lost = Outcome("easy", "abandoned", False, True, None, 0, 0, 0, 0, 0)
            assert results.record_result(session, f"m{number}", token, lost)
        # Pairs share their points: p24 alone on top, then p22 and p23, ...
        db(
            settings,
            "UPDATE players SET ranking_points = :p WHERE token = :t",
            p=10 * (number // 2),
            t=token,
        )
    engine.dispose()
    new_guest(client)  # a guest: never on the board
    first = client.get("/api/leaderboard").json()
    assert first["total"] == 25 and first["pages"] == 2 and first["per_page"] == 20
    assert len(first["rows"]) == 20
    assert [(row["rank"], row["name"]) for row in first["rows"][:5]] == [
        (1, "p24"),
        (2, "p22"),
        (2, "p23"),
        (4, "p20"),
        (4, "p21"),
    ]
    assert first["me"] is None and not any(row["me"] for row in first["rows"])
    second = client.get("/api/leaderboard", params={"page": 2}).json()
    assert [(row["rank"], row["name"], row["points"]) for row in second["rows"]] == [
        (20, "p05", 20),
        (22, "p02", 10),
        (22, "p03", 10),
        (24, "p00", 0),
        (24, "p01", 0),
    ]
    assert client.get("/api/leaderboard", params={"page": 0}).status_code == 422
    assert client.get("/api/leaderboard", params={"page": "x"}).status_code == 422
    assert client.get("/api/leaderboard", params={"page": 9}).json()["rows"] == []
    # p01 is tied last with p00 and comes after it by name: page 2, highlighted.
    me = browser(client)
    assert post(me, "/api/account/signin", {"username": "p01", "password": PASSWORD}).is_success
    board = me.get("/api/leaderboard").json()
    assert board["me"] == {"rank": 24, "page": 2, "points": 0}
    assert not any(row["me"] for row in board["rows"])
    board = me.get("/api/leaderboard", params={"page": 2}).json()
    assert [row["name"] for row in board["rows"] if row["me"]] == ["p01"]
    assert stats(me)["player"]["rank"] == 24


def insert_match(settings: Settings, match_id: str, token: str, status: str) -> None:
    """A bare match row for results to point at."""
    db(
        settings,
        "INSERT INTO matches (id, owner_token, level, status, record, seed, pass_selections,"
        " awaiting_continue, paused, pace, elapsed_ms, used_undo, ranked, version,"
        " created_at, updated_at) VALUES (:id, :owner, 'normal', :status, '{}', 1, '[]',"
        " false, false, 'quick', 0, false, true, 1, :now, :now)",
        id=match_id,
        owner=token,
        status=status,
        now=store.now(),
    )
