// The "Play with friends" form: POST /api/tables with the table's name, the
// bots' level and the house rules that differ from the standard game, then
// go to the new table's page.

import { BOT_LEVELS, changedRules, MOON_STYLES, PASSING, TARGETS } from "./house-rules.js";
import { ensurePlayer, failureText, offerSeatName, postJSON, rememberSeatName, showAccount } from "./session.js";

const $ = (id) => document.getElementById(id);
const NAME_MAX = 40;

function chosenRules() {
  const target = Number($("rule-target").value);
  const moon = $("rule-moon").value;
  const passing = $("rule-passing").value;
  return changedRules({
    target: TARGETS.includes(target) ? target : 100,
    moon: MOON_STYLES.includes(moon) ? moon : "add",
    passing: PASSING.includes(passing) ? passing : "standard",
    jack_of_diamonds: $("rule-jack").checked,
    queen_breaks_hearts: $("rule-queen-breaks").checked,
    black_maria: $("rule-black-maria").checked,
  });
}

function chosenLevel() {
  const checked = document.querySelector('input[name="bot_level"]:checked');
  return checked && BOT_LEVELS.includes(checked.value) ? checked.value : "normal";
}

function showError(text, field) {
  $("form-error").textContent = text;
  const name = $("table-name");
  if (field === "name") {
    name.setAttribute("aria-invalid", "true");
    name.focus();
  } else {
    name.removeAttribute("aria-invalid");
  }
}

async function submit(event) {
  event.preventDefault();
  const name = $("table-name").value.trim();
  if (!name) { showError("Give the table a name.", "name"); return; }
  if (name.length > NAME_MAX) { showError(`The name can have at most ${NAME_MAX} characters.`, "name"); return; }
  showError("");
  const button = $("btn-create");
  button.disabled = true;
  button.textContent = "Creating…";
  const body0 = { name, bot_level: chosenLevel(), rules: chosenRules() };
  const playerName = $("player-name-field").hidden ? "" : rememberSeatName($("player-name").value);
  if (playerName) body0.player_name = playerName;
  const answer = await postJSON("/api/tables", body0);
  const body = answer.body || {};
  if (answer.ok && (typeof body.url === "string" || typeof body.code === "string")) {
    // The button stays disabled: the page is going.
    const url = typeof body.url === "string" && body.url.startsWith("/") ? body.url : `/t/${encodeURIComponent(body.code)}`;
    location.assign(url);
    return;
  }
  button.disabled = false;
  button.textContent = "Create table";
  showError(failureText(answer, "The table could not be created. Please try again."));
}

async function init() {
  $("new-table-form").addEventListener("submit", submit);
  $("table-name").addEventListener("input", () => {
    if ($("table-name").value.trim()) $("table-name").removeAttribute("aria-invalid");
  });
  try {
    // A table belongs to a player: make sure this browser is one (a guest at least).
    const player = await ensurePlayer();
    showAccount($("account-state"), player);
    offerSeatName(player, $("player-name-field"), $("player-name"));
  } catch {
    showError("The server could not be reached. Check your connection and reload the page.");
  }
}

init();
