"""axe-core finds no accessibility violation on any page, nor on the game in
each phase, at desktop and phone sizes (issue 13).  axe-core is pinned in
tests/browser/axe and only ever used here."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from test_solo_game import HAND, card, hand, pass_first_three, start_match, wait_turn

SIZES = [(1280, 800), (360, 740)]
PAGES = [
    "/tables/new",
    "/stats",
    "/leaderboard",
    "/account",
    "/replay",
    "/help",
    "/help/rules",
    "/help/adjudications",
    "/no-such-page",
]


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_every_page(
    page: Page, server: Any, axe: Callable[[Page], list[str]], width: int, height: int
) -> None:
    page.set_viewport_size({"width": width, "height": height})
    problems: dict[str, list[str]] = {}
    for path in PAGES:
        page.goto(server.url + path)
        page.wait_for_load_state("networkidle")
        found = axe(page)
        if found:
            problems[path] = found
    # The top bar's menu, opened on a phone.
    if width < 900:
        page.goto(server.url + "/help")
        page.click(".nav-toggle")
        expect(page.locator("#site-nav")).to_be_visible()
        if found := axe(page):
            problems["/help (menu open)"] = found
    assert problems == {}


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_game_in_each_phase(
    page: Page,
    server: Any,
    axe: Callable[[Page], list[str]],
    screenshot: Callable[[Page, str], None],
    width: int,
    height: int,
) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.reload()
    problems: dict[str, list[str]] = {}

    def check(phase: str) -> None:
        screenshot(page, f"phase-{phase}-{width}x{height}")
        if found := axe(page):
            problems[phase] = found

    expect(page.locator("#start")).to_be_visible()
    check("start")
    start_match(page)
    for text in hand(page)[:2]:
        card(page, text).click(position={"x": 8, "y": 14})
    check("passing")
    page.click("#btn-more")
    check("menu")
    page.keyboard.press("Escape")
    for text in hand(page)[2:3]:
        card(page, text).click(position={"x": 8, "y": 14})
    page.click("#btn-pass")
    expect(page.locator("#btn-continue")).to_be_visible()
    check("received")
    page.click("#btn-continue")
    assert wait_turn(page) == "turn"
    check("playing")
    page.request.post(
        server.url + "/api/test/autoplay",
        headers={"X-CSRF-Token": page.evaluate(CSRF)},
    )
    expect(page.locator("#summary")).to_be_visible(timeout=30_000)
    if page.locator("#btn-next-hand").is_visible():
        check("hand-over")
    expect(page.locator("#match-over")).to_be_visible(timeout=120_000)
    check("match-over")
    page.click("#btn-scores")
    expect(page.locator("#dlg-scores")).to_be_visible()
    check("score-sheet")
    assert problems == {}


CSRF = """async () => (await (await fetch("/api/session")).json()).csrf"""


def test_hand_over_is_checked_too(page: Page, axe: Callable[[Page], list[str]]) -> None:
    # The match above may end in one state; here a hand ends with the table waiting.
    start_match(page)
    pass_first_three(page)
    while wait_turn(page) == "turn":
        playable = page.eval_on_selector_all(
            f"{HAND}:not(.unavailable)", "bs => bs.map(b => b.dataset.card)"
        )
        card(page, playable[0]).click(position={"x": 8, "y": 14})
        expect(card(page, playable[0])).to_have_count(0)
    expect(page.locator("#btn-next-hand")).to_be_visible()
    assert axe(page) == []
    assert re.search(r"Hand 1 is over", page.locator("#summary-title").text_content() or "")


def test_axe_does_see_a_problem(page: Page, axe: Callable[[Page], list[str]]) -> None:
    # The checks above could not fail if axe never ran: an image without a text does.
    page.evaluate(
        "() => { const i = document.createElement('img'); i.src = '/static/favicon.svg';"
        " document.body.appendChild(i); }"
    )
    assert any(line.startswith("image-alt") for line in axe(page))
