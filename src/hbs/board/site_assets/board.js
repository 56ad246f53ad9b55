// hbs board: sorting the standings by any column, and the head-to-head view of two bots.
// The tables are plain HTML: without JavaScript they read the same, unsorted.
"use strict";
function sortValue(cell) {
  const v = cell.dataset.v, n = Number(v);
  return v !== "" && !Number.isNaN(n) ? n : v;
}
function sortBy(table, col, header) {
  const ascending = header.getAttribute("aria-sort") !== "ascending";
  table.querySelectorAll("th[aria-sort]").forEach(th => th.removeAttribute("aria-sort"));
  header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  rows.sort((a, b) => {
    const x = sortValue(a.cells[col]), y = sortValue(b.cells[col]);
    const c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
    return ascending ? c : -c;
  });
  rows.forEach(r => body.appendChild(r));
}
async function headToHead(section, form) {
  const key = section.dataset.board, out = section.querySelector(".h2h-out");
  const data = await hbsLoad(key, "data/boards/" + key + ".js");
  const a = form.elements.a.value, b = form.elements.b.value;
  const ga = data.guesses[a], gb = data.guesses[b];
  let won = 0, lost = 0, tied = 0;
  const rows = [];
  for (let i = 0; i < ga.length; i++) {
    if (ga[i] < gb[i]) won++; else if (ga[i] > gb[i]) lost++; else tied++;
    if (ga[i] !== gb[i] && rows.length < 200) {
      const secret = data.secrets ? data.secrets[i] : "game " + (i + 1);
      const link = data.runs[a] ? `<a href="replay.html#run=${encodeURIComponent(data.runs[a])}&game=${i}">${escapeHtml(secret)}</a>` : escapeHtml(secret);
      rows.push(`<tr><th scope="row">${link}</th><td class="${ga[i] < gb[i] ? "win" : "loss"}">${ga[i]}</td><td>${gb[i]}</td></tr>`);
    }
  }
  const p = a === b ? 1 : data.p[a][b];
  const verdict = p < 0.05 ? "a significant difference" : "not a significant difference";
  out.innerHTML = `<p><strong>${escapeHtml(a)}</strong> needed fewer guesses on ${won} secrets, more on ${lost}, as many on ${tied}.</p>` +
    `<p class="h2h-p">Wilcoxon signed-rank test on the guesses a secret: p = ${p > 0 ? p.toPrecision(3) : "<1e-300"} (${verdict} at 5%).</p>` +
    (rows.length ? `<table class="h2h-table"><caption>Secrets where they differ${rows.length === 200 ? " (the first 200)" : ""}</caption>` +
      `<thead><tr><th scope="col">secret</th><th scope="col">${escapeHtml(a)}</th><th scope="col">${escapeHtml(b)}</th></tr></thead><tbody>${rows.join("")}</tbody></table>` : "");
}
document.querySelectorAll("table.standings").forEach(table => {
  table.querySelectorAll("th[scope=col] button").forEach(button => {
    button.addEventListener("click", () => sortBy(table, Number(button.dataset.col), button.parentElement));
  });
});
document.querySelectorAll("section[data-board]").forEach(section => {
  const form = section.querySelector("form.h2h");
  if (form.elements.b.options.length > 1) form.elements.b.selectedIndex = 1;
  form.addEventListener("submit", event => { event.preventDefault(); headToHead(section, form); });
});
