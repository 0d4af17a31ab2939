"""Browser tests: Debian's Chromium driven by Playwright against a real server.

The server runs as a subprocess (``hearts serve``) on a free loopback port
with its own data folder, so a test can kill it and start it again on the
same database.  Each test gets a fresh browser profile, hence a new guest.
Screenshots go to ``test-artifacts/`` at the project root.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
PACE_SCALE = "0.05"
GRACE_SECONDS = "3"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if chromium_path() is not None:
        return
    if os.environ.get("HEARTS_REQUIRE_BROWSER") == "1":
        raise pytest.UsageError("Chromium is required (make test installs Debian's chromium)")
    skip = pytest.mark.skip(reason="Debian's chromium is not installed (make test installs it)")
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(skip)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """A ``hearts serve`` process that can be killed and started again on the same data."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        # Bots act after a twentieth of the usual pause: fast, yet every state
        # still reaches the page one at a time and in order.  The test-only
        # POST /api/test/autoplay lets a test finish a whole match quickly.
        # At a shared table a bot takes over a disconnected seat after
        # GRACE_SECONDS instead of a minute, so a test can watch it happen.
        env = {
            **os.environ,
            "HEARTS_PACE_SCALE": PACE_SCALE,
            "HEARTS_BOT_WORKERS": "2",
            "HEARTS_TEST_AUTOPLAY": "1",
            "HEARTS_GRACE_SECONDS": GRACE_SECONDS,
            # Seconds of search after every hand would slow the other tests' matches down.
            "HEARTS_COACH_AFTER_HAND": "0",
        }
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "hearts.cli",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--data-dir",
                str(self.data_dir),
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(self.data_dir / "server.log", "ab"),  # noqa: SIM115
            # Its own process group: kill() takes the bot worker processes down with it.
            start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start; see " + str(self.data_dir / "server.log"))

    def kill(self) -> None:
        """SIGKILL: no chance to save anything that was not already committed."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)  # any worker left behind
            except subprocess.TimeoutExpired:
                self.kill()
            self.process = None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path)
    running.start()
    yield running
    running.stop()


@pytest.fixture
def page(server: Server) -> Iterator[object]:
    """A tab on the game page; it fails the test if the page throws (``pageerror``)."""
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    assert executable is not None
    profile = tempfile.mkdtemp(prefix="hearts-chromium-")
    errors: list[str] = []
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=executable,
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport={"width": 1280, "height": 800},
        )
        context.set_default_timeout(15_000)
        tab = context.pages[0] if context.pages else context.new_page()
        tab.on("pageerror", lambda error: errors.append(str(error)))
        tab.page_errors = errors  # type: ignore[attr-defined]  # for tests that look mid-way
        tab.goto(server.url + "/")
        try:
            yield tab
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)
    assert errors == [], f"errors on the page: {errors}"


AXE = ROOT / "tests" / "browser" / "axe" / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(page: Any, context: str = "document") -> list[str]:
    """What axe-core (pinned in tests/browser/axe, installed by scripts/ensure-axe.sh)
    finds wrong on the page as it is now: one line per rule and element."""
    if not AXE.is_file():
        if os.environ.get("HEARTS_REQUIRE_BROWSER") == "1":
            raise AssertionError("axe-core is missing: run sh scripts/ensure-axe.sh")
        pytest.skip("axe-core is not installed (sh scripts/ensure-axe.sh)")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # The pages' Content-Security-Policy forbids inline scripts (rightly): the
        # script goes in through the DevTools protocol, which the policy does not cover.
        session = page.context.new_cdp_session(page)
        session.send("Runtime.evaluate", {"expression": AXE.read_text(encoding="utf-8")})
        session.detach()
    found = page.evaluate(
        """async (context) => {
            const result = await axe.run(context === "document" ? document : context,
                                         { resultTypes: ["violations"] });
            return result.violations.flatMap((v) =>
                v.nodes.map((n) => `${v.id}: ${n.target.join(" ")} (${v.help})`));
        }""",
        context,
    )
    return [str(line) for line in found]


@pytest.fixture(name="axe")
def axe_fixture() -> Callable[..., list[str]]:
    """``axe(page)``: the accessibility violations on the page now (none expected)."""
    return axe_violations


def screenshot(page: object, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)  # type: ignore[attr-defined]


@pytest.fixture(name="screenshot")
def screenshot_fixture() -> Callable[[object, str], None]:
    """``screenshot(page, name)``: test-artifacts/<name>.png (a fixture: two conftest modules
    share the name, so tests do not import from this one)."""
    return screenshot


class Person:
    """One person at a shared table: a browser context of their own (so their own
    session cookie), one tab, and what went wrong on it."""

    def __init__(self, name: str, context: Any) -> None:
        self.name = name
        self.context = context
        self.page_errors: list[str] = []
        self.console_errors: list[str] = []
        self.page: Any = None
        self.new_page()

    def new_page(self) -> Any:
        """A (new) tab in this person's context: the same session as before."""
        tab = self.context.new_page()
        tab.on("pageerror", lambda error: self.page_errors.append(f"{self.name}: {error}"))
        tab.on(
            "console",
            lambda message: (
                self.console_errors.append(f"{self.name}: {message.text}")
                if message.type == "error"
                else None
            ),
        )
        self.page = tab
        return tab


@pytest.fixture
def people(server: Server) -> Iterator[Callable[[str], Person]]:
    """``people(name)``: a new person, each in a browser context of their own.

    One Chromium serves them all; contexts share no cookies or storage, so
    each person is a separate session (a separate guest) on the server.  The
    test fails if any of their tabs throws or logs an error to the console.
    """
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    assert executable is not None
    made: list[Person] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_FLAGS
        )

        def person(name: str) -> Person:
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            context.set_default_timeout(15_000)
            made.append(Person(name, context))
            return made[-1]

        try:
            yield person
        finally:
            for someone in made:
                with contextlib.suppress(Exception):
                    someone.context.close()
            browser.close()
    errors = [e for someone in made for e in someone.page_errors]
    assert errors == [], f"errors on the pages: {errors}"
    console = [e for someone in made for e in someone.console_errors]
    assert console == [], f"console errors on the pages: {console}"
