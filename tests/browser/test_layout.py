"""The table's layout (issue 13): it never jumps, and on a phone everything that
matters is on the screen at once.

Boxes are recorded by the page itself (a MutationObserver installed before any
script), after every change the game makes to the table, over a whole hand.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect
from test_solo_game import HAND, game_started, play, playable, wait_turn

SIZES = [(1280, 800), (1366, 768), (390, 844), (360, 740)]

# Which boxes must stay put: the hand, the primary action and the four seats.
RECORDER = """
window.__boxes = [];
const WATCHED = ["#hand", ".primary-slot", "#seat-0", "#seat-1", "#seat-2", "#seat-3"];
let queued = false;
function record() {
  queued = false;
  const game = document.getElementById("game");
  if (!game || game.hidden) return;
  const entry = { phase: document.body.dataset.phase || "" };
  for (const sel of WATCHED) {
    const r = document.querySelector(sel).getBoundingClientRect();
    entry[sel] = [r.x, r.y, r.width, r.height].map((v) => Math.round(v * 10) / 10);
  }
  window.__boxes.push(entry);
}
new MutationObserver(() => {
  if (!queued) { queued = true; requestAnimationFrame(record); }
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
"""

IN_VIEW = """() => {
  const inside = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.left >= -0.5 && r.top >= -0.5
      && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
  };
  const out = [];
  for (const sel of ["#seat-0", "#seat-1", "#seat-2", "#seat-3", "#trick", ".primary-slot"]) {
    if (!inside(document.querySelector(sel))) out.push(sel);
  }
  for (const card of document.querySelectorAll("#hand [data-card]")) {
    if (!inside(card)) out.push(card.dataset.card);
  }
  const { scrollHeight, scrollWidth } = document.scrollingElement;
  if (scrollHeight > innerHeight + 1) out.push(`page scrolls: ${scrollHeight} > ${innerHeight}`);
  if (scrollWidth > innerWidth + 1) out.push(`page is wide: ${scrollWidth} > ${innerWidth}`);
  return out;
}"""


def whole_hand(page: Page) -> None:
    """From our first turn to the summary, playing our lowest legal card."""
    while wait_turn(page) == "turn":
        play(page, playable(page)[0])
    expect(page.locator("#summary")).to_be_visible()


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_table_never_jumps(
    page: Page, width: int, height: int, screenshot: Callable[[Page, str], None]
) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.add_init_script(RECORDER)
    page.reload()
    game_started(page)
    screenshot(page, f"layout-playing-{width}x{height}")
    whole_hand(page)
    screenshot(page, f"layout-hand-over-{width}x{height}")
    page.wait_for_timeout(300)
    boxes = page.evaluate("() => window.__boxes")
    assert len(boxes) > 20, len(boxes)
    phases = {entry["phase"] for entry in boxes}
    assert {"passing", "playing", "hand_over"} <= phases, phases
    first = boxes[0]
    for entry in boxes:
        for key, box in entry.items():
            if key == "phase":
                continue
            moved = max(abs(a - b) for a, b in zip(box, first[key], strict=True))
            assert moved <= 1, (
                f"{key} moved by {moved} px in {entry['phase']}: {first[key]} -> {box}"
            )


@pytest.mark.parametrize(("width", "height"), SIZES[2:], ids=[f"{w}x{h}" for w, h in SIZES[2:]])
def test_a_phone_sees_everything_at_once(
    page: Page, width: int, height: int, screenshot: Callable[[Page, str], None]
) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.reload()
    expect(page.locator("#start")).to_be_visible()
    game_started(page)
    assert page.evaluate(IN_VIEW) == []
    play(page, playable(page)[0])
    assert wait_turn(page) == "turn"
    assert page.evaluate(IN_VIEW) == []
    # The hand is one row, or two when a card would show less than 28 px.
    tops = page.eval_on_selector_all(HAND, "cs => [...new Set(cs.map(c => c.offsetTop))]")
    assert len(tops) in (1, 2)
    screenshot(page, f"layout-phone-turn-{width}x{height}")
