// The house rules a shared table may use (RULES.md, "Optional house rules"):
// their standard values, the choices the form offers, and the words that
// describe a table's rules. No DOM here, so node can check it.

export const STANDARD = {
  target: 100,
  jack_of_diamonds: false,
  moon: "add",
  queen_breaks_hearts: false,
  passing: "standard",
  black_maria: false,
};

export const TARGETS = [50, 75, 100, 150];
export const MOON_STYLES = ["add", "subtract", "choice"];
export const PASSING = ["standard", "none", "left-only", "no-hold"];
export const BOT_LEVELS = ["easy", "normal", "expert"];

const MOON_WORDS = {
  add: "Shooting the moon gives each other player 26 points.",
  subtract: "Shooting the moon takes 26 points off the shooter's own score.",
  choice: "Whoever shoots the moon chooses: 26 points to each other player, or 26 off their own score.",
};

const PASSING_WORDS = {
  standard: "Passing goes left, right, across, then a hand without a pass.",
  none: "No cards are passed.",
  "left-only": "Every hand, three cards are passed to the left.",
  "no-hold": "Passing goes left, right, across, and round again: every hand has a pass.",
};

/** Only the rules that differ from the standard game: what POST /api/tables takes. */
export function changedRules(chosen) {
  const out = {};
  for (const [key, standard] of Object.entries(STANDARD)) {
    const value = chosen ? chosen[key] : undefined;
    if (value !== undefined && value !== null && value !== standard) out[key] = value;
  }
  return out;
}

/** Whether the rules object holds any house rule. */
export function hasHouseRules(rules) {
  return Object.keys(changedRules(rules || {})).length > 0;
}

/** Sentences describing a table's rules; the standard game says so in one line. */
export function rulesSummary(rules) {
  const r = { ...STANDARD, ...changedRules(rules || {}) };
  if (!hasHouseRules(rules)) {
    return ["Standard rules: the match ends when someone reaches 100 points; lowest total wins."];
  }
  const out = [];
  out.push(r.target === STANDARD.target
    ? "The match ends when someone reaches 100 points; lowest total wins."
    : `The match ends when someone reaches ${r.target} points (instead of 100); lowest total wins.`);
  if (r.passing !== STANDARD.passing) out.push(PASSING_WORDS[r.passing] || `Passing: ${r.passing}.`);
  if (r.jack_of_diamonds) out.push("Whoever takes the jack of diamonds takes 10 points off their score.");
  if (r.black_maria) out.push("Black Maria: the ace of spades scores 7 and the king of spades 10, besides the queen's 13.");
  if (r.queen_breaks_hearts) out.push("Playing the queen of spades breaks hearts.");
  if (r.moon !== STANDARD.moon) out.push(MOON_WORDS[r.moon] || `Moon: ${r.moon}.`);
  out.push("House rules: this match earns no ranking points.");
  return out;
}

/** A short label for the level the bots play at. */
export function levelName(level) {
  return { easy: "Easy", normal: "Normal", expert: "Expert" }[level] || "Normal";
}
