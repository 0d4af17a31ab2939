// The replay viewer: a record goes to POST /api/replay; the frames that come
// back are stepped through with Previous/Next or the arrow keys.

import { cardName } from "./cards.js";
import { coachHand, setupCoach } from "./coach.js";
import { DEFAULT_PLAYERS } from "./model.js";
import { h, staticCard } from "./render.js";
import { buildSteps, normFrames, remaining } from "./replay-model.js";
import { postJSON } from "./session.js";

const $ = (id) => document.getElementById(id);
const DIRECTION_TEXT = { left: "to the left", right: "to the right", across: "across" };

let names = [...DEFAULT_PLAYERS];
let hands = [];
let steps = [];
let index = 0;

function showError(text) { $("replay-error").textContent = text; }

async function readInput() {
  const file = $("replay-file").files && $("replay-file").files[0];
  if (file) return file.text();
  return $("replay-json").value;
}

async function load(event) {
  event.preventDefault();
  showError("");
  let text;
  try { text = await readInput(); } catch { showError("That file could not be read."); return; }
  let record;
  try { record = JSON.parse(text); } catch { showError("This is not JSON. A record is a JSON document starting with {\"format\": \"hearts-record/1\", …}."); return; }
  // postJSON adds the CSRF header every POST needs (and refreshes it once if stale).
  const answer = await postJSON("/api/replay", record);
  if (answer.status === 0) {
    showError("The server could not be reached.");
    return;
  }
  const body = answer.body;
  if (!answer.ok) {
    const reason = body && (typeof body.detail === "string" ? body.detail : typeof body.message === "string" ? body.message : typeof body.error === "string" ? body.error : null);
    showError(reason ? `This record is not valid: ${reason}` : `This record could not be replayed (HTTP ${answer.status}).`);
    return;
  }
  const players = (body && Array.isArray(body.players) ? body.players : null) || (Array.isArray(record.players) ? record.players : null);
  names = DEFAULT_PLAYERS.map((d, i) => (players && typeof players[i] === "string" && players[i]) ? players[i] : d);
  hands = normFrames(body);
  steps = buildSteps(hands);
  if (!steps.length) { showError("This record has no hands to show."); return; }
  index = 0;
  $("replay-view").hidden = false;
  setupCoach($("replay-coach"), record, names);
  draw();
  $("btn-next").focus();
}

function seatBox(seat, cards, opts) {
  const box = h("section", { class: "replay-seat", dataset: { seat: String(seat) } });
  box.appendChild(h("h3", { text: `${names[seat]}${opts.note ? ` — ${opts.note}` : ""}` }));
  const row = h("div", { class: "cards", role: "list", "aria-label": `${names[seat]}'s cards` });
  if (opts.hidden) {
    row.appendChild(h("span", { text: `${cards.length} cards, hidden until the hand is over` }));
  } else {
    for (const c of cards) {
      const label = cardName(c) + (opts.passed && opts.passed.includes(c) ? " (passed)" : "") + (opts.received && opts.received.includes(c) ? " (received)" : "");
      const card = staticCard(c, label);
      card.setAttribute("role", "listitem");
      card.setAttribute("aria-label", label);
      if (opts.passed && opts.passed.includes(c)) card.classList.add("passed");
      if (opts.received && opts.received.includes(c)) card.classList.add("passed");
      row.appendChild(card);
    }
  }
  box.appendChild(row);
  return box;
}

function drawTrick(trick) {
  const node = $("replay-trick");
  node.replaceChildren();
  const bySeat = new Map((trick ? trick.cards : []).map(([s, c]) => [s, c]));
  for (const seat of [2, 1, 3, 0]) {
    const slot = h("div", { class: `slot slot-${seat}`, dataset: { seat: String(seat) } });
    const c = bySeat.get(seat);
    if (c) {
      const card = staticCard(c, `${names[seat]}: ${cardName(c, false)}`);
      if (trick.winner === seat) card.classList.add("winner");
      slot.appendChild(card);
    }
    node.appendChild(slot);
  }
}

/** "You lead", "Robin leads": the verb agrees with its subject. */
function verb(subject, third, plain) {
  return subject === "You" ? plain : third;
}

function draw() {
  const step = steps[index];
  const hand = hands[step.hand];
  const pos = `Hand ${hand.number}`;
  let title, caption = "";
  const seatsNode = $("replay-hands");
  seatsNode.replaceChildren();
  if (step.kind === "deal") {
    title = `${pos}: the deal`;
    caption = hand.passes ? `Each player will pass three cards ${DIRECTION_TEXT[hand.direction] || ""}.` : "No pass this hand.";
    drawTrick(null);
    for (let s = 0; s < 4; s++) seatsNode.appendChild(seatBox(s, hand.deal[s], { hidden: s !== 0 }));
  } else if (step.kind === "pass") {
    title = `${pos}: the pass`;
    caption = `Cards passed ${DIRECTION_TEXT[hand.direction] || ""}; the outlined ones went out or came in.`;
    drawTrick(null);
    const passed = hand.passes[0] || [];
    seatsNode.appendChild(seatBox(0, hand.deal[0], { passed, note: "passed" }));
    seatsNode.appendChild(seatBox(0, hand.holdings[0], { received: hand.received[0], note: "after the pass" }));
  } else if (step.kind === "trick") {
    const t = hand.tricks[step.trick];
    title = `${pos}, trick ${step.trick + 1} of ${hand.tricks.length}`;
    const leader = Number.isInteger(t.leader) ? names[t.leader] : "?";
    const winner = Number.isInteger(t.winner) ? names[t.winner] : null;
    caption = `${leader} ${verb(leader, "leads", "lead")}. ` + t.cards.map(([s, c]) => `${names[s]}: ${cardName(c, false)}`).join(", ") + "." +
      (winner ? ` ${winner} ${verb(winner, "wins", "win")} it (${t.points} point${t.points === 1 ? "" : "s"}).` : "");
    drawTrick(t);
    const left = remaining(hand, step.trick);
    for (let s = 0; s < 4; s++) seatsNode.appendChild(seatBox(s, left[s], { hidden: s !== 0 }));
  } else {
    title = `${pos} is over`;
    const pts = hand.points.map((p, s) => `${names[s]} ${p}`).join(", ");
    const tot = step.totals.map((p, s) => `${names[s]} ${p}`).join(", ");
    const moon = Number.isInteger(hand.shooter) ? `${names[hand.shooter]} shot the moon! ` : "";
    caption = hand.complete ? `${moon}Points this hand: ${pts}. Totals: ${tot}.` : "This hand was not finished in the record.";
    drawTrick(hand.tricks[hand.tricks.length - 1] || null);
    for (let s = 0; s < 4; s++) {
      seatsNode.appendChild(seatBox(s, hand.holdings[s], { received: hand.received[s], note: `${hand.points[s]} points — the cards held after the pass` }));
    }
  }
  $("replay-pos").textContent = title;
  $("replay-caption").textContent = caption;
  $("btn-prev").disabled = index === 0;
  $("btn-next").disabled = index === steps.length - 1;
  coachHand(hand.number, hand.complete);
  $("replay-view").dataset.step = String(index);
  $("replay-view").dataset.kind = step.kind;
}

function go(delta) {
  const next = Math.max(0, Math.min(steps.length - 1, index + delta));
  if (next === index) return;
  index = next;
  draw();
  const focusTarget = $(delta < 0 ? "btn-prev" : "btn-next");
  if (document.activeElement && document.activeElement.disabled) focusTarget.focus();
  if (focusTarget.disabled) $(delta < 0 ? "btn-next" : "btn-prev").focus();
}

$("replay-form").addEventListener("submit", load);
$("btn-prev").addEventListener("click", () => go(-1));
$("btn-next").addEventListener("click", () => go(1));
document.addEventListener("keydown", (event) => {
  if (!steps.length || $("replay-view").hidden) return;
  const tag = event.target && event.target.tagName;
  if (tag === "TEXTAREA" || tag === "INPUT") return;
  if (event.key === "ArrowLeft") { event.preventDefault(); go(-1); }
  if (event.key === "ArrowRight") { event.preventDefault(); go(1); }
  if (event.key === "Home") { event.preventDefault(); go(-index); }
  if (event.key === "End") { event.preventDefault(); go(steps.length); }
});
// The file input replaces the pasted text as the source, and the other way round.
$("replay-file").addEventListener("change", () => { if ($("replay-file").files.length) $("replay-json").value = ""; });
$("replay-json").addEventListener("input", () => { $("replay-file").value = ""; });
