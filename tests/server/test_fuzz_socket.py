"""Hostile WebSocket traffic, generated with Hypothesis, against a solo match in play.

Each example is a new guest whose socket said ``hello`` and started an Easy
match (pass, continue, the player's turn).  Then come messages of every kind:
arbitrary JSON, known types with wrong fields, strings and nesting around the
64 KB limit and past it, text that is not JSON, binary frames, intents out of
turn or with stale versions, replays of earlier accepted messages, cards not
in the hand, ``hello`` for tables that do not exist, ``sit``/``start``/``leave``
at a solo table.  After each one the socket is asked for the table (``set_pace``
to the pace it already has answers ``state`` and changes nothing) and then
sent an unknown type whose error marks the end of the answers.  Checked:

- the answers are ``state``, ``error`` or ``hint``; an error has a documented
  ``code`` (never ``server_error``), a human ``message``, and echoes ``seq``;
- what the server must refuse before looking at the table (too large, not
  JSON, not an object, unknown type, wrong fields) gets exactly that code;
- a refused message changes nothing: the database row (version, record, pass
  selections, flags) and the table the socket is shown are as before;
- only a well-formed intent ever changes the table, and when it does the
  socket is told (a ``state`` with the new version);
- the socket stays open.

Messages in CI: ``HEARTS_FUZZ_EXAMPLES`` (default 200); the total is printed.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Final

import anyio
import pytest
import sqlalchemy
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    MultipleResults,
    RuleBasedStateMachine,
    multiple,
    rule,
    run_state_machine_as_test,
)
from player import Player, browser, connect, new_guest
from pydantic import ValidationError
from starlette.testclient import WebSocketTestSession

from hearts.cards import CardSet
from hearts.server import limits
from hearts.server.settings import Settings
from hearts.server.ws.handlers import HANDLERS

EXAMPLES: Final = int(os.environ.get("HEARTS_FUZZ_EXAMPLES", "200"))
"""About how many hostile messages one run sends (HEARTS_FUZZ_EXAMPLES=1000 for a long run)."""
STEPS: Final = 25
"""Messages per example at most (each example is a new player and a new match)."""

LIMIT: Final = 64 * 1024
CODES: Final = {
    # docs/protocol.md, "Error codes"; too_fast: the message rate limit.
    "hello_first", "bad_json", "bad_message", "unknown_type", "too_large", "stale",
    "illegal", "not_your_turn", "not_now", "paused", "finished", "confirm_abandon",
    "no_match", "no_table", "seat_taken", "already_seated", "not_creator", "not_seated",
    "not_allowed", "too_fast", "confirm_unranked", "busy", "bad_name", "unavailable",
}  # fmt: skip
SYNC: Final = "__fuzz_sync__"
"""An unknown type: its error (with its own ``seq``) ends the answers to one message."""

KNOWN_DEAF_AFTER_BAD_HELLO: Final = False
"""A known bug (test_a_refused_hello_keeps_the_socket_on_its_table): after ``hello`` for a
table that does not exist, the socket follows no table and hears no more states.  While it
stands the fuzzing says ``hello`` again after a ``no_table``.  False once that test passes."""

DB_COLUMNS: Final = (
    "version, record, pass_selections, awaiting_continue, paused, pace, used_undo, ranked, "
    "status, updated_at, finished_at"
)


def _no_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """The message-rate limit would answer too_fast to most of a run: lift it here."""
    monkeypatch.setattr(limits.Bucket, "take", lambda self: True)


# --- what the server must answer before it looks at the table ---------------------------

_parser = ThreadPoolExecutor(max_workers=1)
"""Parses in a thread of its own: a shallow stack, like the server's, for deep nesting."""


@dataclass(frozen=True)
class Shape:
    """What the server makes of a message's text before it looks at the table."""

    code: str | None
    """The error it must answer, or None for a well-formed intent."""
    seq: int | None
    """The ``seq`` an answer must echo."""
    kind: str | None = None
    deep: bool = False
    """Nested near the recursion limit: the server may find it too deep to parse."""


def _shape(text: str) -> Shape:
    if len(text) > LIMIT or len(text.encode("utf-8")) > LIMIT:
        return Shape("too_large", None)
    try:
        data = json.loads(text)
    except RecursionError:
        return Shape("bad_json", None, deep=True)
    except ValueError:
        return Shape("bad_json", None)
    deep = text.count("[") + text.count("{") > 700
    if not isinstance(data, dict):
        return Shape("bad_message", None, deep=deep)
    seq = data.get("seq")
    seq = seq if isinstance(seq, int) and not isinstance(seq, bool) else None
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in HANDLERS:
        return Shape("unknown_type", seq, deep=deep)
    try:
        HANDLERS[kind][0].model_validate(data)
    except ValidationError:
        return Shape("bad_message", seq, kind, deep=deep)
    return Shape(None, seq, kind, deep=deep)


def shape(text: str) -> Shape:
    return _parser.submit(_shape, text).result()


# --- messages --------------------------------------------------------------------------

TYPES: Final = sorted(HANDLERS)
FIELDS: Final = ["seq", "version", "card", "cards", "level", "abandon", "pace", "seat", "style"]
FIELDS_ALL: Final = [*FIELDS, "table", "watch", "type", "token"]
DECK: Final = CardSet(2**52 - 1).texts()

JSON: Final = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**200), max_value=2**200)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
    | st.sampled_from(DECK + TYPES),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner),
    max_leaves=15,
)


def dumps(value: Any) -> str:
    return json.dumps(value)


def _nested(depth: int, inner: str = "0") -> str:
    return "[" * depth + inner + "]" * depth


any_json = JSON.map(dumps)
"""Any JSON value at all (mostly not an object, or without a known type)."""

typed_junk = st.builds(
    lambda kind, fields: dumps({"type": kind, **fields}),
    st.sampled_from(TYPES) | st.text(max_size=12) | JSON,
    st.dictionaries(st.sampled_from(FIELDS_ALL) | st.text(max_size=8), JSON, max_size=4),
)
"""Known (and unknown) types with fields of any type."""

not_json = st.one_of(
    st.text(max_size=200),
    st.sampled_from(
        [
            "",
            "{",
            '{"type": "play", "card": "2C"',
            "{'type': 'hello'}",
            '{"type": "hello"} trailing',
            "NaN",
            '{"type": "play", "card": NaN}',
            '{"type": "play", "card": "\\ud800"}',
            '{"type": "select_pass", "cards": ["\\udc00\\ud800"]}',
            '{"type": "play", "seq": 1' + "0" * 5000 + "}",
            '{"type": "hello", "type": "play"}',
            "\x00",
        ]
    ),
)
"""Text that is not JSON, or JSON a little off."""


@st.composite
def near_the_limit(draw: st.DrawFn) -> str:
    """Messages just under, at and over 64 KB (in characters or only in bytes)."""
    filler = draw(st.sampled_from(["x", "é", "€", "😀"]))
    kind = draw(st.sampled_from([*TYPES, "nope"]))
    head = dumps({"type": kind, "pad": ""})[:-2]
    room = LIMIT - len(head.encode()) - 2
    width = len(filler.encode())
    count = room // width + draw(st.integers(-3, 3))
    if draw(st.booleans()):
        count = draw(st.sampled_from([LIMIT, 2 * LIMIT, 200_000 // width]))
    return head + filler * max(0, count) + '"}'


@st.composite
def deeply_nested(draw: st.DrawFn) -> str:
    """Nesting deep enough to hit the parser's recursion limit, or the size limit."""
    depth = draw(st.integers(1, 40_000) | st.integers(900, 1000))
    where = draw(st.sampled_from(["bare", "field", "type", "seq", "card"]))
    inner = _nested(depth)
    if where == "bare":
        return inner
    if where == "type":
        return '{"type": ' + inner + "}"
    if where == "seq":
        return '{"type": "hint", "seq": ' + inner + "}"
    if where == "card":
        return '{"type": "play", "card": ' + inner + "}"
    return '{"type": "set_pace", "pace": "quick", "x": ' + inner + "}"


binary = st.binary(max_size=300) | st.text(max_size=100).map(str.encode)
"""Binary frames (the server reads them as UTF-8, bad bytes replaced)."""


@st.composite
def intents(draw: st.DrawFn, table: dict[str, Any] | None, version: int) -> dict[str, Any]:
    """A well-formed intent for this table, or one a little off: wrong cards, versions, turn."""
    hand = (table or {}).get("hand") or []
    legal = (table or {}).get("legal") or []
    others = [card for card in DECK if card not in hand]
    card = st.sampled_from(legal or DECK)
    if hand:
        card = card | st.sampled_from(hand)
    card = card | st.sampled_from(others) | st.sampled_from(["", "2c", "1X", "10H", "QS "])
    cards = st.lists(card, max_size=4, unique=True)
    kind = draw(st.sampled_from(TYPES))
    message: dict[str, Any] = {"type": kind}
    if kind == "play":
        message["card"] = draw(card)
    elif kind in ("select_pass", "confirm_pass"):
        message["cards"] = draw(cards)
    elif kind == "new_match":
        message["level"] = "easy"
        message["abandon"] = draw(st.booleans())
    elif kind == "set_pace":
        message["pace"] = draw(st.sampled_from(["relaxed", "quick"]))
    elif kind == "sit":
        message["seat"] = draw(st.integers(0, 3))
    elif kind == "choose_moon":
        message["style"] = draw(st.sampled_from(["add", "subtract"]))
    elif kind == "hello":
        code = st.text(min_size=1, max_size=16) | st.sampled_from(["abcdefgh", "0000", "x"])
        if draw(st.booleans()):
            message["table"] = draw(code)
        if draw(st.booleans()):
            message["watch"] = draw(st.booleans())
    if kind != "hello":
        stale = st.integers(-5, version - 1) | st.integers(version + 1, version + 5)
        choice = draw(st.sampled_from(["current", "stale", "none"]))
        if choice == "current":
            message["version"] = version
        elif choice == "stale":
            message["version"] = draw(stale | st.integers())
    if draw(st.booleans()):
        message["seq"] = draw(st.integers(-(2**40), 2**40))
    return message


# --- one tab, and the checks after each message ------------------------------------------


def quiet(table: dict[str, Any] | None) -> bool:
    """Whether the server now waits for the player (no computer has anything to do)."""
    if table is None or table.get("status") != "active" or table.get("paused"):
        return True
    if table["phase"] == "passing":
        return all(table["pass_confirmed"][1:])
    if table["phase"] == "playing":
        return bool(table["awaiting_continue"]) or table["turn"] == 0
    return True


def same_table(table: dict[str, Any] | None) -> dict[str, Any] | None:
    """The table without its running clock."""
    return None if table is None else {k: v for k, v in table.items() if k != "elapsed_ms"}


@dataclass
class Stats:
    messages: int = 0
    """Hostile messages sent (not counting the probes and the end markers)."""
    codes: Counter[str] = field(default_factory=Counter)
    accepted: int = 0


class Tab:
    """A player's socket, with what the test knows of its table."""

    def __init__(self, client: TestClient, engine: sqlalchemy.Engine, stats: Stats) -> None:
        self.client = browser(client)
        self.engine = engine
        self.stats = stats
        self.token = new_guest(self.client)
        self._context: AbstractContextManager[WebSocketTestSession] = connect(self.client)
        self.socket = self._context.__enter__()
        player = Player(self.socket)
        player.send("hello")
        player.receive()
        table = player.pass_and_continue(player.start("easy"))
        player.my_turn()
        self.marker = 10**12
        self.last: Any = None
        """The last hostile message, for the reports."""
        self.table: dict[str, Any] | None = table
        self.version = 0
        self.settle()

    def close(self) -> None:
        self._context.__exit__(None, None, None)

    # -- reading ---------------------------------------------------------------------------

    def row(self) -> dict[str, Any]:
        """The player's current match as the database has it (what a change must write)."""
        with self.engine.connect() as connection:
            found = connection.execute(
                sqlalchemy.text(
                    f"SELECT {DB_COLUMNS} FROM matches m JOIN players p "
                    "ON p.current_match_id = m.id WHERE p.token = :token"
                ),
                {"token": self.token},
            ).one()
            results = connection.execute(sqlalchemy.text("SELECT COUNT(*) FROM match_results"))
            return {**found._asdict(), "results": results.scalar()}

    def receive(self, seconds: float = 5.0) -> dict[str, Any]:
        """The next message; a server that stays silent fails the test instead of hanging it."""
        socket = self.socket

        async def within() -> Any:
            with anyio.fail_after(seconds):
                return await socket._send_rx.receive()  # the TestClient's queue of answers

        try:
            message = socket.portal.call(within)
        except TimeoutError:
            raise AssertionError(f"no answer in {seconds} s to {self.last!r:.300}") from None
        if message["type"] == "websocket.close":
            raise AssertionError(f"the socket was closed ({message}) after {self.last!r:.300}")
        answer: dict[str, Any] = json.loads(message["text"])
        return answer

    def _send(self, message: str | bytes | dict[str, Any]) -> None:
        if isinstance(message, bytes):
            self.socket.send_bytes(message)
        elif isinstance(message, str):
            self.socket.send_text(message)
        else:
            self.socket.send_text(json.dumps(message))

    def _until_marker(self, extra: int | None = None) -> list[dict[str, Any]]:
        """Ask for the table, then read every answer up to the end marker.

        ``extra``: also wait for the answer to a ``hint`` with that ``seq``,
        which may come later (hints are computed on the side).
        """
        self.marker += 1
        pace = self.row()["pace"]
        self._send({"type": "set_pace", "pace": pace})
        self._send({"type": SYNC, "seq": self.marker})
        answers: list[dict[str, Any]] = []
        ended = False
        while not ended or extra is not None:
            message = self.receive()
            if message.get("type") == "error" and message.get("seq") == self.marker:
                assert message["code"] == "unknown_type", message
                ended = True
                continue
            answers.append(message)
            if message["type"] != "state" and message.get("seq") == extra:
                extra = None
        return answers

    def settle(self) -> None:
        """Wait until the computers are done and the socket has the table the database has."""
        for _ in range(200):
            answers = self._until_marker()
            states = [a for a in answers if a["type"] == "state"]
            if states:
                self.table, self.version = states[-1]["table"], states[-1]["version"]
            if states and quiet(self.table) and self.row()["version"] == self.version:
                return
            time.sleep(0.01)
        raise AssertionError(f"the table never settled: {self.table}")

    # -- one hostile message -----------------------------------------------------------------

    def check(self, message: str | bytes | dict[str, Any]) -> bool:
        """Send ``message``; check the answers and that a refusal changed nothing.

        True when the message changed the table (it was accepted).
        """
        if isinstance(message, dict):
            message = dict(message)
            text = json.dumps(message)
        elif isinstance(message, bytes):
            text = message.decode("utf-8", errors="replace")
        else:
            text = message
        expect = shape(text)
        hint_seq = None
        if expect.code is None and expect.kind == "hint":
            # Its answer is computed on the side and may come after the end marker:
            # give it a seq of its own to wait for.
            hint_seq = self.marker + 10**9
            message = {**json.loads(text), "seq": hint_seq}
            text = json.dumps(message)
            expect = shape(text)
            if expect.code is not None:  # the seq took it over the size limit
                hint_seq = None
        before_row, before_table, before_version = self.row(), self.table, self.version
        self.stats.messages += 1
        self.last = message
        self._send(message)
        answers = self._until_marker(hint_seq)
        errors = [a for a in answers if a["type"] == "error"]
        states = [a for a in answers if a["type"] == "state"]
        for answer in answers:
            assert answer["type"] in ("state", "error", "hint"), answer
        for error in errors:
            self.stats.codes[error["code"]] += 1
            assert error["code"] in CODES, (text[:300], error)
            assert isinstance(error["message"], str) and error["message"].strip(), error
            assert error["seq"] == expect.seq, (text[:300], error, expect)
        assert len(errors) <= 1, (text[:300], errors)
        if expect.code is not None:
            assert errors, (text[:300], "a malformed message was not refused", answers)
            if expect.deep:  # the server's stack and ours differ a little
                assert errors[0]["code"] in (expect.code, "bad_json"), (text[:300], errors)
            else:
                assert errors[0]["code"] == expect.code, (text[:300], errors, expect)
        after_row = self.row()
        if KNOWN_DEAF_AFTER_BAD_HELLO and not states and errors and errors[0]["code"] == "no_table":
            self._send({"type": "hello"})  # the known bug: follow the solo table again
            self.settle()
            states = [{"type": "state", "version": self.version, "table": self.table}]
        assert states, (text[:300], "the socket was not shown the table", answers)
        changed = after_row != before_row
        if errors or not changed:
            assert after_row == before_row, (text[:300], errors)
            last = states[-1]
            assert last["version"] == before_version, (text[:300], last["version"])
            assert same_table(last["table"]) == same_table(before_table), (text[:300], errors)
            assert all(s["version"] == before_version for s in states), text[:300]
            self.table = last["table"]
            return False
        assert expect.code is None, (text[:300], "a malformed message changed the table")
        assert any(s["version"] == after_row["version"] for s in states) or after_row[
            "version"
        ] > max(s["version"] for s in states), (text[:300], "the change was not shown")
        self.stats.accepted += 1
        self.settle()
        return True

    def double_play(self, second: str) -> None:
        """A legal card and at once another (a double click): the second comes out of turn.

        The computers are still to play when the second arrives, so it is usually
        refused (not_your_turn, or illegal); refused, it must not have been played.
        """
        table = self.table
        if not (table and table["phase"] == "playing" and table["turn"] == 0 and table["legal"]):
            return
        first, left = table["legal"][0], table["cards_left"][0]
        self.stats.messages += 2
        self.last = ("double play", first, second)
        self._send({"type": "play", "card": first})
        self._send({"type": "play", "card": second, "seq": 99})
        answers = self._until_marker()
        errors = [a for a in answers if a["type"] == "error"]
        for error in errors:
            self.stats.codes[error["code"]] += 1
            assert error["code"] in CODES and error["seq"] == 99, (first, second, error)
        assert len(errors) <= 1, (first, second, errors)
        if not errors:
            self.stats.accepted += 1
        self.settle()
        assert self.table is not None
        if self.table["hand_number"] == table["hand_number"]:
            played = left - self.table["cards_left"][0]
            assert played == (1 if errors else 2), (first, second, errors, played)


# --- the fuzzing ---------------------------------------------------------------------------


@pytest.fixture
def engine(settings: Settings) -> Iterator[sqlalchemy.Engine]:
    engine = sqlalchemy.create_engine(settings.db_url)
    yield engine
    engine.dispose()


def test_hostile_messages_change_nothing(
    client: TestClient,
    engine: sqlalchemy.Engine,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _no_limits(monkeypatch)
    stats = Stats()

    class Hostile(RuleBasedStateMachine):
        accepted = Bundle("accepted")

        def __init__(self) -> None:
            super().__init__()
            self.tab = Tab(client, engine, stats)

        def teardown(self) -> None:
            self.tab.close()

        def send(self, message: str | bytes | dict[str, Any]) -> MultipleResults[Any]:
            """Check one message; keep it for replaying when it was accepted."""
            return multiple(message) if self.tab.check(message) else multiple()

        @rule(target=accepted, message=any_json | typed_junk | not_json)
        def junk(self, message: str) -> MultipleResults[Any]:
            return self.send(message)

        @rule(target=accepted, message=near_the_limit() | deeply_nested())
        def large(self, message: str) -> MultipleResults[Any]:
            return self.send(message)

        @rule(target=accepted, message=binary)
        def binary_frame(self, message: bytes) -> MultipleResults[Any]:
            return self.send(message)

        @rule(target=accepted, data=st.data())
        def intent(self, data: st.DataObject) -> MultipleResults[Any]:
            return self.send(data.draw(intents(self.tab.table, self.tab.version)))

        @rule(target=accepted, data=st.data())
        def intent_again(self, data: st.DataObject) -> MultipleResults[Any]:
            # a second tab's view: the intents of a table a few versions old
            return self.send(data.draw(intents(self.tab.table, self.tab.version - 1)))

        @rule(data=st.data())
        def double_click(self, data: st.DataObject) -> None:
            hand = (self.tab.table or {}).get("hand") or DECK
            self.tab.double_play(data.draw(st.sampled_from(hand)))

        @rule(target=accepted, message=accepted)
        def replay(self, message: Any) -> MultipleResults[Any]:
            return self.send(message)

    Hostile.TestCase.settings = settings(
        max_examples=max(1, EXAMPLES // STEPS),
        stateful_step_count=STEPS,
        deadline=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.filter_too_much,
            HealthCheck.data_too_large,
        ],
    )
    try:
        run_state_machine_as_test(Hostile, settings=Hostile.TestCase.settings)
    finally:
        with capsys.disabled():
            print(
                f"\n[fuzz socket] {stats.messages} hostile messages, {stats.accepted} accepted; "
                "errors: " + ", ".join(f"{c}x{n}" for c, n in stats.codes.most_common())
            )


# --- targeted -----------------------------------------------------------------------------


def answers_until(player: Player, seq: int) -> list[dict[str, Any]]:
    """Every answer up to the error of an unknown-type message sent with ``seq``."""
    player.send(SYNC, seq=seq)
    answers = []
    while True:
        message = player.receive()
        if message["type"] == "error" and message["seq"] == seq:
            return answers
        answers.append(message)


def still_works(player: Player) -> None:
    pace = "quick" if (player.table or {}).get("pace") != "quick" else "relaxed"
    player.send("set_pace", pace=pace)
    states = [a for a in answers_until(player, 424242) if a["type"] == "state"]
    assert states and states[-1]["table"]["pace"] == pace


def test_the_size_limit_is_64_kb(player: Player) -> None:
    player.pass_and_continue(player.start())
    player.my_turn()
    head = '{"type": "hint", "seq": 5, "accept_unranked": true, "pad": "'
    exactly = head + "x" * (LIMIT - len(head) - 2) + '"}'
    assert len(exactly) == LIMIT
    player.socket.send_text(exactly)  # 64 KB is allowed: a hint comes back
    while (answer := player.receive())["type"] == "state":
        pass
    assert answer["type"] == "hint" and answer["seq"] == 5, answer
    for text in (
        head + "x" * (65 * 1024) + '"}',  # 65 KB
        exactly[:-2] + 'x"}',  # one byte over
        head + "é" * ((LIMIT - len(head)) // 2) + '"}',  # under in characters, over in bytes
    ):
        player.socket.send_text(text)
        error = player.error()
        assert error["code"] == "too_large" and "64 KB" in error["message"]
        assert error["seq"] is None
    player.socket.send_bytes(b"x" * (LIMIT + 1))
    assert player.error()["code"] == "too_large"
    still_works(player)


def test_a_thousand_garbage_messages_leave_the_socket_working(player: Player) -> None:
    # The tests' message rate is lifted (conftest); test_limits covers too_fast.
    player.pass_and_continue(player.start())
    garbage = ["{", "null", "[]", '{"type": 5}', '{"type": "play"}', "\x00", '"x"', "{}"]
    for number in range(1000):
        player.socket.send_text(garbage[number % len(garbage)])
    codes: Counter[str] = Counter()
    while sum(codes.values()) < 1000:
        message = player.receive()
        if message["type"] == "error":
            codes[message["code"]] += 1
    assert set(codes) <= {"bad_json", "bad_message", "unknown_type"}, codes
    still_works(player)


def test_a_refused_hello_keeps_the_socket_on_its_table(
    player: Player, engine: sqlalchemy.Engine
) -> None:
    player.pass_and_continue(player.start())
    player.send("hello", table="nosuchtable")
    assert player.error()["code"] == "no_table"
    player.send("set_pace", pace="quick")
    answers = answers_until(player, 7)
    with engine.connect() as connection:
        paces = connection.execute(sqlalchemy.text("SELECT pace FROM matches")).scalars().all()
    assert paces == ["quick"]  # the change was made...
    states = [a for a in answers if a["type"] == "state"]
    assert states and states[-1]["table"]["pace"] == "quick"  # ...but is the socket told?
