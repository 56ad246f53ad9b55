"""Tables at any width: in 80 columns or piped, no name or number is cut."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pexpect
from rich.console import Console

from hbs.core.record import GameRecord, Step
from hbs.arena.summary import summarize
from hbs.arena.runs import RunOutcome
from hbs.board.console import standings_table
from hbs.board.scoreboard import load_runs, record_run, standings
from hbs.board.tables import Column, Grid, show
from hbs.sandbox.workers import Budgets

NAMES = ["a_rather_long_bot_name", "entropy", "knuth"]


def scoreboard(folder) -> None:
    for k, bot in enumerate(NAMES):
        records = [GameRecord(bot, "mastermind-4x6", f"{s:04d}", "solved", [Step("1122", 0, 0)] * (4 + (s + k) % 3))
                   for s in range(50)]
        record_run(folder, RunOutcome(bot=bot, bot_hash="0" * 16, game="mastermind-4x6",
                                      secrets=[r.secret for r in records], secret_set="s",
                                      records=records, summary=summarize(bot, "mastermind-4x6", records, 1.0),
                                      budgets=Budgets(), played=50, confinement="none" if k == 2 else "bwrap"))


def cells(board) -> list[str]:
    return [s.bot for s in board] + [str(s.total_guesses) for s in board] + ["none (UNCONFINED)"]


def test_a_terminal_of_80_columns_drops_columns_never_cuts(tmp_path):
    scoreboard(tmp_path)
    board = standings(load_runs(tmp_path))[0]
    out = io.StringIO()
    show(standings_table(board), Console(file=out, width=80, force_terminal=True, color_system=None))
    text = out.getvalue()
    assert "…" not in text and all(len(line) <= 80 for line in text.splitlines())
    assert all(cell in text for cell in cells(board))
    header = next(line for line in text.splitlines() if line.split()[:2] == ["rank", "bot"])
    assert "median" not in header  # the first column to go
    note = " ".join(text[text.rindex("(") :].split())
    assert "median" in note and "left out at this width" in note  # and it says so


def test_piped_it_is_plain_text_with_every_column(tmp_path):
    scoreboard(tmp_path)
    done = subprocess.run([sys.executable, "-m", "hbs", "board", "--scoreboard", str(tmp_path)],
                          capture_output=True, text=True, env={"COLUMNS": "40", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    header = done.stdout.splitlines()[1].split()
    assert header[:4] == ["rank", "bot", "solved", "total"] and "median" in header and "confinement" in header
    assert not re.search(r"[│┃━…\x1b]", done.stdout)
    assert all(cell in done.stdout for cell in NAMES + ["none (UNCONFINED)"])


def test_in_a_real_80_column_terminal(tmp_path):
    scoreboard(tmp_path)
    child = pexpect.spawn(sys.executable, ["-m", "hbs", "board", "--scoreboard", str(tmp_path)],
                          dimensions=(40, 80), encoding="utf-8", timeout=60)
    text = child.read()
    child.close()
    plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
    assert "…" not in plain and all(name in plain for name in NAMES), plain
    assert all(len(line.rstrip()) <= 80 for line in plain.splitlines())


def test_a_description_wraps_instead_of_being_cut():
    grid = Grid("", [Column("bot"), Column("what it does", wrap=True, keep=8)])
    grid.add("knuth", "Knuth's minimax: the guess whose largest answer group is smallest (Knuth 1977).")
    out = io.StringIO()
    show(grid, Console(file=out, width=50, force_terminal=True, color_system=None))
    words = out.getvalue().split()
    assert "…" not in out.getvalue() and "smallest" in words and "1977)." in words
