"""``hearts serve`` itself, as a process, against hostile clients: the limits a bare
server must keep without a proxy in front (compressed frames, slow request heads,
text that is not UTF-8), and a data folder that lost half of itself."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import zlib
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from hearts.cli import EXIT_FAILED, main
from hearts.server.app import create_app
from hearts.server.security import DataFolderError
from hearts.server.settings import Settings
from services import free_port

HEAD_TIMEOUT = 1.0


class Served:
    def __init__(self, data_dir: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = data_dir.parent / "server.log"
        env = {**os.environ, "HEARTS_HEAD_TIMEOUT": str(HEAD_TIMEOUT), "HEARTS_BOT_WORKERS": "1"}
        command = [sys.executable, "-m", "hearts.cli", "serve", "--port", str(self.port)]
        self.process = subprocess.Popen(
            [*command, "--data-dir", str(data_dir)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(self.log, "wb"),  # noqa: SIM115
            start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(self.url + "/healthz", timeout=1) as answer,
            ):
                if answer.status == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(self.log.read_text())

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def socket(self, compression: str | None = "deflate") -> ClientConnection:
        """A WebSocket as the game's page opens it: a guest's cookie, this site's Origin."""
        with httpx.Client(base_url=self.url) as http:
            csrf = http.get("/api/session").json()["csrf"]
            assert http.post("/api/guest", headers={"X-CSRF-Token": csrf}).status_code == 200
            cookie = "; ".join(f"{name}={value}" for name, value in http.cookies.items())
        return connect(
            f"ws://127.0.0.1:{self.port}/ws",
            origin=self.url,  # type: ignore[arg-type]
            additional_headers={"Cookie": cookie},
            compression=compression,
            max_size=None,
        )

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    server = Served(tmp_path / "data")
    try:
        yield server
    finally:
        server.stop()


def test_a_compressed_frame_is_never_inflated_past_the_limit(served: Served) -> None:
    before = served.rss_mb()
    closed = []
    # 4 MiB of spaces, a few kilobytes once compressed: refused before it is inflated.
    big = '{"type": "hint", "pad": "' + " " * (4 * 1024 * 1024) + '"}'
    assert len(zlib.compress(big.encode())) < 16 * 1024
    for _ in range(24):
        with served.socket() as ws:
            ws.send('{"type": "hello"}')
            ws.recv(timeout=10)
            with pytest.raises(ConnectionClosed) as ended:
                ws.send(big)
                ws.recv(timeout=10)
            closed.append(ended.value.rcvd.code if ended.value.rcvd else None)
    after = served.rss_mb()
    print(f"server memory {before:.0f} MB -> {after:.0f} MB after 24 inflatable frames")
    assert closed == [1009] * 24  # "message too big", from the server itself
    # A message within the limit still gets the game's own answer.
    with served.socket() as ws:
        ws.send('{"type": "hello"}')
        ws.recv(timeout=10)
        ws.send('{"type": "hint", "seq": 3}')
        assert '"no_match"' in str(ws.recv(timeout=10))


def test_a_request_head_that_never_ends_is_hung_up(served: Served) -> None:
    slow = []
    for _ in range(20):
        sock = socket.create_connection(("127.0.0.1", served.port))
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        slow.append(sock)
    idle = socket.create_connection(("127.0.0.1", served.port))  # says nothing at all
    slow.append(idle)
    started = time.monotonic()
    for sock in slow:
        sock.settimeout(HEAD_TIMEOUT * 10)
        assert sock.recv(1024) == b""  # the server closed it
        sock.close()
    waited = time.monotonic() - started
    print(f"21 unfinished connections closed after {waited:.1f} s")
    # The server still serves everyone else.
    with urllib.request.urlopen(served.url + "/healthz", timeout=5) as answer:
        assert answer.status == 200


def test_text_that_is_not_utf8_is_one_line_in_the_log(served: Served) -> None:
    for _ in range(3):
        with served.socket(compression=None) as ws:
            ws.send('{"type": "hello"}')
            ws.recv(timeout=10)
            ws.send(b'{"type": "\xff\xfe"}', text=True)
            with pytest.raises(ConnectionClosed) as ended:
                ws.recv(timeout=10)
            assert ended.value.rcvd is not None and ended.value.rcvd.code == 1007
    served.stop()
    log = served.log.read_text(encoding="utf-8", errors="replace")
    lines = [line for line in log.splitlines() if "UTF-8" in line]
    assert len(lines) == 3, log
    assert "Traceback" not in log, log


def settings_for(data: Path) -> Settings:
    return Settings(data_dir=data, bot_processes=False)


def test_a_data_folder_missing_its_database_refuses_to_start(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "secret.key").write_text("k" * 64, encoding="utf-8")
    with pytest.raises(DataFolderError, match=r"hearts\.db does not"):
        create_app(settings_for(data))
    assert not (data / "hearts.db").exists()  # nothing was made in its place


def test_a_database_without_its_key_refuses_to_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "hearts.db").write_bytes(b"")
    assert main(["serve", "--data-dir", str(data), "--port", str(free_port())]) == EXIT_FAILED
    error = capsys.readouterr().err
    assert "secret.key does not" in error and "HEARTS_SECRET_KEY" in error
    assert not (data / "secret.key").exists()
