// The top bar every page shares: on a narrow screen its links fold into a
// Menu button; on pages that have no script of their own for it (help,
// replay) it also shows who is signed in.

import { session, showAccount } from "./session.js";

function wireMenu() {
  const bar = document.querySelector(".topbar");
  const toggle = bar && bar.querySelector(".nav-toggle");
  if (!bar || !toggle) return;
  bar.classList.add("js-nav"); // without this script the links simply stay visible
  const set = (open) => {
    bar.classList.toggle("nav-open", open);
    toggle.setAttribute("aria-expanded", String(open));
  };
  toggle.addEventListener("click", () => set(!bar.classList.contains("nav-open")));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && bar.classList.contains("nav-open")) { set(false); toggle.focus(); }
  });
  document.addEventListener("click", (event) => {
    if (bar.classList.contains("nav-open") && !bar.contains(event.target)) set(false);
  });
  // Choosing Rules (a dialog on the game pages) closes the menu too.
  bar.querySelector(".site-nav").addEventListener("click", (event) => {
    if (event.target.closest("a, button")) set(false);
  });
}

async function fillAccount() {
  const node = document.querySelector('#account-state[data-fill="nav"]');
  if (!node) return;
  try {
    const { player } = await session(); // only looks: a help page makes no guest
    showAccount(node, player);
  } catch { /* no server: leave it empty */ }
}

wireMenu();
fillAccount();
