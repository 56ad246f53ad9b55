"""The installed `hbs` command as a user runs it: a real process, real files, a real Ctrl-C."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hbs.arena.replays import read, regrade

BOTS = Path(__file__).parent / "bots"
HBS = shutil.which("hbs") or pytest.skip("the hbs command is not installed", allow_module_level=True)


def test_console_script_runs_and_writes_replays(tmp_path):
    replays = tmp_path / "r.jsonl"
    done = subprocess.run(
        [HBS, "run", "--bot", "entropy", "--game", "bulls", "--limit", "30", "--json", "--replays", str(replays)],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    records = list(read(replays))
    assert summary["games"] == len(records) == 30
    assert summary["total_guesses"] == sum(r.guesses for r in records)
    assert all(not regrade(r) for r in records)


def test_python_dash_m_and_exit_code_2():
    done = subprocess.run([sys.executable, "-m", "hbs", "run", "--bot", "nobody"], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "unknown bot" in done.stderr


def _processes_with(*marks: str) -> list[int]:
    found = []
    for environ in Path("/proc").glob("[0-9]*/environ"):
        try:
            if any(mark.encode() in environ.read_bytes() for mark in marks):
                found.append(int(environ.parent.name))
        except OSError:  # gone, or not ours to read
            pass
    return found


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc to list processes")
@pytest.mark.parametrize("args", [["--bot", "nobody"], ["--bot", "knuth", "--limit", "3", "--workers", "2"],
                                  ["--bot", "knuth", "--limit", "3", "--workers", "2", "--unconfined"]])
def test_no_worker_outlives_its_run(tmp_path, args):
    # `hbs run` starts its workers before it reads its options; a run that fails on them, like one
    # that ends, must leave no worker behind.  Confined workers get a clean environment naming their
    # runner (HBS_RUNNER); unconfined ones inherit the runner's (with the test's mark)
    env = dict(os.environ, HBS_TEST_RUN=tmp_path.name, HBS_SCOREBOARD=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "hbs", "run", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode in (0, 2), err
    marks = (f"HBS_TEST_RUN={tmp_path.name}", f"HBS_RUNNER={proc.pid}\0")
    deadline = time.monotonic() + 10
    while _processes_with(*marks) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _processes_with(*marks) == []


def interrupted(args: list[str], replays) -> tuple[str, list]:
    """``hbs ARGS`` stopped with SIGINT once ``replays`` holds 5 games: its stderr and the games kept."""
    proc = subprocess.Popen(
        [HBS, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # a test run started in the background may inherit SIGINT ignored: the run must see it
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not replays.exists() or replays.read_text().count("\n") < 5):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    records = list(read(replays))  # every line parses: no torn line
    assert 5 <= len(records) < 1296 and all(r.status == "solved" and not regrade(r) for r in records)
    return err, records


def test_interrupt_keeps_every_finished_game(tmp_path):
    replays = tmp_path / "r.jsonl"
    err, records = interrupted(["run", "--bot", "slowfirst", "--bots-dir", str(BOTS), "--replays", str(replays)],
                               replays)
    assert "interrupted after" in err and f"{len(records)}" in err


def test_interrupt_stops_a_tournament_and_keeps_its_games(tmp_path):
    folder = tmp_path / "r"
    err, _ = interrupted(["tournament", "--bot", "slowfirst", "--bot", "first", "--bots-dir", str(BOTS), "--replays",
                          str(folder), "--workers", "2", "--scoreboard", str(tmp_path / "board")],
                         folder / "slowfirst.jsonl")
    assert "tournament interrupted" in err
    # the interrupted run is not on the board; the other bot's is only where it finished all its
    # games before the interrupt (a loaded machine: `first` played its 1296 while `slowfirst` had
    # not yet kept 5), as `tournament.record` records every finished run
    runs = [json.loads(p.read_text()) for p in (tmp_path / "board" / "runs").glob("*.json")]
    assert all(r["bot"] == "first" and len(r["statuses"]) == 1296 for r in runs)
