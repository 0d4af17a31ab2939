"""The coach in the server: after a hand only, stored once per hand and seat, one at a time."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
import sqlalchemy
from fastapi.testclient import TestClient
from player import Player, connect, new_guest, post
from test_socket_play import play_hand

import hearts.coach
import hearts.server.workers as workers
from hearts import Budget, Match, Rules, write_record
from hearts.server.app import create_app
from hearts.server.db.coach import hand_digest
from hearts.server.settings import Settings
from hearts.server.workers import CoachBusy, CoachPool

SMALL = Budget(samples=12, pass_samples=6)


@pytest.fixture(autouse=True)
def quick_coach(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """A small budget, and a log of the analyses actually run: (seat, hand)."""
    monkeypatch.setattr(hearts.coach, "DEFAULT_BUDGET", SMALL)
    runs: list[tuple[int, int]] = []
    real = workers.review_hand

    def counted(record: dict[str, Any], seat: int, hand: int) -> dict[str, Any]:
        runs.append((seat, hand))
        return real(record, seat, hand)

    monkeypatch.setattr(workers, "review_hand", counted)
    return runs


def test_the_last_finished_hand_is_reviewed_once(
    client: TestClient, player: Player, quick_coach: list[tuple[int, int]], settings: Settings
) -> None:
    assert client.get("/api/match/coach").status_code == 404
    player.start()
    response = client.get("/api/match/coach")
    assert response.status_code == 409
    assert response.json()["detail"] == "The coach waits until this hand is over: finish it first"
    play_hand(player)

    review = client.get("/api/match/coach").json()
    assert review["hand"] == 1 and review["seat"] == 0
    kinds = [decision["kind"] for decision in review["decisions"]]
    assert kinds == ["pass"] + ["play"] * 13
    assert all(
        d["verdict"] in ("fine", "inaccuracy", "mistake", "blunder") for d in review["decisions"]
    )
    assert quick_coach == [(0, 1)]

    assert client.get("/api/match/coach", params={"hand": 1}).json() == review
    assert quick_coach == [(0, 1)]  # stored: not analysed again
    engine = sqlalchemy.create_engine(settings.db_url)
    with engine.connect() as connection:
        rows = connection.execute(sqlalchemy.text("SELECT hand, seat FROM coach_reviews")).all()
    engine.dispose()
    assert [tuple(row) for row in rows] == [(1, 0)]

    assert client.get("/api/match/coach", params={"hand": 2}).status_code == 404
    player.send("next_hand")
    player.until(lambda t: t["hand_number"] == 2)
    response = client.get("/api/match/coach", params={"hand": 1})
    assert response.status_code == 409  # hand 2 is in play now: not even hand 1


def test_a_hand_changed_since_its_review_is_reviewed_again(
    client: TestClient, player: Player, quick_coach: list[tuple[int, int]], settings: Settings
) -> None:
    """An undo before Next hand can change a finished hand: its stored review no longer fits."""
    player.start()
    play_hand(player)
    first = client.get("/api/match/coach").json()
    engine = sqlalchemy.create_engine(settings.db_url)
    with engine.begin() as connection:
        connection.execute(sqlalchemy.text("UPDATE coach_reviews SET hand_digest = 'older'"))
    engine.dispose()
    assert client.get("/api/match/coach").json() == first
    assert quick_coach == [(0, 1), (0, 1)]


def test_the_digest_follows_the_hand() -> None:
    record = finished_record()
    digest = hand_digest(record, 1)
    assert digest == hand_digest(dict(record), 1)
    changed = dict(record, hands=[dict(record["hands"][0], plays=record["hands"][0]["plays"][:-1])])
    assert hand_digest(changed, 1) != digest


def test_each_hand_is_reviewed_as_soon_as_it_ends(
    settings: Settings, quick_coach: list[tuple[int, int]]
) -> None:
    with TestClient(create_app(settings.with_changes(coach_after_hand=True))) as client:
        new_guest(client)
        with connect(client) as socket:
            player = Player(socket)
            player.send("hello")
            player.receive()
            player.start()
            play_hand(player)
            engine = sqlalchemy.create_engine(settings.db_url)
            for _ in range(200):
                with engine.connect() as connection:
                    count = connection.execute(
                        sqlalchemy.text("SELECT count(*) FROM coach_reviews")
                    ).scalar()
                if count:
                    break
                time.sleep(0.05)
            engine.dispose()
            assert count == 1 and quick_coach == [(0, 1)]
            review = client.get("/api/match/coach").json()
            assert review["hand"] == 1 and quick_coach == [(0, 1)]
            stats = client.get("/api/stats/coach").json()
            easy = stats["levels"]["easy"]
            assert easy["hands"] == 1 and easy["accuracy"] == round(review["accuracy"], 1)
            assert [m["accuracy"] for m in easy["matches"]] == [easy["accuracy"]]


def test_no_reviews_no_coach_statistics(client: TestClient, token: str) -> None:
    assert client.get("/api/stats/coach").json() == {"levels": {}}


def finished_record() -> dict[str, Any]:
    match = Match(Rules(passing="none"), seed=5)
    while match.phase.value == "playing":
        match.play(match.legal_moves()[0])
    match.next_hand()
    return write_record(match)


def test_any_seat_of_a_loaded_record(client: TestClient, token: str) -> None:
    record = finished_record()
    response = client.post(
        "/api/coach?seat=2&hand=1", json=record, headers={"X-CSRF-Token": csrf_of(client)}
    )
    assert response.status_code == 200
    review = response.json()
    assert review["seat"] == 2 and review["hand"] == 1
    assert [d["kind"] for d in review["decisions"]] == ["play"] * 13


@pytest.mark.parametrize(
    ("query", "message"),
    [("seat=0&hand=2", "hand 2 is still being played"), ("seat=0&hand=3", "no hand 3")],
)
def test_a_hand_not_finished_in_a_record_is_refused(
    client: TestClient, token: str, query: str, message: str
) -> None:
    response = client.post(
        f"/api/coach?{query}", json=finished_record(), headers={"X-CSRF-Token": csrf_of(client)}
    )
    assert response.status_code == 400 and message in response.json()["detail"]


def test_a_bad_record_or_seat_is_refused(client: TestClient, token: str) -> None:
    assert post(client, "/api/coach?seat=0&hand=1", {"hands": []}).status_code == 400
    assert post(client, "/api/coach?seat=4&hand=1", finished_record()).status_code == 422


def csrf_of(client: TestClient) -> str:
    value: str = client.get("/api/session").json()["csrf"]
    return value


# --- the queue ---------------------------------------------------------------------


def test_one_analysis_per_player_and_a_bounded_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    started = threading.Event()

    def slow(record: dict[str, Any], seat: int, hand: int) -> dict[str, Any]:
        started.set()
        release.wait(5)
        return {"hand": hand, "seat": seat}

    monkeypatch.setattr(workers, "review_hand", slow)
    pool = CoachPool(processes=False, waiting=2)

    async def scenario() -> None:
        first = asyncio.create_task(pool.review("ann", {}, 0, 1))
        await asyncio.to_thread(started.wait, 5)
        with pytest.raises(CoachBusy, match="already looking"):
            await pool.review("ann", {}, 1, 1)
        second = asyncio.create_task(pool.review("bob", {}, 0, 1))
        await asyncio.sleep(0.05)
        with pytest.raises(CoachBusy, match="busy"):
            await pool.review("cid", {}, 0, 1)
        assert pool.in_flight == 2
        release.set()
        assert await first == {"hand": 1, "seat": 0}
        assert await second == {"hand": 1, "seat": 0}
        assert pool.in_flight == 0
        assert await pool.review("ann", {}, 3, 2) == {"hand": 2, "seat": 3}

    try:
        asyncio.run(scenario())
    finally:
        pool.close()


def test_asking_for_the_review_being_made_waits_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    runs: list[int] = []

    def job(record: dict[str, Any], seat: int, hand: int) -> dict[str, Any]:
        runs.append(hand)
        time.sleep(0.1)
        return {"hand": hand}

    monkeypatch.setattr(workers, "review_hand", job)
    pool = CoachPool(processes=False)

    async def scenario() -> list[dict[str, Any]]:
        key = ("match", 1, 0, "digest")
        return list(
            await asyncio.gather(
                pool.review("ann", {}, 0, 1, key=key), pool.review("ann", {}, 0, 1, key=key)
            )
        )

    try:
        assert asyncio.run(scenario()) == [{"hand": 1}, {"hand": 1}]
    finally:
        pool.close()
    assert runs == [1]
