"""The confinement mechanisms a test runs under.

A test of what a mechanism holds (files, processes, memory, the network, signals) runs under each
mechanism this machine has.  A test of which commands go through the confinement at all (check,
tree, tournament, listing, the board, program bots) asks the same question of every mechanism: by
default it runs under the first (bubblewrap where there is one), under every one with
``-m slow``, to keep the default suite within its time.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hbs.sandbox import confinement

MECHANISMS = confinement.available()
ROUTED = [pytest.param(m, marks=pytest.mark.slow) if k else m for k, m in enumerate(MECHANISMS)]


@pytest.fixture(params=ROUTED)
def routed(request) -> str:
    """A mechanism for a routing test: the first by default, every one with ``-m slow``."""
    return request.param


@pytest.fixture(scope="session")
def first_compiled(tmp_path_factory) -> None:
    """The bundled ``first`` bot's kernels in its compile cache: a test that gives every bot's setup
    3 s (to see one that overruns skipped) would otherwise, on a cold cache (CI's), see ``first``
    overrun too while numba compiles them (5-7 s)."""
    board = tmp_path_factory.mktemp("first-compiled")
    done = subprocess.run([sys.executable, "-m", "hbs", "run", "--bot", "first", "--limit", "1", "--json",
                           "--scoreboard", str(board)], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
