// The game page: connects to the table, draws each `state`, turns clicks
// and keys into intents (docs/protocol.md), and announces what happens.

import { normCard, sortCards } from "./cards.js";
import {
  announcements, completedTricks, hasMatch, isActive, isMyTurn, isOver, listCards, players, promptText,
} from "./model.js";
import {
  choosePassCard, keepFocus, PASS_WORDS, setPaceButtons, showReview, showRules, wireFourColour, wireMore, wireOption,
} from "./play.js";
import { layoutHand, renderHand, renderScoreSheet, renderSeat, renderSummary, renderTrick } from "./render.js";
import { StateQueue } from "./motion.js";
import { showAccount, signOut } from "./session.js";
import { TableSocket } from "./socket.js";
import { announcer, capitalise, formatTime, messenger, moveHandFocus } from "./ui.js";

const $ = (id) => document.getElementById(id);
const LEVELS = ["easy", "normal", "expert"];
const LEVEL_KEY = "hearts.level";

let table = null;          // the last `table` from the server
let version = null;        // its `state.version`
const ui = {
  selection: new Set(),    // the pass being chosen (ours until confirmed)
  selectionFor: null,      // which match/hand the selection belongs to
  resync: true,            // take the server's selection on the next state
  hint: [],
  focusCard: null,
  level: "normal",
  screen: "loading",       // loading | start | game
  wantGame: false,         // show the table when the next match state arrives
  userPaused: false,
  autoPaused: false,       // we paused because a dialog opened
  startPaused: false,      // we paused because the start screen was opened over the match
  modalDepth: 0,
  pendingLevel: null,      // a new_match waiting for confirm_abandon
  undoWarned: false,
  hintWarned: false,       // the one-time "a hint unranks this match" notice was accepted
  hintPending: false,      // a hint asked for and not answered yet (one at a time)
};
const clock = { ms: 0, at: 0, running: false };

const socket = new TableSocket({ onMessage, onStatus, onPlayer });
// States are drawn in order, each after the motion of the one before (motion.js).
const states = new StateQueue((msg) => onState(msg), () => ({ sound: ui.sound }));

// ---- sending ------------------------------------------------------------------

// Intents that must not be applied twice or to a table that moved on carry
// `version`; a selection (idempotent) and pause/hint/pace do not.
const VERSIONED = new Set(["confirm_pass", "continue", "play", "undo", "restart_hand", "claim", "next_hand"]);

function send(type, fields = {}, { versioned = true } = {}) {
  const msg = { type, ...fields };
  if (versioned && VERSIONED.has(type) && Number.isInteger(version)) msg.version = version;
  const seq = socket.send(msg);
  if (seq === null) showMessage("Not connected. Reconnecting…");
  return seq;
}

// ---- receiving ----------------------------------------------------------------

function onStatus(status) {
  const conn = $("conn");
  conn.dataset.status = status;
  conn.textContent = status === "open" ? "Connected" : status === "reconnecting" ? "Reconnecting…" : "Connecting…";
  document.body.classList.toggle("offline", status !== "open");
  if (status === "open") { ui.resync = true; states.jump(); }
  else if (clock.running) {
    // Cut off from the server, we cannot know the table goes on: the clock
    // stands where it is until the next state says where it really is.
    clock.ms += performance.now() - clock.at;
    clock.at = performance.now();
    clock.running = false;
  }
}

function onPlayer(player) {
  showAccount($("account-state"), player, signOutHere);
}

async function signOutHere() {
  // The socket speaks for the player who is leaving: close it first, so it
  // does not reconnect as them; the reload connects as the fresh guest.
  socket.stop();
  const answer = await signOut();
  if (answer.ok) { location.reload(); return; }
  showMessage("Signing out did not work. Please try again.", "error");
  socket.start();
}

function onMessage(msg) {
  if (msg.type === "state") states.push(msg);
  else if (msg.type === "hint") onHint(msg);
  else if (msg.type === "error") onError(msg);
}

function onState(msg) {
  const next = msg.table && typeof msg.table === "object" ? msg.table : null;
  const prev = table;
  table = next;
  version = Number.isInteger(msg.version) ? msg.version : (next && Number.isInteger(next.version) ? next.version : version);

  if (hasMatch(next)) {
    const key = `${next.match_id}/${next.hand_number}`;
    if (ui.resync || ui.selectionFor !== key || next.phase !== "passing") {
      ui.selection = new Set(sortCards(next.pass_selection));
      ui.selectionFor = key;
      ui.resync = false;
    }
    const moved = !prev || prev.match_id !== next.match_id || prev.hand_number !== next.hand_number ||
      prev.phase !== next.phase || prev.turn !== next.turn || (prev.hand || []).length !== (next.hand || []).length;
    if (moved) ui.hint = [];
    if (prev && (prev.match_id !== next.match_id || prev.hand_number !== next.hand_number)) ui.undoWarned = false;
    if (prev && prev.match_id !== next.match_id) ui.hintWarned = false;
    if (moved) ui.hintPending = false;
    if (next.pace) setPaceButtons(next.pace);
    if (!next.paused) ui.userPaused = false;
    if (next.paused && ui.modalDepth === 0 && !ui.startPaused) ui.userPaused = true;
  }
  clock.ms = next && Number.isFinite(next.elapsed_ms) ? next.elapsed_ms : 0;
  clock.at = performance.now();
  clock.running = !!next && !next.paused && ["passing", "playing", "moon_choice"].includes(next.phase);

  if (ui.screen === "loading") {
    showScreen(isActive(next) || isOver(next) ? "game" : "start");
  } else if (ui.wantGame && hasMatch(next) && (!prev || prev.match_id !== next.match_id || !isOver(next))) {
    ui.wantGame = false;
    showScreen("game");
  } else if (!hasMatch(next)) {
    showScreen("start");
  }

  // A message about the previous step (choosing the pass, say) is stale once the phase moves on.
  if (prev && next && (prev.phase !== next.phase || !!prev.awaiting_continue !== !!next.awaiting_continue)) showMessage("");
  let said = announcements(prev, next);
  if (ui.modalDepth > 0 || ui.autoPaused || ui.startPaused) said = said.filter((s) => s !== "Paused." && s !== "Resumed.");
  if (said.length && ui.screen === "game") announce(said.join(" "));
  render();
}

function onHint(msg) {
  ui.hintPending = false;
  ui.hint = sortCards(msg.cards);
  render();
  if (ui.hint.length) {
    const what = listCards(ui.hint);
    const text = `Suggested: ${what}.`;
    showMessage(text, "hint");
    announce(text);
  } else {
    showMessage("No suggestion right now.", "hint");
  }
}

function onError(msg) {
  ui.hintPending = false;
  if (msg.code === "confirm_unranked") {
    // The server wants the consent our notice asks for (another tab, or a state we had not seen).
    ui.hintWarned = false;
    askHint();
    return;
  }
  if (msg.code === "confirm_abandon") {
    const level = ui.pendingLevel || ui.level;
    confirmDialog({
      title: "Abandon the current match?",
      text: "You have made moves in the match you are playing. Starting a new match now counts that match as a loss in your statistics.",
      ok: "Abandon and start",
    }).then((yes) => {
      if (yes) {
        ui.wantGame = true;
        send("new_match", { level, abandon: true });
      }
      ui.pendingLevel = null;
    });
    return;
  }
  const text = typeof msg.message === "string" && msg.message
    ? capitalise(msg.message)
    : "That did not work.";
  showMessage(text, "error");
  announce(text);
}

// ---- screens and drawing ------------------------------------------------------

function showScreen(name) {
  ui.screen = name;
  $("loading").hidden = true;
  $("start").hidden = name !== "start";
  $("game").hidden = name !== "game";
  if (name === "start") {
    const active = isActive(table);
    $("start-warning").hidden = !active;
    $("btn-play").hidden = !active;
    $("btn-start").textContent = active ? "Start a new match" : "Start";
  }
}

function render() {
  setLevelButtons();
  if (ui.screen === "start") { showScreen("start"); keepFocus([$("btn-start")]); }
  if (!hasMatch(table)) return;
  const t = table;
  const passing = t.phase === "passing" && Number.isInteger(t.pass_to);
  const confirmed = Array.isArray(t.passed) && t.passed.length > 0;
  const over = t.phase === "hand_over" || t.phase === "match_over";

  document.body.dataset.phase = t.phase || "";
  document.body.classList.toggle("paused", !!t.paused);

  const level = t.level ? capitalise(String(t.level)) : "";
  const pass = PASS_WORDS[t.pass_direction] || "";
  $("match-info").textContent = [level, Number.isInteger(t.hand_number) ? `Hand ${t.hand_number}` : "", pass]
    .filter(Boolean).join(" · ");
  $("ranked").textContent = t.ranked === false ? "Unranked" : "Ranked";
  $("ranked").dataset.ranked = String(t.ranked !== false);
  // The server's prompt says "Paused" itself; the page adds what to do.
  $("prompt").textContent = t.paused ? "Paused. Press Resume to go on" : promptText(t);

  for (let s = 0; s < 4; s++) renderSeat($(`seat-${s}`), s, t);
  renderTrick($("trick"), t);
  renderHand($("hand"), t, ui);

  // The one primary action, in its fixed slot: Pass, Continue, Claim, Next hand or Play again.
  const passBtn = $("btn-pass");
  passBtn.hidden = !passing || confirmed;
  passBtn.disabled = ui.selection.size !== 3;
  passBtn.textContent = "Pass";
  $("btn-continue").hidden = !t.awaiting_continue;
  // Claim appears only when it is possible (its title and the help say what it does).
  $("btn-claim").hidden = !(t.phase === "playing" && t.can_claim && !t.awaiting_continue);
  $("btn-next-hand").hidden = t.phase !== "hand_over";
  $("btn-end-new-match").hidden = !isOver(t);

  // Controls.
  const active = isActive(t);
  $("btn-hint").disabled = ui.hintPending || !(active && ((passing && !confirmed) || (isMyTurn(t) && !t.awaiting_continue)));
  $("btn-undo").disabled = !(active && t.can_undo);
  $("btn-restart").disabled = !(active && (t.phase === "passing" || t.phase === "playing"));
  $("btn-review").disabled = !hasMatch(t);
  $("btn-scores").disabled = !hasMatch(t);
  $("btn-last-trick").disabled = completedTricks(t).length === 0;
  const pause = $("btn-pause");
  pause.disabled = !active;
  pause.textContent = t.paused ? "Resume" : "Pause";
  pause.setAttribute("aria-pressed", String(!!t.paused));

  // Hand summary and end of match.
  const summary = $("summary");
  const wasHidden = summary.hidden;
  summary.hidden = !over;
  $("trick").hidden = over;
  if (over) {
    renderSummary(t, { body: $("summary-body"), moon: $("summary-moon"), title: $("summary-title") });
    const matchOver = isOver(t);
    $("match-over").hidden = !matchOver;
    if (matchOver) renderMatchOver(t);
    if (matchOver) renderScoreSheet($("match-sheet"), t, "The match, hand by hand");
    if (wasHidden) {
      const inHand = document.activeElement === document.body || $("hand").contains(document.activeElement) || !document.activeElement;
      if (inHand) (matchOver ? $("btn-end-new-match") : $("btn-next-hand")).focus();
    }
  }
  if (ui.screen === "game") keepFocus(focusOrder(t));
}

/** Where the next decision is: what gets focus when the screen changed under it. */
function focusOrder(t) {
  if (t.awaiting_continue) return [$("btn-continue"), $("hand")];
  if (t.phase === "hand_over") return [$("btn-next-hand")];
  if (t.phase === "match_over") return [$("btn-end-new-match")];
  return [$("hand"), $("btn-pass")];
}

function renderMatchOver(t) {
  const names = players(t);
  const w = t.winner;
  $("match-winner").textContent = w === 0 ? "You win the match!" : Number.isInteger(w) ? `${names[w]} wins the match.` : "The match is over.";
  // The server says what the match earned (it knows who is ranked); the page does not guess.
  const points = t.ranking_points;
  let ranking;
  if (t.ranked === false) ranking = "Undo, Restart hand or a hint was used, so this match earns no ranking points.";
  else if (Number.isInteger(points) && points > 0) ranking = `You earn ${points} ranking points.`;
  else if (w === 0) ranking = Number.isInteger(points) ? "This match earns no ranking points." : "";
  else ranking = "No ranking points this time. Lowest total wins: try again!";
  $("match-ranking").textContent = ranking;
}

function setLevelButtons() {
  for (const level of LEVELS) {
    $(`level-${level}`).setAttribute("aria-pressed", String(ui.level === level));
  }
}

// ---- messages and the live region ---------------------------------------------

const showMessage = messenger("message");
const announce = announcer("live");

// ---- the clock ----------------------------------------------------------------

function tick() {
  const ms = clock.ms + (clock.running ? performance.now() - clock.at : 0);
  const text = formatTime(ms);
  const node = $("clock");
  if (node.textContent !== text) node.textContent = text;
}

// ---- dialogs (they pause the game while open) ---------------------------------

function openModal(dialog) {
  if (ui.modalDepth === 0) {
    ui.autoPaused = false;
    if (isActive(table) && !table.paused && ["passing", "playing"].includes(table.phase)) {
      ui.autoPaused = true;
      send("pause");
    }
  }
  ui.modalDepth += 1;
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
}

function onModalClosed() {
  ui.modalDepth = Math.max(0, ui.modalDepth - 1);
  if (ui.modalDepth === 0 && ui.autoPaused) {
    ui.autoPaused = false;
    if (!ui.userPaused) send("resume");
  }
}

function closeModal(dialog) {
  if (typeof dialog.close === "function" && dialog.open) dialog.close();
  else if (dialog.hasAttribute("open")) { dialog.removeAttribute("open"); onModalClosed(); }
}

let confirmResolve = null;
function confirmDialog({ title, text, ok = "OK", cancel = "Cancel" }) {
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  $("btn-confirm-ok").textContent = ok;
  $("btn-confirm-cancel").textContent = cancel;
  const dialog = $("dlg-confirm");
  dialog.returnValue = "";
  openModal(dialog);
  $("btn-confirm-cancel").focus();
  return new Promise((resolve) => { confirmResolve = resolve; });
}

function openReview(onlyLast) {
  if (hasMatch(table)) showReview(table, onlyLast, openModal);
}

// ---- player actions -----------------------------------------------------------

function onCard(card) {
  const t = table;
  if (!hasMatch(t)) return;
  showMessage("");
  ui.focusCard = card;
  const passing = t.phase === "passing" && Number.isInteger(t.pass_to);
  if (passing) {
    const chosen = choosePassCard(t, ui.selection, card, showMessage, announce);
    if (chosen) {
      ui.selection = chosen;
      send("select_pass", { cards: sortCards([...chosen]) });
      render();
    }
    return;
  }
  if (t.awaiting_continue) {
    showMessage("Look at the cards you received, then press Continue.", "error");
    return;
  }
  // Let the server judge: its reason ("You must follow clubs") is shown.
  states.notePlayed(document.querySelector(`#hand [data-card="${card}"]`));
  send("play", { card });
}

function moveFocus(event) {
  moveHandFocus($("hand"), event, ui, (text) => onCard(normCard(text)));
}

async function withUnrankedNotice(type) {
  const t = table;
  const restart = type === "restart_hand";
  let yes = null;
  if (t && t.ranked !== false && !t.used_undo && !ui.undoWarned) {
    const what = restart ? "Restart hand" : "Undo";
    yes = await confirmDialog({
      title: `${what}: this match will be unranked`,
      text: `${what} is allowed against the computer, but a match in which Undo or Restart hand is used no longer earns ranking points. It still counts in your statistics.${restart ? " The cards played in this hand are taken back and it starts again from the same deal." : ""} Go ahead?`,
      ok: what,
    });
    if (yes) ui.undoWarned = true;
  } else if (restart) {
    // Restart throws the whole hand away: asked every time, not only the first.
    yes = await confirmDialog({
      title: "Restart this hand?",
      text: "Every card played in this hand is taken back, and the hand starts again from the same deal, before the pass.",
      ok: "Restart hand",
    });
  }
  if (yes === false) return;
  if (yes) {
    // Closing the dialog has just sent `resume` (the dialog paused the game), so
    // the version we hold is already old, and the computers may move at once:
    // send it without a version. The socket keeps the order, so it comes right
    // after `resume`; going back to before our own last decision is the same
    // whatever the computers did meanwhile, and the dialog rules out a double click.
    send(type, {}, { versioned: false });
    return;
  }
  send(type);
}

/**
 * Hint: the Expert's advice. In a ranked match the first one makes the match
 * unranked, so it is asked once, as for Undo; the consent travels with the
 * request (`accept_unranked`). One hint at a time.
 */
async function askHint() {
  const t = table;
  if (!hasMatch(t) || ui.hintPending) return;
  const ranked = t.ranked !== false;
  if (ranked && !ui.hintWarned) {
    const yes = await confirmDialog({
      title: "Hint: this match will be unranked",
      text: "A hint is the Expert's advice, whatever your opponents' level. In a ranked match, the first hint makes the match unranked: it earns no ranking points, and your statistics count it with the unranked matches. Go ahead?",
      ok: "Show a hint",
    });
    if (!yes) return;
    ui.hintWarned = true;
  }
  ui.hintPending = send("hint", ranked ? { accept_unranked: true } : {}) !== null;
  render();
}

async function exportRecord() {
  try {
    // The session cookie says whose match it is.
    const response = await fetch("/api/match/record", { headers: { Accept: "application/json" }, credentials: "same-origin" });
    if (!response.ok) {
      let reason = `The record could not be exported (HTTP ${response.status}).`;
      try { const body = await response.json(); if (body && typeof body.detail === "string") reason = body.detail; } catch { /* keep */ }
      showMessage(reason, "error");
      return;
    }
    const blob = await response.blob();
    const url = URL.createObjectURL(new Blob([blob], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = "hearts-record.json";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    showMessage("Saved hearts-record.json. Hands still in play are left out.");
  } catch {
    showMessage("The record could not be exported. Check your connection.", "error");
  }
}

/** New match: the start screen over the match, which pauses (as a dialog does) while it is open. */
function openStart() {
  const t = table;
  if (isActive(t) && !t.paused && ["passing", "playing"].includes(t.phase) && !ui.startPaused) {
    ui.startPaused = true;
    send("pause");
  }
  showScreen("start");
  $("btn-start").focus();
}

/** Play: back to the match from the start screen, resumed if the start screen paused it. */
function backToMatch() {
  if (ui.startPaused) {
    ui.startPaused = false;
    if (!ui.userPaused) send("resume");
  }
  showScreen("game");
  render();
}

function startMatch() {
  ui.startPaused = false;
  ui.pendingLevel = ui.level;
  ui.wantGame = true;
  try { localStorage.setItem(LEVEL_KEY, ui.level); } catch { /* ignore */ }
  showMessage("");
  send("new_match", { level: ui.level, abandon: false });
}

// ---- wiring -------------------------------------------------------------------

function wire() {
  for (const level of LEVELS) {
    $(`level-${level}`).addEventListener("click", () => { ui.level = level; setLevelButtons(); });
  }
  $("btn-start").addEventListener("click", startMatch);
  $("btn-play").addEventListener("click", backToMatch);

  $("hand").addEventListener("click", (event) => {
    const btn = event.target.closest("button[data-card]");
    if (btn) onCard(normCard(btn.dataset.card));
  });
  $("hand").addEventListener("keydown", moveFocus);

  $("btn-pass").addEventListener("click", () => {
    if (ui.selection.size !== 3) { showMessage("Choose exactly three cards to pass.", "error"); return; }
    // No version: our own select_pass messages and the computers' passes (made
    // in the background while we choose) move the table's version on, so the one
    // we hold is often already old. The pass names its three cards, and the
    // rules refuse a second pass.
    showMessage("");  // what was said about choosing the pass is done with
    states.passAway(table, sortCards([...ui.selection]));
    send("confirm_pass", { cards: sortCards([...ui.selection]) }, { versioned: false });
  });
  $("btn-continue").addEventListener("click", () => send("continue"));
  $("btn-claim").addEventListener("click", () => send("claim"));
  $("btn-hint").addEventListener("click", askHint);
  $("btn-undo").addEventListener("click", () => withUnrankedNotice("undo"));
  $("btn-restart").addEventListener("click", () => withUnrankedNotice("restart_hand"));
  $("btn-review").addEventListener("click", () => openReview(false));
  $("btn-last-trick").addEventListener("click", () => openReview(true));
  $("btn-pause").addEventListener("click", () => {
    if (table && table.paused) { ui.userPaused = false; send("resume"); }
    else { ui.userPaused = true; send("pause"); }
  });
  for (const pace of ["relaxed", "quick"]) {
    $(`pace-${pace}`).addEventListener("click", () => { setPaceButtons(pace); send("set_pace", { pace }); });
  }
  $("btn-next-hand").addEventListener("click", () => send("next_hand"));
  $("btn-new-match").addEventListener("click", openStart);
  // Play again: a new match at the level of the one just finished.
  $("btn-end-new-match").addEventListener("click", () => {
    if (table && LEVELS.includes(table.level)) ui.level = table.level;
    startMatch();
  });
  $("btn-scores").addEventListener("click", () => {
    if (!hasMatch(table)) return;
    renderScoreSheet($("scores-sheet"), table);
    openModal($("dlg-scores"));
    $("btn-scores-close").focus();
  });
  $("btn-scores-close").addEventListener("click", () => closeModal($("dlg-scores")));
  $("btn-export").addEventListener("click", exportRecord);
  $("btn-rules").addEventListener("click", () => showRules(openModal));

  $("btn-review-close").addEventListener("click", () => closeModal($("dlg-review")));
  $("btn-rules-close").addEventListener("click", () => closeModal($("dlg-rules")));
  $("btn-confirm-ok").addEventListener("click", () => { $("dlg-confirm").returnValue = "ok"; closeModal($("dlg-confirm")); });
  $("btn-confirm-cancel").addEventListener("click", () => { $("dlg-confirm").returnValue = "cancel"; closeModal($("dlg-confirm")); });
  for (const id of ["dlg-review", "dlg-rules", "dlg-confirm", "dlg-scores"]) {
    $(id).addEventListener("close", () => {
      if (id === "dlg-confirm" && confirmResolve) {
        const resolve = confirmResolve;
        confirmResolve = null;
        resolve($(id).returnValue === "ok");
      }
      onModalClosed();
    });
  }

  wireFourColour();
  wireMore();
  wireOption("opt-motion", "hearts.motion", true, (on) => document.documentElement.classList.toggle("no-motion", !on));
  wireOption("opt-sound", "hearts.sound", false, (on) => { ui.sound = on; });
  window.addEventListener("resize", () => layoutHand($("hand")));
  try {
    const saved = localStorage.getItem(LEVEL_KEY);
    if (LEVELS.includes(saved)) ui.level = saved;
  } catch { /* ignore */ }
  setLevelButtons();
  setInterval(tick, 250);
}

wire();
socket.start();
