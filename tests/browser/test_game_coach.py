"""The coach in the game (Chromium via Playwright): offered in the hand summary and the
trick review once a hand is over, never during one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect
from test_solo_game import pass_first_three, play, playable, start_match, wait_turn

COACH_TIMEOUT = 120_000  # ms: a hand at the default budget, on a busy test machine


def test_the_hand_summary_offers_the_coach(
    page: Page, server: Any, screenshot: Callable[[object, str], None]
) -> None:
    start_match(page)
    expect(page.locator("#btn-coach-hand")).to_be_hidden()  # in the summary, hidden in play
    pass_first_three(page)
    assert wait_turn(page) == "turn"
    play(page, playable(page)[0])
    assert wait_turn(page) == "turn"  # a whole trick went round
    page.click("#btn-review")  # during the hand: the tricks, and no word from the coach
    expect(page.locator("#review-list li")).to_have_count(1)
    expect(page.locator("#review-list .coach-mark")).to_have_count(0)
    page.click("#btn-review-close")
    while wait_turn(page) == "turn":
        play(page, playable(page)[0])
    expect(page.locator("#summary")).to_be_visible()
    page.click("#btn-coach-hand")
    dialog = page.locator("#dlg-coach")
    expect(dialog).to_be_visible(timeout=COACH_TIMEOUT)
    expect(page.locator("#coach-title")).to_have_text("Your decisions in hand 1")
    rows = dialog.locator(".coach-table tbody tr")
    expect(rows).to_have_count(14)  # the pass and thirteen plays
    expect(rows.first.locator("th")).to_have_text("Pass")
    expect(dialog.locator(".coach-summary")).to_contain_text("Accuracy")
    screenshot(page, "game-coach-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "game-coach-phone")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.click("#btn-coach-close")
    expect(dialog).to_be_hidden()

    # The trick review marks each of our plays with its verdict (the stored review).
    page.click("#btn-review")
    marks = page.locator("#review-list .coach-mark")
    expect(marks).to_have_count(13)
    verdicts = marks.evaluate_all("ms => ms.map(m => m.dataset.verdict)")
    assert set(verdicts) <= {"fine", "inaccuracy", "mistake", "blunder", "forced"}
    expect(marks.first).to_contain_text("Coach:" if verdicts[0] != "forced" else "only card")
    screenshot(page, "game-coach-tricks-desktop")
    page.click("#btn-review-close")
    page.click("#btn-next-hand")
    expect(page.locator("#summary")).to_be_hidden()
    expect(page.locator("#btn-coach-hand")).to_be_hidden()

    # The statistics page counts the reviewed hand at its level.
    page.goto(server.url + "/stats")
    row = page.locator('#coach-stats tr[data-level="easy"]')
    expect(row).to_be_visible()
    expect(row.locator("td").first).to_have_text("1")
    screenshot(page, "stats-coach-desktop")
