// Who this browser is. The server keeps the player in a signed, HttpOnly
// session cookie, so the page never holds a credential; all it keeps is the
// CSRF token the server hands out, which every POST echoes in X-CSRF-Token.

// The guest token of the previous version of the page. It is sent once to
// POST /api/guest so the saved match it names moves into the session.
const LEGACY_TOKEN_KEY = "hearts.guest";

let csrf = null;        // the last token the server gave us
let ensuring = null;    // the ensurePlayer() in flight, shared by its callers

function normPlayer(player) {
  if (!player || typeof player !== "object") return null;
  return {
    name: typeof player.name === "string" && player.name ? player.name : null,
    guest: player.guest !== false,
    ranking_points: Number.isFinite(player.ranking_points) ? player.ranking_points : 0,
  };
}

/** GET /api/session: { csrf, player } (player null when the session has none). Throws when unreachable. */
export async function session() {
  const response = await fetch("/api/session", {
    headers: { Accept: "application/json" },
    credentials: "same-origin",
    cache: "no-store",
  });
  if (!response.ok) throw new Error(`session: HTTP ${response.status}`);
  const body = await response.json();
  if (!body || typeof body.csrf !== "string") throw new Error("session: no csrf");
  csrf = body.csrf;
  return { csrf, player: normPlayer(body.player) };
}

async function post(url, body, token) {
  const headers = { Accept: "application/json", "X-CSRF-Token": token || "" };
  const init = { method: "POST", headers, credentials: "same-origin" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch {
    return { ok: false, status: 0, body: null, retryAfter: null };
  }
  let parsed = null;
  try { parsed = await response.json(); } catch { /* no JSON body */ }
  return { ok: response.ok, status: response.status, body: parsed, retryAfter: response.headers.get("Retry-After") };
}

/**
 * POST `body` as JSON with the CSRF header. A 403 usually means our token
 * is old (another tab signed in or out), so it is refreshed and the request
 * sent once more. Never throws: { ok, status (0 when unreachable), body }.
 */
export async function postJSON(url, body) {
  if (!csrf) {
    try { await session(); } catch { return { ok: false, status: 0, body: null, retryAfter: null }; }
  }
  let answer = await post(url, body, csrf);
  if (answer.status === 403) {
    try { await session(); } catch { return answer; }
    answer = await post(url, body, csrf);
  }
  // Signing in, up or out rotates the token; the answer carries the new one.
  if (answer.body && typeof answer.body.csrf === "string") csrf = answer.body.csrf;
  return answer;
}

function legacyToken() {
  try { return localStorage.getItem(LEGACY_TOKEN_KEY) || null; } catch { return null; }
}

function forgetLegacyToken() {
  try { localStorage.removeItem(LEGACY_TOKEN_KEY); } catch { /* private mode */ }
}

async function makeSurePlayer() {
  const { player } = await session();
  if (player) return player;
  const token = legacyToken();
  const answer = await postJSON("/api/guest", token ? { token } : undefined);
  // The old token is offered once; whatever the server said, it is done with.
  if (token && answer.status !== 0) forgetLegacyToken();
  const made = answer.ok && answer.body ? normPlayer(answer.body.player) : null;
  if (!made) throw new Error(`guest: HTTP ${answer.status}`);
  return made;
}

/** The session's player, made a fresh guest first if it has none. Throws when unreachable. */
export function ensurePlayer() {
  // The socket and the page may ask together: one guest, not two.
  if (!ensuring) ensuring = makeSurePlayer().finally(() => { ensuring = null; });
  return ensuring;
}

/** Sign out, then become a fresh guest. Returns the answer of the sign-out. */
export async function signOut() {
  const answer = await postJSON("/api/account/signout");
  if (answer.ok) {
    try { await ensurePlayer(); } catch { /* the next page load makes the guest */ }
  }
  return answer;
}

/** A short sentence for a failed answer: the server's own words when it gave some. */
export function failureText(answer, fallback = "That did not work. Please try again.") {
  if (!answer || answer.status === 0) return "The server could not be reached. Check your connection and try again.";
  const detail = answer.body && answer.body.detail;
  if (typeof detail === "string" && detail) return detail;
  return fallback;
}

/**
 * The account corner of the top bar: "Guest · Sign in" or "<name> · Sign out".
 * The name goes in as text: it is typed by a user.
 */
export function showAccount(node, player, onSignOut) {
  if (!node) return;
  node.replaceChildren();
  const account = player && !player.guest && player.name;
  node.dataset.state = !player ? "none" : account ? "account" : "guest";
  const who = document.createElement("span");
  who.className = "account-name";
  who.textContent = account ? player.name : "Guest";
  node.append(who, document.createTextNode(" · "));
  if (account) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "link-button account-signout";
    button.textContent = "Sign out";
    button.addEventListener("click", async () => {
      button.disabled = true;
      try { await (onSignOut || defaultSignOut)(); } finally { button.disabled = false; }
    });
    node.append(button);
  } else {
    const link = document.createElement("a");
    link.href = "/account";
    link.textContent = "Sign in";
    node.append(link);
  }
}

async function defaultSignOut() {
  await signOut();
  location.reload();
}

// ---- a guest's name at a table with friends -----------------------------------

const SEAT_NAME_KEY = "hearts.seatName";

/** The name this browser last chose for tables with friends ("" if none). */
export function savedSeatName() {
  try { return localStorage.getItem(SEAT_NAME_KEY) || ""; } catch { return ""; }
}

/** Keep `name` (tidied) for next time; returns it. */
export function rememberSeatName(name) {
  const tidy = String(name || "").split(/\s+/).filter(Boolean).join(" ").slice(0, 20);
  try {
    if (tidy) localStorage.setItem(SEAT_NAME_KEY, tidy);
    else localStorage.removeItem(SEAT_NAME_KEY);
  } catch { /* private mode */ }
  return tidy;
}

/**
 * A guest may choose the name the others see at a table (an account shows its
 * username): the field is shown to guests only, filled with the last choice.
 */
export function offerSeatName(player, field, input) {
  const guest = !player || player.guest;
  field.hidden = !guest;
  if (guest && !input.value) input.value = savedSeatName();
}
