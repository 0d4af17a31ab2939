// The coach in the game (solo and shared tables): once a hand is over, the hand
// summary offers "What did my decisions cost?"; the answer (GET /api/match/coach,
// the last finished hand) opens in a dialog. Never during a hand: the button lives in the summary,
// and the server refuses while a hand is in play. This module only watches the
// summary; the game's own scripts do not know it is there.

import { renderReview } from "./coach.js";
import { h } from "./render.js";
import { failureText } from "./session.js";

const summary = document.getElementById("summary");

function dialog() {
  let node = document.getElementById("dlg-coach");
  if (node) return node;
  node = h("dialog", { id: "dlg-coach", class: "coach coach-dialog", "aria-labelledby": "coach-title" },
    h("h2", { id: "coach-title", text: "Your decisions" }),
    h("div", { id: "coach-hand-result" }),
    h("form", { method: "dialog" }, h("button", { type: "submit", id: "btn-coach-close", class: "primary", text: "Close" })),
  );
  document.body.appendChild(node);
  return node;
}

async function ask(button, status) {
  button.disabled = true;
  status.textContent = "The coach is looking at your decisions… this takes a few seconds.";
  let answer;
  try {
    // At a shared table (/t/<code>) the review is of the player's seat there.
    const shared = location.pathname.match(/^\/t\/([^/]+)\/?$/);
    const url = shared ? `/api/match/coach?table=${shared[1]}` : "/api/match/coach";
    const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" });
    let body = null;
    try { body = await response.json(); } catch { /* no JSON */ }
    answer = { ok: response.ok, status: response.status, body };
  } catch {
    answer = { ok: false, status: 0, body: null };
  }
  button.disabled = false;
  if (!answer.ok || !answer.body || !Array.isArray(answer.body.decisions)) {
    status.textContent = failureText(answer, "The coach could not look at this hand.");
    return;
  }
  status.textContent = "";
  const node = dialog();
  node.querySelector("#coach-title").textContent = `Your decisions in hand ${answer.body.hand}`;
  node.querySelector("#coach-hand-result").replaceChildren(renderReview(answer.body));
  if (summary.hidden) return; // the next hand began meanwhile
  node.showModal();
}

if (summary) {
  const button = h("button", { type: "button", id: "btn-coach-hand", text: "What did my decisions cost?" });
  const status = h("p", { id: "coach-hand-status", class: "coach-status", role: "status", "aria-live": "polite" });
  // Under the hand's table, before the match-over part when there is one.
  const anchor = summary.querySelector("#match-over");
  summary.insertBefore(button, anchor);
  summary.insertBefore(status, anchor);
  button.addEventListener("click", () => ask(button, status));
  new MutationObserver(() => {
    if (!summary.hidden) return;
    status.textContent = "";
    const open = document.getElementById("dlg-coach");
    if (open && open.open) open.close();
  }).observe(summary, { attributes: true, attributeFilter: ["hidden"] });
}
