// The connection to the table: one WebSocket at /ws, `hello` on every
// (re)connect, and reconnection with backoff when the socket drops. Who we
// are travels in the session cookie; the server refuses the handshake when
// the session has no player, so every attempt first makes sure it has one
// (an expired cookie then heals itself with a fresh guest).

import { ensurePlayer } from "./session.js";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A table connection. Callbacks: onMessage(msg), onStatus("connecting" |
 * "open" | "reconnecting"), onPlayer(player) after each check of the
 * session. `hello`: the first message on every (re)connect (a function
 * returning it, or the message), `{type: "hello"}` for the solo game.
 * `send` returns the message's seq, or null when the socket is not open.
 */
export class TableSocket {
  constructor({ onMessage, onStatus, onPlayer, hello }) {
    this.onMessage = onMessage;
    this.hello = hello || { type: "hello" };
    this.onStatus = onStatus || (() => {});
    this.onPlayer = onPlayer || (() => {});
    this.ws = null;
    this.seq = 0;
    this.attempt = 0;
    this.everOpened = false;
    this.closed = false;
  }

  async start() {
    this.closed = false;
    this.onStatus("connecting");
    await this.attemptConnect();
  }

  /** Close for good (signing out: the page reloads as someone else). */
  stop() {
    this.closed = true;
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
  }

  backoff() {
    // 0.5 s, 1 s, 2 s, 4 s, then 8 s, with some jitter so tabs spread out.
    const base = Math.min(8000, 500 * 2 ** this.attempt);
    this.attempt += 1;
    return base * (0.8 + Math.random() * 0.4);
  }

  async attemptConnect() {
    for (;;) {
      if (this.closed) return;
      try {
        this.onPlayer(await ensurePlayer());
        break;
      } catch {
        // The server is down or restarting: wait as for a dropped socket.
        this.onStatus(this.everOpened ? "reconnecting" : "connecting");
        await sleep(this.backoff());
      }
    }
    if (!this.closed) this.connect();
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
      this.sendRaw(typeof this.hello === "function" ? this.hello() : this.hello);
    });
    ws.addEventListener("message", (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (!msg || typeof msg !== "object") return;
      this.onMessage(msg);
    });
    ws.addEventListener("close", () => {
      // A refused handshake lands here too; the next attempt checks the session first.
      if (this.ws !== ws) return;
      this.ws = null;
      this.scheduleReconnect();
    });
    // An error is always followed by close; nothing more to do here.
    ws.addEventListener("error", () => {});
  }

  scheduleReconnect() {
    if (this.closed) return;
    this.onStatus(this.everOpened ? "reconnecting" : "connecting");
    setTimeout(() => this.attemptConnect(), this.backoff());
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
