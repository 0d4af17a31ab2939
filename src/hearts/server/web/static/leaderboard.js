// The leaderboard: one page of GET /api/leaderboard, the signed-in player's
// row marked, and plain links between pages (?page=N) so the browser's own
// history and keyboard handling just work. Names are typed by users: every
// one goes in as text, never as HTML.

import { session, showAccount } from "./session.js";

const $ = (id) => document.getElementById(id);
const NONE = "—";

function requestedPage() {
  const n = Number.parseInt(new URLSearchParams(location.search).get("page") || "1", 10);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

const pageHref = (n) => `/leaderboard?page=${n}`;
const count = (v) => (Number.isFinite(v) ? String(v) : NONE);

function el(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== null && text !== undefined) node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function drawRows(rows) {
  const body = $("lb-body");
  body.replaceChildren();
  for (const row of rows) {
    const tr = document.createElement("tr");
    if (row.me) {
      tr.className = "me";
      tr.id = "me";
      tr.setAttribute("aria-current", "true");
    }
    const best = row.best && typeof row.best === "object" ? row.best : {};
    tr.append(
      el("td", Number.isInteger(row.rank) ? `#${row.rank}` : NONE, { class: "num rank" }),
      el("th", String(row.name ?? ""), { scope: "row", class: "player" }),
      el("td", count(row.points), { class: "num points" }),
      el("td", count(best.easy), { class: "num", "data-level": "easy" }),
      el("td", count(best.normal), { class: "num", "data-level": "normal" }),
      el("td", count(best.expert), { class: "num", "data-level": "expert" }),
    );
    if (row.me) tr.querySelector(".player").append(el("span", " (you)", { class: "you" }));
    body.appendChild(tr);
  }
}

/** Previous or Next: a link when there is such a page, else plain text marked unavailable. */
function pagerLink(slot, label, target, rel) {
  const node = target
    ? el("a", label, { href: pageHref(target), rel })
    : el("span", label, { class: "pager-off", "aria-disabled": "true" });
  $(slot).replaceChildren(node);
}

function drawPager(page, pages) {
  pagerLink("lb-prev-slot", "Previous", page > 1 ? page - 1 : null, "prev");
  pagerLink("lb-next-slot", "Next", page < pages ? page + 1 : null, "next");
  $("lb-pos").textContent = `Page ${page} of ${Math.max(1, pages)}`;
  $("lb-caption").textContent = `Players by ranking points, page ${page} of ${Math.max(1, pages)}`;
}

function drawMe(me, player) {
  const line = $("lb-me");
  line.replaceChildren();
  if (me && Number.isInteger(me.rank)) {
    const link = el("a", `#${me.rank}`, { href: `${pageHref(me.page || 1)}#me` });
    line.append("Your position: ", link, ` with ${count(me.points)} ranking point${me.points === 1 ? "" : "s"}.`);
  } else if (player && !player.guest) {
    line.append("You're not on the board yet: finish a match to get there.");
  } else {
    line.append("Guests don't appear here. ", el("a", "Create an account", { href: "/account" }), " to join the board.");
  }
  line.hidden = false;
}

function drawEmpty(total, page, player) {
  const note = $("lb-empty");
  if (total > 0) {
    // Past the last page (an old link): offer the first one.
    note.replaceChildren(`There is nobody on page ${page}. `, el("a", "Go to the first page", { href: pageHref(1) }), ".");
  } else if (player && !player.guest) {
    // Signed in already: a finished match puts you on the board, not a new account.
    note.replaceChildren("Nobody is on the board yet. ", el("a", "Finish a match", { href: "/" }), " to be the first one here!");
  }
  note.hidden = false;
}

async function load() {
  const wanted = requestedPage();
  let player = null;
  try {
    ({ player } = await session());
  } catch { /* the board is public: show it all the same */ }
  showAccount($("account-state"), player);
  try {
    const response = await fetch(`/api/leaderboard?page=${wanted}`, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" });
    if (!response.ok) throw new Error(`leaderboard: HTTP ${response.status}`);
    const data = await response.json();
    const rows = Array.isArray(data.rows) ? data.rows : [];
    const page = Number.isInteger(data.page) ? data.page : wanted;
    const pages = Number.isInteger(data.pages) ? data.pages : 1;
    drawMe(data.me, player);
    if (rows.length) {
      drawRows(rows);
      drawPager(page, pages);
      $("lb").hidden = false;
      // The rows arrive after load, so the browser could not jump to #me itself.
      if (location.hash === "#me" && $("me")) $("me").scrollIntoView({ block: "center" });
    } else {
      drawEmpty(Number.isInteger(data.total) ? data.total : 0, page, player);
    }
  } catch {
    $("lb-error").textContent = "The leaderboard could not be loaded. Reload the page to try again.";
  } finally {
    $("loading").hidden = true;
  }
}

load();
