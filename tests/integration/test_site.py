"""`hbs board --html`, opened from disk in a real headless Chromium (Debian's `chromium`, driven by
Playwright): the standings against `hbs board --json` cell for cell, sorting, the head-to-head
view, replays against the replay files re-graded by the rule, no console errors, no request
leaving the machine.  Screenshots are kept under the test's tmp folder."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hbs.arena.replays import read
from hbs.board.significance import paired_p
from hbs.core.rule import grade

playwright = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine (apt-get install chromium)")
ROOT = Path(__file__).resolve().parents[2]


def hbs(*args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "hbs", *args], capture_output=True, text=True, cwd=ROOT, timeout=300)
    return done


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A scoreboard of four runs (three with replays), one truncated and one foreign file; its site."""
    tmp = tmp_path_factory.mktemp("site")
    board = tmp / "board"
    for bot, extra in (("knuth", ["--replays", str(tmp / "knuth.jsonl")]), ("first", ["--replays", str(tmp / "first.jsonl")]),
                       ("parts", []), ("entropy", ["--phrases", "data/pass.txt", "--replays", str(tmp / "entropy.jsonl")])):
        done = hbs("run", "--bot", bot, "--limit", "40" if bot != "entropy" else "3", "--json", "--workers", "1",
                   "--scoreboard", str(board), *extra)  # (one worker: one set-up, one compile)
        assert done.returncode == 0, done.stderr
    (board / "runs" / "truncated.json").write_text('{"bot": "knuth", "game": "master')
    (board / "runs" / "foreign.json").write_text('{"hello": "world"}')
    site = tmp / "site"
    done = hbs("board", "--html", str(site), "--scoreboard", str(board))
    assert done.returncode == 0, done.stderr
    return tmp, board, site, done.stderr


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


class Page:
    """A page of the site, with every request and console error it made."""

    def __init__(self, browser, url: str):
        self.page = browser.new_page(viewport={"width": 1280, "height": 900})
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url)

    def clean(self) -> bool:
        return not self.errors and all(u.startswith("file://") for u in self.requests)


def rows_of(page, board_key: str) -> list[list[str]]:
    return page.eval_on_selector_all(
        f'section[data-board="{board_key}"] table.standings tbody tr',
        "rows => rows.map(r => Array.from(r.cells).map(c => c.querySelector('.bot') ? c.querySelector('.bot').textContent : c.textContent))")


def expected_row(s: dict) -> list[str]:
    failures = ", ".join(f"{k} {v}" for k, v in sorted(s["failures"].items())) or "none"
    vs = s["vs_leader"]
    confinement = s["confinement"] + (" (UNCONFINED)" if s["confinement"] in ("none", "in-process") else "")
    p = "-" if s["p_vs_leader"] is None else f"{s['p_vs_leader']:.3g}"
    return [s["bot"], str(s["rank"]), str(s["solved"]), str(s["total_guesses"]), f"{s['mean_guesses']:.4f} ± {s['ci95']:.4f}",
            f"{s['median']:g}", str(s["max_guesses"]), failures, f"{s['seconds_per_game']:.4f}",
            f"{vs['won']}/{vs['lost']}/{vs['tied']}", p, confinement]


def test_bad_files_are_named_and_skipped(made):
    tmp, board, site, stderr = made
    lines = stderr.strip().splitlines()
    assert any("truncated.json" in line and "not a run record" in line for line in lines)
    assert any("foreign.json" in line and "not a run record" in line for line in lines)
    assert (site / "index.html").exists() and (site / "replay.html").exists()


def test_standings_match_the_board_cell_for_cell_and_sort(made, browser):
    tmp, board, site, _ = made
    clean = tmp / "clean"  # `hbs board --json` refuses the bad files: a copy without them
    shutil.copytree(board, clean, dirs_exist_ok=True)
    for bad in ("truncated.json", "foreign.json"):
        (clean / "runs" / bad).unlink()
    expected = json.loads(hbs("board", "--json", "--scoreboard", str(clean)).stdout)
    page = Page(browser, (site / "index.html").as_uri())
    boards: dict[str, list[dict]] = {}
    for s in expected:
        boards.setdefault(f"{s['game']}__{s['secrets']}", []).append(s)
    assert len(boards) == 2
    for key, rows in boards.items():
        shown = rows_of(page.page, key)
        assert [r[:12] for r in shown] == [expected_row(s) for s in rows]
    page.page.screenshot(path=str(tmp / "standings.png"), full_page=True)
    # sorting by mean: ascending, then descending (ties keep no promised order: compare the values)
    key = next(k for k in boards if k.startswith("mastermind"))
    button = page.page.locator(f'section[data-board="{key}"] th button', has_text="mean")
    button.click()
    means = [float(r[4].split(" ")[0]) for r in rows_of(page.page, key)]
    assert means == sorted(s["mean_guesses"] for s in boards[key]) and len(means) == 3
    button.click()
    means = [float(r[4].split(" ")[0]) for r in rows_of(page.page, key)]
    assert means == sorted((s["mean_guesses"] for s in boards[key]), reverse=True)
    assert page.page.locator(f'section[data-board="{key}"] th[aria-sort]').get_attribute("aria-sort") == "descending"
    # head to head: knuth against first, per secret, against the replay files
    section = page.page.locator(f'section[data-board="{key}"]')
    section.locator("select[name=a]").select_option("knuth")
    section.locator("select[name=b]").select_option("first")
    section.locator("form.h2h button").click()
    a = [len(r.steps) for r in read(tmp / "knuth.jsonl")]
    b = [len(r.steps) for r in read(tmp / "first.jsonl")]
    won, lost = sum(x < y for x, y in zip(a, b)), sum(x > y for x, y in zip(a, b))
    text = section.locator(".h2h-out p").first.inner_text()
    assert text == f"knuth needed fewer guesses on {won} secrets, more on {lost}, as many on {len(a) - won - lost}."
    said = section.locator(".h2h-out p.h2h-p").inner_text()  # the paired test, as the board computed it
    assert float(re.search(r"p = ([0-9.e+-]+)", said).group(1)) == pytest.approx(paired_p(a, b), rel=1e-2), said
    assert page.clean(), (page.errors, [u for u in page.requests if not u.startswith("file://")])


def test_a_phrase_replay_shows_the_replay_file(made, browser):
    tmp, board, site, _ = made
    games = list(read(tmp / "entropy.jsonl"))
    run = f"entropy__{games[0].game}__" + json.loads((board / "runs" / next(
        p.name for p in (board / "runs").iterdir() if p.name.startswith("entropy"))).read_text())["secrets"]
    page = Page(browser, (site / "replay.html").as_uri() + f"#run={run}&game=1")
    page.page.wait_for_selector("table.steps")
    game = games[1]
    assert page.page.inner_text(".secret") == game.secret
    guesses = page.page.eval_on_selector_all("table.steps tbody td.guess", "cells => cells.map(c => c.textContent)")
    answers = page.page.eval_on_selector_all("table.steps tbody td.answer",
                                             "cells => cells.map(c => [Number(c.dataset.black), Number(c.dataset.white)])")
    assert guesses == [s.guess for s in game.steps]
    assert answers == [list(grade(s.guess, game.secret)) for s in game.steps]  # as the rule grades them
    marks = page.page.eval_on_selector_all("table.steps tbody td.guess", "cells => cells.map(c => "
                                           "Array.from(c.childNodes).map(n => n.nodeName === 'MARK' ? 1 : 0))")
    last = game.steps[-1].guess  # solved: every character of the last guess is black
    assert sum(marks[-1]) == len(last)
    first = game.steps[0].guess
    assert sum(marks[0]) == sum(1 for i, ch in enumerate(first) if i < len(game.secret) and game.secret[i] == ch)
    assert page.page.locator("svg[aria-label^='secrets still possible']").count() == 1
    page.page.screenshot(path=str(tmp / "replay.png"), full_page=True)
    # search by secret: the third game
    page.page.fill("#secret", games[2].secret)
    page.page.click("#find button")
    page.page.wait_for_function(f"document.querySelector('.secret') && document.querySelector('.secret').textContent === {json.dumps(games[2].secret)}")
    assert page.clean(), (page.errors, page.requests)


def test_a_code_replay_draws_the_answers_as_pegs(made, browser):
    tmp, board, site, _ = made
    games = list(read(tmp / "knuth.jsonl"))
    page = Page(browser, (site / "index.html").as_uri())
    link = page.page.locator("a[href*='replay.html#run=knuth__']").first  # knuth's hardest game
    secret = link.get_attribute("title")
    link.click()
    page.page.wait_for_selector("table.steps")
    game = next(g for g in games if g.secret == secret)
    assert len(game.steps) == max(len(g.steps) for g in games)
    pegs = page.page.eval_on_selector_all("td.answer svg", "svgs => svgs.map(s => [s.querySelectorAll('circle[fill=\"#111\"]').length, s.querySelectorAll('circle[fill=\"#fff\"]').length])")
    assert pegs == [list(grade(s.guess, secret)) for s in game.steps]
    assert page.clean(), (page.errors, page.requests)
