// NAME: the first code that fits every answer so far, as a node program speaking hbs's line protocol
// (docs/protocol.md): one JSON request a line on stdin, one JSON reply a line on stdout.  A skeleton
// from `hbs new`: make it yours.  Option `order` (bot.toml): "first" or "last" fitting code.
"use strict";
const readline = require("readline");

let codes = [];
let last = false;

function grade(guess, secret) {
  let black = 0;
  const count = new Map();
  for (let i = 0; i < guess.length; i++) {
    if (guess[i] === secret[i]) black++;
    count.set(guess[i], (count.get(guess[i]) || 0) + 1);
  }
  let common = 0;
  for (const ch of secret) {
    const left = count.get(ch) || 0;
    if (left > 0) {
      common++;
      count.set(ch, left - 1);
    }
  }
  return [black, common - black];
}

function allCodes(game) {
  const symbols = game.alphabet.slice(0, game.colors);
  const out = [];
  const build = (prefix) => {
    if (prefix.length === game.pegs) return out.push(prefix);
    for (const s of symbols) {
      if (game.kind === "bulls" && prefix.includes(s)) continue;
      build(prefix + s);
    }
  };
  build("");
  return out;
}

function answer(request) {
  if (request.op === "setup") {
    if (request.game.kind === "phrases") return { unsupported: "NAME plays code games (mastermind, bulls)" };
    codes = allCodes(request.game);
    last = (request.options || {}).order === "last";
    return { ok: true };
  }
  if (request.op === "guess") {
    const fits = codes.filter((code) =>
      request.history.every(([g, b, w]) => {
        const [black, white] = grade(g, code);
        return black === b && white === w && g !== code;
      })
    );
    if (fits.length === 0) return { error: "no code fits the answers" };
    return { guess: last ? fits[fits.length - 1] : fits[0], remaining: fits.length };
  }
  return { error: "unknown request" };
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  process.stdout.write(JSON.stringify(answer(JSON.parse(line))) + "\n");
});
