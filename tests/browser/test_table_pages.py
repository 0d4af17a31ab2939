"""A table with other people, in the browser: two players and a spectator, each in a
browser context of their own (so each is a separate session on the server).

Everything goes through the pages as people would use them: the "Play with
friends" form, the invite link, Sit here, Start, the pass, a trick played in
turn, a closed tab (the others see the countdown, then a bot taking over), and
Leave table.  The server runs with ``HEARTS_GRACE_SECONDS`` at 3 (conftest.py).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

HAND = "#hand button[data-card]"
# Cards overlap in the hand: a click goes where a person sees the card, its top-left corner.
CORNER = {"x": 8, "y": 14}
PASSWORD = "a-long-secret"

# Installed in the spectator's tab before any script: every face-up card the
# page ever shows in the centre, and the most cards it ever showed in a hand.
SPY = """
window.__seenTrick = [];
window.__mostInHand = 0;
window.__faceUpElsewhere = [];
new MutationObserver(() => {
  for (const c of document.querySelectorAll('#trick [data-card]')) {
    if (!window.__seenTrick.includes(c.dataset.card)) window.__seenTrick.push(c.dataset.card);
  }
  const inHand = document.querySelectorAll('#hand [data-card]').length;
  window.__mostInHand = Math.max(window.__mostInHand, inHand);
  for (const c of document.querySelectorAll('.seat [data-card]')) {
    window.__faceUpElsewhere.push(c.dataset.card);
  }
}).observe(document, { subtree: true, childList: true, attributes: true });
"""


# --- reading the page ----------------------------------------------------------


def hand(page: Page) -> list[str]:
    return page.eval_on_selector_all(HAND, "bs => bs.map(b => b.dataset.card)")


def playable(page: Page) -> list[str]:
    return page.eval_on_selector_all(
        f"{HAND}:not(.unavailable)", "bs => bs.map(b => b.dataset.card)"
    )


def with_class(page: Page, name: str) -> list[str]:
    return page.eval_on_selector_all(f"{HAND}.{name}", "bs => bs.map(b => b.dataset.card)")


def face_up_outside_hand(page: Page) -> list[str]:
    return page.eval_on_selector_all(
        "[data-card]:not(#hand [data-card])", "cs => cs.map(c => c.dataset.card)"
    )


def my_turn(page: Page) -> bool:
    return bool(
        page.evaluate(
            """() => document.body.dataset.phase === "playing"
                && !!document.querySelector('#hand button[data-card]:not(.unavailable)')"""
        )
    )


def seat(page: Page, rel: int) -> Any:
    return page.locator(f"#seat-{rel}")


def width_fits(page: Page, width: int) -> None:
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= width + 1, f"the page is {scroll} px wide at {width} px"


def in_menu(page: Page, selector: str) -> Any:
    """A control of the More menu: the menu is opened first when it is closed."""
    if page.locator("#more-menu").is_hidden():
        page.click("#btn-more")
        expect(page.locator("#more-menu")).to_be_visible()
    return page.locator(selector)


# --- doing things --------------------------------------------------------------


def sign_up(page: Page, server: Any, name: str) -> None:
    """An account, through the account page (it sends us back to the game page)."""
    page.goto(server.url + "/account")
    expect(page.locator("#forms")).to_be_visible()
    page.fill("#signup-username", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#btn-signup")
    page.wait_for_url(server.url + "/")
    expect(page.locator("#account-state .account-name")).to_have_text(name)


def choose_and_pass(page: Page) -> list[str]:
    chosen = hand(page)[-3:]
    for text in chosen:
        page.locator(f'{HAND}[data-card="{text}"]').click(position=CORNER)
    expect(page.locator("#btn-pass")).to_be_enabled()
    page.click("#btn-pass")
    expect(page.locator("#btn-pass")).to_be_hidden()
    return chosen


def wait_for_a_turn(pages: dict[str, Page], timeout: float = 20.0) -> str:
    """The name of whoever may play now (polled: the two pages are separate)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for name, page in pages.items():
            if my_turn(page):
                return name
        time.sleep(0.05)
    raise AssertionError("nobody's turn came")


# --- the tests -------------------------------------------------------------------


def test_friends_create_sit_start_play_watch_and_leave(
    server: Any,
    people: Callable[[str], Any],
    screenshot: Callable[[Page, str], None],
    axe: Callable[[Page], list[str]],
) -> None:
    alice, bob, carol = people("alice"), people("bob"), people("carol")
    sign_up(alice.page, server, "alice")
    sign_up(bob.page, server, "bob")

    # --- Alice makes a table through the form, from the start screen's link.
    a = alice.page
    expect(a.locator("#link-friends")).to_be_visible()
    a.click("#link-friends")
    a.wait_for_url(server.url + "/tables/new")
    a.click("#btn-create")  # no name yet
    expect(a.locator("#form-error")).to_have_attribute("role", "alert")
    expect(a.locator("#form-error")).to_contain_text("name")
    expect(a.locator("#table-name")).to_have_attribute("aria-invalid", "true")
    a.fill("#table-name", "Friday <b>Hearts</b>")
    a.check("#bot-easy")
    a.select_option("#rule-target", "50")
    with a.expect_request(
        lambda r: r.url.endswith("/api/tables") and r.method == "POST"
    ) as request:
        a.click("#btn-create")
    body = request.value.post_data_json
    # Only the house rules that differ from the standard game are sent.
    assert body == {"name": "Friday <b>Hearts</b>", "bot_level": "easy", "rules": {"target": 50}}
    assert request.value.headers.get("x-csrf-token")
    a.wait_for_url(re.compile(r"/t/[^/?#]+$"))
    invite = a.url
    code = invite.rsplit("/", 1)[1]
    assert len(code) == 8, code

    # --- The lobby, as its creator sees it.
    expect(a.locator("#lobby")).to_be_visible()
    expect(a.locator("body")).to_have_attribute("data-role", "player")
    expect(a.locator("#lobby-title")).to_have_text("Friday <b>Hearts</b>")  # text, never HTML
    expect(a.locator("#invite-link")).to_have_value(f"{server.url}/t/{code}")
    expect(a.locator('#lobby-seats li[data-rel="0"]')).to_contain_text("You")
    expect(a.locator('#lobby-seats li[data-kind="empty"]')).to_have_count(3)
    expect(a.locator("#lobby-bots")).to_contain_text("computer")
    expect(a.locator("#rules-summary")).to_contain_text("50 points")
    expect(a.locator("#btn-start-table")).to_be_visible()
    expect(a.locator("#btn-stand")).to_be_hidden()
    a.click("#btn-copy")
    expect(a.locator("#copy-status")).not_to_be_empty()
    screenshot(a, "table-lobby-1280x800")
    assert axe(a) == []

    # --- Carol only watches.
    c = carol.page
    c.add_init_script(SPY)
    c.goto(invite + "?watch=1")
    expect(c.locator("#lobby")).to_be_visible()
    expect(c.locator("body")).to_have_attribute("data-role", "spectator")
    expect(c.locator("#lobby-watching")).to_be_visible()
    expect(c.locator("#lobby-seats button.sit")).to_have_count(0)
    expect(c.locator("#btn-start-table")).to_be_hidden()

    # --- Bob opens the link: a visitor may sit, stand up again, and sit elsewhere.
    b = bob.page
    b.goto(invite)
    expect(b.locator("#lobby")).to_be_visible()
    expect(b.locator("body")).to_have_attribute("data-role", "visitor")
    expect(b.locator("#lobby-seats button.sit")).to_have_count(3)
    expect(b.locator("#btn-start-table")).to_be_hidden()
    expect(b.locator('#lobby-seats li[data-seat="0"]')).to_contain_text("alice")
    b.click('#lobby-seats button.sit[data-seat="3"]')
    expect(b.locator("body")).to_have_attribute("data-role", "player")
    expect(b.locator("#btn-stand")).to_be_visible()
    expect(a.locator('#lobby-seats li[data-rel="3"]')).to_contain_text("bob")
    b.click("#btn-stand")
    expect(b.locator("body")).to_have_attribute("data-role", "visitor")
    expect(a.locator('#lobby-seats li[data-kind="empty"]')).to_have_count(3)
    b.click('#lobby-seats button.sit[data-seat="1"]')  # West: on Alice's left
    expect(b.locator("body")).to_have_attribute("data-role", "player")
    # Each sees the table from their own chair: themselves at the bottom.
    expect(b.locator('#lobby-seats li[data-rel="0"]')).to_contain_text("You")
    expect(b.locator('#lobby-seats li[data-rel="3"]')).to_contain_text("alice")
    expect(a.locator('#lobby-seats li[data-rel="1"]')).to_contain_text("bob")
    expect(a.locator("#lobby-spectators")).to_contain_text("1 person is watching")
    expect(c.locator('#lobby-seats li[data-seat="1"]')).to_contain_text("bob")

    a.set_viewport_size({"width": 360, "height": 740})
    screenshot(a, "table-lobby-360x740")
    width_fits(a, 360)
    a.set_viewport_size({"width": 1280, "height": 800})

    # --- Alice starts: both see the pass prompt and each other's pass status.
    a.click("#btn-start-table")
    for page in (a, b):
        expect(page.locator("#game")).to_be_visible()
        expect(page.locator("body")).to_have_attribute("data-phase", "passing")
        expect(page.locator(HAND)).to_have_count(13)
        expect(page.locator("#btn-undo")).to_have_count(0)  # no take-backs here
    expect(a.locator("#prompt")).to_have_text("Pass three cards to bob")
    expect(b.locator("#prompt")).to_contain_text("Pass three cards to")
    expect(seat(a, 1).locator(".pass-status")).to_have_text("Choosing a pass…")
    expect(seat(b, 3).locator(".pass-status")).to_have_text("Choosing a pass…")
    expect(seat(a, 2).locator(".pass-status")).to_have_text("Pass chosen")  # a bot
    expect(c.locator("#game")).to_be_visible()
    expect(c.locator("#watching")).to_be_visible()
    expect(c.locator(HAND)).to_have_count(0)
    expect(seat(c, 0).locator(".pass-status")).to_have_text("Choosing a pass…")

    bob_dealt = hand(b)
    passed = choose_and_pass(a)
    expect(a.locator("#prompt")).to_have_text("Waiting for the others to pass")
    # Bob sees that Alice has chosen, never what: no card of hers reaches his page.
    expect(seat(b, 3).locator(".pass-status")).to_have_text("Pass chosen")
    expect(seat(c, 0).locator(".pass-status")).to_have_text("Pass chosen")
    assert face_up_outside_hand(b) == []
    assert not set(passed) & set(hand(b))
    assert hand(b) == bob_dealt
    choose_and_pass(b)

    # --- The exchange: Alice's three cards arrive in Bob's hand, marked.
    for page in (a, b):
        expect(page.locator("body")).to_have_attribute("data-phase", "playing")
        expect(page.locator(HAND)).to_have_count(13)
    assert set(passed) <= set(hand(b))
    # Play starts at once (no Continue); the received cards stay marked until one's first card.
    expect(b.locator(f"{HAND}.received")).to_have_count(3)
    assert set(with_class(b, "received")) == set(passed)
    expect(a.locator(f"{HAND}.received")).to_have_count(3)

    # --- A trick, each playing only on their turn.
    players = {"alice": a, "bob": b}
    rel_of_other = {"alice": 1, "bob": 3}  # where the other sits, seen from each
    played: dict[str, list[str]] = {"alice": [], "bob": []}
    while not (played["alice"] and played["bob"]):
        name = wait_for_a_turn(players)
        other = "bob" if name == "alice" else "alice"
        page, other_page = players[name], players[other]
        assert playable(other_page) == [], f"{other} could play on {name}'s turn"
        # The turn is unmistakable on both pages: the seat is highlighted.
        expect(seat(page, 0)).to_have_class(re.compile(r"\bturn\b"))
        expect(seat(page, 0).locator(".turn-badge")).to_have_text("Your turn")
        expect(seat(other_page, rel_of_other[other])).to_have_class(re.compile(r"\bturn\b"))
        choice = playable(page)[0]
        page.locator(f'{HAND}[data-card="{choice}"]').click(position=CORNER)
        expect(page.locator(f'{HAND}[data-card="{choice}"]')).to_have_count(0)
        played[name].append(choice)
        if name == "alice" and len(played["alice"]) == 1:
            screenshot(a, "table-mid-hand-1280x800")
            assert axe(a) == []

    # The spectator saw both players' cards played, and never a hand.
    c.wait_for_function(
        "cards => cards.every(c => window.__seenTrick.includes(c))",
        arg=played["alice"] + played["bob"],
    )
    assert c.evaluate("() => window.__mostInHand") == 0
    assert c.evaluate("() => window.__faceUpElsewhere") == []
    assert hand(c) == []
    screenshot(c, "table-spectator-1280x800")
    for page, name in ((a, "table-mid-hand-360x740"), (c, "table-spectator-360x740")):
        page.set_viewport_size({"width": 360, "height": 740})
        screenshot(page, name)
        width_fits(page, 360)
        page.set_viewport_size({"width": 1280, "height": 800})

    # --- Bob closes his tab: Alice sees the countdown, then a bot playing for him.
    b.close()
    expect(seat(a, 1).locator(".presence")).to_contain_text(
        re.compile(r"bob disconnected — a bot plays in 0:0\d")
    )
    expect(seat(a, 1)).to_have_class(re.compile(r"\baway\b"))
    screenshot(a, "table-away-1280x800")
    expect(seat(a, 1).locator(".presence")).to_contain_text(
        "A bot is playing for bob", timeout=20_000
    )
    expect(seat(a, 1).locator(".bot-badge")).to_be_visible()
    expect(seat(c, 1).locator(".presence")).to_contain_text("A bot is playing for bob")

    # --- He comes back on the same link: his seat and his cards again.
    b = bob.new_page()
    b.goto(invite)
    expect(b.locator("#game")).to_be_visible()
    expect(b.locator("body")).to_have_attribute("data-role", "player")
    expect(b.locator("#watching")).to_be_hidden()
    expect(seat(a, 1)).not_to_have_class(re.compile(r"\baway\b"))
    expect(seat(a, 1).locator(".presence")).not_to_contain_text("disconnected")

    # --- And leaves for good: after the warning, a bot keeps the seat; he watches.
    in_menu(b, "#btn-leave").click()
    expect(b.locator("#dlg-leave")).to_be_visible()
    expect(b.locator("#leave-text")).to_contain_text("A bot will keep your seat")
    b.click("#btn-leave-cancel")
    expect(b.locator("#dlg-leave")).to_be_hidden()
    expect(b.locator("body")).to_have_attribute("data-role", "player")
    in_menu(b, "#btn-leave").click()
    b.click("#btn-leave-ok")
    expect(b.locator("body")).to_have_attribute("data-role", "spectator")
    expect(b.locator("#watching")).to_be_visible()
    expect(b.locator(HAND)).to_have_count(0)
    expect(b.locator("#btn-leave")).to_be_hidden()
    expect(seat(a, 1).locator(".bot-badge")).to_be_visible()
    expect(seat(a, 1)).to_have_class(re.compile(r"\bbot-playing\b"))
    expect(seat(c, 1).locator(".bot-badge")).to_be_visible()


def test_play_with_friends_link_and_form_errors(
    page: Page, screenshot: Callable[[Page, str], None]
) -> None:
    expect(page.locator("#start")).to_be_visible()
    expect(page.locator('.topnav a[href="/tables/new"]')).to_have_text("Play with friends")
    page.click('.topnav a[href="/tables/new"]')
    expect(page.locator("#new-table-form")).to_be_visible()
    # Every control has a label; the house rules start at the standard game.
    for control in ("#table-name", "#rule-target", "#rule-passing", "#rule-moon"):
        expect(page.locator(control)).to_have_accessible_name(re.compile(r"\w"))
    expect(page.locator("#rule-target")).to_have_value("100")
    for box in ("#rule-jack", "#rule-queen-breaks", "#rule-black-maria"):
        expect(page.locator(box)).not_to_be_checked()
    expect(page.locator("#bot-normal")).to_be_checked()
    expect(page.locator("#house-rules-note")).to_contain_text("ranking")
    screenshot(page, "new-table-1280x800")
    page.set_viewport_size({"width": 360, "height": 740})
    screenshot(page, "new-table-360x740")
    width_fits(page, 360)
    page.set_viewport_size({"width": 1280, "height": 800})

    # The server's refusal is shown in the alert, in its own words.
    page.route(
        "**/api/tables",
        lambda route: route.fulfill(
            status=400,
            content_type="application/json",
            body='{"detail": "That table name is not allowed"}',
        ),
    )
    page.fill("#table-name", "  ")
    page.click("#btn-create")
    expect(page.locator("#form-error")).to_contain_text("name")
    page.fill("#table-name", "Our table")
    page.check("#rule-jack")
    page.select_option("#rule-moon", "choice")
    page.select_option("#rule-passing", "standard")
    with page.expect_request("**/api/tables") as request:
        page.click("#btn-create")
    assert request.value.post_data_json == {
        "name": "Our table",
        "bot_level": "normal",
        "rules": {"jack_of_diamonds": True, "moon": "choice"},
    }
    expect(page.locator("#form-error")).to_have_text("That table name is not allowed")
    expect(page.locator("#btn-create")).to_be_enabled()
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_an_unknown_table_says_so(page: Page, server: Any) -> None:
    answer = page.goto(server.url + "/t/nosuch00")
    assert answer is not None and answer.status == 200
    expect(page.locator("#missing")).to_be_visible()
    expect(page.locator("#missing-title")).to_have_text("There is no table here")
    expect(page.locator('#missing a[href="/tables/new"]')).to_be_visible()
