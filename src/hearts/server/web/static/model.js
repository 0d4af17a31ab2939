// Pure helpers over the server's `table` (docs/protocol.md): no DOM here, so
// node can test them. Every field may be missing; nothing here throws.

import { cardName, cardPoints, normCard, sortCards, suitOf } from "./cards.js";

export const DEFAULT_PLAYERS = ["You", "Robin", "Alex", "Sam"];
export const SEAT_PLACES = ["South", "West", "North", "East"];

export function players(table) {
  const p = (table && Array.isArray(table.players)) ? table.players : [];
  const seats = (table && Array.isArray(table.seats)) ? table.seats : [];
  const seatName = (i) => (seats[i] && typeof seats[i].name === "string" && seats[i].name) ? seats[i].name : null;
  return DEFAULT_PLAYERS.map((d, i) => (typeof p[i] === "string" && p[i]) ? p[i] : (seatName(i) || (watching(table) ? SEAT_PLACES[i] : d)));
}

/**
 * Someone who only watches (a spectator, or a visitor not seated yet): the
 * table is not rotated for them, so seat 0 is South, not "you".
 */
export function watching(table) {
  return !!table && (table.role === "spectator" || table.role === "visitor");
}

/** Is `seat` the viewer's own? Seat 0 is, unless the viewer only watches. */
export function isViewer(table, seat) {
  return seat === 0 && !watching(table);
}

/** "You" for the viewer's seat, else the player's name. */
export function whoIs(table, seat, names = players(table)) {
  return isViewer(table, seat) ? "You" : (names[seat] || "Someone");
}

/** Does this state hold a match (finished or not)? */
export function hasMatch(table) {
  return !!(table && typeof table === "object" && table.phase && table.match_id !== null);
}

export function isOver(table) {
  return !!table && (table.phase === "match_over" || (table.winner !== null && table.winner !== undefined));
}

export function isActive(table) {
  return hasMatch(table) && !isOver(table);
}

export function arr4(value, fill = 0) {
  const a = Array.isArray(value) ? value : [];
  return [0, 1, 2, 3].map((i) => (a[i] === undefined || a[i] === null ? fill : a[i]));
}

/** A trick normalised to {leader, cards: [[seat, card]], winner, points}. */
export function normTrick(trick) {
  if (!trick || typeof trick !== "object") return { leader: null, cards: [], winner: null, points: 0 };
  const leader = Number.isInteger(trick.leader) ? trick.leader : null;
  const raw = Array.isArray(trick) ? trick : (Array.isArray(trick.cards) ? trick.cards : []);
  const cards = [];
  raw.forEach((item, i) => {
    if (Array.isArray(item) && item.length >= 2) {
      const c = normCard(item[1]);
      if (c) cards.push([Number(item[0]), c]);
    } else {
      const c = normCard(item);
      if (c) cards.push([leader === null ? i : (leader + i) % 4, c]);
    }
  });
  const winner = Number.isInteger(trick.winner) ? trick.winner : (cards.length === 4 ? trickWinner(cards) : null);
  const points = Number.isFinite(trick.points) ? trick.points : cards.reduce((s, [, c]) => s + cardPoints(c), 0);
  return { leader: leader === null && cards.length ? cards[0][0] : leader, cards, winner, points };
}

/** The winner of four [seat, card] pairs: highest of the suit led. */
export function trickWinner(cards) {
  if (!cards.length) return null;
  const led = suitOf(cards[0][1]);
  const order = "23456789TJQKA";
  let best = cards[0];
  for (const pair of cards) {
    if (suitOf(pair[1]) === led && order.indexOf(pair[1][0]) > order.indexOf(best[1][0])) best = pair;
  }
  return best[0];
}

export function tricks(table) {
  return (table && Array.isArray(table.tricks) ? table.tricks : []).map(normTrick);
}

export function completedTricks(table) {
  return tricks(table).filter((t) => t.cards.length === 4);
}

/** What the centre shows: the trick in progress, else the last finished one. */
export function centreTrick(table) {
  const all = tricks(table);
  if (!all.length) return null;
  const last = all[all.length - 1];
  return { ...last, finished: last.cards.length === 4 };
}

/** Penalty cards each seat took this hand, from the tricks. */
export function cardsTaken(table) {
  const taken = [[], [], [], []];
  for (const t of completedTricks(table)) {
    if (t.winner === null || t.winner < 0 || t.winner > 3) continue;
    for (const [, c] of t.cards) if (cardPoints(c) > 0) taken[t.winner].push(c);
  }
  return taken.map(sortCards);
}

export function isMyTurn(table) {
  return !!table && table.phase === "playing" && table.turn === 0 && !watching(table);
}

export function listCards(cards) {
  const names = (cards || []).map((c) => cardName(c, false));
  if (names.length <= 1) return names.join("");
  return names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
}

function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

function playsOf(table) {
  const out = [];
  for (const t of tricks(table)) for (const pair of t.cards) out.push(pair);
  return out;
}

/**
 * Sentences for the live region: what changed from `prev` to `next`.
 * Plays, trick winners, points, received cards, whose turn, the end of a
 * hand and of the match.
 */
export function announcements(prev, next) {
  const out = [];
  if (!hasMatch(next)) return out;
  const names = players(next);
  const who = (seat) => whoIs(next, seat, names);
  const you = (seat) => (isViewer(next, seat) ? "you" : names[seat]);
  const same = hasMatch(prev) && prev.match_id === next.match_id;
  if (!same) {
    if (next.prompt) out.push(next.prompt);
    return out;
  }
  const sameHand = prev.hand_number === next.hand_number;
  if (!sameHand && next.phase !== "match_over") {
    out.push(`Hand ${next.hand_number}.`);
  }
  const before = sameHand ? playsOf(prev) : [];
  const after = playsOf(next);
  if (sameHand && after.length < before.length) {
    out.push("Taken back.");
  } else if (sameHand || after.length) {
    const nextTricks = tricks(next);
    let index = 0;
    for (const t of nextTricks) {
      for (const [seat, card] of t.cards) {
        if (index >= before.length) {
          out.push(isViewer(next, seat) ? `You play ${cardName(card, false)}.` : `${who(seat)} plays ${cardName(card, false)}.`);
        }
        index += 1;
      }
      const prevT = sameHand ? tricks(prev)[nextTricks.indexOf(t)] : null;
      const wasDone = prevT && prevT.winner !== null && prevT.cards.length === 4;
      if (t.cards.length === 4 && t.winner !== null && !wasDone) {
        const pts = t.points ? `, ${plural(t.points, "point")}` : ", no points";
        out.push(`${isViewer(next, t.winner) ? "You win" : who(t.winner) + " wins"} the trick${pts}.`);
      }
    }
  }
  const prevRec = sameHand ? prev.received : null;
  if (Array.isArray(next.received) && next.received.length && !(Array.isArray(prevRec) && prevRec.length)) {
    out.push(`You received ${listCards(sortCards(next.received))}.`);
  }
  if (sameHand && next.phase === "passing") {
    const pc = arr4(next.pass_confirmed, false), pp = arr4(prev.pass_confirmed, false);
    for (let s = watching(next) ? 0 : 1; s < 4; s++) if (pc[s] && !pp[s]) out.push(`${who(s)} has chosen a pass.`);
  }
  const endedHand = (next.phase === "hand_over" || next.phase === "match_over") &&
    !(sameHand && (prev.phase === "hand_over" || prev.phase === "match_over"));
  if (endedHand) {
    const lh = next.last_hand || {};
    const pts = arr4(lh.points);
    if (Number.isInteger(lh.shooter)) out.push(`${who(lh.shooter)} shot the moon!`);
    out.push("Hand over. Points: " + names.map((n, s) => `${you(s)} ${pts[s]}`).join(", ") + ".");
    const tot = arr4(next.totals);
    out.push("Totals: " + names.map((n, s) => `${you(s)} ${tot[s]}`).join(", ") + ".");
  }
  if (next.phase === "match_over" && prev.phase !== "match_over" && Number.isInteger(next.winner)) {
    out.push(isViewer(next, next.winner) ? "You win the match!" : `${who(next.winner)} wins the match.`);
  }
  if (next.paused && !prev.paused) out.push("Paused.");
  if (!next.paused && prev.paused) out.push("Resumed.");
  const turnChanged = next.turn !== prev.turn || next.phase !== prev.phase || !sameHand;
  if (next.prompt && (next.prompt !== prev.prompt || (turnChanged && isMyTurn(next)))) {
    out.push(next.prompt);
  } else if (turnChanged && next.phase === "playing" && Number.isInteger(next.turn) && !isViewer(next, next.turn)) {
    out.push(`${who(next.turn)}'s turn.`);
  }
  return out;
}

/** The prompt to show, from the server, or a fallback of our own. */
export function promptText(table) {
  if (!hasMatch(table)) return "";
  if (typeof table.prompt === "string" && table.prompt) return table.prompt;
  const names = players(table);
  switch (table.phase) {
    case "passing": return Number.isInteger(table.pass_to) ? `Pass three cards to ${names[table.pass_to]}` : "Choose three cards to pass";
    case "playing": return isViewer(table, table.turn) ? "Your turn" : `${names[table.turn] || "…"} to play`;
    case "hand_over": return "Hand over";
    case "match_over": return "Match over";
    default: return "";
  }
}
