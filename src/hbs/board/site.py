"""The scoreboard as a static web site (``hbs board --html DIR``): standings, distributions, replays.

The site opens from disk (``file://``) and can be published as it is: no server, no network, no
CDN.  ``index.html`` holds the standings of every board as plain HTML tables (sortable with
JavaScript, readable without) and a guesses-a-game histogram drawn as inline SVG.  What is large
is loaded only when a person asks for it, as small script files (a browser will not ``fetch`` a
file from disk, but it will load a script): the per-secret guesses of a board for the head-to-head
view (``data/boards/*.js``), and a run's replays in chunks of :data:`CHUNK` games
(``data/runs/<run>/*.js``) for the replay viewer ``replay.html``.

Replays come from the replay file a run recorded (``--replays``); a run without one has standings
and distributions but no replay viewer.  The scoreboard itself never holds the secrets.
"""

from __future__ import annotations

import html
import itertools
import json
import math
import shutil
from pathlib import Path
from typing import Callable, Sequence

from hbs.arena import replays as replay_files
from hbs.errors import HbsError, InputError
from hbs.board.scoreboard import Standing, p_text, played, replay_path, standings
from hbs.board.significance import paired_p

CHUNK = 200  # games a replay chunk file
HARDEST = 5  # links from a bot's row to its games with the most guesses
ASSETS = Path(__file__).parent / "site_assets"
COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]


def run_key(run: dict) -> str:
    return f"{run['bot']}__{run['game']}__{run['secrets']}"


def board_key(board: Sequence[Standing]) -> str:
    return f"{board[0].game}__{board[0].secrets}"


def script(name: str, data: object) -> str:
    """A data file: a script that hands ``data`` to the page (``hbsData(name, data)``)."""
    text = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return f"hbsData({json.dumps(name)},{text});\n"


def histogram_svg(board: Sequence[Standing], guesses: dict[str, list[int]]) -> str:
    """Bars of games by guesses, one colour a bot, side by side; titles for screen readers."""
    counts = {s.bot: {} for s in board}
    for bot, values in guesses.items():
        for n in values:
            counts[bot][n] = counts[bot].get(n, 0) + 1
    xs = sorted({n for c in counts.values() for n in c}) or [0]
    top = max((v for c in counts.values() for v in c.values()), default=1)
    width, height, left, bottom = max(360, 60 * len(xs)), 220, 44, 28
    slot = (width - left - 10) / len(xs)
    bar = slot * 0.8 / max(len(board), 1)
    parts = [f'<svg class="hist" role="img" viewBox="0 0 {width} {height + 18 * len(board)}" '
             f'width="{width}" aria-label="games by number of guesses, one colour a bot">']
    step = max(1, math.ceil(top / 4))  # whole numbers of games
    top = step * math.ceil(top / step)
    for value in range(0, top + 1, step):
        y = height - bottom - (height - bottom - 10) * value / top
        parts.append(f'<line x1="{left}" x2="{width - 10}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
                     f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end">{value}</text>')
    for i, x in enumerate(xs):
        cx = left + slot * (i + 0.5)
        parts.append(f'<text x="{cx:.1f}" y="{height - bottom + 16}" text-anchor="middle">{x}</text>')
        for k, s in enumerate(board):
            n = counts[s.bot].get(x, 0)
            h = (height - bottom - 10) * n / top
            bx = cx - slot * 0.4 + k * bar
            parts.append(f'<rect x="{bx:.1f}" y="{height - bottom - h:.1f}" width="{bar:.1f}" height="{h:.1f}" '
                         f'fill="{COLORS[k % len(COLORS)]}"><title>{html.escape(s.bot)}: {n} games in {x}</title></rect>')
    for k, s in enumerate(board):
        y = height + 18 * k + 4
        parts.append(f'<rect x="{left}" y="{y}" width="12" height="12" fill="{COLORS[k % len(COLORS)]}"/>'
                     f'<text x="{left + 18}" y="{y + 11}">{html.escape(s.bot)} (mean {s.mean_guesses:.3f})</text>')
    parts.append("</svg>")
    return "".join(parts)


COLUMNS = ["bot", "rank", "solved", "total", "mean ± 95% CI", "median", "max", "failures", "s/game", "vs leader W/L/T",
           "p vs leader", "confinement", "run", "hardest games"]


def standings_rows(board: Sequence[Standing], runs: dict[str, dict], about: dict[str, str],
                   hardest: dict[str, list[tuple[int, str, int]]]) -> str:
    """The rows of one board; each cell carries the value it sorts by (``data-v``)."""
    esc = html.escape
    out = []
    for s in board:
        run = runs[f"{s.bot}__{s.game}__{s.secrets}"]
        failures = ", ".join(f"{k} {v}" for k, v in sorted(s.failures.items())) or "none"
        hard = " ".join(f'<a href="replay.html#run={esc(run_key(run))}&amp;game={i}" title="{esc(secret)}">{n}</a>'
                        for i, secret, n in hardest.get(s.bot, [])) or "no replay kept"
        doc = f"<br><small>{esc(about[s.bot])}</small>" if about.get(s.bot) else ""
        cells = [  # (sort value, shown as HTML)
            (s.rank, str(s.rank)), (s.solved, str(s.solved)), (s.total_guesses, str(s.total_guesses)),
            (s.mean_guesses, f"{s.mean_guesses:.4f} ± {s.ci95:.4f}"), (s.median, f"{s.median:g}"),
            (s.max_guesses, str(s.max_guesses)), (failures, esc(failures)),
            (s.seconds_per_game, f"{s.seconds_per_game:.4f}"),
            (s.vs_leader[0] - s.vs_leader[1], "/".join(map(str, s.vs_leader))),
            (-1 if s.p_vs_leader is None else s.p_vs_leader, p_text(s.p_vs_leader)),
            (s.confinement, esc(played(s.confinement))), (run.get("when", ""), esc(run.get("when", ""))),
            (len(hardest.get(s.bot, [])), hard),
        ]
        out.append(f'<tr><th scope="row" data-v="{esc(s.bot)}"><span class="bot">{esc(s.bot)}</span>{doc}</th>'
                   + "".join(f'<td data-v="{esc(str(v))}">{shown}</td>' for v, shown in cells) + "</tr>")
    return "\n".join(out)


def page(title: str, body: str, scripts: Sequence[str] = ()) -> str:
    tags = "".join(f'<script src="{s}"></script>' for s in scripts)
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{html.escape(title)}</title><link rel="stylesheet" href="board.css"></head>'
            f'<body>{body}{tags}</body></html>\n')


def load_replays(run: dict, scoreboard: Path, warn: Callable[[str], None]) -> list | None:
    """The games of the replay file a run recorded, in the run's order; None (and a warning) where
    the file is gone or now holds another run's games."""
    path = replay_path(scoreboard, run)
    if path is None:
        return None
    try:
        games = [replay_files.to_json(r) for r in replay_files.read(path) if r.bot == run["bot"] and r.game == run["game"]]
    except HbsError as exc:
        warn(f"{run_key(run)}: no replays shown: {exc}")
        return None
    if [len(g["guesses"]) for g in games] != run["guesses"]:
        warn(f"{run_key(run)}: no replays shown: {path} holds other games than the run recorded")
        return None
    return games


def write(folder: str | Path, runs: list[dict], about: dict[str, str] | None = None,
          scoreboard: str | Path = "scoreboard", warn: Callable[[str], None] = lambda line: None,
          with_secrets: bool = True) -> Path:
    """Write the site into ``folder``; returns its ``index.html``.  Without secrets (a site to
    publish while the secret set stays in use) a game is named by its number, not its secret; its
    guesses and answers stay (a solved game's last guess is its secret)."""
    folder, scoreboard, about = Path(folder), Path(scoreboard), about or {}
    try:
        (folder / "data" / "boards").mkdir(parents=True, exist_ok=True)
        (folder / "data" / "runs").mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot write the site there: {exc.strerror}", folder) from None
    for asset in ("board.css", "load.js", "board.js", "replay.js"):
        shutil.copy(ASSETS / asset, folder / asset)
    by_key = {run_key(r): r for r in runs}
    sections, menu = [], []
    for board in standings(runs):
        key = board_key(board)
        guesses = {s.bot: by_key[f"{s.bot}__{key}"]["guesses"] for s in board}
        hardest: dict[str, list[tuple[int, str, int]]] = {}
        secrets: list[str] | None = None
        for s in board:
            run = by_key[f"{s.bot}__{key}"]
            games = load_replays(run, scoreboard, warn)
            if games is None:
                continue
            if not with_secrets:
                games = [dict(g, secret=f"game {i + 1}", hidden=True) for i, g in enumerate(games)]
            secrets = secrets or [g["secret"] for g in games]
            write_run(folder / "data" / "runs" / run_key(run), run, games)
            order = sorted(range(len(games)), key=lambda i: (-len(games[i]["guesses"]), i))[:HARDEST]
            hardest[s.bot] = [(i, games[i]["secret"], len(games[i]["guesses"])) for i in order]
        (folder / "data" / "boards" / f"{key}.js").write_text(script(key, {
            "bots": [s.bot for s in board], "guesses": guesses,
            "statuses": {s.bot: by_key[f"{s.bot}__{key}"]["statuses"] for s in board},
            "runs": {s.bot: f"{s.bot}__{key}" for s in board if s.bot in hardest}, "secrets": secrets,
            "p": pair_p(guesses)}))
        first = board[0]
        anchor = html.escape(key)
        menu.append(f'<li><a href="#{anchor}">{html.escape(first.game)} — {first.games} secrets (set {first.secrets})</a></li>')
        head = "".join(f'<th scope="col"><button type="button" data-col="{i}">{html.escape(c)}</button></th>'
                       for i, c in enumerate(COLUMNS))
        options = "".join(f"<option>{html.escape(s.bot)}</option>" for s in board)
        sections.append(
            f'<section id="{anchor}" data-board="{anchor}"><h2>{html.escape(first.game)} — {first.games} secrets '
            f'(set {first.secrets})</h2>'
            f'<table class="standings"><caption>Standings, the leader first: solved, then mean guesses; bots '
            f'share a rank where the paired test does not tell them apart at 5% (Holm)</caption>'
            f'<thead><tr>{head}</tr></thead><tbody>{standings_rows(board, by_key, about, hardest)}</tbody></table>'
            f'<h3>Guesses a game</h3>{histogram_svg(board, guesses)}'
            f'<h3>Head to head</h3><form class="h2h"><label>bot <select name="a">{options}</select></label> '
            f'<label>against <select name="b">{options}</select></label> <button type="submit">compare</button></form>'
            f'<div class="h2h-out" aria-live="polite"></div></section>')
    body = (f'<header><h1>hbs scoreboard</h1><p>{len(runs)} runs. Sort a table by a column with its header; '
            f'open a game from a bot\'s hardest games, or <a href="replay.html">search the replays</a>.</p>'
            f'<nav><ul>{"".join(menu)}</ul></nav></header><main>{"".join(sections) or "<p>No runs.</p>"}</main>')
    index = folder / "index.html"
    index.write_text(page("hbs scoreboard", body, ["load.js", "board.js"]))
    kept = "".join(f"<option>{html.escape(k)}</option>" for k in sorted(by_key) if (folder / "data" / "runs" / k).is_dir())
    viewer = ('<header><h1>Replay</h1><p><a href="index.html">standings</a></p></header><main>'
              f'<form id="find"><label>run <select id="run">{kept}</select></label> '
              '<label>secret <input id="secret" list="secrets" size="40" autocomplete="off"></label>'
              '<datalist id="secrets"></datalist> <button type="submit">show</button></form>'
              '<div id="game" aria-live="polite"><p>Choose a run and a secret.</p></div></main>')
    (folder / "replay.html").write_text(page("hbs replay", viewer, ["load.js", "replay.js"]))
    return index


def pair_p(guesses: dict[str, list[int]]) -> dict[str, dict[str, float]]:
    """The paired test's p-value of every two bots (the head-to-head's), each pair tested once: the
    test is two-sided, the same both ways."""
    out: dict[str, dict[str, float]] = {bot: {} for bot in guesses}
    for a, b in itertools.combinations(guesses, 2):
        out[a][b] = out[b][a] = paired_p(guesses[a], guesses[b])
    return out


def write_run(folder: Path, run: dict, games: list[dict]) -> None:
    """A run's replays: ``meta.js`` (the secrets, the game) and chunks of :data:`CHUNK` games."""
    folder.mkdir(parents=True, exist_ok=True)
    key = run_key(run)
    (folder / "meta.js").write_text(script(f"{key}/meta", {
        "bot": run["bot"], "game": run["game"], "chunk": CHUNK, "secrets": [g["secret"] for g in games]}))
    for start in range(0, len(games), CHUNK):
        (folder / f"{start // CHUNK}.js").write_text(script(f"{key}/{start // CHUNK}", games[start:start + CHUNK]))
