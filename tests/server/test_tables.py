"""Tables with other people: seating, start, hidden passes, no take-backs, spectators,
the grace period and the bot that takes over, leaving for good, and no leaks."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from player import Player, Table, browser, connect, new_guest, post, sign_up

from hearts.cards import parse_card
from hearts.rules import STANDARD
from hearts.server.app import create_app
from hearts.server.db import store
from hearts.server.db.session import make_engine, make_sessions
from hearts.server.settings import Settings

GRACE = 0.4


@pytest.fixture
def app_client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings.with_changes(grace_seconds=GRACE))) as client:
        yield client


def create(client: TestClient, **body: Any) -> str:
    response = post(client, "/api/tables", {"name": "Friday night", **body})
    assert response.status_code == 200, response.text
    code: str = response.json()["code"]
    assert response.json()["url"] == f"/t/{code}"
    return code


def join(stack: ExitStack, client: TestClient, code: str, watch: bool = False) -> Player:
    tab = Player(stack.enter_context(connect(client)))
    tab.send("hello", table=code, watch=watch)
    tab.state()
    return tab


def sign_up_ann(client: TestClient) -> bool:
    """Only the first Ann of a test signs up (names are unique); later ones stay guests."""
    first = not getattr(client, "ann_signed_up", False)
    client.ann_signed_up = True  # type: ignore[attr-defined]
    return first


def people(client: TestClient) -> tuple[TestClient, TestClient, TestClient]:
    """Ann (signed up, the creator), a guest, and a spectator: three browsers."""
    ann, guest, watcher = browser(client), browser(client), browser(client)
    new_guest(ann)
    if sign_up_ann(client):
        sign_up(ann, "Ann")
    new_guest(guest)
    new_guest(watcher)
    return ann, guest, watcher


def test_creating_a_table(app_client: TestClient) -> None:
    new_guest(app_client)
    assert app_client.post("/api/tables", json={"name": "x"}).status_code == 403  # no CSRF
    for body in (
        {"name": ""},
        {"name": "   "},
        {"name": "x" * 41},
        {"name": "x", "rules": {"cheating": True}},
        {"name": "x", "rules": {"moon": "sometimes"}},
        {"name": "x", "bot_level": "godlike"},
        {"name": 5},
    ):
        assert post(app_client, "/api/tables", body).status_code in (400, 422), body
    code = create(app_client, bot_level="expert", rules={"jack_of_diamonds": True})
    with ExitStack() as stack:
        ann = join(stack, app_client, code)
        table = ann.table or {}
    assert table["kind"] == "shared" and table["status"] == "seating"
    assert table["name"] == "Friday night" and table["bot_level"] == "expert"
    assert table["rules"] == {"jack_of_diamonds": True} and table["house_rules"]
    assert table["you"] == 0 and table["creator"] and table["role"] == "player"
    assert [seat["kind"] for seat in table["seats"]] == ["you", "empty", "empty", "empty"]
    assert table["hand"] == [] and not table["ranked"]


def test_an_unknown_table(app_client: TestClient) -> None:
    new_guest(app_client)
    with connect(app_client) as socket:
        tab = Player(socket)
        tab.send("hello", table="nothere", seq=4)
        error = tab.error()
        assert error["code"] == "no_table" and error["seq"] == 4


def test_seating_and_starting(app_client: TestClient) -> None:
    ann_client, guest_client, watch_client = people(app_client)
    code = create(ann_client)
    with ExitStack() as stack:
        ann = join(stack, ann_client, code)
        guest = join(stack, guest_client, code)
        assert (guest.table or {})["role"] == "visitor" and (guest.table or {})["you"] is None
        guest.send("sit", seat=0)
        assert guest.error()["code"] == "seat_taken"
        guest.send("sit", seat=2)
        table = guest.until(lambda t: t["you"] == 2)
        assert table["seats"][0]["kind"] == "you"  # turned: the viewer is always seat 0
        assert table["seats"][2]["name"] == "Ann" and table["seats"][2]["kind"] == "person"
        guest.send("sit", seat=3)
        assert guest.error()["code"] == "already_seated"
        table = ann.until(lambda t: t["seats"][2]["kind"] == "person")
        assert table["seats"][2]["name"].startswith("Guest ")
        watcher = join(stack, watch_client, code, watch=True)
        assert (watcher.table or {})["role"] == "spectator"
        guest.send("start")
        assert guest.error()["code"] == "not_creator"
        ann.send("stand")
        assert ann.error()["code"] == "not_allowed"
        ann.send("start")
        table = ann.until(lambda t: t["phase"] == "passing")
        assert [seat["kind"] for seat in table["seats"]] == ["you", "bot", "person", "bot"]
        assert table["players"][2] == (guest.table or {})["players"][0]
        assert len(table["hand"]) == 13 and table["prompt"].startswith("Pass three cards to")
        spectator = watcher.until(lambda t: t["phase"] == "passing")
        assert spectator["hand"] == [] and spectator["role"] == "spectator"
        ann.send("start")
        assert ann.error()["code"] == "not_now"
        latecomer = browser(app_client)
        new_guest(latecomer)
        late = join(stack, latecomer, code)
        assert (late.table or {})["role"] == "spectator"


def started(stack: ExitStack, client: TestClient) -> tuple[Player, Player, Player, str]:
    ann_client, guest_client, watch_client = people(client)
    code = create(ann_client)
    ann = join(stack, ann_client, code)
    guest = join(stack, guest_client, code)
    guest.send("sit", seat=2)
    guest.until(lambda t: t["you"] == 2)
    watcher = join(stack, watch_client, code, watch=True)
    ann.send("start")
    for tab in (ann, guest, watcher):
        tab.until(lambda t: t["phase"] == "passing" and t["pass_confirmed"].count(True) == 2)
    return ann, guest, watcher, code


def test_the_pass_is_hidden_and_there_are_no_take_backs(app_client: TestClient) -> None:
    with ExitStack() as stack:
        ann, guest, watcher, _ = started(stack, app_client)
        hand = (ann.table or {})["hand"]
        ann.send("select_pass", cards=hand[:2])
        ann.until(lambda t: t["pass_selection"] == hand[:2])
        ann.send("confirm_pass", cards=hand[:3])
        seen = guest.until(lambda t: t["pass_confirmed"][2])  # Ann is across: seat 2 for them
        assert not any(card in seen["hand"] for card in hand[:3])
        assert seen["phase"] == "passing" and seen["passed"] is None
        watcher.until(lambda t: t["pass_confirmed"] == [True, True, False, True])
        for intent in ("undo", "restart_hand", "pause"):
            ann.send(intent)
            error = ann.error()
            assert error["code"] == "not_allowed"
            assert error["message"] == "No take-backs at a table with other people"
        guest.send("confirm_pass", cards=(guest.table or {})["hand"][:3])
        for tab in (ann, guest):
            table = tab.until(lambda t: t["phase"] == "playing")
            assert not table["awaiting_continue"] and len(table["received"]) == 3
        spectator = watcher.until(lambda t: t["phase"] == "playing")
        assert spectator["received"] is None and spectator["hand"] == []
        watcher.send("play", card="2C")
        assert watcher.error()["code"] == "not_seated"


class Autopilot:
    """Acts for a seated tab once per decision the state asks of it."""

    def __init__(self, tab: Player) -> None:
        self.tab = tab
        self.done: set[tuple[Any, ...]] = set()

    def act(self, table: Table) -> None:
        if table["status"] != "active" or table["role"] != "player":
            return
        plays = sum(len(trick["cards"]) for trick in table["tricks"])
        key = (table["hand_number"], table["phase"], plays)
        if key in self.done:
            return
        if table["phase"] == "passing" and not table["pass_confirmed"][0]:
            self.tab.send("confirm_pass", cards=table["hand"][:3])
        elif table["phase"] == "playing" and table["turn"] == 0 and table["legal"]:
            self.tab.send("play", card=table["legal"][0])
        elif table["phase"] == "moon_choice" and table["turn"] == 0:
            self.tab.send("choose_moon", style="add")
        else:
            return
        self.done.add(key)


def cards_in(message: Any) -> set[str]:
    """Every string anywhere in a message that names a card."""
    found: set[str] = set()
    if isinstance(message, dict):
        for value in message.values():
            found |= cards_in(value)
    elif isinstance(message, list):
        for value in message:
            found |= cards_in(value)
    elif isinstance(message, str) and 2 <= len(message) <= 3:
        try:
            parse_card(message)
        except ValueError:
            return found
        found.add(message)
    return found


def test_no_message_reveals_a_hidden_card(app_client: TestClient, settings: Settings) -> None:
    """Every message to every socket over whole matches: a seat sees its own cards,
    the three it received, and cards once played; a spectator only played cards."""
    matches = int(os.environ.get("HEARTS_LEAK_MATCHES", "2"))
    engine = make_engine(settings.db_url)
    sessions = make_sessions(engine)
    checked = sent = 0
    for _ in range(matches):
        with ExitStack() as stack:
            ann, guest, watcher, code = started(stack, app_client)
            seats = {"ann": 0, "guest": 2, "watcher": None}
            tabs = {"ann": ann, "guest": guest, "watcher": watcher}
            pilots = {"ann": Autopilot(ann), "guest": Autopilot(guest)}
            log: list[tuple[int | None, Table]] = []
            finished: set[str] = set()
            for name, pilot in pilots.items():
                pilot.act(tabs[name].table or {})
            while len(finished) < 3:
                # Every change reaches every socket: reading them in turn stays in step.
                for name, tab in tabs.items():
                    if name in finished:
                        continue
                    message = tab.receive()
                    assert message["type"] == "state", message
                    table = message["table"]
                    log.append((seats[name], table))
                    if table["status"] == "finished":
                        finished.add(name)
                    elif name in pilots:
                        pilots[name].act(table)
            data = store.find_code(sessions, code)
            assert data is not None and data.status == "finished"
        sent += len(log)
        for seat, table in log:
            checked += check_no_leak(data.record, seat, table)
    engine.dispose()
    print(f"{sent} states sent over {matches} matches; {checked} of them in a hand in play")
    assert checked > 100 * matches


def check_no_leak(record: dict[str, Any], seat: int | None, table: Table) -> int:
    """Fails if ``table`` (as sent to ``seat``, None for a spectator) names a hidden card."""
    if seat is None:
        assert table["hand"] == [] and table["received"] is None and table["passed"] is None
    if table["phase"] in ("hand_over", "match_over"):
        return 0  # every card of the hand has been played
    hand = record["hands"][table["hand_number"] - 1]
    allowed = {card for trick in table["tricks"] for _, card in trick["cards"]}
    if seat is not None:
        allowed |= set(hand["deal"][seat])
        direction = STANDARD.pass_direction(table["hand_number"])
        if table["received"] is not None:
            given = hand["pass"][direction.giver(seat)]
            assert set(table["received"]) == set(given)
            allowed |= set(given)
    hidden = cards_in(table) - allowed
    assert not hidden, (seat, table["hand_number"], sorted(hidden))
    return 1


def test_a_bot_takes_over_after_the_grace_period(app_client: TestClient) -> None:
    ann_client, guest_client, _ = people(app_client)
    code = create(ann_client)
    with ExitStack() as stack:
        ann = join(stack, ann_client, code)
        with ExitStack() as guest_page:
            guest = join(guest_page, guest_client, code)
            guest.send("sit", seat=2)
            guest.until(lambda t: t["you"] == 2)
            ann.send("start")
            guest.until(lambda t: t["phase"] == "passing")
        # The guest's page is gone: the others see the countdown, then a bot.
        table = ann.until(lambda t: t["seats"][2]["away_ms"] is not None)
        assert 0 < table["seats"][2]["away_ms"] <= GRACE * 1000
        assert not table["seats"][2]["bot_playing"] and not table["seats"][2]["connected"]
        table = ann.until(lambda t: t["seats"][2]["bot_playing"])
        assert table["seats"][2]["away_ms"] is None
        ann.until(lambda t: t["pass_confirmed"][2])  # the bot passed for the guest
        # The guest comes back: the seat is theirs again.
        guest = join(stack, guest_client, code)
        table = guest.until(lambda t: not t["seats"][0]["bot_playing"])
        assert table["you"] == 2 and table["seats"][0]["connected"] and table["role"] == "player"
        ann.until(lambda t: not t["seats"][2]["bot_playing"] and t["seats"][2]["connected"])


def test_leaving_for_good(app_client: TestClient) -> None:
    with ExitStack() as stack:
        ann, guest, watcher, _ = started(stack, app_client)
        guest.send("leave")
        table = guest.until(lambda t: t["role"] == "spectator")
        assert table["hand"] == [] and table["you"] is None
        table = ann.until(lambda t: t["seats"][2]["left"])
        assert table["seats"][2]["kind"] == "bot" and table["seats"][2]["bot_playing"]
        ann.until(lambda t: t["pass_confirmed"][2])  # the bot keeps the seat
        guest.send("confirm_pass", cards=["2C", "3C", "4C"])
        assert guest.error()["code"] == "not_seated"
        ann.send("leave")
        table = watcher.until(lambda t: t["status"] == "abandoned")
        assert table["seats"][0]["left"]


def test_the_next_hand_starts_by_itself(app_client: TestClient) -> None:
    with ExitStack() as stack:
        ann, guest, watcher, _ = started(stack, app_client)
        pilots = [Autopilot(ann), Autopilot(guest)]
        tabs = [ann, guest, watcher]
        for pilot, tab in zip(pilots, tabs, strict=False):
            pilot.act(tab.table or {})
        while True:
            tables = [tab.state() for tab in tabs]
            for pilot, table in zip(pilots, tables, strict=False):
                pilot.act(table)
            if tables[0]["phase"] == "hand_over":
                break
        assert tables[0]["next_hand_ms"] is not None
        assert tables[0]["prompt"].startswith("Hand 1 is over")
        ann.until(lambda t: t["hand_number"] == 2 and t["phase"] == "passing")


def test_the_coach_at_a_shared_table(app_client: TestClient) -> None:
    """Only for a person seated there, and never while a hand is in play."""
    with ExitStack() as stack:
        ann_client, guest_client, watch_client = people(app_client)
        code = create(ann_client)
        ann = join(stack, ann_client, code)
        guest = join(stack, guest_client, code)
        guest.send("sit", seat=2)
        guest.until(lambda t: t["you"] == 2)
        join(stack, watch_client, code, watch=True)
        ann.send("start")
        ann.until(lambda t: t["phase"] == "passing")
        unknown = guest_client.get("/api/match/coach", params={"table": "NOPE"})
        assert unknown.status_code == 404
        watching = watch_client.get("/api/match/coach", params={"table": code})
        assert watching.status_code == 404
        assert watching.json()["detail"] == "You have no seat at this table"
        playing = guest_client.get("/api/match/coach", params={"table": code})
        assert playing.status_code == 409
        assert playing.json()["detail"].startswith("The coach waits until this hand is over")
