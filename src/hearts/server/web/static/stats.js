// The statistics page: GET /api/stats drawn as one column per level and one
// row per statistic, with the ranking points and leaderboard rank on top.

import { ensurePlayer, showAccount } from "./session.js";

const $ = (id) => document.getElementById(id);
const LEVELS = ["easy", "normal", "expert", "all"];
const NONE = "—";

const count = (v) => (Number.isFinite(v) ? String(v) : NONE);
const decimals = (places) => (v) => (Number.isFinite(v) ? v.toFixed(places) : NONE);
const percent = (v) => (Number.isFinite(v) ? `${Math.round(v * 100)}%` : NONE);

// The rows, in the order they are shown: [field, label, format].
const ROWS = [
  ["played", "Played", count],
  ["won", "Won", count],
  ["win_rate", "Win rate", percent],
  ["average_final_score", "Average final score", decimals(1)],
  ["best_winning_total", "Best winning total", count],
  ["hands", "Hands played", count],
  ["average_points_per_hand", "Average points per hand", decimals(2)],
  ["moons", "Moons shot", count],
  ["queens", "Queens taken", count],
  ["current_streak", "Current streak", count],
  ["best_streak", "Best streak", count],
];

function cell(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function drawTable(levels) {
  const body = $("stats-body");
  body.replaceChildren();
  for (const [field, label, format] of ROWS) {
    const row = document.createElement("tr");
    row.dataset.stat = field;
    row.appendChild(cell("th", label, { scope: "row" }));
    for (const level of LEVELS) {
      const stats = levels && levels[level] && typeof levels[level] === "object" ? levels[level] : {};
      const td = cell("td", format(stats[field]), { class: "num" });
      td.dataset.level = level;
      row.appendChild(td);
    }
    body.appendChild(row);
  }
}

function drawPlayer(player) {
  const guest = !player || player.guest !== false;
  const who = $("stats-who");
  who.replaceChildren();
  if (guest) {
    who.textContent = "Playing as a guest.";
  } else {
    // The name is typed by a user: it goes in as text.
    const name = document.createElement("strong");
    name.textContent = String(player.name || "");
    who.append("Signed in as ", name, ".");
  }
  $("stats-points").textContent = count(player && player.ranking_points);
  const rank = player && Number.isInteger(player.rank) ? player.rank : null;
  $("stats-rank").textContent = rank !== null ? `#${rank}` : guest ? "Not ranked (guest)" : "Not ranked yet";
  $("stats-guest-note").hidden = !guest;
}

async function fetchStats() {
  const response = await fetch("/api/stats", { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" });
  let body = null;
  try { body = await response.json(); } catch { /* no JSON */ }
  return { status: response.status, ok: response.ok, body };
}

async function load() {
  let player;
  try {
    player = await ensurePlayer();
    showAccount($("account-state"), player);
    let answer = await fetchStats();
    // The cookie may have lapsed since: become a guest again and ask once more.
    if (answer.status === 401) {
      player = await ensurePlayer();
      showAccount($("account-state"), player);
      answer = await fetchStats();
    }
    if (!answer.ok || !answer.body) throw new Error(`stats: HTTP ${answer.status}`);
    drawPlayer(answer.body.player);
    drawTable(answer.body.levels);
    $("stats").hidden = false;
  } catch {
    $("stats-error").textContent = "Your statistics could not be loaded. Reload the page to try again.";
  } finally {
    $("loading").hidden = true;
  }
}

load();
