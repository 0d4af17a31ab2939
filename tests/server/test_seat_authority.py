"""A socket sees and acts for the seat its player holds *now*, never one it remembers.

Written as a hostile client would play it: one person with several tabs
(the same cookies), sitting, standing, leaving, saying hello again and
reconnecting, while friends take the seats they gave up. Every state each
socket receives is checked against the seat its player held when it was
sent, and every intent from a socket whose player holds no seat is refused.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient
from player import Player, Table, browser, connect, new_guest, post
from test_tables import check_no_leak

from hearts.server.app import create_app
from hearts.server.db import store
from hearts.server.db.session import make_engine, make_sessions
from hearts.server.settings import Settings


@pytest.fixture
def app_client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings.with_changes(grace_seconds=30.0))) as client:
        yield client


def create(client: TestClient) -> str:
    response = post(client, "/api/tables", {"name": "Tabs"})
    assert response.status_code == 200, response.text
    code: str = response.json()["code"]
    return code


def guests(client: TestClient, count: int) -> list[TestClient]:
    """``count`` browsers of their own, each a guest."""
    made = [browser(client) for _ in range(count)]
    for each in made:
        new_guest(each)
    return made


class Tab:
    """A socket of one person: sends intents, reads everything up to a marker."""

    def __init__(self, stack: ExitStack, client: TestClient, code: str, watch: bool = False):
        self.client, self.code = client, code
        self.stack = ExitStack()
        stack.callback(self.stack.close)
        self.player = Player(self.stack.enter_context(connect(client)))
        self.watch = watch
        self.expected: int | None = None
        """The seat this tab was last seen to show (the random test's model)."""
        self.marker = 0
        self.last: Table = {}
        self.unchecked: list[dict[str, Any]] = []
        """Every message drained and not yet looked at by the random test's check."""
        self.send("hello", table=code, watch=watch)

    def send(self, kind: str, **fields: Any) -> None:
        self.player.send(kind, **fields)

    def drain(self) -> list[dict[str, Any]]:
        """Everything the server queued for this socket so far (and the marker's answer)."""
        self.marker += 1
        self.player.send("__sync__", seq=-self.marker)
        messages = []
        while True:
            message = self.player.receive()
            if message["type"] == "error" and message["seq"] == -self.marker:
                self.unchecked += messages
                return messages
            messages.append(message)
            if message["type"] == "state" and message["table"] is not None:
                self.last = message["table"]

    def close(self) -> None:
        self.stack.close()


def absolute(table: Table, relative: int) -> int:
    """A seat number of a state (turned so the viewer is 0) as an absolute seat."""
    return (relative + (table["you"] or 0)) % 4


def test_a_second_tab_follows_its_player_to_another_seat(app_client: TestClient) -> None:
    """Tab B was on seat 1; its player stood and sat at seat 3; a friend sat at seat 1:
    B must see seat 3's cards, never the friend's, and B's pass is the player's."""
    ann_client, me, friend = guests(app_client, 3)
    code = create(ann_client)
    with ExitStack() as stack:
        ann = Tab(stack, ann_client, code)
        a = Tab(stack, me, code)
        a.send("sit", seat=1)
        a.drain()
        b = Tab(stack, me, code)
        assert b.drain()[-1]["table"]["you"] == 1
        a.send("stand")
        a.send("sit", seat=3)
        a.drain()
        assert b.drain()[-1]["table"]["you"] == 3  # B followed at once
        f = Tab(stack, friend, code)
        f.send("sit", seat=1)
        f.drain()
        ann.send("start")
        ann.drain()
        mine, theirs = a.drain()[-1]["table"], f.drain()[-1]["table"]
        for message in b.drain():
            table = message["table"]
            assert table["you"] == 3 and table["role"] == "player"
            assert not set(table["hand"]) & set(theirs["hand"])
        assert sorted(b.last["hand"]) == sorted(mine["hand"])
        b.send("confirm_pass", cards=b.last["hand"][:3])
        assert [m["type"] for m in b.drain()] == ["state"]
        seen = f.drain()[-1]["table"]
        assert not seen["pass_confirmed"][0]  # the friend's own pass is still to make
        assert seen["pass_confirmed"][2]  # seat 3 (across from the friend) passed


def test_standing_up_leaves_no_tab_behind_on_a_computer_seat(app_client: TestClient) -> None:
    """Sit, open a tab, stand, three times: no tab of that person sees a computer's hand."""
    ann_client, me = guests(app_client, 2)
    code = create(ann_client)
    with ExitStack() as stack:
        ann = Tab(stack, ann_client, code)
        tabs = []
        for seat in (1, 2, 3):
            sitter = Tab(stack, me, code)
            sitter.send("sit", seat=seat)
            sitter.drain()
            tabs.append(Tab(stack, me, code))
            tabs[-1].drain()
            sitter.send("stand")
            sitter.drain()
            tabs.append(sitter)
        for tab in tabs:
            tab.drain()
            assert tab.last["you"] is None  # stood up: the tab holds nobody's seat
        ann.send("start")
        ann.drain()
        for tab in tabs:
            for message in tab.drain():
                table = message["table"]
                assert table["hand"] == [] and table["you"] is None, table["you"]
                assert table["role"] == ("visitor" if table["phase"] == "seating" else "spectator")
            tab.send("confirm_pass", cards=["2C", "3C", "4C"])
            errors = [m for m in tab.drain() if m["type"] == "error"]
            assert [e["code"] for e in errors] == ["not_seated"]


def test_after_leaving_no_tab_plays_for_the_computer(app_client: TestClient) -> None:
    ann_client, me = guests(app_client, 2)
    code = create(ann_client)
    with ExitStack() as stack:
        ann = Tab(stack, ann_client, code)
        a = Tab(stack, me, code)
        a.send("sit", seat=2)
        a.drain()
        b = Tab(stack, me, code)
        b.drain()
        ann.send("start")
        ann.drain()
        hand = b.drain()[-1]["table"]["hand"]
        a.send("leave")
        for tab in (a, b):
            # States sent before the leave (the computers passing) may come first;
            # from the leave's own state on, each tab only watches.
            states = [m["table"] for m in tab.drain() if m["type"] == "state"]
            left = next(i for i, t in enumerate(states) if t["you"] is None)
            assert all(t["hand"] == [] and t["you"] is None for t in states[left:])
            assert tab.last["role"] == "spectator"
        for intent, fields in (
            ("confirm_pass", {"cards": hand[:3]}),
            ("select_pass", {"cards": hand[:1]}),
            ("play", {"card": hand[0]}),
            ("hint", {}),
            ("claim", {}),
            ("next_hand", {}),
        ):
            b.send(intent, **fields)
            errors = [m for m in b.drain() if m["type"] == "error"]
            assert [e["code"] for e in errors] == ["not_seated"], (intent, errors)
        table = ann.drain()[-1]["table"]
        assert table["seats"][2]["left"] and table["seats"][2]["bot_playing"]


@dataclass
class Person:
    name: str
    client: TestClient
    tabs: list[Tab] = field(default_factory=list)
    seat: int | None = None
    """The seat the test knows this person holds (the model the server must agree with)."""


def wait_for_subscribers(client: TestClient, code: str, count: int) -> None:
    """A closed socket is forgotten by the server in its own time: wait for it."""
    registry = client.app.state.registry  # type: ignore[attr-defined]
    for _ in range(500):
        table = registry._shared.get(code)
        if table is not None and len(table.subscribers) == count:
            return
        time.sleep(0.01)
    raise AssertionError("the server did not forget the closed socket")


@pytest.mark.parametrize("seed", range(6))
def test_random_tabs_only_ever_see_their_players_seat(
    app_client: TestClient, settings: Settings, seed: int
) -> None:
    """Random sit/stand/leave/hello/reconnect over several tabs and people: each state
    a socket gets shows the cards of the seat its player holds at that moment only,
    and each intent acts for that seat or, with none, is refused with not_seated."""
    rng = random.Random(seed)
    ann = Person("ann", browser(app_client), seat=0)
    people = [ann] + [Person(name, browser(app_client)) for name in ("bo", "cy", "di")]
    for person in people:
        new_guest(person.client)
    code = create(ann.client)
    log: list[tuple[int | None, Table]] = []
    intents = refused = 0

    def check(person: Person, tab: Tab) -> None:
        """Every state the tab got since the last check shows the seat its person held:
        the seat before this step's action, then (once the action took effect, and for
        good) the seat after it. Sockets are first in, first out, so a state sent before
        the action may still be read after it, never one sent after."""
        new = None if tab.watch else person.seat
        old = tab.expected
        switched = old == new
        tab.drain()
        states = [m["table"] for m in tab.unchecked if m["type"] == "state"]
        tab.unchecked = []
        for table in states:
            if not switched and table["you"] != old:
                switched = True
            expected = new if switched else old
            assert table["you"] == expected, (person.name, table["you"], expected)
            if expected is None:
                assert table["hand"] == [] and table["role"] != "player"
            log.append((expected, table))
        if old != new:  # the action changed what this tab must show: it was told
            assert states and states[-1]["you"] == new, (person.name, old, new)
        tab.expected = new

    def check_all() -> None:
        for person in people:
            for tab in person.tabs:
                check(person, tab)

    def open_tab(person: Person, stack: ExitStack) -> None:
        person.tabs.append(Tab(stack, person.client, code, watch=rng.random() < 0.15))

    def subscribers() -> int:
        return sum(len(person.tabs) for person in people)

    with ExitStack() as stack:
        for person in people:
            open_tab(person, stack)
        check_all()
        started = False
        for step in range(90):
            person = rng.choice(people)
            if not person.tabs:
                open_tab(person, stack)
                check_all()
                continue
            tab = rng.choice(person.tabs)
            action = rng.choice(
                ["sit", "stand", "hello", "reconnect", "tab"]
                + (["leave", "intent", "intent", "intent"] if started else [])
            )
            if step == 40:
                action = "start"
            if action == "sit":
                seat = rng.randrange(4)
                tab.send("sit", seat=seat)
                errors = [m for m in tab.drain() if m["type"] == "error"]
                if not errors:
                    person.seat = seat
                    tab.watch = False
            elif action == "stand":
                tab.send("stand")
                errors = [m for m in tab.drain() if m["type"] == "error"]
                if not errors:
                    person.seat = None
            elif action == "leave":
                tab.send("leave")
                errors = [m for m in tab.drain() if m["type"] == "error"]
                if not errors:
                    person.seat = None
            elif action == "hello":
                tab.watch = rng.random() < 0.2
                tab.send("hello", table=code, watch=tab.watch)
            elif action == "reconnect":
                tab.close()
                person.tabs.remove(tab)
                wait_for_subscribers(app_client, code, subscribers())
                open_tab(person, stack)
            elif action == "tab":
                open_tab(person, stack)
            elif action == "start":
                starter = Tab(stack, ann.client, code)  # the creator's own new tab
                ann.tabs.append(starter)
                starter.drain()
                starter.send("start")
                assert not [m for m in starter.drain() if m["type"] == "error"]
                started = True
            elif action == "intent" and started:
                intents += 1
                cards = (tab.last.get("hand") or ["2C", "3C", "4C"])[:3]
                tab.send("confirm_pass", cards=cards)
                errors = [m for m in tab.drain() if m["type"] == "error"]
                codes = [e["code"] for e in errors]
                if tab.watch or person.seat is None:
                    # a watching tab is refused at once; else the table says why
                    over = tab.last.get("status") == "abandoned" and not tab.watch
                    assert codes == ["finished" if over else "not_seated"], (person.name, codes)
                    refused += 1
                else:
                    assert "not_seated" not in codes, (person.name, codes)
            check_all()
        assert started, "the match never started"
        engine = make_engine(settings.db_url)
        data = store.find_code(make_sessions(engine), code)
        engine.dispose()
    assert data is not None
    checked = sum(
        check_no_leak(data.record, seat, table)
        for seat, table in log
        if table["phase"] != "seating"
    )
    print(
        f"seed {seed}: {len(log)} states checked ({checked} in play), {intents} intents, "
        f"{refused} refused as not seated"
    )
    assert checked > 0
