// What both game pages (the solo game, app.js, and a shared table, table.js)
// do the same way: choosing the three cards to pass, the pace buttons, the
// four-colour option, and the trick review and rules dialogs.

import { cardName } from "./cards.js";
import { renderReview } from "./render.js";

const byId = (id) => document.getElementById(id);
const FOUR_COLOUR_KEY = "hearts.fourColour";

export const PASS_WORDS = { left: "pass left", right: "pass right", across: "pass across", hold: "no pass" };

/**
 * The pass being chosen with ``card`` added or taken out, or null when that is
 * refused (the pass is already made, or three cards are chosen): the reason is
 * shown, and announced for screen readers.
 */
export function choosePassCard(t, selection, card, showMessage, announce) {
  if (Array.isArray(t.passed) && t.passed.length) {
    showMessage("You have already passed. Waiting for the others.", "error");
    return null;
  }
  const chosen = new Set(selection);
  if (chosen.has(card)) chosen.delete(card);
  else if (chosen.size >= 3) {
    showMessage("You have chosen three cards. Select one of them again to change your choice.", "error");
    announce("Three cards are already chosen.");
    return null;
  } else chosen.add(card);
  announce(`${cardName(card)} ${chosen.has(card) ? "selected" : "deselected"}, ${chosen.size} of 3.`);
  return chosen;
}

export function setPaceButtons(pace) {
  byId("pace-relaxed").setAttribute("aria-pressed", String(pace !== "quick"));
  byId("pace-quick").setAttribute("aria-pressed", String(pace === "quick"));
}

/** The four-colour deck option: as this browser last chose it, and kept when changed. */
export function wireFourColour() {
  const apply = (on) => {
    document.documentElement.classList.toggle("four-colour", on);
    byId("opt-four-colour").checked = on;
  };
  let on = false;
  try { on = localStorage.getItem(FOUR_COLOUR_KEY) === "1"; } catch { /* private mode */ }
  apply(on);
  byId("opt-four-colour").addEventListener("change", (event) => {
    apply(event.target.checked);
    try { localStorage.setItem(FOUR_COLOUR_KEY, event.target.checked ? "1" : "0"); } catch { /* private mode */ }
  });
}

/** This hand's tricks (or only the last one) in the review dialog, opened with ``open``. */
export function showReview(t, onlyLast, open) {
  const count = renderReview(byId("review-list"), t, onlyLast);
  byId("review-title").textContent = onlyLast ? "Last trick" : "Tricks this hand";
  byId("review-empty").hidden = count > 0;
  open(byId("dlg-review"));
  byId("btn-review-close").focus();
}

export const RULES_URL = "/help/rules?embed=1";

/**
 * The rules in their dialog: the article alone (no site navigation; its links
 * open a new tab), loaded afresh each time it opens, so it always shows the rules.
 */
export function showRules(open) {
  const frame = byId("rules-frame");
  frame.setAttribute("src", RULES_URL);
  open(byId("dlg-rules"));
  byId("btn-rules-close").focus();
}

/** Is `node` shown (not hidden, nor inside something hidden)? */
function shown(node) {
  return !!node && node.isConnected && node.getClientRects().length > 0;
}

/**
 * After an action changes the screen (Start, Pass, Continue, Next hand), the
 * button that had focus is often gone and focus falls to the page's body. Put
 * it where the next decision is: the first shown, enabled element of
 * `candidates` (for a card hand, its one card in the Tab order). Focus the
 * person put somewhere that is still shown is left alone, and so is an open dialog.
 */
export function keepFocus(candidates) {
  const active = document.activeElement;
  if (active && active !== document.body && shown(active)) return;
  if (document.querySelector("dialog[open]")) return;
  for (const node of candidates) {
    if (!shown(node)) continue;
    const target = node.matches("button, a, input, [tabindex]")
      ? node
      : node.querySelector('[tabindex="0"], button:not([disabled])');
    if (target && shown(target) && !target.disabled) {
      target.focus({ preventScroll: true });
      return;
    }
  }
}

// ---- the More menu ---------------------------------------------------------------

/**
 * The More button and its menu (a disclosure: a button that shows a group of
 * controls). Escape or a click elsewhere closes it; so does choosing an action
 * in it (not a toggle, which stays open to show its new state).
 */
export function wireMore() {
  const button = byId("btn-more");
  const menu = byId("more-menu");
  if (!button || !menu) return;
  const set = (open, refocus = false) => {
    // Focus left inside the menu would be lost when it hides: it goes back to More
    // (unless what was chosen put it somewhere, such as a dialog).
    const inside = menu.contains(document.activeElement) || document.activeElement === document.body;
    menu.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    if (!open && refocus && inside) button.focus();
  };
  button.addEventListener("click", () => {
    const open = menu.hidden;
    set(open);
    if (open) {
      const first = menu.querySelector("button:not([disabled]), input");
      if (first) first.focus();
    }
  });
  menu.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { event.stopPropagation(); set(false, true); }
  });
  menu.addEventListener("click", (event) => {
    const target = event.target.closest("button");
    if (target && !target.closest(".pace")) set(false, true);
  });
  document.addEventListener("click", (event) => {
    if (!menu.hidden && !menu.contains(event.target) && event.target !== button) set(false);
  });
  // Tabbing out of the menu closes it, as a click elsewhere does.
  menu.addEventListener("focusout", (event) => {
    const to = event.relatedTarget;
    if (to && !menu.contains(to) && to !== button) set(false);
  });
}

// ---- options kept by this browser: motion and sound ------------------------------

/** A checkbox option kept in localStorage; `apply(on)` runs now and on each change. */
export function wireOption(id, key, fallback, apply) {
  const box = byId(id);
  let on = fallback;
  try {
    const saved = localStorage.getItem(key);
    if (saved === "1" || saved === "0") on = saved === "1";
  } catch { /* private mode */ }
  if (box) box.checked = on;
  apply(on);
  if (box) {
    box.addEventListener("change", () => {
      apply(box.checked);
      try { localStorage.setItem(key, box.checked ? "1" : "0"); } catch { /* private mode */ }
    });
  }
}
