"""The score sheet, Play again, and the sound option (issue 13)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect
from test_solo_game import in_menu, pass_first_three, play, playable, start_match, wait_turn

CSRF = """async () => (await (await fetch("/api/session")).json()).csrf"""


def test_the_score_sheet_follows_the_hands(page: Page) -> None:
    start_match(page)
    page.click("#btn-scores")
    expect(page.locator("#dlg-scores")).to_be_visible()
    expect(page.locator("#scores-sheet")).to_contain_text("No hand has been scored yet")
    page.click("#btn-scores-close")
    pass_first_three(page)
    while wait_turn(page) == "turn":
        play(page, playable(page)[0])
    totals = page.eval_on_selector_all(
        "#summary-body tr",
        "rows => rows.map(r => Number(r.querySelectorAll('td.num')[1].textContent))",
    )
    page.click("#btn-scores")
    rows = page.locator("#scores-sheet tbody tr")
    expect(rows).to_have_count(1)
    cells = rows.first.locator("td").all_text_contents()
    assert [int(text.split(" ")[0]) for text in cells] == totals
    # The chart: one line per player, each with its own style, and a text for screen readers.
    expect(page.locator("#scores-sheet svg polyline")).to_have_count(4)
    label = page.locator("#scores-sheet svg").get_attribute("aria-label") or ""
    assert label.startswith("Totals over 1 hand: you ")
    page.click("#btn-scores-close")


def test_play_again_starts_at_the_same_level(page: Page, server: Any) -> None:
    start_match(page, "normal")
    page.request.post(
        server.url + "/api/test/autoplay", headers={"X-CSRF-Token": page.evaluate(CSRF)}
    )
    expect(page.locator("#match-over")).to_be_visible(timeout=180_000)
    expect(page.locator("#match-sheet svg polyline")).to_have_count(4)
    expect(page.locator("#btn-end-new-match")).to_have_text("Play again")
    page.click("#btn-end-new-match")
    expect(page.locator("body")).to_have_attribute("data-phase", "passing")
    expect(page.locator("#match-info")).to_contain_text("Normal · Hand 1")


def test_sound_is_off_until_chosen_and_remembered(page: Page) -> None:
    start_match(page)
    expect(in_menu(page, "#opt-sound")).not_to_be_checked()
    page.locator("#opt-sound").check()
    page.reload()
    expect(page.locator("#game")).to_be_visible()
    expect(in_menu(page, "#opt-sound")).to_be_checked()
