// The account page: sign in, sign up (the guest becomes the account), sign
// out, change the password (which signs out every other device). Success goes back to the game; errors are shown next to the form, in
// its alert region, with focus on the field to fix.

import { ensurePlayer, failureText, postJSON, showAccount, signOut } from "./session.js";

const $ = (id) => document.getElementById(id);
const HOME = "/";
// The server's rule, checked here too so a mistake is explained at once.
const USERNAME_CHARS = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

function isAccount(player) {
  return !!(player && !player.guest && player.name);
}

function show(player) {
  showAccount($("account-state"), player, signOutHere);
  const signedIn = isAccount(player);
  $("loading").hidden = true;
  $("signed-in").hidden = !signedIn;
  $("password-panel").hidden = !signedIn;
  $("forms").hidden = signedIn;
  $("me-name").textContent = signedIn ? player.name : "";
}

function setStatus(text) {
  $("account-status").textContent = text;
}

// ---- errors -------------------------------------------------------------------

function clearError(kind) {
  $(`${kind}-error`).textContent = "";
  for (const input of $(`${kind}-form`).querySelectorAll("input")) input.removeAttribute("aria-invalid");
}

function showError(kind, text, field) {
  clearError(kind);
  $(`${kind}-error`).textContent = text;
  const input = $(`${kind}-${field}`);
  input.setAttribute("aria-invalid", "true");
  input.focus();
  input.select();
}

/** What is wrong with a new username and password, as [message, field], or null. */
function signupProblem(username, password) {
  if (!username) return ["Choose a username.", "username"];
  // Wrong characters first: the more useful news when the length is off too.
  if (!USERNAME_CHARS.test(username)) {
    return ["A username can use only letters, digits, _ and -, and starts with a letter or a digit.", "username"];
  }
  if (username.length < 3 || username.length > 20) return ["A username has 3 to 20 characters.", "username"];
  if (password.length < 8) return ["Your password needs at least 8 characters.", "password"];
  if (password.length > 128) return ["Your password can have at most 128 characters.", "password"];
  return null;
}

/** Which field a refusal from the server is about, so focus lands there. */
function fieldOf(kind, answer) {
  if (kind === "signin") return answer.status === 429 ? "username" : "password";
  const detail = answer.body && typeof answer.body.detail === "string" ? answer.body.detail.toLowerCase() : "";
  return detail.includes("password") ? "password" : "username";
}

function refusalText(kind, answer) {
  if (answer.status === 429) {
    const wait = Number.parseInt(answer.retryAfter || "", 10);
    const base = failureText(answer, "Too many sign-in attempts.");
    return Number.isFinite(wait) && wait > 0 ? `${base} Try again in ${wait} second${wait === 1 ? "" : "s"}.` : base;
  }
  if (kind === "signin" && answer.status === 401) return failureText(answer, "Wrong username or password.");
  return failureText(answer, kind === "signin" ? "Signing in did not work. Please try again." : "The account could not be created. Please try again.");
}

// ---- sending ------------------------------------------------------------------

async function submit(kind, event) {
  event.preventDefault();
  const form = $(`${kind}-form`);
  if (form.dataset.busy === "1") return;
  const username = $(`${kind}-username`).value.trim();
  const password = $(`${kind}-password`).value;
  clearError(kind);
  setStatus("");

  if (kind === "signin" && (!username || !password)) {
    showError(kind, "Enter your username and your password.", username ? "password" : "username");
    return;
  }
  if (kind === "signup") {
    const problem = signupProblem(username, password);
    if (problem) { showError(kind, problem[0], problem[1]); return; }
  }

  const button = $(`btn-${kind}`);
  form.dataset.busy = "1";
  button.disabled = true;
  setStatus(kind === "signin" ? "Signing in…" : "Creating your account…");
  const answer = await postJSON(`/api/account/${kind}`, { username, password });
  form.dataset.busy = "";
  button.disabled = false;
  setStatus("");
  if (answer.ok) {
    location.assign(HOME);
    return;
  }
  showError(kind, refusalText(kind, answer), fieldOf(kind, answer));
}

async function changePassword(event) {
  event.preventDefault();
  const form = $("password-form");
  if (form.dataset.busy === "1") return;
  const current = $("password-current").value;
  const fresh = $("password-new").value;
  clearError("password");
  setStatus("");
  if (!current) { showError("password", "Enter your current password.", "current"); return; }
  if (fresh.length < 8) { showError("password", "Your new password needs at least 8 characters.", "new"); return; }
  if (fresh.length > 128) { showError("password", "Your new password can have at most 128 characters.", "new"); return; }
  form.dataset.busy = "1";
  $("btn-password").disabled = true;
  setStatus("Changing your password…");
  const answer = await postJSON("/api/account/password", { current, new: fresh });
  form.dataset.busy = "";
  $("btn-password").disabled = false;
  setStatus("");
  if (answer.ok) {
    form.reset();
    setStatus("Your password is changed. Every other device was signed out.");
    return;
  }
  const wrongCurrent = answer.status === 401 || answer.status === 429;
  showError(
    "password",
    answer.status === 401 ? "That is not your current password." : refusalText("signin", answer),
    wrongCurrent ? "current" : "new",
  );
}

async function signOutHere() {
  const answer = await signOut();
  if (!answer.ok) {
    setStatus(failureText(answer, "Signing out did not work. Please try again."));
    return;
  }
  let player = null;
  try { player = await ensurePlayer(); } catch { /* shown as signed out all the same */ }
  show(player);
  setStatus("You're signed out. This browser now plays as a new guest.");
  $("signin-username").focus();
}

async function load() {
  try {
    show(await ensurePlayer());
  } catch {
    $("loading").textContent = "The server could not be reached. Reload the page to try again.";
  }
}

$("signin-form").addEventListener("submit", (event) => submit("signin", event));
$("signup-form").addEventListener("submit", (event) => submit("signup", event));
$("password-form").addEventListener("submit", changePassword);
$("btn-signout").addEventListener("click", async (event) => {
  const button = event.currentTarget;
  button.disabled = true;
  try { await signOutHere(); } finally { button.disabled = false; }
});
load();
