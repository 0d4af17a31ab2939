"""Fixtures: a fresh SQLite database per test, bots acting at once, a stand-in web folder."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from player import Player, connect, new_guest

from hearts.server.app import create_app
from hearts.server.routes.pages import HELP_PAGES
from hearts.server.settings import Settings

TESTS = str(Path(__file__).resolve().parent.parent)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)  # for tests/services.py

import services  # noqa: E402


@pytest.fixture
def web_dir(tmp_path: Path) -> Path:
    web = tmp_path / "web"
    (web / "help").mkdir(parents=True)
    (web / "static").mkdir()
    (web / "index.html").write_text("<title>Hearts</title>", encoding="utf-8")
    (web / "replay.html").write_text("<title>Replay</title>", encoding="utf-8")
    (web / "static" / "app.js").write_text("export {};", encoding="utf-8")
    for page in HELP_PAGES:
        (web / "help" / f"{page}.html").write_text(f"<h1>{page}</h1>", encoding="utf-8")
    return web


@pytest.fixture
def database_url() -> Iterator[str]:
    """Each test its own empty database.

    By default a SQLite file in the test's folder.  HEARTS_TEST_DATABASE_URL
    (a PostgreSQL server) runs the tests there instead: each test gets a new
    database on that server, dropped afterwards.
    """
    server = os.environ.get("HEARTS_TEST_DATABASE_URL", "")
    if not server:
        yield ""
        return
    with services.fresh_database(server) as url:
        yield url


@pytest.fixture
def settings(tmp_path: Path, web_dir: Path, database_url: str) -> Settings:
    return Settings(
        database_url=database_url,
        data_dir=tmp_path / "data",
        bot_workers=2,
        bot_processes=False,
        # The coach reviews a hand only when a test asks (tests/server/test_coach_api.py turns
        # the review after every hand on): a review is seconds of search in the bots' threads.
        coach_after_hand=False,
        pace_scale=0.0,
        web_dir=web_dir,
        # With bots answering at once a test's tab plays as fast as the machine runs,
        # faster than a person could: test_limits checks the real message rate.
        socket_rate=10_000.0,
        socket_burst=10_000.0,
    )


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same deals on every run."""
    monkeypatch.setattr("hearts.match.secrets.randbits", lambda bits: 20241129)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as test_client:
        yield test_client


@pytest.fixture
def paced_client(settings: Settings) -> Iterator[TestClient]:
    """Bots wait as in a real game (0.9 s at the relaxed pace): time to act before them."""
    paced = settings.with_changes(pace_scale=1.0)
    with TestClient(create_app(paced)) as test_client:
        yield test_client


@pytest.fixture
def token(client: TestClient) -> str:
    return new_guest(client)


@pytest.fixture
def player(client: TestClient, token: str) -> Iterator[Player]:
    with connect(client) as socket:
        tab = Player(socket)
        tab.send("hello")
        message = tab.receive()
        assert message == {"type": "state", "version": 0, "table": None}
        yield tab
