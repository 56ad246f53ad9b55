// hbs replay viewer: one game of a recorded run, loaded on demand (a run's meta, then one chunk).
"use strict";
function pegs(black, white, width) {
  const r = 6, d = 2 * r + 3, circles = [];
  for (let i = 0; i < width; i++) {
    const fill = i < black ? "#111" : i < black + white ? "#fff" : "none";
    const stroke = i < black + white ? "#111" : "#bbb";
    circles.push(`<circle cx="${r + 1 + i * d}" cy="${r + 1}" r="${r}" fill="${fill}" stroke="${stroke}"/>`);
  }
  return `<svg class="peg" role="img" width="${width * d}" height="${2 * r + 2}" aria-label="${black} black, ${white} white">${circles.join("")}</svg>`;
}
function marked(guess, secret) {  // the characters that count as black: same character, same position
  let out = "";
  for (let i = 0; i < guess.length; i++) {
    const c = escapeHtml(guess[i]);
    out += i < secret.length && guess[i] === secret[i] ? `<mark class="black">${c}</mark>` : c;
  }
  return out;
}
function remainingPlot(steps) {
  const points = steps.map((s, i) => [i + 1, s.remaining]).filter(p => typeof p[1] === "number" && p[1] > 0);
  if (points.length < 2) return "";
  const w = 480, h = 200, left = 48, bottom = 24, top = Math.log10(Math.max(...points.map(p => p[1]))) || 1;
  const x = n => left + (w - left - 10) * (n - 1) / Math.max(steps.length - 1, 1);
  const y = v => h - bottom - (h - bottom - 10) * Math.log10(v) / top;
  const line = points.map(p => `${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(" ");
  const ticks = [];
  const every = Math.max(1, Math.ceil(Math.ceil(top) / 6));
  for (let e = 0; e <= Math.ceil(top); e += every) ticks.push(`<text x="${left - 4}" y="${y(10 ** e) + 4}" text-anchor="end">1e${e}</text>`);
  return `<h3>Secrets still possible (log scale)</h3><svg class="hist" role="img" width="${w}" height="${h}" aria-label="secrets still possible after each guess, log scale">` +
    `${ticks.join("")}<polyline points="${line}" fill="none" stroke="#1f77b4" stroke-width="2"/>` +
    points.map(p => `<circle cx="${x(p[0]).toFixed(1)}" cy="${y(p[1]).toFixed(1)}" r="3" fill="#1f77b4"><title>after guess ${p[0]}: ${p[1]}</title></circle>`).join("") + `</svg>`;
}
function render(meta, game) {
  const phrases = meta.game.startsWith("phrases");
  // a site built without its secrets names a game "game K": the pegs are as wide as a guess, nothing is marked
  const width = phrases ? 0 : game.hidden ? (game.guesses.length ? game.guesses[0].guess.length : 0) : game.secret.length;
  const rows = game.guesses.map((s, i) => `<tr><td>${i + 1}</td><td class="guess">${phrases && !game.hidden ? marked(s.guess, game.secret) : escapeHtml(s.guess)}</td>` +
    `<td class="answer" data-black="${s.black}" data-white="${s.white}">${phrases ? "" : pegs(s.black, s.white, width) + " "}${s.black} / ${s.white}</td>` +
    `<td>${s.phase ? escapeHtml(s.phase) : ""}</td><td>${s.remaining ?? ""}</td><td>${s.seconds.toFixed(4)}</td></tr>`);
  return `<h2>${escapeHtml(meta.bot)} on ${escapeHtml(meta.game)}: <span class="secret">${escapeHtml(game.secret)}</span></h2>` +
    `<p>${escapeHtml(game.status)} in ${game.guesses.length} guesses, ${game.seconds.toFixed(3)} s${game.error ? " — " + escapeHtml(game.error) : ""}</p>` +
    `<table class="steps"><caption>Guesses in order${phrases ? " (characters marked: black, same character in the same place)" : ""}</caption>` +
    `<thead><tr><th scope="col">#</th><th scope="col">guess</th><th scope="col">black / white</th><th scope="col">phase</th>` +
    `<th scope="col">still possible</th><th scope="col">seconds</th></tr></thead><tbody>${rows.join("")}</tbody></table>` +
    remainingPlot(game.guesses);
}
async function show(run, index, secret) {
  const out = document.getElementById("game");
  const meta = await hbsLoad(run + "/meta", `data/runs/${run}/meta.js`);
  document.getElementById("secrets").innerHTML = meta.secrets.slice(0, 5000).map(s => `<option value="${escapeHtml(s)}">`).join("");
  if (secret !== undefined) index = meta.secrets.indexOf(secret);
  if (index === undefined || index < 0 || index >= meta.secrets.length) {
    out.innerHTML = secret ? `<p>No game of this run has the secret ${escapeHtml(secret)}.</p>` : "<p>Choose a secret.</p>";
    return;
  }
  const n = Math.floor(index / meta.chunk);
  const chunk = await hbsLoad(`${run}/${n}`, `data/runs/${run}/${n}.js`);
  const game = chunk[index - n * meta.chunk];
  document.getElementById("secret").value = game.secret;
  out.innerHTML = render(meta, game);
}
function fromHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const runs = document.getElementById("run");
  if (params.get("run")) runs.value = params.get("run");
  const game = params.get("game"), secret = params.get("secret");
  if (runs.value) show(runs.value, game !== null ? Number(game) : undefined, secret !== null ? secret : undefined);
}
const select = document.getElementById("run");
document.getElementById("find").addEventListener("submit", event => {
  event.preventDefault();
  location.hash = "run=" + encodeURIComponent(select.value) + "&secret=" + encodeURIComponent(document.getElementById("secret").value);
});
window.addEventListener("hashchange", fromHash);
fromHash();
