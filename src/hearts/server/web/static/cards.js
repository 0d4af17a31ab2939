// Cards: parsing the record's texts ("QS", "TH", "10h"), names people say,
// and drawing a card as SVG so it stays crisp at any size.

export const SUITS = ["C", "D", "S", "H"];
export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
const SUIT_NAMES = { C: "clubs", D: "diamonds", S: "spades", H: "hearts" };
const SUIT_SYMBOLS = { C: "♣", D: "♦", S: "♠", H: "♥" };
const RANK_NAMES = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
  9: "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};
// Display order alternates colours: clubs, diamonds, spades, hearts.
const SUIT_ORDER = { C: 0, D: 1, S: 2, H: 3 };

/** The canonical text of a card ("QS"), or null when it is not a card. */
export function normCard(text) {
  if (typeof text !== "string") return null;
  let t = text.trim().toUpperCase();
  const symbols = { "♣": "C", "♦": "D", "♠": "S", "♥": "H" };
  if (t.length < 2) return null;
  let suit = t.slice(-1);
  suit = symbols[suit] || suit;
  let rank = t.slice(0, -1);
  if (rank === "10") rank = "T";
  if (!SUITS.includes(suit) || !RANKS.includes(rank)) return null;
  return rank + suit;
}

export function suitOf(card) { return card.slice(-1); }
export function rankOf(card) { return card.slice(0, -1); }
export function rankIndex(card) { return RANKS.indexOf(rankOf(card)); }

/** "Queen of spades". */
export function cardName(card, capital = true) {
  const c = normCard(card);
  if (!c) return String(card);
  const name = `${RANK_NAMES[rankOf(c)]} of ${SUIT_NAMES[suitOf(c)]}`;
  return capital ? name[0].toUpperCase() + name.slice(1) : name;
}

export function suitName(suit) { return SUIT_NAMES[suit] || suit; }

/**
 * The name of a card as a control: "10 of hearts", "Queen of spades". Its
 * visible index ("10", "Q") is part of it, as accessible names should be.
 */
export function cardLabel(card) {
  const c = normCard(card);
  if (!c) return String(card);
  const r = rankOf(c);
  if (/^[2-9T]$/.test(r)) return `${r === "T" ? "10" : r} of ${SUIT_NAMES[suitOf(c)]}`;
  return cardName(c);
}

/** "Q♠", "10♥". */
export function cardShort(card) {
  const c = normCard(card);
  if (!c) return String(card);
  const r = rankOf(c);
  return (r === "T" ? "10" : r) + SUIT_SYMBOLS[suitOf(c)];
}

export function compareCards(a, b) {
  const s = SUIT_ORDER[suitOf(a)] - SUIT_ORDER[suitOf(b)];
  return s !== 0 ? s : rankIndex(a) - rankIndex(b);
}

export function sortCards(cards) {
  return (cards || []).map(normCard).filter(Boolean).sort(compareCards);
}

/** Points of one card in the standard game. */
export function cardPoints(card) {
  const c = normCard(card);
  if (!c) return 0;
  if (c === "QS") return 13;
  return suitOf(c) === "H" ? 1 : 0;
}

// ---- drawing ---------------------------------------------------------------

const SVG_NS = "http://www.w3.org/2000/svg";

// Suit shapes in a 100x100 box.
const SUIT_PATHS = {
  H: "M50 90 C20 65 4 48 4 30 C4 15 16 5 29 5 C39 5 46 11 50 19 C54 11 61 5 71 5 C84 5 96 15 96 30 C96 48 80 65 50 90 Z",
  D: "M50 3 L88 50 L50 97 L12 50 Z",
  S: "M50 4 C35 25 6 40 6 60 C6 75 18 84 30 84 C38 84 44 80 47 75 C46 85 42 92 34 96 L66 96 C58 92 54 85 53 75 C56 80 62 84 70 84 C82 84 94 75 94 60 C94 40 65 25 50 4 Z",
  C: "M50 5 C38 5 29 14 29 26 C29 33 32 39 37 43 C33 41 29 40 25 40 C13 40 4 49 4 61 C4 73 13 82 25 82 C34 82 41 77 45 70 C44 82 40 90 33 96 L67 96 C60 90 56 82 55 70 C59 77 66 82 75 82 C87 82 96 73 96 61 C96 49 87 40 75 40 C71 40 67 41 63 43 C68 39 71 33 71 26 C71 14 62 5 50 5 Z",
};

function el(name, attrs) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  return node;
}

function suitShape(suit, x, y, size) {
  const g = el("g", { transform: `translate(${x} ${y}) scale(${size / 100})` });
  g.appendChild(el("path", { d: SUIT_PATHS[suit], class: "pip" }));
  return g;
}

// Where the pips of a number card sit (in the 60x84 face), as on a printed deck.
const PIPS = {
  2: [[35, 16], [35, 68]],
  3: [[35, 16], [35, 42], [35, 68]],
  4: [[25, 16], [45, 16], [25, 68], [45, 68]],
  5: [[25, 16], [45, 16], [35, 42], [25, 68], [45, 68]],
  6: [[25, 16], [45, 16], [25, 42], [45, 42], [25, 68], [45, 68]],
  7: [[25, 16], [45, 16], [35, 29], [25, 42], [45, 42], [25, 68], [45, 68]],
  8: [[25, 16], [45, 16], [35, 29], [25, 42], [45, 42], [35, 55], [25, 68], [45, 68]],
  9: [[25, 16], [45, 16], [25, 33], [45, 33], [35, 42], [25, 51], [45, 51], [25, 68], [45, 68]],
  10: [[25, 16], [45, 16], [35, 25], [25, 33], [45, 33], [25, 51], [45, 51], [35, 59], [25, 68], [45, 68]],
};

// The court cards' headwear, drawn over the head at (36, 33).
const HEADWEAR = {
  K: "M26 27 L27 17 L31.5 22 L36 14 L40.5 22 L45 17 L46 27 Z",
  Q: "M27 27 Q36 16 45 27 L43 24 L40 26 L36 21 L32 26 L29 24 Z",
  J: "M26 28 Q27 17 37 17 Q45 17 46 25 L49 21 Q49 27 46 28 Z",
};

/** A court figure: a bust in a frame, in the suit's colour, with a crown, tiara or cap. */
function court(svg, rank, suit) {
  svg.appendChild(el("rect", { x: 18, y: 7, width: 37, height: 70, rx: 3, class: "court-frame" }));
  if (rank === "Q") svg.appendChild(el("path", { d: "M27 30 Q25 48 29 52 L43 52 Q47 48 45 30 Z", class: "court-hair" }));
  // Robe (the suit's colour), collar, face.
  svg.appendChild(el("path", { d: "M21 76 L21 60 Q21 48 36 46 Q51 48 51 60 L51 76 Z", class: "court-robe" }));
  svg.appendChild(el("path", { d: "M29 47 L36 56 L43 47 Q36 50 29 47 Z", class: "court-collar" }));
  svg.appendChild(el("circle", { cx: 36, cy: 35, r: 8, class: "court-face" }));
  svg.appendChild(el("path", { d: "M32.5 34 h1.6 M37.9 34 h1.6 M33.5 38.5 Q36 40.5 38.5 38.5", class: "court-features" }));
  svg.appendChild(el("path", { d: HEADWEAR[rank], class: `court-hat court-hat-${rank.toLowerCase()}` }));
  if (rank === "J") svg.appendChild(el("path", { d: "M44 19 Q52 10 55 12 Q50 14 46 22 Z", class: "court-feather" }));
  const badge = suitShape(suit, 31.5, 60, 9);
  badge.setAttribute("class", "court-badge");
  svg.appendChild(badge);
}

/**
 * An SVG face of a card (decorative: the button around it carries the name).
 * A big index (rank and suit) in the top corner, readable when the hand
 * overlaps; pips as on a printed deck; drawn figures for the court cards.
 * The rank is the only text in it, so the card's name can contain it.
 */
export function cardFace(card) {
  const c = normCard(card);
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-face", "aria-hidden": "true", focusable: "false" });
  svg.appendChild(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, class: "card-bg" }));
  if (!c) return svg;
  const suit = suitOf(c);
  const rank = rankOf(c) === "T" ? "10" : rankOf(c);
  const label = el("text", { x: 9, y: 19, class: "card-rank", "text-anchor": "middle" });
  label.textContent = rank;
  if (rank === "10") { label.setAttribute("textLength", "15"); label.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
  svg.appendChild(label);
  svg.appendChild(suitShape(suit, 3, 22, 12));
  const corner = suitShape(suit, 49, 72, 8);
  svg.appendChild(corner);
  if (["J", "Q", "K"].includes(rank)) {
    court(svg, rank, suit);
  } else if (rank === "A") {
    svg.appendChild(suitShape(suit, 19, 26, 32));
  } else {
    for (const [x, y] of PIPS[Number(rank)]) svg.appendChild(suitShape(suit, x - 5.5, y - 5.5, 11));
  }
  return svg;
}

// The back's lattice: one path of small diamonds inside the border (no ids, so
// many backs on a page never repeat one).
const LATTICE = (() => {
  let d = "";
  for (let y = 10; y <= 74; y += 8) {
    for (let x = 10 + ((y / 8) % 2) * 4; x <= 50; x += 8) d += `M${x} ${y - 3}l3 3l-3 3l-3 -3z`;
  }
  return d;
})();

/** The back of a card (face down): a red lattice with a heart in a ring. */
export function cardBack() {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-back", "aria-hidden": "true", focusable: "false" });
  svg.appendChild(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, class: "back-bg" }));
  svg.appendChild(el("rect", { x: 4.5, y: 4.5, width: 51, height: 75, rx: 3, class: "back-inner" }));
  svg.appendChild(el("path", { d: LATTICE, class: "back-lattice" }));
  svg.appendChild(el("circle", { cx: 30, cy: 42, r: 12, class: "back-ring" }));
  const heart = suitShape("H", 22, 34, 16);
  heart.setAttribute("class", "back-heart");
  svg.appendChild(heart);
  return svg;
}

/** A card's CSS classes: its suit, for red/black or four-colour styling. */
export function suitClass(card) {
  const c = normCard(card);
  return c ? `suit-${suitOf(c).toLowerCase()}` : "";
}
