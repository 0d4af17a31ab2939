"""The coach in the replay viewer (Chromium via Playwright): any seat of a loaded record."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "coach"))
from coach_positions import STOP_THE_MOON, STOP_THE_MOON_PLAYS, hand_record

COACH_TIMEOUT = 120_000  # ms: a hand at the default budget, on a busy test machine


def test_the_coach_reviews_any_seat_of_a_loaded_record(
    page: Page, server: Any, screenshot: Callable[[object, str], None]
) -> None:
    # South ducks with the two of hearts at trick 11 and lets East shoot the moon.
    record = hand_record(STOP_THE_MOON, [*STOP_THE_MOON_PLAYS, "2H"])
    page.goto(server.url + "/replay")
    page.fill("#replay-json", json.dumps(record))
    page.click("#btn-replay-load")
    expect(page.locator("#replay-view")).to_be_visible()
    coach = page.locator("#replay-coach")
    expect(coach).to_be_visible()  # the record's only hand is over
    expect(page.locator("#coach-seat option")).to_have_count(4)

    page.click("#btn-coach")
    expect(page.locator("#coach-status")).to_contain_text("Looking at You's decisions")
    rows = page.locator(".coach-table tbody tr")
    expect(rows).to_have_count(13, timeout=COACH_TIMEOUT)
    eleven = rows.nth(10)
    expect(eleven.locator("th")).to_have_text("Trick 11")
    expect(eleven).to_have_attribute("data-verdict", "blunder")
    expect(eleven.locator("td").nth(2)).to_contain_text("A")  # the better card: the ace
    expect(page.locator(".coach-summary")).to_contain_text("Accuracy")
    screenshot(page, "replay-coach-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "replay-coach-phone")
    page.set_viewport_size({"width": 1280, "height": 800})

    # Another seat, then back: South's review is kept, not asked for again.
    page.select_option("#coach-seat", "3")
    expect(rows).to_have_count(0)
    page.select_option("#coach-seat", "0")
    expect(rows).to_have_count(13)
