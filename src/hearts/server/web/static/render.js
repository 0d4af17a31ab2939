// Drawing the table from the server's `table`. Text always goes in with
// textContent; the DOM is built with createElement, never from HTML strings.

import { cardBack, cardFace, cardLabel, cardName, cardShort, normCard, sortCards, suitClass } from "./cards.js";
import { motionOn } from "./motion.js";
import { arr4, cardsTaken, centreTrick, completedTricks, isMyTurn, isViewer, players, SEAT_PLACES, whoIs } from "./model.js";

export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children) if (child) node.appendChild(child);
  return node;
}

/** A face-up card that is not a control (on the table, in reviews). */
export function staticCard(card, label) {
  const c = normCard(card);
  const node = h("span", { class: `card static ${suitClass(c)}`, role: "img", "aria-label": label || cardName(c), dataset: { card: c || "" } });
  node.appendChild(cardFace(c));
  return node;
}

/** A short inline text of cards, "Q♠ 3♥", coloured by suit. */
export function cardList(cards) {
  const span = h("span", { class: "card-list" });
  const list = sortCards(cards);
  if (!list.length) { span.textContent = "—"; return span; }
  list.forEach((c, i) => {
    if (i) span.appendChild(document.createTextNode(" "));
    span.appendChild(h("span", { class: `mini ${suitClass(c)}`, title: cardName(c), text: cardShort(c) }));
  });
  return span;
}

// ---- seats -------------------------------------------------------------------

/**
 * Each seat's points this hand: the cards taken while it is played, and once
 * it is scored the hand's score (a moon applied), as the summary shows it.
 */
export function handPoints(table) {
  const scored = table.phase === "hand_over" || table.phase === "match_over";
  const lh = table.last_hand;
  if (scored && lh && Array.isArray(lh.points)) return arr4(lh.points);
  return arr4(table.points_taken);
}

export function renderSeat(node, seat, table) {
  const names = players(table);
  const left = arr4(table.cards_left, 13)[seat];
  const points = handPoints(table)[seat];
  const total = arr4(table.totals)[seat];
  const turn = table.phase === "playing" && table.turn === seat;
  const mine = isViewer(table, seat);
  node.classList.toggle("turn", turn);
  node.replaceChildren();
  const head = h("div", { class: "seat-head" },
    h("h2", { class: "seat-name", text: names[seat] }),
    turn ? h("span", { class: "badge turn-badge", text: mine ? "Your turn" : "To play" }) : null);
  node.appendChild(head);
  if (!mine) {
    // The backs fanned, one per card held; the count in words beside them.
    const stack = h("div", { class: "seat-cards", dataset: { count: String(left) } });
    const fan = h("span", { class: "fan", "aria-hidden": "true" });
    const shown = Math.max(0, Math.min(left, 13));
    for (let i = 0; i < shown; i++) {
      const back = h("span", { class: "card back" });
      back.style.left = `calc(${i} * var(--fan-step, 4px))`;
      back.appendChild(cardBack());
      fan.appendChild(back);
    }
    stack.appendChild(fan);
    stack.appendChild(h("span", { class: "seat-left", text: `${left} card${left === 1 ? "" : "s"}` }));
    node.appendChild(stack);
  }
  const scores = h("p", { class: "seat-scores" },
    h("span", { class: "seat-points", text: `This hand: ${points}` }),
    h("span", { class: "seat-total", text: `Total: ${total}` }));
  node.appendChild(scores);
  // One status line, always there (so the panel keeps its size): who has chosen a pass.
  const status = h("p", { class: "seat-status" });
  // Someone who only watches has no pass_to of their own, but sees who has chosen.
  if (!mine && table.phase === "passing" && (Number.isInteger(table.pass_to) || (table.pass_direction && table.pass_direction !== "hold"))) {
    const done = arr4(table.pass_confirmed, false)[seat];
    status.classList.add("pass-status");
    status.classList.toggle("ready", !!done);
    status.textContent = done ? "Pass chosen" : "Choosing a pass…";
  }
  node.appendChild(status);
  node.setAttribute("aria-label", `${names[seat]}, ${mine ? "you" : SEAT_PLACES[seat]}${turn ? ", to play" : ""}`);
}

// ---- the centre ----------------------------------------------------------------

export function renderTrick(node, table) {
  const names = players(table);
  node.replaceChildren();
  const trick = centreTrick(table);
  const bySeat = new Map((trick ? trick.cards : []).map(([s, c]) => [s, c]));
  for (const seat of [2, 1, 3, 0]) {
    const slot = h("div", { class: `slot slot-${seat}`, dataset: { seat: String(seat) } });
    const card = bySeat.get(seat);
    if (card) {
      const who = whoIs(table, seat, names);
      const el = staticCard(card, `${who}: ${cardName(card, false)}`);
      if (trick.finished && trick.winner === seat) el.classList.add("winner");
      if (trick.leader === seat) el.classList.add("led");
      slot.appendChild(el);
    }
    node.appendChild(slot);
  }
  if (trick && trick.finished && Number.isInteger(trick.winner)) {
    const who = isViewer(table, trick.winner) ? "You take" : `${names[trick.winner]} takes`;
    node.appendChild(h("p", { class: "trick-result", text: `${who} the trick${trick.points ? ` (${trick.points} point${trick.points === 1 ? "" : "s"})` : ""}` }));
  }
  node.dataset.count = String(bySeat.size);
}

// ---- your hand -----------------------------------------------------------------

/**
 * Whether the cards received in the pass are marked "new": until Continue in
 * solo play; at a shared table (no Continue) until the player's first card.
 */
export function receivedShown(table) {
  if (table.awaiting_continue || table.phase === "passing") return true;
  return table.kind === "shared" && table.phase === "playing" && Array.isArray(table.hand) && table.hand.length === 13;
}

/**
 * Draws the hand with a roving tabindex; keeps focus on the same card (or
 * its neighbour) across redraws. `ui` holds local view state: selection,
 * hint, focusCard.
 */
export function renderHand(node, table, ui) {
  const hadFocus = node.contains(document.activeElement);
  const focusedCard = hadFocus ? document.activeElement.dataset.card : null;
  const oldCards = [...node.querySelectorAll("[data-card]")].map((b) => b.dataset.card);
  // Where each card was, so the ones that stay can slide to their new place.
  const wasAt = new Map(motionOn()
    ? [...node.querySelectorAll("[data-card]")].map((b) => [b.dataset.card, b.getBoundingClientRect().left]) : []);
  const cards = sortCards(table.hand);
  const legal = new Set(sortCards(table.legal));
  const received = new Set(receivedShown(table) ? sortCards(table.received) : []);
  const hint = new Set(ui.hint || []);
  const passing = table.phase === "passing" && Number.isInteger(table.pass_to);
  const confirmed = Array.isArray(table.passed) && table.passed.length > 0;
  const playing = table.phase === "playing" && !table.awaiting_continue;
  node.replaceChildren();
  node.classList.toggle("passing", passing);
  node.classList.toggle("my-turn", isMyTurn(table) && !table.awaiting_continue);
  cards.forEach((c) => {
    const selected = passing && !confirmed && ui.selection.has(c);
    const passedCard = passing && confirmed && table.passed.map(normCard).includes(c);
    let unavailable;
    if (passing) unavailable = confirmed;
    else if (playing) unavailable = !(isMyTurn(table) && legal.has(c));
    else unavailable = true;
    const btn = h("button", {
      type: "button",
      class: `card ${suitClass(c)}`,
      "aria-label": cardLabel(c),
      "aria-pressed": passing && !confirmed ? String(selected) : null,
      "aria-disabled": unavailable ? "true" : null,
      "aria-describedby": received.has(c) ? "desc-received" : (hint.has(c) ? "desc-hint" : null),
      tabindex: "-1",
      dataset: { card: c },
    });
    btn.classList.toggle("selected", selected || passedCard);
    btn.classList.toggle("unavailable", unavailable);
    btn.classList.toggle("received", received.has(c));
    btn.classList.toggle("hinted", hint.has(c));
    btn.appendChild(cardFace(c));
    // A received card says "new" in a badge drawn by CSS (its description says it in words).
    node.appendChild(btn);
  });
  node.appendChild(h("span", { id: "desc-received", class: "visually-hidden", text: "received in the pass" }));
  node.appendChild(h("span", { id: "desc-hint", class: "visually-hidden", text: "suggested" }));

  const buttons = [...node.querySelectorAll("button[data-card]")];
  if (!buttons.length) return;
  let target = buttons.find((b) => b.dataset.card === (focusedCard || ui.focusCard));
  if (!target && (focusedCard || ui.focusCard)) {
    // The card left the hand (played): go to the card now in its place.
    const idx = Math.max(0, oldCards.indexOf(focusedCard || ui.focusCard));
    target = buttons[Math.min(idx, buttons.length - 1)];
  }
  if (!target) target = buttons.find((b) => b.getAttribute("aria-disabled") !== "true") || buttons[0];
  target.tabIndex = 0;
  ui.focusCard = target.dataset.card;
  layoutHand(node);
  if (wasAt.size) {
    for (const btn of buttons) {
      const before = wasAt.get(btn.dataset.card);
      if (before === undefined || typeof btn.animate !== "function") continue;
      const dx = before - btn.getBoundingClientRect().left;
      if (Math.abs(dx) > 1) btn.animate([{ translate: `${dx}px 0` }, { translate: "0 0" }], { duration: 180, easing: "ease-out" });
    }
  }
  if (hadFocus) target.focus({ preventScroll: true });
}

/** The hand when it is full: its row count is worked out for 13 cards, so it never changes mid-hand. */
const FULL_HAND = 13;
/** Below this much of each card showing, the hand takes two rows (docs/ui.md). */
const MIN_STRIP = 28;

/**
 * Places the cards of the hand: one overlapping row using the width, or two
 * rows on a narrow screen. The box's height depends only on its width and
 * the card size, never on how many cards are left, so nothing around it moves.
 */
export function layoutHand(node) {
  const cards = [...node.querySelectorAll(".card")];
  const width = node.clientWidth;
  const probe = cards[0] || null;
  let w, hgt;
  if (probe) { w = probe.offsetWidth; hgt = probe.offsetHeight; }
  else {
    const sample = document.createElement("span");
    sample.className = "card";
    node.appendChild(sample);
    w = sample.offsetWidth; hgt = sample.offsetHeight;
    sample.remove();
  }
  if (!width || !w) return;
  const rise = 18;
  const twoRows = (width - w) / (FULL_HAND - 1) < MIN_STRIP;
  const rowGap = Math.round(hgt * 0.5);
  node.style.height = `${Math.round(rise + hgt + (twoRows ? rowGap : 0) + 4)}px`;
  node.classList.toggle("two-rows", twoRows);
  const n = cards.length;
  const rows = twoRows && n > 1 ? [cards.slice(0, Math.ceil(n / 2)), cards.slice(Math.ceil(n / 2))] : [cards];
  rows.forEach((row, r) => {
    const k = row.length;
    const step = k > 1 ? Math.min(w * 0.72, (width - w) / (k - 1)) : 0;
    const start = (width - ((k - 1) * step + w)) / 2;
    row.forEach((card, i) => {
      card.style.left = `${Math.round(start + i * step)}px`;
      card.style.top = `${rise + r * rowGap}px`;
      card.style.zIndex = String(r * 20 + i + 1);
    });
  });
}

// ---- summary and review ------------------------------------------------------

export function renderSummary(table, els) {
  const names = players(table);
  const lh = table.last_hand || {};
  const pts = Array.isArray(lh.points) ? arr4(lh.points) : arr4(table.points_taken);
  const totals = arr4(table.totals);
  const taken = cardsTaken(table);
  els.body.replaceChildren();
  for (let s = 0; s < 4; s++) {
    const row = h("tr", { dataset: { seat: String(s) } },
      h("th", { scope: "row", text: names[s] }),
      h("td", {}, cardList(taken[s])),
      h("td", { class: "num", text: String(pts[s]) }),
      h("td", { class: "num", text: String(totals[s]) }));
    if (Number.isInteger(table.winner) && table.winner === s) row.classList.add("winner-row");
    els.body.appendChild(row);
  }
  const shooter = lh.shooter;
  els.moon.hidden = !Number.isInteger(shooter);
  if (Number.isInteger(shooter)) {
    els.moon.textContent = isViewer(table, shooter)
      ? "You shot the moon! Everyone else takes 26 points."
      : `${names[shooter]} shot the moon: 0 for ${names[shooter]}, 26 for everyone else.`;
  }
  els.title.textContent = Number.isInteger(table.hand_number) ? `Hand ${table.hand_number} is over` : "Hand over";
}

export function renderReview(list, table, onlyLast) {
  const names = players(table);
  const done = completedTricks(table);
  const shown = onlyLast ? done.slice(-1) : done;
  const first = done.length - shown.length;
  list.replaceChildren();
  shown.forEach((t, i) => {
    const n = first + i + 1;
    const item = h("li", { class: "review-trick", dataset: { trick: String(n) } });
    item.appendChild(h("h3", { text: `Trick ${n}` }));
    const cards = h("div", { class: "review-cards" });
    for (const [seat, card] of t.cards) {
      const who = whoIs(table, seat, names);
      const fig = h("figure", { class: `review-card ${t.winner === seat ? "won" : ""}` });
      fig.appendChild(staticCard(card, `${who}: ${cardName(card, false)}`));
      fig.appendChild(h("figcaption", { text: who, "aria-hidden": "true" }));
      cards.appendChild(fig);
    }
    item.appendChild(cards);
    const leader = Number.isInteger(t.leader) ? whoIs(table, t.leader, names) : "?";
    const winner = Number.isInteger(t.winner) ? (isViewer(table, t.winner) ? "you" : names[t.winner]) : "?";
    item.appendChild(h("p", { class: "review-line",
      text: `Led by ${leader}, won by ${winner}, ${t.points} point${t.points === 1 ? "" : "s"}.` }));
    list.appendChild(item);
  });
  return shown.length;
}

// ---- the score sheet -------------------------------------------------------------

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  return node;
}

/** Each hand's points per seat, from the state (`hand_points`), skipping anything malformed. */
export function handHistory(table) {
  const raw = Array.isArray(table && table.hand_points) ? table.hand_points : [];
  return raw.filter((row) => Array.isArray(row) && row.length === 4).map((row) => arr4(row));
}

/**
 * The score sheet: the running totals after every hand so far (each hand's
 * points beside them), then a small chart of the four totals over the hands.
 */
export function renderScoreSheet(node, table, label = "Totals after each hand") {
  const names = players(table);
  const hands = handHistory(table);
  node.replaceChildren();
  if (!hands.length) {
    node.appendChild(h("p", { class: "sheet-empty", text: "No hand has been scored yet in this match." }));
    return;
  }
  const running = [];
  let sum = [0, 0, 0, 0];
  for (const row of hands) {
    sum = sum.map((v, s) => v + row[s]);
    running.push(sum);
  }
  const tableNode = h("table", { class: "sheet-table" });
  tableNode.appendChild(h("caption", { class: "visually-hidden", text: "Totals after each hand, with the hand's points" }));
  const headRow = h("tr", {}, h("th", { scope: "col", text: "Hand" }));
  names.forEach((n, s) => headRow.appendChild(h("th", { scope: "col", text: isViewer(table, s) ? "You" : n })));
  tableNode.appendChild(h("thead", {}, headRow));
  const body = h("tbody");
  hands.forEach((row, i) => {
    const tr = h("tr", {}, h("th", { scope: "row", text: String(i + 1) }));
    for (let s = 0; s < 4; s++) {
      const pts = row[s];
      tr.appendChild(h("td", {}, document.createTextNode(String(running[i][s])),
        h("span", { class: "sheet-hand", text: ` (${pts >= 0 ? "+" : ""}${pts})` })));
    }
    body.appendChild(tr);
  });
  tableNode.appendChild(body);
  const wrap = h("div", { class: "sheet-wrap", tabindex: "0", role: "region", "aria-label": label });
  wrap.appendChild(tableNode);
  node.appendChild(wrap);
  node.appendChild(scoreChart(running, names, table));
}

function scoreChart(running, names, table) {
  const target = table && table.rules && Number.isFinite(table.rules.target) ? table.rules.target : 100;
  const W = 320, H = 150, L = 30, R = 8, T = 8, B = 22;
  const all = running.flat();
  const top = Math.max(target, ...all, 10);
  const bottom = Math.min(0, ...all);
  const x = (i) => L + (running.length ? (i * (W - L - R)) / running.length : 0);
  const y = (v) => T + ((top - v) * (H - T - B)) / (top - bottom || 1);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "sheet-chart", role: "img",
    "aria-label": `Totals over ${running.length} hand${running.length === 1 ? "" : "s"}: ` +
      names.map((n, s) => `${isViewer(table, s) ? "you" : n} ${running[running.length - 1][s]}`).join(", ") });
  chart.appendChild(svg("line", { x1: L, y1: y(target), x2: W - R, y2: y(target), class: "grid" }));
  const label = svg("text", { x: 2, y: y(target) + 4 });
  label.textContent = String(target);
  chart.appendChild(label);
  const zero = svg("text", { x: 2, y: y(0) + 4 });
  zero.textContent = "0";
  chart.appendChild(zero);
  chart.appendChild(svg("line", { x1: L, y1: y(bottom), x2: W - R, y2: y(bottom), class: "axis" }));
  chart.appendChild(svg("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" }));
  running.forEach((_, i) => {
    const t = svg("text", { x: x(i + 1) - 3, y: H - 6 });
    t.textContent = String(i + 1);
    chart.appendChild(t);
  });
  for (let s = 0; s < 4; s++) {
    const points = [[x(0), y(0)], ...running.map((r, i) => [x(i + 1), y(r[s])])];
    chart.appendChild(svg("polyline", { points: points.map((p) => p.join(",")).join(" "), class: `line seat-line-${s}` }));
  }
  const figure = h("figure", { class: "sheet-figure" });
  figure.appendChild(chart);
  const legend = h("ul", { class: "sheet-legend", "aria-hidden": "true" });
  names.forEach((n, s) => legend.appendChild(h("li", {}, h("span", { class: `key seat-line-${s}` }), document.createTextNode(isViewer(table, s) ? "You" : n))));
  figure.appendChild(legend);
  return figure;
}
