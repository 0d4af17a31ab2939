// A table with other people (/t/<code>): seating (the lobby), then the match
// drawn with the solo game's renderers. The server rotates the table so the
// viewer sits at seat 0 (South); someone who only watches sees it unrotated.

import { normCard, sortCards } from "./cards.js";
import { hasHouseRules, levelName, rulesSummary } from "./house-rules.js";
import {
  announcements, completedTricks, isMyTurn, isOver, isViewer, listCards, players, promptText, watching, whoIs,
} from "./model.js";
import {
  choosePassCard, keepFocus, PASS_WORDS, setPaceButtons, showReview, showRules, wireFourColour, wireMore, wireOption,
} from "./play.js";
import { h, layoutHand, renderHand, renderScoreSheet, renderSeat, renderSummary, renderTrick } from "./render.js";
import { absoluteSeat, botAtSeat, placeOf, presenceNews, presenceText, seatAt } from "./seats.js";
import { StateQueue } from "./motion.js";
import { offerSeatName, rememberSeatName, showAccount } from "./session.js";
import { TableSocket } from "./socket.js";
import {
  announcer, capitalise, closeDialog, formatCountdown, messenger, moveHandFocus, openDialog,
} from "./ui.js";

const $ = (id) => document.getElementById(id);
// Intents that must not be applied twice or to a table that moved on.
const VERSIONED = new Set(["play", "claim", "next_hand"]);

const code = tableCode();
const watchOnly = new URLSearchParams(location.search).get("watch") === "1";

let table = null;          // the last `table` from the server
let version = null;        // its `state.version`
const ui = {
  view: "loading",         // loading | missing | lobby | game
  selection: new Set(),    // the pass being chosen (ours until confirmed)
  selectionFor: null,
  resync: true,
  hint: [],
  focusCard: null,
  pendingPlay: null,       // {seq, card, retried}: a play that may come back "stale"
  moonSentFor: null,       // the hand whose moon choice was sent
  leaving: false,
  player: null,            // who this browser is (a guest may choose a name at the table)
};
// Countdowns run locally between states, from the moment the state arrived.
// While reconnecting they stand still (`frozenAt`): the table may have moved on unseen.
const clock = { at: 0, away: [null, null, null, null], nextHand: null, frozenAt: null };

const showMessage = messenger("message");
const announce = announcer("live");
const socket = new TableSocket({
  onMessage,
  onStatus,
  onPlayer: (player) => { ui.player = player; showAccount($("account-state"), player); },
  hello: () => ({ type: "hello", table: code, watch: watchOnly }),
});
// States are drawn in order, each after the motion of the one before (motion.js).
const states = new StateQueue((msg) => onState(msg), () => ({ sound: ui.sound }));

function tableCode() {
  const match = location.pathname.match(/^\/t\/([^/]+)\/?$/);
  return match ? decodeURIComponent(match[1]) : "";
}

function inviteUrl(t) {
  const c = (t && typeof t.code === "string" && t.code) || code;
  return `${location.origin}/t/${encodeURIComponent(c)}`;
}

// ---- sending ------------------------------------------------------------------

function send(type, fields = {}) {
  const msg = { type, ...fields };
  if (VERSIONED.has(type) && Number.isInteger(version)) msg.version = version;
  const seq = socket.send(msg);
  if (seq === null) say("Not connected. Reconnecting…", "error");
  return seq;
}

/** A message where the person is looking: the lobby's line, or the table's. */
function say(text, kind = "info") {
  if (ui.view === "lobby") {
    $("lobby-message").textContent = kind === "error" ? text : "";
    if (kind !== "error") announce(text);
  } else {
    showMessage(text, kind);
  }
}

// ---- receiving ----------------------------------------------------------------

function onStatus(status) {
  const conn = $("conn");
  conn.dataset.status = status;
  conn.textContent = status === "open" ? "Connected" : status === "reconnecting" ? "Reconnecting…" : "Connecting…";
  document.body.classList.toggle("offline", status !== "open");
  if (status === "open") { ui.resync = true; states.jump(); }
  else if (clock.frozenAt === null) clock.frozenAt = performance.now();
}

function onMessage(msg) {
  if (msg.type === "state") states.push(msg);
  else if (msg.type === "hint") onHint(msg);
  else if (msg.type === "error") onError(msg);
}

function seating(t) {
  return !!t && (t.status === "seating" || t.phase === "seating");
}

function onState(msg) {
  const next = msg.table && typeof msg.table === "object" ? msg.table : null;
  if (!next || next.kind === "solo") {
    // Not a shared table (the server answered with the solo game): nothing to show here.
    showView("missing");
    return;
  }
  const prev = table;
  table = next;
  if (Number.isInteger(msg.version)) version = msg.version;

  clock.at = performance.now();
  clock.frozenAt = null;
  clock.away = [0, 1, 2, 3].map((rel) => seatAt(next, rel).away_ms);
  clock.nextHand = Number.isFinite(next.next_hand_ms) ? next.next_hand_ms : null;

  if (!seating(next)) {
    const key = `${next.match_id ?? next.code}/${next.hand_number}`;
    if (ui.resync || ui.selectionFor !== key || next.phase !== "passing") {
      ui.selection = new Set(sortCards(next.pass_selection));
      ui.selectionFor = key;
      ui.resync = false;
    }
    const moved = !prev || prev.hand_number !== next.hand_number || prev.phase !== next.phase ||
      prev.turn !== next.turn || (prev.hand || []).length !== (next.hand || []).length;
    if (moved) ui.hint = [];
    if (next.pace) setPaceButtons(next.pace);
  }
  if (prev && prev.role === "player" && next.role !== "player" && ui.leaving) {
    ui.leaving = false;
    showMessage("You left the table. A bot plays your seat; you are watching.");
  }

  // A message about the previous step (choosing the pass, say) is stale once the phase moves on.
  if (prev && prev.phase !== next.phase) showMessage("");
  const names = players(next);
  let said = [];
  if (seating(prev) && !seating(next)) said.push("The match has started.");
  const fromMatch = prev && !seating(prev) && prev.role === next.role ? prev : null;
  if (!seating(next)) said = said.concat(announcements(withMatchId(fromMatch), withMatchId(next)));
  said = said.concat(presenceNews(prev, next, names));
  if (prev && prev.role !== next.role) said.push(roleSentence(next));
  if (said.length) announce(said.join(" "));

  showView(seating(next) ? "lobby" : "game");
  render();
}

/** The model's helpers tell one match from another by `match_id`; a table has one match. */
function withMatchId(t) {
  return t ? { ...t, match_id: t.match_id ?? t.code ?? code } : t;
}

function roleSentence(t) {
  if (t.role === "player") return "You have a seat at this table.";
  if (t.role === "spectator") return "You are watching this table.";
  return "";
}

function onHint(msg) {
  ui.hint = sortCards(msg.cards);
  render();
  if (ui.hint.length) {
    const text = `Suggested: ${listCards(ui.hint)}.`;
    showMessage(text, "hint");
    announce(text);
  } else {
    showMessage("No suggestion right now.", "hint");
  }
}

function onError(msg) {
  if (msg.code === "no_table") { showView("missing"); return; }
  if (msg.code === "stale") {
    // The table moved on (someone else acted, or a double click). A play of
    // ours goes again once, if it is still our turn and still allowed.
    const p = ui.pendingPlay;
    if (p && p.seq === msg.seq && !p.retried && isMyTurn(table) && (table.legal || []).map(normCard).includes(p.card)) {
      p.retried = true;
      p.seq = send("play", { card: p.card });
    }
    return;
  }
  if (table && table.phase === "moon_choice" && ui.moonSentFor !== null) {
    ui.moonSentFor = null; // ask again
    render();
  }
  const text = typeof msg.message === "string" && msg.message ? capitalise(msg.message) : "That did not work.";
  say(text, "error");
  announce(text);
}

// ---- views ----------------------------------------------------------------------

function showView(name) {
  ui.view = name;
  $("loading").hidden = name !== "loading";
  $("missing").hidden = name !== "missing";
  $("lobby").hidden = name !== "lobby";
  $("game").hidden = name !== "game";
  document.body.dataset.view = name;
  if (name === "missing") document.title = "No such table — Hearts";
}

function render() {
  const t = table;
  if (!t) return;
  document.body.dataset.role = t.role || "";
  document.body.dataset.status = t.status || "";
  document.body.classList.toggle("watching", watching(t));
  document.title = `${t.name || "A table"} — Hearts`;
  fillRules(t);
  if (ui.view === "lobby") renderLobby(t);
  else if (ui.view === "game") renderGame(t);
  updateCountdowns();
}

function fillRules(t) {
  for (const id of ["rules-summary", "rules-dialog-summary"]) {
    const list = $(id);
    list.replaceChildren(...rulesSummary(t.rules).map((line) => h("li", { text: line })));
  }
}

// ---- the lobby ------------------------------------------------------------------

function renderLobby(t) {
  const role = t.role;
  const creator = !!t.creator && role === "player";
  $("lobby-title").textContent = t.name || "A table with friends";
  $("lobby-watching").hidden = role !== "spectator";
  let intro;
  if (creator) intro = "You made this table. Send the link below to your friends, then start when everyone is seated.";
  else if (role === "player") intro = "You have a seat. The match begins when the person who made the table presses Start.";
  else if (role === "spectator") intro = "You are watching. You will see the cards as they are played, never anyone's hand.";
  else intro = "Choose a free seat to play, or just watch.";
  $("lobby-intro").textContent = intro;

  const link = $("invite-link");
  const url = inviteUrl(t);
  if (link.value !== url) link.value = url;

  const names = players(t);
  const list = $("lobby-seats");
  list.replaceChildren();
  for (const rel of [0, 1, 2, 3]) {
    const seat = seatAt(t, rel);
    const abs = absoluteSeat(t, rel);
    const place = placeOf(t, rel);
    const item = h("li", {
      class: `lobby-seat lobby-seat-${rel} ${seat.kind}`,
      dataset: { seat: String(abs), rel: String(rel), kind: seat.kind },
    });
    item.appendChild(h("span", { class: "lobby-place", text: place }));
    let name;
    if (seat.kind === "you") name = seat.name ? `You (${seat.name})` : "You";
    else if (seat.kind === "empty") name = "Empty seat";
    else name = seat.name || names[rel];
    item.appendChild(h("strong", { class: "lobby-name", text: name }));
    if (seat.kind === "bot") item.appendChild(h("span", { class: "badge bot-badge", text: "Bot" }));
    let note = "";
    if (seat.kind === "empty") note = "A bot plays here if nobody sits.";
    else if (seat.kind === "person" && !seat.connected) note = "Not connected right now.";
    if (note) item.appendChild(h("span", { class: "lobby-note", text: note }));
    if (seat.kind === "empty" && role === "visitor") {
      const button = h("button", {
        type: "button", class: "sit primary", dataset: { seat: String(abs) }, "aria-label": `Sit here: ${place}`, text: "Sit here",
      });
      button.addEventListener("click", () => {
        $("lobby-message").textContent = "";
        const chosen = $("seat-name-field").hidden ? "" : rememberSeatName($("seat-name").value);
        send("sit", chosen ? { seat: abs, name: chosen } : { seat: abs });
      });
      item.appendChild(button);
    }
    list.appendChild(item);
  }
  const empty = [0, 1, 2, 3].filter((rel) => seatAt(t, rel).kind === "empty").length;
  $("lobby-bots").textContent = empty
    ? `Seats still empty at the start are played by the computer, at ${levelName(t.bot_level)} level.`
    : `Every seat is taken. Bots play at ${levelName(t.bot_level)} level for anyone who leaves.`;
  $("lobby-spectators").textContent = watchersText(t.spectators);
  // A guest who may still sit down chooses the name shown at this table.
  if (role === "visitor" && empty > 0) offerSeatName(ui.player, $("seat-name-field"), $("seat-name"));
  else $("seat-name-field").hidden = true;

  $("btn-start-table").hidden = !creator;
  $("btn-stand").hidden = !(role === "player" && !t.creator);
  $("watch-link").hidden = role !== "visitor";
  const sitLink = $("sit-link");
  sitLink.hidden = !(watchOnly && role === "spectator" && empty > 0);
  sitLink.setAttribute("href", location.pathname);
  let wait = "";
  if (role === "player" && !creator) wait = "Waiting for the person who made the table to start the match.";
  else if (role !== "player") wait = "The match has not started yet.";
  $("lobby-wait").textContent = wait;
}

function watchersText(n) {
  if (!Number.isInteger(n) || n <= 0) return "";
  return n === 1 ? "1 person is watching." : `${n} people are watching.`;
}

// ---- the game -------------------------------------------------------------------

function renderGame(t) {
  const player = t.role === "player";
  const passing = t.phase === "passing" && Number.isInteger(t.pass_to);
  const confirmed = Array.isArray(t.passed) && t.passed.length > 0;
  const over = t.phase === "hand_over" || t.phase === "match_over";
  const finished = t.status === "finished" || isOver(t);
  document.body.dataset.phase = t.phase || "";

  $("table-name").textContent = t.name || "";
  const pass = PASS_WORDS[t.pass_direction] || "";
  $("match-info").textContent = [Number.isInteger(t.hand_number) && t.hand_number ? `Hand ${t.hand_number}` : "", pass]
    .filter(Boolean).join(" · ");
  $("watching").hidden = player;
  $("house-rules").hidden = !(t.house_rules || hasHouseRules(t.rules));
  $("spectators").textContent = Number.isInteger(t.spectators) && t.spectators > 0 ? `${t.spectators} watching` : "";
  $("prompt").textContent = promptText(t);

  const names = players(t);
  for (let rel = 0; rel < 4; rel++) {
    const node = $(`seat-${rel}`);
    renderSeat(node, rel, t);
    decorateSeat(node, rel, t, names);
  }
  renderTrick($("trick"), t);
  const hand = $("hand");
  hand.hidden = !player;
  if (player) renderHand(hand, t, ui);
  else hand.replaceChildren();

  const passBtn = $("btn-pass");
  passBtn.hidden = !(player && passing && !confirmed);
  passBtn.disabled = ui.selection.size !== 3;
  // Claim appears only when it is possible (its title and the help say what it does).
  $("btn-claim").hidden = !(player && t.phase === "playing" && t.can_claim);

  $("btn-hint").hidden = !player;
  $("btn-hint").disabled = !(player && !finished && ((passing && !confirmed) || isMyTurn(t)));
  $("btn-last-trick").disabled = completedTricks(t).length === 0;
  $("pace").hidden = !player;
  $("btn-leave").hidden = !(player && !finished);
  $("btn-next-hand").hidden = !(t.phase === "hand_over" && player && !finished);

  const summary = $("summary");
  const wasHidden = summary.hidden;
  summary.hidden = !over;
  $("trick").hidden = over;
  if (over) {
    renderSummary(t, { body: $("summary-body"), moon: $("summary-moon"), title: $("summary-title") });
    $("match-over").hidden = !finished;
    if (finished) { renderMatchOver(t, names); renderScoreSheet($("match-sheet"), t, "The match, hand by hand"); }
    if (wasHidden && player && !finished) {
      const active = document.activeElement;
      if (!active || active === document.body || $("hand").contains(active)) $("btn-next-hand").focus();
    }
  }
  renderMoonChoice(t);
  // Focus goes where the next decision is when the screen changed under it.
  if (player) keepFocus(over ? [$("btn-next-hand"), $("hand")] : [$("hand"), $("btn-pass")]);
}

/** Presence under a seat: a Bot badge, away with a countdown, a bot playing for someone. */
function decorateSeat(node, rel, t, names) {
  const seat = seatAt(t, rel);
  const mine = isViewer(t, rel);
  node.dataset.kind = seat.kind;
  node.dataset.connected = String(seat.connected);
  node.classList.toggle("away", !seat.connected && seat.kind === "person");
  node.classList.toggle("bot-playing", botAtSeat(seat));
  node.classList.toggle("left", seat.left);
  const head = node.querySelector(".seat-head");
  if (head && botAtSeat(seat)) head.appendChild(h("span", { class: "badge bot-badge", text: "Bot" }));
  if (head && mine && names[rel] !== "You") head.appendChild(h("span", { class: "seat-you", text: "(you)" }));
  const line = h("p", { class: "presence", dataset: { seat: String(rel) } });
  line.textContent = presenceText(seat, names[rel], clock.away[rel], mine);
  line.hidden = !line.textContent;
  node.appendChild(line);
  const label = node.getAttribute("aria-label") || "";
  if (line.textContent) node.setAttribute("aria-label", `${label}. ${line.textContent}`);
}

function renderMatchOver(t, names) {
  const w = t.winner;
  let text = "The match is over.";
  if (Number.isInteger(w)) text = isViewer(t, w) ? "You win the match!" : `${names[w]} wins the match.`;
  $("match-winner").textContent = text;
}

function renderMoonChoice(t) {
  const dialog = $("dlg-moon");
  const key = `${t.match_id ?? t.code}/${t.hand_number}`;
  const mine = t.phase === "moon_choice" && isViewer(t, t.turn);
  if (mine && ui.moonSentFor !== key) {
    if (!dialog.open) {
      openDialog(dialog);
      $("btn-moon-add").focus();
    }
  } else if (dialog.open) {
    closeDialog(dialog);
  }
}

// ---- countdowns ---------------------------------------------------------------

function updateCountdowns() {
  const t = table;
  if (!t) return;
  const since = (clock.frozenAt ?? performance.now()) - clock.at;
  if (ui.view === "game") {
    const names = players(t);
    for (let rel = 0; rel < 4; rel++) {
      if (clock.away[rel] === null) continue;
      const line = document.querySelector(`#seat-${rel} .presence`);
      if (!line) continue;
      const text = presenceText(seatAt(t, rel), names[rel], clock.away[rel] - since, isViewer(t, rel));
      if (line.textContent !== text) line.textContent = text;
    }
    const note = $("next-hand-note");
    let text = "";
    if (t.phase === "hand_over" && clock.nextHand !== null) {
      text = `The next hand starts in ${formatCountdown(clock.nextHand - since)}.`;
    }
    if (note.textContent !== text) note.textContent = text;
  }
}

// ---- dialogs --------------------------------------------------------------------

function openReview(onlyLast) {
  if (table && !seating(table)) showReview(table, onlyLast, openDialog);
}

// ---- player actions -------------------------------------------------------------

function onCard(card) {
  const t = table;
  if (!t || t.role !== "player" || seating(t)) return;
  showMessage("");
  ui.focusCard = card;
  if (t.phase === "passing" && Number.isInteger(t.pass_to)) {
    const chosen = choosePassCard(t, ui.selection, card, showMessage, announce);
    if (chosen) {
      ui.selection = chosen;
      send("select_pass", { cards: sortCards([...chosen]) });
      render();
    }
    return;
  }
  if (t.phase === "playing" && !isMyTurn(t)) {
    const names = players(t);
    const who = Number.isInteger(t.turn) ? `${whoIs(t, t.turn, names)} is to play.` : "";
    showMessage(`It is not your turn yet. ${who}`.trim(), "error");
    return;
  }
  // Let the server judge: its reason ("You must follow clubs") is shown.
  states.notePlayed(document.querySelector(`#hand [data-card="${card}"]`));
  const seq = send("play", { card });
  ui.pendingPlay = seq === null ? null : { seq, card, retried: false };
}

async function copyInvite() {
  const input = $("invite-link");
  const status = $("copy-status");
  const url = input.value;
  try {
    if (!navigator.clipboard || !window.isSecureContext) throw new Error("no clipboard");
    await navigator.clipboard.writeText(url);
    status.textContent = "Link copied. Paste it in a message to your friends.";
  } catch {
    // No clipboard here (plain http, or refused): select the text for the person to copy.
    input.focus();
    input.select();
    status.textContent = "The link is selected: press Ctrl+C (or ⌘C) to copy it.";
  }
}

// ---- wiring ---------------------------------------------------------------------

function wire() {
  $("btn-copy").addEventListener("click", copyInvite);
  $("invite-link").addEventListener("focus", (event) => event.target.select());
  $("btn-start-table").addEventListener("click", () => { $("lobby-message").textContent = ""; send("start"); });
  $("btn-stand").addEventListener("click", () => send("stand"));

  $("hand").addEventListener("click", (event) => {
    const btn = event.target.closest("button[data-card]");
    if (btn) onCard(normCard(btn.dataset.card));
  });
  $("hand").addEventListener("keydown", (event) => moveHandFocus($("hand"), event, ui, (text) => onCard(normCard(text))));

  $("btn-pass").addEventListener("click", () => {
    if (ui.selection.size !== 3) { showMessage("Choose exactly three cards to pass.", "error"); return; }
    // Unversioned: the others' passes move the version on while we choose;
    // the pass names its cards, and the rules refuse a second one.
    showMessage("");  // what was said about choosing the pass is done with
    states.passAway(table, sortCards([...ui.selection]));
    send("confirm_pass", { cards: sortCards([...ui.selection]) });
  });
  $("btn-claim").addEventListener("click", () => send("claim"));
  $("btn-hint").addEventListener("click", () => send("hint"));
  $("btn-review").addEventListener("click", () => openReview(false));
  $("btn-last-trick").addEventListener("click", () => openReview(true));
  for (const pace of ["relaxed", "quick"]) {
    $(`pace-${pace}`).addEventListener("click", () => { setPaceButtons(pace); send("set_pace", { pace }); });
  }
  $("btn-next-hand").addEventListener("click", () => send("next_hand"));
  $("btn-rules").addEventListener("click", () => showRules(openDialog));

  $("btn-leave").addEventListener("click", () => {
    openDialog($("dlg-leave"));
    $("btn-leave-cancel").focus();
  });
  $("btn-leave-cancel").addEventListener("click", () => closeDialog($("dlg-leave")));
  $("btn-leave-ok").addEventListener("click", () => {
    closeDialog($("dlg-leave"));
    ui.leaving = true;
    send("leave");
  });

  for (const id of ["btn-moon-add", "btn-moon-subtract"]) {
    $(id).addEventListener("click", (event) => {
      const t = table;
      ui.moonSentFor = t ? `${t.match_id ?? t.code}/${t.hand_number}` : null;
      closeDialog($("dlg-moon"));
      send("choose_moon", { style: event.currentTarget.dataset.style });
    });
  }
  // The moon must be scored one way or the other: Escape does not dismiss the question.
  $("dlg-moon").addEventListener("cancel", (event) => event.preventDefault());

  $("btn-review-close").addEventListener("click", () => closeDialog($("dlg-review")));
  $("btn-rules-close").addEventListener("click", () => closeDialog($("dlg-rules")));

  wireFourColour();
  wireMore();
  wireOption("opt-motion", "hearts.motion", true, (on) => document.documentElement.classList.toggle("no-motion", !on));
  wireOption("opt-sound", "hearts.sound", false, (on) => { ui.sound = on; });
  window.addEventListener("resize", () => layoutHand($("hand")));
  $("btn-scores").addEventListener("click", () => {
    if (!table || seating(table)) return;
    renderScoreSheet($("scores-sheet"), table);
    openDialog($("dlg-scores"));
    $("btn-scores-close").focus();
  });
  $("btn-scores-close").addEventListener("click", () => closeDialog($("dlg-scores")));
  setInterval(updateCountdowns, 250);
}

wire();
if (code) socket.start();
else showView("missing");
