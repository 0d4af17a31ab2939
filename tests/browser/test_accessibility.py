"""axe-core on every page and on the game in each phase, at desktop and phone sizes.

axe-core comes from the npm registry at a pinned version (tests/browser/axe/package.json,
installed by ``make test``) and is used by these tests only. The pages' Content Security
Policy allows no injected script, so these tests' browser context bypasses it; nothing
else about the pages changes.
"""

from __future__ import annotations

import contextlib
import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
SIZES = {"desktop": (1280, 800), "phone": (360, 740)}
HAND = "#hand button[data-card]"
HELP_PAGES = ("rules", "first-game", "strategy", "mistakes", "adjudications", "history", "faq")

RUN_AXE = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ")),
  }));
}"""


@pytest.fixture
def axe_page(server: Any, chromium_options: dict[str, Any]) -> Iterator[Page]:
    """A tab whose context may inject axe (``bypass_csp``); fails on any page error."""
    from playwright.sync_api import sync_playwright

    if not AXE.exists():
        pytest.fail(f"axe-core is not installed ({AXE}); make test installs it with npm")
    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(**chromium_options)
        context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
        context.set_default_timeout(15_000)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        try:
            yield page
        finally:
            context.close()
            browser.close()
    assert errors == [], f"errors on the page: {errors}"


def audit(page: Page, where: str) -> list[str]:
    """axe's violations on the page as it is now, at both sizes, as readable lines."""
    found = []
    original = page.viewport_size or {"width": 1280, "height": 800}
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)  # let the layout settle at the new size
        if not page.evaluate("() => typeof window.axe === 'object'"):
            page.add_script_tag(path=str(AXE))
        for violation in page.evaluate(RUN_AXE):
            found.append(f"{where} ({size}): {json.dumps(violation)}")
    page.set_viewport_size(original)
    return found


def table_code(server: Any) -> str:
    """A friends' table made by a guest of its own (only its code matters here)."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    with opener.open(server.url + "/api/session") as answer:
        token = json.load(answer)["csrf"]

    def post(path: str, body: dict[str, Any] | None) -> dict[str, Any]:
        request = urllib.request.Request(
            server.url + path,
            data=json.dumps(body).encode() if body is not None else b"",
            headers={"X-CSRF-Token": token, "Content-Type": "application/json"},
            method="POST",
        )
        with opener.open(request) as answer:
            result: dict[str, Any] = json.load(answer)
            return result

    post("/api/guest", None)
    return str(post("/api/tables", {"name": "Axe night"})["code"])


def test_every_page_has_no_axe_violation(axe_page: Page, server: Any) -> None:
    page = axe_page
    code = table_code(server)
    paths = [
        "/",
        "/tables/new",
        f"/t/{code}",
        "/stats",
        "/leaderboard",
        "/account",
        "/replay",
        "/help",
        *(f"/help/{name}" for name in HELP_PAGES),
        "/no-such-page",
    ]
    found: list[str] = []
    for path in paths:
        page.goto(server.url + path)
        page.wait_for_load_state("networkidle")
        found += audit(page, path)
    print(f"axe-core checked {len(paths)} pages at {len(SIZES)} sizes")
    assert found == [], "\n".join(found)


def wait_for_summary_or_turn(page: Page) -> str:
    state = page.wait_for_function(
        """() => {
          const summary = document.getElementById("summary");
          if (summary && !summary.hidden) return "over";
          if (document.body.dataset.phase !== "playing") return false;
          const cont = document.getElementById("btn-continue");
          if (cont && !cont.hidden) return false;
          return document.querySelector('#hand button[data-card]:not(.unavailable)')
            ? "turn" : false;
        }""",
        timeout=30_000,
    )
    return str(state.json_value())


def test_the_game_in_every_phase_has_no_axe_violation(axe_page: Page, server: Any) -> None:
    page = axe_page
    found: list[str] = []
    page.goto(server.url + "/")
    expect(page.locator("#start")).to_be_visible()
    found += audit(page, "start screen")

    page.click("#level-easy")
    page.click("#btn-start")
    expect(page.locator("body")).to_have_attribute("data-phase", "passing")
    expect(page.locator(HAND)).to_have_count(13)
    found += audit(page, "passing")
    for button in page.locator(HAND).all()[:3]:
        button.click()
    found += audit(page, "three cards chosen")
    page.click("#btn-pass")
    expect(page.locator("#btn-continue")).to_be_visible()
    found += audit(page, "cards received")
    page.click("#btn-continue")

    assert wait_for_summary_or_turn(page) == "turn"
    found += audit(page, "playing")
    while wait_for_summary_or_turn(page) == "turn":
        card = page.locator(f"{HAND}:not(.unavailable)").first.get_attribute("data-card")
        page.click(f'#hand button[data-card="{card}"]')
        expect(page.locator(f'#hand button[data-card="{card}"]')).to_have_count(0)
    found += audit(page, "hand over")

    with contextlib.suppress(Exception):
        page.click("#pace-quick")
    token = page.request.get(server.url + "/api/session").json()["csrf"]
    answer = page.request.post(server.url + "/api/test/autoplay", headers={"X-CSRF-Token": token})
    assert answer.status == 200, answer.text()
    expect(page.locator("#match-over")).to_be_visible(timeout=300_000)
    found += audit(page, "match over")
    assert found == [], "\n".join(found)
