"""Two server processes on one PostgreSQL and one Redis serve the same tables.

The players of one table are connected to different processes: each sees
the other's moves at once (Redis tells the other process, which catches up
from the database), concurrent actions are serialised by the row lock, and a
full match ends the same for everyone with every card played exactly once.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy
from websockets.sync.client import ClientConnection, connect

import services
from services import free_port

SECRET = "test-secret-shared-by-both-processes-0123456789"


class Process:
    """One ``hearts serve`` on PostgreSQL + Redis."""

    def __init__(self, database_url: str, redis_url: str, folder: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "HEARTS_SECRET_KEY": SECRET,
            "HEARTS_PACE_SCALE": "0",
            # Bots answer at once, so the players act as fast as the machine runs.
            "HEARTS_SOCKET_RATE": "10000",
            "HEARTS_SOCKET_BURST": "10000",
            "HEARTS_BOT_WORKERS": "1",
            "HEARTS_BOT_PROCESSES": "false",
        }
        self.log = folder / f"server-{self.port}.log"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "hearts.cli", "serve", "--port", str(self.port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(self.log, "ab"),  # noqa: SIM115
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.log.read_text()[-2000:]}")
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(f"{self.url}/healthz", timeout=1) as response,
            ):
                if response.status == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


@pytest.fixture
def database(postgres_url: str) -> Iterator[str]:
    """An empty database of its own on the session's PostgreSQL."""
    with services.fresh_database(postgres_url, "hearts_scale") as url:
        yield url


@pytest.fixture
def processes(database: str, redis_url: str, tmp_path: Path) -> Iterator[list[Process]]:
    started: list[Process] = []
    try:
        # Started together: the migrations take turns under an advisory lock.
        started = [Process(database, redis_url, tmp_path), Process(database, redis_url, tmp_path)]
        yield started
    finally:
        for process in started:
            process.stop()


class Person:
    """A browser: its own cookies, talking to one of the processes."""

    def __init__(self, server: Process) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.url)
        self.csrf = self.http.get("/api/session").json()["csrf"]
        self.post("/api/guest")
        self.sockets: list[ClientConnection] = []

    def post(self, path: str, body: Any = None) -> httpx.Response:
        response = self.http.post(path, json=body, headers={"X-CSRF-Token": self.csrf})
        assert response.status_code == 200, response.text
        return response

    def socket(self, server: Process | None = None) -> ClientConnection:
        """A socket to ``server`` (default this person's), with this browser's cookie."""
        target = server or self.server
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        ws = connect(
            f"ws://127.0.0.1:{target.port}/ws",
            additional_headers={"Origin": target.url, "Cookie": cookie},
            legacy=True,
        )
        self.sockets.append(ws)
        return ws

    def close(self) -> None:
        for ws in self.sockets:
            ws.close()
        self.http.close()


def send(ws: ClientConnection, kind: str, **fields: Any) -> None:
    ws.send(json.dumps({"type": kind, **fields}))


def latest(ws: ClientConnection, wait: float = 0.05) -> list[dict[str, Any]]:
    """Every message waiting on ``ws`` (waiting up to ``wait`` for the first)."""
    messages = []
    timeout = wait
    while True:
        try:
            messages.append(json.loads(ws.recv(timeout=timeout)))
        except TimeoutError:
            return messages
        timeout = 0


def until(ws: ClientConnection, done: Any, limit: float = 20.0) -> dict[str, Any]:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        for message in latest(ws, 0.2):
            if message["type"] == "state" and message["table"] and done(message["table"]):
                table: dict[str, Any] = message["table"]
                return table
    raise AssertionError("the expected state never came")


def test_players_on_two_processes_play_a_whole_match(
    processes: list[Process], database: str
) -> None:
    first, second = processes
    ann, bob = Person(first), Person(second)
    try:
        code = ann.post("/api/tables", {"name": "Across the wire"}).json()["code"]
        ann_ws, bob_ws = ann.socket(), bob.socket()
        send(ann_ws, "hello", table=code)
        send(bob_ws, "hello", table=code)
        until(bob_ws, lambda t: t["role"] == "visitor")
        send(bob_ws, "sit", seat=2)
        # Ann is on the other process: she sees Bob sit.
        until(ann_ws, lambda t: t["seats"][2]["kind"] == "person")
        send(ann_ws, "start")
        until(bob_ws, lambda t: t["phase"] == "passing")

        # Both act whenever the state they last saw asks them to.
        pilots = {"ann": (ann_ws, set()), "bob": (bob_ws, set())}
        last: dict[str, dict[str, Any]] = {}
        versions: dict[str, list[int]] = {"ann": [], "bob": []}
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            for name, (ws, done) in pilots.items():
                for message in latest(ws):
                    assert message["type"] != "error" or message["code"] in ("not_your_turn",), (
                        message
                    )
                    if message["type"] == "state":
                        last[name] = message["table"]
                        versions[name].append(message["version"])
                table = last.get(name)
                if table is not None:
                    act(ws, table, done)
            if all(t.get("status") == "finished" for t in last.values()) and len(last) == 2:
                break
        else:
            raise AssertionError(f"the match did not finish: {last}")
        ann_end, bob_end = last["ann"], last["bob"]
        # The same ending for both, seen from their own chairs.
        assert ann_end["totals"][2] == bob_end["totals"][0]
        assert ann_end["totals"][0] == bob_end["totals"][2]
        assert sorted(ann_end["totals"]) == sorted(bob_end["totals"])
        assert versions["ann"] == sorted(versions["ann"])
        assert versions["bob"] == sorted(versions["bob"])
        assert versions["ann"][-1] == versions["bob"][-1]
        # Every card of every hand was played exactly once.
        record = stored_record(database, code)
        assert len(record["hands"]) == ann_end["hand_number"]
        for hand in record["hands"]:
            assert len(hand["plays"]) == len(set(hand["plays"])) == 52
    finally:
        ann.close()
        bob.close()


def stored_record(database: str, code: str) -> dict[str, Any]:
    engine = sqlalchemy.create_engine(database)
    with engine.connect() as connection:
        record = connection.execute(
            sqlalchemy.text("SELECT record FROM matches WHERE code = :code"), {"code": code}
        ).scalar_one()
    engine.dispose()
    found: dict[str, Any] = json.loads(record) if isinstance(record, str) else record
    return found


def act(ws: ClientConnection, table: dict[str, Any], done: set[tuple[Any, ...]]) -> None:
    if table["status"] != "active" or table["role"] != "player":
        return
    plays = sum(len(trick["cards"]) for trick in table["tricks"])
    key = (table["hand_number"], table["phase"], plays)
    if key in done:
        return
    if table["phase"] == "passing" and not table["pass_confirmed"][0]:
        send(ws, "confirm_pass", cards=table["hand"][:3])
    elif table["phase"] == "playing" and table["turn"] == 0 and table["legal"]:
        send(ws, "play", card=table["legal"][0])
    elif table["phase"] == "moon_choice" and table["turn"] == 0:
        send(ws, "choose_moon", style="add")
    else:
        return
    done.add(key)


def test_the_same_play_sent_to_both_processes_counts_once(
    processes: list[Process], database: str
) -> None:
    first, second = processes
    ann = Person(first)
    try:
        code = ann.post("/api/tables", {"name": "Two tabs"}).json()["code"]
        here, there = ann.socket(first), ann.socket(second)
        send(here, "hello", table=code)
        send(there, "hello", table=code)
        until(there, lambda t: t["you"] == 0)
        send(here, "start")
        table = until(there, lambda t: t["phase"] == "passing" and all(t["pass_confirmed"][1:]))
        send(here, "confirm_pass", cards=table["hand"][:3])
        table = until(
            here, lambda t: t["phase"] == "playing" and t["turn"] == 0 and t["legal"], limit=30
        )
        card = table["legal"][0]
        # The same card at the same moment through both processes.
        send(here, "play", card=card)
        send(there, "play", card=card)
        errors = []
        deadline = time.monotonic() + 3.0
        while time.monotonic() < deadline:
            for ws in (here, there):
                errors += [m["code"] for m in latest(ws, 0.1) if m["type"] == "error"]
        assert len(errors) == 1 and errors[0] in ("illegal", "not_your_turn"), errors
        plays = stored_record(database, code)["hands"][0]["plays"]
        assert plays.count(card) == 1
    finally:
        ann.close()
