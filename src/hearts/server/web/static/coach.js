// The coach in the replay viewer: for a finished hand of the loaded record and
// the seat chosen, POST /api/coach answers what each decision cost. The
// review is kept per hand and seat, so going back to a hand shows it at once.
// renderReview() also draws the review in the game (coach-game.js).

import { cardList, h } from "./render.js";
import { ensurePlayer, failureText, postJSON } from "./session.js";

const VERDICT_TEXT = {
  fine: "Fine",
  inaccuracy: "Inaccuracy",
  mistake: "Mistake",
  blunder: "Blunder",
};

let panel = null;
let record = null;
let names = [];
let hand = null;
const reviews = new Map(); // "hand:seat" -> review

/** Build the panel inside `node` for a newly loaded record. */
export function setupCoach(node, loaded, playerNames) {
  panel = node;
  record = loaded;
  names = playerNames;
  reviews.clear();
  hand = null;
  panel.replaceChildren(
    h("h2", { text: "Coach" }),
    h("p", { class: "coach-intro", text: "Pick a player to see what each of their decisions in this hand cost, judged only from what they could see at the time." }),
    seatPicker(),
    h("button", { type: "button", id: "btn-coach", class: "primary", text: "What did these decisions cost?" }),
    h("p", { id: "coach-status", class: "coach-status", role: "status", "aria-live": "polite" }),
    h("div", { id: "coach-result" }),
  );
  panel.querySelector("#btn-coach").addEventListener("click", ask);
  panel.querySelector("#coach-seat").addEventListener("change", () => showStored());
}

function seatPicker() {
  const select = h("select", { id: "coach-seat" });
  names.forEach((name, seat) => select.appendChild(h("option", { value: String(seat), text: name })));
  return h("p", { class: "coach-seat" }, h("label", { for: "coach-seat", text: "Player " }), select);
}

/** The replay moved to hand `number`; the coach is offered once that hand is over. */
export function coachHand(number, complete) {
  if (!panel) return;
  panel.hidden = !complete;
  if (hand === number) return;
  hand = number;
  showStored();
}

function seat() { return Number(panel.querySelector("#coach-seat").value); }

function showStored() {
  const review = reviews.get(`${hand}:${seat()}`);
  panel.querySelector("#coach-status").textContent = "";
  const result = panel.querySelector("#coach-result");
  result.replaceChildren();
  if (review) result.appendChild(renderReview(review));
}

async function ask() {
  const askedHand = hand;
  const askedSeat = seat();
  const status = panel.querySelector("#coach-status");
  const button = panel.querySelector("#btn-coach");
  button.disabled = true;
  status.textContent = `Looking at ${names[askedSeat]}'s decisions in hand ${askedHand}… this takes a few seconds.`;
  // The coach works for a player (one review at a time each): a visitor who came
  // straight to the replay page becomes a guest first.
  let answer;
  try {
    await ensurePlayer();
    answer = await postJSON(`/api/coach?seat=${askedSeat}&hand=${askedHand}`, record);
  } catch {
    answer = { ok: false, status: 0, body: null };
  }
  button.disabled = false;
  if (!answer.ok || !answer.body || !Array.isArray(answer.body.decisions)) {
    status.textContent = failureText(answer, "The coach could not look at this hand.");
    return;
  }
  reviews.set(`${askedHand}:${askedSeat}`, answer.body);
  if (askedHand === hand && askedSeat === seat()) showStored();
}

function what(decision) {
  if (decision.kind === "pass") return "Pass";
  if (decision.kind === "moon") return "Moon scoring";
  return `Trick ${decision.trick}`;
}

function choice(decision, cards) {
  if (decision.kind === "moon") return h("span", { text: cards[0] === "add" ? "others +26" : "self −26" });
  return cardList(cards);
}

function points(value) {
  return `${value.toFixed(1)} point${Math.abs(value - 1) < 0.05 ? "" : "s"}`;
}

// The margin a verdict takes off the loss: two standard errors (hearts.coach.review.NOISE_Z).
const MARGIN = 2;

/** "4.1 ±2.6": the loss, and the margin of doubt that keeps it from a harsher verdict. */
function lossText(decision) {
  if (decision.forced || decision.loss < 0.05) return "—";
  const margin = MARGIN * (decision.noise || 0);
  return margin >= 0.05 ? `${decision.loss.toFixed(1)} ±${margin.toFixed(1)}` : decision.loss.toFixed(1);
}

/** A review (GET /api/match/coach, POST /api/coach) as a summary line and a table. */
export function renderReview(review) {
  const counted = review.decisions.filter((d) => !d.forced);
  const counts = review.verdicts || {};
  const bad = (counts.mistake || 0) + (counts.blunder || 0);
  const summary = counted.length
    ? `Accuracy ${Math.round(review.accuracy)} · on average ${points(review.average_loss)} given away per decision · ${bad ? `${bad} mistake${bad === 1 ? "" : "s"} or worse` : "no mistakes"}.`
    : "Every play was forced in this hand.";
  const table = h("table", { class: "coach-table" });
  table.appendChild(h("thead", {}, h("tr", {},
    h("th", { scope: "col", text: "Decision" }),
    h("th", { scope: "col", text: "Played" }),
    h("th", { scope: "col", text: "Verdict" }),
    h("th", { scope: "col", text: "Better" }),
    h("th", { scope: "col", text: "Lost" }),
  )));
  const body = h("tbody");
  for (const decision of review.decisions) {
    const better = decision.loss > 0 && decision.best.join() !== decision.made.join();
    const verdict = decision.forced ? "Only card" : VERDICT_TEXT[decision.verdict] || decision.verdict;
    const row = h("tr", { class: `coach-${decision.forced ? "forced" : decision.verdict}`, dataset: { kind: decision.kind, verdict: decision.verdict } },
      h("th", { scope: "row", text: what(decision) }),
      h("td", {}, choice(decision, decision.made)),
      h("td", { class: "coach-verdict", text: verdict }),
      h("td", {}, better ? choice(decision, decision.best) : h("span", { text: "—" })),
      h("td", { class: "coach-loss", text: lossText(decision) }),
    );
    body.appendChild(row);
  }
  table.appendChild(body);
  return h("div", { class: "coach-review" },
    h("p", { class: "coach-summary", text: summary }),
    h("div", { class: "coach-scroll" }, table),
    h("p", { class: "coach-note", text: "Lost: the points the better choice would have saved on average (your points, less a share of the others'), give or take the coach's margin of doubt. A verdict counts only what is lost beyond that margin: an inaccuracy from 1 point, a mistake from 3, a blunder from 8." }),
  );
}
