"""How fast a large web board is: 20 bots x 10,000 games, written and opened in headless Chromium.

    python benchmarks/board.py [--bots 20] [--games 10000] [--repeat 3]

Makes a scoreboard of synthetic runs (each with a replay file of phrase games whose guesses are
graded by the rule), writes the site with `hbs board --html`, then opens it from disk in Chromium
(Playwright, the system's `chromium`) and prints: the seconds to write the site, its size, the
seconds until index.html has loaded (the `load` event) and until a replay is shown, and the
bytes the browser read for each.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hbs.arena import replays
from hbs.board import scoreboard
from hbs.core.record import GameRecord, Step
from hbs.arena.summary import summarize
from hbs.sandbox.workers import Budgets
from hbs.core.rule import grade
from hbs.arena.runs import RunOutcome
from hbs.core.status import Status


def synthetic(folder: Path, bots: int, games: int) -> None:
    rng = random.Random(1)
    words = Path("data/words.txt").read_text().split()
    secrets = [" ".join(rng.sample(words, 3)) for _ in range(games)]
    fingerprint = replays.secret_set_hash(secrets)
    for b in range(bots):
        records = []
        for secret in secrets:
            steps = []
            for _ in range(rng.randint(3, 10) - 1):
                guess = " ".join(rng.sample(words, 3))
                steps.append(Step(guess, *grade(guess, secret), remaining=rng.randint(1, 10**9), phase="p1", seconds=0.01))
            steps.append(Step(secret, len(secret), 0, remaining=1, phase="p3", seconds=0.01))
            records.append(GameRecord(f"bot{b:02d}", "phrases-3x10000", secret, Status.SOLVED, steps, 0.1))
        path = folder / f"bot{b:02d}.jsonl"
        replays.rewrite(path, records, fingerprint)
        scoreboard.record_run(folder / "board", RunOutcome(
            bot=f"bot{b:02d}", bot_hash="0" * 16, game="phrases-3x10000", secrets=secrets, secret_set=fingerprint,
            records=records, summary=summarize(f"bot{b:02d}", "phrases-3x10000", records, 100.0), budgets=Budgets(),
            played=games, confinement="bwrap", replays=str(path)))


def file_bytes(urls: list[str]) -> int:
    """The size on disk of every file the browser asked for."""
    from urllib.parse import unquote, urlparse

    return sum(Path(unquote(urlparse(u).path)).stat().st_size for u in urls)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bots", type=int, default=20)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="hbs-board-bench-"))
    start = time.perf_counter()
    synthetic(folder, args.bots, args.games)
    print(f"made {args.bots} runs x {args.games} games in {time.perf_counter() - start:.1f} s")
    site = folder / "site"
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "hbs", "board", "--html", str(site), "--scoreboard",
                           str(folder / "board")], capture_output=True, text=True)
    if done.returncode:
        sys.exit(done.stderr)
    size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    print(f"hbs board --html: {time.perf_counter() - start:.1f} s, {size / 1e6:.1f} MB in "
          f"{sum(1 for _ in site.rglob('*.js'))} files; index.html {(site / 'index.html').stat().st_size / 1e3:.0f} kB")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    run = json.loads(next((folder / "board" / "runs").iterdir()).read_text())
    key = f"{run['bot']}__{run['game']}__{run['secrets']}"
    loads, replay_times, read_bytes = [], [], {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for _ in range(args.repeat):
            page = browser.new_page()
            asked: list[str] = []
            page.on("request", lambda r: asked.append(r.url.split("#")[0]))
            start = time.perf_counter()
            page.goto((site / "index.html").as_uri(), wait_until="load")
            loads.append(time.perf_counter() - start)
            read_bytes["index"] = file_bytes(asked)
            asked.clear()
            start = time.perf_counter()
            page.goto((site / "replay.html").as_uri() + f"#run={key}&game={args.games - 1}", wait_until="load")
            page.wait_for_selector("table.steps")
            replay_times.append(time.perf_counter() - start)
            read_bytes["replay"] = file_bytes(asked)
            page.close()
        browser.close()
    print(f"index.html loaded: median {statistics.median(loads):.2f} s (best {min(loads):.2f}), "
          f"{read_bytes['index'] / 1e3:.0f} kB read")
    print(f"a replay shown (game {args.games} of a run): median {statistics.median(replay_times):.2f} s "
          f"(best {min(replay_times):.2f}), {read_bytes['replay'] / 1e3:.0f} kB read")
    shutil.rmtree(folder)


if __name__ == "__main__":
    main()
