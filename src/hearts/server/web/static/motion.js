// Motion and sound: presentation only. The server's state is always what is
// drawn; this module only animates the change from one drawn state to the
// next (a card travelling from its player to the trick, a finished trick
// gathering toward its winner, the pass leaving and arriving, the deal), and
// plays a short sound for some of them. States wait in a queue while a
// motion runs, so none is lost or shown out of order; a reconnect, or a queue
// that has fallen behind, skips the motion and draws the state at once.
//
// Timings (milliseconds) follow the table's pace; with the system's
// prefers-reduced-motion, or the page's own Motion option off, there is none.

import { centreTrick, isMyTurn } from "./model.js";
import { normCard } from "./cards.js";

export const TIMINGS = {
  relaxed: { play: 320, gather: 420, pass: 420, dealStep: 28, deal: 300 },
  quick: { play: 170, gather: 220, pass: 240, dealStep: 14, deal: 160 },
};

const reduced = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : null;

/** Whether to animate at all: the system's setting, then the page's Motion option. */
export function motionOn() {
  if (reduced && reduced.matches) return false;
  return !document.documentElement.classList.contains("no-motion");
}

export function timings(table) {
  return TIMINGS[table && table.pace === "quick" ? "quick" : "relaxed"];
}

const byId = (id) => document.getElementById(id);
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function centreOf(node) {
  if (!node) return null;
  const r = node.getBoundingClientRect();
  if (!r.width && !r.height) return null;
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/** Where a seat's cards come from and go to: its panel (the hand for the viewer). */
function seatPoint(seat) {
  return centreOf(seat === 0 ? byId("hand") : byId(`seat-${seat}`)) || centreOf(byId(`seat-${seat}`));
}

/** Moves `el` from `from` (a point) to where it is drawn now. */
function flyIn(el, from, ms, delay = 0) {
  const to = centreOf(el);
  if (!to || !from || typeof el.animate !== "function") return;
  const dx = from.x - to.x, dy = from.y - to.y;
  el.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(.8)`, opacity: 0.4 }, { transform: "none", opacity: 1 }],
    { duration: ms, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" },
  );
}

/** Copies of `els` that travel to `to` and vanish (the real ones are about to be redrawn). */
function flyAway(els, to, ms) {
  if (!to) return;
  for (const el of els) {
    const r = el.getBoundingClientRect();
    if (!r.width) continue;
    // A picture of the card, not a control: no focus, no name, no card data.
    const ghost = document.createElement("span");
    ghost.className = el.className;
    for (const svgNode of el.querySelectorAll("svg")) ghost.appendChild(svgNode.cloneNode(true));
    ghost.setAttribute("aria-hidden", "true");
    ghost.classList.add("ghost");
    Object.assign(ghost.style, { position: "fixed", left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px`, margin: "0", zIndex: "50", pointerEvents: "none" });
    document.body.appendChild(ghost);
    const dx = to.x - (r.left + r.width / 2), dy = to.y - (r.top + r.height / 2);
    if (typeof ghost.animate === "function") {
      ghost.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.5)`, opacity: 0 }],
        { duration: ms, easing: "ease-in", fill: "forwards" });
    }
    setTimeout(() => ghost.remove(), ms + 30);
  }
}

/** The identity of the trick shown in the centre: which hand, which trick, how many cards. */
function trickKey(t) {
  const c = centreTrick(t);
  if (!c) return "";
  const count = Array.isArray(t.tricks) ? t.tricks.length : 0;
  return `${t.match_id ?? t.code}/${t.hand_number}/${count}/${c.cards.length}`;
}

// ---- sound -----------------------------------------------------------------------

let audio = null;
const SOUNDS = {
  play: [[520, 0.05, 0.05]],
  trick: [[330, 0.07, 0.06], [262, 0.08, 0.06]],
  queen: [[196, 0.18, 0.1], [147, 0.3, 0.1]],
  moon: [[523, 0.1, 0.08], [659, 0.1, 0.08], [784, 0.22, 0.08]],
  turn: [[880, 0.06, 0.05], [1175, 0.08, 0.05]],
};

/** A short synthesised sound (no files); nothing unless `on`. */
export function sound(kind, on) {
  if (!on || !SOUNDS[kind]) return;
  try {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    let at = audio.currentTime;
    for (const [freq, length, volume] of SOUNDS[kind]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "triangle";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(volume, at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + length + 0.02);
      at += length * 0.9;
    }
  } catch { /* no sound here */ }
}

// ---- the queue -----------------------------------------------------------------

/**
 * The states, drawn one after another. `draw(msg)` draws a state at once (it
 * is the page's own onState); `options()` says whether sound is on. Each
 * state waits for the motion before it (at most one motion's length).
 */
export class StateQueue {
  constructor(draw, options = () => ({ sound: false })) {
    this.draw = draw;
    this.options = options;
    this.queue = [];
    this.busy = false;
    this.shown = null;      // the table last drawn
    this.jumpNext = true;   // the first state after (re)connecting is drawn as it is
    this.lastPlayed = null; // where the viewer's own card was when clicked
  }

  /** After a reconnect: the next state is drawn straight away, without motion. */
  jump() { this.jumpNext = true; }

  /** Remember where the viewer's card was (it leaves the hand before it reaches the trick). */
  notePlayed(el) { this.lastPlayed = centreOf(el); }

  push(msg) {
    this.queue.push(msg);
    if (!this.busy) this.drain();
  }

  async drain() {
    this.busy = true;
    try {
      while (this.queue.length) {
        const msg = this.queue.shift();
        const next = msg && msg.table && typeof msg.table === "object" ? msg.table : null;
        const prev = this.shown;
        const animate = motionOn() && !this.jumpNext && this.queue.length < 3 && !!prev && !!next;
        this.jumpNext = false;
        if (animate) await this.before(prev, next);
        this.draw(msg);
        this.shown = next;
        this.after(prev, next, animate);
      }
    } finally {
      this.busy = false;
    }
  }

  /** Before drawing `next`: a finished trick that is about to go gathers toward its winner. */
  async before(prev, next) {
    const shown = centreTrick(prev);
    if (!shown || !shown.finished || trickKey(prev) === trickKey(next)) return;
    const cards = [...document.querySelectorAll("#trick .slot .card")];
    if (!cards.length || !Number.isInteger(shown.winner)) return;
    const ms = timings(next).gather;
    flyAway(cards, seatPoint(shown.winner), ms);
    for (const c of cards) c.style.visibility = "hidden";
    await wait(ms);
  }

  /** After drawing `next`: new cards fly in, received cards arrive, a new deal is dealt; sounds. */
  after(prev, next, animate) {
    const on = !!this.options().sound;
    if (!prev || !next) return;
    const t = timings(next);
    const sameHand = prev.hand_number === next.hand_number && (prev.match_id ?? prev.code) === (next.match_id ?? next.code);
    // Plays: what is in the centre now and was not before.
    const before = new Map(sameHand && centreTrick(prev) && !centreTrick(prev).finished
      ? centreTrick(prev).cards.map(([s, c]) => [s, c]) : []);
    const now = centreTrick(next);
    let newPlays = [];
    if (now && sameHand && trickKey(prev) !== trickKey(next)) {
      newPlays = now.cards.filter(([s, c]) => before.get(s) !== c);
    }
    newPlays.forEach(([seat, card], i) => {
      if (animate) {
        const el = document.querySelector(`#trick .slot-${seat} .card`);
        const from = seat === 0 && this.lastPlayed ? this.lastPlayed : seatPoint(seat);
        if (el) flyIn(el, from, t.play, i * Math.round(t.play * 0.6));
      }
      sound(normCard(card) === "QS" ? "queen" : "play", on);
    });
    if (newPlays.some(([s]) => s === 0)) this.lastPlayed = null;
    if (now && now.finished && newPlays.length) setTimeout(() => sound("trick", on), t.play);
    // The pass: the three received cards arrive from their giver.
    const got = Array.isArray(next.received) && next.received.length && !(Array.isArray(prev.received) && prev.received.length);
    if (got && sameHand && animate) {
      const from = Number.isInteger(next.received_from) ? seatPoint(next.received_from) : null;
      document.querySelectorAll("#hand .card.received").forEach((el, i) => flyIn(el, from, t.pass, i * 60));
    }
    // A new hand: the cards are dealt from the middle of the table.
    if (!sameHand && animate) {
      const from = centreOf(byId("trick"));
      document.querySelectorAll("#hand .card").forEach((el, i) => flyIn(el, from, t.deal, i * t.dealStep));
    }
    if (next.last_hand && Number.isInteger(next.last_hand.shooter) && (next.phase === "hand_over" || next.phase === "match_over")
        && !(prev.phase === "hand_over" || prev.phase === "match_over")) sound("moon", on);
    if (isMyTurn(next) && !isMyTurn(prev)) sound("turn", on);
  }

  /** The pass confirmed: the chosen cards leave toward the receiver. */
  passAway(table, cards) {
    if (!motionOn() || !table || !Number.isInteger(table.pass_to)) return;
    const els = cards.map((c) => document.querySelector(`#hand [data-card="${c}"]`)).filter(Boolean);
    flyAway(els, seatPoint(table.pass_to), timings(table).pass);
  }
}
