"""Shared by ``tests/scale/test_crash.py`` and ``benchmarks/load.py``.

- :class:`ServerProcess`: one ``hearts serve`` as a subprocess in its own
  process group (its bot workers with it), started, SIGKILLed or stopped, and
  its memory and CPU read from ``/proc``.
- :class:`Player`: one browser as a script: its own guest session over HTTP,
  one WebSocket (session cookie and Origin, as a page of the site sends
  them), a solo match against the computers, played as the states ask
  (``confirm_pass``, ``continue``, ``play``, ``next_hand``; ``new_match`` when
  a match ends), and a reconnect loop with backoff like the page's
  (``web/static/socket.js``).  Every intent carries ``seq`` and ``version``;
  it is *acknowledged* by the first ``state`` whose ``version`` is greater
  than the one it was sent against, or by an ``error`` echoing its ``seq``.

Plain asyncio with the ``websockets`` client and ``httpx``; nothing here
imports the server, so the script may load this file by its path.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

Table = dict[str, Any]

HARMLESS_ERRORS = frozenset({"stale"})
"""Error codes that are expected under load and change nothing.

``stale``: the intent was sent against a version the table had already left
(the protocol's answer to a double click or a second tab).  A client that
acts only when the computers wait for it should not see it, but a reconnect
or a state still on its way can make it happen; the client then acts on the
next state.  Every other code counts as an error.
"""


# --- the server as a subprocess ---------------------------------------------------


class ServerProcess:
    """``hearts serve`` on 127.0.0.1:``port`` with ``env`` added to this process's environment.

    Started with ``start_new_session`` so that :meth:`kill` takes its whole
    process group (the uvicorn process and its bot worker processes) at once.
    """

    def __init__(
        self,
        port: int,
        env: dict[str, str],
        log: Path,
        data_dir: Path | None = None,
        python: str = sys.executable,
    ) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.env = env
        self.log = log
        self.data_dir = data_dir
        self.python = python
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        assert self.process is not None, "not started"
        return self.process.pid

    def start(self, timeout: float = 60.0) -> None:
        command = [self.python, "-m", "hearts.cli", "serve", "--port", str(self.port)]
        if self.data_dir is not None:
            command += ["--data-dir", str(self.data_dir)]
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                command,
                env={**os.environ, **self.env},
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped at start:\n{self.log_tail()}")
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(f"{self.url}/healthz", timeout=1) as response,
            ):
                if response.status == 200:
                    return
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"the server did not answer /healthz in {timeout} s:\n{self.log_tail()}")

    def kill(self) -> None:
        """SIGKILL the whole process group, as a crash would (nothing runs its shutdown)."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self, timeout: float = 15.0) -> None:
        """SIGTERM to the server (uvicorn's graceful shutdown, which stops its bot workers).

        Then SIGKILL for whatever is left of the group, or for all of it if the
        shutdown takes longer than ``timeout``.
        """
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.process.terminate()
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
        # Whatever is left of the group (a bot worker) goes too.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return f"(no log at {self.log})"


# --- /proc ----------------------------------------------------------------------------

CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat_fields(path: str) -> list[str] | None:
    """The fields of a /proc stat file after the command name (field 3 onwards)."""
    try:
        with open(path) as file:
            text = file.read()
    except OSError:
        return None
    return text[text.rfind(")") + 2 :].split()


def process_tree(root: int) -> list[int]:
    """``root`` and all its descendants (bot workers, multiprocessing's helper)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        fields = _stat_fields(f"/proc/{entry}/stat")
        if fields is not None:
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        if os.path.exists(f"/proc/{pid}"):
            found.append(pid)
            todo.extend(children.get(pid, []))
    return found


def rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as file:
            for line in file:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def cpu_seconds(pid: int, tid: int | None = None) -> float:
    """User + system CPU seconds of a process (or one of its threads)."""
    path = f"/proc/{pid}/stat" if tid is None else f"/proc/{pid}/task/{tid}/stat"
    fields = _stat_fields(path)
    if fields is None:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def machine_cpu() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot, all cores."""
    with open("/proc/stat") as file:
        values = [int(v) for v in file.readline().split()[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    total = sum(values[:8])
    return (total - idle) / CLOCK_TICKS, total / CLOCK_TICKS


@dataclass
class CpuSnapshot:
    """CPU seconds used so far, by where they went."""

    loop: float = 0.0
    """The server's main thread: the event loop (sockets, JSON, building states)."""
    threads: float = 0.0
    """The server's other threads: database transactions (asyncio.to_thread), bot threads."""
    workers: float = 0.0
    """The server's child processes: bot worker processes."""
    machine_busy: float = 0.0
    machine_total: float = 0.0
    wall: float = field(default_factory=time.monotonic)


def cpu_snapshot(roots: list[int]) -> CpuSnapshot:
    snap = CpuSnapshot()
    for root in roots:
        snap.loop += cpu_seconds(root, root)
        snap.threads += cpu_seconds(root) - cpu_seconds(root, root)
        for pid in process_tree(root):
            if pid != root:
                snap.workers += cpu_seconds(pid)
    snap.machine_busy, snap.machine_total = machine_cpu()
    return snap


# --- statistics -----------------------------------------------------------------------


@dataclass
class Stats:
    """What every client reports (shared by all the clients of a run)."""

    sent: int = 0
    latencies: list[tuple[float, float, str]] = field(default_factory=list)
    """(moment sent (monotonic), milliseconds to the acknowledgement, intent type)."""
    errors: Counter[str] = field(default_factory=Counter)
    """Every error code received (harmless ones included), plus ``timeout`` (no answer)."""
    reconnects: int = 0
    resyncs: int = 0
    """``hello`` sent again because nothing came for a long time (a stuck table)."""
    matches_started: int = 0
    matches_finished: int = 0


class Budget:
    """A total number of intents all the clients may still send (None: no limit)."""

    def __init__(self, total: int | None) -> None:
        self.remaining = total

    def take(self) -> bool:
        if self.remaining is None:
            return True
        if self.remaining <= 0:
            return False
        self.remaining -= 1
        return True

    @property
    def spent(self) -> bool:
        return self.remaining is not None and self.remaining <= 0


# --- a client -------------------------------------------------------------------------


@dataclass
class Pending:
    seq: int
    kind: str
    version: int
    sent_at: float
    card: str | None = None
    cards: tuple[str, ...] = ()
    """The three cards of a ``confirm_pass``."""


@dataclass
class Ack:
    """One acknowledged intent."""

    kind: str
    seq: int
    sent_version: int
    version: int
    """The version of the acknowledging state (the sent one for an error)."""
    latency_ms: float
    error: str | None = None
    match_id: str | None = None
    hand_number: int | None = None
    card: str | None = None
    cards: tuple[str, ...] = ()
    shown: bool = True
    """For a play acknowledged by a state: whether that state shows the card played by seat 0."""


@dataclass
class Resume:
    """The first state after a (re)connection and ``hello``, with what the client knew before."""

    connection: int
    seen_version: int
    """The highest version this client had seen before the connection (0: none)."""
    seen_table: Table | None
    """The table of that highest version."""
    version: int
    table: Table | None


def seat0_cards(table: Table) -> set[str]:
    """The cards seat 0 has played in this hand (as the table shows its tricks)."""
    return {card for trick in table["tricks"] for seat, card in trick["cards"] if seat == 0}


def next_intent(table: Table | None, level: str, pace: str | None) -> dict[str, Any] | None:
    """What a player does now, given the table it sees (None: wait for the computers).

    ``pace``: the pace to set (once; a new match keeps the last one's) when
    the player is about to act anyway, so that it never races a computer's
    move and comes back ``stale``.
    """
    if table is None or table["status"] != "active":
        return {"type": "new_match", "level": level, "abandon": False}
    if table["paused"]:
        return {"type": "resume"}
    intent = _decision(table)
    if intent is not None and pace is not None and table["pace"] != pace:
        return {"type": "set_pace", "pace": pace}
    return intent


def _decision(table: Table) -> dict[str, Any] | None:
    phase = table["phase"]
    if phase == "passing":
        confirmed = table["pass_confirmed"]
        # The computers pass at once after the deal; waiting for them keeps the
        # player's confirm from racing their passes (which would make it stale).
        if not confirmed[0] and all(confirmed[1:]):
            return {"type": "confirm_pass", "cards": table["hand"][:3]}
        return None
    if table["awaiting_continue"]:
        return {"type": "continue"}
    if phase == "playing":
        if table["turn"] == 0 and table["legal"]:
            return {"type": "play", "card": table["legal"][0]}
        return None
    if phase == "moon_choice":
        return {"type": "choose_moon", "style": "add"} if table["turn"] == 0 else None
    if phase == "hand_over":
        return {"type": "next_hand"}
    return None


class Player:
    """One browser playing solo matches against the computers, reconnecting when dropped."""

    def __init__(
        self,
        url: str,
        *,
        stats: Stats | None = None,
        budget: Budget | None = None,
        level: str = "easy",
        pace: str | None = "quick",
        think: float = 0.0,
        backoff: tuple[float, float] = (0.5, 8.0),
        ack_timeout: float = 30.0,
        stuck_timeout: float = 15.0,
        rng: random.Random | None = None,
        urls: list[str] | None = None,
        compression: str | None = "deflate",
        forwarded_for: str | None = None,
    ) -> None:
        self.url = url
        self.urls = urls or [url]
        """Where to reconnect: the next of these after a failed attempt (several processes)."""
        self.headers = {} if forwarded_for is None else {"X-Forwarded-For": forwarded_for}
        """``X-Forwarded-For``: the address this browser seems to come from, as a proxy on
        loopback says it (uvicorn trusts 127.0.0.1), so that the server's per-address
        limits see many clients rather than one."""
        self.compression = compression
        """The WebSocket's permessage-deflate (offered by browsers), or None."""
        self.stats = stats if stats is not None else Stats()
        self.budget = budget or Budget(None)
        self.level = level
        self.pace = pace
        self.think = think
        self.backoff_base, self.backoff_cap = backoff
        self.ack_timeout = ack_timeout
        self.stuck_timeout = stuck_timeout
        self.rng = rng or random.Random()
        self.http: httpx.AsyncClient | None = None
        self.csrf = ""
        self.ws: ClientConnection | None = None
        self.seq = 0
        self.table: Table | None = None
        self.version = 0
        self.seen_version = 0
        self.seen_table: Table | None = None
        self.pending: Pending | None = None
        self.acked: list[Ack] = []
        self.resumes: list[Resume] = []
        self.connections = 0
        self.failures: list[str] = []
        """Why connection attempts failed or dropped (for diagnosis)."""
        self.versions_went_back = 0
        self.stop = asyncio.Event()
        self.changed = asyncio.Event()
        """Set whenever something happens (a state, an ack, a connection): for waiters."""
        self._acted_on: int | None = None
        self._attempt = 0
        self._quiet_until = 0.0
        """After ``too_fast``: send nothing before this moment (perf_counter)."""

    # --- session ---------------------------------------------------------------------

    async def _ensure_player(self) -> None:
        """GET /api/session; POST /api/guest when the session has no player (as the page does)."""
        if self.http is None or self.http.base_url != httpx.URL(self.url):
            cookies = self.http.cookies if self.http is not None else None
            if self.http is not None:
                await self.http.aclose()
            self.http = httpx.AsyncClient(
                base_url=self.url,
                cookies=cookies,
                headers=self.headers,
                timeout=30.0,
                trust_env=False,
            )
        response = await self.http.get("/api/session")
        response.raise_for_status()
        body = response.json()
        self.csrf = body["csrf"]
        if body["player"] is None:
            response = await self.http.post("/api/guest", headers={"X-CSRF-Token": self.csrf})
            response.raise_for_status()

    def _cookie(self) -> str:
        assert self.http is not None
        return "; ".join(f"{name}={value}" for name, value in self.http.cookies.items())

    # --- the loop ----------------------------------------------------------------------

    async def run(self) -> None:
        """Play until :attr:`stop` is set, reconnecting with backoff whenever the socket drops."""
        try:
            while not self.stop.is_set():
                try:
                    await self._ensure_player()
                    ws_url = self.url.replace("http://", "ws://", 1) + "/ws"
                    async with connect(
                        ws_url,
                        additional_headers={
                            "Origin": self.url,
                            "Cookie": self._cookie(),
                            **self.headers,
                        },
                        proxy=None,
                        compression=self.compression,
                        open_timeout=30,
                        max_queue=None,
                    ) as ws:
                        self.ws = ws
                        self._attempt = 0
                        self.connections += 1
                        if self.connections > 1:
                            self.stats.reconnects += 1
                        self._notify()
                        await self._converse(ws)
                        if self.stop.is_set():
                            return
                except (ConnectionClosed, OSError, InvalidHandshake, httpx.HTTPError) as error:
                    self.failures.append(f"{type(error).__name__}: {error}")
                except TimeoutError as error:
                    self.failures.append(f"timeout: {error}")
                finally:
                    self.ws = None
                    if self.pending is not None:
                        # Lost with the connection: neither acknowledged nor refused.
                        self.stats.errors["lost"] += 1
                        self.pending = None
                if self.stop.is_set():
                    return
                await self._sleep_backoff()
        finally:
            if self.http is not None:
                await self.http.aclose()
                self.http = None

    async def _sleep_backoff(self) -> None:
        base = min(self.backoff_cap, self.backoff_base * 2**self._attempt)
        self._attempt += 1
        if len(self.urls) > 1:
            self.url = self.urls[(self.urls.index(self.url) + 1) % len(self.urls)]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stop.wait(), base * (0.8 + self.rng.random() * 0.4))

    async def _converse(self, ws: ClientConnection) -> None:
        loop = asyncio.get_running_loop()
        await ws.send(json.dumps({"type": "hello"}))
        greeted = False
        self._acted_on = None
        due: float | None = None
        last_message = loop.time()
        while True:
            now = loop.time()
            if self.stop.is_set() and self.pending is None:
                await ws.close()
                return
            wait = 0.5
            if self.pending is not None:
                left = self.pending.sent_at + self.ack_timeout - time.perf_counter()
                if left <= 0:
                    self.stats.errors["timeout"] += 1
                    self.pending = None
                    await self._hello(ws)
                    continue
                wait = min(wait, left)
            elif greeted and not self.stop.is_set() and time.perf_counter() < self._quiet_until:
                wait = min(wait, self._quiet_until - time.perf_counter())
            elif greeted and not self.stop.is_set():
                intent = self._decide()
                if intent is not None:
                    if due is None:
                        due = now + (self.rng.uniform(0.5, 1.5) * self.think if self.think else 0)
                    if now >= due:
                        due = None
                        if not self.budget.take():
                            self.stop.set()
                            continue
                        await self._send(ws, intent)
                        continue
                    wait = min(wait, due - now)
                elif now - last_message > self.stuck_timeout:
                    self.stats.resyncs += 1
                    last_message = now
                    await self._hello(ws)
                    continue
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.0, wait))
            except TimeoutError:
                continue
            last_message = loop.time()
            message = json.loads(raw)
            if message.get("type") == "state":
                if not greeted:
                    greeted = True
                    self._resumed(message)
                self._on_state(message)
                due = None
            elif message.get("type") == "error":
                self._on_error(message)
            self._notify()

    async def _hello(self, ws: ClientConnection) -> None:
        self._acted_on = None
        await ws.send(json.dumps({"type": "hello"}))

    def _decide(self) -> dict[str, Any] | None:
        if self._acted_on == self.version:
            return None  # acted on this state already: wait for the next one
        return next_intent(self.table, self.level, self.pace)

    async def _send(self, ws: ClientConnection, intent: dict[str, Any]) -> None:
        self.seq += 1
        message = {**intent, "seq": self.seq, "version": self.version}
        self.pending = Pending(
            self.seq,
            intent["type"],
            self.version,
            time.perf_counter(),
            intent.get("card"),
            tuple(intent.get("cards", ())),
        )
        self._acted_on = self.version
        self.stats.sent += 1
        if intent["type"] == "new_match":
            self.stats.matches_started += 1
        await ws.send(json.dumps(message))

    def _resumed(self, message: dict[str, Any]) -> None:
        self.resumes.append(
            Resume(
                self.connections,
                self.seen_version,
                self.seen_table,
                message["version"],
                message["table"],
            )
        )

    def _on_state(self, message: dict[str, Any]) -> None:
        version, table = message["version"], message["table"]
        if version < self.version:
            self.versions_went_back += 1
        if (
            table is not None
            and self.table is not None
            and table["status"] == "finished"
            and self.table["status"] == "active"
            and table["match_id"] == self.table["match_id"]
        ):
            self.stats.matches_finished += 1
        self.version, self.table = version, table
        if version >= self.seen_version:
            self.seen_version, self.seen_table = version, table
        pending = self.pending
        if pending is not None and version > pending.version:
            latency = (time.perf_counter() - pending.sent_at) * 1000
            shown = True
            if pending.kind == "play" and table is not None:
                shown = pending.card in seat0_cards(table)
            self._acknowledge(pending, latency, version, None, table, shown)

    def _on_error(self, message: dict[str, Any]) -> None:
        code = str(message.get("code"))
        self.stats.errors[code] += 1
        pending = self.pending
        if pending is None:
            return
        if message.get("seq") != pending.seq:
            return
        if code == "too_fast":
            # Dropped unread by the rate limit: send it again in a second.
            self._acted_on = None
            self._quiet_until = time.perf_counter() + 1.0
        latency = (time.perf_counter() - pending.sent_at) * 1000
        self._acknowledge(pending, latency, pending.version, code, self.table, False)

    def _acknowledge(
        self,
        pending: Pending,
        latency: float,
        version: int,
        error: str | None,
        table: Table | None,
        shown: bool,
    ) -> None:
        self.pending = None
        self.stats.latencies.append((pending.sent_at, latency, pending.kind))
        self.acked.append(
            Ack(
                pending.kind,
                pending.seq,
                pending.version,
                version,
                latency,
                error,
                None if table is None else table["match_id"],
                None if table is None else table["hand_number"],
                pending.card,
                pending.cards,
                shown,
            )
        )

    def _notify(self) -> None:
        self.changed.set()
        self.changed = asyncio.Event()

    # --- for tests ---------------------------------------------------------------------

    def plays_acked(self) -> list[Ack]:
        return [ack for ack in self.acked if ack.kind == "play" and ack.error is None]

    async def wait_for(self, condition: Callable[[], bool], timeout: float, what: str) -> None:
        """Wait until ``condition()`` holds (checked whenever something happens)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not condition():
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {what}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))
