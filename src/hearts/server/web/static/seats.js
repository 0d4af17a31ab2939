// The seats of a shared table (its `seats` list, docs/protocol.md): who sits
// where, seen from the viewer, and what to say about someone who is away.
// No DOM here, so node can check it.

import { formatCountdown } from "./ui.js";
import { watching } from "./model.js";

const KINDS = ["you", "person", "bot", "empty"];

/** The seat entry at `rel` (relative to the viewer), normalised; never throws. */
export function seatAt(table, rel) {
  const raw = table && Array.isArray(table.seats) ? table.seats[rel] : null;
  const s = raw && typeof raw === "object" ? raw : {};
  return {
    name: typeof s.name === "string" && s.name ? s.name : null,
    kind: KINDS.includes(s.kind) ? s.kind : "empty",
    connected: s.connected !== false,
    away_ms: Number.isFinite(s.away_ms) ? s.away_ms : null,
    bot_playing: !!s.bot_playing,
    left: !!s.left,
  };
}

/** The absolute seat (what `sit` names) of the relative seat `rel`. */
export function absoluteSeat(table, rel) {
  if (table && table.role === "player" && Number.isInteger(table.you)) return (table.you + rel) % 4;
  return rel;
}

const PLACES_SEATED = ["You", "On your left", "Across from you", "On your right"];
const PLACES_ABSOLUTE = ["South", "West", "North", "East"];

/** Where a seat is, in words: from the player's chair, or the compass for someone watching. */
export function placeOf(table, rel) {
  return (watching(table) || !table ? PLACES_ABSOLUTE : PLACES_SEATED)[rel] || "";
}

/** Does a bot play this seat now (an empty seat filled at the start, someone who left, or is away)? */
export function botAtSeat(seat) {
  return seat.kind === "bot" || seat.left || seat.bot_playing;
}

/**
 * The line under a seat's name about presence: away with the time left
 * before a bot takes over, a bot playing for someone, someone who left.
 * `remainingMs` is `away_ms` counted down since the state arrived.
 */
export function presenceText(seat, name, remainingMs, mine) {
  if (!seat) return "";
  const who = name || seat.name || "This player";
  if (seat.left) return mine ? "You left this seat: a bot plays it now." : `${who} left the table: a bot plays this seat.`;
  if (seat.kind === "bot") return "";
  if (seat.bot_playing) {
    if (mine) return "A bot is playing for you while you were away. You take over at your next turn.";
    return seat.connected ? `A bot is playing for ${who} until their next turn.` : `A bot is playing for ${who} until they come back.`;
  }
  if (!seat.connected && seat.kind !== "empty") {
    if (Number.isFinite(remainingMs)) return `${who} disconnected — a bot plays in ${formatCountdown(remainingMs)}`;
    return `${who} disconnected.`;
  }
  return "";
}

/** Sentences for the live region about people coming, going and bots taking over. */
export function presenceNews(prev, next, names) {
  const out = [];
  if (!prev || !next || prev.role !== next.role || prev.you !== next.you) return out;
  for (let rel = 0; rel < 4; rel++) {
    const a = seatAt(prev, rel), b = seatAt(next, rel);
    const mine = b.kind === "you";
    const who = b.name || names[rel] || placeOf(next, rel);
    if (a.kind === "empty" && (b.kind === "person" || b.kind === "you") && !mine) {
      out.push(`${who} sat down (${placeOf(next, rel).toLowerCase()}).`);
    } else if ((a.kind === "person") && b.kind === "empty") {
      out.push(`${a.name || "Someone"} left the seat ${placeOf(next, rel).toLowerCase()}.`);
    }
    if (mine) continue;
    if (b.left && !a.left) out.push(`${who} left the table. A bot plays the seat.`);
    else if (b.bot_playing && !a.bot_playing) out.push(`A bot is playing for ${who}.`);
    else if (!b.connected && a.connected && b.kind === "person" && a.kind === "person") {
      const secs = Number.isFinite(b.away_ms) ? Math.ceil(b.away_ms / 1000) : null;
      out.push(secs !== null ? `${who} disconnected. A bot plays for them in ${secs} seconds unless they come back.` : `${who} disconnected.`);
    } else if (b.connected && !a.connected && b.kind === "person" && a.kind === "person") {
      out.push(`${who} is back.`);
    }
  }
  return out;
}
