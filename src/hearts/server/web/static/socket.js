// The connection to the table: a guest token from POST /api/guest kept in
// localStorage, one WebSocket at /ws, `hello` on every (re)connect, and
// reconnection with backoff when the socket drops.

const TOKEN_KEY = "hearts.guest";

export function storedToken() {
  try { return localStorage.getItem(TOKEN_KEY) || null; } catch { return null; }
}

function storeToken(token) {
  try { localStorage.setItem(TOKEN_KEY, token); } catch { /* private mode: keep it in memory */ }
}

export async function newGuestToken() {
  const response = await fetch("/api/guest", { method: "POST", headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`guest: HTTP ${response.status}`);
  const body = await response.json();
  if (!body || typeof body.token !== "string" || !body.token) throw new Error("guest: no token");
  storeToken(body.token);
  return body.token;
}

export async function guestToken() {
  return storedToken() || newGuestToken();
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A table connection. Callbacks: onMessage(msg), onStatus("connecting" |
 * "open" | "reconnecting"). `send` returns the message's seq, or null when
 * the socket is not open.
 */
export class TableSocket {
  constructor({ onMessage, onStatus }) {
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.ws = null;
    this.token = null;
    this.seq = 0;
    this.attempt = 0;
    this.everOpened = false;
    this.closed = false;
  }

  async start() {
    this.onStatus("connecting");
    for (;;) {
      try {
        this.token = await guestToken();
        break;
      } catch {
        this.onStatus(this.everOpened ? "reconnecting" : "connecting");
        await sleep(this.backoff());
      }
    }
    this.connect();
  }

  backoff() {
    // 0.5 s, 1 s, 2 s, 4 s, then 8 s, with some jitter so tabs spread out.
    const base = Math.min(8000, 500 * 2 ** this.attempt);
    this.attempt += 1;
    return base * (0.8 + Math.random() * 0.4);
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try {
      ws = new WebSocket(`${scheme}//${location.host}/ws`);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.attempt = 0;
      this.everOpened = true;
      this.onStatus("open");
      this.sendRaw({ type: "hello", token: this.token });
    });
    ws.addEventListener("message", (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (!msg || typeof msg !== "object") return;
      if (msg.type === "error" && msg.code === "bad_token") {
        this.replaceToken();
        return;
      }
      this.onMessage(msg);
    });
    ws.addEventListener("close", () => {
      if (this.ws === ws) this.ws = null;
      this.scheduleReconnect();
    });
    // An error is always followed by close; nothing more to do here.
    ws.addEventListener("error", () => {});
  }

  scheduleReconnect() {
    if (this.closed) return;
    this.onStatus(this.everOpened ? "reconnecting" : "connecting");
    setTimeout(() => this.connect(), this.backoff());
  }

  async replaceToken() {
    try {
      this.token = await newGuestToken();
      this.sendRaw({ type: "hello", token: this.token });
    } catch {
      if (this.ws) this.ws.close();
    }
  }

  isOpen() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  sendRaw(msg) {
    if (!this.isOpen()) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Send an intent with a fresh seq. */
  send(msg) {
    this.seq += 1;
    const full = { ...msg, seq: this.seq };
    return this.sendRaw(full) ? this.seq : null;
  }
}
