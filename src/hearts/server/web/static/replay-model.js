// Turning the frames of POST /api/replay into steps to show. Pure: no DOM.
// Frames (docs/protocol.md): {hands: [{deal, passes, tricks, points}]}.
// Anything missing is derived where it can be (tricks from `plays`, seats
// from the deal and the pass, points from the cards taken).

import { cardPoints, normCard, sortCards } from "./cards.js";
import { normTrick, trickWinner } from "./model.js";

const CYCLE = ["left", "right", "across", "hold"];
const OFFSET = { left: 1, right: 3, across: 2 }; // receiver = (seat + offset) % 4

function cards4(value) {
  const a = Array.isArray(value) ? value : [];
  return [0, 1, 2, 3].map((i) => sortCards(Array.isArray(a[i]) ? a[i] : []));
}

function passesOf(hand) {
  const p = hand.passes !== undefined ? hand.passes : hand.pass;
  if (!Array.isArray(p)) return null;
  return [0, 1, 2, 3].map((i) => (Array.isArray(p[i]) ? sortCards(p[i]) : null));
}

function directionOf(hand, index) {
  const d = hand.direction || hand.pass_direction;
  if (typeof d === "string" && (OFFSET[d] || d === "hold")) return d;
  return CYCLE[index % 4];
}

/** Each seat's cards after the pass. */
export function holdingsAfterPass(deal, passes, direction) {
  const held = deal.map((cards) => new Set(cards));
  if (passes && OFFSET[direction]) {
    for (let s = 0; s < 4; s++) {
      if (!passes[s]) continue;
      const to = (s + OFFSET[direction]) % 4;
      for (const c of passes[s]) { held[s].delete(c); held[to].add(c); }
    }
  }
  return held.map((set) => sortCards([...set]));
}

function tricksOf(hand, holdings) {
  const raw = Array.isArray(hand.tricks) ? hand.tricks : null;
  if (raw && raw.every((t) => normTrick(t).cards.length && (Array.isArray(t.cards) ? t.cards : t).every((x) => Array.isArray(x)))) {
    return raw.map(normTrick);
  }
  // Seats are not given: follow the turn order from the holder of 2C.
  let plays = [];
  if (raw) plays = raw.flatMap((t) => (Array.isArray(t) ? t : (t && Array.isArray(t.cards) ? t.cards : [])).map((x) => normCard(Array.isArray(x) ? x[1] : x)));
  else if (Array.isArray(hand.plays)) plays = hand.plays.map(normCard);
  plays = plays.filter(Boolean);
  const owner = new Map();
  holdings.forEach((cards, s) => cards.forEach((c) => owner.set(c, s)));
  let leader = owner.has("2C") ? owner.get("2C") : 0;
  const tricks = [];
  for (let i = 0; i < plays.length; i += 4) {
    const cards = plays.slice(i, i + 4).map((c, k) => [(leader + k) % 4, c]);
    const winner = cards.length === 4 ? trickWinner(cards) : null;
    tricks.push({ leader, cards, winner, points: cards.reduce((sum, [, c]) => sum + cardPoints(c), 0) });
    if (winner !== null) leader = winner;
  }
  return tricks;
}

/** A normalised hand: deal, passes, direction, holdings, tricks, points. */
export function normHand(hand, index) {
  const h = hand && typeof hand === "object" ? hand : {};
  const deal = cards4(h.deal);
  const passes = passesOf(h);
  const direction = passes ? directionOf(h, index) : "hold";
  let holdings = holdingsAfterPass(deal, passes, direction);
  const tricks = tricksOf(h, holdings);
  // When the seats are known from the tricks, they are the truth.
  const played = [[], [], [], []];
  for (const t of tricks) for (const [s, c] of t.cards) if (s >= 0 && s < 4) played[s].push(c);
  if (played.every((p) => p.length === 13)) holdings = played.map(sortCards);
  let points = Array.isArray(h.points) ? [0, 1, 2, 3].map((i) => Number(h.points[i]) || 0) : null;
  if (!points) {
    points = [0, 0, 0, 0];
    for (const t of tricks) if (Number.isInteger(t.winner)) points[t.winner] += t.points;
  }
  const complete = tricks.length === 13 && tricks.every((t) => t.cards.length === 4);
  const received = [0, 1, 2, 3].map((s) => {
    if (!passes || !OFFSET[direction]) return [];
    const giver = (s + 4 - OFFSET[direction]) % 4;
    return passes[giver] || [];
  });
  const shooter = Number.isInteger(h.shooter) ? h.shooter : null;
  return { number: Number.isInteger(h.number) ? h.number : index + 1, shooter, deal, passes, direction, holdings, received, tricks, points, complete };
}

export function normFrames(frames) {
  const hands = Array.isArray(frames) ? frames : (frames && Array.isArray(frames.hands) ? frames.hands : []);
  return hands.map(normHand);
}

/**
 * The steps of the replay: per hand, the deal, the pass (if any), each
 * trick, and the end of the hand (where every hand is shown).
 */
export function buildSteps(hands) {
  const steps = [];
  const totals = [0, 0, 0, 0];
  hands.forEach((hand, hi) => {
    steps.push({ hand: hi, kind: "deal", trick: -1 });
    if (hand.passes) steps.push({ hand: hi, kind: "pass", trick: -1 });
    hand.tricks.forEach((_, ti) => steps.push({ hand: hi, kind: "trick", trick: ti }));
    for (let s = 0; s < 4; s++) totals[s] += hand.points[s];
    steps.push({ hand: hi, kind: "end", trick: hand.tricks.length - 1, totals: [...totals] });
  });
  return steps;
}

/** Cards each seat still holds after trick `upto` (inclusive) of a hand. */
export function remaining(hand, upto) {
  const gone = new Set();
  hand.tricks.forEach((t, i) => { if (i <= upto) for (const [, c] of t.cards) gone.add(c); });
  return hand.holdings.map((cards) => cards.filter((c) => !gone.has(c)));
}
