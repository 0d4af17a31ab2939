"""One client trying to slow the server for everyone, or to keep what it should lose.

Each test plays a hostile client within the published limits: floods of
hints from several tabs, refused sign-ups, concurrent wrong passwords,
replays at once, tables left with nobody at them, made-up table codes, a
copied session cookie, and the data folder deleted under the server.
"""

from __future__ import annotations

import logging
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from player import (
    PASSWORD,
    Player,
    browser,
    connect,
    db,
    new_guest,
    post,
    sign_in,
    sign_up,
)

from hearts.match import Match
from hearts.record import write_record
from hearts.server import accounts, workers
from hearts.server.accounts import Attempt
from hearts.server.app import create_app
from hearts.server.db.session import make_engine, make_sessions
from hearts.server.routes import api
from hearts.server.routes import coach as coach_routes
from hearts.server.security import SESSION_COOKIE
from hearts.server.settings import Settings


class Gate:
    """Holds a patched function until the test opens it, counting the calls."""

    def __init__(self, real: Callable[..., Any]) -> None:
        self.real = real
        self.opened = threading.Event()
        self.calls = 0
        self.lock = threading.Lock()

    def __call__(self, *args: Any) -> Any:
        with self.lock:
            self.calls += 1
        assert self.opened.wait(20), "the gate was never opened"
        return self.real(*args)


def tab(stack: ExitStack, client: TestClient) -> Player:
    player = Player(stack.enter_context(connect(client)))
    player.send("hello")
    player.receive()
    return player


def test_a_hint_flood_never_delays_anyone_elses_computers(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = Gate(workers.hint)
    monkeypatch.setattr(workers, "hint", gate)
    flooder, other = browser(client), browser(client)
    new_guest(flooder)
    new_guest(other)
    with ExitStack() as stack:
        tabs = [tab(stack, flooder) for _ in range(6)]
        table = tabs[0].start("expert")
        tabs[0].send("hint", accept_unranked=True, seq=0)
        tabs[0].until(lambda t: t["ranked"] is False)
        for number, each in enumerate(tabs):
            for seq in range(1, 11):
                each.send("hint", seq=number * 100 + seq)
        # Meanwhile another player's Expert computers pass and play as usual: their
        # moves run in the bots' pool, never behind the hints.
        victim = tab(stack, other)
        started = victim.start("expert")
        victim.pass_and_continue(started)
        victim.my_turn()
        assert gate.calls == 1  # sixty-one asks, one hint being worked out
        gate.opened.set()
        answers: dict[str, int] = {}
        for each in tabs:
            seen = 0
            while seen < (11 if each is tabs[0] else 10):
                message = each.receive()
                if message["type"] == "state":
                    continue
                seen += 1
                kind = message["type"] if message["type"] == "hint" else message["code"]
                answers[kind] = answers.get(kind, 0) + 1
                if message["type"] == "hint":
                    assert len(message["cards"]) == 3
                    assert set(message["cards"]) <= set(table["hand"])
        assert answers["hint"] == 61 and gate.calls == 1, answers  # all joined the one hint
        # Asked again at the same decision: answered from the cache.
        tabs[3].send("hint", seq=999)
        assert tabs[3].receive()["type"] == "hint" and gate.calls == 1


def test_a_second_hint_while_one_is_worked_out_is_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, token: str
) -> None:
    gate = Gate(workers.hint)
    monkeypatch.setattr(workers, "hint", gate)
    with ExitStack() as stack:
        first, second = tab(stack, client), tab(stack, client)
        table = first.start("easy")
        first.send("select_pass", cards=table["hand"][:1])  # not a new decision point
        first.send("hint", accept_unranked=True, seq=1)
        first.until(lambda t: t["ranked"] is False)
        first.pass_and_continue(first.table or table)
        # The first hint was for the pass; a hint for the play is another decision.
        first.my_turn()
        second.send("hint", seq=2)
        error = second.error()
        assert error["code"] == "busy" and error["seq"] == 2
        gate.opened.set()


def test_refused_sign_ups_cost_no_hash(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    hashed: list[str] = []
    real = accounts.hash_password
    monkeypatch.setattr(accounts, "hash_password", lambda pw: hashed.append(pw) or real(pw))
    new_guest(client)
    sign_up(client, "ada")
    assert len(hashed) == 1
    for _ in range(20):
        other = browser(client)
        new_guest(other)
        response = post(other, "/api/account/signup", {"username": "ADA", "password": PASSWORD})
        assert response.status_code == 409
        again = post(client, "/api/account/signup", {"username": "bob", "password": PASSWORD})
        assert again.status_code == 409  # already signed up
    assert len(hashed) == 1


def test_hashes_wait_in_their_own_bounded_queue(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = Gate(accounts.hash_password)
    monkeypatch.setattr(accounts, "hash_password", gate)
    new_guest(client)
    guests = [browser(client) for _ in range(3)]
    for guest in guests:
        new_guest(guest)

    def signup(number: int) -> int:
        body = {"username": f"user{number}", "password": PASSWORD}
        return post(guests[number], "/api/account/signup", body).status_code

    with ThreadPoolExecutor(3) as pool:
        first = pool.submit(signup, 0)
        while gate.calls < 1:
            time.sleep(0.01)
        # The same address while its hash is being worked out: refused at once.
        assert signup(1) == 429
        # Session look-ups and the socket's handshake do not wait behind hashes.
        assert client.get("/api/session").status_code == 200
        with connect(client) as socket:
            socket.send_json({"type": "hello"})
            assert socket.receive_json()["type"] == "state"
        gate.opened.set()
        assert first.result(20) == 200
    assert signup(2) == 200


def test_concurrent_wrong_passwords_verify_no_more_than_the_limit(settings: Settings) -> None:
    client = TestClient(create_app(settings))
    with client:
        new_guest(client)
        sign_up(client, "ada")
    engine = make_engine(settings.db_url)
    sessions = make_sessions(engine)
    verified: list[bool] = []
    real = accounts._verify

    def counting(password_hash: str, password: str) -> bool:
        verified.append(True)
        return real(password_hash, password)

    outcomes: list[str] = []
    try:
        accounts._verify = counting  # type: ignore[assignment]

        def attempt(number: int) -> str:
            try:
                accounts.sign_in(sessions, Attempt("ada", f"wrong {number}", f"10.0.0.{number}"))
            except accounts.AccountError as error:
                return error.code
            return "signed_in"

        with ThreadPoolExecutor(40) as pool:
            outcomes = list(pool.map(attempt, range(40)))
    finally:
        accounts._verify = real  # type: ignore[assignment]
        engine.dispose()
    throttled = outcomes.count("throttled")
    print(f"40 wrong passwords at once: {len(verified)} verified, {throttled} throttled")
    assert len(verified) <= accounts.ACCOUNT_FAILURES
    assert outcomes.count("wrong_credentials") == len(verified)
    assert outcomes.count("throttled") == 40 - len(verified)


def test_replays_are_bounded(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    new_guest(client)
    match = Match(seed=5)
    record = write_record(match)
    record["hands"] = record["hands"] * (api.MAX_REPLAY_HANDS + 1)
    response = post(client, "/api/replay", record)
    assert response.status_code == 400 and "up to 200 hands" in response.json()["detail"]
    gate = Gate(api.replay_frames)
    monkeypatch.setattr(api, "replay_frames", gate)
    small = write_record(Match(seed=5))
    with ThreadPoolExecutor(1) as pool:
        first = pool.submit(post, client, "/api/replay", small)
        while gate.calls < 1:
            time.sleep(0.01)
        second = post(client, "/api/replay", small)
        assert second.status_code == 429 and second.headers["Retry-After"] == "1"
        gate.opened.set()
        assert first.result(20).status_code == 200


def test_a_table_nobody_is_at_stops_and_leaves_memory(
    client: TestClient, settings: Settings
) -> None:
    new_guest(client)
    response = post(client, "/api/tables", {"name": "Empty"})
    code = response.json()["code"]
    registry = client.app.state.registry  # type: ignore[attr-defined]
    assert code not in registry._shared  # made, but nobody follows it yet
    with connect(client) as socket:
        ann = Player(socket)
        ann.send("hello", table=code)
        ann.state()
        ann.send("start")
        ann.until(lambda t: t["phase"] == "passing")
        ann.send("confirm_pass", cards=(ann.table or {})["hand"][:3])
        ann.until(lambda t: t["phase"] == "playing")
    for _ in range(200):
        if code not in registry._shared:
            break
        time.sleep(0.01)
    assert code not in registry._shared
    version = db(settings, "SELECT version FROM matches WHERE code = :c", c=code)
    time.sleep(0.5)  # the computers would have played several cards by now
    assert db(settings, "SELECT version FROM matches WHERE code = :c", c=code) == version
    with connect(client) as socket:
        ann = Player(socket)
        ann.send("hello", table=code)
        table = ann.state()
        assert table["you"] == 0 and table["phase"] == "playing"


def test_made_up_table_codes_leave_nothing_behind(client: TestClient) -> None:
    new_guest(client)
    registry = client.app.state.registry  # type: ignore[attr-defined]
    with connect(client) as socket:
        player = Player(socket)
        for number in range(300):
            player.send("hello", table=f"bogus{number}", seq=number)
            assert player.error()["code"] == "no_table"
    assert len(registry._code_locks) == 0 and not registry._shared


def test_signing_out_ends_a_copied_cookie(client: TestClient) -> None:
    new_guest(client)
    sign_up(client, "ada")
    thief = browser(client)
    thief.cookies.set(SESSION_COOKIE, client.cookies[SESSION_COOKIE])
    assert thief.get("/api/session").json()["player"]["name"] == "ada"
    assert post(client, "/api/account/signout").status_code == 200
    assert thief.get("/api/session").json()["player"] is None
    assert thief.get("/api/stats").status_code == 401


def test_a_new_password_ends_every_other_session(client: TestClient) -> None:
    new_guest(client)
    sign_up(client, "ada")
    laptop = browser(client)
    assert sign_in(laptop, "ada") == 200
    copied = browser(client)
    copied.cookies.set(SESSION_COOKIE, client.cookies[SESSION_COOKIE])
    wrong = post(client, "/api/account/password", {"current": "nope nope", "new": "a new secret 1"})
    assert wrong.status_code == 401
    common = post(client, "/api/account/password", {"current": PASSWORD, "new": "password123"})
    assert common.status_code == 400 and "first that anyone would try" in common.json()["detail"]
    done = post(client, "/api/account/password", {"current": PASSWORD, "new": "a new secret 1"})
    assert done.status_code == 200, done.text
    assert client.get("/api/session").json()["player"]["name"] == "ada"  # this one stays
    for other in (laptop, copied):
        assert other.get("/api/session").json()["player"] is None
    assert sign_in(laptop, "ada") == 401
    assert sign_in(laptop, "ada", "a new secret 1") == 200


def test_common_passwords_and_invisible_names_are_refused(client: TestClient) -> None:
    new_guest(client)
    for password in ("password123", "Qwertyuiop", "iloveyou1", "adalovelace"):
        response = post(
            client, "/api/account/signup", {"username": "adalovelace", "password": password}
        )
        assert response.status_code == 400, password
    for name in ("Ann\x00", "\u202eevil", "\u200b\u200b", "a\u2066b", "tab\x07le"):
        response = post(client, "/api/tables", {"name": name})
        assert response.status_code == 400, repr(name)
    assert post(client, "/api/tables", {"name": "Café ♥ night"}).status_code == 200


@pytest.fixture
def data_client(tmp_path: Path, settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings.with_changes(database_url=""))) as test_client:
        yield test_client


def test_a_deleted_data_folder_stops_every_change(
    data_client: TestClient, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    if settings.database_url:
        pytest.skip("this test is about the SQLite file")
    new_guest(data_client)
    with connect(data_client) as socket:
        player = Player(socket)
        player.send("hello")
        player.receive()
        table = player.start("easy")
        with caplog.at_level(logging.CRITICAL):
            shutil.rmtree(settings.data_dir)
            player.send("confirm_pass", cards=table["hand"][:3], seq=7)
            error = player.error()
        assert error["code"] == "unavailable" and error["seq"] == 7
        assert any("was deleted" in record.message for record in caplog.records)
        player.send("select_pass", cards=table["hand"][:1], seq=8)
        assert player.error()["code"] == "unavailable"
    health = data_client.get("/healthz")
    assert health.status_code == 503 and "was deleted" in health.text
    assert post(data_client, "/api/tables", {"name": "x"}).status_code == 503


def test_the_coachs_records_are_bounded_like_replays(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    new_guest(client)
    record = write_record(Match(seed=5))
    record["hands"] = record["hands"] * (api.MAX_REPLAY_HANDS + 1)
    response = post(client, "/api/coach?seat=0&hand=1", record)
    assert response.status_code == 400 and "up to 200 hands" in response.json()["detail"]
    gate = Gate(coach_routes.read_record)
    monkeypatch.setattr(coach_routes, "read_record", gate)
    small = write_record(Match(seed=5))
    with ThreadPoolExecutor(1) as pool:
        first = pool.submit(post, client, "/api/coach?seat=0&hand=1", small)
        while gate.calls < 1:
            time.sleep(0.01)
        # While this client's record is being read, its replays wait too: one at a time.
        second = post(client, "/api/replay", small)
        assert second.status_code == 429
        gate.opened.set()
        assert first.result(20).status_code == 400  # the record has no finished hand
