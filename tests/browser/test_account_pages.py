"""Accounts, statistics and the leaderboard in the browser (Chromium via Playwright).

Everything a player does goes through the pages: the account forms, the
start screen, the top bar.  Only finishing a whole match is left to the
server's test-only ``POST /api/test/autoplay`` (a Normal bot plays South),
called through ``page.request``, which shares the browser's cookies.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import ConsoleMessage, Page, expect

HAND = "#hand button[data-card]"
PASSWORD = "a-long-secret"
MATCH_TIMEOUT = 300_000  # ms: a whole Easy match at the tests' pace
ACCOUNT_STATE = "#account-state"

MY_TURN_OR_OVER = """() => {
  const summary = document.getElementById("summary");
  if (summary && !summary.hidden) return "over";
  if (document.body.dataset.phase !== "playing" || document.body.classList.contains("paused")) {
    return false;
  }
  if (!document.getElementById("btn-continue").hidden) return false;
  return document.querySelector('#hand button[data-card]:not(.unavailable)') ? "turn" : false;
}"""


# --- console errors ------------------------------------------------------------


class Console:
    """Errors the page logs to the console; a test names the HTTP refusals it expects."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.allowed: list[re.Pattern[str]] = []

    def on_message(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    def allow_status(self, status: int) -> None:
        """Chromium logs every refused fetch ("Failed to load resource … status of 401")."""
        self.allowed.append(re.compile(rf"Failed to load resource: .*status of {status}\b"))

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(p.search(e) for p in self.allowed)]


@pytest.fixture
def console(page: Page) -> Iterator[Console]:
    watcher = Console()
    page.on("console", watcher.on_message)
    yield watcher
    assert watcher.unexpected() == [], f"console errors on the page: {watcher.unexpected()}"


# --- small helpers -------------------------------------------------------------


def url(server: Any, path: str) -> str:
    return str(server.url) + path


def csrf(page: Page, server: Any) -> str:
    answer = page.request.get(url(server, "/api/session"))
    assert answer.status == 200
    return str(answer.json()["csrf"])


def session_player(page: Page, server: Any) -> dict[str, Any] | None:
    answer = page.request.get(url(server, "/api/session"))
    assert answer.status == 200
    player = answer.json()["player"]
    return player if isinstance(player, dict) else None


def expect_guest(page: Page) -> None:
    expect(page.locator(ACCOUNT_STATE)).to_have_attribute("data-state", "guest")
    expect(page.locator(ACCOUNT_STATE)).to_contain_text("Guest")
    expect(page.locator(f"{ACCOUNT_STATE} a")).to_have_text("Sign in")


def expect_signed_in(page: Page, name: str) -> None:
    expect(page.locator(ACCOUNT_STATE)).to_have_attribute("data-state", "account")
    expect(page.locator(f"{ACCOUNT_STATE} .account-name")).to_have_text(name)
    expect(page.locator(f"{ACCOUNT_STATE} button")).to_have_text("Sign out")


def in_menu(page: Page, selector: str) -> Any:
    """A control of the game's More menu: the menu is opened first when it is closed."""
    if page.locator("#more-menu").is_hidden():
        page.click("#btn-more")
        expect(page.locator("#more-menu")).to_be_visible()
    return page.locator(selector)


def open_account_page(page: Page, server: Any) -> None:
    page.goto(url(server, "/account"))
    expect(page.locator("#loading")).to_be_hidden()


def sign_up(page: Page, server: Any, name: str, password: str = PASSWORD) -> None:
    """Create the account through the form; it sends us back to the game page."""
    open_account_page(page, server)
    expect(page.locator("#forms")).to_be_visible()
    page.fill("#signup-username", name)
    page.fill("#signup-password", password)
    page.click("#btn-signup")
    page.wait_for_url(url(server, "/"))
    expect_signed_in(page, name)


def sign_in(page: Page, name: str, password: str) -> None:
    page.fill("#signin-username", name)
    page.fill("#signin-password", password)
    page.click("#btn-signin")


def start_match(page: Page, level: str = "easy") -> None:
    expect(page.locator("#start")).to_be_visible()
    page.click(f"#level-{level}")
    page.click("#btn-start")
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator("body")).to_have_attribute("data-phase", "passing")
    expect(page.locator(HAND)).to_have_count(13)


def hand(page: Page) -> list[str]:
    return page.eval_on_selector_all(HAND, "bs => bs.map(b => b.dataset.card)")


def playable(page: Page) -> list[str]:
    return page.eval_on_selector_all(
        f"{HAND}:not(.unavailable)", "bs => bs.map(b => b.dataset.card)"
    )


def wait_turn(page: Page) -> str:
    return str(page.wait_for_function(MY_TURN_OR_OVER, timeout=20_000).json_value())


def totals(page: Page) -> list[int]:
    """The Total column of the hand summary, South to East."""
    return page.eval_on_selector_all(
        "#summary-body tr",
        "rows => rows.map(r => Number(r.querySelectorAll('td.num')[1].textContent))",
    )


def autoplay_to_the_end(page: Page, server: Any) -> bool:
    """Let the server's bot finish the match for South; True when we won."""
    in_menu(page, "#pace-quick").click()
    answer = page.request.post(
        url(server, "/api/test/autoplay"), headers={"X-CSRF-Token": csrf(page, server)}
    )
    assert answer.status == 200, answer.text()
    expect(page.locator("#match-over")).to_be_visible(timeout=MATCH_TIMEOUT)
    won = page.locator("#match-winner").text_content() == "You win the match!"
    if won:
        expect(page.locator("#match-ranking")).to_have_text("You earn 10 ranking points.")
    else:
        expect(page.locator("#match-ranking")).to_contain_text("No ranking points")
    return won


def stat(page: Page, field: str, level: str) -> str:
    return str(
        page.locator(f'#stats-body tr[data-stat="{field}"] td[data-level="{level}"]').text_content()
    )


def stats_table(page: Page) -> dict[str, list[str]]:
    return page.eval_on_selector_all(
        "#stats-body tr",
        """rows => Object.fromEntries(rows.map(r => [r.dataset.stat,
            [...r.querySelectorAll('td')].map(td => td.textContent)]))""",
    )


def open_stats(page: Page, server: Any) -> None:
    page.goto(url(server, "/stats"))
    expect(page.locator("#stats")).to_be_visible()
    expect(page.locator("#stats-body tr")).to_have_count(11)


def both_widths(page: Page, screenshot: Callable[[Page, str], None], name: str) -> None:
    """Screenshots at 1280×800 and 360×740; at phone width nothing may stick out sideways."""
    page.set_viewport_size({"width": 1280, "height": 800})
    screenshot(page, f"{name}-1280x800")
    page.set_viewport_size({"width": 360, "height": 740})
    screenshot(page, f"{name}-360x740")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360 + 1, f"{name} is {width} px wide at 360 px"
    page.set_viewport_size({"width": 1280, "height": 800})


# --- the tests -----------------------------------------------------------------


def test_sign_up_play_and_see_stats_and_leaderboard(
    page: Page, server: Any, console: Console, screenshot: Callable[[Page, str], None]
) -> None:
    expect_guest(page)
    sign_up(page, server, "Ada_Lovelace")
    start_match(page, "easy")
    won = autoplay_to_the_end(page, server)
    final = totals(page)
    last_hand = re.search(r"Hand (\d+)", page.locator("#match-info").text_content() or "")
    assert last_hand is not None
    hands = int(last_hand[1])
    screenshot(page, "accounts-match-over-1280x800")

    # Statistics: one Easy match, counted once.
    open_stats(page, server)
    expect(page.locator("#stats-who")).to_contain_text("Ada_Lovelace")
    expect(page.locator("#stats-guest-note")).to_be_hidden()
    for level in ("easy", "all"):
        assert stat(page, "played", level) == "1"
        assert stat(page, "won", level) == ("1" if won else "0")
        assert stat(page, "win_rate", level) == ("100%" if won else "0%")
        assert stat(page, "hands", level) == str(hands)
        assert stat(page, "average_final_score", level) == f"{final[0]:.1f}"
    for level in ("normal", "expert"):
        assert stat(page, "played", level) == "0"
        assert stat(page, "win_rate", level) == "—"
    if won:
        assert stat(page, "best_winning_total", "easy") == str(final[0])
        expect(page.locator("#stats-points")).to_have_text("10")
        expect(page.locator("#stats-rank")).to_have_text("#1")
    else:
        assert stat(page, "best_winning_total", "easy") == "—"
        expect(page.locator("#stats-points")).to_have_text("0")
    both_widths(page, screenshot, "accounts-stats")

    # The leaderboard: our row, marked, with the points the end screen announced.
    page.goto(url(server, "/leaderboard"))
    expect(page.locator("#lb")).to_be_visible()
    mine = page.locator("#lb-body tr.me")
    expect(mine).to_have_count(1)
    expect(mine).to_have_attribute("aria-current", "true")
    expect(mine.locator(".player")).to_contain_text("Ada_Lovelace")
    expect(mine.locator(".points")).to_have_text("10" if won else "0")
    expect(mine.locator('td[data-level="easy"]')).to_have_text(str(final[0]) if won else "—")
    expect(page.locator("#lb-me")).to_contain_text("Your position: #1")
    expect(page.locator("#lb-me a")).to_have_attribute("href", re.compile(r"page=1"))
    expect(page.locator("#lb-pos")).to_have_text("Page 1 of 1")
    # No other pages: Previous and Next are not links, so Tab skips them.
    expect(page.locator("#lb-pager a")).to_have_count(0)
    both_widths(page, screenshot, "accounts-leaderboard")


def test_a_username_with_html_is_refused_and_shown_only_as_text(
    page: Page, server: Any, console: Console, screenshot: Callable[[Page, str], None]
) -> None:
    hostile = '<img src=x onerror="window.__hacked=1">'
    open_account_page(page, server)
    expect_guest(page)
    page.fill("#signup-username", hostile)
    page.fill("#signup-password", PASSWORD)
    page.click("#btn-signup")
    error = page.locator("#signup-error")
    expect(error).to_have_attribute("role", "alert")
    expect(error).to_contain_text("only letters, digits")
    expect(page.locator("#signup-username")).to_be_focused()
    expect(page.locator("#signup-username")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#signup-username")).to_have_value(hostile)
    both_widths(page, screenshot, "accounts-account-error")

    # The server refuses it as well, whatever a page sends.
    answer = page.request.post(
        url(server, "/api/account/signup"),
        data={"username": hostile, "password": PASSWORD},
        headers={"X-CSRF-Token": csrf(page, server)},
    )
    assert answer.status == 400, answer.text()
    assert isinstance(answer.json()["detail"], str)

    # Sign-in with markup for a name: refused, and the words stay words.
    console.allow_status(401)
    sign_in(page, "<b>bold</b>", PASSWORD)
    expect(page.locator("#signin-error")).to_contain_text("Wrong username or password")
    assert page.locator("main img, main b, header img").count() == 0
    assert page.evaluate("() => window.__hacked") is None
    expect_guest(page)
    player = session_player(page, server)
    assert player is not None and player["guest"] is True

    # A guest's statistics say how to get on the board; the board is still empty.
    open_stats(page, server)
    expect(page.locator("#stats-guest-note")).to_be_visible()
    expect(page.locator("#stats-rank")).to_contain_text("Not ranked")
    page.goto(url(server, "/leaderboard"))
    expect(page.locator("#lb-empty")).to_be_visible()
    expect(page.locator("#lb")).to_be_hidden()
    expect(page.locator("#lb-me")).to_contain_text("Guests don't appear here")
    both_widths(page, screenshot, "accounts-leaderboard-empty")


def test_wrong_password_then_sign_out_and_in_keeps_the_stats(
    page: Page, server: Any, console: Console, screenshot: Callable[[Page, str], None]
) -> None:
    sign_up(page, server, "carol")
    start_match(page, "easy")
    autoplay_to_the_end(page, server)
    open_stats(page, server)
    before = stats_table(page)
    assert before["played"][0] == "1"
    points = page.locator("#stats-points").text_content()

    # Sign out on the account page: back to a guest, with the sign-in form ready.
    open_account_page(page, server)
    expect(page.locator("#signed-in")).to_be_visible()
    expect(page.locator("#me-name")).to_have_text("carol")
    both_widths(page, screenshot, "accounts-account-signed-in")
    page.click("#btn-signout")
    expect(page.locator("#forms")).to_be_visible()
    expect(page.locator("#account-status")).to_contain_text("signed out")
    expect(page.locator("#signin-username")).to_be_focused()
    expect_guest(page)
    player = session_player(page, server)
    assert player is not None and player["guest"] is True
    both_widths(page, screenshot, "accounts-account")

    # A wrong password: the reason, and still a guest.
    console.allow_status(401)
    sign_in(page, "carol", "not-the-password")
    expect(page.locator("#signin-error")).to_have_text("Wrong username or password")
    expect(page.locator("#signin-password")).to_be_focused()
    expect(page.locator("#forms")).to_be_visible()
    expect_guest(page)
    player = session_player(page, server)
    assert player is not None and player["guest"] is True

    # The right one: back to the game as carol, and her statistics are there.
    sign_in(page, "carol", PASSWORD)
    page.wait_for_url(url(server, "/"))
    expect_signed_in(page, "carol")
    open_stats(page, server)
    assert stats_table(page) == before
    expect(page.locator("#stats-points")).to_have_text(points or "")


def test_a_guest_who_signs_up_keeps_the_match(
    page: Page, server: Any, console: Console, screenshot: Callable[[Page, str], None]
) -> None:
    expect_guest(page)
    start_match(page, "easy")
    # Pass, and play the whole first hand by mouse.
    for text in hand(page)[:3]:
        page.click(f'{HAND}[data-card="{text}"]')
    page.click("#btn-pass")
    page.click("#btn-continue")
    while wait_turn(page) == "turn":
        choice = playable(page)[0]
        page.click(f'{HAND}[data-card="{choice}"]')
        expect(page.locator(f'{HAND}[data-card="{choice}"]')).to_have_count(0)
    after_first = totals(page)
    page.click("#btn-next-hand")
    expect(page.locator("#prompt")).to_have_text("Pass three cards to Sam")
    expect(page.locator(HAND)).to_have_count(13)
    cards = hand(page)

    # Sign up from the top bar's link.
    page.click(f"{ACCOUNT_STATE} a")
    page.wait_for_url(url(server, "/account"))
    page.fill("#signup-username", "dora-42")
    page.fill("#signup-password", PASSWORD)
    page.click("#btn-signup")
    page.wait_for_url(url(server, "/"))
    expect_signed_in(page, "dora-42")

    # The saved match is hers now: the start screen offers Play, which continues it.
    expect(page.locator("#game")).to_be_visible()
    in_menu(page, "#btn-new-match").click()
    expect(page.locator("#start-warning")).to_be_visible()
    expect(page.locator("#btn-play")).to_be_visible()
    page.click("#btn-play")
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator("#match-info")).to_contain_text("Hand 2")
    expect(page.locator("#prompt")).to_have_text("Pass three cards to Sam")
    expect(page.locator(HAND)).to_have_count(13)
    assert hand(page) == cards
    # Her first-hand points came along too (South's total is shown in her seat).
    expect(page.locator("#seat-0 .seat-total")).to_have_text(f"Total: {after_first[0]}")
    # And play goes on.
    for text in cards[:3]:
        page.click(f'{HAND}[data-card="{text}"]')
    page.click("#btn-pass")
    expect(page.locator(f"{HAND}.received")).to_have_count(3)
    both_widths(page, screenshot, "accounts-game-signed-in")

    # Signing out from the top bar: a fresh guest, with no match of hers.
    page.click(f"{ACCOUNT_STATE} button")
    expect_guest(page)
    expect(page.locator("#start")).to_be_visible()
    expect(page.locator("#btn-play")).to_be_hidden()
    player = session_player(page, server)
    assert player is not None and player["guest"] is True


def fake_board(page_number: int) -> dict[str, Any]:
    """Three pages of a made-up board; we are #27, on page 2, and one name looks like markup."""
    rows = []
    for rank in range(20 * page_number - 19, min(45, 20 * page_number) + 1):
        name = f"player{rank:02d}"
        if rank == 23:
            name = '<img src=x onerror="window.__hacked=1">'
        rows.append(
            {
                "rank": rank,
                "name": "zed" if rank == 27 else name,
                "points": 1000 - rank * 10,
                "best": {"easy": 40 + rank, "normal": None, "expert": None},
                "me": rank == 27,
            }
        )
    return {
        "page": page_number,
        "pages": 3,
        "per_page": 20,
        "total": 45,
        "rows": rows,
        "me": {"rank": 27, "page": 2, "points": 730},
    }


def test_leaderboard_pages_by_keyboard(
    page: Page, server: Any, console: Console, screenshot: Callable[[Page, str], None]
) -> None:
    # Filling three real pages would take 45 finished matches: the page's own
    # logic (paging, our row, names as text) is checked against a made-up board.
    def answer(route: Any) -> None:
        asked = re.search(r"page=(\d+)", route.request.url)
        route.fulfill(json=fake_board(int(asked[1]) if asked else 1))

    page.route(re.compile(r".*/api/leaderboard\?.*"), answer)
    page.goto(url(server, "/leaderboard"))
    expect(page.locator("#lb-body tr")).to_have_count(20)
    expect(page.locator("#lb-pos")).to_have_text("Page 1 of 3")
    expect(page.locator("#lb-prev-slot a")).to_have_count(0)
    expect(page.locator("#lb-prev-slot")).to_contain_text("Previous")
    expect(page.locator("#lb-body tr.me")).to_have_count(0)
    expect(page.locator("#lb-me")).to_contain_text("Your position: #27")
    expect(page.locator("#lb-me a")).to_have_attribute("href", re.compile(r"page=2"))

    # Next, by keyboard: Tab to it, Enter.
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.textContent === 'Next'"):
            break
    else:
        raise AssertionError("Tab never reached Next")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/leaderboard\?page=2$"))
    expect(page.locator("#lb-pos")).to_have_text("Page 2 of 3")
    expect(page.locator("#lb-body tr")).to_have_count(20)
    mine = page.locator("#lb-body tr.me")
    expect(mine).to_have_count(1)
    expect(mine).to_have_attribute("aria-current", "true")
    expect(mine.locator(".rank")).to_have_text("#27")
    expect(mine.locator(".player")).to_contain_text("zed")
    # A name is text, whatever it looks like.
    expect(page.locator("#lb-body tr").nth(2).locator(".player")).to_have_text(
        '<img src=x onerror="window.__hacked=1">'
    )
    assert page.locator("#lb-body img").count() == 0
    assert page.evaluate("() => window.__hacked") is None
    both_widths(page, screenshot, "accounts-leaderboard-pages")

    # The last page: Next is not a link; Previous goes back.
    page.goto(url(server, "/leaderboard?page=3"))
    expect(page.locator("#lb-body tr")).to_have_count(5)
    expect(page.locator("#lb-next-slot a")).to_have_count(0)
    page.click("#lb-prev-slot a")
    page.wait_for_url(re.compile(r"/leaderboard\?page=2$"))
    expect(page.locator("#lb-pos")).to_have_text("Page 2 of 3")


def session_cookie_player(page: Page) -> str:
    """The player token in the signed session cookie (Starlette: base64 JSON, then a signature)."""
    value = next(c["value"] for c in page.context.cookies() if c["name"] == "hearts_session")
    payload = value.split(".")[0]
    data = json.loads(base64.b64decode(payload + "=" * (-len(payload) % 4)))
    return str(data["player"])


def test_the_old_pages_guest_token_brings_its_match_along(
    page: Page, server: Any, console: Console
) -> None:
    # The previous version of the page kept the guest's token in localStorage.
    # Make such a browser: a guest with a match, then only the token left behind.
    start_match(page, "easy")
    cards = hand(page)
    token = session_cookie_player(page)
    page.context.clear_cookies()
    page.evaluate("token => localStorage.setItem('hearts.guest', token)", token)

    page.reload()
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator(HAND)).to_have_count(13)
    assert hand(page) == cards
    expect_guest(page)
    # Offered once, then forgotten: it is no credential any more.
    assert page.evaluate("() => localStorage.getItem('hearts.guest')") is None

    # A token the server does not know is forgotten too, and a fresh guest starts.
    page.context.clear_cookies()
    page.evaluate("() => localStorage.setItem('hearts.guest', 'not-a-token')")
    page.reload()
    expect(page.locator("#start")).to_be_visible()
    expect_guest(page)
    assert page.evaluate("() => localStorage.getItem('hearts.guest')") is None


def test_a_new_password_signs_out_every_other_device(
    page: Page, server: Any, console: Console, screenshot: Callable[[Page, str], None]
) -> None:
    sign_up(page, server, "dora")
    # The same account in another browser (a copied cookie would fare the same).
    other = page.context.browser.new_context() if page.context.browser else None
    assert other is not None
    laptop = other.new_page()
    try:
        laptop.goto(url(server, "/account"))
        expect(laptop.locator("#forms")).to_be_visible()
        sign_in(laptop, "dora", PASSWORD)
        laptop.wait_for_url(url(server, "/"))
        expect_signed_in(laptop, "dora")

        open_account_page(page, server)
        expect(page.locator("#password-panel")).to_be_visible()
        console.allow_status(401)
        console.allow_status(400)
        page.fill("#password-current", "not my password")
        page.fill("#password-new", "a brand new secret")
        page.click("#btn-password")
        expect(page.locator("#password-error")).to_have_text("That is not your current password.")
        expect(page.locator("#password-current")).to_be_focused()
        page.fill("#password-current", PASSWORD)
        page.fill("#password-new", "password123")
        page.click("#btn-password")
        expect(page.locator("#password-error")).to_contain_text("first that anyone would try")
        expect(page.locator("#password-new")).to_be_focused()
        page.fill("#password-new", "a brand new secret")
        page.click("#btn-password")
        expect(page.locator("#account-status")).to_contain_text("Every other device was signed out")
        both_widths(page, screenshot, "accounts-password-changed")
        expect_signed_in(page, "dora")  # this browser stays signed in

        laptop.reload()
        expect_guest(laptop)  # the other one is a guest again
        laptop.goto(url(server, "/account"))
        sign_in(laptop, "dora", "a brand new secret")
        laptop.wait_for_url(url(server, "/"))
        expect_signed_in(laptop, "dora")
    finally:
        other.close()
