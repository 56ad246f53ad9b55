"""A machine with no confinement: `hbs run` still works, says so in one line, and the board marks it.

The machine is made for real: PATH without bubblewrap, and a seccomp filter that makes the kernel
answer Landlock's system calls with ENOSYS, as a kernel without Landlock does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hbs.sandbox import seccomp

NO_LANDLOCK = Path(__file__).parent / "no_landlock.py"
pytestmark = pytest.mark.skipif(not seccomp.supported(), reason="needs seccomp on x86_64 or aarch64")


def hbs(tmp_path, *args) -> subprocess.CompletedProcess:
    env = dict(os.environ, PATH=str(tmp_path), HBS_SCOREBOARD=str(tmp_path / "board"))
    return subprocess.run([sys.executable, str(NO_LANDLOCK), "-m", "hbs", *args], capture_output=True,
                          text=True, env=env, timeout=120)


def test_no_confinement_warns_once_and_plays(tmp_path):
    done = hbs(tmp_path, "run", "--bot", "first", "--limit", "20", "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("\n") == 1 and "warning: bots run unconfined" in done.stderr
    assert "apt-get install bubblewrap" in done.stderr and "--unconfined" in done.stderr
    assert json.loads(done.stdout)["solved"] == 20
    rows = json.loads(hbs(tmp_path, "board", "--json").stdout)
    assert [row["confinement"] for row in rows] == ["none"]
    assert "none (UNCONFINED)" in hbs(tmp_path, "board", "--markdown").stdout
    said = hbs(tmp_path, "run", "--bot", "first", "--limit", "20", "--json", "--unconfined")
    assert said.returncode == 0 and said.stderr == ""  # said explicitly: no warning


@pytest.mark.parametrize("mechanism, why", [("bwrap", "apt-get install bubblewrap"), ("landlock", "no Landlock")])
def test_asking_for_a_missing_mechanism_is_one_line_and_exit_2(tmp_path, mechanism, why):
    done = hbs(tmp_path, "run", "--bot", "first", "--limit", "2", "--sandbox", mechanism)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and why in done.stderr, done.stderr
    assert not (tmp_path / "board").exists()  # nothing played, nothing recorded
