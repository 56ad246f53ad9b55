"""The installed `hbs` command as a user runs it: a real process, real files, a real Ctrl-C."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hbs.replays import read, regrade

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


def test_interrupt_keeps_every_finished_game(tmp_path):
    replays = tmp_path / "r.jsonl"
    proc = subprocess.Popen(
        [HBS, "run", "--bot", "slowfirst", "--bots-dir", str(BOTS), "--replays", str(replays)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not replays.exists() or replays.read_text().count("\n") < 5):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted after" in err
    records = list(read(replays))  # every line parses: no torn line
    assert 5 <= len(records) < 1296
    assert all(r.status == "solved" and not regrade(r) for r in records)
    assert f"{len(records)}" in err
