"""A solo match in the browser: Debian's Chromium, driven by Playwright, against ``hearts serve``.

Everything is done and checked through the page, as a player would: clicks,
keys, what the table shows.  The computers play at Easy with short pauses
(see ``PACE_SCALE`` in conftest.py), so a whole hand takes a few seconds.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Locator, Page, expect

HAND = "#hand button[data-card]"
# Cards overlap in the hand: a click goes where a person sees the card, its top-left corner.
CORNER = {"x": 8, "y": 14}

# Whose move it is, as the page shows it: "over" once the hand summary is up,
# "turn" when some card of the hand can be played, else false.
MY_TURN_OR_OVER = """() => {
  const summary = document.getElementById("summary");
  if (summary && !summary.hidden) return "over";
  if (document.body.dataset.phase !== "playing" || document.body.classList.contains("paused")) {
    return false;
  }
  if (!document.getElementById("btn-continue").hidden) return false;
  return document.querySelector('#hand button[data-card]:not(.unavailable)') ? "turn" : false;
}"""


# --- reading the page ----------------------------------------------------------


def hand(page: Page) -> list[str]:
    return page.eval_on_selector_all(HAND, "bs => bs.map(b => b.dataset.card)")


def with_class(page: Page, name: str) -> list[str]:
    return page.eval_on_selector_all(f"{HAND}.{name}", "bs => bs.map(b => b.dataset.card)")


def pressed(page: Page) -> list[str]:
    return page.eval_on_selector_all(
        f'{HAND}[aria-pressed="true"]', "bs => bs.map(b => b.dataset.card)"
    )


def playable(page: Page) -> list[str]:
    return page.eval_on_selector_all(
        f"{HAND}:not(.unavailable)", "bs => bs.map(b => b.dataset.card)"
    )


def trick(page: Page) -> dict[str, str]:
    """The cards in the centre, by seat."""
    return page.eval_on_selector_all(
        "#trick .slot[data-seat]",
        """slots => Object.fromEntries(slots
            .filter(s => s.querySelector("[data-card]"))
            .map(s => [s.dataset.seat, s.querySelector("[data-card]").dataset.card]))""",
    )


def summary_points(page: Page) -> list[int]:
    """The Hand column of the summary, South to East."""
    rows = page.eval_on_selector_all(
        "#summary-body tr", "rows => rows.map(r => r.querySelector('td.num').textContent)"
    )
    return [int(text) for text in rows]


def card(page: Page, text: str) -> Locator:
    return page.locator(f'{HAND}[data-card="{text}"]')


def _has(name: str) -> re.Pattern[str]:
    """A class-list pattern for ``to_have_class``: contains ``name``."""
    return re.compile(rf"(^|\s){re.escape(name)}(\s|$)")


# --- doing things --------------------------------------------------------------


def in_menu(page: Page, selector: str) -> Locator:
    """A control of the More menu: the menu is opened first when it is closed."""
    if page.locator("#more-menu").is_hidden():
        page.click("#btn-more")
        expect(page.locator("#more-menu")).to_be_visible()
    return page.locator(selector)


def start_match(page: Page, level: str = "easy") -> None:
    page.click(f"#level-{level}")
    expect(page.locator(f"#level-{level}")).to_have_attribute("aria-pressed", "true")
    page.click("#btn-start")
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator("body")).to_have_attribute("data-phase", "passing")
    expect(page.locator(HAND)).to_have_count(13)
    expect(page.locator("#prompt")).to_have_text("Pass three cards to Robin")


def pass_first_three(page: Page) -> tuple[list[str], list[str]]:
    """Select three cards, Pass, check the three received are marked, Continue.

    Returns (passed, received).
    """
    before = hand(page)
    chosen = before[:3]
    for text in chosen:
        card(page, text).click(position=CORNER)
    expect(page.locator("#btn-pass")).to_be_enabled()
    page.click("#btn-pass")
    expect(page.locator("#btn-continue")).to_be_visible()
    expect(page.locator(f"{HAND}.received")).to_have_count(3)
    received = with_class(page, "received")
    after = hand(page)
    assert len(after) == 13
    assert not set(chosen) & set(after), "the passed cards left the hand"
    assert set(after) == (set(before) - set(chosen)) | set(received)
    expect(page.locator("#prompt")).to_contain_text("You received three cards from Sam")
    page.click("#btn-continue")
    expect(page.locator("#btn-continue")).to_be_hidden()
    expect(page.locator(f"{HAND}.received")).to_have_count(0)
    return chosen, received


def wait_turn(page: Page, timeout: float = 20_000) -> str:
    """Wait until it is our turn ("turn") or the hand is over ("over")."""
    return str(page.wait_for_function(MY_TURN_OR_OVER, timeout=timeout).json_value())


def play(page: Page, text: str) -> None:
    """Click a card and wait until the table took it."""
    card(page, text).click(position=CORNER)
    expect(card(page, text)).to_have_count(0)


def play_some(page: Page, count: int) -> None:
    """Play our lowest legal card ``count`` times, then wait for our next turn."""
    for _ in range(count):
        assert wait_turn(page) == "turn"
        play(page, playable(page)[0])
    assert wait_turn(page) == "turn"


def game_started(page: Page) -> None:
    """Start at Easy, pass, and wait for our first turn."""
    start_match(page)
    pass_first_three(page)
    assert wait_turn(page) == "turn"


def confirm(page: Page) -> None:
    """OK in the confirmation dialog (the one-time Undo/Restart notice)."""
    expect(page.locator("#dlg-confirm")).to_be_visible()
    expect(page.locator("#confirm-title")).to_contain_text("unranked")
    page.click("#btn-confirm-ok")
    expect(page.locator("#dlg-confirm")).to_be_hidden()


def tab_until(page: Page, predicate: str, limit: int = 60) -> str:
    """Press Tab until ``predicate(document.activeElement)`` holds; return the element's id."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => ({predicate})(document.activeElement)"):
            return str(page.evaluate("() => document.activeElement.id"))
    raise AssertionError(f"Tab never reached an element where {predicate}")


def focused_card(page: Page) -> str | None:
    return page.evaluate(
        "() => document.activeElement && document.activeElement.dataset.card || null"
    )


# --- the tests -----------------------------------------------------------------


def test_a_whole_hand_by_mouse(page: Page) -> None:
    start_match(page)
    pass_first_three(page)
    plays = 0
    tried_illegal = False
    while wait_turn(page) == "turn":
        dimmed = with_class(page, "unavailable")
        if dimmed and not tried_illegal:
            # A dimmed card, when tried anyway, stays with the reason shown.
            tried_illegal = True
            card(page, dimmed[0]).click(force=True, position=CORNER)
            expect(page.locator("#message")).to_have_attribute("data-kind", "error")
            expect(page.locator("#message")).not_to_be_empty()
            expect(card(page, dimmed[0])).to_have_count(1)
        # Everything not dimmed is legal.
        choice = playable(page)[0]
        play(page, choice)
        plays += 1
    assert plays == 13
    assert tried_illegal
    expect(page.locator("#summary")).to_be_visible()
    expect(page.locator("#summary-title")).to_have_text("Hand 1 is over")
    expect(page.locator(HAND)).to_have_count(0)
    points = summary_points(page)
    moon = sorted(points) == [0, 26, 26, 26]
    assert sum(points) == 26 or moon, points
    if moon:
        expect(page.locator("#summary-moon")).to_be_visible()
    else:
        expect(page.locator("#summary-moon")).to_be_hidden()
    # The totals after the first hand are the hand's points.
    totals = page.eval_on_selector_all(
        "#summary-body tr",
        "rows => rows.map(r => Number(r.querySelectorAll('td.num')[1].textContent))",
    )
    assert totals == points
    expect(page.locator("#btn-next-hand")).to_be_visible()
    page.click("#btn-next-hand")
    expect(page.locator("#summary")).to_be_hidden()
    expect(page.locator(HAND)).to_have_count(13)
    expect(page.locator("#prompt")).to_have_text("Pass three cards to Sam")


def test_a_trick_by_keyboard_only(page: Page) -> None:
    # The start screen by keyboard.
    tab_until(page, "el => el.id === 'level-easy'")
    page.keyboard.press("Enter")
    expect(page.locator("#level-easy")).to_have_attribute("aria-pressed", "true")
    tab_until(page, "el => el.id === 'btn-start'")
    page.keyboard.press("Enter")
    expect(page.locator(HAND)).to_have_count(13)

    # Every visible, enabled control of the table is reachable by Tab, and so is
    # every control of the More menu once it is opened (by keyboard too).
    wanted = set(
        page.evaluate(
            """() => [...document.querySelectorAll('#game button, #game input')]
                .filter(b => !b.disabled && b.offsetParent !== null && !b.dataset.card)
                .map(b => b.id)"""
        )
    )
    assert {"btn-hint", "btn-review", "btn-more", "btn-scores"} <= wanted
    reached: set[str] = set()
    for _ in range(40):
        page.keyboard.press("Tab")
        reached.add(str(page.evaluate("() => document.activeElement.id")))
    assert wanted <= reached, wanted - reached
    tab_until(page, "el => el.id === 'btn-more'")
    page.keyboard.press("Enter")
    expect(page.locator("#more-menu")).to_be_visible()
    in_menu_ids = set(
        page.evaluate(
            """() => [...document.querySelectorAll('#more-menu button, #more-menu input')]
                .filter(b => !b.disabled && b.offsetParent !== null).map(b => b.id)"""
        )
    )
    assert {"btn-restart", "btn-pause", "pace-quick", "btn-new-match", "opt-sound"} <= in_menu_ids
    reached = {str(page.evaluate("() => document.activeElement.id"))}  # the first item
    for _ in range(len(in_menu_ids) - 1):
        page.keyboard.press("Tab")
        reached.add(str(page.evaluate("() => document.activeElement.id")))
    assert in_menu_ids <= reached, in_menu_ids - reached
    page.keyboard.press("Escape")
    expect(page.locator("#more-menu")).to_be_hidden()
    expect(page.locator("#btn-more")).to_be_focused()

    # Into the hand; the cards are one Tab stop, moved between with arrows/Home/End.
    tab_until(page, "el => !!el.dataset.card")
    cards = hand(page)
    page.keyboard.press("Home")
    assert focused_card(page) == cards[0]
    page.keyboard.press("End")
    assert focused_card(page) == cards[-1]
    page.keyboard.press("ArrowLeft")
    assert focused_card(page) == cards[-2]
    page.keyboard.press("ArrowRight")
    assert focused_card(page) == cards[-1]
    page.keyboard.press("ArrowRight")  # stays on the last card
    assert focused_card(page) == cards[-1]
    # Only the focused card is in the Tab order (roving tabindex).
    assert page.eval_on_selector_all(f'{HAND}[tabindex="0"]', "bs => bs.length") == 1

    # Enter and Space select pass cards, and deselect.
    page.keyboard.press("Home")
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    assert pressed(page) == cards[:3]
    page.keyboard.press("Space")
    assert pressed(page) == cards[:2]
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    chosen = [cards[0], cards[1], cards[3]]
    assert pressed(page) == chosen
    tab_until(page, "el => el.id === 'btn-pass'")
    page.keyboard.press("Enter")
    expect(page.locator(f"{HAND}.received")).to_have_count(3)
    tab_until(page, "el => el.id === 'btn-continue'")
    page.keyboard.press("Enter")
    expect(page.locator("#btn-continue")).to_be_hidden()

    # Our first play, by keyboard: Home, then Right until a playable card.
    assert wait_turn(page) == "turn"
    tab_until(page, "el => !!el.dataset.card")
    page.keyboard.press("Home")
    legal = set(playable(page))
    cards = hand(page)
    while focused_card(page) not in legal:
        before = focused_card(page)
        page.keyboard.press("ArrowRight")
        assert focused_card(page) != before, "ran off the end of the hand"
    chosen_card = focused_card(page)
    assert chosen_card is not None
    page.keyboard.press("Enter")
    expect(card(page, chosen_card)).to_have_count(0)
    assert chosen_card not in hand(page)
    # The trick is played out around the table, our card in our slot.
    expect(page.locator('#trick .slot[data-seat="0"] [data-card]')).to_have_attribute(
        "data-card", chosen_card
    )
    page.wait_for_function(
        "() => document.querySelectorAll('#trick [data-card]').length === 4"
        " || document.querySelector('#trick .trick-result')"
    )
    expect(page.locator("#trick .trick-result")).to_contain_text("the trick")
    # Focus stayed in the hand for the next play.
    assert focused_card(page) in hand(page)


def test_pass_select_deselect_and_confirm(page: Page) -> None:
    start_match(page)
    cards = hand(page)
    pass_button = page.locator("#btn-pass")
    expect(pass_button).to_be_visible()
    expect(pass_button).to_be_disabled()
    for count, text in enumerate(cards[:3], start=1):
        card(page, text).click(position=CORNER)
        expect(card(page, text)).to_have_attribute("aria-pressed", "true")
        expect(card(page, text)).to_have_class(_has("selected"))
        assert len(pressed(page)) == count
        if count < 3:
            expect(pass_button).to_be_disabled()
    expect(pass_button).to_be_enabled()

    # A fourth card is refused, with a reason; the selection stays at three.
    card(page, cards[5]).click(position=CORNER)
    expect(page.locator("#message")).to_contain_text("three cards")
    assert pressed(page) == cards[:3]
    assert with_class(page, "selected") == cards[:3]
    expect(card(page, cards[5])).to_have_attribute("aria-pressed", "false")

    # Deselect one: Pass is disabled again; choose another instead.
    card(page, cards[1]).click(position=CORNER)
    expect(card(page, cards[1])).to_have_attribute("aria-pressed", "false")
    assert pressed(page) == [cards[0], cards[2]]
    expect(pass_button).to_be_disabled()
    card(page, cards[5]).click(position=CORNER)
    assert pressed(page) == [cards[0], cards[2], cards[5]]
    expect(pass_button).to_be_enabled()

    # Confirm: the three leave, three others arrive marked, then Continue.
    pass_button.click()
    expect(pass_button).to_be_hidden()
    expect(page.locator(f"{HAND}.received")).to_have_count(3)
    received = with_class(page, "received")
    now = hand(page)
    assert len(now) == 13
    assert not {cards[0], cards[2], cards[5]} & set(now)
    assert set(received) <= set(now) and not set(received) & set(cards)
    # Until Continue nothing can be played.
    assert playable(page) == []
    page.click("#btn-continue")
    expect(page.locator(f"{HAND}.received")).to_have_count(0)
    expect(page.locator("body")).to_have_attribute("data-phase", "playing")
    assert wait_turn(page) == "turn"


def test_hint_highlights_without_playing(page: Page) -> None:
    game_started(page)
    before_hand, before_trick = hand(page), trick(page)
    expect(page.locator("#btn-hint")).to_be_enabled()
    page.click("#btn-hint")
    confirm(page)  # the first hint in a ranked match: the one-time notice
    expect(page.locator(f"{HAND}.hinted")).to_have_count(1)
    hinted = with_class(page, "hinted")[0]
    assert hinted in playable(page)
    expect(page.locator("#message")).to_contain_text("Suggested:")
    # Nothing was played: same hand, same trick, still our turn.
    time.sleep(0.5)
    assert hand(page) == before_hand
    assert trick(page) == before_trick
    assert wait_turn(page) == "turn"
    # Playing the hinted card clears the highlight.
    play(page, hinted)
    expect(page.locator(f"{HAND}.hinted")).to_have_count(0)


def test_undo_and_restart_hand(page: Page) -> None:
    start_match(page)
    dealt = hand(page)
    pass_first_three(page)
    assert wait_turn(page) == "turn"
    first = playable(page)[0]
    play(page, first)
    expect(page.locator("#ranked")).to_have_text("Ranked")

    # Undo: the one-time notice, then our card is back in the hand.
    expect(page.locator("#btn-undo")).to_be_enabled()
    page.click("#btn-undo")
    confirm(page)
    expect(card(page, first)).to_have_count(1)
    expect(page.locator('#trick .slot[data-seat="0"] [data-card]')).to_have_count(0)
    expect(page.locator("#ranked")).to_have_text("Unranked")
    assert wait_turn(page) == "turn"
    assert first in playable(page)

    # Play on a little, then Restart hand: no second unranked notice, but it is
    # confirmed (it throws the hand away), then back to the deal.
    play_some(page, 2)
    in_menu(page, "#btn-restart").click()
    expect(page.locator("#confirm-title")).to_have_text("Restart this hand?")
    page.click("#btn-confirm-ok")
    expect(page.locator("#dlg-confirm")).to_be_hidden()
    expect(page.locator("body")).to_have_attribute("data-phase", "passing")
    expect(page.locator("#prompt")).to_have_text("Pass three cards to Robin")
    expect(page.locator(HAND)).to_have_count(13)
    assert hand(page) == dealt
    assert pressed(page) == []
    assert trick(page) == {}


def test_restart_hand_shows_the_notice_once(page: Page) -> None:
    start_match(page)
    dealt = hand(page)
    pass_first_three(page)
    play_some(page, 1)
    in_menu(page, "#btn-restart").click()
    # Cancel leaves everything as it was.
    expect(page.locator("#dlg-confirm")).to_be_visible()
    page.click("#btn-confirm-cancel")
    expect(page.locator("#dlg-confirm")).to_be_hidden()
    expect(page.locator("body")).to_have_attribute("data-phase", "playing")
    expect(page.locator("#ranked")).to_have_text("Ranked")
    in_menu(page, "#btn-restart").click()
    confirm(page)
    expect(page.locator("body")).to_have_attribute("data-phase", "passing")
    expect(page.locator(HAND)).to_have_count(13)
    assert hand(page) == dealt
    expect(page.locator("#ranked")).to_have_text("Unranked")


def test_pause_blocks_play(page: Page) -> None:
    game_started(page)
    cards = hand(page)
    choice = playable(page)[0]
    in_menu(page, "#btn-pause").click()
    expect(page.locator("#btn-pause")).to_have_text("Resume")
    expect(page.locator("body")).to_have_class(_has("paused"))
    expect(page.locator("#prompt")).to_contain_text("Paused")
    expect(card(page, choice)).to_have_class(_has("unavailable"))

    # A click (forced: Playwright will not click an aria-disabled button) is
    # refused with the reason, and nothing moves.
    card(page, choice).click(force=True, position=CORNER)
    expect(page.locator("#message")).to_contain_text("paused")
    # The clock stands still (it shows whole seconds: watch it for more than one).
    clock = page.locator("#clock").text_content()
    time.sleep(1.6)
    assert page.locator("#clock").text_content() == clock
    assert hand(page) == cards
    assert "0" not in trick(page)

    in_menu(page, "#btn-pause").click()
    expect(page.locator("#btn-pause")).to_have_text("Pause")
    expect(page.locator("body")).not_to_have_class(_has("paused"))
    assert wait_turn(page) == "turn"
    play(page, choice)
    expect(page.locator('#trick .slot[data-seat="0"] [data-card]')).to_have_attribute(
        "data-card", choice
    )
    # The clock runs again.
    running = page.locator("#clock").text_content()
    page.wait_for_function(
        "text => document.getElementById('clock').textContent !== text", arg=running
    )


def test_review_rules_and_four_colours(page: Page) -> None:
    game_started(page)
    expect(page.locator("#btn-last-trick")).to_be_disabled()
    page.click("#btn-review")  # before any trick: said so, and the game pauses
    expect(page.locator("#dlg-review")).to_be_visible()
    expect(page.locator("#review-title")).to_have_text("Tricks this hand")
    expect(page.locator("#review-empty")).to_be_visible()
    expect(page.locator("#btn-review-close")).to_be_focused()
    expect(page.locator("body")).to_have_class(_has("paused"))
    page.click("#btn-review-close")
    expect(page.locator("body")).not_to_have_class(_has("paused"))

    play_some(page, 1)  # a whole trick has been played
    in_menu(page, "#btn-last-trick").click()
    expect(page.locator("#review-title")).to_have_text("Last trick")
    expect(page.locator("#review-empty")).to_be_hidden()
    expect(page.locator("#review-list > li")).to_have_count(1)
    page.click("#btn-review-close")

    page.click("#btn-rules")
    expect(page.locator("#dlg-rules")).to_be_visible()
    expect(page.locator("#rules-frame")).to_have_attribute("src", "/help/rules?embed=1")
    page.click("#btn-rules-close")
    expect(page.locator("#dlg-rules")).to_be_hidden()

    in_menu(page, "#opt-four-colour").check()  # kept by the browser across a reload
    expect(page.locator("html")).to_have_class(_has("four-colour"))
    page.reload()
    expect(page.locator("#opt-four-colour")).to_be_checked()
    expect(page.locator("html")).to_have_class(_has("four-colour"))


def test_reload_resumes_the_same_position(page: Page) -> None:
    game_started(page)
    play_some(page, 2)
    cards, table = hand(page), trick(page)
    prompt = page.locator("#prompt").text_content()
    assert len(cards) == 11
    page.reload()
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator(HAND)).to_have_count(11)
    assert hand(page) == cards
    assert trick(page) == table
    expect(page.locator("#prompt")).to_have_text(prompt or "")
    assert wait_turn(page) == "turn"
    play(page, playable(page)[0])


def test_server_restart_mid_hand_resumes(page: Page, server: Any) -> None:
    game_started(page)
    play_some(page, 3)
    cards, table = hand(page), trick(page)
    server.kill()
    expect(page.locator("#conn")).to_have_attribute("data-status", "reconnecting")
    server.start()
    expect(page.locator("#conn")).to_have_attribute("data-status", "open", timeout=20_000)
    expect(page.locator(HAND)).to_have_count(10)
    assert hand(page) == cards
    assert trick(page) == table
    # Play goes on: a card, and the others answer.
    assert wait_turn(page) == "turn"
    choice = playable(page)[0]
    play(page, choice)
    assert wait_turn(page) == "turn"
    assert len(hand(page)) == 9


def test_screenshots_and_phone_width(page: Page, screenshot: Callable[[Page, str], None]) -> None:
    game_started(page)
    play_some(page, 2)
    screenshot(page, "solo-mid-hand-1280x800")
    page.set_viewport_size({"width": 360, "height": 740})
    expect(page.locator(HAND)).to_have_count(11)
    screenshot(page, "solo-mid-hand-360x740")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360 + 1, f"the page is {width} px wide at 360 px"
    # Every card of the hand can still be seen and clicked at phone width.
    assert wait_turn(page) == "turn"
    play(page, playable(page)[0])
    assert page.page_errors == []  # type: ignore[attr-defined]
