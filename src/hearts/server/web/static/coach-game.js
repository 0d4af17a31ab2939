// The coach in the game (solo and shared tables): once a hand is over, the hand
// summary offers "What did my decisions cost?"; the answer (GET /api/match/coach,
// the last finished hand) opens in a dialog, and the trick review (Tricks) marks
// each of your plays with its verdict, the better card and what it would have
// saved. Never during a hand: both only while the summary shows, and the server
// refuses while a hand is in play. This module only watches the summary and the
// review dialog; the game's own scripts do not know it is there.

import { cardName } from "./cards.js";
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

let reviewed = null;
/** The review of the hand just over, fetched once per hand summary (the server stores it). */
function fetchReview() {
  if (!reviewed) {
    reviewed = (async () => {
      try {
        // At a shared table (/t/<code>) the review is of the player's seat there.
        const shared = location.pathname.match(/^\/t\/([^/]+)\/?$/);
        const url = shared ? `/api/match/coach?table=${shared[1]}` : "/api/match/coach";
        const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" });
        let body = null;
        try { body = await response.json(); } catch { /* no JSON */ }
        return { ok: response.ok, status: response.status, body };
      } catch {
        return { ok: false, status: 0, body: null };
      }
    })();
    reviewed.then((answer) => { if (!answer.ok) reviewed = null; }); // a refusal may be asked again
  }
  return reviewed;
}

function usable(answer) {
  return answer.ok && answer.body && Array.isArray(answer.body.decisions);
}

async function ask(button, status) {
  button.disabled = true;
  status.textContent = "The coach is looking at your decisions… this takes a few seconds.";
  const answer = await fetchReview();
  button.disabled = false;
  if (!usable(answer)) {
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

// ---- the trick review, once the hand is over: each of your plays marked ----------

const VERDICT_WORDS = { fine: "fine", inaccuracy: "an inaccuracy", mistake: "a mistake", blunder: "a blunder" };

/** One sentence on a play: its verdict, and what the better card would have saved. */
function playMark(decision) {
  const made = cardName(decision.made[0]);
  if (decision.forced) return `Your ${cardName(decision.made[0], false)} was your only card.`;
  const verdict = VERDICT_WORDS[decision.verdict] || decision.verdict;
  const better = decision.best.join() !== decision.made.join() && decision.loss >= 0.05;
  if (!better) return `Coach: ${made}, ${verdict}. Nothing better.`;
  const saved = `${decision.loss.toFixed(1)} point${Math.abs(decision.loss - 1) < 0.05 ? "" : "s"}`;
  return `Coach: ${made}, ${verdict}. The ${cardName(decision.best[0], false)} would have saved ${saved} on average.`;
}

function markTricks(review) {
  for (const decision of review.decisions) {
    if (decision.kind !== "play") continue;
    const item = document.querySelector(`#review-list li[data-trick="${decision.trick}"]`);
    if (!item || item.querySelector(".coach-mark")) continue;
    const kind = decision.forced ? "forced" : decision.verdict;
    item.appendChild(h("p", { class: `coach-mark coach-${kind}`, dataset: { verdict: kind }, text: playMark(decision) }));
  }
}

const trickReview = document.getElementById("dlg-review");
if (trickReview && summary) {
  new MutationObserver(async () => {
    if (!trickReview.open || summary.hidden) return; // never during a hand
    const answer = await fetchReview();
    if (usable(answer) && trickReview.open && !summary.hidden) markTricks(answer.body);
  }).observe(trickReview, { attributes: true, attributeFilter: ["open"] });
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
    reviewed = null; // the next hand: its own review
    status.textContent = "";
    const open = document.getElementById("dlg-coach");
    if (open && open.open) open.close();
  }).observe(summary, { attributes: true, attributeFilter: ["hidden"] });
}
