"""Motion (issue 13): cards travel, tricks gather, and nothing is lost or reordered.

The page's own animations are counted by wrapping ``Element.animate`` before
any script runs; the queue of states is driven directly in the page.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect
from test_solo_game import game_started, in_menu, play, playable, wait_turn

COUNT_ANIMATIONS = """
window.__animations = [];
const original = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  const where = this.closest("#trick") ? "trick" : this.closest("#hand") ? "hand" : "other";
  window.__animations.push(where);
  return original.apply(this, args);
};
"""


def one_trick(page: Page) -> None:
    assert wait_turn(page) == "turn"
    play(page, playable(page)[0])
    assert wait_turn(page) == "turn"


def test_cards_travel_to_the_trick(page: Page) -> None:
    page.add_init_script(COUNT_ANIMATIONS)
    page.reload()
    game_started(page)
    one_trick(page)
    seen = page.evaluate("() => window.__animations")
    assert "trick" in seen, seen  # plays flew in
    assert "hand" in seen, seen  # the deal and the received cards


def test_reduced_motion_means_none(page: Page) -> None:
    page.emulate_media(reduced_motion="reduce")
    page.add_init_script(COUNT_ANIMATIONS)
    page.reload()
    game_started(page)
    one_trick(page)
    assert page.evaluate("() => window.__animations") == []


def test_the_motion_option_turns_it_off(page: Page) -> None:
    page.add_init_script(COUNT_ANIMATIONS)
    page.reload()
    expect(page.locator("#start")).to_be_visible()
    game_started(page)
    in_menu(page, "#opt-motion").uncheck()
    expect(page.locator("html")).to_have_class("no-motion")
    page.keyboard.press("Escape")
    page.evaluate("() => { window.__animations = []; }")
    one_trick(page)
    assert page.evaluate("() => window.__animations") == []
    page.reload()  # kept by the browser
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator("html")).to_have_class("no-motion")


QUEUE_IN_ORDER = """async () => {
  const { StateQueue } = await import("/static/motion.js");
  const drawn = [];
  const queue = new StateQueue((msg) => drawn.push(msg.version));
  const first = [[0, "2C"], [1, "3C"], [2, "4C"], [3, "5C"]];
  const trick = (n) => ({ leader: 0, cards: first.slice(0, n), winner: n === 4 ? 3 : null });
  const next = [[3, "6C"], [0, "7C"], [1, "8C"]];
  const lead = (n) => ({ leader: 3, cards: next.slice(0, n), winner: null });
  const state = (version, tricks) => ({ type: "state", version,
    table: { match_id: 1, hand_number: 1, phase: "playing", pace: "relaxed", turn: 0, tricks } });
  queue.push(state(1, [trick(3)]));
  queue.jumpNext = false;
  // A finished trick, then the next lead while the gather runs, then two more: all drawn, in order.
  queue.push(state(2, [trick(4)]));
  for (let n = 1; n <= 3; n++) queue.push(state(2 + n, [trick(4), lead(n)]));
  while (queue.busy || queue.queue.length) await new Promise((r) => setTimeout(r, 20));
  return { drawn };
}"""


def test_states_are_drawn_in_order_and_none_is_lost(page: Page) -> None:
    result = page.evaluate(QUEUE_IN_ORDER)
    assert result["drawn"] == [1, 2, 3, 4, 5]
