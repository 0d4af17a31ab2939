// The statistics page's Coach section: how accurate the player's decisions
// were at each level of computers (GET /api/stats/coach), overall and match
// by match, the latest matches last.

import { h } from "./render.js";

const LEVELS = [["easy", "Easy"], ["normal", "Normal"], ["expert", "Expert"]];

function sparkline(matches) {
  const width = 160, height = 32;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "coach-spark");
  svg.setAttribute("aria-hidden", "true");
  const pad = 3;
  const step = matches.length > 1 ? (width - 2 * pad) / (matches.length - 1) : 0;
  const y = (accuracy) => pad + (1 - accuracy / 100) * (height - 2 * pad);
  const points = matches.map((m, i) => `${(pad + i * step).toFixed(1)},${y(m.accuracy).toFixed(1)}`);
  const line = document.createElementNS(ns, matches.length > 1 ? "polyline" : "circle");
  if (matches.length > 1) {
    line.setAttribute("points", points.join(" "));
  } else {
    const [x, y] = points[0].split(",");
    line.setAttribute("cx", x); line.setAttribute("cy", y); line.setAttribute("r", "2.5");
  }
  svg.appendChild(line);
  return svg;
}

async function show() {
  const main = document.getElementById("stats");
  if (!main) return;
  let body = null;
  try {
    const response = await fetch("/api/stats/coach", { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" });
    if (response.ok) body = await response.json();
  } catch { /* the section stays away */ }
  const section = h("section", { id: "coach-stats", class: "coach-stats", "aria-labelledby": "coach-stats-title" },
    h("h2", { id: "coach-stats-title", text: "Coach" }));
  const levels = body && body.levels && typeof body.levels === "object" ? body.levels : {};
  const rows = LEVELS.filter(([key]) => levels[key] && levels[key].hands > 0);
  if (!rows.length) {
    section.appendChild(h("p", { text: "After each hand the coach works out what your decisions cost. Your accuracy at each level will show here once you have finished a hand." }));
  } else {
    const table = h("table", { class: "data-table coach-stats-table" },
      h("caption", { text: "Accuracy: 100 when every decision was the best one; a mistake of 3 points brings a decision down to about 47." }),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", text: "Level" }),
        h("th", { scope: "col", class: "num", text: "Hands" }),
        h("th", { scope: "col", class: "num", text: "Accuracy" }),
        h("th", { scope: "col", text: "Match by match" }),
      )));
    const tbody = h("tbody");
    for (const [key, name] of rows) {
      const level = levels[key];
      const matches = Array.isArray(level.matches) ? level.matches : [];
      const trend = h("td", { class: "coach-trend" });
      if (matches.length) {
        trend.appendChild(sparkline(matches));
        const latest = matches[matches.length - 1];
        trend.appendChild(h("span", { class: "visually-hidden", text: `Latest match: ${Math.round(latest.accuracy)}.` }));
        trend.setAttribute("title", matches.map((m) => `${m.day}: ${Math.round(m.accuracy)}`).join("\n"));
      }
      tbody.appendChild(h("tr", { dataset: { level: key } },
        h("th", { scope: "row", text: name }),
        h("td", { class: "num", text: String(level.hands) }),
        h("td", { class: "num", text: String(Math.round(level.accuracy)) }),
        trend,
      ));
    }
    table.appendChild(tbody);
    section.appendChild(h("div", { class: "table-scroll" }, table));
  }
  main.appendChild(section);
}

show();
