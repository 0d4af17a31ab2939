// Small pieces both game pages use (the solo game, app.js, and a shared
// table, table.js): the message line, the live region, times as text, and
// moving between the cards of the hand with the keyboard.

const byId = (id) => document.getElementById(id);

export function capitalise(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }

/** "0:42", "12:05", "1:02:03". */
export function formatTime(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  const pad = (n) => String(n).padStart(2, "0");
  return hh ? `${hh}:${pad(mm)}:${pad(ss)}` : `${mm}:${pad(ss)}`;
}

/** A countdown as text, rounding up: 42.1 s left reads "0:43", never "0:00" before the end. */
export function formatCountdown(ms) {
  return formatTime(Math.ceil(Math.max(0, ms) / 1000) * 1000);
}

/** The message line (`#message`): a short sentence that clears itself after a while. */
export function messenger(id = "message") {
  let timer = null;
  return function showMessage(text, kind = "info") {
    const node = byId(id);
    if (!node) return;
    node.textContent = text;
    node.dataset.kind = kind;
    clearTimeout(timer);
    if (text) timer = setTimeout(() => { node.textContent = ""; }, 8000);
  };
}

/** The polite live region (`#live`): what arrives together is read as one update. */
export function announcer(id = "live") {
  let queue = [];
  let timer = null;
  return function announce(text) {
    if (!text) return;
    queue.push(text);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const live = byId(id);
      if (live) live.textContent = queue.join(" ");
      queue = [];
    }, 150);
  };
}

/**
 * Arrow keys, Home and End between the cards of the hand (one Tab stop:
 * a roving tabindex). `ui.focusCard` follows the focus.
 */
export function moveHandFocus(hand, event, ui, choose = null) {
  // Enter and Space choose the card on keydown, not by the button's own
  // activation: Space activates on keyup, and a state drawn in between (the
  // hand is redrawn) would swallow it.
  if (choose && (event.key === "Enter" || event.key === " ") && !event.repeat) {
    const btn = event.target.closest && event.target.closest("button[data-card]");
    if (btn && hand.contains(btn)) {
      event.preventDefault();
      choose(btn.dataset.card);
      return;
    }
  }
  const keys = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];
  if (!keys.includes(event.key)) return;
  const buttons = [...hand.querySelectorAll("button[data-card]")];
  const i = buttons.indexOf(document.activeElement);
  if (i < 0 || !buttons.length) return;
  let j = i;
  if (event.key === "ArrowLeft" || event.key === "ArrowUp") j = Math.max(0, i - 1);
  if (event.key === "ArrowRight" || event.key === "ArrowDown") j = Math.min(buttons.length - 1, i + 1);
  if (event.key === "Home") j = 0;
  if (event.key === "End") j = buttons.length - 1;
  event.preventDefault();
  buttons[i].tabIndex = -1;
  buttons[j].tabIndex = 0;
  buttons[j].focus();
  ui.focusCard = buttons[j].dataset.card;
}

/** Open a <dialog> as a modal (or as a plain open element where showModal is missing). */
export function openDialog(dialog) {
  if (typeof dialog.showModal === "function") { if (!dialog.open) dialog.showModal(); }
  else dialog.setAttribute("open", "");
}

export function closeDialog(dialog) {
  if (typeof dialog.close === "function") { if (dialog.open) dialog.close(); }
  else dialog.removeAttribute("open");
}
